"""Puzzle ratings, solvers and first attempts (``web_puzzle_*``): the rows of ``web/puzzles/``.

A solver is a key: ``u:ID`` for an account, ``g:HASH`` for a guest's
browser (the SHA-256 of its ``pg_solver`` cookie). A puzzle has a row once
somebody tried it; before that its rating is the shipped one. A solver's
first attempt at a puzzle is one row (primary key ``(solver, puzzle)``,
written ``ON CONFLICT DO NOTHING``: of two at once, one is first), and the
two ratings it changes are read under their rows' locks, the solver's
first, then the puzzle's, in every transaction (so two never wait for each
other in a circle).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx


@dataclass(frozen=True)
class SolverRow:
    """A solver's rating, counts and streak (``streak_puzzle``: the streak's puzzle now)."""

    solver: str
    rating: float
    deviation: float
    volatility: float
    plays: int = 0
    solved: int = 0
    streak_run: int = 0
    streak_best: int = 0
    streak_puzzle: str | None = None


@dataclass(frozen=True)
class PuzzleRow:
    """A tried puzzle's rating and how often it was tried and solved (first attempts)."""

    puzzle: str
    rating: float
    deviation: float
    volatility: float
    plays: int = 0
    solved: int = 0


@dataclass(frozen=True)
class AttemptRow:
    """A solver's first attempt at a puzzle, with both ratings before and after it."""

    puzzle: str
    move: str
    correct: bool
    at: float
    solver_before: float | None
    solver_after: float | None
    puzzle_before: float | None
    puzzle_after: float | None


_SOLVER = (
    "SELECT solver, rating, deviation, volatility, plays, solved, streak_run, streak_best,"
    " streak_puzzle FROM web_puzzle_solvers WHERE solver = ?"
)


def _solver_row(row: tuple[object, ...]) -> SolverRow:
    return SolverRow(
        str(row[0]),
        float(row[1]),  # type: ignore[arg-type]
        float(row[2]),  # type: ignore[arg-type]
        float(row[3]),  # type: ignore[arg-type]
        int(row[4]),  # type: ignore[call-overload]
        int(row[5]),  # type: ignore[call-overload]
        int(row[6]),  # type: ignore[call-overload]
        int(row[7]),  # type: ignore[call-overload]
        None if row[8] is None else str(row[8]),
    )


def solver(tx: Tx, key: str) -> SolverRow | None:
    """The solver's row, if it has one (read without a lock)."""
    row = tx.one(_SOLVER, (key,))
    return None if row is None else _solver_row(row)


def lock_solver(
    tx: Tx, key: str, user_id: str | None, start: tuple[float, float, float], now: float
) -> SolverRow:
    """The solver's row, made at ``start`` (rating, deviation, volatility) if missing,
    locked until the transaction ends."""
    tx.run(
        "INSERT INTO web_puzzle_solvers (solver, user_id, rating, deviation, volatility,"
        " created, updated) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (solver) DO NOTHING",
        (key, user_id, *start, now, now),
    )
    # A no-op write takes the row's lock (PostgreSQL), as store/ratings.py's lock_row.
    tx.run("UPDATE web_puzzle_solvers SET plays = plays WHERE solver = ?", (key,))
    row = tx.one(_SOLVER, (key,))
    assert row is not None
    return _solver_row(row)


def set_solver(
    tx: Tx, key: str, rating: tuple[float, float, float], solved: bool, now: float
) -> None:
    """The solver's rating after a first attempt (one play more, one solve more if solved)."""
    tx.run(
        "UPDATE web_puzzle_solvers SET rating = ?, deviation = ?, volatility = ?,"
        " plays = plays + 1, solved = solved + ?, updated = ? WHERE solver = ?",
        (*rating, 1 if solved else 0, now, key),
    )


def set_streak(tx: Tx, key: str, run: int, best: int, puzzle: str | None) -> None:
    tx.run(
        "UPDATE web_puzzle_solvers SET streak_run = ?, streak_best = ?, streak_puzzle = ?"
        " WHERE solver = ?",
        (run, best, puzzle, key),
    )


