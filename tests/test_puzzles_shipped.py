"""The shipped puzzles (``passing_game.puzzles.shipped``): the set the issue asks for, proved.

Every run re-proves a fixed sample of 30, spread over the four kinds (open
and view, two players and four in partnerships); ``-m slow`` re-proves all
of them, in slices so that ``pytest -n`` can share them out. A proof replays
the deal and history, searches again and compares every value, the answer,
the proof kind, the themes and the id, and checks that the greedy bot still
gets it wrong (``puzzles.prove``).
"""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from passing_game.bots import make
from passing_game.puzzles import MARGIN, SHIPPED, THEMES, Puzzle, prove, shipped

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = shipped()
SLICE = 100


def sample(count: int) -> list[Puzzle]:
    """``count`` puzzles, as many of each kind and player count, always the same."""
    groups: dict[tuple[str, int], list[Puzzle]] = {}
    for puzzle in PUZZLES:
        groups.setdefault((puzzle.kind, puzzle.rules.players), []).append(puzzle)
    rng = random.Random(25)
    chosen: list[Puzzle] = []
    for i, key in enumerate(sorted(groups)):
        share = count // len(groups) + (1 if i < count % len(groups) else 0)
        chosen += rng.sample(groups[key], share)
    return chosen


def test_the_file_is_package_data() -> None:
    path = resources.files("passing_game.puzzles").joinpath(SHIPPED)
    assert path.is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert (
        f"puzzles/{Path(SHIPPED).parent}/*.jsonl"
        in (config["tool"]["setuptools"]["package-data"]["passing_game"])
    )


def test_at_least_2000_of_every_kind_and_theme() -> None:
    assert len(PUZZLES) >= 2000
    assert len({p.id for p in PUZZLES}) == len(PUZZLES)
    kinds = Counter((p.kind, p.rules.players) for p in PUZZLES)
    assert set(kinds) == {("open", 2), ("open", 4), ("view", 2), ("view", 4)}
    assert min(kinds.values()) >= 300
    assert Counter(p.proof for p in PUZZLES if p.kind == "view").keys() == {"every-deal", "average"}
    themes = Counter(t for p in PUZZLES for t in p.themes)
    assert set(themes) == set(THEMES) and min(themes.values()) >= 100
    assert all(p.rules.sides == 2 for p in PUZZLES)


def test_what_every_puzzle_claims_on_its_face() -> None:
    for puzzle in PUZZLES:
        values = dict(puzzle.values)
        best = max(values.values())
        assert all(values[m] == best for m in puzzle.answer), puzzle.id
        others = [v for m, v in values.items() if m not in puzzle.answer]
        assert others and best - max(others) >= MARGIN - 1e-6, puzzle.id
        if puzzle.kind == "open":
            assert all(v == int(v) for v in values.values()), puzzle.id
        assert 1000 <= puzzle.rating <= 2000


@pytest.mark.parametrize("puzzle", sample(30), ids=lambda p: p.id)
def test_a_sample_re_proves(puzzle: Puzzle) -> None:
    proof = prove(puzzle, make("greedy").choose)
    assert proof.ok, proof.problems


@pytest.mark.slow
@pytest.mark.parametrize("start", range(0, len(PUZZLES), SLICE))
def test_every_shipped_puzzle_re_proves(start: int) -> None:
    greedy = make("greedy").choose
    failed = {}
    for puzzle in PUZZLES[start : start + SLICE]:
        proof = prove(puzzle, greedy)
        if not proof.ok:
            failed[puzzle.id] = proof.problems
    assert failed == {}
