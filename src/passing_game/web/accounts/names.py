"""Names people choose, checked for look-alikes (issue 22).

A name is shown to everyone at a table, so it must not pass for someone or
something it is not. ``check`` returns the name normalized (``normalize``:
NFKC, invisible characters dropped, spaces squeezed) or raises
``NameRefused`` when the name

* holds an invisible or blank character (``name-invisible``): the
  Default_Ignorable_Code_Points (zero-width spaces and joiners, bidi
  overrides, variation selectors, tags, Hangul fillers...) and the few others
  that print nothing (U+2800 BRAILLE PATTERN BLANK...). They make two names
  that print alike differ, or a name print as nothing. The one exception is
  an emoji's presentation selector (``❤️`` as phones type it), dropped;
* mixes scripts dangerously (``name-mixed-script``): letters of two scripts
  of which one looks like the other, as the Cyrillic ``А`` of ``Аna``
  (``confusable_homoglyphs``' ``is_dangerous``, but combining marks take
  their letter's script, and Han with Kana, Hangul or Bopomofo, and Latin,
  is one script, as UTS #39's "highly restrictive" level says). A name in
  one script, ``Ана``, ``Đurđa``, ``Ñoño``, is fine;
* shows nothing (``bad-name``): no letter, digit, punctuation or symbol;
* reads as a bot or as a name the site gives (``name-reserved``): a bot's
  seat name (``Hard bot``, ``Bot (pimc)``, ``Bot`` alone), ``Deleted
  player``, ``Open seat``, in any of the page's languages, their skeletons
  compared with case, accents, spaces and punctuation left out: ``hard
  B0T``, ``Bot-dificil``, ``Open  seat.`` are refused.

What looks alike is Unicode's confusables.txt (UTS #39) as
``confusable_homoglyphs`` ships it: ``skeleton`` maps every character to its
prototype, so names that could be taken for one another share a skeleton
(``Ana`` and ``АNA``, ``Ivan`` and ``lvan``, ``rn`` and ``m``), and names
that merely differ do not (``Ana`` and ``Ane``).

Whom a name is compared with:

* bots and the site's own names: always, accounts and guests alike, since
  nobody may pass for a bot, a deleted account or an open seat;
* accounts: each account's skeleton is stored with it (``web_users``'s
  ``name_skeleton``) and a new account whose skeleton a live account has is
  refused, so ``lvan`` cannot sign up next to ``Ivan``;
* guests: a guest may take a name an account has. A guest's name lasts one
  table, and refusing it would let anyone reserve names for good by signing
  up; the page marks guests as guests, so a guest ``Ana`` does not pass for
  the account ``Ana``.

Everything here is pure (no I/O, no store) and fast (tens of microseconds:
``check`` runs on every sign-up and every guest's join).

>>> check("  Ana   Lu ")
'Ana Lu'
>>> skeleton("Аna") == skeleton("ANA") == skeleton("ana")
True
>>> try:
...     check("hard B0T")
... except NameRefused as refusal:
...     print(refusal.code)
name-reserved
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import defaultdict

from confusable_homoglyphs import (  # type: ignore[import-untyped]
    categories,
    confusables,
)

from passing_game.i18n import LANGUAGES, N_, _, using_language
from passing_game.web.game.errors import GIVE_A_NAME
from passing_game.web.table.frames import BOT_NAMES, DELETED_NAME, LEVEL_WORDS

#: How an open seat is called (the same message as ``frames.seat_name``'s).
OPEN_SEAT_NAME = N_("Open seat")
#: How a bot without a name of its own is called (``frames.seat_name``).
BOT_LEVEL_NAME = N_("Bot ({level})")

# Default_Ignorable_Code_Point, from Unicode's DerivedCoreProperties.txt
# (Unicode 14, the version Python 3.11's unicodedata has; Perl's \p{DI} agrees), which
# unicodedata does not expose: characters that print nothing where a font
# does not know them.
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # SOFT HYPHEN
    (0x034F, 0x034F),  # COMBINING GRAPHEME JOINER
    (0x061C, 0x061C),  # ARABIC LETTER MARK
    (0x115F, 0x1160),  # HANGUL CHOSEONG FILLER, HANGUL JUNGSEONG FILLER
    (0x17B4, 0x17B5),  # KHMER VOWEL INHERENT AQ, AA
    (0x180B, 0x180F),  # MONGOLIAN FREE VARIATION SELECTORS, VOWEL SEPARATOR
    (0x200B, 0x200F),  # ZERO WIDTH SPACE, (NON-)JOINER, LRM, RLM
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # WORD JOINER, invisible operators, bidi isolates...
    (0x3164, 0x3164),  # HANGUL FILLER
    (0xFE00, 0xFE0F),  # VARIATION SELECTORS 1-16
    (0xFEFF, 0xFEFF),  # ZERO WIDTH NO-BREAK SPACE
    (0xFFA0, 0xFFA0),  # HALFWIDTH HANGUL FILLER
    (0xFFF0, 0xFFF8),  # unassigned
    (0x1BCA0, 0x1BCA3),  # SHORTHAND FORMAT CONTROLS
    (0x1D173, 0x1D17A),  # MUSICAL SYMBOL BEGIN BEAM...
    (0xE0000, 0xE0FFF),  # TAGS, VARIATION SELECTORS 17-256
)
#: Characters that are not default-ignorable but print as a blank all the same.
BLANK_LOOKING: tuple[tuple[int, int], ...] = (
    (0x2800, 0x2800),  # BRAILLE PATTERN BLANK
    (0x16FE4, 0x16FE4),  # KHITAN SMALL SCRIPT FILLER
    (0x1D159, 0x1D159),  # MUSICAL SYMBOL NULL NOTEHEAD
)


def _class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)


_EMOJI_SELECTORS = "\N{VARIATION SELECTOR-15}\N{VARIATION SELECTOR-16}"
_IGNORABLE = re.compile(f"[{_class(DEFAULT_IGNORABLE)}]")
_INVISIBLE = re.compile(f"[{_class(DEFAULT_IGNORABLE + BLANK_LOOKING)}]")

#: Scripts that, together, are one writing system (UTS #39, "highly restrictive").
_SCRIPT_SETS = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
)
#: Characters of no script of their own: digits, punctuation, combining marks.
_NO_SCRIPT = frozenset({"COMMON", "INHERITED"})


class NameRefused(ValueError):
    """A name refused; ``str(exc)`` is shown to the person, ``code`` says why:
    ``bad-name``, ``name-invisible``, ``name-mixed-script`` or ``name-reserved``."""

    def __init__(self, message: str, code: str = "bad-name") -> None:
        super().__init__(message)
        self.code = code


def normalize(text: str) -> str:
    """``text`` in NFKC, without control, format or default-ignorable
    characters, every run of spaces one ASCII space, stripped.

    >>> normalize("\\u3000Ａｎａ\\u200b\\t Lu\\x00 ")
    'Ana Lu'
    """
    text = unicodedata.normalize("NFKC", text)
    text = " ".join(text.split())  # before controls go: a tab or a newline is a space
    text = _IGNORABLE.sub("", text)
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    # Dropping a character may let its neighbours compose: NFKC again.
    return " ".join(unicodedata.normalize("NFKC", text).split())


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> its prototype, from confusables.txt as
    ``confusable_homoglyphs`` ships it (its confusables.json, loaded once by
    the library's own module).

    The file lists ``source -> prototype``; the library keeps both
    directions, so each key's list holds either its one prototype (a source)
    or its sources (a prototype). A key of several characters, or with
    several entries, is a prototype; a key with one entry that has several is
    a source. Two single characters that list only each other are a pair
    without a direction: the lower code point is the prototype. Prototypes
    are kept decomposed (NFKD), as the names they are compared with; a source
    that NFKC changes (``Ａ``, ``𝐀``) is never met, NFKC has made it plain.
    """
    lrm = "\N{LEFT-TO-RIGHT MARK}"  # the library wraps right-to-left text in it
    lists: defaultdict[str, set[str]] = defaultdict(set)
    for key, entries in confusables.confusables_data.items():
        for entry in entries:
            lists[key.replace(lrm, "")].add(entry["c"].replace(lrm, ""))
    found: dict[str, str] = {}
    for key, others in lists.items():
        if len(key) > 1 or len(others) > 1:
            for source in others:
                found.setdefault(source, key)
            continue
        (other,) = others
        if len(other) > 1 or len(lists[other]) > 1:
            found.setdefault(key, other)
        else:
            found.setdefault(key, min(key, other))
    return {
        source: _nfkd(prototype)
        for source, prototype in found.items()
        if len(source) == 1 and source != prototype
    }


