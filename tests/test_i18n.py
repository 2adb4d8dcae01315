"""Galician and Croatian: the catalogs, plural forms, choosing the language.

The catalog checks extract the source's messages afresh (with the project's
``babel.cfg``) into a temporary template and hold every ``.po`` to it, so a
new ``_()`` string without a translation fails here until ``make catalogs``
has run and someone has translated it. The game itself is played through
``python -m passing_game --lang X play`` in every language.
"""

from __future__ import annotations

import gettext
import io
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from i18n_helpers import HR_PLURAL, TRANSLATED, catalog_problems
from passing_game import Match, Rules, dump_record, l10n
from passing_game.cli.rules import read_rules
from passing_game.i18n import (
    LANGUAGES,
    LOCALE_DIR,
    _,
    current_language,
    format_number,
    language_from_env,
    ngettext,
    plural_forms,
    set_language,
    using_language,
)
from passing_game.terminal import render
from passing_game.terminal.render import UNICODE
from passing_game.words import Seats, count_pips, count_points, count_tiles
from terminal_helpers import ENV, TIMEOUT, first_seed, script_for

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "passing_game"


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """The language is process-wide: put English back for the other tests."""
    yield
    set_language("en")


# -- the catalogs against the source ----------------------------------------


def extract(source: Path, out: Path) -> Catalog:
    """Extract ``source`` with the project's babel.cfg, as ``make catalogs`` does."""
    CommandLineInterface().run(
        ["pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"), "-o", str(out), str(source)]
    )
    with out.open("rb") as f:
        return read_po(f)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "passing_game.po"


