"""Reading and writing puzzle files (JSON lines), and the set shipped with the package.

The shipped file is package data, so an installed package (the web app)
reads it with ``shipped()`` wherever it is installed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from passing_game.puzzles.record import Puzzle, PuzzleError

#: Where the shipped puzzles live inside the package (docs/PUZZLES.md).
SHIPPED = "data/puzzles.jsonl"


def parse_lines(lines: Iterable[str]) -> list[Puzzle]:
    """Puzzles from lines of JSON; a bad line raises ``PuzzleError`` naming its number.

    Blank lines are skipped; two puzzles with one id are refused.
    """
    puzzles: list[Puzzle] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            puzzle = Puzzle.from_json(line)
        except PuzzleError as exc:
            raise PuzzleError(f"line {number}: {exc}") from None
        if puzzle.id in seen:
            raise PuzzleError(f"line {number}: puzzle {puzzle.id} appears twice")
        seen.add(puzzle.id)
        puzzles.append(puzzle)
    return puzzles


def read_puzzles(path: str | os.PathLike[str]) -> list[Puzzle]:
    """Every puzzle of a file (see ``parse_lines``)."""
    with open(path, encoding="utf-8") as f:
        return parse_lines(f)


def shipped_text() -> str:
    """The shipped file's text."""
    return resources.files("passing_game.puzzles").joinpath(SHIPPED).read_text("utf-8")


def shipped() -> list[Puzzle]:
    """The puzzles shipped with the package."""
    return parse_lines(shipped_text().splitlines())


def write_puzzles(path: str | os.PathLike[str], puzzles: Iterable[Puzzle]) -> int:
    """Write one puzzle a line, all or nothing (a temporary file, then a rename)."""
    target = Path(path)
    temporary = target.with_name(target.name + ".part")
    count = 0
    with open(temporary, "w", encoding="utf-8") as f:
        for puzzle in puzzles:
            f.write(puzzle.to_json() + "\n")
            count += 1
    os.replace(temporary, target)
    return count