def lock_puzzle(tx: Tx, puzzle: str, start: tuple[float, float, float], now: float) -> PuzzleRow:
    """The puzzle's row, made at ``start`` if missing, locked until the transaction ends."""
    tx.run(
        "INSERT INTO web_puzzle_ratings (puzzle, rating, deviation, volatility, updated)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (puzzle) DO NOTHING",
        (puzzle, *start, now),
    )
    tx.run("UPDATE web_puzzle_ratings SET plays = plays WHERE puzzle = ?", (puzzle,))
    found = puzzle_row(tx, puzzle)
    assert found is not None
    return found


def puzzle_row(tx: Tx, puzzle: str) -> PuzzleRow | None:
    row = tx.one(
        "SELECT puzzle, rating, deviation, volatility, plays, solved FROM web_puzzle_ratings"
        " WHERE puzzle = ?",
        (puzzle,),
    )
    if row is None:
        return None
    return PuzzleRow(
        str(row[0]), float(row[1]), float(row[2]), float(row[3]), int(row[4]), int(row[5])
    )


def set_puzzle(
    tx: Tx, puzzle: str, rating: tuple[float, float, float], solved: bool, now: float
) -> None:
    tx.run(
        "UPDATE web_puzzle_ratings SET rating = ?, deviation = ?, volatility = ?,"
        " plays = plays + 1, solved = solved + ?, updated = ? WHERE puzzle = ?",
        (*rating, 1 if solved else 0, now, puzzle),
    )


def ratings(tx: Tx) -> dict[str, float]:
    """Every tried puzzle's rating, by id (the others have their shipped one)."""
    return {str(r[0]): float(r[1]) for r in tx.all("SELECT puzzle, rating FROM web_puzzle_ratings")}


def add_attempt(tx: Tx, key: str, puzzle: str, move: str, correct: bool, now: float) -> bool:
    """Keep the solver's first attempt at the puzzle; ``False`` if it had one already."""
    return (
        tx.run(
            "INSERT INTO web_puzzle_attempts (solver, puzzle, move, correct, at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (solver, puzzle) DO NOTHING",
            (key, puzzle, move, 1 if correct else 0, now),
        )
        == 1
    )


def set_attempt_ratings(
    tx: Tx,
    key: str,
    puzzle: str,
    solver_change: tuple[float, float],
    puzzle_change: tuple[float, float],
) -> None:
    """The ratings before and after that the first attempt made (solver's, puzzle's)."""
    tx.run(
        "UPDATE web_puzzle_attempts SET solver_before = ?, solver_after = ?,"
        " puzzle_before = ?, puzzle_after = ? WHERE solver = ? AND puzzle = ?",
        (*solver_change, *puzzle_change, key, puzzle),
    )


def attempt(tx: Tx, key: str, puzzle: str) -> AttemptRow | None:
    row = tx.one(
        "SELECT puzzle, move, correct, at, solver_before, solver_after, puzzle_before,"
        " puzzle_after FROM web_puzzle_attempts WHERE solver = ? AND puzzle = ?",
        (key, puzzle),
    )
    if row is None:
        return None
    number = [None if v is None else float(v) for v in row[4:8]]
    return AttemptRow(str(row[0]), str(row[1]), bool(row[2]), float(row[3]), *number)


def attempted(tx: Tx, key: str) -> set[str]:
    """The puzzles the solver tried."""
    return {
        str(r[0]) for r in tx.all("SELECT puzzle FROM web_puzzle_attempts WHERE solver = ?", (key,))
    }


__all__ = [
    "AttemptRow",
    "PuzzleRow",
    "SolverRow",
    "add_attempt",
    "attempt",
    "attempted",
    "lock_puzzle",
    "lock_solver",
    "puzzle_row",
    "ratings",
    "set_attempt_ratings",
    "set_puzzle",
    "set_solver",
    "set_streak",
    "solver",
]
