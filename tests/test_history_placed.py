"""The history says how each play's tile was laid (R4.1), in both engines."""

from __future__ import annotations

import random

import pytest

from passing_game import Rules
from passing_game.moves import Play
from passing_game.round import FAST_AVAILABLE, PyRound, Round
from passing_game.views import Turn

ENGINES = [PyRound]
if FAST_AVAILABLE:
    from passing_game.round import FastRound

    ENGINES.append(FastRound)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda c: c.__name__)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_play_records_how_its_tile_lies(engine: type[Round], players: int) -> None:
    """R4.1: a play joins the train at the chosen end, matching half inward."""
    rng = random.Random(players)
    for seed in range(40):
        rnd = engine.new(Rules(players=players), seed=seed)
        while not rnd.is_over:
            move = rng.choice(rnd.legal_moves())
            rnd.play(move)
            turn = rnd.history[-1]
            if isinstance(move, Play):
                assert turn.placed is not None and turn.placed.tile is move.tile
                laid_left = len(rnd.train) == 1 or move.end == "left"
                assert turn.placed == (rnd.train[0] if laid_left else rnd.train[-1])
                if len(rnd.train) > 1 and laid_left:
                    assert turn.placed.right == rnd.train[1].left
                elif len(rnd.train) > 1:
                    assert turn.placed.left == rnd.train[-2].right
            else:
                assert turn.placed is None
        for seat in range(players):
            seen = rnd.view(seat).history
            assert [t.placed for t in seen] == [t.placed for t in rnd.history]


def test_the_public_turn_keeps_how_a_tile_was_laid() -> None:
    """R9.2 hides a drawn tile, never how a play lies."""
    rnd = PyRound.new(Rules(players=2), seed=1)
    rnd.play(rnd.legal_moves()[0])
    turn = rnd.history[0]
    assert turn.public() == turn
    assert Turn(0, turn.move, None, turn.placed).placed == turn.placed
