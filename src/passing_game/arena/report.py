"""The arena's report: a table for people, JSON and CSV for programs, a plot.

Needs the ``arena`` extra (matplotlib for ``--plot``).
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from passing_game.arena.outside import fault_line
from passing_game.arena.runner import GameOutcome
from passing_game.arena.stats import Interval
from passing_game.arena.summary import Summary

DASH = "–"
NAN = float("nan")


def _num(value: float, digits: int = 1) -> str:
    if math.isnan(value):
        return DASH
    if math.isinf(value):
        return "+∞" if value > 0 else "-∞"
    return f"{value:.{digits}f}"


def _ci(iv: Interval | None, digits: int = 1, percent: bool = False) -> str:
    if iv is None or math.isnan(iv.estimate):
        return DASH
    scale = 100.0 if percent else 1.0
    unit = "%" if percent else ""
    head = f"{_num(iv.estimate * scale, digits)}{unit}"
    if math.isnan(iv.low) or math.isnan(iv.high):
        return head
    return f"{head} [{_num(iv.low * scale, digits)}, {_num(iv.high * scale, digits)}]"


def _plus(value: float, digits: int = 1) -> str:
    """A number with its sign, also when positive."""
    if math.isnan(value) or math.isinf(value) or value < 0:
        return _num(value, digits)
    return f"+{value:.{digits}f}"


def _signed(iv: Interval, digits: int = 1) -> str:
    if math.isnan(iv.estimate):
        return DASH
    if math.isnan(iv.low) or math.isnan(iv.high):
        return _plus(iv.estimate, digits)
    return f"{_plus(iv.estimate, digits)} [{_plus(iv.low, digits)}, {_plus(iv.high, digits)}]"


def headline(summary: Summary, jobs: int | None = None) -> str:
    config = summary.config
    rules = config["rules"]
    labels = [b["label"] for b in config["bots"]]
    kind = "matches" if summary.mode == "matches" else "rounds"
    team = ", partnerships" if rules["partnerships"] else ""
    if "max_pip" in rules:  # a smaller set (issue 28)
        team += f", double-{rules['max_pip']}, {rules['hand_size']} tiles a hand"
    text = (
        f"Arena: {' vs '.join(labels)} · {rules['players']} players{team} · "
        f"{config['blocks']} deals × {len(config['seatings'])} seatings = "
        f"{config['total_games']} {kind} · seed {config['seed']}"
    )
    if jobs is not None:
        text += f" · {jobs} job{'' if jobs == 1 else 's'}"
    return text + f" · {summary.seconds:.1f} s"


def render(summary: Summary, console: Console, *, jobs: int | None = None) -> None:
    """Print the report as tables."""
    console.print(Text(headline(summary, jobs), style="bold"))
    kind = "matches" if summary.mode == "matches" else "rounds"
    if summary.interrupted or summary.stopped_early:
        why = "Interrupted" if summary.interrupted else "Stopped early by the SPRT"
        console.print(
            f"{why}: {summary.games_finished} of {summary.config['total_games']} {kind} "
            f"finished; {summary.games_counted} counted, in {summary.blocks_counted} "
            "complete deals."
        )
    if summary.blocks_counted == 0:
        console.print("No deal has been played in every seating yet: nothing to report.")
        return

    is_match = summary.mode == "matches"
    table = Table(title="Per bot (95% intervals)", title_justify="left")
    table.add_column("bot")
    table.add_column("rounds", justify="right")
    table.add_column("points/round", justify="right")
    table.add_column("round wins", justify="right")
    if is_match:
        table.add_column("matches", justify="right")
        table.add_column("match wins", justify="right")
    table.add_column("pips left", justify="right")
    table.add_column("ms/move", justify="right")
    for b in summary.bots:
        row = [
            b.label,
            str(b.rounds),
            _ci(b.points_per_round, 2),
            _ci(b.round_win_rate, 1, percent=True),
        ]
        if is_match:
            row += [str(b.matches), _ci(b.match_win_rate, 1, percent=True)]
        row += [_num(b.mean_pips, 1), _num(b.seconds_per_decision * 1000.0, 2)]
        table.add_row(*row)
    console.print(table)
    for line in fault_lines(summary):
        console.print(line, highlight=False)

    unit = "match" if is_match else "round"
    pairs = Table(
        title=(
            f"Head to head (per {unit}: "
            + ("higher match score" if is_match else "fewer pips left")
            + " wins, equal is a draw)"
        ),
        title_justify="left",
    )
    for name in ("bot", "against", "W-D-L", "score", "Elo", "points/round difference"):
        pairs.add_column(name, justify="left" if name in ("bot", "against") else "right")
    for h in summary.head_to_head:
        pairs.add_row(
            h.a,
            h.b,
            f"{h.wins}-{h.draws}-{h.losses}",
            _ci(h.score, 1, percent=True),
            _signed(h.elo, 0),
            _signed(h.points_difference, 2),
        )
    console.print(pairs)

    if len(summary.bots) > 2 and summary.ratings:
        ratings = Table(
            title="Ratings (Bradley-Terry, Elo scale, average 0)",
            title_justify="left",
        )
        ratings.add_column("rank", justify="right")
        ratings.add_column("bot")
        ratings.add_column("Elo", justify="right")
        ratings.add_column("95% bootstrap interval", justify="right")
        ordered = sorted(summary.ratings, key=lambda r: -r[1].estimate)
        for rank, (label, iv) in enumerate(ordered, 1):
            interval = DASH if math.isnan(iv.low) else f"[{_plus(iv.low, 0)}, {_plus(iv.high, 0)}]"
            ratings.add_row(str(rank), label, _plus(iv.estimate, 0), interval)
        console.print(ratings)

    if summary.sprt is not None:
        console.print(sprt_line(summary), highlight=False)


def fault_lines(summary: Summary) -> list[str]:
    """One line per outside bot that misbehaved: its faults, each met by a fallback move.

    Nothing for a run without faults, so the registry's bots' reports stay as
    they were.
    """
    return [fault_line(b.label, b.faults) for b in summary.bots if b.faults]


def sprt_line(summary: Summary) -> str:
    s = summary.sprt
    assert s is not None
    a, b = (bot.label for bot in summary.bots[:2])
    head = (
        f"SPRT {a} vs {b} (elo0={s['elo0']:g}, elo1={s['elo1']:g}, "
        f"alpha={s['alpha']:g}, beta={s['beta']:g}): LLR {s['llr']:.2f} "
        f"in [{s['lower']:.2f}, {s['upper']:.2f}] after {s['observations']} deals"
    )
    if s["decision"] == "H1":
        return head + f" → H1 accepted: {a} is stronger than {b} (Elo ≥ {s['elo1']:g})."
    if s["decision"] == "H0":
        return head + f" → H0 accepted: {a} is not stronger than {b} (Elo ≤ {s['elo0']:g})."
    return head + " → undecided."


def to_json(summary: Summary, games: Sequence[GameOutcome] | None = None) -> dict[str, Any]:
    data = summary.to_dict()
    if games is not None:
        data["games"] = [
            {
                "index": g.index,
                "block": g.block,
                "seating": g.seating,
                "lineup": list(g.lineup),
                "rounds": [
                    {
                        "points": list(r.points),
                        "pips": list(r.pips),
                        "winner": r.winner,
                        "reason": r.reason,
                    }
                    for r in g.rounds
                ],
                "scores": None if g.scores is None else list(g.scores),
                "match_winner": g.match_winner,
                "decisions": list(g.decisions),
                "seconds": list(g.seconds),
                "faults": [dict(f) for f in g.faults],
            }
            for g in games
        ]
    return data


CSV_FIELDS = (
    "bot",
    "rounds",
    "points_per_round",
    "points_low",
    "points_high",
    "round_wins",
    "round_win_rate",
    "round_win_low",
    "round_win_high",
    "matches",
    "match_wins",
    "match_win_rate",
    "match_win_low",
    "match_win_high",
    "mean_pips",
    "decisions",
    "seconds_per_decision",
    "elo",
    "elo_low",
    "elo_high",
)


def csv_rows(summary: Summary) -> list[dict[str, Any]]:
    """One row per bot, every interval as three columns."""
    ratings = dict(summary.ratings)

    def cell(v: float | None) -> str:
        return "" if v is None or math.isnan(v) or math.isinf(v) else f"{v:.6g}"

    rows = []
    for b in summary.bots:
        match = b.match_win_rate or Interval(NAN, NAN, NAN)
        rating = ratings.get(b.label, Interval(NAN, NAN, NAN))
        rows.append(
            {
                "bot": b.label,
                "rounds": b.rounds,
                "points_per_round": cell(b.points_per_round.estimate),
                "points_low": cell(b.points_per_round.low),
                "points_high": cell(b.points_per_round.high),
                "round_wins": b.round_wins,
                "round_win_rate": cell(b.round_win_rate.estimate),
                "round_win_low": cell(b.round_win_rate.low),
                "round_win_high": cell(b.round_win_rate.high),
                "matches": b.matches,
                "match_wins": b.match_wins,
                "match_win_rate": cell(match.estimate),
                "match_win_low": cell(match.low),
                "match_win_high": cell(match.high),
                "mean_pips": cell(b.mean_pips),
                "decisions": b.decisions,
                "seconds_per_decision": cell(b.seconds_per_decision),
                "elo": cell(rating.estimate),
                "elo_low": cell(rating.low),
                "elo_high": cell(rating.high),
            }
        )
    return rows


def write(summary: Summary, path: Path, games: Sequence[GameOutcome] | None = None) -> None:
    """Write the summary as JSON or CSV, chosen by the file's suffix."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        path.write_text(json.dumps(to_json(summary, games), indent=2) + "\n", encoding="utf-8")
    elif suffix == ".csv":
        with path.open("w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
            writer.writeheader()
            writer.writerows(csv_rows(summary))
    else:
        raise ValueError(f"--out must end in .json or .csv, got {path.name}")


def plot(summary: Summary, path: Path) -> None:
    """Draw each bot's rating with its 95% interval as a PNG (matplotlib, Agg)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    ordered = sorted(summary.ratings, key=lambda r: r[1].estimate)
    labels = [label for label, _ in ordered]
    values = [iv.estimate for _, iv in ordered]
    low = [0.0 if math.isnan(iv.low) else iv.estimate - iv.low for _, iv in ordered]
    high = [0.0 if math.isnan(iv.high) else iv.high - iv.estimate for _, iv in ordered]
    figure = Figure(figsize=(7.0, 1.2 + 0.5 * max(1, len(labels))), layout="constrained")
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    ax.errorbar(values, range(len(labels)), xerr=[low, high], fmt="o", capsize=4)
    ax.set_yticks(range(len(labels)), labels)
    ax.axvline(0.0, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("Elo (Bradley-Terry, average 0) with 95% bootstrap interval")
    ax.set_title(headline(summary), fontsize=8, loc="left")
    ax.grid(axis="x", alpha=0.3)
    figure.savefig(path, dpi=120)
