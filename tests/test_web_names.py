"""Names checked for look-alikes: passing_game.web.accounts.names (issue 22).

Pure functions: no server, no store, no Starlette (the file is still marked
``web`` by the checkout's conftest, as every ``test_web_*`` is).
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from passing_game.i18n import LANGUAGES, _, using_language
from passing_game.web.accounts import names
from passing_game.web.accounts.names import NameRefused, check, is_reserved, normalize, skeleton
from passing_game.web.table.frames import BOT_NAMES, DELETED_NAME, LEVEL_WORDS

#: Any text, lone surrogates included (a JSON string may carry them).
ANY_TEXT = st.text(st.one_of(st.characters(), st.characters(categories=["Cs"])), max_size=40)


def refused(text: str) -> str:
    """The code ``check`` refuses ``text`` with (fails if it accepts it)."""
    with pytest.raises(NameRefused) as caught:
        check(text)
    assert str(caught.value)
    return caught.value.code


def site_names(language: str) -> list[str]:
    """The bots' and the site's names as the page writes them in ``language``,
    read from the compiled catalogs."""
    with using_language(language):
        shown = [_(name) for name in BOT_NAMES.values()]
        shown += [_(DELETED_NAME), _("Open seat")]
        shown += [_("Bot ({level})").format(level=_(word)) for word in LEVEL_WORDS.values()]
    return shown


# -- normalize ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  Ana   Lu ", "Ana Lu"),
        ("\u3000Ａｎａ\u00a0Lu", "Ana Lu"),  # full-width letters, ideographic and no-break spaces
        ("Ana\tLu\n", "Ana Lu"),
        ("A\x00na\u200b", "Ana"),
        ("e\u200b\u0301", "é"),  # what was kept apart composes
        ("ǈiljana", "Ljiljana"),
        ("Xoán", "Xoán"),
    ],
)
def test_normalize(text: str, expected: str) -> None:
    """Issue 22: look-alike names: NFKC, invisible and control characters dropped,
    spaces squeezed."""
    assert normalize(text) == expected


@given(ANY_TEXT)
def test_normalize_is_idempotent(text: str) -> None:
    """Issue 22: look-alike names: normalizing a normalized name changes nothing."""
    once = normalize(text)
    assert normalize(once) == once
    assert once == once.strip() and "  " not in once


# -- invisible and blank characters -----------------------------------------


@pytest.mark.parametrize(
    "char",
    [
        "\u3164",  # HANGUL FILLER
        "\u115f",  # HANGUL CHOSEONG FILLER
        "\u1160",  # HANGUL JUNGSEONG FILLER
        "\uffa0",  # HALFWIDTH HANGUL FILLER
        "\u2800",  # BRAILLE PATTERN BLANK
        "\u200b",  # ZERO WIDTH SPACE
        "\u202e",  # RIGHT-TO-LEFT OVERRIDE
        "\u200d",  # ZERO WIDTH JOINER
        "\u2060",  # WORD JOINER
        "\u180e",  # MONGOLIAN VOWEL SEPARATOR
        "\ufe0f",  # VARIATION SELECTOR-16 after a letter
        "\U000e0041",  # TAG LATIN CAPITAL LETTER A
        "\u00ad",  # SOFT HYPHEN
    ],
)
def test_invisible_characters_are_refused(char: str) -> None:
    """Issue 22: look-alike names: an invisible or blank character inside a name,
    or as the whole name, is refused."""
    name = unicodedata.name(char, hex(ord(char)))
    assert refused(f"An{char}a") == "name-invisible", name
    assert refused(f"Ana{char}") == "name-invisible", name
    assert refused(char * 3) == "name-invisible", name


def test_emoji_presentation_is_dropped_not_refused() -> None:
    """Issue 22: look-alike names: an emoji's presentation selector, as phones type a
    heart, is no hiding place: it is dropped, not refused."""
    assert check("Ana \u2764\ufe0f") == "Ana \u2764"
    assert check("\u263a\ufe0e Lu") == "\u263a Lu"


@pytest.mark.parametrize("text", ["", "   ", "\x00\x01", "\u0301\u0302", "\ud800"])
def test_a_name_that_shows_nothing_is_refused(text: str) -> None:
    """Issue 22: look-alike names: nothing to show (empty, spaces, controls, lone
    marks) is refused as a bad name."""
    assert refused(text) == "bad-name"


# -- scripts -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Аna",  # Cyrillic А
        "АNA",
        "ΑNΑ",  # Greek Alpha
        "Hаrd bot",  # Cyrillic а
        "Zoё",  # Cyrillic ё
        "Pаblo",
    ],
)
def test_mixed_scripts_are_refused(text: str) -> None:
    """Issue 22: look-alike names: a name mixing look-alike letters of two scripts
    is refused."""
    assert refused(text) == "name-mixed-script"


@pytest.mark.parametrize(
    "text",
    [
        "Ана",
        "Xoán",
        "Đurđa",
        "Čedomir",
        "Ñoño",
        "Iñaki",
        "Ljiljana",
        "Nguyễn",
        "Ελένη",
        "Мария",
        "Ђорђе",
        "田中さん",
        "김철수",
        "Ana 田中",
        "محمد",
        "O'Brien",
        "Jean-Luc",
        "Ana 2",
        "q\u0301",  # a mark with no precomposed letter stays Latin
    ],
)
def test_names_in_one_script_are_accepted(text: str) -> None:
    """Issue 22: look-alike names: names in one script, diacritics and all, are
    accepted as they are."""
    assert check(text) == unicodedata.normalize("NFKC", text)


# -- bots and the site's names -----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Hard bot",
        "hard BOT",
        "hard B0T",
        "HARD   bot",
        "Hard-bot!",
        "Greedy bot",
        "Easy bot",
        "Bot (heuristic)",
        "Bot (anything)",
        "bot(x)",
        "Bot",
        "Deleted player",
        "deleted  PLAYER.",
        "Open seat",
        "0pen seat",
    ],
)
def test_bot_and_site_names_are_refused(text: str) -> None:
    """Issue 22: look-alike names: a bot's seat name, "Deleted player" and "Open
    seat" are refused, case, spacing, punctuation and look-alikes folded."""
    assert refused(text) == "name-reserved"


