"""``passing-game play --help``: where the variants' flags are explained (issue 24, item 6).

The players' rules (``texts/rules*.md``) name each variant in words and hold
no flag; the terminal game's help holds the flags, each value of every
variant option said in words (D1 draw, D2 passing, D4 scoring, D5 leader,
D6 partnerships, D10 target presets), and counts seats from 1 as people do.
A seat outside 1..N is refused with a sentence naming the seats there are.
"""

from __future__ import annotations

import re
import subprocess
import sys
from typing import get_args

import pytest
from click.testing import CliRunner

from passing_game.cli import main
from passing_game.rules import TARGET_PRESETS, DrawRule, LeaderRule, PassingRule, ScoringRule

#: Every value of every variant option, from the rules module itself.
VALUES: dict[str, tuple[str, ...]] = {
    "--draw": get_args(DrawRule),  # D1
    "--passing": get_args(PassingRule),  # D2
    "--scoring": get_args(ScoringRule),  # D4
    "--leader": get_args(LeaderRule),  # D5
    "--target-preset": tuple(TARGET_PRESETS),  # D10
}


def help_text() -> str:
    """The help as a terminal prints it, through the real entry point."""
    done = subprocess.run(
        [sys.executable, "-m", "passing_game", "--lang", "en", "play", "--help"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def option_help(text: str, flag: str) -> str:
    """One option's help, its lines joined: from its line (two spaces, then the
    option) up to the next option's."""
    blocks = re.split(r"\n(?=  -)", text)
    found = [b for b in blocks if re.match(rf"  (?:-\w, )?{re.escape(flag)}\b", b)]
    assert len(found) == 1, flag
    return " ".join(found[0].split())


def test_the_help_explains_every_variant_value_in_words() -> None:
    """Each value comes with what it does ("continue: after a draw you act again"),
    and the standard one is named; the teams are seats 1+3 against 2+4 (D6)."""
    text = help_text()
    for flag, values in VALUES.items():
        said = option_help(text, flag)
        for value in values:
            assert re.search(rf"\b{re.escape(value)}: \w", said), f"{flag} {value}: {said}"
        assert "(the standard game)" in said, said
    assert "seats 1+3 against 2+4" in option_help(text, "--partnerships")


def test_the_help_counts_seats_from_one() -> None:
    text = help_text()
    seat = option_help(text, "--seat")
    assert "numbered from 1" in seat and "[default: 1]" in seat
    assert not re.search(r"\b(?:seat|index) 0\b|0-based|from 0\b", " ".join(text.split()))


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--seat", "0"], "seat must be 1 to 2 with 2 players"),
        (["--players", "3", "--seat", "4"], "seat must be 1 to 3 with 3 players"),
        (["--seat", "two"], "'two' is not a valid integer"),
    ],
)
def test_a_seat_outside_the_table_is_refused_in_words(args: list[str], said: str) -> None:
    done = CliRunner().invoke(main, ["--lang", "en", "play", *args])
    assert done.exit_code == 2, done.output
    assert f"Invalid value for '--seat': {said}" in done.output
