"""The compiled kernel against the Python reference, step by step (R2-R7, D1-D4, D6).

The kernel (src/passing_game/_kernel.c) plays the rules in C of _rules.h,
which the C ``FastRound`` shares, so every random round it plays is replayed
through the pure-Python ``PyRound`` and compared before every move: seat to
move, open ends, hand sizes, boneyard size and the legal moves, then the way
the round ended and every count. The searches are checked against the
Python search model.
"""

from __future__ import annotations

import itertools
import math
import os
import random

import pytest

from passing_game import Play, Round, Rules
from passing_game.bots import kernel
from passing_game.moves import code_to_move, move_to_code
from passing_game.round import PyRound

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


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.players}p-{r.draw}-{r.passing}")
def test_kernel_matches_python_reference_at_every_step(rules: Rules) -> None:
    """R4 (legal moves in order), R6 and D3 (how rounds end), R7.1: the C rules are PyRound's."""
    steps_seen = 0
    reasons = set()
    for seed in range(150):
        rnd = PyRound.new(rules, seed=seed)
        steps, reason, pips = kernel.trace(rnd, seed)
        for codes, chosen, to_move, left, right, sizes, boneyard in steps:
            assert to_move == rnd.to_move
            assert (left, right) == (rnd.ends or (-1, -1))
            assert sizes == tuple(len(h) for h in rnd.hands)
            assert boneyard == len(rnd.boneyard)
            assert list(codes) == [move_to_code(m) for m in rnd.legal_moves()]
            rnd.play(code_to_move(chosen))
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


def test_one_flag_layout_in_c_and_python() -> None:
    """D1, D2, D4, D6: kernel.flags sets the bits _rules.h declares, one per variant."""
    ext = kernel._need()
    names = ("F_DRAW_CONTINUE", "F_FORCED", "F_PARTNERSHIPS", "F_PAIRWISE", "F_PASS_TO_END")
    assert [getattr(ext, n) for n in names] == [getattr(kernel, n) for n in names]
    assert (ext.DRAW_CODE, ext.PASS_CODE) == (kernel.DRAW_CODE, kernel.PASS_CODE)
    rules = Rules(
        players=4, draw="continue", passing="forced", partnerships=True, scoring="pairwise"
    )
    assert kernel.flags(Rules()) == 0
    assert kernel.flags(rules, pass_to_end=True) == sum(getattr(kernel, n) for n in names)
    assert kernel.flags(Rules(draw="continue")) == kernel.F_DRAW_CONTINUE
    assert kernel.flags(Rules(passing="forced")) == kernel.F_FORCED
    assert kernel.flags(Rules(players=4, partnerships=True)) == kernel.F_PARTNERSHIPS
    assert kernel.flags(Rules(players=3, scoring="pairwise")) == kernel.F_PAIRWISE
    with pytest.raises(ValueError):  # a bit _rules.h does not know
        ext.random_rounds(2, 7, 32, 1, 1)


def test_kernel_random_rounds_counts_actions() -> None:
    actions = kernel.random_rounds(Rules(players=3), 500, seed=1)
    assert 500 <= actions <= 500 * Rules(players=3).max_round_moves


def test_kernel_refuses_bad_positions() -> None:
    with pytest.raises(ValueError):
        kernel._need().playout((1, 1), [], 0, -1, -1, 0, 0, 2, 0, 0.0, 1, None)
    with pytest.raises(ValueError):
        kernel._need().random_rounds(5, 7, 0, 1, 1)
    with pytest.raises(ValueError):
        kernel._need().trace((1, 2), [3], 0, 9, 1, 0, 0, 2, 0, 1)


# -- the search entry points (bots.fast) against the Python search ---------------

SEARCH_VARIANTS = [
    *VARIANTS,
    Rules(players=3, scoring="pairwise"),
    Rules(players=4, scoring="pairwise", draw="continue"),
    Rules(players=2, hand_size=3),
]


def _positions(count: int, seed: int) -> list[Round]:
    """Rounds a few random moves in, over every search variant, not yet over."""
    rng = random.Random(seed)
    out: list[Round] = []
    while len(out) < count:
        rules = SEARCH_VARIANTS[len(out) % len(SEARCH_VARIANTS)]
        rnd = Round.new(rules, seed=rng.randrange(10**9))
        for _ in range(rng.randrange(12)):
            moves = rnd.legal_moves()
            plays = [m for m in moves if isinstance(m, Play)]
            rnd.play(rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(moves))
            if rnd.is_over:
                break
        if not rnd.is_over:
            out.append(rnd)
    return out


