"""One round of play, rule by rule (R1-R7, D1-D3, D7-D9, D12) on hand-built deals."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from passing_game import (
    DRAW,
    PASS,
    TILES,
    Draw,
    IllegalMove,
    Move,
    Pass,
    Placed,
    Play,
    Round,
    Rules,
    Tile,
    parse_move,
)
from passing_game.round import STATE_NAMES
from round_helpers import observable

#: The rules suites run on both implementations of ``Round``.
pytestmark = pytest.mark.usefixtures("engine")

T = Tile.parse


def boneyard_for(
    hands: Sequence[Iterable[str]], first: Sequence[str] = (), last: Sequence[str] = ()
) -> list[Tile]:
    """The tiles not in ``hands``: ``first`` at the front, ``last`` (locked) at the back."""
    front = [T(t) for t in first]
    back = [T(t) for t in last]
    used = {T(t) for hand in hands for t in hand} | set(front) | set(back)
    return [*front, *(t for t in TILES if t not in used), *back]


def make(
    hands: Sequence[Sequence[str]],
    *,
    first: Sequence[str] = (),
    last: Sequence[str] = (),
    leader: int = 0,
    **fields: Any,
) -> Round:
    rules = Rules(players=len(hands), hand_size=len(hands[0]), **fields)
    return Round.from_deal(rules, hands, boneyard_for(hands, first, last), leader)


def play(rnd: Round, *texts: str) -> None:
    for text in texts:
        rnd.play(parse_move(text))


def state(rnd: Round) -> dict[str, Any]:
    """Everything observable about a round, public and internal, as plain values."""
    out = observable(rnd)
    for name in STATE_NAMES:  # the internals too, copied so later changes show
        out["state " + name] = copy.deepcopy(getattr(rnd, name))
    return out


def others(exclude: Iterable[str]) -> list[str]:
    """Tiles without a 6, minus ``exclude``, in set order."""
    gone = {T(t) for t in exclude}
    return [str(t) for t in TILES if not t.has(6) and t not in gone]


# A 2-player deal of 13 tiles each: the boneyard holds only the two locked tiles
# (4-6 and 5-6), so nobody can draw. Seven plays lay every other 6 on the train
# and leave both ends showing 6: a block (R6.2).
BLOCK_REST = others(["2-3", "0-1"])
BLOCK_HANDS = [
    ["6-6", "2-3", "1-6", "0-6", *BLOCK_REST[:9]],
    ["2-6", "3-6", "0-1", *BLOCK_REST[9:]],
]
BLOCK_MOVES = ["L6-6", "R2-6", "R2-3", "R3-6", "L1-6", "L0-1", "L0-6"]


def block_round(**fields: Any) -> Round:
    return make(BLOCK_HANDS, last=["4-6", "5-6"], **fields)


# -- R1, R2: equipment and setup ----------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r1_2_r2_2_r2_3_new_deals_hands_and_boneyard(players: int) -> None:
    """R1.2 two to four players; R2.2 hand sizes; R2.3 boneyard sizes; R1.3 all 28 tiles."""
    hand_size = {2: 7, 3: 7, 4: 6}[players]
    boneyard = {2: 14, 3: 7, 4: 4}[players]
    for seed in range(20):
        rnd = Round.new(Rules(players=players), seed=seed)
        assert [len(h) for h in rnd.hands] == [hand_size] * players
        assert len(rnd.boneyard) == boneyard
        every = [t for h in rnd.hands for t in h] + list(rnd.boneyard)
        assert sorted(every) == list(TILES)
        assert rnd.train == () and rnd.ends is None and not rnd.is_over
        assert rnd.to_move == rnd.leader == rnd.deal.leader


def test_r2_1_deals_are_shuffled() -> None:
    """R2.1: different seeds give different deals."""
    deals = {Round.new(Rules(), seed=s).deal for s in range(30)}
    assert len(deals) == 30


def test_r2_4_worked_example_draw_limits() -> None:
    """R2.4 / R4.3 worked example: at most 2 draws with 4 players, 12 with 2, 5 with 3."""
    for players, most in [(2, 12), (3, 5), (4, 2)]:
        rnd = Round.new(Rules(players=players), seed=players)
        locked = rnd.deal.boneyard[-2:]
        draws = 0
        while DRAW in rnd.legal_moves():
            rnd.play(DRAW)
            draws += 1
        assert draws == most
        assert rnd.boneyard == locked == rnd.locked
        assert not any(t in h for h in rnd.hands for t in locked)
        before = state(rnd)
        with pytest.raises(IllegalMove, match="boneyard holds 2 tiles"):
            rnd.play(DRAW)
        assert state(rnd) == before


# -- R3: turn order ------------------------------------------------------------


def test_r3_1_leader_is_random_per_seed_and_can_be_given() -> None:
    """R3.1: the leader is drawn at random; every seat leads for some seed."""
    for players in (2, 3, 4):
        leaders = {Round.new(Rules(players=players), seed=s).to_move for s in range(60)}
        assert leaders == set(range(players))
    assert Round.new(Rules(players=4), seed=1, leader=3).to_move == 3


def test_d9_same_seed_same_deal_and_leader() -> None:
    """D9: one seeded generator fixes the deal and the leader."""
    for seed in (0, 1, 99, "text seed"):
        a = Round.new(Rules(players=3), seed=seed)
        b = Round.new(Rules(players=3), seed=seed)
        assert a.deal == b.deal
        assert a.to_move == b.to_move


def test_r3_2_play_passes_clockwise() -> None:
    """R3.2: seat i is followed by seat (i + 1) % n, whatever the action."""
    rnd = Round.new(Rules(players=4), seed=5, leader=2)
    seen = []
    for move in [PASS, PASS, PASS, DRAW, PASS, PASS, PASS, DRAW]:
        seen.append(rnd.to_move)
        rnd.play(move)
    assert seen == [2, 3, 0, 1, 2, 3, 0, 1]
    assert rnd.to_move == 2
    hand = rnd.hands[2]
    rnd.play(Play(hand[0], "left"))
    assert rnd.to_move == 3


# -- R4: a turn ---------------------------------------------------------------


def test_r4_1_empty_train_takes_any_tile_and_both_halves_are_ends() -> None:
    """R4.1 / D12: on the empty train any tile may be played, either end."""
    rnd = make([["3-5", "0-0"], ["1-1", "1-2"]], leader=0)
    assert set(rnd.legal_moves()) == {Play(T("3-5"), "left"), Play(T("0-0"), "left"), DRAW, PASS}
    # listed once, on the left, yet ``in`` knows the right end is legal too
    assert Play(T("3-5"), "right") in rnd.legal_moves()
    assert Play(T("1-1"), "right") not in rnd.legal_moves()
    right = rnd.copy()
    rnd.play(Play(T("3-5"), "left"))
    right.play(Play(T("3-5"), "right"))
    for r in (rnd, right):
        assert r.ends == (3, 5)
        assert r.train == (Placed(3, 5),)
        assert r.hands[0] == (T("0-0"),)


def test_r4_1_matching_half_touches_the_end_other_half_opens() -> None:
    """R4.1: the touching half matches; the other half becomes the new open end."""
    rnd = make([["3-4", "1-3", "4-6"], ["0-0", "1-1", "2-2"]])
    play(rnd, "L3-4", "pass", "L1-3")
    assert rnd.ends == (1, 4)
    assert rnd.train == (Placed(1, 3), Placed(3, 4))
    play(rnd, "pass", "R6-4")
    assert rnd.ends == (1, 6)
    assert rnd.train == (Placed(1, 3), Placed(3, 4), Placed(4, 6))


def test_r4_1_a_tile_that_does_not_fit_is_refused() -> None:
    """R4.1: the touching half must show the end's number."""
    rnd = make([["3-4", "1-2", "5-6"], ["0-0", "1-1", "2-2"]])
    play(rnd, "L3-4", "pass")
    before = state(rnd)
    with pytest.raises(IllegalMove, match="does not fit the left end, which shows 3"):
        rnd.play(Play(T("1-2"), "left"))
    with pytest.raises(IllegalMove, match="does not fit the right end, which shows 4"):
        rnd.play(Play(T("5-6"), "right"))
    assert state(rnd) == before
    assert not any(isinstance(m, Play) for m in rnd.legal_moves())


