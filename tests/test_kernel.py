"""The compiled kernel against the rules engine, step by step (R2-R7, D1-D3, D6).

The kernel (src/passing_game/_kernel.c) is a second implementation of the
rules, so every random round it plays is replayed through ``Round`` and
compared before every move: seat to move, open ends, hand sizes, boneyard
size and the legal moves, then the way the round ended and every count.
"""

from __future__ import annotations

import itertools
import os

import pytest

from passing_game import DRAW, PASS, Draw, Move, Play, Round, Rules, kernel

# CI builds the kernel, so there a missing kernel is a failure, not a skip.
if os.environ.get("CI") and not kernel.AVAILABLE:
    raise RuntimeError("CI: the compiled kernel passing_game._kernel was not built")
pytestmark = pytest.mark.skipif(not kernel.AVAILABLE, reason="compiled kernel not built")

VARIANTS = [
    Rules(players=p, draw=d, passing=f)
    for p, d, f in itertools.product((2, 3, 4), ("ends-turn", "continue"), ("free", "forced"))
] + [
    Rules(players=4, partnerships=True),
    Rules(players=4, partnerships=True, draw="continue", passing="forced"),
]


def code_of(move: Move) -> int:
    if isinstance(move, Play):
        return move.tile.index * 2 + (1 if move.end == "right" else 0)
    return kernel.DRAW_CODE if isinstance(move, Draw) else kernel.PASS_CODE


def move_of(code: int, rnd: Round) -> Move:
    if code == kernel.DRAW_CODE:
        return DRAW
    if code == kernel.PASS_CODE:
        return PASS
    return next(m for m in rnd.legal_moves() if code_of(m) == code)


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.players}p-{r.draw}-{r.passing}")
def test_kernel_matches_engine_at_every_step(rules: Rules) -> None:
    steps_seen = 0
    reasons = set()
    for seed in range(150):
        rnd = Round.new(rules, seed=seed)
        steps, reason, pips = kernel.trace(rnd, seed)
        for codes, chosen, to_move, left, right, sizes, boneyard in steps:
            assert to_move == rnd.to_move
            assert (left, right) == (rnd.ends or (-1, -1))
            assert sizes == tuple(len(h) for h in rnd.hands)
            assert boneyard == len(rnd.boneyard)
            assert list(codes) == [code_of(m) for m in rnd.legal_moves()]
            rnd.play(move_of(chosen, rnd))
            steps_seen += 1
        assert rnd.result is not None
        assert (reason, pips) == (rnd.result.reason, rnd.result.pips)
        reasons.add(reason)
    assert steps_seen > 1000
    assert "domino" in reasons
    # with forced passing nobody passes while a play or draw is open, so
    # a full circle of passes is a block already (P12)
    assert ("all-pass" in reasons) == (rules.passing == "free")


def test_kernel_playout_ends_legally_from_mid_round() -> None:
    """A policy playout from any position ends the round, conserving tiles (R6)."""
    for seed in range(200):
        rules = VARIANTS[seed % len(VARIANTS)]
        rnd = Round.new(rules, seed=seed)
        for move in rnd.legal_moves()[: seed % 3]:
            rnd.play(move)
            break
        reason, pips, actions = kernel.playout(rnd, seed, eps=0.2)
        assert reason in ("domino", "block", "all-pass")
        assert len(pips) == rules.players and actions >= 1
        assert actions <= rules.max_round_moves
        assert sum(pips) <= 168


def test_kernel_random_rounds_counts_actions() -> None:
    actions = kernel.random_rounds(Rules(players=3), 500, seed=1)
    assert 500 <= actions <= 500 * Rules(players=3).max_round_moves


def test_kernel_refuses_bad_positions() -> None:
    with pytest.raises(ValueError):
        kernel._need().playout((1, 1), [], 0, -1, -1, 0, 0, 2, 0, 0.0, 1)
    with pytest.raises(ValueError):
        kernel._need().random_rounds(5, 7, 0, 1, 1)
    with pytest.raises(ValueError):
        kernel._need().trace((1, 2), [3], 0, 9, 1, 0, 0, 2, 0, 1)
