"""Matches: rounds until a side reaches the target (R8), leaders per D5, seeds (D9)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest

from passing_game import DRAW, PASS, TILES, Deal, IllegalMove, Match, Move, Play, Rules, Tile
from passing_game.round import Round

#: The rules suites run on both implementations of ``Round``.
pytestmark = pytest.mark.usefixtures("engine")

T = Tile.parse
Policy = Callable[[Match], Move]


def heavy(match: Match) -> Move:
    """Heaviest play, else draw, else pass: rounds end by domino or block soon."""
    legal = match.legal_moves()
    plays = [m for m in legal if isinstance(m, Play)]
    if plays:
        return max(plays, key=lambda m: (m.tile.pips, m.end == "left"))
    return DRAW if DRAW in legal else PASS


def randomly(seed: int) -> Policy:
    rng = random.Random(seed)
    return lambda match: rng.choice(match.legal_moves())


def finish(match: Match, policy: Policy = heavy, limit: int = 20000) -> None:
    for _ in range(limit):
        if match.is_over:
            return
        match.play(policy(match))
    raise AssertionError("the match did not end")


def deal(hands: list[list[str]], leader: int) -> Deal:
    used = {T(t) for h in hands for t in h}
    boneyard = [t for t in TILES if t not in used]
    rules = Rules(players=len(hands), hand_size=len(hands[0]))
    return Round.from_deal(rules, hands, boneyard, leader).deal


VARIANTS = [
    Rules(players=2),
    Rules(players=3),
    Rules(players=4),
    Rules(players=4, partnerships=True),
    Rules(players=3, scoring="pairwise", leader="rotate", draw="continue"),
    Rules(players=2, passing="forced", leader="winner"),
    Rules(players=4, partnerships=True, leader="winner", target=150),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=repr)
def test_r8_rounds_until_a_side_reaches_the_target(rules: Rules) -> None:
    """R8.1/R8.2: rounds go on until one side totals at least the target; it wins."""
    for seed in range(3):
        match = Match(rules, seed=seed)
        assert match.scores == [0] * rules.sides
        finish(match)
        assert match.is_over
        assert len(match.results) == len(match.rounds)
        assert [r.result for r in match.rounds] == match.results
        totals = [0] * rules.sides
        for number, result in enumerate(match.results, start=1):
            by_side = result.points_by_side()
            assert len(by_side) == rules.sides
            assert sum(1 for p in by_side if p) <= 1  # R8.2: one side scores per round
            totals = [a + b for a, b in zip(totals, by_side, strict=True)]
            if number < len(match.results):
                assert max(totals) < rules.target
        assert totals == match.scores
        winner = match.winner
        assert winner is not None
        assert match.scores[winner] >= rules.target
        assert all(s < rules.target for i, s in enumerate(match.scores) if i != winner)
        assert match.results[-1].winner == winner
        assert match.to_move is None
        assert match.legal_moves() == []


def test_r8_1_reaching_means_at_least_the_target() -> None:
    """R8.1: a total equal to the target ends the game; one below does not."""
    domino = deal([["3-5"], ["6-6"]], leader=0)  # seat 0 dominoes, scores 12
    for target, over in [(12, True), (13, False), (11, True)]:
        rules = Rules(players=2, hand_size=1, target=target)
        match = Match(rules, seed=1, deals=[domino])
        result = match.play(Play(T("3-5"), "left"))
        assert result is not None and result.points == 12
        assert match.scores == [12, 0]
        assert match.is_over is over
        assert match.winner == (0 if over else None)
        assert match.round_number == (1 if over else 2)


def test_r8_partnership_scores_per_team() -> None:
    """D6/R8: with partnerships there are two scores, one per team."""
    rules = Rules(players=4, partnerships=True, hand_size=1, target=5)
    match = Match(rules, seed=2, deals=[deal([["6-6"], ["5-5"], ["0-0"], ["4-4"]], leader=0)])
    for move in [PASS, PASS, Play(T("0-0"), "left")]:
        match.play(move)
    assert match.scores == [6, 0]
    assert match.winner == 0
    assert match.is_over


def test_match_round_and_round_number() -> None:
    match = Match(Rules(players=2), seed=7)
    assert match.round_number == 1
    first = match.round
    while match.round is first:
        match.play(heavy(match))
    assert match.round_number == 2
    assert match.rounds[0] is first and first.is_over
    assert not match.round.is_over


def test_play_returns_the_result_when_a_round_ends() -> None:
    match = Match(Rules(players=2), seed=3)
    while True:
        rnd = match.round
        out = match.play(heavy(match))
        if rnd.is_over:
            assert out is rnd.result is match.results[-1]
            break
        assert out is None


def test_play_after_the_match_is_over_is_refused() -> None:
    match = Match(Rules(players=2, target=20), seed=5)
    finish(match)
    scores = list(match.scores)
    rounds = len(match.rounds)
    for move in [PASS, DRAW, Play(TILES[0], "left")]:
        with pytest.raises(IllegalMove, match="over"):
            match.play(move)
    assert match.scores == scores
    assert len(match.rounds) == rounds


def test_illegal_move_leaves_the_match_unchanged() -> None:
    match = Match(Rules(players=3), seed=8)
    match.play(heavy(match))
    hands, history, scores = match.round.hands, match.round.history, list(match.scores)
    seat = match.round.to_move
    assert seat is not None
    other = match.round.hands[(seat + 1) % 3][0]
    with pytest.raises(IllegalMove):
        match.play(Play(other, "left"))
    assert (match.round.hands, match.round.history, match.scores) == (hands, history, scores)
    assert match.round.to_move == seat


# -- D5: who leads -----------------------------------------------------------------------


def test_d5_rotate_next_seat_each_round() -> None:
    for players in (2, 3, 4):
        match = Match(Rules(players=players, leader="rotate", target=300), seed=players)
        finish(match, randomly(players))
        leaders = [r.leader for r in match.rounds]
        assert len(leaders) > 2
        for a, b in itertools.pairwise(leaders):
            assert b == (a + 1) % players


def test_d5_random_leader_each_round() -> None:
    """D5 default: each round's leader is drawn at random (not a rotation, not fixed)."""
    leaders: list[int] = []
    steps: set[int] = set()
    for seed in range(6):
        match = Match(Rules(players=3, target=200), seed=seed)
        finish(match, randomly(seed))
        ls = [r.leader for r in match.rounds]
        leaders.extend(ls)
        steps.update((b - a) % 3 for a, b in itertools.pairwise(ls))
    assert set(leaders) == {0, 1, 2}
    assert steps == {0, 1, 2}


