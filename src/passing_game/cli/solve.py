"""``passing-game solve``: solve a two-player round on a small set, measure the bots.

Builds the whole game tree (``passing_game.solve``), runs CFR+ with the
exploitability at checkpoints, solves it again with a fixed leader, and
measures each bot's exploitability and its points against the equilibrium.
``--markdown docs/SOLVED.md`` writes the variant's section of that document
(between markers, replacing an older run of the same variant); ``--json``
keeps every figure.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import click
from rich.console import Console

from passing_game.bots import is_cheating, names
from passing_game.rules import PASSING_RULES, Rules, RulesError

#: The bots measured unless ``--bots`` says otherwise: the ladder's fair rungs
#: (``easy`` is ``greedy``, ``medium`` is ``heuristic``), the search levels at
#: their budgets and the frozen expert.
DEFAULT_BOTS = ("random", "greedy", "heuristic", "hard", "expert", "expert-5f2ff52")


def _bots(value: str) -> list[str]:
    chosen = [b.strip() for b in value.split(",") if b.strip()]
    for name in chosen:
        if name not in names():
            raise click.BadParameter(f"unknown bot {name!r}; known: {', '.join(names())}")
        if is_cheating(name):
            raise click.BadParameter(f"{name!r} sees every tile: it has no policy to measure")
    return chosen


def write_section(path: Path, key: str, text: str) -> None:
    """Put ``text`` between the markers of ``key`` in ``path`` (appended if new)."""
    begin, end = f"<!-- solve {key} -->", f"<!-- end solve {key} -->"
    block = f"{begin}\n{text.rstrip()}\n{end}\n"
    old = path.read_text() if path.exists() else ""
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end) + r"\n?", re.S)
    new = pattern.sub(lambda _: block, old) if pattern.search(old) else old + "\n" + block
    path.write_text(new)


@click.command("solve")
@click.option(
    "--set",
    "max_pip",
    type=click.IntRange(2, 5),
    default=2,
    show_default=True,
    help="The set by its highest double (double-two to double-five).",
)
@click.option(
    "--hand-size",
    type=click.IntRange(min=1),
    default=None,
    help="Tiles a hand (default: the set's share, docs/DECISIONS.md P64).",
)
@click.option(
    "--passing",
    type=click.Choice(PASSING_RULES),
    default="free",
    show_default=True,
    help="free (R4.4) or forced (D2).",
)
@click.option(
    "--iterations",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="CFR+ iterations.",
)
@click.option(
    "--bots",
    "bot_list",
    default=",".join(DEFAULT_BOTS),
    show_default=True,
    help="Comma-separated bots to measure (empty: none).",
)
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write every figure here.",
)
@click.option(
    "--markdown",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the variant's section of this document (docs/SOLVED.md).",
)
def solve_command(
    max_pip: int,
    hand_size: int | None,
    passing: str,
    iterations: int,
    bot_list: str,
    json_path: Path | None,
    markdown: Path | None,
) -> None:
    """Solve a two-player round on a small set by CFR+; measure the bots against it."""
    from passing_game.solve import SolveError, available
    from passing_game.solve import figures as fig

    if not available():
        raise click.ClickException("the C solver (passing_game._solve) is not built")
    bots = _bots(bot_list) if bot_list else []
    try:
        rules = Rules(players=2, max_pip=max_pip, hand_size=hand_size, passing=passing)  # type: ignore[arg-type]
    except RulesError as exc:
        raise click.UsageError(str(exc)) from None
    console = Console(stderr=True)
    console.print(f"Solving {fig.title(rules)}: {iterations:,} CFR+ iterations")
    try:
        figures = fig.measure(rules, iterations, bots, say=console.print)
    except (SolveError, MemoryError) as exc:
        raise click.ClickException(str(exc)) from None
    command = (
        "passing-game " + shlex.join(sys.argv[1:])
        if sys.argv[1:2] == ["solve"]
        else (
            f"passing-game solve --set {max_pip} --hand-size {rules.hand_size}"
            f" --passing {passing} --iterations {iterations}"
        )
    )
    if json_path is not None:
        json_path.write_text(json.dumps(figures.to_dict(), indent=1) + "\n")
    section = fig.markdown(figures, command)
    if markdown is not None:
        key = f"double-{max_pip}-{rules.hand_size}-{passing}"
        write_section(markdown, key, section)
    click.echo(section)
