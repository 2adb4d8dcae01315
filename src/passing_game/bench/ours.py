"""Measurements of this engine: public API, copies, search kernel, bots, memory.

Everything here uses the public API the way a user's script would; the
search-kernel figures use whatever kernel the package provides (see
``kernel_name``). Each function takes a small budget and returns plain
numbers, so the tests can call them with tiny budgets.

>>> s = public_api_rounds(0.02, seed=1)
>>> s.rounds > 0 and s.actions >= s.rounds
True
"""

from __future__ import annotations

import importlib
import random
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from passing_game import Round, Rules, __version__
from passing_game.bench.common import CLOCK, Sample, timed_rounds
from passing_game.bots.policy import playout, policy_move
from passing_game.outcome import GOING
from passing_game.round import PyRound
from passing_game.state import State

#: Engine names for the public-API throughput runs (see ``driver``).
OURS = "passing-game"
OURS_4P = "passing-game 4p"
#: The same loop on the pure-Python ``PyRound`` (the fallback without the C round).
OURS_PURE = "passing-game pure"

#: Modules a compiled search kernel may live in, tried in this order. Such a
#: kernel is measured if it has ``random_rounds(rules, rounds, seed) -> int``:
#: play ``rounds`` rounds, dealt from seeds ``seed, seed + 1, ...``, choosing
#: a uniformly random legal move at every turn, and return the number of
#: actions applied.
COMPILED_KERNELS = ("passing_game.bots.kernel", "passing_game._kernel")
#: The pure-Python kernel the bots search with (its playout: ``bots.policy``).
PYTHON_KERNEL = "passing_game.state"


# -- the public API -------------------------------------------------------------


def public_api_round(rules: Rules, seed: int, rng: random.Random, cls: type[Round] = Round) -> int:
    """Play one round random against random through the public API; its actions."""
    r = cls.new(rules, seed)
    choice = rng.choice
    actions = 0
    while not r.is_over:
        r.play(choice(r.legal_moves()))
        actions += 1
    # the outcome is part of a round: FastRound scores it only when asked
    if r.result is None:
        raise RuntimeError("a finished round without a result")
    return actions


def public_api_rounds(
    seconds: float, seed: int = 0, players: int = 2, *, pure: bool = False
) -> Sample:
    """Random against random through ``Round.new``, ``legal_moves`` and ``play``.

    Default rules (two players) unless ``players`` says otherwise; the deal of
    round ``i`` is ``Round.new(rules, seed + i)``, moves come from a
    ``random.Random(seed)``. ``pure`` plays ``PyRound``, the pure-Python
    fallback, instead of the default implementation.
    """
    rules = Rules() if players == Rules().players else Rules(players=players)
    rng = random.Random(seed)
    cls: type[Round] = PyRound if pure else Round

    def one(deal_seed: int) -> tuple[int, int]:
        return public_api_round(rules, deal_seed, rng, cls), 0

    rounds, actions, chance, cpu = timed_rounds(one, seconds, seed)
    name = OURS_PURE if pure else OURS if players == Rules().players else OURS_4P
    return Sample(name, players, rounds, actions, chance, cpu, __version__)


def mid_round_states(count: int, seed: int = 0, rules: Rules | None = None) -> list[Round]:
    """``count`` rounds each played some random moves in (none of them over)."""
    rules = rules or Rules()
    rng = random.Random(seed)
    out: list[Round] = []
    deal = seed
    while len(out) < count:
        r = Round.new(rules, deal)
        deal += 1
        for _ in range(rng.randrange(4, 14)):
            moves = r.legal_moves()
            r.play(rng.choice(moves))
            if r.is_over:
                break
        if not r.is_over:
            out.append(r)
    return out


def copy_microseconds(seconds: float, seed: int = 0) -> float:
    """CPU microseconds per ``Round.copy()`` of a mid-round state."""
    states = mid_round_states(64, seed)
    copies = 0
    start = CLOCK()
    end = start + seconds
    now = start
    while now < end:
        for r in states:
            r.copy()
        copies += len(states)
        now = CLOCK()
    return (now - start) / copies * 1e6


# -- the search kernel ----------------------------------------------------------


@dataclass(frozen=True)
class KernelRun:
    """One kernel measurement: what was measured, and the sample (or why not)."""

    label: str
    sample: Sample | None
    note: str = ""


