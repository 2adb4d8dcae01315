"""The belief bench's report (``passing-game bench --beliefs``): its result as
text, the terminal's tables and the Markdown block in docs/STRENGTH.md.

Apart from the measurement (``beliefs``), so that one holds the models, the
scoring and the run, and this one only reads a ``BeliefsResult``.
"""

from __future__ import annotations

import math
import re
import statistics
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from passing_game.bench.beliefs import PRIOR, BeliefsResult, Estimate, Summary
from passing_game.bench.report import heading, md_table, preamble, replace_block

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path


def nats(value: float, digits: int = 3, sign: bool = False) -> str:
    """A figure in nats, ``n/a`` when missing.

    >>> nats(-1.23456), nats(0.5, sign=True), nats(float("nan"))
    ('-1.235', '+0.500', 'n/a')
    """
    if math.isnan(value):
        return "n/a"
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def interval(e: Estimate, digits: int = 3) -> str:
    """``+0.123 [+0.100, +0.146]``."""
    return (
        f"{nats(e.mean, digits, True)} [{nats(e.low, digits, True)}, {nats(e.high, digits, True)}]"
    )


HEADER = [
    "beliefs",
    "log-lik / position",
    "log-lik / tile",
    "gain / position [95%]",
    "gain / tile [95%]",
    "worse than uniform",
    "mean ESS",
]


def rows(summaries: Sequence[Summary]) -> list[list[str]]:
    return [
        [
            s.label,
            nats(s.per_position),
            nats(s.per_tile),
            interval(s.gain),
            interval(s.gain_per_tile, 4),
            f"{s.worse:.1%}",
            "n/a" if math.isnan(s.ess) else f"{s.ess:,.0f}",
        ]
        for s in summaries
    ]


def evidence_rows(result: BeliefsResult) -> tuple[list[str], list[list[str]]]:
    """The gain per position, split by what the seat had seen: (header, rows)."""
    passed = [p for p in result.positions if p.passed]
    plays = [p for p in result.positions if not p.passed]
    header = [
        "beliefs",
        f"gain / position, after another seat passed or drew ({len(passed):,} positions)",
        f"gain / position, plays only ({len(plays):,} positions)",
    ]
    out = []
    for a, b in zip(result.summaries(passed), result.summaries(plays), strict=True):
        out.append([a.label, interval(a.gain), interval(b.gain)])
    return header, out


def description(result: BeliefsResult) -> str:
    """One paragraph: what was played and measured."""
    tiles = statistics.fmean(p.tiles for p in result.positions) if result.positions else 0.0
    per_position, per_tile = result.uniform()
    return (
        f"{len(result.positions):,} positions from {result.rounds:,} seeded rounds"
        f" (seed {result.seed}), {result.players} players, every seat `{result.opponent}`;"
        f" a position is a decision of a seat that has seen another seat act, scored on its"
        f" {tiles:.1f} unseen tiles on average. Uniform beliefs score"
        f" {nats(per_position)} nats per position, {nats(per_tile)} per tile: the baseline."
        f" Each model weighs a pool of"
        f" {result.pool:,} uniform deals (the same deals for every model); {result.jobs}"
        f" process{'es' if result.jobs > 1 else ''}, {result.seconds:,.0f} s wall time."
    )


def notes(result: BeliefsResult) -> list[str]:
    out = [
        "Score: the log-likelihood, in nats, of the true hidden hands under the beliefs:"
        " for each unseen tile, log P(its true place), a place being another seat's hand or"
        " the boneyard; summed over the position's unseen tiles (per position) or divided by"
        " them (per tile). Higher is better; 0 would be certainty of the truth.",
        f"P comes from the model's weighted pool with add-one smoothing: {PRIOR:g} pseudo-deal"
        " of the pool's mean weight, spread as the uniform beliefs, is added, so a place no"
        " pooled deal used keeps a small chance (`Sampler.marginals`). The baseline is the"
        " exact uniform beliefs (a tile is in a hand of size s with chance s / unseen),"
        " `bots.sampling.uniform_marginals`.",
        "gain: the model's score minus the uniform one, per position (mean) and per tile"
        " (total over total tiles); the 95% intervals treat rounds as the independent units"
        " (cluster-robust standard error over the rounds), since a round's positions share"
        " its deal. A model that reads the others' moves well has a positive gain whose"
        " interval lies above 0.",
        "worse than uniform: the share of positions where the model scores below uniform."
        f" mean ESS: Kish's effective sample size of the model's pool of {result.pool:,},"
        f" averaged over the positions ({result.pool:,} where nothing weighs the deals).",
    ]
    m = result.machine
    load = max(m.load_before[0], m.load_after[0])
    if load > m.cores * 0.5:
        out.append(
            f"The machine was shared (load average {m.load_before[0]:.2f} before,"
            f" {m.load_after[0]:.2f} after, {m.cores} cores): only the wall time is affected."
        )
    return out


def render(result: BeliefsResult, console: Console) -> None:
    """Print the tables to a terminal."""
    console.print(heading("passing-game bench --beliefs", result.machine))
    console.print(description(result).replace("`", ""), highlight=False)
    table = Table(title="Beliefs about the hidden hands (nats; higher is better)")
    for i, name in enumerate(HEADER):
        table.add_column(name, justify="left" if i == 0 else "right")
    for row in rows(result.summaries()):
        table.add_row(*row)
    console.print(table)
    header, split = evidence_rows(result)
    table = Table(title="Gain over uniform by the evidence seen")
    for i, name in enumerate(header):
        table.add_column(name, justify="left" if i == 0 else "right")
    for row in split:
        table.add_row(*row)
    console.print(table)
    for line in notes(result):
        console.print(f"• {line}".replace("`", ""), highlight=False)


def key(opponent: str, players: int) -> str:
    """What tells one run's block from another's in the same file."""
    return f"{opponent} {players}p"


def markers(opponent: str, players: int) -> tuple[str, str, str]:
    """(begin, end, pattern) of the block for ``opponent`` with ``players`` players."""
    k = key(opponent, players)
    begin = (
        f"<!-- bench-beliefs:begin {k} (generated by passing-game bench --beliefs --markdown;"
        " edits inside are lost) -->"
    )
    end = f"<!-- bench-beliefs:end {k} -->"
    pattern = (
        rf"<!-- bench-beliefs:begin {re.escape(k)} [^\n]*-->.*?"
        rf"<!-- bench-beliefs:end {re.escape(k)} -->"
    )
    return begin, end, pattern


def markdown(result: BeliefsResult) -> str:
    """The generated block: command, machine, what was measured, the tables, notes."""
    begin, end, _pattern = markers(result.opponent, result.players)
    header, split = evidence_rows(result)
    lines = [
        begin,
        "",
        *preamble(result.command, result.machine),
        description(result),
        "",
        md_table(HEADER, rows(result.summaries()), "lrrrrrr"),
        "",
        md_table(header, split, "lrr"),
        "",
        *[f"- {line}" for line in notes(result)],
        "",
        end,
    ]
    return "\n".join(lines)


def write_markdown(path: Path, result: BeliefsResult) -> None:
    """Put the block into ``path`` between its own markers (one block per opponent
    and player count), or append it."""
    _begin, _end, pattern = markers(result.opponent, result.players)
    replace_block(path, markdown(result), pattern)