def test_policy_playout_with_the_d3_pass_matches_python() -> None:
    """D3, R6, R7.1: the kernel's policy (with the pass that ends a led round) is bots.policy's."""
    from passing_game.bots.policy import playout
    from passing_game.state import State

    ended = set()
    for rnd in _positions(300, seed=1):
        state = State.from_round(rnd)
        before = len(state.stack)
        playout(state)
        reason, pips, _actions = kernel.playout(rnd, seed=0, eps=0.0, pass_to_end=True)
        assert before == 0
        assert reason == {1: "domino", 2: "block", 3: "all-pass"}[state.reason]
        assert list(pips) == state.pips
        ended.add(reason)
    assert ended == {"domino", "block", "all-pass"}


@pytest.mark.parametrize(
    "weights",
    [(1.0, 0.04, 0.0, 0.0, 0.0), (0.3, -0.5, 1.2, 0.8, -0.4), (-1.0, 0.0, 0.0, 2.0, 1.0)],
)
def test_learned_policy_playout_matches_python(weights: tuple[float, ...]) -> None:
    """The learned playout policy (bots.policy.learned_play, play_score in C) plays the
    same rounds in both, to the same end and counts (R6, R7.1, D3)."""
    from passing_game.bots.policy import playout
    from passing_game.state import State

    for rnd in _positions(200, seed=2):
        state = State.from_round(rnd)
        playout(state, weights=weights)
        reason, pips, _actions = kernel.playout(
            rnd, seed=0, eps=0.0, pass_to_end=True, weights=weights
        )
        assert reason == {1: "domino", 2: "block", 3: "all-pass"}[state.reason]
        assert list(pips) == state.pips


def test_learned_policy_differs_from_the_heaviest_tile() -> None:
    """Weights that prize following over pips make other plays (the weights reach C)."""
    heavy = [kernel.playout(r, 0, 0.0, True)[1] for r in _positions(100, seed=3)]
    follow = [
        kernel.playout(r, 0, 0.0, True, (0.0, 0.0, 1.0, 0.0, 0.0))[1]
        for r in _positions(100, seed=3)
    ]
    assert heavy != follow


def test_duel_of_a_policy_with_itself_is_even() -> None:
    """Duplicate deals: one policy on both sides (no random plays) nets exactly 0; a
    sensible policy beats one that sheds its lightest tiles first (R7)."""
    weights = (0.3, -0.5, 1.2, 0.8, -0.4)
    for rules in (Rules(players=2), Rules(players=4, partnerships=True)):
        assert kernel.duel(rules, weights, weights, 0.0, 300, 5) == 0
        assert kernel.duel(rules, None, None, 0.0, 300, 5) == 0
        assert kernel.duel(rules, None, (-1.0, 0.0, 0.0, 0.0, 0.0), 0.0, 300, 5) > 0
    with pytest.raises(ValueError, match="two sides"):
        kernel.duel(Rules(players=3), None, None, 0.0, 10, 1)
    with pytest.raises(ValueError, match="5 numbers"):
        kernel.duel(Rules(players=2), (1.0,), None, 0.0, 10, 1)


def test_flat_search_matches_python_depth_one_search() -> None:
    """R7.2, D4, D6: each move's value in the true world equals bots.alphabeta.Searcher's."""
    from passing_game.bots.alphabeta import Searcher
    from passing_game.bots.fast import round_worlds
    from passing_game.state import State

    for rnd in _positions(240, seed=2):
        codes = [move_to_code(m) for m in rnd.legal_moves()]
        state = State.from_round(rnd)
        side = state.side_of(state.to_move)
        expected = Searcher(side, depth=1).root_values(state, codes)
        got = kernel.search_flat(round_worlds(rnd), codes, 1, 1, 0.0, True, seed=5)
        assert got == [expected[c] for c in codes], rnd
        # three identical worlds add up
        got3 = kernel.search_flat(round_worlds(rnd), codes, 3, 1, 0.0, True, seed=5)
        assert got3 == [3 * v for v in got]


