"""Move-count regression (perft, as chess engines use it): R4, D1, D2, D3.

From a fixed seeded deal, count every line of play to depth 1..5. The counts
were produced by this engine after it replayed the 240 independent vectors
(tests/test_vectors.py); any change to move generation, the draw rule, the
passing rule or the round end changes them.
"""

from __future__ import annotations

import pytest

from passing_game import Round, Rules

#: The rules suites run on both implementations of ``Round``.
pytestmark = pytest.mark.usefixtures("engine")


def perft(rnd: Round, depth: int) -> int:
    if depth == 0 or rnd.is_over:
        return 1
    total = 0
    for move in rnd.legal_moves():
        child = rnd.copy()
        child.play(move)
        total += perft(child, depth - 1)
    return total


CASES = [
    (Rules(), [9, 49, 216, 973, 4084]),
    (Rules(players=3), [9, 49, 278, 1310, 6142]),
    (Rules(players=4), [8, 42, 208, 966, 3971]),
    (Rules(draw="continue"), [9, 50, 225, 1006, 4371]),
    (Rules(players=3, passing="forced"), [8, 32, 150, 542, 1971]),
]


@pytest.mark.parametrize(("rules", "counts"), CASES, ids=lambda c: str(c)[:60])
def test_perft(rules: Rules, counts: list[int]) -> None:
    rnd = Round.new(rules, seed=2026)
    assert [perft(rnd, depth) for depth in range(1, len(counts) + 1)] == counts
    assert not rnd.train, "perft must not change the root position"