def _compiled_kernel() -> tuple[ModuleType | None, str]:
    """The first usable compiled kernel module found, or a note saying why none."""
    for name in COMPILED_KERNELS:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if not callable(getattr(module, "random_rounds", None)):
            return None, f"{name} found, but it has no random_rounds(rules, rounds, seed)"
        if getattr(module, "AVAILABLE", True) is False:
            return None, f"{name} found, but its extension is not built (no C compiler?)"
        return module, ""
    return None, "no compiled kernel (" + ", ".join(COMPILED_KERNELS) + ")"


def kernel_name() -> str:
    """The kernel ``kernel_runs`` measures first, for the report."""
    module, _ = _compiled_kernel()
    return module.__name__ if module is not None else PYTHON_KERNEL


def _batches(call: Callable[[int, int], int], seconds: float) -> tuple[int, int, float]:
    """``call(batch, start)`` (returning actions) in doubling batches for ``seconds``."""
    batch = 16
    rounds = actions = 0
    start = CLOCK()
    now = start
    while now - start < seconds:
        actions += call(batch, rounds)
        rounds += batch
        now = CLOCK()
        batch = min(batch * 2, 1 << 16)
    return rounds, actions, now - start


def compiled_kernel_rounds(seconds: float, seed: int = 0) -> KernelRun:
    """``random_rounds`` of a compiled kernel, in growing batches, if there is one."""
    return compiled_kernel_runs(seconds, seed)[0]


def compiled_kernel_runs(seconds: float, seed: int = 0) -> list[KernelRun]:
    """A compiled kernel's random rounds and, where it has one, its playout.

    ``random_rounds(rules, rounds, seed)`` deals and plays inside the kernel.
    The playout is timed from prepared positions (``position(round)``) through
    the extension's own ``playout`` (the call a search makes), with every
    play random (``eps=1``); its action count is the kernel's own.
    """
    module, note = _compiled_kernel()
    if module is None:
        return [KernelRun("compiled kernel, random moves", None, note)]
    name = module.__name__
    rules = Rules()
    runs: list[KernelRun] = []
    random_rounds: Callable[[Rules, int, int], int] = module.random_rounds
    label = "compiled kernel, random moves"
    try:
        random_rounds(rules, 10, seed + 10_000_000)  # warm-up (and any JIT compile)
        rounds, actions, cpu = _batches(
            lambda n, done: int(random_rounds(rules, n, seed + done)), seconds
        )
        sample = Sample(label, rules.players, rounds, actions, 0, cpu)
        runs.append(KernelRun(label, sample, f"{name}.random_rounds: deals and plays inside"))
    except Exception as exc:
        runs.append(KernelRun(label, None, f"{name}.random_rounds failed: {exc!r}"))
    extension = getattr(module, "_kernel", module)
    raw = getattr(extension, "playout", None)
    to_position = getattr(module, "position", None)
    if callable(raw) and callable(to_position):
        label = "compiled kernel, playout"
        try:
            positions = [tuple(to_position(Round.new(rules, seed + i))) for i in range(256)]
            count = len(positions)

            def batch(n: int, done: int) -> int:
                total = 0
                for i in range(done, done + n):
                    total += raw(*positions[i % count], 1.0, seed + i, None)[2]
                return total

            batch(64, 0)
            rounds, actions, cpu = _batches(batch, seconds)
            sample = Sample(label, rules.players, rounds, actions, 0, cpu)
            runs.append(
                KernelRun(label, sample, f"{extension.__name__}.playout(eps=1), one call per round")
            )
        except Exception as exc:
            runs.append(KernelRun(label, None, f"{extension.__name__}.playout failed: {exc!r}"))
    return runs