def test_sampled_worlds_keep_the_hard_facts() -> None:
    """R9: every guess keeps my hand, every hand size and the boneyard size; nothing else."""
    from passing_game.bots.fast import round_worlds, view_worlds
    from passing_game.bots.sampling import Sampler

    for rnd in _positions(40, seed=3):
        seat = rnd.to_move
        assert seat is not None
        view = rnd.view(seat)
        mine = sum(1 << t.index for t in view.hand)
        unseen = sum(1 << t.index for t in view.unseen)
        for trust, heavy in ((1.0, 0.0), (0.3, 0.15)):
            sampler = Sampler(view, trust=trust, heavy=heavy, pool=50)
            worlds = view_worlds(view, sampler, random.Random(1))
            pool = {tuple(h) for h in worlds[0]}
            guesses = kernel.sample_worlds(worlds, 30, seed=2)
            seen_hands = set()
            for hands, bone in guesses:
                assert hands[seat] == mine
                assert [h.bit_count() for h in hands] == [len(h) for h in rnd.hands]
                assert len(bone) == len(rnd.boneyard)
                others = 0
                for s, h in enumerate(hands):
                    if s != seat:
                        assert not others & h
                        others |= h
                assert others | sum(1 << t for t in bone) == unseen
                assert len(set(bone)) == len(bone)
                if worlds[3] == kernel.WORLD_POOL:
                    assert tuple(hands) in pool
                seen_hands.add(tuple(hands))
            if unseen.bit_count() > len(rnd.boneyard) + 1 and rnd.rules.players == 2:
                assert len(seen_hands) > 1
        # the second yardstick: true hands, shuffled boneyard
        truth = round_worlds(rnd, boneyard_known=False)
        true_hands = tuple(sum(1 << t.index for t in h) for h in rnd.hands)
        for hands, bone in kernel.sample_worlds(truth, 10, seed=4):
            assert hands == true_hands
            assert sorted(bone) == sorted(t.index for t in rnd.boneyard)


def test_ismcts_search_is_deterministic_legal_and_counts_every_iteration() -> None:
    from passing_game.bots.fast import round_worlds

    for rnd in _positions(30, seed=4):
        legal = {move_to_code(m) for m in rnd.legal_moves()}
        worlds = round_worlds(rnd, boneyard_known=False)
        args = (worlds, 300, 0.0, 0.7, 0.1, 1.0, True, 9)
        done, nodes, children = kernel.search_ismcts(*args, max_nodes=100_000)
        assert done == 300 and nodes > len(children)
        assert {code for code, _v, _r in children} <= legal
        assert sum(v for _c, v, _r in children) == 300
        assert kernel.search_ismcts(*args, max_nodes=100_000) == (done, nodes, children)
        # a full tree stops growing, and the search still runs every iteration
        done, nodes, children = kernel.search_ismcts(*args, max_nodes=16)
        assert done == 300 and nodes <= 16


def test_playout_and_tree_opponent_policies_are_separate() -> None:
    """``weights`` steer the playouts only and ``opponent_weights`` the opponents'
    moves in the tree only: each changes the search's statistics on its own."""
    from passing_game.bots.fast import round_worlds

    follow = (0.0, 0.0, 1.0, 0.0, 0.0)
    changed = {"playouts": 0, "tree": 0}
    for rnd in _positions(20, seed=6):
        worlds = round_worlds(rnd, boneyard_known=False)
        args = (worlds, 400, 0.0, 0.7, 0.0, 1.0, True, 9, 100_000)
        plain = kernel.search_ismcts(*args)
        assert kernel.search_ismcts(*args, None, None) == plain
        changed["playouts"] += kernel.search_ismcts(*args, follow, None) != plain
        changed["tree"] += kernel.search_ismcts(*args, None, follow) != plain
    assert changed["playouts"] > 0 and changed["tree"] > 0