def _nfkd(text: str) -> str:
    return unicodedata.normalize("NFKD", text)


def _map(text: str, table: dict[str, str]) -> str:
    """Each character of ``text`` its prototype, composed (``ȧ`` is ``å``) then
    decomposed (``ё`` is ``е`` and a diaeresis, ``е`` is ``e``)."""
    text = _nfkd("".join([table.get(ch, ch) for ch in unicodedata.normalize("NFC", text)]))
    return _nfkd("".join([table.get(ch, ch) for ch in text]))


def skeleton(text: str) -> str:
    """The key two names share when they look alike, after UTS #39's skeleton:
    the name normalized and decomposed (NFKD), each character its prototype,
    casefolded, each character its prototype again, until nothing changes.
    Decomposed, for comparing, not for showing.

    Case is folded where it does not change a letter's look: ``IVAN`` and
    ``Ivan`` share a skeleton with ``lvan``, but ``ivan`` keeps its dotted
    ``i``. Two names that differ only in case are one name already
    (``accounts.name_key``).

    >>> skeleton("Ana") == skeleton("АNA") == skeleton("ΑNΑ")
    True
    >>> skeleton("Ivan") == skeleton("lvan"), skeleton("rn") == skeleton("m")
    (True, True)
    >>> skeleton("Ana") == skeleton("Ane")
    False
    """
    table = _prototypes()
    key = _nfkd(normalize(text))
    for _round in range(8):  # three rounds at most (tests/test_web_names.py)
        step = " ".join(_map(_map(key, table).casefold(), table).split())
        if step == key:
            break
        key = step
    return key


