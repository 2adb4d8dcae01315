"""View puzzles: every deal of the unseen tiles that the seat's view allows, each solved.

The deals must be exactly those the history allows. With hands of 13 tiles
and two players the boneyard holds only the two locked tiles (R2.3, R2.4),
nothing is ever drawn, and each hidden hand of now fixes the whole deal, so
the engine itself can say which hidden hands agree: the deal they make must
replay the history without the round ending on the way (R6.2). The view
valuation is checked against that, with free and with forced passing (D2).
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from passing_game import Round, Rules
from passing_game.bots import make
from passing_game.errors import IllegalMove
from passing_game.puzzles import Solver, count_deals, view_values
from passing_game.puzzles.deals import deals
from passing_game.state import State
from passing_game.tiles import TILES, mask_of, tiles_of
from puzzle_helpers import late_round

TWO = Rules(players=2)
FOUR = Rules(players=4, partnerships=True)


def replays(rnd: Round, seat: int, hidden: tuple[int, ...]) -> bool:
    """Whether the deal in which the other seat holds ``hidden`` now replays ``rnd``'s history.

    Nothing was drawn (the boneyard is only the locked pair), so each hand at
    the deal is its hand now plus the tiles it laid.
    """
    other = 1 - seat
    laid: list[list[int]] = [[], []]
    for turn in rnd.history:
        if turn.placed is not None:
            laid[turn.seat].append(turn.placed.tile.index)
    hands: list[list[int]] = [[], []]
    hands[seat] = [t.index for t in rnd.hands[seat]] + laid[seat]
    hands[other] = list(hidden) + laid[other]
    rest = [t for t in range(28) if t not in hands[0] and t not in hands[1]]
    deal = Round.from_deal(
        rnd.rules,
        [[TILES[t] for t in hand] for hand in hands],
        [TILES[t] for t in rest],
        rnd.leader,
    )
    try:
        for move in rnd.moves:
            if deal.is_over:
                return False
            deal.play(move)
    except IllegalMove:
        return False
    return not deal.is_over


def mask_of_list(indices: list[int]) -> int:
    return sum(1 << t for t in indices)


def positions(rules: Rules, seed: int) -> list[Round]:
    """Every position of a round the random bot plays out."""
    rnd = Round.new(rules, seed=seed)
    bot = make("random", seed=seed)
    found = []
    while not rnd.is_over:
        found.append(rnd.copy())
        rnd.play(bot.choose(rnd.view(rnd.to_move or 0)))
    return found


@pytest.mark.parametrize("passing", ["free", "forced"])
def test_the_deals_are_exactly_those_the_history_allows(passing: str) -> None:
    """R6.2 (and with forced passing, D2): hidden hands that would have blocked the
    round earlier, or made a pass illegal, are left out, and only those."""
    rules = Rules(players=2, hand_size=13, passing=passing)  # type: ignore[arg-type]
    ruled_out = checked = 0
    for seed in range(40):
        for rnd in positions(rules, seed):
            seat = rnd.to_move or 0
            view = rnd.view(seat)
            unseen = sorted(t.index for t in view.unseen)
            size = view.hand_sizes[1 - seat]
            if count_deals(view) > 120:
                continue
            allowed = {
                tuple(sorted(t.index for t in tiles_of(state.hands[1 - seat])))
                for state in deals(view)
            }
            every = list(combinations(unseen, size))
            for hidden in every:
                assert (hidden in allowed) == replays(rnd, seat, hidden), (seed, hidden)
            ruled_out += len(every) - len(allowed)
            checked += 1
    assert checked > 100 and ruled_out > 0  # the check was put to the test


@pytest.mark.parametrize(("rules", "tiles", "boneyard"), [(TWO, 6, 5), (FOUR, 8, 3)], ids=str)
def test_every_deal_once_with_the_viewers_hand_and_the_truth_among_them(
    rules: Rules, tiles: int, boneyard: int
) -> None:
    """Before any block check (a drawable boneyard, R4.3) every deal agrees: the
    count is unseen! / (2! * each hidden hand's size!), the locked pair unordered."""
    checked = 0
    for seed in range(300):
        rnd = late_round(rules, seed, tiles, boneyard, bot="greedy")
        if rnd.is_over or len(rnd.boneyard) <= 2:
            continue
        seat = rnd.to_move or 0
        view = rnd.view(seat)
        if count_deals(view) > 3000:
            continue
        found = list(deals(view))
        assert len(found) == count_deals(view)
        keys = set()
        for state in found:
            assert state.hands[seat] == mask_of(view.hand)
            assert [h.bit_count() for h in state.hands] == list(view.hand_sizes)
            hidden = [h for s, h in enumerate(state.hands) if s != seat]
            assert sum(hidden) | mask_of_list(state.bone) == mask_of(view.unseen)
            drawable = tuple(state.bone[:-2])
            keys.add((tuple(hidden), drawable, frozenset(state.bone[-2:])))
        assert len(keys) == len(found)
        truth = State.from_round(rnd)
        hidden = tuple(h for s, h in enumerate(truth.hands) if s != seat)
        assert (hidden, tuple(truth.bone[:-2]), frozenset(truth.bone[-2:])) in keys
        checked += 1
        if checked == 5:
            break
    assert checked == 5


def test_the_values_are_the_average_of_the_open_values_over_the_deals() -> None:
    rnd = next(
        r
        for seed in range(200)
        if not (r := late_round(TWO, seed, 7, 4, bot="greedy")).is_over
        and len(r.boneyard) > 2
        and count_deals(r.view(r.to_move or 0)) <= 600
    )
    view = rnd.view(rnd.to_move or 0)
    found = view_values(view)
    assert found is not None
    sums: dict[int, int] = {}
    best_in_all = None
    for state in deals(view):
        values = Solver().values(state)
        best = max(values.values())
        here = {c for c, v in values.items() if v == best}
        best_in_all = here if best_in_all is None else best_in_all & here
        for code, value in values.items():
            sums[code] = sums.get(code, 0) + value
    assert found.totals == sums and found.deals == count_deals(view)
    assert found.best_everywhere == best_in_all
    assert found.mean(next(iter(sums))) == next(iter(sums.values())) / found.deals
    shuffled = view_values(view, Solver(), random.Random(3))
    assert shuffled == found  # the order of the deals changes nothing


def test_giving_up_early() -> None:
    rnd = next(
        r
        for seed in range(200)
        if not (r := late_round(FOUR, seed, 8, 2, bot="greedy")).is_over
        and count_deals(r.view(r.to_move or 0)) > 100
    )
    asked: list[int] = []

    def stop(totals: dict[int, int], count: int) -> bool:
        asked.append(count)
        return False

    assert view_values(rnd.view(rnd.to_move or 0), keep_going=stop) is None
    assert len(asked) == 1


def test_a_view_of_another_seats_turn_is_refused() -> None:
    rnd = Round.new(TWO, seed=2)
    waiting = 1 - (rnd.to_move or 0)
    with pytest.raises(ValueError, match="turn"):
        view_values(rnd.view(waiting))
