"""The ladder's report for people: the agents against the field, the pairwise matrix.

Written with the arena report's number formats (``report._ci``,
``report._signed``) and its fault lines, so the two read alike.
"""

from __future__ import annotations

import math

from rich.console import Console
from rich.table import Table
from rich.text import Text

from passing_game.arena.ladder import Ladder, PairResult, Results
from passing_game.arena.report import DASH, _ci, _num, _plus, _signed, fault_lines
from passing_game.arena.stats import Interval

#: How the report names each kind of agent (``agents.KINDS``).
KIND_WORDS = {"level": "level", "bot": "bot", "frozen": "frozen expert", "outside": "program"}


def headline(ladder: Ladder, results: Results, jobs: int | None = None) -> str:
    config = ladder.config
    rules = config.rules
    table = f"{rules.players} players" + (" in partnerships" if rules.partnerships else "")
    deals = f"{ladder.deals} deal{'' if ladder.deals == 1 else 's'}"
    text = (
        f"Ladder: {len(ladder.agents)} agents · {table} · {deals} × "
        f"{len(config.seatings)} seatings = {config.total_games} rounds, "
        f"{ladder.rounds_per_pair} a pair · seed {config.seed}"
    )
    if jobs is not None:
        text += f" · {jobs} job{'' if jobs == 1 else 's'}"
    return text + f" · {results.summary.seconds:.1f} s"


def _signed_short(iv: Interval) -> str:
    """A pair's net points as ``+3.2 ±1.1`` (its t interval is symmetric)."""
    if math.isnan(iv.estimate):
        return DASH
    if math.isnan(iv.low) or math.isnan(iv.high):
        return _plus(iv.estimate, 1)
    return f"{_plus(iv.estimate, 1)} ±{_num((iv.high - iv.low) / 2.0, 1)}"


def _style(iv: Interval) -> str:
    """Green when the row's agent is ahead with 95% confidence, red when behind."""
    if math.isnan(iv.low) or math.isnan(iv.high):
        return ""
    return "green" if iv.low > 0 else "red" if iv.high < 0 else ""


def against(pairs: list[PairResult], a: str, b: str) -> Interval | None:
    """``a``'s net points a round against ``b``, from the pair in either order."""
    for pair in pairs:
        if (pair.a, pair.b) == (a, b):
            return pair.net
        if (pair.a, pair.b) == (b, a):
            # + 0.0: no "-0.0" for a pair that came out even.
            return Interval(-pair.net.estimate + 0.0, -pair.net.high + 0.0, -pair.net.low + 0.0)
    return None


def render(ladder: Ladder, results: Results, console: Console, *, jobs: int | None = None) -> None:
    """Print the ladder: the agents best first, then who beats whom."""
    summary = results.summary
    console.print(Text(headline(ladder, results, jobs), style="bold"))
    if summary.interrupted:
        console.print(
            f"Interrupted: {summary.games_finished} of {ladder.config.total_games} rounds "
            f"finished; {summary.games_counted} counted, in {summary.blocks_counted} "
            "complete deals."
        )
    if summary.blocks_counted == 0:
        console.print("No deal has been played by every pair yet: nothing to report.")
        return

    table = Table(
        title="Against the field (95% intervals over deals)",
        title_justify="left",
        caption="net: the agent's points minus its opponent's, a round; "
        "points: its own points a round",
        caption_justify="left",
    )
    for name in ("rank", "agent", "kind", "rounds", "net/round", "points/round", "round wins"):
        table.add_column(name, justify="left" if name in ("agent", "kind") else "right")
    table.add_column("ms/move", justify="right")
    for rank, r in enumerate(results.agents, 1):
        table.add_row(
            str(rank),
            r.agent.label,
            KIND_WORDS[r.agent.kind],
            str(r.rounds),
            Text(_signed(r.net, 2), style=_style(r.net)),
            _ci(r.points, 2),
            _ci(r.round_wins, 1, percent=True),
            _num(r.seconds_per_move * 1000.0, 2),
        )
    console.print(table)
    for line in fault_lines(summary):
        console.print(line, highlight=False)

    labels = [r.agent.label for r in results.agents]
    matrix = Table(
        title="Pairwise: the row's net points a round against the column (± its 95% interval)",
        title_justify="left",
        caption="green: the row is ahead with 95% confidence; red: behind; "
        "columns by rank (the row's number)",
        caption_justify="left",
    )
    matrix.add_column("agent")
    for rank in range(1, len(labels) + 1):
        matrix.add_column(str(rank), justify="right")
    for rank, a in enumerate(labels, 1):
        cells: list[Text | str] = [f"{rank} {a}"]
        for b in labels:
            iv = None if a == b else against(results.pairs, a, b)
            cells.append(DASH if iv is None else Text(_signed_short(iv), style=_style(iv)))
        matrix.add_row(*cells)
    console.print(matrix)


__all__ = ["KIND_WORDS", "against", "headline", "render"]
