"""The whole bench: engines alternated (ABCABC...), medians, and the extras.

``run_bench`` is what ``passing-game bench`` calls. Throughput runs start
one subprocess per repetition per engine, in turn, so a slow spell of the
machine hits every engine alike; each repetition has a fixed budget of CPU
time and the figures are the medians over repetitions.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from passing_game.bench import ours, processes
from passing_game.bench.common import CLOCK_NAME, Sample
from passing_game.bench.peers import DESCRIPTIONS, PLAYERS, REQUIREMENTS
from passing_game.round import implementation

Log = Callable[[str], None]

#: Labels of the engines in the reports.
LABELS: dict[str, str] = {
    ours.OURS: "passing-game (default rules)",
    ours.OURS_4P: "passing-game (4 players)",
    ours.OURS_PURE: "passing-game, pure-Python fallback (default rules)",
    **DESCRIPTIONS,
}


@dataclass
class EngineResult:
    """An engine's samples over the repetitions (or why it has none)."""

    engine: str
    players: int
    samples: list[Sample] = field(default_factory=list)
    error: str = ""

    @property
    def label(self) -> str:
        return LABELS.get(self.engine, self.engine)

    @property
    def is_peer(self) -> bool:
        return self.engine in REQUIREMENTS

    @property
    def version(self) -> str:
        return self.samples[0].version if self.samples else ""

    def _median(self, values: Sequence[float]) -> float:
        return statistics.median(values) if values else float("nan")

    @property
    def rounds_per_second(self) -> float:
        return self._median([s.rounds_per_second for s in self.samples])

    @property
    def actions_per_second(self) -> float:
        return self._median([s.actions_per_second for s in self.samples])

    @property
    def chance_per_second(self) -> float:
        return self._median([s.chance_per_second for s in self.samples])

    @property
    def player_actions_per_second(self) -> float:
        return self._median(
            [(s.actions - s.chance_actions) / s.seconds for s in self.samples if s.seconds > 0]
        )

    @property
    def actions_per_round(self) -> float:
        rounds = sum(s.rounds for s in self.samples)
        return sum(s.actions for s in self.samples) / rounds if rounds else float("nan")

    @property
    def spread(self) -> tuple[float, float]:
        """Lowest and highest actions/s over the repetitions."""
        rates = [s.actions_per_second for s in self.samples]
        return (min(rates), max(rates)) if rates else (float("nan"), float("nan"))


@dataclass
class KernelResult:
    """Median rounds/s and actions/s of one kernel measurement, or a note why not."""

    label: str
    rounds_per_second: float | None
    actions_per_second: float | None
    note: str = ""


@dataclass
class Machine:
    cores: int
    cpu: str
    python: str
    date: str
    system: str
    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float] = (0.0, 0.0, 0.0)


def with_load_after(before: Machine) -> Machine:
    """``before`` with the load average now as its ``load_after``: a run's machine line."""
    return replace(before, load_after=machine().load_before)


@dataclass
class BenchResult:
    """Everything one bench run measured; ``report`` turns it into tables."""

    command: str
    seconds: float
    repeat: int
    compare: bool
    machine: Machine
    clock: str = CLOCK_NAME
    engines: list[EngineResult] = field(default_factory=list)
    copy_us: float | None = None
    kernels: list[KernelResult] = field(default_factory=list)
    ismcts_per_second: float | None = None
    ismcts_iterations: int = 0
    memory: dict[str, float] = field(default_factory=dict)
    startup_wall: float | None = None
    startup_cpu: float | None = None
    arena: processes.ArenaScaling | None = None
    arena_note: str = ""
    notes: list[str] = field(default_factory=list)
    #: Which Round class the public-API rows measured (``round.implementation``).
    implementation: str = ""

    def engine(self, name: str) -> EngineResult | None:
        for e in self.engines:
            if e.engine == name:
                return e
        return None

    def ratio(self, peer: str, *, ours_engine: str = ours.OURS, player_only: bool = False) -> float:
        """Our actions/s over the peer's (NaN when either is missing)."""
        mine, theirs = self.engine(ours_engine), self.engine(peer)
        if mine is None or theirs is None or not mine.samples or not theirs.samples:
            return float("nan")
        denominator = theirs.player_actions_per_second if player_only else theirs.actions_per_second
        return mine.actions_per_second / denominator if denominator > 0 else float("nan")

    def rounds_ratio(self, peer: str) -> float:
        mine, theirs = self.engine(ours.OURS), self.engine(peer)
        if mine is None or theirs is None or not mine.samples or not theirs.samples:
            return float("nan")
        return mine.rounds_per_second / theirs.rounds_per_second


# -- the machine ----------------------------------------------------------------