def test_d5_winner_leads_the_next_round() -> None:
    for seed in range(4):
        match = Match(Rules(players=3, leader="winner"), seed=seed)
        finish(match, randomly(seed))
        for result, after in zip(match.results, match.rounds[1:], strict=False):
            if result.winner is not None:
                assert after.leader == result.winner


def test_d5_winner_after_a_tie_is_random() -> None:
    """D5: under leader="winner" a tied round is followed by a random leader."""
    tie = deal([["0-5"], ["1-4"]], leader=0)
    rules = Rules(players=2, hand_size=1, leader="winner")
    leaders = set()
    for seed in range(24):
        match = Match(rules, seed=seed, deals=[tie])
        match.play(PASS)
        match.play(PASS)
        assert match.results[0].winner is None
        leaders.add(match.round.leader)
    assert leaders == {0, 1}


def test_d5_winner_with_partnerships_the_team_leads() -> None:
    """D5 with partnerships: the winning team leads; its partner with fewer pips
    (the lower seat on equal counts) is the one who leads."""
    rules = Rules(players=4, partnerships=True, hand_size=1, leader="winner")
    # seat 2 dominoes: team 0 wins, seat 2 (0 pips) has fewer than seat 0 (12)
    first = deal([["6-6"], ["5-5"], ["0-0"], ["4-4"]], leader=0)
    match = Match(rules, seed=1, deals=[first])
    for move in [PASS, PASS, Play(T("0-0"), "left")]:
        match.play(move)
    assert match.results[0].winner == 0
    assert match.round.leader == 2
    # seat 3 dominoes: team 1 wins; seat 1 holds 1 pip, seat 3 none: seat 3 leads
    second = deal([["6-6"], ["0-1"], ["5-5"], ["0-0"]], leader=3)
    match = Match(rules, seed=1, deals=[second])
    match.play(Play(T("0-0"), "left"))
    assert match.results[0].winner == 1
    assert match.round.leader == 3
    # equal counts in the winning team (2 and 2 pips): the lower seat leads
    third = deal([["0-2"], ["6-6"], ["1-1"], ["5-5"]], leader=1)
    match = Match(rules, seed=1, deals=[third])
    for _ in range(4):
        match.play(PASS)
    result = match.results[0]
    assert result.reason == "all-pass" and result.winner == 0
    assert result.pips[0] == result.pips[2] == 2
    assert match.round.leader == 0


# -- D9: seeds ----------------------------------------------------------------------------


def test_d9_same_seed_same_match() -> None:
    for rules in VARIANTS[:4]:
        a = Match(rules, seed=42)
        b = Match(rules, seed=42)
        finish(a, randomly(1))
        finish(b, randomly(1))
        assert [r.deal for r in a.rounds] == [r.deal for r in b.rounds]
        assert [r.history for r in a.rounds] == [r.history for r in b.rounds]
        assert a.results == b.results
        assert a.scores == b.scores and a.winner == b.winner


def test_d9_different_seeds_differ_and_seed_is_kept() -> None:
    assert Match(seed=1).round.deal != Match(seed=2).round.deal
    assert Match(seed=1).seed == 1
    unseeded = Match()
    assert isinstance(unseeded.seed, int)
    assert Match(seed=unseeded.seed).round.deal == unseeded.round.deal


@pytest.mark.parametrize("seed", ["1", 1.5, True])
def test_bad_seed(seed: object) -> None:
    with pytest.raises(ValueError, match="seed"):
        Match(Rules(), seed=seed)  # type: ignore[arg-type]


