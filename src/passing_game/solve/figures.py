"""The figures of docs/SOLVED.md for one solved variant, measured in one run.

``measure`` builds the tree, runs CFR+ with exploitability at checkpoints,
solves the game again with a fixed leader (the leader's value), turns each
bot into a policy and measures it against the equilibrium, and reads what
the equilibrium and the bots do where they could play. ``markdown`` writes
it as the document's section; ``passing-game solve`` runs both.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from passing_game.rules import Rules
from passing_game.solve.behaviour import DIFFERENCES, MOMENTS, Share, differences, shares
from passing_game.solve.game import SolvedGame
from passing_game.solve.policies import bot_policy

Say = Callable[[str], None]


@dataclass
class BotFigures:
    """One bot against the equilibrium: its exploitability, its points a round
    against it (the mean of both seats), where it was asked, what it cost."""

    name: str
    exploitability: float
    against_equilibrium: float
    asked: int
    seconds: float
    shares: list[Share] = field(default_factory=list)
    differences: dict[str, float] = field(default_factory=dict)


@dataclass
class Figures:
    """Everything docs/SOLVED.md says of one variant."""

    rules: dict[str, Any]
    stats: dict[str, int]
    build_seconds: float
    peak_bytes: int
    curve: list[tuple[int, float, float]]  # (iterations, exploitability, seconds of CFR+)
    value: float  # seat 0's value of the equilibrium, the leader by chance
    leader_value: float  # the leader's value when seat 0 always leads
    leader_exploitability: float
    equilibrium_shares: list[Share]
    bots: list[BotFigures]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def checkpoints(iterations: int) -> list[int]:
    """1, 2, 5, 10, 20, 50, ... up to ``iterations`` (and it, last)."""
    out, step = [], 1
    while step < iterations:
        for m in (1, 2, 5):
            if m * step < iterations:
                out.append(m * step)
        step *= 10
    return [*out, iterations]


def _peak() -> int:
    """This process's peak resident memory in bytes (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def measure(
    rules: Rules, iterations: int, bots: Sequence[str], say: Say = lambda _: None
) -> Figures:
    """Solve ``rules`` with ``iterations`` of CFR+ and measure ``bots`` against it."""
    game = SolvedGame(rules)
    stats, built = game.stats(), game.build_seconds
    say(
        f"{stats['nodes']:,} nodes, {stats['infosets']:,} information sets, "
        f"built in {game.build_seconds:.1f} s"
    )
    curve = []
    for point in checkpoints(iterations):
        game.run(point - game.stats()["iterations"])
        curve.append((point, game.exploitability(game.average()), game.run_seconds))
        say(f"CFR+ {point}: exploitability {curve[-1][1]:.6f} ({game.run_seconds:.1f} s)")
    eq = game.average()
    value = game.value(eq, eq)
    eq_shares = shares(game, eq)
    measured = []
    for name in bots:
        started = time.perf_counter()
        policy, asked = bot_policy(game, name)
        figures = BotFigures(
            name=name,
            exploitability=game.exploitability(policy),
            against_equilibrium=(game.value(policy, eq) - game.value(eq, policy)) / 2,
            asked=asked,
            seconds=time.perf_counter() - started,
            shares=shares(game, policy),
            differences=differences(game, eq, policy),
        )
        measured.append(figures)
        say(
            f"{name}: exploitability {figures.exploitability:.4f}, "
            f"{figures.against_equilibrium:+.4f} a round against the equilibrium "
            f"({asked:,} sets asked, {figures.seconds:.1f} s)"
        )
    peak = _peak()
    del game, eq
    led = SolvedGame(rules, leader=0)
    led.run(iterations)
    led_eq = led.average()
    leader_value = led.value(led_eq, led_eq)
    leader_exploitability = led.exploitability(led_eq)
    say(f"the leader's value {leader_value:+.6f} (exploitability {leader_exploitability:.2e})")
    return Figures(
        rules=rules.to_dict(),
        stats=stats,
        build_seconds=built,
        peak_bytes=max(peak, _peak()),
        curve=curve,
        value=value,
        leader_value=leader_value,
        leader_exploitability=leader_exploitability,
        equilibrium_shares=eq_shares,
        bots=measured,
    )


def title(rules: Rules) -> str:
    extra = "" if rules.passing == "free" else ", forced passing (D2)"
    tiles = "tile" if rules.hand_size == 1 else "tiles"
    top = ("two", "three", "four", "five", "six")[rules.max_pip - 2]
    return f"Double-{top}, {rules.hand_size} {tiles} a hand{extra}"


def _share_row(label: str, rows: Sequence[Share]) -> str:
    by = {s.moment: s for s in rows}
    cells = []
    for name in ("all", *MOMENTS):
        s = by.get(name)
        cells.append("—" if s is None or s.weight == 0 else f"{s.passes:.0%} / {s.draws:.0%}")
    return f"| {label} | " + " | ".join(cells) + " |"


def markdown(fig: Figures, command: str) -> str:
    """The section of docs/SOLVED.md for one variant."""
    rules = Rules.from_dict(fig.rules)
    s = fig.stats
    lines = [
        f"### {title(rules)}",
        "",
        f"`{command}`",
        "",
        f"- Tree: {s['nodes']:,} nodes ({s['decisions']:,} decisions, "
        f"{s['terminals']:,} ends, {s['chance']:,} draws by chance) over "
        f"{s['deals']:,} deals; {s['infosets']:,} information sets, "
        f"{s['actions']:,} actions.",
        f"- Built in {fig.build_seconds:.1f} s; the solver's arrays "
        f"{s['bytes'] / 2**20:,.0f} MiB, the process's peak {fig.peak_bytes / 2**20:,.0f} MiB.",
        f"- Value for seat 0 with the leader drawn by chance (R3.1): {fig.value:+.6f} "
        f"(0 by symmetry); the leader's value: **{fig.leader_value:+.4f}** points a round "
        f"(its equilibrium exploitable by {fig.leader_exploitability:.1e}).",
        "",
        "| CFR+ iterations | exploitability (points a round) | seconds |",
        "|---:|---:|---:|",
        *(f"| {n:,} | {e:.6f} | {sec:.1f} |" for n, e, sec in fig.curve),
        "",
        "| policy | exploitability | points a round against the equilibrium "
        "| sets asked | seconds |",
        "|---|---:|---:|---:|---:|",
        f"| equilibrium (CFR+, {fig.curve[-1][0]:,} iterations) | {fig.curve[-1][1]:.6f} "
        "| 0 | — | — |",
        *(
            f"| `{b.name}` | {b.exploitability:.4f} | {b.against_equilibrium:+.4f} "
            f"| {b.asked:,} | {b.seconds:.1f} |"
            for b in fig.bots
        ),
        "",
        "With a playable tile, how often each passes / draws instead (in self-play):",
        "",
        "| policy | all | " + " | ".join(MOMENTS) + " |",
        "|---|" + "---:|" * (len(MOMENTS) + 1),
        _share_row("equilibrium", fig.equilibrium_shares),
        *(_share_row(f"`{b.name}`", b.shares) for b in fig.bots),
        "",
        "Where each bot parts from the equilibrium, as a share of its decisions against it:",
        "",
        "| bot | " + " | ".join(DIFFERENCES) + " |",
        "|---|" + "---:|" * len(DIFFERENCES),
        *(
            f"| `{b.name}` | "
            + " | ".join(f"{b.differences.get(d, 0):.1%}" for d in DIFFERENCES)
            + " |"
            for b in fig.bots
            if b.name != "random"
        ),
        "",
    ]
    return "\n".join(lines)
