"""The search bots' integer model of a round agrees with the rules in C.

Random rounds of every variant (2-4 players, partnerships, both draw rules,
both passing rules, both scorings) are played through the C ``FastRound``
(the rules of _rules.h, which the search kernel shares; ``PyRound`` where it
is not built) and through the Python ``state.State`` side by side; at
every step the seat to move, the open ends, hand sizes, pips, boneyard size,
passes in a row (D3) and the legal moves (R4) must be identical, and at the
end so must the reason (R6), pips (R7.1), winner and points (R7.2, D4, D6).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from passing_game import Round, Rules
from passing_game import round as round_module
from passing_game.bots.alphabeta import Searcher
from passing_game.bots.policy import playout, policy_move
from passing_game.bots.utility import utility
from passing_game.moves import DRAW_CODE, PASS_CODE, Play, code_to_move, move_to_code
from passing_game.outcome import REASONS
from passing_game.state import State
from passing_game.tiles import TILES


def _variants() -> list[Rules]:
    out = []
    for players in (2, 3, 4):
        for partnerships in (False, True) if players == 4 else (False,):
            for draw in ("ends-turn", "continue"):
                for passing in ("free", "forced"):
                    for scoring in ("literal", "pairwise"):
                        out.append(
                            Rules(
                                players=players,
                                partnerships=partnerships,
                                draw=draw,
                                passing=passing,
                                scoring=scoring,
                            )
                        )
    # a few short hands, so blocks with a big boneyard happen too
    out.append(Rules(players=2, hand_size=3))
    out.append(Rules(players=3, hand_size=2, passing="forced"))
    return out


VARIANTS = _variants()
#: The C rules when built, even with PASSING_GAME_PURE_PYTHON set.
ENGINE: type[Round] = getattr(round_module, "FastRound", round_module.PyRound)


def _same(rnd: Round, state: State, where: str) -> None:
    assert state.is_over == rnd.is_over, where
    if not rnd.is_over:
        assert state.to_move == rnd.to_move, where
        assert [code_to_move(c) for c in state.legal()] == rnd.legal_moves(), where
    assert state.ends == rnd.ends, where
    assert state.sizes == [len(h) for h in rnd.hands], where
    assert state.pips == list(rnd.pips()), where
    assert state.boneyard_size == len(rnd.boneyard), where
    assert state.passes == rnd.passes_in_row, where
    assert state.hands == [sum(1 << t.index for t in h) for h in rnd.hands], where


def _snapshot(state: State) -> tuple[object, ...]:
    return (
        tuple(state.hands),
        tuple(state.pips),
        tuple(state.sizes),
        state.bpos,
        state.left,
        state.right,
        state.to_move,
        state.passes,
        state.reason,
    )


def _pick(rng: random.Random, moves: list[int]) -> int:
    """Mostly plays, sometimes draw or pass, so rounds end every way."""
    plays = [c for c in moves if c < DRAW_CODE]
    roll = rng.random()
    if plays and roll < 0.6:
        return rng.choice(plays)
    return rng.choice(moves)


def _check_result(rnd: Round, state: State, where: str) -> None:
    result = rnd.result
    assert result is not None, where
    assert REASONS[state.reason] == result.reason, where
    winner, points, side_pips = state.result()
    assert winner == result.winner, where
    assert points == result.points, where
    assert tuple(side_pips) == result.side_pips, where
    assert tuple(state.pips) == result.pips, where


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: repr(r)[6:-1])
def test_kernel_matches_round_step_by_step(rules: Rules) -> None:
    reasons: Counter[str] = Counter()
    for game in range(60):
        rng = random.Random(f"{rules}|{game}")
        rnd = ENGINE.new(rules, rng=rng)
        state = State.from_round(rnd)
        start = _snapshot(state)
        steps = 0
        while not rnd.is_over:
            where = f"game {game} step {steps}: {rnd!r}"
            _same(rnd, state, where)
            moves = state.legal()
            # try a move and take it back: the state must be exactly restored
            before = _snapshot(state)
            state.apply(rng.choice(moves))
            state.undo()
            assert _snapshot(state) == before, where
            code = _pick(rng, moves)
            move = code_to_move(code)
            assert move_to_code(move) == code
            rnd.play(move)
            state.apply(code)
            steps += 1
        _same(rnd, state, f"game {game} end")
        _check_result(rnd, state, f"game {game}")
        reasons[rnd.result.reason] += 1  # type: ignore[union-attr]
        # undo all the way back to the deal
        while state.stack:
            state.undo()
        assert _snapshot(state) == start
    # the random games reach more than one ending in every variant
    assert len(reasons) >= 2, reasons


def test_every_ending_is_reached() -> None:
    reasons: Counter[str] = Counter()
    for rules in VARIANTS:
        for game in range(20):
            rng = random.Random(f"end|{rules}|{game}")
            rnd = Round.new(rules, rng=rng)
            while not rnd.is_over:
                moves = rnd.legal_moves()
                plays = [m for m in moves if isinstance(m, Play)]
                rnd.play(rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(moves))
            reasons[rnd.result.reason] += 1  # type: ignore[union-attr]
    assert set(reasons) == {"domino", "block", "all-pass"}


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: repr(r)[6:-1])
def test_playout_matches_policy_through_round(rules: Rules) -> None:
    """The fast playout loop equals its policy played move by move through ``Round``."""
    for game in range(25):
        rnd = ENGINE.new(rules, seed=f"playout|{rules}|{game}")
        # start from a position a few random moves in
        pick = random.Random(game)
        for _ in range(pick.randrange(6)):
            if rnd.is_over:
                break
            rnd.play(pick.choice(rnd.legal_moves()))
        if rnd.is_over:
            continue
        eps = 0.3 if game % 2 else 0.0
        fast = State.from_round(rnd)
        playout(fast, random.Random(game), eps)
        slow_rng = random.Random(game)
        step_state = State.from_round(rnd)
        while not rnd.is_over:
            code = policy_move(step_state, slow_rng, eps)
            assert code in step_state.legal()
            rnd.play(code_to_move(code))
            step_state.apply(code)
        _check_result(rnd, fast, f"game {game}")
        assert fast.hands == step_state.hands


def test_from_view_puts_the_guess_in_place() -> None:
    rules = Rules(players=3)
    rnd = Round.new(rules, seed=5)
    rnd.play(rnd.legal_moves()[0])
    view = rnd.view(rnd.to_move)  # type: ignore[arg-type]
    exact = State.from_round(rnd)
    guess = State.from_view(view, exact.hands, exact.bone)
    assert _snapshot(guess) == _snapshot(exact)


def test_alpha_beta_matches_plain_minimax() -> None:
    """Cutoffs never change the value: compare with a search that has none."""

    def minimax(state: State, side: int, depth: int) -> float:
        if state.is_over:
            return utility(state, side)
        if depth == 0:
            sim = state.copy()
            playout(sim)
            return utility(sim, side)
        values = []
        for code in state.legal():
            state.apply(code)
            values.append(minimax(state, side, depth - 1))
            state.undo()
        return max(values) if state.side_of(state.to_move) == side else min(values)

    for seed in range(12):
        rules = Rules(players=2 + seed % 3)
        rnd = Round.new(rules, seed=seed)
        for _ in range(seed % 5):
            rnd.play(rnd.legal_moves()[0])
        state = State.from_round(rnd)
        side = state.side_of(state.to_move)
        searcher = Searcher(side, depth=3)
        values = searcher.root_values(state)
        for code, value in values.items():
            state.apply(code)
            assert value == minimax(state, side, 2), (seed, code)
            state.undo()


def test_codes_cover_every_move() -> None:
    seen = {move_to_code(code_to_move(c)) for c in range(PASS_CODE + 1)}
    assert seen == set(range(PASS_CODE + 1))
    assert len(TILES) * 2 == DRAW_CODE