def load_po(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    return extract(PACKAGE, tmp_path_factory.mktemp("pot") / "passing_game.pot")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_source_message_is_translated(template: Catalog, lang: str) -> None:
    """Every _()/ngettext()/N_() string is in the catalog, translated, not fuzzy."""
    assert len(template) > 300
    assert catalog_problems(template, load_po(lang)) == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_entry_is_fuzzy_or_left_over(template: Catalog, lang: str) -> None:
    catalog = load_po(lang)
    assert not catalog.fuzzy
    stale = [m.id for m in catalog if m.id and template.get(m.id, context=m.context) is None]
    assert stale == [], "run make catalogs to drop strings the source no longer has"


def test_a_new_string_without_translation_is_caught(tmp_path: Path) -> None:
    """The check above fails as soon as the source gains an untranslated string."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "new.py").write_text(
        "from passing_game.i18n import _, ngettext\n"
        "print(_('A sentence nobody has translated yet.'))\n"
        "print(ngettext('{n} domino', '{n} dominoes', 3))\n",
        encoding="utf-8",
    )
    template = extract(source, tmp_path / "new.pot")
    for lang in TRANSLATED:
        problems = catalog_problems(template, load_po(lang))
        assert problems == [
            "missing: 'A sentence nobody has translated yet.'",
            "missing: ('{n} domino', '{n} dominoes')",
        ]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_compiled_catalogs_match_their_sources(lang: str) -> None:
    """The shipped .mo says exactly what the .po says (run make catalogs if not)."""
    fresh = io.BytesIO()
    write_mo(fresh, load_po(lang))
    fresh.seek(0)
    mo = po_path(lang).with_suffix(".mo")
    with mo.open("rb") as f:
        shipped = gettext.GNUTranslations(f)
    compiled = gettext.GNUTranslations(fresh)
    assert shipped._catalog == compiled._catalog  # type: ignore[attr-defined]
    assert shipped.plural(5) == compiled.plural(5)


def test_plural_rules_in_the_headers() -> None:
    """Croatian has three forms, Galician two, as gettext writes them."""
    assert load_po("hr").plural_forms == HR_PLURAL
    assert load_po("gl").num_plurals == 2
    assert plural_forms("hr") == HR_PLURAL
    assert "nplurals=2" in plural_forms("gl")


# -- plural forms and numbers ------------------------------------------------

CROATIAN_TILES = {
    0: "0 pločica",
    1: "1 pločica",
    2: "2 pločice",
    5: "5 pločica",
    11: "11 pločica",
    21: "21 pločica",
    22: "22 pločice",
    25: "25 pločica",
    112: "112 pločica",
}


@pytest.mark.parametrize(("n", "expected"), CROATIAN_TILES.items())
def test_croatian_has_three_plural_forms(n: int, expected: str) -> None:
    with using_language("hr"):
        assert count_tiles(n) == expected


def test_croatian_plural_forms_of_points_and_pips() -> None:
    with using_language("hr"):
        assert [count_points(n) for n in (0, 1, 2, 5, 21, 22, 25)] == [
            "0 bodova",
            "1 bod",
            "2 boda",
            "5 bodova",
            "21 bod",
            "22 boda",
            "25 bodova",
        ]
        assert [count_pips(n) for n in (1, 3, 7)] == [
            "1 točkica",
            "3 točkice",
            "7 točkica",
        ]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["0 tiles", "1 tile", "2 tiles"]),
        ("gl", ["0 fichas", "1 ficha", "2 fichas"]),
    ],
)
def test_english_and_galician_have_two_plural_forms(lang: str, words: list[str]) -> None:
    with using_language(lang):
        assert [count_tiles(n) for n in (0, 1, 2)] == words


def test_numbers_are_written_per_language() -> None:
    """Digit grouping and the decimal comma follow the language (Babel's CLDR data)."""
    seats = Seats(Rules(players=2, target=1000), human=0)
    shown = {}
    for lang in LANGUAGES:
        with using_language(lang):
            shown[lang] = render.score_pad([], seats, 1000, UNICODE)[0].plain
            assert (
                format_number(2.25, 1, sign=True)
                == {"en": "+2.2", "gl": "+2,2", "hr": "+2,2"}[lang]
            )
    assert "1,000" in shown["en"]
    assert "1.000" in shown["hr"]
    assert "1\xa0000" in shown["gl"]


def test_lists_are_joined_per_language() -> None:
    expected = {"en": "A, B, and C", "gl": "A, B e C", "hr": "A, B i C"}
    for lang, text in expected.items():
        with using_language(lang):
            assert l10n.and_list(["A", "B", "C"]) == text


# -- choosing the language -----------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "gl_ES.UTF-8"}, "gl"),
        ({"LANG": "hr_HR.UTF-8", "LC_MESSAGES": "gl_ES"}, "gl"),
        ({"LANG": "gl_ES.UTF-8", "LC_ALL": "hr_HR.UTF-8"}, "hr"),
        ({"LANGUAGE": "fr:hr:gl", "LC_ALL": "gl_ES.UTF-8"}, "hr"),
        ({"LANGUAGE": "", "LANG": "hr"}, "hr"),
        ({"LANGUAGE": "fr_FR", "LANG": "gl_ES"}, "en"),
        ({"LC_ALL": "C.UTF-8", "LANG": "hr_HR.UTF-8"}, "en"),
        ({"LANG": "gl-ES"}, "gl"),
    ],
)
def test_language_from_the_environment_in_gettext_order(
    environ: dict[str, str], expected: str
) -> None:
    """LANGUAGE, LC_ALL, LC_MESSAGES, LANG: the first one set decides, as in gettext."""
    assert language_from_env(environ) == expected


def test_set_language_refuses_an_unknown_language_and_keeps_the_old_one() -> None:
    set_language("gl")
    with pytest.raises(ValueError, match="en, gl, hr"):
        set_language("fr")
    assert current_language() == "gl"
    assert _("pass") == "pasar"


def test_using_language_is_scoped() -> None:
    set_language("gl")
    with using_language("hr"):
        assert _("pass") == "dalje"
        assert ngettext("{n} tile", "{n} tiles", 3) == "{n} pločice"
    assert _("pass") == "pasar"