def test_search_entry_points_refuse_bad_input() -> None:
    from passing_game.bots.fast import round_worlds

    rnd = _positions(1, seed=5)[0]
    good = round_worlds(rnd)
    seat = good[10]
    moves = [56] if rnd.boneyard else [57]
    ext = kernel._need()
    bad_worlds = [
        (*good[:3], 7, *good[4:]),  # no such mode
        (*good[:3], kernel.WORLD_POOL, *good[4:]),  # mode 1 without weights
        ([], [], [], 0, *good[4:]),  # an empty pool
        (*good[:10], 9),  # no such seat
        ([tuple(good[0][0])], [[*good[1][0], *good[1][0][:1]]], *good[2:]),  # a tile twice
    ]
    for worlds in bad_worlds:
        with pytest.raises(ValueError):
            ext.search_flat(*worlds, moves, 1, 1, 0.0, True, 1)
        with pytest.raises(ValueError):
            ext.search_ismcts(
                *worlds, 10, 0.0, 0.7, 0.1, 1.0, True, 1, 1000, None, None, None, None
            )
    with pytest.raises(ValueError):  # a move that is not legal
        ext.search_flat(*good, [0, 1, 2, 3] * 20, 1, 1, 0.0, True, 1)
    with pytest.raises(ValueError):  # the searcher is not to move
        ext.search_ismcts(
            *good[:10],
            (seat + 1) % rnd.rules.players,
            *(10, 0, 0.7, 0, 1, 1, 1, 100, None, None, None, None),
        )
    with pytest.raises(ValueError):  # decreasing weights
        pool = (good[0] * 2, good[1] * 2, [2.0, 1.0], kernel.WORLD_POOL, *good[4:])
        ext.sample_worlds(*pool, 1, 1)
    with pytest.raises(ValueError):
        ext.search_ismcts(*good, 0, 0.0, 0.7, 0.1, 1.0, True, 1, 1000, None, None, None, None)
    with pytest.raises(ValueError):  # a model of play with too few coefficients
        ext.search_ismcts(*good, 10, 0.0, 0.7, 0.1, 1.0, True, 1, 1000, None, None, (1.0,), None)
    with pytest.raises(TypeError):  # a model of play that is not numbers
        ext.search_ismcts(*good, 10, 0.0, 0.7, 0.1, 1.0, True, 1, 1000, None, None, None, 3)


def test_the_model_of_play_scores_moves_as_python_does() -> None:
    """The kernel's model of play (the tree's opponents, the playouts with
    ``playout_model``) scores every legal move as ``bots.policy.model_scores``
    does, in every format and on a smaller set (P64)."""
    from passing_game.bots.playmodel import FITTED
    from passing_game.bots.policy import model_scores
    from passing_game.state import State

    ext = kernel._need()
    checked = 0
    for rules in (
        Rules(players=2),
        Rules(players=3),
        Rules(players=4, partnerships=True),
        Rules(max_pip=3, hand_size=4),
    ):
        coefficients = FITTED[(4, True)] if rules.partnerships else FITTED[(2, False)]
        for seed in range(12):
            rnd = Round.new(rules, seed=seed)
            rng = random.Random(seed)
            while not rnd.is_over:
                ours = ext.model_scores(*kernel.position(rnd), coefficients)
                theirs = model_scores(State.from_round(rnd), coefficients)
                assert [c for c, _ in ours] == [c for c, _ in theirs]
                assert [s for _, s in ours] == pytest.approx([s for _, s in theirs], abs=1e-12)
                checked += 1
                rnd.play(rng.choice(rnd.legal_moves()))
    assert checked > 500
    with pytest.raises(ValueError):
        ext.model_scores(*kernel.position(Round.new(Rules(), seed=1)), None)


def test_the_model_of_play_passes_and_draws_with_a_fitting_tile_sometimes() -> None:
    """R4.4, R4.5: unlike the heaviest-tile policy, the model of play passes or
    draws while a tile fits, as the expert it was fitted to does, and its
    moves follow its softmax."""
    from passing_game.bots.playmodel import FITTED
    from passing_game.bots.policy import model_move, model_scores
    from passing_game.state import State

    rnd = Round.new(Rules(players=2), seed=3)
    rnd.play(rnd.legal_moves()[0])
    state = State.from_round(rnd)
    scores = dict(model_scores(state, FITTED[(2, False)]))
    assert set(scores) == {move_to_code(m) for m in rnd.legal_moves()}
    rng = random.Random(1)
    counts: dict[int, int] = {}
    for _ in range(4000):
        code = model_move(state, rng, FITTED[(2, False)])
        counts[code] = counts.get(code, 0) + 1
    top = max(scores.values())
    total = sum(math.exp(s - top) for s in scores.values())
    for code, score in scores.items():
        assert counts.get(code, 0) / 4000 == pytest.approx(math.exp(score - top) / total, abs=0.03)
