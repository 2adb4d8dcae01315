"""The arena on Ray gives exactly the local run's results for the same seed.

A real local Ray instance is started by the test (``ray.init`` with two
CPUs), the games run as Ray tasks, and every game's outcome is compared with
the same schedule played in this process.
"""

from __future__ import annotations

import pytest

from passing_game import Rules
from passing_game.arena.runner import ArenaConfig, bot_specs, run

#: Slow (make check leaves it out): a Ray cluster of worker processes.
pytestmark = pytest.mark.slow

ray = pytest.importorskip("ray")

from passing_game.arena.ray_backend import run_on_ray  # noqa: E402


def test_ray_backend_matches_local_run() -> None:
    config = ArenaConfig(
        tuple(bot_specs(["greedy", "random", "random"])),
        rules=Rules(players=3),
        games=60,
        seed=11,
    )
    local = run(config, jobs=1)
    remote = run_on_ray(config, jobs=2)
    assert not remote.interrupted and not remote.stopped_early
    assert [o.key() for o in remote.outcomes] == [o.key() for o in local.outcomes]
    assert len(remote.outcomes) == config.total_games
    assert not ray.is_initialized(), "the backend shuts down the Ray instance it started"
