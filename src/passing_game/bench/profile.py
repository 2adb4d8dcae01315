"""Where the public API's time goes: the bench's loop, then each of its parts alone.

``python -m passing_game.bench.profile`` prints CPU microseconds per action
(and per round for dealing and scoring) for the default ``Round`` and the
whole loop for the pure-Python ``PyRound``. Parts are timed on small working
sets, best of several runs, so the figures are the calls' own cost rather
than cache misses; they are estimates for docs/PERFORMANCE.md, not a test.

>>> rows = breakdown(scale=0.02)
>>> [name for name, _value, _unit in rows][:2]
['loop, Round', 'random.choice']
"""

from __future__ import annotations

import random
from collections.abc import Callable

from passing_game.bench.common import CLOCK
from passing_game.dealing import deal_digest
from passing_game.moves import Move
from passing_game.round import PyRound, Round, implementation
from passing_game.rules import Rules

Row = tuple[str, float, str]


def _loop(cls: type[Round], rounds: int, rules: Rules) -> tuple[float, int]:
    """The bench's loop (``ours.public_api_round``) inline: CPU seconds and actions."""
    choice = random.Random(0).choice
    actions = 0
    start = CLOCK()
    for seed in range(rounds):
        r = cls.new(rules, seed)
        while not r.is_over:
            r.play(choice(r.legal_moves()))
            actions += 1
        r.result  # noqa: B018  the outcome is part of a round
    return CLOCK() - start, actions


def _best(run: Callable[[], float], times: int) -> float:
    return min(run() for _ in range(times))


def breakdown(scale: float = 1.0) -> list[Row]:
    """``(what, microseconds, per what)`` rows; ``scale`` shrinks the work (tests)."""
    rules = Rules()
    reps = max(1, int(5 * scale))
    rounds = max(10, int(4000 * scale))
    loop_seconds = _best(lambda: _loop(Round, rounds, rules)[0], reps)
    actions = _loop(Round, rounds, rules)[1]
    rows: list[Row] = [("loop, Round", loop_seconds / actions * 1e6, "action")]

    rng = random.Random(0)
    states: list[Round] = []
    lists: list[list[Move]] = []
    for seed in range(max(2, int(40 * scale))):
        r = Round.new(rules, seed)
        while not r.is_over:
            states.append(r.copy())
            moves = r.legal_moves()
            lists.append(moves)
            r.play(rng.choice(moves))
    inner = max(1, int(200 * scale))

    def per_action(body: Callable[[], object]) -> float:
        def run() -> float:
            start = CLOCK()
            for _ in range(inner):
                body()
            return CLOCK() - start

        return _best(run, reps) / (len(states) * inner) * 1e6

    choice = random.Random(1).choice
    base = per_action(lambda: [None for _s in states])
    chosen = [choice(m) for m in lists]
    pairs = list(zip(states, chosen, strict=True))
    copying = per_action(lambda: [s.copy() for s in states]) - base
    rows += [
        ("random.choice", per_action(lambda: [choice(m) for m in lists]) - base, "action"),
        ("legal_moves()", per_action(lambda: [s.legal_moves() for s in states]) - base, "action"),
        ("is_over", per_action(lambda: [s.is_over for s in states]) - base, "action"),
        (
            "play()",
            per_action(lambda: [s.copy().play(m) for s, m in pairs])  # type: ignore[func-returns-value]
            - base
            - copying,
            "action",
        ),
        ("copy()", copying, "state"),
    ]

    count = max(10, int(300 * scale))
    finished = []
    for seed in range(count):
        r = Round.new(rules, seed)
        while not r.is_over:
            r.play(r.legal_moves()[-1])
        finished.append(r)
    digest = deal_digest(5, 1)

    def per_round(body: Callable[[], object]) -> float:
        def run() -> float:
            start = CLOCK()
            for _ in range(inner // 10 + 1):
                body()
            return CLOCK() - start

        return _best(run, reps) / (count * (inner // 10 + 1)) * 1e6

    impl = type(Round.new(rules, 0))
    rows += [
        ("Round.new", per_round(lambda: [Round.new(rules, s) for s in range(count)]), "round"),
        (
            "  its BLAKE2b digest",
            per_round(lambda: [deal_digest(s, 1) for s in range(count)]),
            "round",
        ),
        (
            "  its deal from the digest",
            per_round(lambda: [impl._from_digest(rules, digest, -1) for _ in range(count)]),
            "round",
        ),
        (
            "result (scored on first access)",
            per_round(lambda: [r.copy().result for r in finished])
            - per_round(lambda: [r.copy() for r in finished]),
            "round",
        ),
    ]
    slow_rounds = max(10, int(800 * scale))
    pure_seconds = _best(lambda: _loop(PyRound, slow_rounds, rules)[0], max(1, reps // 2))
    pure_actions = _loop(PyRound, slow_rounds, rules)[1]
    rows.append(("loop, PyRound (pure Python)", pure_seconds / pure_actions * 1e6, "action"))
    return rows


def main() -> None:
    print(f"Round.new builds {implementation()}")
    for name, value, unit in breakdown():
        print(f"{name:34} {value:8.3f} µs per {unit}")


if __name__ == "__main__":
    main()