@pytest.mark.parametrize("language", LANGUAGES)
def test_site_names_are_refused_in_every_language(language: str) -> None:
    """Issue 22: look-alike names: the bots' and the site's names are refused as the
    page writes them in English, Galician and Croatian (read from the catalogs),
    whatever the visitor's language."""
    shown = site_names(language)
    if language != "en":  # the catalogs are there and say something else
        assert set(shown[:8]).isdisjoint(site_names("en"))
    for visitor in LANGUAGES:
        with using_language(visitor):
            for text in shown:
                assert refused(text) == "name-reserved", text
                assert refused(text.upper()) == "name-reserved", text
                plain = "".join(
                    ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch)
                )
                assert refused(plain) == "name-reserved", plain


def test_galician_and_croatian_words() -> None:
    """Issue 22: look-alike names: the words a Galician or a Croatian page shows
    for a deleted account and an open seat are refused."""
    for language in ("gl", "hr"):
        with using_language(language):
            deleted, open_seat, hard = _(DELETED_NAME), _("Open seat"), _(BOT_NAMES["hard"])
        assert deleted != DELETED_NAME and open_seat != "Open seat" and hard != "Hard bot"
        for text in (deleted, open_seat, hard, deleted.lower(), f" {open_seat.upper()} "):
            assert refused(text) == "name-reserved", text


def test_look_alikes_of_bot_names_are_reserved() -> None:
    """Issue 22: look-alike names: reserved names are compared by skeleton, so a
    Cyrillic "а" in "Hаrd bot" still reads as the bot (check refuses it already as
    mixed script)."""
    assert is_reserved("Hаrd bot")
    assert is_reserved("Нard bot")  # Cyrillic Н
    assert is_reserved("Bot (hеuristic)")  # Cyrillic е
    assert is_reserved("Open sеat")


@pytest.mark.parametrize("text", ["Botelho", "Robot", "Abbott", "Hard", "Ana bot", "Seat", "Bot 2"])
def test_names_near_the_site_names_are_accepted(text: str) -> None:
    """Issue 22: look-alike names: names that only share a word with a bot's or the
    site's names are people's names (Botelho is a Galician surname)."""
    assert check(text) == text


