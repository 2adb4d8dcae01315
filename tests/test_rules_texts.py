"""The players' rules in English, Galician and Croatian (issue 7).

The English ``texts/rules.md`` is the reference: each translation must have
the same sections in the same order, name every variant (D1, D2, D4, D5, D6,
D10) by the words the page's lobby shows for it, and use the words that
docs/GLOSSARY.md fixes for its language. The players' rules hold no
command-line flag and count seats from 1, as the page does (issue 24, item
6); the flags are ``passing-game play --help``'s. ``passing-game rules`` must
print the document of the chosen language.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import get_args

import pytest
from click.testing import CliRunner

from passing_game.cli import main
from passing_game.cli.rules import read_rules
from passing_game.i18n import _, current_language, set_language, using_language
from passing_game.rules import TARGET_PRESETS, DrawRule, LeaderRule, PassingRule, ScoringRule
from passing_game.web.http.texts import PAGE_TEXTS

ROOT = Path(__file__).resolve().parent.parent
TEXTS = ROOT / "src" / "passing_game" / "texts"
GLOSSARY = ROOT / "docs" / "GLOSSARY.md"
TRANSLATIONS = ("gl", "hr")
LANGUAGES = ("en", *TRANSLATIONS)

#: Every option value a table may choose, from the rules module itself, by the
#: field the page's texts name it under (``rule.<field>.<value>``).
OPTION_VALUES: dict[str, tuple[str, ...]] = {
    "draw": get_args(DrawRule),  # D1
    "passing": get_args(PassingRule),  # D2
    "scoring": get_args(ScoringRule),  # D4
    "leader": get_args(LeaderRule),  # D5
    "target_preset": tuple(TARGET_PRESETS),  # D10
}

#: The lobby's own words for the choices that have no value list (D6 teams, D10 target).
LOBBY_LABELS = ("Partnerships (seats 1+3 against 2+4)", "Target score", "Target preset")

#: "Seat 0" in each language: the page counts seats from 1, and so do the rules.
SEAT_ZERO = {"en": r"\bseats? 0\b", "gl": r"\bpostos? 0\b", "hr": r"\bmjest[oa] 0\b"}

#: Glossary rows (by their English cell) whose word must appear in every
#: language's rules: the vocabulary a player meets while reading them.
KEY_TERMS = (
    "tile",
    "pips",
    "double",
    "train",
    "open end",
    "boneyard",
    "locked tiles",
    "draw",
    "pass",
    "hand",
    "turn",
    "leader",
    "round",
    "match",
    "target score",
    "domino!",
    "block",
    "partnerships",
    "team",
    "seat",
)


def rules_path(language: str) -> Path:
    return TEXTS / ("rules.md" if language == "en" else f"rules.{language}.md")


def rules_text(language: str) -> str:
    return rules_path(language).read_text(encoding="utf-8")


def headings(text: str) -> list[tuple[int, list[str]]]:
    """Each heading's level and its code spans (option names are not translated)."""
    found = []
    for line in text.splitlines():
        match = re.match(r"(#+) ", line)
        if match:
            found.append((len(match.group(1)), re.findall(r"`([^`]+)`", line)))
    return found


def code_spans(text: str) -> set[str]:
    return set(re.findall(r"`([^`]+)`", text))


def glossary() -> dict[str, dict[str, str]]:
    """English cell -> {language: cell}, read from the glossary's table."""
    rows: dict[str, dict[str, str]] = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 4 or set(cells[0]) <= {"-"}:
            continue
        if cells[0] == "en":
            continue
        rows[cells[0]] = dict(zip(LANGUAGES, cells[:3], strict=True))
    return rows


def glossary_row(term: str) -> dict[str, str]:
    rows = glossary()
    matches = [row for english, row in rows.items() if term in english.split(" (")[0].split(", ")]
    assert len(matches) == 1, f"the glossary needs exactly one row for {term!r}"
    return matches[0]


