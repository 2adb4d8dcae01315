"""Text for language models (issue 28, item 6): ``view_text`` and ``parse_loose``."""

from __future__ import annotations

import re

import pytest

from passing_game.bots.text import MoveTextError, parse_loose, view_text
from passing_game.errors import ParseError
from passing_game.moves import DRAW, PASS, Play, code_to_move, move_to_code
from passing_game.round import Round
from passing_game.rules import Rules
from passing_game.tiles import Tile

T35 = Tile(3, 5)
BOTH = [Play(T35, "left"), Play(T35, "right"), DRAW, PASS]


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("play 3-5 on the left", Play(T35, "left")),
        ("[3|5] left", Play(T35, "left")),
        ("  [5|3]   RIGHT ", Play(T35, "right")),
        ("Play 3 | 5 on the Right.", Play(T35, "right")),
        ("L3-5", Play(T35, "left")),
        ("r5-3", Play(T35, "right")),
        ("draw", DRAW),
        ("I'll DRAW a tile!", DRAW),
        ("Pass.", PASS),
        ("p", PASS),
        (str(move_to_code(Play(T35, "right"))), Play(T35, "right")),
        ("56", DRAW),
    ],
)
def test_loose_words_name_a_move(text: str, move: object) -> None:
    assert parse_loose(text, BOTH) == move


def test_an_end_left_unsaid_is_the_only_one_that_fits() -> None:
    assert parse_loose("play 3-5", [Play(T35, "right"), DRAW]) == Play(T35, "right")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("jump", "no tile, draw or pass"),
        ("draw or pass", "more than one move"),
        ("3-5 and 2-4", "more than one move"),
        ("3-5 left or right", "both ends"),
        ("3-5", "say which end"),
        ("9-9 left", "no such tile"),
        ("99", "move code is 0-57"),
        ("play 6-6", "not a legal play"),
    ],
)
def test_words_that_name_no_one_move_are_refused_with_a_reason(text: str, why: str) -> None:
    with pytest.raises(MoveTextError, match=why) as info:
        parse_loose(text, BOTH)
    assert isinstance(info.value, ParseError) and isinstance(info.value, ValueError)


def test_r4_4_a_pass_read_from_words_is_legal_with_a_playable_tile() -> None:
    """R4.4: passing is a choice even with a tile that fits; the parser does not refuse it."""
    rnd = Round.new(seed=1)
    view = rnd.view(rnd.to_move or 0)
    assert any(isinstance(m, Play) for m in view.legal_moves())
    assert parse_loose("I pass", view.legal_moves()) in view.legal_moves()


def test_every_legal_move_the_text_lists_reads_back_as_itself() -> None:
    for seed in range(20):
        rnd = Round.new(Rules(players=3), seed=seed)
        while (seat := rnd.to_move) is not None:
            view = rnd.view(seat)
            legal = view.legal_moves()
            listed = re.search(r"^Legal moves: (.*)\.$", view_text(view), re.MULTILINE)
            assert listed is not None
            said = listed.group(1).split(", ")
            assert [parse_loose(s, legal) for s in said] == legal
            rnd.play(legal[seed % len(legal)])


def test_r9_the_text_names_no_hidden_tile() -> None:
    """R9: the text shows the seat's hand and the train, never another hand or the boneyard."""
    rnd = Round.new(Rules(players=2), seed=4)
    while (seat := rnd.to_move) is not None:
        other = 1 - seat
        text = view_text(rnd.view(seat))
        for tile in set(rnd.hands[other]) | set(rnd.boneyard):
            assert f"[{tile.low}|{tile.high}]" not in text
            assert f"[{tile.high}|{tile.low}]" not in text
        rnd.play(rnd.legal_moves()[0])


def test_a_code_reads_as_the_projects_move_code() -> None:
    assert all(parse_loose(str(c)) == code_to_move(c) for c in range(58))