# -- skeletons ---------------------------------------------------------------


@pytest.mark.parametrize(
    "group",
    [
        ("Ana", "АNA", "Аna", "ΑNΑ", "ana", "ＡＮＡ", "𝐀𝐧𝐚"),
        ("Ivan", "lvan", "IVAN", "1van", "|van"),
        ("rn", "m"),
        ("Hard bot", "hard B0T", "Hаrd bot"),
        ("Zoë", "Zoё", "Zoe\u0308"),
        ("Ljiljana", "ǈiljana"),
        ("ß", "ss", "SS"),
        ("Open seat", "0pen seat"),
    ],
)
def test_look_alikes_share_a_skeleton(group: tuple[str, ...]) -> None:
    """Issue 22: look-alike names: names that could be taken for one another share
    a skeleton."""
    assert len({skeleton(text) for text in group}) == 1, [skeleton(text) for text in group]


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ana", "Ane"),
        ("Ana", "Ana Lu"),
        ("Ana", "Ána"),
        ("Ivan", "Iván"),
        ("Đurđa", "Durda"),
        ("Ana Lu", "AnaLu"),
        ("Ana", "Anna"),
    ],
)
def test_different_names_have_different_skeletons(one: str, other: str) -> None:
    """Issue 22: look-alike names: names that differ to the eye keep different
    skeletons."""
    assert skeleton(one) != skeleton(other)


def test_prototypes_come_from_the_library() -> None:
    """Issue 22: look-alike names: the prototypes are confusables.txt's, read from
    confusable_homoglyphs: a source maps to its prototype, a prototype to itself, and
    a pair without a direction to its lower code point."""
    table = names._prototypes()
    assert table["А"] == "A"  # CYRILLIC CAPITAL LETTER A -> LATIN
    assert table["I"] == "l" and table["1"] == "l"
    assert table["m"] == "rn"
    assert "A" not in table and "l" not in table and "a" not in table
    assert table["\ua778"] == "&"  # LATIN SMALL LETTER UM and AMPERSAND list only each other
    assert table["ȧ"] == unicodedata.normalize("NFKD", "å")  # composed, as the pair is listed
    assert all(len(source) == 1 for source in table)
    assert all(unicodedata.is_normalized("NFKD", prototype) for prototype in table.values())


def test_skeletons_of_every_confusable_are_stable() -> None:
    """Issue 22: look-alike names: the skeleton of a skeleton is itself, for every
    character confusables.txt names (and names of several of them)."""
    chars = set(names._prototypes())
    chars.update(ch for prototype in names._prototypes().values() for ch in prototype)
    for char in sorted(chars):
        key = skeleton(char)
        assert skeleton(key) == key, f"U+{ord(char):04X}"
    text = "".join(sorted(chars))
    for start in range(0, len(text), 24):
        key = skeleton(text[start : start + 24])
        assert skeleton(key) == key


@given(ANY_TEXT)
def test_skeleton_is_idempotent(text: str) -> None:
    """Issue 22: look-alike names: skeleton(skeleton(x)) == skeleton(x), and a name's
    skeleton is its normalized form's."""
    key = skeleton(text)
    assert skeleton(key) == key
    assert skeleton(normalize(text)) == key


# -- check, on anything ------------------------------------------------------


@given(ANY_TEXT)
def test_check_raises_only_name_refused(text: str) -> None:
    """Issue 22: look-alike names: check accepts a name or raises NameRefused, with
    a code and a sentence, never anything else; an accepted name is accepted again
    unchanged."""
    try:
        name = check(text)
    except NameRefused as refusal:
        assert refusal.code in {"bad-name", "name-invisible", "name-mixed-script", "name-reserved"}
        assert str(refusal)
    else:
        assert name == normalize(text) and name
        assert check(name) == name


def test_refusals_are_translated_when_shown() -> None:
    """Issue 22: look-alike names: the sentence goes through the catalogs in the
    visitor's language (an empty name's is already translated)."""
    messages = set()
    for language in LANGUAGES:
        with using_language(language), pytest.raises(NameRefused) as caught:
            check("   ")
        messages.add(str(caught.value))
    assert len(messages) == len(LANGUAGES)
