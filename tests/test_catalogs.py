"""The gettext catalogs as gettext's own tools and a Croatian reader see them (issue 11, item 9).

tests/test_i18n.py holds the ``passing_game`` catalogs to a fresh extraction
of the source. Here every ``.po`` file, ``click`` domain included, must pass
GNU ``msgfmt --check`` and have no fuzzy or empty entry; the template must
not put a count before a plural noun outside ``ngettext`` (the "exactly 1
names" defect); and a Croatian count after "s" must be in the instrumental
("s 21 bodom", not "s 21 bod").
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from rich.console import Console

from passing_game.i18n import LOCALE_DIR, using_language
from passing_game.rules import Rules
from passing_game.terminal.game import GameOptions, TerminalGame
from web_helpers import service_missing

PO_FILES = sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))
TEMPLATE = LOCALE_DIR / "passing_game.pot"

#: Placeholders that hold a count in the program's messages.
COUNTS = ("n", "count", "got", "pips", "points", "players", "most", "total", "need")
#: English plural nouns a count may govern in this program's messages.
PLURAL_NOUNS = (
    "tiles",
    "pips",
    "points",
    "players",
    "names",
    "opponents",
    "characters",
    "letters",
    "digits",
    "bytes",
    "seats",
    "hands",
    "rounds",
    "moves",
    "seconds",
    "minutes",
    "simulations",
    "games",
    "matches",
    "tables",
    "bots",
    "passes",
    "draws",
    "doubles",
    "ends",
    "teams",
    "partners",
    "entries",
    "messages",
    "requests",
)
#: ``{n} tiles``, ``{count} more tiles``, ``{n} letters and digits``.
COUNTED_NOUN = re.compile(
    r"\{(" + "|".join(COUNTS) + r")\}\s+(?:\w+\s+)?(" + "|".join(PLURAL_NOUNS) + r")\b"
)


def load(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f)


def short(path: Path) -> str:
    return str(path.relative_to(LOCALE_DIR))


@pytest.mark.parametrize("po", PO_FILES, ids=short)
def test_msgfmt_check_passes(po: Path) -> None:
    """Issue 11, item 9: GNU msgfmt --check accepts every catalog (formats, plural forms, header).

    It caught hr/click.po, whose first plural form (1, 21, 31, ...) lacked
    ``{possibilities}``.
    """
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        service_missing("no msgfmt: install GNU gettext (see .ci/services.sh)")
    done = subprocess.run(
        [msgfmt, "--check", "--output-file", os.devnull, str(po)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stderr.lower(), done.stderr


def test_every_catalog_is_checked() -> None:
    """Both domains in both translated languages."""
    assert {short(po) for po in PO_FILES} >= {
        f"{lang}/LC_MESSAGES/{domain}.po"
        for lang in ("gl", "hr")
        for domain in ("passing_game", "click")
    }


@pytest.mark.parametrize("po", PO_FILES, ids=short)
def test_no_entry_is_fuzzy_or_empty(po: Path) -> None:
    """Issue 11, item 9: ``make catalogs`` left nothing fuzzy or untranslated (any plural form)."""
    catalog = load(po)
    assert not catalog.fuzzy, "the header is fuzzy"
    problems = []
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        if isinstance(message.id, tuple) and len(forms) != catalog.num_plurals:
            problems.append(f"{len(forms)} plural forms, not {catalog.num_plurals}: {message.id!r}")
        if not all(forms):
            problems.append(f"empty: {message.id!r}")
    assert problems == []


def counted_without_ngettext(template: Catalog) -> list[str]:
    """Singular messages that put a count before a plural noun: "1 names" in English."""
    return [
        message.id
        for message in template
        if isinstance(message.id, str) and COUNTED_NOUN.search(message.id)
    ]


def test_counts_before_plural_nouns_go_through_ngettext() -> None:
    """Issue 11, item 9: a count that governs a noun is an ngettext message.

    "give one bot for all {n} opponents or exactly {n} names" printed
    "exactly 1 names", and Croatian "najviše {n} znakova" printed "24
    znakova": a plain message cannot agree with its number.
    """
    with TEMPLATE.open("rb") as f:
        template = read_po(f)
    assert len(template) > 300
    assert counted_without_ngettext(template) == []


def test_the_plural_noun_check_can_fail() -> None:
    """The heuristic above finds the old messages, and lets plural entries and non-counts pass."""
    catalog = Catalog()
    catalog.add("give one bot for all {n} opponents or exactly {n} names, got {got}")
    catalog.add("the boneyard holds {count} tiles and the last two can never be drawn")
    catalog.add("{field} is too long (at most {n} characters)")
    catalog.add(("{n} tile", "{n} tiles"))
    catalog.add("{side} wins the game.")
    catalog.add("(first to {target} wins)")
    assert counted_without_ngettext(catalog) == [
        "give one bot for all {n} opponents or exactly {n} names, got {got}",
        "the boneyard holds {count} tiles and the last two can never be drawn",
        "{field} is too long (at most {n} characters)",
    ]


def game_output(scores: list[int], *, winner: int | None = None) -> str:
    """What the terminal game says about the leader (or the winner) for these scores."""
    out = io.StringIO()
    console = Console(file=out, width=200, highlight=False, markup=False, emoji=False)
    game = TerminalGame(GameOptions(rules=Rules(players=2)), console=console)
    game.match.scores = list(scores)
    if winner is None:
        game.announce_leader()
    else:
        game.match.winner = winner
        game.announce_winner()
    return out.getvalue().strip()


@pytest.mark.parametrize(
    ("points", "word"),
    [(1, "bodom"), (21, "bodom"), (101, "bodom"), (22, "boda"), (11, "bodova"), (25, "bodova")],
)
def test_croatian_leader_sentence_declines_the_points(points: int, word: str) -> None:
    """Issue 11, item 9: after "s" Croatian needs the instrumental: "s 21 bodom", never "s 21 bod".

    The sentence is one ngettext message with the number, so each language
    declines the noun itself (docs/DECISIONS.md P19).
    """
    with using_language("hr"):
        for scores in ([points, 0], [0, points]):
            line = game_output(scores)
            assert f" {points} {word}." in line, line
            assert not re.search(rf"\b{points} bod\b", line), line


def test_croatian_winner_sentence_declines_the_points() -> None:
    """Issue 11, item 9: the match winner with 101 points: "s ukupno 101 bodom"."""
    with using_language("hr"):
        for seat in (0, 1):
            scores = [0, 0]
            scores[seat] = 101
            line = game_output(scores, winner=seat)
            assert "101 bodom" in line, line


def test_english_leader_sentence_is_unchanged() -> None:
    """The English output stays as it was: "You lead with 21 points.", "1 point"."""
    with using_language("en"):
        assert game_output([21, 0]) == "You lead with 21 points."
        assert game_output([1, 0]) == "You lead with 1 point."
        assert game_output([101, 3], winner=0) == "You win the match with 101 points! Well played."
