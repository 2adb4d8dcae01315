"""The exact solver of ``passing_game.puzzles``: endings worked out by hand, and agreement.

Each hand-made position names the rules it checks (RULES.md). The tiles on
the train are left implicit: only the open ends matter. A value is the
round's points for the side to move: won, minus the other side's if lost,
0 on a tie (docs/PUZZLES.md).
"""

from __future__ import annotations

import pytest

from passing_game import Round, Rules
from passing_game.bots import make
from passing_game.bots.alphabeta import Searcher
from passing_game.moves import code_to_move
from passing_game.puzzles import SearchLimit, Solver, round_points
from passing_game.state import State
from puzzle_helpers import a_late_round, codes, late_round, named, position

TWO = Rules(players=2)
FOUR = Rules(players=4, partnerships=True)
LOCKED = ["0-0", "1-1"]


def test_domino_scores_the_other_hand_and_a_pass_lets_the_round_end_all_pass() -> None:
    """R6.1, R7.2: laying the last tile scores seat 1's 10 pips; D3: after a pass
    seat 1 can only pass too (no draw, R2.4), and the round scores 10 - 5."""
    state = position(TWO, [["2-3"], ["5-5"]], ["0-1", "4-4"], (6, 2))
    assert named(Solver().values(state)) == {"R2-3": 10, "pass": 5}


def test_a_block_ends_the_round_and_the_lower_count_wins() -> None:
    """R6.2, R7.2: L1-6 leaves ends 1 and 0 that no hand fits: seat 1 has 6 pips
    to seat 0's 8 and wins 2; passing instead ends the round all pass at 15 to 6 (D3)."""
    state = position(TWO, [["1-6", "4-4"], ["3-3"]], ["2-2", "5-5"], (6, 0))
    assert named(Solver().values(state)) == {"L1-6": -2, "pass": -9}


def test_the_pass_that_ends_the_round_and_the_draw_that_blocks_it() -> None:
    """D3: seat 1 has just passed, so seat 0's pass ends the round, 11 pips to 12
    (+1). R4.3, R6.2: drawing takes 4-4, leaves the two locked tiles and no hand
    fitting 0 or 1: blocked at 19 to 12 (-7)."""
    state = position(TWO, [["5-6"], ["6-6"]], ["4-4", "2-2", "3-3"], (0, 1), passes=1)
    assert named(Solver().values(state)) == {"draw": -7, "pass": 1}


def test_partners_count_together() -> None:
    """D6: seat 0 goes out, team 0 holds 10 (its partner's 5-5) to team 1's 12 and
    scores 2; if all four pass (D3) team 0 holds 15 and team 1 scores 3."""
    state = position(FOUR, [["2-3"], ["6-6"], ["5-5"], ["0-0"]], ["1-1", "1-2"], (2, 4))
    assert named(Solver().values(state)) == {"L2-3": 2, "pass": -3}


@pytest.mark.parametrize(("draw", "value"), [("ends-turn", -19), ("continue", 11)])
def test_whether_a_draw_ends_the_turn(draw: str, value: int) -> None:
    """D1: seat 0 draws 1-6. If the draw ends the turn, seat 1 lays 1-3, seat 0
    cannot answer and seat 1 goes out with 3-4, scoring 19. With draw=continue
    seat 0 lays 1-6 at once, seat 1 cannot follow and seat 0 goes out with 6-6 (+11)."""
    rules = Rules(players=2, draw=draw)  # type: ignore[arg-type]
    state = position(rules, [["6-6"], ["3-4", "1-3"]], ["1-6", "0-0", "5-5"], (1, 2))
    assert named(Solver().values(state, codes("draw"))) == {"draw": value}


def test_the_end_a_tile_goes_on_matters() -> None:
    """R4.1, R4.2: 3-5 fits both ends. On the left it leaves 5|5 for seat 0's 5-6
    (out next turn, +4); on the right it leaves 3|3 that nobody fits: blocked (R6.2)
    at 11 to 4 (-7)."""
    state = position(TWO, [["3-5", "5-6"], ["2-2"]], LOCKED, (3, 5))
    assert named(Solver().values(state)) == {"L3-5": 4, "R3-5": -7, "R5-6": 4, "pass": -15}