def test_r4_2_tile_fitting_both_ends_names_its_end() -> None:
    """R4.2: a tile that fits two different ends is listed once per end; the outcomes differ."""
    rnd = make([["3-4", "3-5", "0-0"], ["4-5", "1-1", "2-2"]])
    play(rnd, "L3-4", "R4-5")
    assert rnd.ends == (3, 5)
    plays = [m for m in rnd.legal_moves() if isinstance(m, Play)]
    assert plays == [Play(T("3-5"), "left"), Play(T("3-5"), "right")]
    assert Play(T("0-0"), "right") not in rnd.legal_moves()
    right = rnd.copy()
    play(rnd, "L3-5")
    play(right, "R3-5")
    assert rnd.ends == (5, 5)
    assert rnd.train[0] == Placed(5, 3)
    assert right.ends == (3, 3)
    assert right.train[-1] == Placed(5, 3)


def test_r4_2_same_number_both_ends_listed_once_and_accepted_on_either() -> None:
    """R4.2: with both ends showing one number, a fitting tile is listed once (left);
    play() also accepts it on the right and lays it there."""
    rnd = make([["6-6", "0-0"], ["2-6", "1-1"]])
    play(rnd, "L6-6")
    assert rnd.ends == (6, 6)
    plays = [m for m in rnd.legal_moves() if isinstance(m, Play)]
    assert plays == [Play(T("2-6"), "left")]
    assert Play(T("2-6"), "right") in rnd.legal_moves()
    assert Play(T("1-1"), "right") not in rnd.legal_moves()
    right = rnd.copy()
    play(rnd, "L2-6")
    play(right, "R2-6")
    assert rnd.train == (Placed(2, 6), Placed(6, 6))
    assert right.train == (Placed(6, 6), Placed(6, 2))


