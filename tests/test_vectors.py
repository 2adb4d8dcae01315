"""Replay the 240 rounds of the independent model step by step (R1-R9, D1-D12).

The vectors come from ``shared/vectors/rounds.jsonl`` (copied into
``tests/data`` so a fresh clone has them). Each step is checked before its
move: seat to move, open ends, hand sizes, boneyard size and the legal moves.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from passing_game import Round, Rules, parse_move

#: The rules suites run on both implementations of ``Round``.
pytestmark = pytest.mark.usefixtures("engine")

DATA = Path(__file__).parent / "data" / "vectors.jsonl"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "vectors" / "rounds.jsonl"
VECTORS = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


def test_copy_matches_shared_vectors() -> None:
    """The copy in tests/data is the shared file, when the shared file is beside the repo."""
    if not SHARED.exists():
        pytest.skip("shared/ is not beside this checkout")
    assert DATA.read_text() == SHARED.read_text()


def test_vector_coverage() -> None:
    reasons = {v["result"]["reason"] for v in VECTORS}
    assert len(VECTORS) == 240
    assert reasons == {"domino", "block", "all-pass"}


def _legal_texts(rnd: Round) -> set[str]:
    return {str(m) for m in rnd.legal_moves()}


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vector_round(vector: dict[str, Any]) -> None:
    rules = Rules(**vector["rules"])
    deal = vector["deal"]
    rnd = Round.from_deal(rules, deal["hands"], deal["boneyard"], deal["leader"])
    for number, step in enumerate(vector["steps"], start=1):
        where = f"step {number}"
        assert not rnd.is_over, where
        assert rnd.to_move == step["to_move"], where
        assert rnd.ends == (None if step["ends"] is None else tuple(step["ends"])), where
        assert [len(h) for h in rnd.hands] == step["hand_sizes"], where
        assert len(rnd.boneyard) == step["boneyard_size"], where
        assert _legal_texts(rnd) == set(step["legal"]), where
        # the seat's own view computes the same legal moves (R9)
        assert {str(m) for m in rnd.view(rnd.to_move).legal_moves()} == set(step["legal"])
        rnd.play(parse_move(step["move"]))
    result = rnd.result
    expected = vector["result"]
    assert result is not None
    assert result.reason == expected["reason"]
    assert list(result.pips) == expected["pips"]
    assert result.winner == expected["winner"]
    assert result.points == expected["points"]
    assert rnd.ends == (None if expected["ends"] is None else tuple(expected["ends"]))