def python_kernel_rounds(seconds: float, seed: int = 0) -> list[KernelRun]:
    """The pure-Python kernel: random moves via ``legal``/``apply``, and ``playout``.

    Both start from copies of prepared deals (as a search does) so the cost
    of dealing through ``Round.new`` is left out. ``playout`` is the bots'
    default policy with every play random (``eps=1``); its actions are
    counted on an untimed replay of the same rounds with ``policy_move``.
    """
    going = GOING
    rules = Rules()
    bases = [State.from_round(Round.new(rules, seed + i)) for i in range(256)]
    runs: list[KernelRun] = []

    # Random moves, every action counted.
    rng = random.Random(seed)

    def random_round(i: int) -> tuple[int, int]:
        st = bases[i % len(bases)].copy()
        legal = st.legal
        apply = st.apply
        choice = rng.choice
        n = 0
        while st.reason == going:
            apply(choice(legal()))
            n += 1
        return n, 0

    try:
        rounds, actions, _, cpu = timed_rounds(random_round, seconds, 0)
        runs.append(
            KernelRun(
                "kernel, random moves",
                Sample("kernel random", rules.players, rounds, actions, 0, cpu),
                f"{PYTHON_KERNEL}: State.copy, legal, apply",
            )
        )
    except Exception as exc:
        runs.append(KernelRun("kernel, random moves", None, f"failed: {exc!r}"))

    # The bots' playout, timed; its actions counted on a replay.
    try:
        warm = random.Random(seed + 1)
        for i in range(200):
            playout(bases[i % len(bases)].copy(), warm, 1.0)
        rng = random.Random(seed + 2)
        rounds = 0
        start = CLOCK()
        now = start
        while now - start < seconds:
            playout(bases[rounds % len(bases)].copy(), rng, 1.0)
            rounds += 1
            now = CLOCK()
        cpu = now - start
        replay = random.Random(seed + 2)
        actions = 0
        for i in range(rounds):
            st = bases[i % len(bases)].copy()
            while st.reason == going:
                st.apply(policy_move(st, replay, 1.0))
            actions += len(st.stack)
        runs.append(
            KernelRun(
                "kernel, playout",
                Sample("kernel playout", rules.players, rounds, actions, 0, cpu),
                f"{PYTHON_KERNEL}: State.copy, playout(eps=1)",
            )
        )
    except Exception as exc:
        runs.append(KernelRun("kernel, playout", None, f"failed: {exc!r}"))
    return runs


# -- ismcts ---------------------------------------------------------------------


def ismcts_positions(count: int, seed: int = 0) -> list[Any]:
    """Views of the seat to move with at least two legal moves, default rules."""
    rng = random.Random(seed)
    views: list[Any] = []
    deal = seed
    while len(views) < count:
        r = Round.new(Rules(), deal)
        deal += 1
        for _ in range(rng.randrange(0, 10)):
            r.play(rng.choice(r.legal_moves()))
            if r.is_over:
                break
        if r.is_over or len(r.legal_moves()) < 2:
            continue
        seat = r.to_move
        assert seat is not None
        views.append(r.view(seat))
    return views


def ismcts_iterations_per_second(iterations: int, positions: int, seed: int = 0) -> float | None:
    """Iterations per CPU second of ``make("ismcts", iterations=N)``, or ``None``.

    ``None`` when there is no ``ismcts`` bot. The count is the bot's own
    (``advise(view).samples``) where it reports one, else ``iterations``.
    """
    try:
        from passing_game.bots import make, names
    except ImportError:
        return None
    if "ismcts" not in names():
        return None
    views = ismcts_positions(positions, seed)
    done = 0
    spent = 0.0
    for i, view in enumerate(views):
        bot: Any = make("ismcts", iterations=iterations, seed=seed + i)
        start = CLOCK()
        if hasattr(bot, "advise"):
            advice = bot.advise(view)
            samples = int(getattr(advice, "samples", 0) or iterations)
        else:
            bot.choose(view)
            samples = iterations
        spent += CLOCK() - start
        done += samples
    return done / spent if spent > 0 else None


# -- memory ---------------------------------------------------------------------


def _traced_peak(build: Callable[[], list[Any]]) -> tuple[int, list[Any]]:
    """Peak bytes allocated (tracemalloc) while ``build`` runs, over what was before."""
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        built = build()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        if not was_tracing:
            tracemalloc.stop()
    return peak - before, built


def memory_per_thousand(count: int = 1000, seed: int = 0) -> dict[str, float]:
    """Peak bytes per 1,000 live states, measured with tracemalloc.

    ``fresh Round``: states straight from ``Round.new``; ``mid-round
    Round``: 1,000 copies of mid-round states (history included) kept alive
    together; ``kernel State``: the search kernel's state for the same
    positions, where there is one.
    """
    scale = 1000 / count
    rules = Rules()
    out: dict[str, float] = {}
    peak, kept = _traced_peak(lambda: [Round.new(rules, seed + i) for i in range(count)])
    out["fresh Round"] = peak * scale
    del kept
    sources = mid_round_states(min(count, 200), seed)
    peak, kept = _traced_peak(lambda: [sources[i % len(sources)].copy() for i in range(count)])
    out["mid-round Round"] = peak * scale
    del kept
    states = [State.from_round(r) for r in sources]
    peak, kept = _traced_peak(lambda: [states[i % len(states)].copy() for i in range(count)])
    out["mid-round kernel State"] = peak * scale
    del kept
    return out
