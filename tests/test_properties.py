"""Property-based tests (hypothesis) over seeds, player counts and every variant.

The bound on a round's length (D3 with R2.4, R6.1, R6.2)
---------------------------------------------------------
With ``n`` players, split a round's history into its non-pass actions (plays
and draws) and the passes between them.

* Plays: at most 26. The two locked tiles never leave the boneyard (R2.4), so
  at most 28 - 2 tiles ever reach a hand, and each is played at most once.
* Draws: at most ``max_draws = boneyard_size - 2`` (R4.3); 12, 5 and 2 with
  the default hand sizes of 2, 3 and 4 players.
* Passes: a run of ``n`` passes in a row ends the round (D3), so between two
  actions, and before the first, there are at most ``n - 1`` passes; the final
  run may have ``n``.

With ``k <= 26 + max_draws`` actions there are ``k + 1`` runs of passes, so
``moves <= k + (k + 1) * (n - 1) + 1 = n * (k + 1) <= n * (26 + max_draws + 1)``:
78 moves for 2 players, 96 for 3 and 116 for 4 with the default hand sizes.
``test_round_length_bound_is_not_loose`` plays stalling rounds (pass as long
as the round survives it, act only then) and checks that the longest round seen
comes within 70% of the bound, so the bound is a real one, not a wild guess.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from passing_game import (
    DRAW,
    PASS,
    TILES,
    Match,
    Move,
    Play,
    Round,
    Rules,
    Tile,
    dump_record,
    load_record,
    parse_move,
)
from passing_game.rules import DRAW_RULES, LEADER_RULES, PASSING_RULES, SCORING_RULES

#: The rules suites run on both implementations of ``Round``.
pytestmark = pytest.mark.usefixtures("engine")

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def length_bound(rules: Rules) -> int:
    """The most moves a round can take (see the module docstring)."""
    return rules.players * (26 + rules.max_draws + 1)


@st.composite
def any_rules(draw: st.DrawFn, target: int | None = None) -> Rules:
    players = draw(st.sampled_from([2, 3, 4]))
    partnerships = players == 4 and draw(st.booleans())
    hand_size = draw(st.one_of(st.none(), st.integers(1, 26 // players)))
    return Rules(
        players=players,
        partnerships=partnerships,
        draw=draw(st.sampled_from(DRAW_RULES)),
        passing=draw(st.sampled_from(PASSING_RULES)),
        scoring=draw(st.sampled_from(SCORING_RULES)),
        leader=draw(st.sampled_from(LEADER_RULES)),
        hand_size=hand_size,
        target=target,
    )


Policy = Callable[[Round, random.Random], Move]


def uniform(rnd: Round, rng: random.Random) -> Move:
    return rng.choice(rnd.legal_moves())


def busy(rnd: Round, rng: random.Random) -> Move:
    """Mostly plays and draws: long rounds that end by domino or block."""
    legal = rnd.legal_moves()
    active = [m for m in legal if m != PASS]
    return rng.choice(active) if active and rng.random() < 0.9 else rng.choice(legal)


def stalling(rnd: Round, rng: random.Random) -> Move:
    """Pass while the round survives it, then act; never empty a hand if avoidable."""
    n = rnd.rules.players
    legal = rnd.legal_moves()
    wait = n - 1 if rng.random() < 0.5 else max(n - 2, 0)
    if rnd.passes_in_row < wait and PASS in legal:
        return PASS
    seat = rnd.to_move
    assert seat is not None
    plays = [m for m in legal if isinstance(m, Play)]
    if DRAW in legal and (not plays or rng.random() < 0.5):
        return DRAW
    if plays and not (len(rnd.hands[seat]) == 1 and PASS in legal):
        return rng.choice(plays)
    return PASS if PASS in legal else rng.choice(legal)


POLICIES: dict[str, Policy] = {"uniform": uniform, "busy": busy, "stalling": stalling}


# -- independent models of the rules, used to check the engine ----------------------


def expected_score(rules: Rules, pips: tuple[int, ...]) -> tuple[int | None, int]:
    """R7.2, R7.3, D4, D6, D11 written out again, independently of passing_game.scoring."""
    if rules.partnerships:
        counts = [pips[0] + pips[2], pips[1] + pips[3]]
    else:
        counts = list(pips)
    best = min(counts)
    winners = [side for side, c in enumerate(counts) if c == best]
    if len(winners) > 1:
        return None, 0
    rest = [c for side, c in enumerate(counts) if side != winners[0]]
    if rules.scoring == "literal":
        return winners[0], sum(rest) - best
    return winners[0], sum(c - best for c in rest)


def fits(tile: Tile, ends: tuple[int, int] | None) -> bool:
    return ends is None or tile.low in ends or tile.high in ends


def candidates(rnd: Round) -> list[Move]:
    out: list[Move] = [DRAW, PASS]
    for tile in TILES:  # every tile, held or not
        out += [Play(tile, "left"), Play(tile, "right")]
    return out


def check_state(rnd: Round) -> None:
    """Invariants that hold after every move."""
    deal = rnd.deal
    rules = rnd.rules
    # R1.3: the 28 tiles are conserved across hands, train and boneyard
    train = [p.tile for p in rnd.train]
    everything = [t for h in rnd.hands for t in h] + train + list(rnd.boneyard)
    assert sorted(everything) == list(TILES)
    # the train is a chain: neighbours touch, the ends are its outer halves (R4.1, R5.2)
    for a, b in zip(rnd.train, rnd.train[1:], strict=False):
        assert a.right == b.left
    if rnd.train:
        assert rnd.ends == (rnd.train[0].left, rnd.train[-1].right)
    else:
        assert rnd.ends is None
    # R2.4: the two locked tiles stay at the back of the boneyard, never drawn
    locked = deal.boneyard[-2:]
    assert rnd.locked == locked
    assert rnd.boneyard[-2:] == locked
    assert len(rnd.boneyard) >= 2
    assert rnd.boneyard == deal.boneyard[len(deal.boneyard) - len(rnd.boneyard) :]
    assert not any(t.drawn in locked for t in rnd.history if t.drawn is not None)
    assert len(rnd.history) <= length_bound(rules)
    if rnd.is_over:
        assert rnd.legal_moves() == []
        return
    legal = rnd.legal_moves()
    # no duplicates; every listed move is accepted, and only listed ones (up to the
    # same-outcome play on the right, R4.2)
    assert len(set(legal)) == len(legal)
    assert rnd.view(rnd.to_move).legal_moves() == legal  # type: ignore[arg-type]
    for move in candidates(rnd):
        if move in legal:
            after = rnd.copy()
            after.play(move)  # accepted
            assert len(after.history) == len(rnd.history) + 1
        elif rnd.is_legal(move):
            assert isinstance(move, Play) and move.end == "right"
            assert Play(move.tile, "left") in legal
            assert rnd.ends is None or rnd.ends[0] == rnd.ends[1]
    # the engine's list against the rules written out again (R4, D1, D2)
    hand = rnd.hands[rnd.to_move]  # type: ignore[index]
    fitting = {t for t in hand if fits(t, rnd.ends)}
    assert {m.tile for m in legal if isinstance(m, Play)} == fitting
    can_draw = len(rnd.boneyard) > 2
    assert (DRAW in legal) == can_draw
    if rules.passing == "free":
        assert PASS in legal
    else:
        assert (PASS in legal) == (not fitting and not can_draw)


def check_result(rnd: Round) -> None:
    result = rnd.result
    assert result is not None
    rules = rnd.rules
    n = rules.players
    assert result.pips == tuple(sum(t.pips for t in h) for h in rnd.hands)
    assert result.hands == rnd.hands
    assert result.locked == rnd.deal.boneyard[-2:] == rnd.boneyard[-2:]  # D8
    assert (result.winner, result.points) == expected_score(rules, result.pips)
    last = rnd.history[-1]
    if result.reason == "domino":  # R6.1
        assert isinstance(last.move, Play) and rnd.hands[last.seat] == ()
    elif result.reason == "block":  # R6.2
        assert len(rnd.boneyard) <= 2
        assert not any(fits(t, rnd.ends) for h in rnd.hands for t in h)
        assert rnd.ends is not None
    else:  # D3
        assert result.reason == "all-pass"
        assert [t.move for t in rnd.history[-n:]] == [PASS] * n
        assert all(h for h in rnd.hands)


@pytest.mark.slow  # 200 random rounds
@SETTINGS
@given(
    rules=any_rules(),
    seed=st.integers(0, 2**32),
    policy=st.sampled_from(sorted(POLICIES)),
)
def test_rounds_conserve_tiles_lock_two_end_in_bound_and_score(
    rules: Rules, seed: int, policy: str
) -> None:
    """R1.3 conservation, R2.4 locked tiles, the length bound, R6 endings, R7/D4/D6 scores."""
    rnd = Round.new(rules, seed=seed)
    rng = random.Random(seed)
    check_state(rnd)
    while not rnd.is_over:
        rnd.play(POLICIES[policy](rnd, rng))
        check_state(rnd)
    assert len(rnd.history) <= length_bound(rules)
    check_result(rnd)


def test_round_length_bound_is_not_loose() -> None:
    """The derived bound holds for stalling play and is reached to within 65%."""
    for players in (2, 3, 4):
        rules = Rules(players=players)
        longest = 0
        for seed in range(150):
            rnd = Round.new(rules, seed=seed)
            rng = random.Random(seed)
            while not rnd.is_over:
                rnd.play(stalling(rnd, rng))
            longest = max(longest, len(rnd.history))
        assert longest <= length_bound(rules)
        assert longest >= 0.65 * length_bound(rules), (players, longest, length_bound(rules))


def state(match: Match) -> tuple[object, ...]:
    rnd = match.round
    return (
        match.round_number,
        rnd.hands,
        rnd.boneyard,
        rnd.train,
        rnd.to_move,
        rnd.history,
        rnd.result,
        tuple(match.scores),
        match.winner,
    )


@pytest.mark.slow  # 150 random matches
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=any_rules(target=40),
    seed=st.integers(0, 2**32),
    stop=st.one_of(st.none(), st.integers(0, 150)),
)
def test_records_replay_to_the_same_states(rules: Rules, seed: int, stop: int | None) -> None:
    """A record, finished or not, loads into a match that went through the same states."""
    match = Match(rules, seed=seed)
    rng = random.Random(seed)
    states = [state(match)]
    while not match.is_over and (stop is None or len(states) <= stop):
        match.play(busy(match.round, rng))
        states.append(state(match))
    text = dump_record(match)
    loaded = load_record(text)
    assert state(loaded) == states[-1]
    # a fresh match fed the record's moves goes through every state again
    fresh = Match(rules, seed=seed)
    again = [state(fresh)]
    for rnd in json.loads(text)["rounds"]:
        for move in rnd["moves"]:
            fresh.play(parse_move(move))
            again.append(state(fresh))
    assert again == states
    assert loaded.scores == match.scores
    assert loaded.winner == match.winner
    assert loaded.results == match.results
    assert [r.deal for r in loaded.rounds] == [r.deal for r in match.rounds]
    for original, again in zip(match.rounds, loaded.rounds, strict=True):
        assert again.history == original.history
        assert again.hands == original.hands
        assert again.boneyard == original.boneyard
        assert again.train == original.train
        assert again.to_move == original.to_move
        # replay the round move by move from its deal and compare each state
        a = Round.from_deal(rules, *original.deal)
        b = Round.from_deal(rules, *again.deal)
        for turn in original.history:
            a.play(turn.move)
            b.play(turn.move)
            assert (a.hands, a.boneyard, a.train, a.to_move) == (
                b.hands,
                b.boneyard,
                b.train,
                b.to_move,
            )
    assert dump_record(loaded) == dump_record(match)
