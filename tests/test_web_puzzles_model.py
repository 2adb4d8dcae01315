"""Glicko-2 against Glickman's worked example, and the puzzles' pure rules (issue 25, item 2):
the next puzzle, the puzzle of the day, the streak, judging a move. No store, no clock."""

from __future__ import annotations

import datetime
import random

import pytest

from passing_game.moves import parse_move
from passing_game.puzzles import shipped
from passing_game.web.puzzles.glicko import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    Glicko,
    expected,
    rate_attempt,
    update,
)
from passing_game.web.puzzles.model import (
    NEAREST,
    STREAK_START,
    Catalog,
    choose_next,
    daily,
    day_of,
    judge,
    rating_of,
    same_move,
    served,
    streak_next,
)

CATALOG = Catalog(tuple(shipped()))


def test_glicko2_matches_the_papers_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 beats 1400/30,
    loses to 1550/100 and to 1700/300 -> 1464.06 / 151.52 / 0.05999 (the paper
    rounds its intermediate steps; unrounded the rating is 1464.05)."""
    after = update(
        Glicko(1500, 200, 0.06),
        [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)],
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_glicko2_basics() -> None:
    assert update(Glicko(1500, 200), []) == Glicko(1500, 200)
    assert expected(Glicko(1700, 50), Glicko(1500, 50)) > 0.5
    solver, puzzle = rate_attempt(Glicko(1500, 350), Glicko(1500, 200), solved=True)
    assert solver.rating > 1500 > puzzle.rating
    assert solver.deviation < 350 and puzzle.deviation < 200
    # Losing to a much weaker puzzle costs more than to a strong one.
    weak, _ = rate_attempt(Glicko(1500, 100), Glicko(1200, 100), solved=False)
    strong, _ = rate_attempt(Glicko(1500, 100), Glicko(1800, 100), solved=False)
    assert 1500 - weak.rating > 1500 - strong.rating > 0
    # The deviation stays in its bounds however many results.
    rating = Glicko()
    for i in range(300):
        rating, _ = rate_attempt(rating, Glicko(1500, 50), solved=i % 2 == 0)
    assert MIN_DEVIATION <= rating.deviation <= MAX_DEVIATION
    assert rating.deviation < 100  # each period adds the volatility back (phi*)


def test_the_next_puzzle_is_new_near_the_rating_and_a_real_question() -> None:
    rng = random.Random(1)
    for target in (1400.0, 1600.0, 1800.0):
        got = choose_next(CATALOG, {}, target, set(), rng)
        assert got is not None and served(got)
        assert len(got.values) >= 3 and len(got.answer) == 1
        nearest = sorted(abs(p.rating - target) for p in CATALOG.first)[NEAREST - 1]
        assert abs(got.rating - target) <= nearest
    # The store's ratings count, not the shipped ones.
    some = {p.id: 3000.0 for p in CATALOG.first[:NEAREST]}
    for _ in range(20):
        moved = choose_next(CATALOG, some, 3000.0, set(), rng)
        assert moved is not None and moved.id in some
    # Never one tried; the others once the good ones are all tried; None at the end.
    tried = {p.id for p in CATALOG.first}
    later = choose_next(CATALOG, {}, 1500, tried, rng)
    assert later is not None and not served(later)
    assert choose_next(CATALOG, {}, 1500, {p.id for p in CATALOG.puzzles}, rng) is None


def test_the_puzzle_of_the_day_is_fixed_by_the_date_and_does_not_repeat() -> None:
    day = datetime.date(2026, 3, 1)
    again = Catalog(tuple(reversed(CATALOG.puzzles)))  # another process, another order read
    assert daily(CATALOG, day) is not None
    assert daily(CATALOG, day).id == daily(again, day).id
    days = [daily(CATALOG, day + datetime.timedelta(days=i)).id for i in range(365)]
    assert len(set(days)) == 365
    assert all(served(CATALOG.by_id[i]) for i in days)
    # The day is the UTC date: 23:59 UTC and 00:01 UTC are two days.
    midnight = datetime.datetime(2026, 3, 2, tzinfo=datetime.UTC).timestamp()
    assert day_of(midnight - 60) == datetime.date(2026, 3, 1)
    assert day_of(midnight + 60) == datetime.date(2026, 3, 2)


def test_a_streak_rises_and_never_serves_a_puzzle_twice() -> None:
    rng = random.Random(7)
    tried: set[str] = set()
    floor = None
    ratings: list[float] = []
    for run in range(12):
        got = streak_next(CATALOG, {}, run, floor, tried, rng)
        assert got is not None and got.id not in tried
        tried.add(got.id)
        floor = rating_of(got, {})
        ratings.append(floor)
    assert ratings == sorted(ratings)
    assert ratings[0] <= STREAK_START + 25 and ratings[-1] > ratings[0]


def test_judging_a_move_gives_every_value_and_its_loss() -> None:
    puzzle = next(p for p in CATALOG.first if p.kind == "open")
    right = judge(puzzle, puzzle.answer[0])
    assert right.correct and right.moves[0].best and right.moves[0].loss == 0
    assert [r.value for r in right.moves] == sorted((v for _m, v in puzzle.values), reverse=True)
    wrong_move = next(m for m, _v in puzzle.values if m not in puzzle.answer)
    wrong = judge(puzzle, wrong_move)
    assert not wrong.correct
    row = next(r for r in wrong.moves if r.move == wrong_move)
    assert row.loss == pytest.approx(wrong.best - puzzle.value_of(wrong_move)) and row.loss >= 3
    illegal = next(
        parse_move(f"L{a}-{b}")
        for a in range(7)
        for b in range(a, 7)
        if parse_move(f"L{a}-{b}") not in dict(puzzle.values)
    )
    with pytest.raises(KeyError):
        judge(puzzle, illegal)


def test_a_play_whose_end_does_not_matter_is_the_listed_one() -> None:
    """Where both ends show one number the engine lists a play once, on the left."""
    for puzzle in CATALOG.puzzles:
        ends = puzzle.position().ends
        listed = [m for m, _v in puzzle.values if str(m).startswith("L")]
        if ends is not None and ends[0] == ends[1] and listed:
            move = listed[0]
            mirrored = parse_move("R" + str(move)[1:])
            assert same_move(puzzle, mirrored) == move
            return
    pytest.skip("no shipped puzzle with equal ends")