def cli(args: list[str], stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "passing_game", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={**ENV, **env},
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done


def test_a_bad_lang_names_the_languages() -> None:
    done = cli(["--lang", "fr", "rules"])
    assert done.returncode == 2
    assert "'fr' is not one of 'en', 'gl', 'hr'" in done.stderr


def test_lang_option_and_environment_choose_the_help_language() -> None:
    """--lang wins over the environment; the environment wins over English."""
    by_option = cli(["--lang", "HR", "--help"], LANGUAGE="gl").stdout
    assert "Naredbe" in by_option and "Ispiši pravila igre The Passing Game." in by_option
    by_env = cli(["play", "--help"], LANGUAGE="gl", LC_ALL="", LANG="").stdout
    assert "Número de xogadores" in by_env
    assert "Number of players" not in by_env
    english = cli(["play", "--help"], LANGUAGE="", LC_ALL="C.UTF-8").stdout
    assert "Number of players" in english


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_command_prints_the_document_of_the_language(lang: str) -> None:
    """``passing-game --lang X rules`` prints rules.X.md, or the English one if there is none."""
    done = cli(["--lang", lang, "rules", "--plain"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip("\n") == read_rules(lang).rstrip("\n")
    own = PACKAGE / "texts" / f"rules.{lang}.md"
    expected = own if own.exists() else PACKAGE / "texts" / "rules.md"
    assert done.stdout.rstrip("\n") == expected.read_text(encoding="utf-8").rstrip("\n")


# -- the game played in each language ----------------------------------------

#: Text each language must show in a one-round game with help, hint and scores.
EXPECTED = {
    "en": ["Round 1", "Your hand:", "You can type:", "Hint (", "Hands revealed:", "Score pad"],
    "gl": [
        "Rolda 1",
        "A túa man:",
        "Podes escribir:",
        "Suxestión (",
        "Mans descubertas:",
        "Marcador",
    ],
    "hr": ["Runda 1", "Tvoja ruka:", "Možeš upisati:", "Savjet (", "Otkrivene ruke:", "Zapisnik"],
}


def english_left(out: str, lang: str) -> list[str]:
    """Fixed English fragments of catalog messages that show up in ``out``.

    Only fragments whose translation differs and that are long enough not to
    be a bot name or a tile count (two words or more) are looked for.
    """
    left = []
    for message in load_po(lang):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in ids:
            if text in forms:
                continue
            for fragment in re.split(r"\{[^}]*\}", text):
                fragment = fragment.strip(" .,:;()?!")
                long_enough = len(fragment) >= 10 and " " in fragment
                if long_enough and fragment in out and not any(fragment in f for f in forms):
                    left.append(fragment)
    return sorted(set(left))


@pytest.fixture(scope="module")
def one_round() -> tuple[int, list[str]]:
    rules = Rules(players=3)
    seed = first_seed(lambda s: script_for(rules, s, rounds=1)[2] > 0)
    lines, _match, _questions = script_for(rules, seed, rounds=1)
    return seed, lines


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_terminal_game_speaks_the_language(
    lang: str, one_round: tuple[int, list[str]], tmp_path: Path
) -> None:
    """A whole 3-player round through ``passing-game --lang X play``, then its replay."""
    seed, lines = one_round
    saved = tmp_path / "game.json"
    typed = ["?", "h", "s", "xyz", *lines]
    done = cli(
        [
            "--lang",
            lang,
            "play",
            "--players",
            "3",
            "--seed",
            str(seed),
            "--rounds",
            "1",
            "--save",
            str(saved),
        ],
        "\n".join(typed) + "\n",
        LANGUAGE="",
    )
    out = done.stdout
    assert done.returncode == 0, done.stderr
    for text in EXPECTED[lang]:
        assert text in out, text
    if lang != "en":
        assert english_left(out, lang) == []
    replay = cli(["--lang", lang, "replay", "--all", str(saved)])
    assert replay.returncode == 0, replay.stderr
    if lang != "en":
        assert english_left(replay.stdout, lang) == []
        assert EXPECTED[lang][4] in replay.stdout


def test_the_environment_language_reaches_the_game() -> None:
    """Without --lang, LANG=hr_HR.UTF-8 plays in Croatian."""
    done = cli(
        ["play", "--players", "2", "--seed", "3", "--rounds", "1"],
        "q\n",
        LANGUAGE="",
        LC_ALL="",
        LANG="hr_HR.UTF-8",
    )
    assert done.returncode == 0
    assert "Napuštaš partiju." in done.stdout


def test_record_errors_are_translated(tmp_path: Path) -> None:
    """A broken record is refused in the player's language."""
    path = tmp_path / "bad.json"
    match = Match(Rules(), seed=1)
    path.write_text(dump_record(match).replace('"rounds"', '"rondas"'), encoding="utf-8")
    done = cli(["--lang", "gl", "replay", "--all", str(path)])
    assert done.returncode == 1
    assert "non é un rexistro de partida utilizable" in done.stderr
    assert "rexistro: falta 'rounds'" in done.stderr