def test_r4_3_draw_takes_the_front_of_the_boneyard() -> None:
    """R4.3: a draw takes boneyard[0] into the drawer's hand."""
    rnd = Round.new(Rules(players=2), seed=4, leader=1)
    front = rnd.boneyard[0]
    rest = rnd.boneyard[1:]
    rnd.play(DRAW)
    assert front in rnd.hands[1]
    assert len(rnd.hands[1]) == 8
    assert rnd.boneyard == rest
    assert rnd.history[-1].seat == 1
    assert rnd.history[-1].move == DRAW
    assert rnd.history[-1].drawn == front


def test_r4_4_pass_is_allowed_with_a_playable_tile() -> None:
    """R4.4 / D2 default: passing is always allowed."""
    rnd = make([["3-4", "4-4"], ["4-5", "1-1"]])
    play(rnd, "L3-4")
    assert Play(T("4-5"), "right") in rnd.legal_moves()
    assert PASS in rnd.legal_moves()
    rnd.play(PASS)
    assert rnd.to_move == 0
    assert rnd.hands[1] == (T("1-1"), T("4-5"))


def test_r4_5_draw_is_allowed_with_a_playable_tile() -> None:
    """R4.5: drawing is allowed while holding a playable tile."""
    rnd = make([["3-4", "4-4"], ["4-5", "1-1"]])
    play(rnd, "L3-4")
    assert DRAW in rnd.legal_moves()
    rnd.play(DRAW)
    assert len(rnd.hands[1]) == 3


def test_legal_moves_order_plays_then_draw_then_pass() -> None:
    rnd = make([["3-4", "4-4"], ["4-5", "1-1"]])
    assert rnd.legal_moves() == [Play(T("3-4"), "left"), Play(T("4-4"), "left"), DRAW, PASS]


# -- R5: doubles ----------------------------------------------------------------


def test_r5_worked_example_double_six_then_six_two() -> None:
    """R5.1/R5.2 worked example: train [6|6] alone has ends 6 and 6; playing [6|2]
    on either end leaves ends 6 and 2."""
    rnd = make([["6-6", "0-0"], ["2-6", "1-1"]])
    play(rnd, "L6-6")
    assert rnd.train == (Placed(6, 6),)
    assert rnd.ends == (6, 6)
    for end in ("left", "right"):
        r = rnd.copy()
        r.play(Play(T("6-2"), end))
        assert r.ends is not None and sorted(r.ends) == [2, 6]
        assert len(r.train) == 2