def stems(cell: str) -> list[str]:
    """The searchable stems of a glossary cell's first word form.

    Only the dictionary form before ``;``, ``,`` or ``/`` counts. A word loses its
    last letter so inflected forms match: Croatian *pločic* finds
    *pločica*, *pločice*, *pločicu*; Galician *rouba* finds *roubar*,
    *roubas*.
    """
    first = re.split(r"[;,/]", re.sub(r"\([^)]*\)", " ", cell))[0]
    words = re.findall(r"\w+", first.lower())
    return [word[:-1] if len(word) > 4 else word for word in words]


@pytest.fixture(autouse=True)
def _restore_language() -> Iterator[None]:
    """``--lang`` switches the process-wide language; put it back."""
    before = current_language()
    yield
    set_language(before)


@pytest.mark.parametrize("language", LANGUAGES)
def test_rules_file_exists_and_is_shipped(language: str) -> None:
    """Each language's rules are a package resource the command can read."""
    assert rules_path(language).is_file()
    assert read_rules(language) == rules_text(language)
    assert len(rules_text(language)) > 5000, "a full rulebook, not a stub"


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_same_sections_in_same_order(language: str) -> None:
    """Same number of headings, same levels, same order, same option names."""
    english = headings(rules_text("en"))
    assert len(english) >= 15
    assert headings(rules_text(language)) == english


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_same_commands_and_option_values(language: str) -> None:
    """Option values stay in English in every language (glossary), and none is dropped."""
    assert code_spans(rules_text(language)) == code_spans(rules_text("en"))


def bold_texts(text: str) -> set[str]:
    return set(re.findall(r"\*\*([^*\n]+)\*\*", text))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_variant_is_named_as_the_lobby_names_it(language: str) -> None:
    """D1 draw, D2 passing, D4 scoring, D5 leader, D10 target presets, D6 partnerships:
    each is in the rules in bold, in the very words of the lobby's choice (its page
    text in this language), so a player finds it in **Rules and variants**."""
    shown = bold_texts(rules_text(language))
    with using_language(language):
        for field, values in OPTION_VALUES.items():
            for value in values:
                label = _(PAGE_TEXTS[f"rule.{field}.{value}"])
                assert label in shown, f"{language}: {field} {value} ({label!r}) is not named"
        for english in LOBBY_LABELS:
            assert _(PAGE_TEXTS[english]) in shown, f"{language}: {english!r} is not named"


@pytest.mark.parametrize("language", LANGUAGES)
def test_players_rules_hold_no_flags_and_count_seats_from_one(language: str) -> None:
    """Issue 24, item 6: no command-line flag (``--draw``) and no command in the
    players' rules (``passing-game play --help`` lists them), and no seat 0."""
    text = rules_text(language)
    assert not re.findall(r"--\w", text), re.findall(r".*--\w.*", text)
    assert "passing-game" not in text and "`" not in text
    assert not re.search(SEAT_ZERO[language], text, re.IGNORECASE)
    seats = re.findall(r"\b(?:seats?|postos?|mjest[oa]) (\d)\b", text, re.IGNORECASE)
    assert seats and min(int(n) for n in seats) == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_rulebook_references(language: str) -> None:
    """Issue 11, item 8: no rulebook references such as "(R1.3)" or "(R4.3, D1)".

    Players do not read the rulebook's numbering.
    """
    text = rules_text(language)
    assert not re.search(r"\b[RD]\d+(?:\.\d+)?\b", text), re.findall(r".*\b[RD]\d+\b.*", text)


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_same_numbered_facts(language: str) -> None:
    """Each number of the English text appears as often in each translation.

    Hand sizes, targets, worked examples: with the headings (same order) this
    keeps the shared structure the rule references used to mark, so no fact
    is dropped, added or changed (issue 11, item 8).
    """

    def numbers(text: str) -> Counter[str]:
        return Counter(re.findall(r"\d+", text))

    english = numbers(rules_text("en"))
    assert english["101"] >= 3 and english["61"] >= 3 and english["168"] == 1
    assert numbers(rules_text(language)) == english


