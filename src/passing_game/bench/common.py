"""What every throughput measurement returns, and the clock it uses.

Throughput is timed with ``time.process_time``: the CPU time of the
measuring process only, so other processes loading the machine slow the
figures far less than they would wall-clock time (they still share caches
and memory bandwidth). Each engine runs in its own process, one core.

>>> s = Sample("x", players=2, rounds=10, actions=200, chance_actions=0, seconds=0.5)
>>> s.rounds_per_second, s.actions_per_second
(20.0, 400.0)
>>> Sample.from_json(s.to_json()) == s
True
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

#: The clock every throughput loop uses, and its name in reports.
CLOCK: Callable[[], float] = time.process_time
CLOCK_NAME = "time.process_time"
#: Warm-up before each timed loop, as a share of its budget (at most 0.2 s).
WARMUP_SHARE = 0.1


@dataclass(frozen=True)
class Sample:
    """One timed run of one engine: rounds finished and actions applied.

    ``actions`` counts every action applied to the state, chance actions
    (OpenSpiel's deals) included; ``chance_actions`` is the part of it that
    was chance. ``seconds`` is CPU time (``CLOCK_NAME``).
    """

    engine: str
    players: int
    rounds: int
    actions: int
    chance_actions: int
    seconds: float
    version: str = ""

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else 0.0

    @property
    def chance_per_second(self) -> float:
        return self.chance_actions / self.seconds if self.seconds > 0 else 0.0

    @property
    def actions_per_round(self) -> float:
        return self.actions / self.rounds if self.rounds else 0.0

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Sample:
        data = json.loads(text)
        return cls(
            engine=str(data["engine"]),
            players=int(data["players"]),
            rounds=int(data["rounds"]),
            actions=int(data["actions"]),
            chance_actions=int(data.get("chance_actions", 0)),
            seconds=float(data["seconds"]),
            version=str(data.get("version", "")),
        )


def timed_rounds(
    play_round: Callable[[int], tuple[int, int]], seconds: float, seed: int
) -> tuple[int, int, int, float]:
    """Call ``play_round(seed)`` with seeds ``seed, seed + 1, ...`` until
    ``seconds`` of CPU time have passed, after a short untimed warm-up.

    ``play_round`` returns ``(actions, chance_actions)`` for its round.
    Returns ``(rounds, actions, chance_actions, cpu_seconds)``.
    """
    warm_end = CLOCK() + min(0.2, seconds * WARMUP_SHARE)
    warm_seed = seed + 10_000_000
    while CLOCK() < warm_end:
        play_round(warm_seed)
        warm_seed += 1
    rounds = actions = chance = 0
    clock = CLOCK
    start = clock()
    end = start + seconds
    now = start
    while now < end:
        a, c = play_round(seed + rounds)
        actions += a
        chance += c
        rounds += 1
        now = clock()
    return rounds, actions, chance, now - start


def median(values: Sequence[float]) -> float:
    """The median, or NaN for no values."""
    return statistics.median(values) if values else float("nan")