def _keys(text: str) -> set[str]:
    """The skeletons of ``text`` as written and in lower case: a skeleton keeps
    the case that changes a letter's look (``I`` is ``l``, ``i`` is not), so
    ``LIBRE`` and ``libre`` meet only through ``libre``."""
    folded = text.casefold()
    return {skeleton(text), skeleton(folded)} if folded != text else {skeleton(text)}


def _loose(key: str) -> str:
    """A skeleton with only its letters and digits: no accents, spaces or punctuation."""
    return "".join(ch for ch in key if unicodedata.category(ch)[0] in "LN")


def _tight(key: str) -> str:
    """A skeleton without its spaces."""
    return "".join(key.split())


@functools.cache
def _reserved() -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
    """The loose keys of the names the site gives, in every language, and the
    (prefix, suffix) of ``Bot ({level})`` for levels without a name."""
    names: set[str] = set()
    patterns: set[tuple[str, str]] = set()
    for language in LANGUAGES:
        with using_language(language):
            shown = [_(name) for name in BOT_NAMES.values()]
            shown += [_(DELETED_NAME), _(OPEN_SEAT_NAME)]
            template = _(BOT_LEVEL_NAME)
            shown += [template.format(level=_(word)) for word in LEVEL_WORDS.values()]
            if "{level}" in template:
                before, _level, after = template.partition("{level}")
                shown.append(before + after)  # "Bot" alone
                for case in (str, str.casefold):
                    patterns.add((_tight(skeleton(case(before))), _tight(skeleton(case(after)))))
        names.update(_loose(key) for name in shown for key in _keys(name))
    names.discard("")
    return frozenset(names), tuple(sorted(patterns))


def is_reserved(text: str) -> bool:
    """Whether ``text`` reads as a bot's seat name or a name the site gives,
    in any of the page's languages.

    >>> is_reserved("Greedy  BOT"), is_reserved("Bot (hеuristic)"), is_reserved("Botelho")
    (True, True, False)
    """
    names, patterns = _reserved()
    for key in _keys(text):
        if _loose(key) in names:
            return True
        tight = _tight(key)
        if any(
            tight.startswith(before) and tight.endswith(after) and len(tight) > len(before + after)
            for before, after in patterns
            if before or after
        ):
            return True
    return False


def _mixed_script(text: str) -> bool:
    scripts = set(categories.unique_aliases(text)) - _NO_SCRIPT
    return len(scripts) > 1 and not any(scripts <= allowed for allowed in _SCRIPT_SETS)


def _invisible(text: str) -> bool:
    """Whether ``text`` holds an invisible or blank character, except an emoji's
    presentation selector (U+FE0E, U+FE0F after a symbol, as phones type ``❤️``),
    which ``normalize`` drops."""
    for found in _INVISIBLE.finditer(text):
        at = found.start()
        if text[at] in _EMOJI_SELECTORS and at and unicodedata.category(text[at - 1]) == "So":
            continue
        return True
    return False


def check(text: str) -> str:
    """``text`` normalized, or ``NameRefused`` if it may not be a name (the
    module's docstring says when). Lengths are the caller's: NFKC may make a
    name longer (U+FDFA is 18 characters).

    >>> check("Xoán"), check("Ана")
    ('Xoán', 'Ана')
    >>> try:
    ...     check("Аna")  # a Cyrillic А
    ... except NameRefused as refusal:
    ...     print(refusal.code)
    name-mixed-script
    """
    if _invisible(text):  # NFKC makes no character invisible: the text as sent says
        raise NameRefused(
            _("A name cannot hold invisible or blank characters: please choose another."),
            "name-invisible",
        )
    name = normalize(text)
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in name):
        raise NameRefused(_(GIVE_A_NAME), "bad-name")
    if _mixed_script(name) and confusables.is_confusable(name):
        raise NameRefused(
            _("That name mixes look-alike letters of different alphabets: please choose another."),
            "name-mixed-script",
        )
    if is_reserved(name):
        raise NameRefused(
            _("That name looks like a bot's or the site's own: please choose another."),
            "name-reserved",
        )
    return name
