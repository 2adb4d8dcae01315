"""``passing-game arena --ladder``: every pair of agents on the same duplicate deals.

The agents are the registry's (the levels, ``random`` and ``pimc``, the
frozen experts), the outside programs of the ladder file and any
``--bot``; or, when BOTs are named, those (``arena.agents.gather``). The
run is the arena's (``arena.runner.run``) on the ladder's schedule
(``arena.ladder.build``); the report prints each agent against the field
and the pairwise matrix, and ``--json FILE`` writes the document that
``passing-game admin ladder publish FILE`` puts on the site's /ladder page.
Ctrl-C (or SIGTERM) stops the run and reports the deals finished, as the
arena does; bad input is a usage error, before any game.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console

from passing_game.cli.options import cores
from passing_game.cli.runs import EXIT_INTERRUPTED, progress_bar, sigterm_stops
from passing_game.rules import Rules

if TYPE_CHECKING:
    from passing_game.arena.runner import GameOutcome

#: Rounds each pair of agents plays when ``--rounds`` is not given (docs/STRENGTH.md
#: "Ladder" has what the default run costs on this machine).
DEFAULT_ROUNDS = 100
#: The arena's options a ladder does not take, with what they are called.
NOT_FOR_LADDER = {
    "matches": "--matches",
    "sprt": "--sprt",
    "elo0": "--elo0",
    "elo1": "--elo1",
    "alpha": "--alpha",
    "beta": "--beta",
    "seatings": "--seatings",
    "out": "--out",
    "plot": "--plot",
    "raw": "--raw",
    "backend": "--backend",
    "address": "--address",
    "target": "--target",
    "target_preset": "--target-preset",
}
#: Options that do not change what a run measures, left out of its command line.
NOT_IN_COMMAND = ("json_out", "progress")


def _count(n: int, noun: str) -> str:
    """``1 pair``, ``3 pairs``: the report's English (the arena's report is not translated)."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _given(ctx: click.Context, name: str) -> bool:
    source = ctx.get_parameter_source(name)
    return source is not None and source is not click.core.ParameterSource.DEFAULT


def command_line(ctx: click.Context, resolved: dict[str, Any]) -> str:
    """The run's command, as it could be typed again: the options given, and the
    resolved rounds, seed and jobs (so a default that changes later still reads right).

    ``--json`` and the progress bar are left out: they change no figure.
    """
    words = ["passing-game", "arena", "--ladder"]
    positional: list[str] = []
    for param in ctx.command.params:
        name = param.name or ""
        if name in ("ladder", *NOT_IN_COMMAND, *resolved):
            continue
        value = ctx.params.get(name)
        if isinstance(param, click.Argument):
            positional += list(value or ())
            continue
        if not _given(ctx, name):
            continue
        flag = max(param.opts, key=len)
        if isinstance(param, click.Option) and param.is_flag:
            words.append(flag if value else (param.secondary_opts or [flag])[0])
        elif isinstance(param, click.Option) and param.multiple:
            for item in value or ():
                words += [flag, str(item)]
        else:
            words += [flag, str(value)]
    for name, value in resolved.items():
        words += [f"--{name}", str(value)]
    return shlex.join(words + positional)


def run_ladder(ctx: click.Context, rules: Rules) -> None:
    """The ladder: set up (refusing bad input), play, report, write ``--json``."""
    from passing_game.arena.agents import LADDER_FILE, LadderError, gather
    from passing_game.arena.ladder import build
    from passing_game.rules import RulesError

    params = ctx.params
    for name, option in NOT_FOR_LADDER.items():
        if _given(ctx, name):
            raise click.UsageError(f"{option} is not an option of --ladder")
    json_out: Path | None = params["json_out"]
    if json_out is not None and json_out.suffix.lower() != ".json":
        raise click.BadParameter(f"{json_out} must end in .json", param_hint="--json")
    given_file: Path | None = params["ladder_file"]
    rounds = params["rounds"] or DEFAULT_ROUNDS
    try:
        agents, notes = gather(
            params["bots"],
            params["extra_bots"],
            given_file or LADDER_FILE,
            file_given=given_file is not None,
        )
        ladder = build(
            agents, rules=rules, rounds=rounds, seed=params["seed"], timeout=params["move_timeout"]
        )
    except (LadderError, RulesError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None

    jobs = params["jobs"] or cores()
    command = command_line(ctx, {"rounds": rounds, "seed": params["seed"], "jobs": jobs})
    err = Console(stderr=True)
    for note in notes:
        err.print(f"Note: {note}.", highlight=False, soft_wrap=True)
    config = ladder.config
    pairs = len(agents) * (len(agents) - 1) // 2
    err.print(
        f"Playing {config.total_games} rounds: {len(agents)} agents, "
        f"{_count(pairs, 'pair')} × {_count(ladder.rounds_per_pair, 'round')} "
        f"({_count(ladder.deals, 'deal')}, each from both seats), "
        f"with {_count(jobs, 'job')}; Ctrl-C stops and reports.",
        highlight=False,
        soft_wrap=True,
    )
    _play(ladder, jobs, err, params["progress"], json_out, command)


def _play(
    ladder: Any,
    jobs: int,
    err: Console,
    progress: bool | None,
    json_out: Path | None,
    command: str,
) -> None:
    from passing_game.arena import ladder_report
    from passing_game.arena.ladder import document, measure
    from passing_game.arena.runner import ArenaError, run

    show = err.is_terminal if progress is None else progress
    bar = progress_bar(err, show=show)
    task = bar.add_task("rounds", total=ladder.config.total_games)

    def on_game(outcome: GameOutcome) -> bool:
        bar.update(task, advance=1)
        return False

    exit_status = {"code": EXIT_INTERRUPTED}
    started = time.time()
    try:
        with sigterm_stops(exit_status), bar:
            result = run(ladder.config, jobs=jobs, on_game=on_game)
    except ArenaError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        results = measure(
            ladder, result.outcomes, interrupted=result.interrupted, seconds=result.seconds
        )
        out = Console() if sys.stdout.isatty() else Console(width=120)
        ladder_report.render(ladder, results, out, jobs=jobs)
        if json_out is not None:
            data = document(
                ladder, results, command=command, started=started, finished=time.time(), jobs=jobs
            )
            _write(json_out, data)
            err.print(f"Wrote {json_out}", highlight=False)
            if result.interrupted:
                err.print(
                    "The run was interrupted: the file says so, and the site will not publish it.",
                    highlight=False,
                )
    except KeyboardInterrupt:
        sys.exit(exit_status["code"])
    if result.interrupted:
        sys.exit(exit_status["code"])


def _write(path: Path, data: dict[str, Any]) -> None:
    """The whole file or nothing: written beside it, then moved into place."""
    text = json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from None


__all__ = ["DEFAULT_ROUNDS", "NOT_FOR_LADDER", "command_line", "run_ladder"]
