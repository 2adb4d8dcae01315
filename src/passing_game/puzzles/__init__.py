"""Puzzles with proven answers (issue 25): the solver, the two kinds, the file.

Standard library and the core package only, so the web app and the command
line can both build on it. ``solver`` is the exact search of a round with
every tile known; ``deals`` values a seat's moves over every deal its view
allows; ``record`` is a puzzle and its line of JSON; ``build`` derives a
puzzle from a position; ``proof`` re-derives one and compares; ``files``
reads and writes puzzle files and holds the shipped set. The format and
how the values are defined: docs/PUZZLES.md.
"""

from __future__ import annotations

from passing_game.puzzles.build import MARGIN, Derived, derive, make_puzzle, qualifies
from passing_game.puzzles.deals import ViewValues, count_deals, view_values
from passing_game.puzzles.files import SHIPPED, parse_lines, read_puzzles, shipped, write_puzzles
from passing_game.puzzles.proof import Proof, prove
from passing_game.puzzles.record import THEMES, Puzzle, PuzzleError
from passing_game.puzzles.solver import SearchLimit, Solver, round_points

__all__ = [
    "MARGIN",
    "SHIPPED",
    "THEMES",
    "Derived",
    "Proof",
    "Puzzle",
    "PuzzleError",
    "SearchLimit",
    "Solver",
    "ViewValues",
    "count_deals",
    "derive",
    "make_puzzle",
    "parse_lines",
    "prove",
    "qualifies",
    "read_puzzles",
    "round_points",
    "shipped",
    "view_values",
    "write_puzzles",
]
