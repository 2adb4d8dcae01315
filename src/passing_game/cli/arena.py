"""``passing-game arena``: bots against each other on duplicate deals.

Only click is imported at module level; the arena itself (numpy, scipy,
matplotlib: the ``arena`` extra) is imported when the command runs, so a
missing extra is reported in words.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console

from passing_game.cli.ladder import DEFAULT_ROUNDS as LADDER_ROUNDS
from passing_game.cli.options import cores, jobs_option, rules_options
from passing_game.cli.runs import EXIT_INTERRUPTED, progress_bar, sigterm_stops
from passing_game.i18n import _
from passing_game.rules import Rules

if TYPE_CHECKING:
    from passing_game.arena.runner import GameOutcome

#: Rounds played when neither --rounds nor --matches is given.
DEFAULT_ROUNDS = 200
#: The most rounds (or matches) an SPRT run plays when no limit is given.
DEFAULT_SPRT_LIMIT = 20_000

EXTRA_HINT = (
    "passing-game arena needs the optional 'arena' extra (numpy, scipy, matplotlib): "
    "pip install 'passing-game[arena]'"
)


def _check_extra() -> None:
    try:
        import matplotlib  # noqa: F401
        import numpy  # noqa: F401
        import scipy  # type: ignore[import-untyped]  # noqa: F401
    except ImportError as exc:
        raise click.ClickException(f"{EXTRA_HINT} ({exc})") from None


class ArenaCommand(click.Command):
    """The arena's command: its help ends with the bot names it accepts.

    The names come from the registry (``bots.names``) when help is shown, so
    frozen yardsticks such as ``expert-5f2ff52``, which people are not
    offered, are listed where developers look.
    """

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from passing_game.bots import names

        formatter.write_paragraph()
        formatter.write_text(f"Bots, levels and frozen bots: {', '.join(names())}.")
        super().format_epilog(ctx, formatter)


@click.command("arena", cls=ArenaCommand)
@click.argument("bots", nargs=-1, required=False, metavar="BOT BOT [BOT ...]")
@click.option(
    "--ladder",
    is_flag=True,
    help="The agents' ladder: every pair of agents (the levels, the frozen experts, the "
    "ladder file's programs and --bot; or only the BOTs named) on the same duplicate deals, "
    "--rounds a pair (docs/STRENGTH.md, Ladder).",
)
@click.option(
    "--ladder-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="With --ladder: the outside programs to add (TOML; default "
    "examples/bots/ladder.toml, when it is there).",
)
@click.option(
    "--json",
    "json_out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="With --ladder: write the ladder to FILE.json, the file the web site publishes.",
)
@click.option(
    "--bot",
    "extra_bots",
    multiple=True,
    metavar="BOT",
    help="One more bot (may be repeated), e.g. an outside program: "
    '"cmd:python3 examples/bots/greedy_bot.py" or "cmd:label=NAME,timeout=2:PROGRAM ARGS" '
    "(docs/BOTS.md).",
)
@click.option(
    "--move-timeout",
    type=click.FloatRange(min=0.0, min_open=True),
    default=5.0,
    show_default=True,
    help="Seconds an outside bot may take per move; a late answer is replaced by "
    "its first legal move (docs/BOTS.md).",
)
@rules_options
@click.option(
    "-r",
    "--rounds",
    type=click.IntRange(min=1),
    default=None,
    help=f"Rounds to play, rounded up to whole deals (default {DEFAULT_ROUNDS}; "
    f"the limit with --sprt, default {DEFAULT_SPRT_LIMIT}; with --ladder, the rounds "
    f"each pair of agents plays, default {LADDER_ROUNDS}).",
)
@click.option(
    "-m",
    "--matches",
    type=click.IntRange(min=1),
    default=None,
    help="Play this many full matches to the target instead of single rounds.",
)
@jobs_option
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Where games run: worker processes here, or Ray tasks (extra passing-game[ray]).",
)
@click.option(
    "--address",
    default=None,
    help="With --backend ray: the address of a running Ray cluster (default: start one here).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Fixes every deal and bot.")
@click.option(
    "--seatings",
    type=click.Choice(["rotate", "all"]),
    default="rotate",
    show_default=True,
    help="Arrange each group of bots in every rotation or in every permutation of the seats.",
)
@click.option("--sprt", is_flag=True, help="Stop once the first bot is decided better or not.")
@click.option("--elo0", type=float, default=0.0, show_default=True, help="SPRT: H0 Elo.")
@click.option("--elo1", type=float, default=5.0, show_default=True, help="SPRT: H1 Elo.")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="SPRT: false H1 rate.")
@click.option("--beta", type=float, default=0.05, show_default=True, help="SPRT: false H0 rate.")
@click.option(
    "-o",
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    multiple=True,
    help="Write the results to FILE.json or FILE.csv (may be repeated).",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Draw the ratings with their intervals to FILE.png.",
)
@click.option("--raw", is_flag=True, help="Put every game's outcome in the JSON output too.")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar (default: when standard error is a terminal).",
)
@click.pass_context
def arena_command(
    ctx: click.Context,
    bots: tuple[str, ...],
    ladder: bool,
    ladder_file: Path | None,
    json_out: Path | None,
    extra_bots: tuple[str, ...],
    move_timeout: float,
    rules: Rules,
    rounds: int | None,
    matches: int | None,
    jobs: int | None,
    backend: str,
    address: str | None,
    seed: int,
    seatings: str,
    sprt: bool,
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    out: tuple[Path, ...],
    plot: Path | None,
    raw: bool,
    progress: bool | None,
) -> None:
    """Play bots against each other on duplicate deals and measure them.

    Each deal is replayed with the bots rotated over the seats, so every bot
    plays every hand and the luck of the deal cancels. With more bots than
    seats every combination of bots meets. Bots are registry names or levels,
    with options as NAME:KEY=VALUE,KEY=VALUE (e.g. ismcts:iterations=300), or
    outside programs as cmd:PROGRAM ARGS, which play over JSON lines
    (docs/BOTS.md).

    Ctrl-C stops a run and reports the deals finished so far.
    """
    _check_extra()
    if ladder:
        from passing_game.cli.ladder import run_ladder

        run_ladder(ctx, rules)
        return
    for name in ("ladder_file", "json_out"):
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT:
            option = "--ladder-file" if name == "ladder_file" else "--json"
            raise click.UsageError(f"{option} goes with --ladder (the arena writes with --out)")
    from passing_game.arena.runner import ArenaConfig, ArenaError, bot_specs, run
    from passing_game.rules import RulesError

    bots = bots + extra_bots
    if len(bots) < 2:
        raise click.UsageError(_("name at least two bots"))
    if rounds is not None and matches is not None:
        raise click.UsageError("give --rounds or --matches, not both")
    for path in out:
        if path.suffix.lower() not in (".json", ".csv"):
            raise click.BadParameter(f"{path} must end in .json or .csv", param_hint="--out")
    if plot is not None and plot.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise click.BadParameter(f"{plot} must end in .png (or .svg, .pdf)", param_hint="--plot")
    try:
        specs = bot_specs(bots, timeout=move_timeout)
        games = matches or rounds or (DEFAULT_SPRT_LIMIT if sprt else DEFAULT_ROUNDS)
        config = ArenaConfig(
            bots=tuple(specs),
            rules=rules,
            mode="matches" if matches else "rounds",
            games=games,
            seed=seed,
            orders="all" if seatings == "all" else "rotate",
        )
    except (ArenaError, RulesError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None

    # The statistics (scipy) load only once the setup is known to be good.
    from passing_game.arena import report
    from passing_game.arena.stats import Sprt
    from passing_game.arena.summary import SprtMonitor, summarize

    try:
        test = Sprt(elo0, elo1, alpha, beta) if sprt else None
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None

    jobs = jobs or cores()
    err = Console(stderr=True)
    show = err.is_terminal if progress is None else progress
    per_block = len(config.seatings)
    kind = "matches" if config.mode == "matches" else "rounds"
    err.print(
        f"Playing {config.total_games} {kind} ({config.blocks} deals × {per_block} seatings) "
        f"with {jobs} {'job' if jobs == 1 else 'jobs'}; Ctrl-C stops and reports.",
        highlight=False,
        soft_wrap=True,
    )

    monitor = SprtMonitor(config, test) if test is not None else None

    bar = progress_bar(err, show=show)
    task = bar.add_task(kind, total=config.total_games)

    def on_game(outcome: GameOutcome) -> bool:
        stop = monitor(outcome) if monitor is not None else False
        description = kind if test is None else f"{kind} · LLR {test.llr():+.2f}"
        bar.update(task, advance=1, description=description)
        return stop

    # SIGTERM (kill) stops a run like Ctrl-C: report what was measured.
    exit_status = {"code": EXIT_INTERRUPTED}
    try:
        with sigterm_stops(exit_status), bar:
            if backend == "ray":
                from passing_game.arena.ray_backend import run_on_ray

                result = run_on_ray(config, address=address, jobs=jobs, on_game=on_game)
            else:
                result = run(config, jobs=jobs, on_game=on_game)
    except ArenaError as exc:
        raise click.ClickException(str(exc)) from None

    try:
        summary = summarize(
            config,
            result.outcomes,
            interrupted=result.interrupted,
            stopped_early=result.stopped_early,
            seconds=result.seconds,
            last_block=monitor.last_block if monitor and result.stopped_early else None,
            sprt=test,
        )
        out_console = Console() if sys.stdout.isatty() else Console(width=120)
        report.render(summary, out_console, jobs=jobs)
        games_out = result.outcomes if raw else None
        for path in out:
            report.write(summary, path, games_out)
            err.print(f"Wrote {path}", highlight=False)
        if plot is not None:
            if summary.ratings:
                report.plot(summary, plot)
                err.print(f"Wrote {plot}", highlight=False)
            else:
                err.print("No ratings yet: no plot written.", highlight=False)
    except KeyboardInterrupt:
        sys.exit(exit_status["code"])
    if result.interrupted:
        sys.exit(exit_status["code"])