def test_r5_2_double_does_not_branch_the_train() -> None:
    """R5.2: after a double the end still shows its number; exactly two open ends."""
    rnd = make([["3-6", "6-6", "3-3"], ["0-0", "1-1", "2-2"]])
    play(rnd, "L3-6", "pass", "R6-6")
    assert rnd.ends == (3, 6)
    assert rnd.train == (Placed(3, 6), Placed(6, 6))
    play(rnd, "pass", "L3-3")
    assert rnd.ends == (3, 6)
    assert rnd.train == (Placed(3, 3), Placed(3, 6), Placed(6, 6))


# -- R6: end of a round -----------------------------------------------------------


def test_r6_1_domino_ends_at_once() -> None:
    """R6.1: playing the last tile ends the round at once, boneyard or not."""
    rnd = make([["3-5"], ["1-1"]])
    assert len(rnd.boneyard) == 26
    rnd.play(Play(T("3-5"), "left"))
    assert rnd.is_over
    result = rnd.result
    assert result is not None
    assert result.reason == "domino"
    assert result.pips == (0, 2)
    assert rnd.to_move is None
    assert rnd.legal_moves() == []


def test_r6_1_domino_mid_train() -> None:
    rnd = make([["3-4", "4-5"], ["0-3", "1-1"]])
    play(rnd, "L3-4", "L0-3")
    assert not rnd.is_over
    play(rnd, "R4-5")
    assert rnd.result is not None and rnd.result.reason == "domino"
    assert rnd.hands[0] == ()


def test_r6_2_block_when_no_hand_fits_and_no_draw_is_left() -> None:
    """R6.2: the round ends at once when nobody can play and the boneyard holds <= 2."""
    rnd = block_round()
    for move in BLOCK_MOVES[:-1]:
        rnd.play(parse_move(move))
        assert not rnd.is_over, move
    rnd.play(parse_move(BLOCK_MOVES[-1]))
    assert rnd.ends == (6, 6)
    result = rnd.result
    assert result is not None
    assert result.reason == "block"
    assert result.pips == tuple(sum(t.pips for t in h) for h in rnd.hands)
    assert [len(h) for h in rnd.hands] == [9, 10]
    assert rnd.boneyard == (T("4-6"), T("5-6"))


def test_r6_2_no_block_while_some_hand_fits() -> None:
    """R6.2: one hand that can still play keeps the round going."""
    hands = [list(h) for h in BLOCK_HANDS]
    hands[1][-1], spare = "4-6", hands[1][-1]
    rnd = make(hands, last=[spare, "5-6"])
    play(rnd, *BLOCK_MOVES)
    assert not rnd.is_over
    assert rnd.to_move == 1
    assert Play(T("4-6"), "left") in rnd.legal_moves()


def test_r6_2_no_block_while_a_draw_is_left_then_block_after_draws() -> None:
    """R6.2: with more than two tiles in the boneyard it is no block; the last
    possible draw that brings no fitting tile ends the round."""
    rest = BLOCK_REST
    hands = [
        ["6-6", "2-3", "1-6", "0-6", *rest[:8]],
        ["2-6", "3-6", "0-1", *rest[8:17]],
    ]
    rnd = make(hands, first=rest[17:], last=["4-6", "5-6"])
    assert len(rnd.boneyard) == 4
    play(rnd, *BLOCK_MOVES)
    assert not rnd.is_over
    play(rnd, "draw")
    assert not rnd.is_over
    play(rnd, "draw")
    assert rnd.result is not None and rnd.result.reason == "block"


def test_d3_all_pass_ends_the_round() -> None:
    """D3 / R6.3: one full circle of passes since the last play or draw ends the round."""
    rnd = make([["1-2", "2-2"], ["3-4", "0-0"], ["5-5", "0-6"]])
    play(rnd, "pass", "pass")
    assert rnd.passes_in_row == 2
    play(rnd, "draw")
    assert rnd.passes_in_row == 0
    play(rnd, "pass", "pass")
    assert not rnd.is_over
    assert rnd.to_move == 2
    play(rnd, "L0-6")
    play(rnd, "pass", "pass")
    assert not rnd.is_over
    play(rnd, "pass")
    result = rnd.result
    assert result is not None
    assert result.reason == "all-pass"
    assert rnd.to_move is None