def test_a_double_keeps_both_ends_alike() -> None:
    """R5.2: after 6-6 alone both ends show 6; 2-6 is one move (listed on the left)."""
    state = position(TWO, [["2-6"], ["0-1"]], ["3-3", "4-4"], (6, 6))
    assert named(Solver().values(state)) == {"L2-6": 1, "pass": -7}


def test_a_tie_for_the_lowest_count_scores_nothing() -> None:
    """R7.3, D11: both hands hold 3 pips when the round ends all pass."""
    state = position(TWO, [["1-2"], ["0-3"]], LOCKED, (4, 5), passes=1)
    assert named(Solver().values(state)) == {"pass": 0}


def test_value_is_the_best_move_and_the_line_plays_it_out() -> None:
    state = position(TWO, [["3-5", "5-6"], ["2-2"]], LOCKED, (3, 5))
    solver = Solver()
    assert solver.value(state) == max(solver.values(state).values()) == 4
    first = codes("R5-6")[0]
    line = solver.line(state, first)
    assert line[0] == first and [str(code_to_move(c)) for c in line] == ["R5-6", "pass", "L3-5"]
    for code in line:
        state.apply(code)
    assert state.is_over and round_points(state, 0) == 4


def test_the_state_is_left_as_it_was() -> None:
    rnd = a_late_round(TWO, seed=3, tiles=6, boneyard=5)
    state = State.from_round(rnd)
    before = repr(state)
    Solver().values(state)
    assert repr(state) == before and state.stack == []


def test_only_two_sided_games_and_rounds_in_progress() -> None:
    three = Round.new(Rules(players=3), seed=1)
    with pytest.raises(ValueError, match="two sides"):
        Solver().values(State.from_round(three))
    state = position(TWO, [["2-3"], ["5-5"]], LOCKED, (6, 2))
    state.apply(codes("R2-3")[0])
    with pytest.raises(ValueError, match="over"):
        Solver().values(state)


def test_the_limit_of_positions_stops_the_search() -> None:
    rnd = a_late_round(TWO, seed=4, tiles=8, boneyard=9)
    with pytest.raises(SearchLimit):
        Solver(max_nodes=50).values(State.from_round(rnd))
    solver = Solver()
    solver.budget(50)
    with pytest.raises(SearchLimit):
        solver.values(State.from_round(rnd))
    solver.budget(None)
    assert solver.values(State.from_round(rnd)) == Solver().values(State.from_round(rnd))


RULES = [
    Rules(players=2),
    Rules(players=2, draw="continue"),
    Rules(players=2, passing="forced"),
    Rules(players=4, partnerships=True),
    Rules(players=4, partnerships=True, draw="continue"),
]


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_agrees_with_the_bots_minimax_at_full_depth(rules: Rules) -> None:
    """``bots.alphabeta.Searcher`` with no depth limit is exact minimax without a
    table: the two must agree on every move of random late positions."""
    tiles, boneyard = (6, 4) if rules.players == 2 else (12, 4)
    compared = 0
    for seed in range(2000):
        rnd = late_round(rules, seed, tiles, boneyard)
        if rnd.is_over:
            continue
        if compared == 20:
            break
        state = State.from_round(rnd)
        side = rules.side_of(rnd.to_move or 0)
        exact = Searcher(side, depth=rules.max_round_moves + 1).root_values(state)
        assert Solver().values(state) == {c: int(v) for c, v in exact.items()}, rnd
        compared += 1
    assert compared == 20


@pytest.mark.parametrize("rules", [RULES[0], RULES[3]], ids=repr)
def test_one_table_for_a_whole_round_and_across_rounds(rules: Rules) -> None:
    """The table kept between calls (the same boneyard, or another one, which
    clears it) changes no value: walking rounds backwards as the generator does."""
    shared = Solver()
    for seed in (5, 6):
        rnd = Round.new(rules, seed=seed)
        bot = make("greedy")
        states = []
        while not rnd.is_over:
            states.append(State.from_round(rnd))
            rnd.play(bot.choose(rnd.view(rnd.to_move or 0)))
        for state in states[::-1][:8]:
            assert shared.values(state) == Solver().values(state)
