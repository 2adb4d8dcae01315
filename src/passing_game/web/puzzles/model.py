"""Which puzzle a solver gets, the puzzle of the day, the streak, and judging a move: pure.

No store, no clock, no global random source: the callers hand in the
ratings as the store holds them, the time and a ``random.Random``, so the
tests drive every rule with values of their own (``tests/test_web_puzzles_model.py``).

**Which puzzles are served.** A puzzle with two legal moves (most often
draw or pass) is a coin toss for someone who guesses, and its rating would
learn more from luck than from skill; one whose answer lists several moves
is a weaker question. So the solver's next puzzle, the puzzle of the day and
the streak take puzzles with at least ``MIN_MOVES`` legal moves and a single
best move first (1,261 of the 2,000 shipped), the others only when those
run out. Any puzzle can still be opened by its id.

**The next puzzle** is one the solver has never tried, among the
``NEAREST`` whose ratings are nearest the solver's, chosen at random (so two
solvers of one rating, or one solver coming back, do not all get the same one).

**The puzzle of the day** is the same for everyone and on every process: the
day's number (days since 2025-01-01, UTC) indexes a fixed shuffle of the
served puzzles, so no puzzle comes back before every other one has been the
puzzle of a day.

**The streak** serves puzzles of rising rating, from ``STREAK_START`` up by
``STREAK_STEP`` a puzzle and never below the puzzle before; one wrong
answer ends it; the best run is kept.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from passing_game.moves import Move, Play
from passing_game.puzzles import Puzzle
from passing_game.web.puzzles.glicko import Glicko

#: The fewest legal moves of a puzzle served unasked (see the module's notes).
MIN_MOVES = 3
#: How many of the nearest-rated puzzles the next one is chosen from.
NEAREST = 12
#: A puzzle's deviation before anyone tried it: its shipped rating is a first
#: guess from the position (docs/PUZZLES.md), surer than nothing, less than a result.
PUZZLE_DEVIATION = 200.0
#: The streak's first target rating and its rise per puzzle solved.
STREAK_START, STREAK_STEP = 1400.0, 25.0
#: A rating whose deviation is above this is shown as still settling (lichess's 110).
SETTLED_DEVIATION = 110.0
#: Day 0 of the puzzle of the day.
EPOCH = datetime.date(2025, 1, 1)
#: What the fixed shuffle of the puzzles of the day is seeded with.
DAILY_SEED = "passing-game puzzle of the day"
#: A value this close to the best is as good as the best (the file's values are exact to 1e-6).
TIE = 1e-6


def served(puzzle: Puzzle) -> bool:
    """Whether a puzzle is served unasked first (see the module's notes)."""
    return len(puzzle.values) >= MIN_MOVES and len(puzzle.answer) == 1


def start_rating(puzzle: Puzzle) -> Glicko:
    """A puzzle's rating before its first attempt: its shipped rating."""
    return Glicko(float(puzzle.rating), PUZZLE_DEVIATION)


def settling(rating: Glicko) -> bool:
    return rating.deviation > SETTLED_DEVIATION


@dataclass(frozen=True)
class Catalog:
    """The puzzles a site serves, by id, and the order of the puzzles of the day."""

    puzzles: tuple[Puzzle, ...]

    @cached_property
    def by_id(self) -> dict[str, Puzzle]:
        return {p.id: p for p in self.puzzles}

    @cached_property
    def first(self) -> tuple[Puzzle, ...]:
        """The puzzles served first, by id."""
        return tuple(sorted((p for p in self.puzzles if served(p)), key=lambda p: p.id))

    @cached_property
    def rest(self) -> tuple[Puzzle, ...]:
        return tuple(sorted((p for p in self.puzzles if not served(p)), key=lambda p: p.id))

    @cached_property
    def daily_order(self) -> tuple[Puzzle, ...]:
        order = list(self.first or self.rest)
        random.Random(DAILY_SEED).shuffle(order)
        return tuple(order)


def rating_of(puzzle: Puzzle, ratings: Mapping[str, float]) -> float:
    """A puzzle's rating now: the store's once tried, else its shipped one."""
    return ratings.get(puzzle.id, float(puzzle.rating))


def _nearest(
    puzzles: Sequence[Puzzle], ratings: Mapping[str, float], target: float, rng: random.Random
) -> Puzzle | None:
    if not puzzles:
        return None
    ranked = sorted(puzzles, key=lambda p: (abs(rating_of(p, ratings) - target), p.id))
    return rng.choice(ranked[:NEAREST])


def choose_next(
    catalog: Catalog,
    ratings: Mapping[str, float],
    target: float,
    attempted: Collection[str],
    rng: random.Random,
) -> Puzzle | None:
    """A puzzle the solver never tried, near ``target`` (its rating); ``None`` when none is left."""
    for group in (catalog.first, catalog.rest):
        fresh = [p for p in group if p.id not in attempted]
        found = _nearest(fresh, ratings, target, rng)
        if found is not None:
            return found
    return None


def day_of(now: float) -> datetime.date:
    """The UTC date of the epoch seconds ``now``."""
    return datetime.datetime.fromtimestamp(now, datetime.UTC).date()


def daily(catalog: Catalog, day: datetime.date) -> Puzzle:
    """The puzzle of ``day``: the same for everyone, on every process."""
    order = catalog.daily_order
    return order[(day - EPOCH).days % len(order)]


def streak_target(run: int) -> float:
    """The rating the streak's puzzle after ``run`` solved ones is chosen near."""
    return STREAK_START + STREAK_STEP * run


def streak_next(
    catalog: Catalog,
    ratings: Mapping[str, float],
    run: int,
    floor: float | None,
    attempted: Collection[str],
    rng: random.Random,
) -> Puzzle | None:
    """The streak's next puzzle: never tried, rated at least ``floor`` (the last
    one's), near ``streak_target(run)``; ``None`` when none is left."""
    target = max(streak_target(run), floor if floor is not None else 0.0)
    for group in (catalog.first, catalog.rest):
        fresh = [
            p
            for p in group
            if p.id not in attempted and (floor is None or rating_of(p, ratings) >= floor)
        ]
        if fresh:
            ranked = sorted(fresh, key=lambda p: (abs(rating_of(p, ratings) - target), p.id))
            # Fewer to choose from than the next puzzle has: the rise must show.
            return rng.choice(ranked[: max(1, NEAREST // 4)])
    return None


# -- judging a move -------------------------------------------------------------------


@dataclass(frozen=True)
class MoveValue:
    """One legal move's value for the side to move, and how far it is from the best."""

    move: Move
    value: float
    loss: float
    best: bool


@dataclass(frozen=True)
class Judged:
    """A move judged: right when it is one of the answer's; every move's value."""

    move: Move
    correct: bool
    best: float
    moves: tuple[MoveValue, ...]


def same_move(puzzle: Puzzle, move: Move) -> Move:
    """``move`` as the puzzle lists it: a play whose end does not matter is on the left
    (where both ends show one number, or on the empty train, the engine lists it once)."""
    if isinstance(move, Play) and move not in dict(puzzle.values):
        other = Play(move.tile, "left" if move.end == "right" else "right")
        if other in dict(puzzle.values):
            ends = puzzle.position().ends
            if ends is None or ends[0] == ends[1]:
                return other
    return move


def legal(puzzle: Puzzle, move: Move) -> bool:
    return move in dict(puzzle.values)


def judge(puzzle: Puzzle, move: Move) -> Judged:
    """Whether ``move`` (a legal move, as ``same_move`` gives it) is right, and every
    move's value, best first (the engine's order among equals)."""
    values = dict(puzzle.values)
    if move not in values:
        raise KeyError(str(move))
    best = max(values[m] for m in puzzle.answer)
    order = {m: i for i, (m, _v) in enumerate(puzzle.values)}
    rows = [
        MoveValue(m, v, max(0.0, best - v), m in puzzle.answer or best - v <= TIE)
        for m, v in puzzle.values
    ]
    rows.sort(key=lambda r: (-r.value, order[r.move]))
    return Judged(move, move in puzzle.answer, best, tuple(rows))


__all__ = [
    "MIN_MOVES",
    "NEAREST",
    "PUZZLE_DEVIATION",
    "SETTLED_DEVIATION",
    "STREAK_START",
    "STREAK_STEP",
    "Catalog",
    "Judged",
    "MoveValue",
    "choose_next",
    "daily",
    "day_of",
    "judge",
    "legal",
    "rating_of",
    "same_move",
    "served",
    "settling",
    "start_rating",
    "streak_next",
    "streak_target",
]