def test_d3_all_pass_on_empty_train() -> None:
    """D3 / D12: passes from the first move on also end the round, scored as a block."""
    rnd = make([["0-1", "0-2"], ["3-3", "4-4"]])
    play(rnd, "pass", "pass")
    result = rnd.result
    assert result is not None
    assert result.reason == "all-pass"
    assert result.pips == (3, 14)
    assert result.winner == 0
    assert result.points == 11


# -- R7: scoring a round -------------------------------------------------------------


def test_r7_1_r7_2_lowest_count_wins_the_others_minus_own() -> None:
    """R7.1 pips left in hand; R7.2 lowest count scores sum(others) - own."""
    rnd = make([["0-1", "0-3"], ["1-4", "2-3"], ["4-5", "2-4"]])
    play(rnd, "pass", "pass", "pass")
    result = rnd.result
    assert result is not None
    assert result.pips == (4, 10, 15)
    assert result.winner == 0
    assert result.points == 21
    assert result.points_by_side() == (21, 0, 0)


def test_r7_2_d4_pairwise_variant_in_a_round() -> None:
    rnd = make([["0-1", "0-3"], ["1-4", "2-3"], ["4-5", "2-4"]], scoring="pairwise")
    play(rnd, "pass", "pass", "pass")
    assert rnd.result is not None and rnd.result.points == 17


def test_r7_3_tie_for_lowest_scores_nothing() -> None:
    """R7.3 / D11: two players share the lowest count, nobody scores."""
    rnd = make([["0-5"], ["1-4"]])
    play(rnd, "pass", "pass")
    result = rnd.result
    assert result is not None
    assert result.pips == (5, 5)
    assert result.winner is None
    assert result.points == 0
    assert result.points_by_side() == (0, 0)


def test_r1_4_partnership_round_winner_is_a_team() -> None:
    """R1.4 / D6: with partnerships the result names the team (0 = seats 0+2)."""
    rnd = make([["6-6"], ["5-5"], ["0-0"], ["4-4"]], partnerships=True)
    play(rnd, "pass", "pass", "L0-0")
    result = rnd.result
    assert result is not None
    assert result.reason == "domino"
    assert result.pips == (12, 10, 0, 8)
    assert result.side_pips == (12, 18)
    assert result.winner == 0
    assert result.points == 6
    assert result.points_by_side() == (6, 0)


def test_d7_domino_has_no_bonus() -> None:
    """D7: the empty hand counts 0 and the winner scores only the others' pips."""
    rnd = make([["3-5", "1-5"], ["6-6", "5-6"], ["2-2", "0-0"]])
    play(rnd, "L3-5", "pass", "pass")
    assert not rnd.is_over
    play(rnd, "R5-1")
    result = rnd.result
    assert result is not None
    assert result.reason == "domino"
    assert result.pips == (0, 23, 4)
    assert result.points == 27


def test_d8_locked_tiles_revealed_and_never_counted() -> None:
    """D8: the two locked tiles are in the result after the round; they count for nobody."""
    rnd = make([["0-1", "0-2"], ["3-3", "4-4"]], last=["6-6", "5-6"])
    play(rnd, "pass", "pass")
    result = rnd.result
    assert result is not None
    assert result.locked == (T("6-6"), T("5-6")) == rnd.deal.boneyard[-2:]
    assert result.hands == rnd.hands
    assert result.pips == (3, 14)


# -- D1, D2, D12: variants and the empty train -------------------------------------------


def test_d1_default_draw_ends_the_turn() -> None:
    rnd = make([["0-1", "0-2"], ["3-3", "4-4"]])
    rnd.play(DRAW)
    assert rnd.to_move == 1
    assert len(rnd.hands[0]) == 3


def test_d1_continue_variant_draws_again() -> None:
    """D1 variant draw="continue": after a draw the same seat acts again."""
    rnd = make([["0-1", "0-2"], ["3-3", "4-4"]], draw="continue", first=["5-5", "1-6"])
    rnd.play(DRAW)
    assert rnd.to_move == 0
    rnd.play(DRAW)
    assert rnd.to_move == 0
    assert {T("5-5"), T("1-6")} <= set(rnd.hands[0])
    rnd.play(Play(T("1-6"), "left"))
    assert rnd.to_move == 1
    rnd.play(DRAW)
    rnd.play(PASS)
    assert rnd.to_move == 0
    assert [t.seat for t in rnd.history] == [0, 0, 0, 1, 1]


