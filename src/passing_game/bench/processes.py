"""Measurements that start processes: the command's start-up, the arena over jobs.

Each runs ``passing-game`` as a user would, in a subprocess, so these are
the slow ones of the bench (``bench.suite`` calls them once a run).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# -- the command line -----------------------------------------------------------


def command_prefix() -> list[str]:
    """How to run ``passing-game``: the script beside this interpreter, else ``-m``."""
    script = Path(sys.executable).with_name("passing-game")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    found = shutil.which("passing-game")
    if found:
        return [found]
    return [sys.executable, "-m", "passing_game"]


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def startup_seconds(runs: int = 7) -> tuple[float, float]:
    """Median wall and CPU seconds of ``passing-game --help`` in a subprocess.

    One untimed run first, so compiling ``.pyc`` files is not counted.
    """
    command = [*command_prefix(), "--help"]
    subprocess.run(command, check=True, capture_output=True)
    walls: list[float] = []
    cpus: list[float] = []
    for _ in range(max(1, runs)):
        cpu0 = _child_cpu()
        t0 = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        walls.append(time.perf_counter() - t0)
        cpus.append(_child_cpu() - cpu0)
    return statistics.median(walls), statistics.median(cpus)


@dataclass(frozen=True)
class ArenaScaling:
    """Rounds per second of one arena setup with 1 job and with 2 jobs."""

    bots: tuple[str, ...]
    rounds: int
    one_job: float
    two_jobs: float
    note: str = ""
    #: What two processes of plain Python arithmetic gain over one on this
    #: machine, measured beside the arena (``parallel_ceiling``); None if not run.
    ceiling: float | None = None

    @property
    def ratio(self) -> float:
        return self.two_jobs / self.one_job if self.one_job > 0 else float("nan")


#: The arena setup timed for scaling: enough thinking per move that the
#: games, not the process pool, take the time.
ARENA_BOTS = ("pimc:worlds=6", "heuristic")


def _arena_rate(bots: tuple[str, ...], rounds: int, jobs: int, seed: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "arena.json"
        command = [
            *command_prefix(),
            "arena",
            *bots,
            "--rounds",
            str(rounds),
            "--jobs",
            str(jobs),
            "--seed",
            str(seed),
            "--no-progress",
            "-o",
            str(out),
        ]
        t0 = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if done.returncode != 0:
            raise RuntimeError(
                f"arena exited {done.returncode}: {(done.stderr or done.stdout).strip()[-300:]}"
            )
        data = json.loads(out.read_text())
        seconds = float(data.get("seconds") or wall)
        games = int(data.get("games_finished") or rounds)
    return games / seconds


#: A CPU-bound loop with no I/O and no shared state: the best case for two processes.
_SPIN = "x = 0\nfor i in range(%d):\n    x += i * i"


def _spin_wall(processes: int, loops: int) -> float:
    """Wall seconds for ``processes`` copies of the spin loop started together."""
    command = [sys.executable, "-c", _SPIN % loops]
    t0 = time.perf_counter()
    running = [subprocess.Popen(command) for _ in range(processes)]
    for process in running:
        process.wait()
    return time.perf_counter() - t0


def parallel_ceiling(loops: int = 20_000_000, repeat: int = 3) -> float:
    """How much faster two processes finish two units of work than one process one.

    Virtual machines often give two busy vCPUs less than twice one: this is
    the most any parallel program can gain here, so the arena's ratio is read
    against it. Median over ``repeat`` alternated runs.
    """
    ratios = []
    for _ in range(max(1, repeat)):
        one = _spin_wall(1, loops)
        two = _spin_wall(2, loops)
        ratios.append(2 * one / two if two > 0 else float("nan"))
    return statistics.median(ratios)


def arena_scaling(
    rounds: int = 600, repeat: int = 2, bots: tuple[str, ...] = ARENA_BOTS, seed: int = 0
) -> ArenaScaling:
    """Median rounds/s of ``passing-game arena --jobs 1`` and ``--jobs 2``, alternated.

    Wall time (the arena's own ``seconds``, which leaves out start-up): a run
    on two processes is only faster in wall time.
    """
    ones: list[float] = []
    twos: list[float] = []
    for rep in range(max(1, repeat)):
        ones.append(_arena_rate(bots, rounds, 1, seed + rep))
        twos.append(_arena_rate(bots, rounds, 2, seed + rep))
    return ArenaScaling(
        bots,
        rounds,
        statistics.median(ones),
        statistics.median(twos),
        ceiling=parallel_ceiling(repeat=max(3, repeat)),
    )
