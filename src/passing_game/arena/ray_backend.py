"""Running the arena's games on a Ray cluster (``--backend ray``).

Ray is an existing distributed engine: the arena hands it batches of
``GameSpec`` and collects ``GameOutcome``; since every game is fixed in
advance by the arena's seed and its place in the schedule, a Ray run gives
exactly the outcomes of a local run with the same seed. Needs the extra
``passing-game[ray]``.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from typing import Any

from passing_game.arena.runner import (
    ArenaConfig,
    ArenaError,
    GameOutcome,
    GameSpec,
    OnGame,
    RunResult,
    game_specs,
    play_game,
)

#: Games per Ray task: large enough that scheduling costs little.
BATCH = 64


def _play_batch(config: ArenaConfig, specs: list[GameSpec]) -> list[GameOutcome]:
    return [play_game(config, spec) for spec in specs]


def run_on_ray(
    config: ArenaConfig,
    *,
    address: str | None = None,
    jobs: int | None = None,
    on_game: OnGame | None = None,
) -> RunResult:
    """Play the schedule as Ray tasks; ``address`` joins a running cluster.

    Without ``address`` a local Ray instance is started (with ``jobs`` CPUs
    when given). Ctrl-C keeps the games already collected, as a local run does.
    """
    try:
        import ray
    except ImportError:
        raise ArenaError("the Ray backend needs Ray: pip install 'passing-game[ray]'") from None
    started = time.perf_counter()
    result = RunResult([])
    init: dict[str, Any] = {"ignore_reinit_error": True, "include_dashboard": False}
    if address:
        init["address"] = address
    elif jobs:
        init["num_cpus"] = jobs
    owns = not ray.is_initialized()
    try:
        ray.init(**init)
    except Exception as exc:  # Ray raises several kinds for a bad address
        raise ArenaError(f"could not start or join Ray ({address or 'local'}): {exc}") from None
    remote = ray.remote(_play_batch)
    config_ref = ray.put(config)
    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
    window = max(2, int(cpus) * 2)
    specs: Iterator[GameSpec] = game_specs(config)
    pending: list[Any] = []
    try:
        exhausted = False
        while True:
            while not exhausted and len(pending) < window:
                batch = list(itertools.islice(specs, BATCH))
                if batch:
                    pending.append(remote.remote(config_ref, batch))
                else:
                    exhausted = True
            if not pending:
                break
            ready, pending = ray.wait(pending, num_returns=1)
            stop = False
            for outcome in ray.get(ready[0]):
                result.outcomes.append(outcome)
                if on_game is not None and on_game(outcome):
                    stop = True
            if stop:
                result.stopped_early = True
                break
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if owns:
            ray.shutdown()
    result.outcomes.sort(key=lambda o: o.index)
    result.seconds = time.perf_counter() - started
    return result
