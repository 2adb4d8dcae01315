"""Golden playthroughs (as OpenSpiel keeps them): whole seeded matches, stored as records.

Each golden file is the record of a match between the ``greedy`` and
``random`` bots from a fixed seed. Replaying the seed must give the same
record byte for byte, and loading the stored file must reproduce its scores
(R8, D9). Regenerate after an intended change with
``PASSING_GAME_UPDATE_GOLDENS=1 pytest tests/test_golden.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from passing_game import Match, Rules, dump_record, load_record
from passing_game.bots import make

#: The rules suites run on both implementations of ``Round``.
pytestmark = pytest.mark.usefixtures("engine")

GOLDEN = Path(__file__).parent / "data" / "golden"

CASES = {
    "two-players": (Rules(), ["greedy", "random"]),
    "three-players-pairwise": (
        Rules(players=3, scoring="pairwise"),
        ["random", "greedy", "random"],
    ),
    "partnerships-rotate": (
        Rules(players=4, partnerships=True, leader="rotate"),
        ["greedy", "random", "greedy", "random"],
    ),
    "forced-continue-winner": (
        Rules(players=4, passing="forced", draw="continue", leader="winner", target=40),
        ["greedy", "greedy", "random", "random"],
    ),
}


def play_match(rules: Rules, bot_names: list[str], seed: int) -> Match:
    match = Match(rules, seed=seed)
    bots = [make(name, seed=seat) for seat, name in enumerate(bot_names)]
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        match.play(bots[seat].choose(match.view(seat)))
    return match


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    rules, bot_names = CASES[name]
    text = dump_record(play_match(rules, bot_names, seed=20261130), names=bot_names) + "\n"
    path = GOLDEN / f"{name}.json"
    if os.environ.get("PASSING_GAME_UPDATE_GOLDENS"):
        path.write_text(text)
    stored = path.read_text()
    assert text == stored
    loaded = load_record(stored)
    assert loaded.is_over
    assert loaded.scores[loaded.winner or 0] >= rules.target