def test_d1_continue_draws_are_still_limited() -> None:
    """D1 with R2.4: the continue variant still never reaches the locked tiles."""
    rnd = Round.new(Rules(players=4, draw="continue"), seed=3, leader=0)
    play(rnd, "draw", "draw")
    assert rnd.to_move == 0
    assert DRAW not in rnd.legal_moves()
    assert rnd.boneyard == rnd.deal.boneyard[-2:]


def test_d2_forced_passing_refuses_pass_while_play_or_draw() -> None:
    """D2 variant passing="forced": pass only when no play and no draw is possible."""
    rnd = make([["3-4", "4-4"], ["4-5", "1-1"]], passing="forced")
    play(rnd, "L3-4")
    assert PASS not in rnd.legal_moves()
    before = state(rnd)
    with pytest.raises(IllegalMove, match="forced passing"):
        rnd.play(PASS)
    assert state(rnd) == before
    # no fitting tile, but a draw is possible: still no pass
    rnd2 = make([["3-4", "4-4"], ["1-2", "1-1"]], passing="forced")
    play(rnd2, "L3-4")
    assert rnd2.legal_moves() == [DRAW]
    with pytest.raises(IllegalMove, match="must draw"):
        rnd2.play(PASS)


def test_d2_forced_passing_allows_pass_when_nothing_else() -> None:
    sixes = ["6-6", "0-6", "1-6", "2-6", "3-6"]
    rest = others([])
    rnd = make(
        [rest[:13], [*sixes, *rest[13:]]],
        last=["4-6", "5-6"],
        leader=1,
        passing="forced",
    )
    play(rnd, "L6-6")
    assert rnd.to_move == 0
    assert rnd.legal_moves() == [PASS]
    rnd.play(PASS)
    assert rnd.to_move == 1


def test_d12_leader_may_draw_or_pass_on_the_empty_train() -> None:
    """D12: all three actions are open to the leader on the empty train."""
    rnd = Round.new(Rules(players=3), seed=8, leader=1)
    legal = rnd.legal_moves()
    assert DRAW in legal and PASS in legal
    assert {m.tile for m in legal if isinstance(m, Play)} == set(rnd.hands[1])
    drew = rnd.copy()
    drew.play(DRAW)
    assert drew.train == () and drew.to_move == 2
    rnd.play(PASS)
    assert rnd.train == () and rnd.to_move == 2


# -- from_deal rejections ------------------------------------------------------------


GOOD_HANDS = [[str(t) for t in TILES[:7]], [str(t) for t in TILES[7:14]]]
GOOD_BONEYARD = [str(t) for t in TILES[14:]]


def test_from_deal_accepts_tiles_and_text() -> None:
    rnd = Round.from_deal(Rules(), GOOD_HANDS, [T(t) for t in GOOD_BONEYARD], 1)
    assert rnd.hands[0] == TILES[:7]
    assert rnd.boneyard == TILES[14:]
    assert rnd.to_move == 1


@pytest.mark.parametrize(
    ("hands", "boneyard", "leader", "message"),
    [
        (GOOD_HANDS[:1], GOOD_BONEYARD, 0, "1 hand, the rules need 2"),
        (
            [GOOD_HANDS[0], GOOD_HANDS[1][:6]],
            [GOOD_HANDS[1][6], *GOOD_BONEYARD],
            0,
            "hand 1 has 6 tiles, the rules deal 7",
        ),
        (
            [GOOD_HANDS[0], [*GOOD_HANDS[1][:6], "0-0"]],
            GOOD_BONEYARD,
            0,
            "0-0 more than once",
        ),
        (GOOD_HANDS, GOOD_BONEYARD[:-1], 0, "missing 6-6"),
        (GOOD_HANDS, [*GOOD_BONEYARD, "3-3"], 0, "3-3 more than once"),
        ([GOOD_HANDS[0], [*GOOD_HANDS[1][:6], "7-7"]], GOOD_BONEYARD, 0, "hand 1"),
        (GOOD_HANDS, [*GOOD_BONEYARD[:-1], "x"], 0, "boneyard"),
        (GOOD_HANDS, GOOD_BONEYARD, 2, "leader must be a seat index from 0 to 1"),
        (GOOD_HANDS, GOOD_BONEYARD, -1, "leader"),
        (GOOD_HANDS, GOOD_BONEYARD, True, "leader"),
        (GOOD_HANDS, GOOD_BONEYARD, "0", "leader"),
        ("0-0 0-1", GOOD_BONEYARD, 0, "hands"),
        (["0-0", GOOD_HANDS[1]], GOOD_BONEYARD, 0, "hand 0"),
        (GOOD_HANDS, " ".join(GOOD_BONEYARD), 0, "boneyard"),
    ],
)
def test_from_deal_rejections(hands: Any, boneyard: Any, leader: Any, message: str) -> None:
    with pytest.raises(ValueError) as info:
        Round.from_deal(Rules(), hands, boneyard, leader)
    assert message in str(info.value)


