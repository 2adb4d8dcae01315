"""The puzzles' transactions: a first attempt rated once, under its rows' locks; the streak.

Each function is one transaction of the store (run in its threads,
``AsyncStore.run``). A solve keeps the solver's first attempt at the puzzle
(``store/puzzles.add_attempt``: of two at once, on any processes, one is
first), and only the first changes the ratings: the solver's row is locked,
then the puzzle's, both read, both rated from the values before
(``glicko.rate_attempt``) and written in that same transaction, so two
solvers of one puzzle on two processes never lose each other's update. An
attempt that is not the first is judged all the same and changes nothing.

The streak lives in the solver's row: its run, its best, and the puzzle it
waits on (``streak_puzzle``), so it goes on from any device of an account
or after a reload, and nobody can claim a run the server did not see.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from passing_game.moves import Move
from passing_game.puzzles import Puzzle
from passing_game.web.puzzles.glicko import DEVIATION, RATING, VOLATILITY, Glicko, rate_attempt
from passing_game.web.puzzles.model import (
    Catalog,
    Judged,
    choose_next,
    judge,
    rating_of,
    start_rating,
    streak_next,
)
from passing_game.web.store import Store
from passing_game.web.store import puzzles as rows
from passing_game.web.store.puzzles import AttemptRow, SolverRow

#: A new solver's rating, deviation and volatility.
NEW_SOLVER = (RATING, DEVIATION, VOLATILITY)


@dataclass(frozen=True)
class Solver:
    """Who solves: ``u:ID`` for an account, ``g:HASH`` for a guest's browser."""

    key: str
    user_id: str | None = None


@dataclass(frozen=True)
class Streak:
    """A streak after an answer: its run, its best, whether it ended, its next puzzle."""

    run: int
    best: int
    over: bool
    next: str | None


@dataclass(frozen=True)
class Solved:
    """A judged attempt, and what it changed (``rated``: it was the first)."""

    judged: Judged
    rated: bool
    solver_before: Glicko
    solver_after: Glicko
    puzzle_before: Glicko
    puzzle_after: Glicko
    streak: Streak | None


def _glicko(row: SolverRow | rows.PuzzleRow) -> Glicko:
    return Glicko(row.rating, row.deviation, row.volatility)


def _triple(rating: Glicko) -> tuple[float, float, float]:
    return (rating.rating, rating.deviation, rating.volatility)


def solver_row(store: Store, solver: Solver) -> SolverRow | None:
    with store.transaction() as tx:
        return rows.solver(tx, solver.key)


def solver_rating(row: SolverRow | None) -> Glicko:
    return Glicko(*NEW_SOLVER) if row is None else _glicko(row)


def puzzle_rating(store: Store, puzzle: Puzzle) -> Glicko:
    """A puzzle's rating now: the store's once tried, else its shipped one."""
    with store.transaction() as tx:
        found = rows.puzzle_row(tx, puzzle.id)
    return start_rating(puzzle) if found is None else _glicko(found)


def attempt_of(store: Store, solver: Solver, puzzle: Puzzle) -> AttemptRow | None:
    with store.transaction() as tx:
        return rows.attempt(tx, solver.key, puzzle.id)


def next_puzzle(
    store: Store, catalog: Catalog, solver: Solver, rng: random.Random
) -> tuple[Puzzle | None, SolverRow | None]:
    """A puzzle the solver never tried, near its rating (``None``: none is left)."""
    with store.transaction() as tx:
        tx.snapshot()
        row = rows.solver(tx, solver.key)
        ratings = rows.ratings(tx)
        tried = rows.attempted(tx, solver.key)
    target = solver_rating(row).rating
    return choose_next(catalog, ratings, target, tried, rng), row


def start_streak(
    store: Store, catalog: Catalog, solver: Solver, now: float, rng: random.Random
) -> tuple[Puzzle | None, SolverRow]:
    """A new streak (a run under way is dropped; its best is kept): its first puzzle."""
    with store.transaction() as tx:
        row = rows.lock_solver(tx, solver.key, solver.user_id, NEW_SOLVER, now)
        first = streak_next(catalog, rows.ratings(tx), 0, None, rows.attempted(tx, solver.key), rng)
        best = max(row.streak_best, row.streak_run)
        rows.set_streak(tx, solver.key, 0, best, first.id if first else None)
        found = rows.solver(tx, solver.key)
    assert found is not None
    return first, found


def solve(
    store: Store,
    catalog: Catalog,
    solver: Solver,
    puzzle: Puzzle,
    move: Move,
    now: float,
    rng: random.Random,
    rated: bool = True,
) -> Solved:
    """Judge ``move`` (legal, in the puzzle's form: ``model.same_move``) and, if it is the
    solver's first attempt and ``rated``, rate both; advance or end the streak it
    answers. One transaction."""
    judged = judge(puzzle, move)
    with store.transaction() as tx:
        row = rows.lock_solver(tx, solver.key, solver.user_id, NEW_SOLVER, now)
        solver_before = _glicko(row)
        first = rows.add_attempt(tx, solver.key, puzzle.id, str(move), judged.correct, now)
        if first and rated:
            puzzle_row = rows.lock_puzzle(tx, puzzle.id, _triple(start_rating(puzzle)), now)
            puzzle_before = _glicko(puzzle_row)
            solver_after, puzzle_after = rate_attempt(solver_before, puzzle_before, judged.correct)
            rows.set_solver(tx, solver.key, _triple(solver_after), judged.correct, now)
            rows.set_puzzle(tx, puzzle.id, _triple(puzzle_after), judged.correct, now)
            rows.set_attempt_ratings(
                tx,
                solver.key,
                puzzle.id,
                (solver_before.rating, solver_after.rating),
                (puzzle_before.rating, puzzle_after.rating),
            )
        else:
            found = rows.puzzle_row(tx, puzzle.id)
            puzzle_before = start_rating(puzzle) if found is None else _glicko(found)
            solver_after, puzzle_after = solver_before, puzzle_before
        streak = None
        if row.streak_puzzle == puzzle.id:
            if judged.correct:
                run = row.streak_run + 1
                ratings = rows.ratings(tx)
                tried = rows.attempted(tx, solver.key)
                floor = rating_of(puzzle, {puzzle.id: puzzle_before.rating})
                following = streak_next(catalog, ratings, run, floor, tried, rng)
                best = max(row.streak_best, run)
                nxt = following.id if following else None
                rows.set_streak(tx, solver.key, run, best, nxt)
                streak = Streak(run, best, following is None, nxt)
            else:
                best = max(row.streak_best, row.streak_run)
                rows.set_streak(tx, solver.key, row.streak_run, best, None)
                streak = Streak(row.streak_run, best, True, None)
    return Solved(
        judged,
        bool(first and rated),
        solver_before,
        solver_after,
        puzzle_before,
        puzzle_after,
        streak,
    )


__all__ = [
    "NEW_SOLVER",
    "Solved",
    "Solver",
    "Streak",
    "attempt_of",
    "next_puzzle",
    "puzzle_rating",
    "solve",
    "solver_rating",
    "solver_row",
    "start_streak",
]
