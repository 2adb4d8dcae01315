"""Moves (R4) as value objects and their text notation."""

from __future__ import annotations

import dataclasses

import pytest

from passing_game import DRAW, PASS, TILES, Draw, ParseError, Pass, Play, Tile, parse_move

ALL_MOVES = [Play(t, end) for t in TILES for end in ("left", "right")] + [Draw(), Pass()]


@pytest.mark.parametrize("move", ALL_MOVES, ids=str)
def test_notation_round_trips(move: Play | Draw | Pass) -> None:
    text = str(move)
    assert parse_move(text) == move
    assert str(parse_move(text)) == text


def test_canonical_notation() -> None:
    assert str(Play(Tile(5, 3), "left")) == "L3-5"
    assert str(Play(Tile(3, 5), "right")) == "R3-5"
    assert str(Play(Tile(6, 6), "right")) == "R6-6"
    assert str(Draw()) == "draw"
    assert str(Pass()) == "pass"


def test_all_notations_are_distinct() -> None:
    assert len({str(m) for m in ALL_MOVES}) == len(ALL_MOVES) == 58


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("l5-3", Play(Tile(3, 5), "left")),
        ("R3-5", Play(Tile(3, 5), "right")),
        (" R [6|6] ", Play(Tile(6, 6), "right")),
        ("r 2|0", Play(Tile(0, 2), "right")),
        ("L0-0", Play(Tile(0, 0), "left")),
        ("DRAW", Draw()),
        ("d", Draw()),
        ("  Pass ", Pass()),
        ("p", Pass()),
    ],
)
def test_parse_is_forgiving(text: str, expected: object) -> None:
    assert parse_move(text) == expected


@pytest.mark.parametrize(
    "text",
    ["jump", "", "   ", "L7-1", "X3-5", "L3", "3-5", "draw now", "passes", "LR3-5", "L3-5-6"],
)
def test_parse_errors_name_the_text(text: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_move(text)
    message = str(info.value)
    assert f"“{text}”" in message  # the text, quoted as a player reads it (S8)
    assert "draw" in message and "pass" in message
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("value", [None, 3, Tile(3, 5), ["L3-5"]])
def test_parse_rejects_non_text(value: object) -> None:
    with pytest.raises(ParseError):
        parse_move(value)  # type: ignore[arg-type]


def test_moves_are_values() -> None:
    assert Draw() == DRAW and Pass() == PASS
    assert hash(Draw()) == hash(DRAW)
    assert Draw() != Pass()
    assert Play(Tile(1, 2), "left") == Play(Tile(2, 1), "left")
    assert hash(Play(Tile(1, 2), "left")) == hash(Play(Tile(2, 1), "left"))
    assert Play(Tile(1, 2), "left") != Play(Tile(1, 2), "right")
    assert Play(Tile(1, 2), "left") != Play(Tile(1, 3), "left")
    assert len(set(ALL_MOVES + ALL_MOVES)) == len(ALL_MOVES)


def test_moves_are_immutable() -> None:
    move = Play(Tile(1, 2), "left")
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.end = "right"  # type: ignore[misc]
    assert move.end == "left"


def test_play_checks_its_fields() -> None:
    with pytest.raises(ValueError, match="left, right"):
        Play(Tile(1, 2), "middle")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Tile"):
        Play("1-2", "left")  # type: ignore[arg-type]


def test_repr() -> None:
    assert repr(Play(Tile(5, 3), "right")) == "Play(Tile(3, 5), 'right')"
    assert repr(Draw()) == "Draw()"
    assert repr(Pass()) == "Pass()"