def test_from_deal_needs_rules() -> None:
    with pytest.raises(ValueError, match="rules"):
        Round.from_deal({"players": 2}, GOOD_HANDS, GOOD_BONEYARD, 0)  # type: ignore[arg-type]


def test_from_deal_checks_hand_size_of_the_rules() -> None:
    with pytest.raises(ValueError, match="the rules deal 6"):
        Round.from_deal(Rules(players=2, hand_size=6), GOOD_HANDS, GOOD_BONEYARD, 0)


# -- IllegalMove leaves the round as it was ------------------------------------------------


def midgame() -> Round:
    rnd = make([["3-4", "4-4", "1-2", "5-5"], ["4-5", "1-1", "0-0", "0-6"]], first=["2-6"])
    play(rnd, "L3-4", "draw", "R4-4", "pass")
    return rnd


@pytest.mark.parametrize(
    ("move", "message"),
    [
        (Play(T("4-5"), "right"), "seat 1 does not hold 4-5"),
        (Play(T("2-6"), "right"), "seat 1 does not hold 2-6"),
        (Play(T("6-6"), "left"), "seat 1 does not hold 6-6"),
        (Play(T("1-2"), "left"), "does not fit the left end"),
        (Play(T("5-5"), "right"), "does not fit the right end"),
        ("L1-2", "not a move"),
        (None, "not a move"),
        (Tile(1, 2), "not a move"),
    ],
)
def test_illegal_move_leaves_round_unchanged(move: Any, message: str) -> None:
    rnd = midgame()
    assert rnd.to_move == 0
    before = state(rnd)
    with pytest.raises(IllegalMove) as info:
        rnd.play(move)
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)
    assert state(rnd) == before
    assert rnd.why_illegal(move) is not None
    assert not rnd.is_legal(move)


def test_illegal_draw_leaves_round_unchanged() -> None:
    rnd = block_round()
    play(rnd, "L6-6")
    before = state(rnd)
    with pytest.raises(IllegalMove, match="boneyard"):
        rnd.play(DRAW)
    assert state(rnd) == before


@pytest.mark.parametrize("move", [PASS, DRAW, Play(T("0-0"), "left"), Play(T("1-1"), "right")])
def test_any_move_after_the_round_is_over_is_refused(move: Any) -> None:
    rnd = make([["3-5", "0-0"], ["1-1", "2-2"]])
    play(rnd, "pass", "pass")
    assert rnd.is_over
    before = state(rnd)
    with pytest.raises(IllegalMove, match="the round is over"):
        rnd.play(move)
    assert state(rnd) == before
    assert rnd.legal_moves() == []


def test_move_after_domino_is_refused() -> None:
    rnd = make([["3-5"], ["1-1"]])
    play(rnd, "L3-5")
    before = state(rnd)
    with pytest.raises(IllegalMove):
        rnd.play(Play(T("1-1"), "left"))
    assert state(rnd) == before


# -- copy() ------------------------------------------------------------------------------


def test_copy_is_independent_both_ways() -> None:
    rnd = midgame()
    before = state(rnd)
    twin = rnd.copy()
    assert state(twin) == before
    twin.play(DRAW)
    twin.play(Play(T("4-5"), "right"))
    assert twin.hands[1] != rnd.hands[1]
    assert state(rnd) == before
    snapshot = state(twin)
    rnd.play(DRAW)
    rnd.play(PASS)
    assert state(twin) == snapshot
    assert state(rnd) != before


