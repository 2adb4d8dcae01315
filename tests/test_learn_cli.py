"""``passing-game learn`` (issue 25): the basic lessons in the terminal, driven
with typed input as a person types it."""

from __future__ import annotations

import pytest

pytest.importorskip("click")
pytest.importorskip("rich")

from click.testing import CliRunner

from passing_game.cli import main
from passing_game.learn import BASICS


def learn(lines: list[str], *args: str) -> str:
    done = CliRunner().invoke(main, ["--lang", "en", "learn", *args], input="\n".join(lines) + "\n")
    assert done.exit_code == 0, done.output
    return done.output


#: What a person types to make each basic lesson's move: a tile's number, with
#: its end when it fits both; d; p.
RIGHT = {
    "match": "7",
    "both": "6l",
    "double": "7",
    "draw": "d",
    "locked": "p",
    "pass": "p",
    "ends": "1",
    "count": "3",
    "partners": "p",
    "target": "1",
}


def test_every_basic_lesson_taken_with_a_wrong_try_and_bad_input() -> None:
    assert set(RIGHT) == {lesson.id for lesson in BASICS}
    typed = ["what", "9", "1", "p", *[RIGHT[lesson.id] for lesson in BASICS]]
    out = learn(typed)
    assert "I don't understand “what”" in out
    assert out.count("I don't understand") == 2  # "9": no tile 9 in a hand of 7
    assert "[0|0] does not fit: the open ends show 3 and 6." in out
    assert "That is allowed, but here a tile fits: lay [3|5] on the 3." in out
    assert "Right: the 3 of [3|5] touches the 3" in out
    assert "Lesson 10 of 10" in out and "you reached 101 and won the game" in out
    assert "That was the last lesson" in out


def test_a_tile_that_fits_both_ends_asks_for_its_end() -> None:
    out = learn(["6", "6r", "q"], "--lesson", "2")
    assert "Lesson 1 of" not in out and "Lesson 2 of 10" in out
    assert "add l for the left end or r for the right, like 6l" in out
    assert "Right: either end was allowed" in out
    assert "passing-game learn --lesson 3" in out


def test_the_lesson_number_is_checked() -> None:
    done = CliRunner().invoke(main, ["--lang", "en", "learn", "--lesson", "99"])
    assert done.exit_code == 2 and "--lesson" in done.output


def test_the_end_of_input_stops_cleanly() -> None:
    out = learn([], "--lesson", "5")
    assert "passing-game learn --lesson 5" in out