def cpu_model() -> str:
    """The CPU model as ``lscpu`` names it (else /proc/cpuinfo, else platform)."""
    try:
        text = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        for line in text.splitlines():
            if line.strip().startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def load() -> tuple[float, float, float]:
    try:
        return os.getloadavg()
    except OSError:
        nan = float("nan")
        return (nan, nan, nan)


def machine() -> Machine:
    return Machine(
        cores=cores(),
        cpu=cpu_model(),
        python=f"{platform.python_implementation()} {platform.python_version()}",
        date=dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        system=f"{platform.system()} {platform.release()} {platform.machine()}",
        load_before=load(),
    )


# -- the run --------------------------------------------------------------------


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run_bench(
    *,
    seconds: float = 2.0,
    repeat: int = 5,
    compare: bool = False,
    venv_path: Path | None = None,
    arena: bool = False,
    arena_rounds: int = 1200,
    ismcts_iterations: int = 300,
    command: str = "passing-game bench",
    log: Log = _stderr,
) -> BenchResult:
    """Measure everything; peers too with ``compare``, arena scaling with ``arena``."""
    result = BenchResult(command, seconds, repeat, compare, machine())
    result.implementation = implementation()
    engines = [ours.OURS, ours.OURS_4P, ours.OURS_PURE]
    python: str | Path = sys.executable
    if compare:
        from passing_game.bench.venv import DEFAULT_PATH, BenchEnvError, BenchVenv

        env = BenchVenv(venv_path or DEFAULT_PATH)
        try:
            python = env.ensure(log)
            engines += list(REQUIREMENTS)
        except BenchEnvError as exc:
            result.notes.append(f"The peers could not be installed: {exc}")
            log(f"The peers could not be installed: {exc}")
            for peer in REQUIREMENTS:
                result.engines.append(EngineResult(peer, PLAYERS[peer], error=str(exc)))
    _throughput(result, engines, python, seconds, repeat, log)
    _extras(result, seconds, repeat, ismcts_iterations, log)
    if arena:
        bots = " vs ".join(processes.ARENA_BOTS)
        log(f"Arena scaling: {bots}, {arena_rounds} rounds, 1 and 2 jobs")
        try:
            result.arena = processes.arena_scaling(arena_rounds, max(1, min(repeat, 3)))
        except (RuntimeError, OSError, ValueError) as exc:
            result.arena_note = f"failed: {exc}"
    result.machine.load_after = load()
    return result


def _throughput(
    result: BenchResult,
    engines: list[str],
    python: str | Path,
    seconds: float,
    repeat: int,
    log: Log,
) -> None:
    from passing_game.bench.venv import BenchEnvError, run_driver

    by_name = {
        name: EngineResult(name, PLAYERS.get(name, 4 if name == ours.OURS_4P else 2))
        for name in engines
    }
    result.engines[:0] = list(by_name.values())  # before any peer that failed to install
    for rep in range(repeat):
        log(f"Repetition {rep + 1} of {repeat}: " + ", ".join(engines))
        for name in engines:
            entry = by_name[name]
            if entry.error:
                continue
            try:
                entry.samples.append(run_driver(python, name, seconds, seed=1000 * rep))
            except BenchEnvError as exc:
                entry.error = str(exc)
                log(str(exc))


def _extras(result: BenchResult, seconds: float, repeat: int, iterations: int, log: Log) -> None:
    log("Round.copy, search kernel, ismcts ...")
    copies: list[float] = []
    kernel_runs: dict[str, list[Sample]] = {}
    kernel_notes: dict[str, str] = {}
    ismcts: list[float] = []
    budget = max(0.05, seconds / 2)
    for rep in range(repeat):
        copies.append(ours.copy_microseconds(budget, seed=rep))
        runs = ours.compiled_kernel_runs(seconds, seed=1000 * rep)
        runs += ours.python_kernel_rounds(seconds, seed=1000 * rep)
        for run in runs:
            kernel_runs.setdefault(run.label, [])
            if run.sample is not None:
                kernel_runs[run.label].append(run.sample)
            kernel_notes[run.label] = run.note
        rate = ours.ismcts_iterations_per_second(iterations, positions=4, seed=rep)
        if rate is not None:
            ismcts.append(rate)
    result.copy_us = statistics.median(copies)
    for label, samples in kernel_runs.items():
        if samples:
            result.kernels.append(
                KernelResult(
                    label,
                    statistics.median(s.rounds_per_second for s in samples),
                    statistics.median(s.actions_per_second for s in samples),
                    kernel_notes[label],
                )
            )
        else:
            result.kernels.append(KernelResult(label, None, None, kernel_notes[label]))
    result.ismcts_per_second = statistics.median(ismcts) if ismcts else None
    result.ismcts_iterations = iterations
    log("Memory per 1,000 states, start-up time ...")
    result.memory = ours.memory_per_thousand()
    result.startup_wall, result.startup_cpu = processes.startup_seconds(max(5, repeat))