def test_copy_of_finished_round() -> None:
    rnd = make([["3-5"], ["1-1"]])
    play(rnd, "L3-5")
    twin = rnd.copy()
    assert state(twin) == state(rnd)
    assert twin.is_over


def test_history_records_every_move() -> None:
    rnd = midgame()
    assert rnd.moves == (Play(T("3-4"), "left"), Draw(), Play(T("4-4"), "right"), Pass())
    assert [t.seat for t in rnd.history] == [0, 1, 0, 1]
    assert rnd.history[1].drawn == T("2-6")
    assert rnd.history[0].drawn is None
    assert isinstance(rnd.moves[1], Draw) and not isinstance(rnd.moves[1], Pass)


# -- `in` on the legal moves is a complete check -----------------------------------


def rule_allows(rnd: Round, move: Move) -> bool:
    """Whether the rules allow ``move`` now, read straight off R4, D1 and D2."""
    if rnd.to_move is None:
        return False
    hand, ends = rnd.hands[rnd.to_move], rnd.ends
    can_draw = len(rnd.boneyard) > 2  # R4.3: never the two locked tiles (R2.4)
    if isinstance(move, Play):  # R4.1, R4.2
        return move.tile in hand and (
            ends is None or move.tile.has(ends[0] if move.end == "left" else ends[1])
        )
    if isinstance(move, Draw):
        return can_draw
    # R4.4 / D2: free passing always, forced passing only with nothing else to do
    can_play = any(rule_allows(rnd, Play(t, end)) for t in hand for end in ("left", "right"))
    return rnd.rules.passing == "free" or not (can_play or can_draw)


EVERY_MOVE = [Play(t, end) for t in TILES for end in ("left", "right")] + [DRAW, PASS]


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(players=4, draw="continue"), Rules(players=3, passing="forced")],
    ids=repr,
)
def test_r4_d1_d2_in_legal_moves_is_a_complete_check(engine: type[Round], rules: Rules) -> None:
    """R4, D1, D2: for each of the 58 moves, ``move in legal_moves()`` exactly when the
    rules allow it and ``play`` takes it, on the round and on the mover's view alike."""
    rng = random.Random(14)
    for seed in range(6):
        rnd = engine.new(rules, seed)
        while True:
            legal = rnd.legal_moves()
            view = rnd.view(rnd.to_move or 0)
            for move in EVERY_MOVE:
                allowed = rule_allows(rnd, move)
                assert (move in legal) == allowed == (move in view.legal_moves()), move
                assert rnd.is_legal(move) == allowed, move
                child = rnd.copy()
                try:
                    child.play(move)
                except IllegalMove:
                    assert not allowed, move
                else:
                    assert allowed, move
            if rnd.is_over:
                break
            rnd.play(rng.choice(legal))


# -- implementations ---------------------------------------------------------------


def test_round_builds_the_selected_implementation(engine: type[Round]) -> None:
    """``Round.new``/``from_deal`` build the selected implementation; both are Rounds."""
    assert type(Round.new(Rules(), 1)) is engine
    assert type(make([["0-0"], ["0-1"]])) is engine
    assert isinstance(Round.new(), Round)


def test_a_bad_deal_is_refused_in_the_players_language() -> None:
    """R2.2: a hand of the wrong size is refused, in Croatian with its plural forms."""
    from passing_game.i18n import using_language
    from passing_game.tiles import TILES

    rules = Rules(players=2)
    tiles = [str(t) for t in TILES]
    for size, word in ((1, "pločicu"), (2, "pločice"), (5, "pločica"), (21, "pločicu")):
        hands = [tiles[:size], tiles[size : size + 7]]
        boneyard = tiles[size + 7 :]
        with using_language("hr"), pytest.raises(ValueError) as refused:
            Round.from_deal(rules, hands, boneyard, leader=0)
        assert str(refused.value) == f"ruka 0 ima {size} {word}, a pravila dijele 7"
    with using_language("gl"), pytest.raises(ValueError, match="no reparto falta"):
        Round.from_deal(rules, [tiles[:7], tiles[7:14]], tiles[14:27], leader=0)