@pytest.mark.parametrize("language", LANGUAGES)
def test_worked_examples_keep_their_numbers(language: str) -> None:
    """The scoring examples (R7.2, D4 pairwise, D6 teams) give the same sums."""
    text = rules_text(language)
    for sum_ in ("9 + 14 - 0 = 23", "10 + 15 - 4 = 21", "(10 - 4) + (15 - 4) = 17", "13 - 11 = 2"):
        assert sum_ in text
    for target in ("101", "61", "168"):
        assert target in text


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("term", KEY_TERMS)
def test_glossary_terms_used(language: str, term: str) -> None:
    """The rules use the glossary's word for each key term in their language."""
    cell = glossary_row(term)[language]
    phrase = r"\w*\s+".join(re.escape(stem) for stem in stems(cell))
    assert re.search(rf"\b{phrase}", rules_text(language).lower()), (
        f"{language}: {term!r} should be {cell!r}, not found"
    )


def test_glossary_covers_the_programs_words() -> None:
    """The terms the brief lists, plus those the program shows, each with gl and hr words."""
    rows = glossary()
    for term in (
        *KEY_TERMS,
        "pips",
        "hint",
        "spectator",
        "rematch",
        "score pad",
        "partner",
        "player",
    ):
        row = glossary_row(term)
        assert row["gl"] and row["hr"], term
    assert len(rows) >= 30


def test_glossary_keeps_seed_calques_out() -> None:
    """The seeds' literal renderings (boneyard, pips) are neither chosen nor used."""
    calques = {
        "boneyard": {"gl": ("boneyard", "cement", "cemiter"), "hr": ("grobnic",)},
        "pips": {"gl": ("pip",), "hr": ("pipov", "pip")},
    }
    for term, by_language in calques.items():
        row = glossary_row(term)
        for language, words in by_language.items():
            chosen = " ".join(stems(row[language]))
            text = rules_text(language).lower()
            for word in words:
                assert word not in chosen, f"{language} {term}: {chosen}"
                assert not re.search(rf"\b{word}", text), f"{language} rules say {word!r}"


#: Croatian noun forms after a number: (1, 21, ...), (2-4, 22-24, ...), (0, 5-20, ...).
HR_COUNTED = {
    "bod": ("bod", "boda", "bodova"),
    "pločic": ("pločica", "pločice", "pločica"),
    "točkic": ("točkica", "točkice", "točkica"),
    "igrač": ("igrač", "igrača", "igrača"),
}


def hr_plural_form(n: int) -> int:
    """The gettext plural index Croatian uses for ``n``."""
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return 1
    return 2


def test_croatian_counts_agree_with_numbers() -> None:
    """After a number the noun takes its plural form: 1 bod, 2 boda, 5 bodova, 21 bod."""
    text = rules_text("hr")
    checked = 0
    for preposition, count, word in re.findall(
        r"(\w+ )?\b(\d+) (bod\w*|pločic\w*|točkic\w*|igrač\w*)", text
    ):
        if preposition.strip() == "od":
            continue  # "od 1 boda": the preposition's genitive wins
        stem = next(stem for stem in HR_COUNTED if word.startswith(stem))
        assert word == HR_COUNTED[stem][hr_plural_form(int(count))], f"{count} {word}"
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("language", LANGUAGES)
def test_rules_command_prints_the_language(language: str) -> None:
    """``passing-game --lang X rules`` prints that language's document."""
    result = CliRunner().invoke(main, ["--lang", language, "rules", "--plain"])
    assert result.exit_code == 0, result.output
    assert result.output == rules_text(language)


def test_rules_command_follows_the_environment() -> None:
    """Through the real entry point: LANGUAGE=gl picks the Galician rules."""
    env = {**os.environ, "LANGUAGE": "gl", "LC_ALL": "", "LANG": "C.UTF-8"}
    done = subprocess.run(
        [sys.executable, "-m", "passing_game", "rules", "--plain"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == rules_text("gl")