def test_default_rules() -> None:
    match = Match(seed=0)
    assert match.rules == Rules()
    assert match.scores == [0, 0]
    assert not match.is_over and match.winner is None


def test_d9_seed_deals_the_same_tiles_whatever_the_leader_rule() -> None:
    """D9 (docs/DECISIONS.md P9): each round takes one shuffle and one seat from the
    generator, so the deals of a seed do not depend on the leader rule or the results."""
    matches = [
        Match(Rules(players=3, leader=rule), seed=11) for rule in ("random", "rotate", "winner")
    ]
    for number, match in enumerate(matches):
        rng = random.Random(number)
        for _ in range(5):
            first = match.round
            while match.round is first and not match.is_over:
                match.play(rng.choice(match.legal_moves()))
    hands = [[r.deal.hands for r in m.rounds] for m in matches]
    common = min(len(h) for h in hands)
    assert common >= 2
    for h in hands[1:]:
        assert h[:common] == hands[0][:common]
    assert Match(Rules(players=4), seed=5).round.deal == Round.new(Rules(players=4), seed=5).deal


# -- P25: resigning a two-player match ---------------------------------------------------


def state(match: Match) -> tuple[object, ...]:
    rnd = match.round
    return (
        match.round_number,
        rnd.hands,
        rnd.history,
        rnd.result,
        tuple(match.scores),
        match.winner,
        match.resigned,
        match.is_over,
        tuple(match.results),
    )


def two_rounds_in(seed: int = 4) -> Match:
    """A two-player match in its third round, both sides having a chance to score."""
    match = Match(Rules(players=2, target=500), seed=seed)
    while match.round_number < 3:
        match.play(heavy(match))
    match.play(heavy(match))
    return match


@pytest.mark.parametrize("seat", [0, 1])
def test_p25_resign_ends_the_match_at_once(seat: int) -> None:
    """P25 (R8): the resigning seat's side concedes; the other side wins now, the
    scores stay as they are and the round being played stays unfinished."""
    match = two_rounds_in()
    scores, rounds, results = list(match.scores), len(match.rounds), list(match.results)
    current, moves = match.round, match.round.history
    assert match.resigned is None
    assert match.resign(seat) is None  # type: ignore[func-returns-value]
    assert match.is_over and match.winner == 1 - seat and match.resigned == seat
    assert match.scores == scores  # even if the winner is behind: nothing is scored
    assert len(match.rounds) == rounds and match.results == results
    assert match.round is current and current.result is None and not current.is_over
    assert current.history == moves
    assert match.to_move is None and match.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        match.play(heavy(Match(Rules(players=2), seed=1)))
    assert repr(match).endswith(f", over, seat {seat} resigned>")


def test_p25_resign_before_any_move() -> None:
    match = Match(Rules(players=2), seed=9)
    match.resign(0)
    assert match.winner == 1 and match.scores == [0, 0] and not match.round.moves
    assert repr(match) == "<Match 2 players, round 1, scores [0, 0], over, seat 0 resigned>"


def test_p25_resign_with_any_two_player_rules() -> None:
    for rules in [
        Rules(players=2, passing="forced", leader="winner"),
        Rules(players=2, draw="continue", scoring="pairwise", target=1),
    ]:
        match = Match(rules, seed=2)
        match.resign(1)
        assert match.winner == 0


@pytest.mark.parametrize(
    "rules",
    [Rules(players=3), Rules(players=4), Rules(players=4, partnerships=True)],
    ids=repr,
)
def test_p25_resign_is_refused_with_more_than_two_players(rules: Rules) -> None:
    """P25: resigning is only for two-player games; the match is left unchanged."""
    match = Match(rules, seed=3)
    match.play(heavy(match))
    before = state(match)
    for seat in range(rules.players):
        with pytest.raises(IllegalMove, match=r"^resigning is only for two-player games$"):
            match.resign(seat)
    assert state(match) == before
    assert not match.is_over and match.resigned is None and "resigned" not in repr(match)


def test_p25_resign_is_refused_once_the_match_is_over() -> None:
    """R8: a match won by reaching the target cannot be resigned; nor twice."""
    match = Match(Rules(players=2, target=20), seed=5)
    finish(match)
    before = state(match)
    for seat in (0, 1):
        with pytest.raises(IllegalMove, match=r"^the match is over$"):
            match.resign(seat)
    assert state(match) == before and match.resigned is None
    match = Match(Rules(players=2), seed=5)
    match.resign(1)
    before = state(match)
    with pytest.raises(IllegalMove, match=r"^the match is over$"):
        match.resign(0)
    assert state(match) == before and match.resigned == 1 and match.winner == 0


@pytest.mark.parametrize("seat", [-1, 2, 7, True, "0", None, 0.0])
def test_p25_resign_refuses_a_seat_out_of_range(seat: object) -> None:
    match = two_rounds_in()
    before = state(match)
    with pytest.raises(
        IllegalMove, match=r"^seat must be an index from 0 to 1 \(seat 1 is index 0\), got "
    ) as info:
        match.resign(seat)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    assert f"“{seat}”" in str(info.value)
    assert state(match) == before and not match.is_over
