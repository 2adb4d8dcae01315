"""``passing-game bench``: measure the engine, optionally against its peers.

Only click is imported at module level, so ``passing-game --help`` stays
fast; the bench itself is imported when the command runs.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import click


@click.command("bench")
@click.option(
    "--compare",
    is_flag=True,
    help="Also run the peer engines (dominoes, OpenSpiel), installed into a throwaway "
    "environment (--venv) on first use.",
)
@click.option(
    "--rl",
    is_flag=True,
    help="Measure the reinforcement-learning environments instead (issue 15): steps/s of "
    "the single Gymnasium env, PettingZoo AEC and the C batch at N = 1, 64, 1024, 4096 "
    "against greedy and in self-play; needs the rl extra.",
)
@click.option(
    "--rl-players",
    type=click.IntRange(min=2, max=4),
    default=2,
    show_default=True,
    help="Players per game with --rl.",
)
@click.option(
    "--beliefs",
    is_flag=True,
    help="Measure the search bots' beliefs about the hidden hands instead (issue 16): the "
    "log-likelihood of the true hands under each belief model against uniform, over "
    "positions of seeded rounds; the results go to the docs with --markdown.",
)
@click.option(
    "--positions",
    type=click.IntRange(min=1),
    default=3000,
    show_default=True,
    help="Positions scored with --beliefs.",
)
@click.option(
    "--players",
    type=click.IntRange(min=2, max=4),
    default=2,
    show_default=True,
    help="Players per round with --beliefs.",
)
@click.option(
    "--opponent",
    default="expert",
    show_default=True,
    help="The bot at every seat with --beliefs (a bot or level name: expert, heuristic, "
    "greedy for a quick run...).",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Seed of the rounds and the pools with --beliefs.",
)
@click.option(
    "--pool",
    type=click.IntRange(min=1),
    default=4000,
    show_default=True,
    help="Deals weighed per model and position with --beliefs.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Worker processes with --beliefs (the figures do not depend on it).",
)
@click.option(
    "--seconds",
    type=click.FloatRange(min=0.01),
    default=2.0,
    show_default=True,
    help="CPU seconds per repetition of each throughput measurement.",
)
@click.option(
    "--repeat",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="Repetitions per engine (the engines alternate); figures are medians.",
)
@click.option(
    "--markdown",
    "markdown_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the tables to FILE (Markdown), replacing the block a previous run wrote.",
)
@click.option(
    "--arena",
    is_flag=True,
    help="Also time 'passing-game arena' with --jobs 1 and --jobs 2.",
)
@click.option(
    "--arena-rounds",
    type=click.IntRange(min=2),
    default=1200,
    show_default=True,
    help="Rounds per arena run with --arena.",
)
@click.option(
    "--ismcts-iterations",
    type=click.IntRange(min=1),
    default=300,
    show_default=True,
    help="Iterations per ismcts move timed.",
)
@click.option(
    "--venv",
    "venv_path",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path(".bench-venv"),
    show_default=True,
    help="The throwaway environment for the peers (--compare).",
)
def bench_command(
    compare: bool,
    rl: bool,
    beliefs: bool,
    positions: int,
    players: int,
    opponent: str,
    seed: int,
    pool: int,
    jobs: int,
    rl_players: int,
    seconds: float,
    repeat: int,
    markdown_file: Path | None,
    arena: bool,
    arena_rounds: int,
    ismcts_iterations: int,
    venv_path: Path,
) -> None:
    """Measure the engine's speed: rounds and actions per second, random
    against random on one core, Round.copy, the search kernel, ismcts,
    memory and start-up time.

    With --compare the peer engines run in the same run, alternately with
    ours, and the table gives our ratio to each. With --rl it measures the
    reinforcement-learning environments instead (issue 15); with --beliefs,
    the search bots' beliefs about the hidden hands (issue 16).
    """
    ctx = click.get_current_context()
    given = [
        f"--{name}"
        for name in ("positions", "players", "opponent", "seed", "pool", "jobs")
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
    ]
    if beliefs and (rl or compare):
        raise click.UsageError("--beliefs is a bench of its own: leave out --rl and --compare")
    if given and not beliefs:
        raise click.UsageError(f"{', '.join(given)} go with --beliefs")
    if beliefs:
        _bench_beliefs(positions, players, opponent, seed, pool, jobs, markdown_file)
        return
    if rl:
        _bench_rl(seconds, repeat, rl_players, markdown_file)
        return
    from rich.console import Console

    from passing_game.bench.report import render, write_markdown
    from passing_game.bench.suite import run_bench

    words = ["passing-game", "bench"]
    if compare:
        words.append("--compare")
    words += ["--seconds", f"{seconds:g}", "--repeat", str(repeat)]
    if arena:
        words += ["--arena", "--arena-rounds", str(arena_rounds)]
    if ismcts_iterations != 300:
        words += ["--ismcts-iterations", str(ismcts_iterations)]
    if markdown_file is not None:
        words += ["--markdown", str(markdown_file)]
    console = Console()
    result = run_bench(
        seconds=seconds,
        repeat=repeat,
        compare=compare,
        venv_path=venv_path,
        arena=arena,
        arena_rounds=arena_rounds,
        ismcts_iterations=ismcts_iterations,
        command=shlex.join(words),
        log=lambda text: click.echo(text, err=True),
    )
    render(result, console)
    if markdown_file is not None:
        write_markdown(markdown_file, result)
        click.echo(f"Wrote {markdown_file}", err=True)


def _bench_rl(seconds: float, repeat: int, players: int, markdown_file: Path | None) -> None:
    from rich.console import Console

    from passing_game.bench import rl

    words = ["passing-game", "bench", "--rl", "--seconds", f"{seconds:g}", "--repeat", str(repeat)]
    if players != 2:
        words += ["--rl-players", str(players)]
    if markdown_file is not None:
        words += ["--markdown", str(markdown_file)]
    try:
        try:
            from passing_game.rl import speed
        except ImportError as exc:
            raise rl.MissingRl(f"{rl.INSTALL_HINT} ({exc})") from exc
        result = rl.run_rl_bench(
            speed,
            seconds=seconds,
            repeat=repeat,
            players=players,
            command=shlex.join(words),
            log=lambda text: click.echo(text, err=True),
        )
    except rl.MissingRl as exc:
        raise click.ClickException(str(exc)) from exc
    rl.render(result, Console())
    if markdown_file is not None:
        rl.write_markdown(markdown_file, result)
        click.echo(f"Wrote {markdown_file}", err=True)


def _bench_beliefs(
    positions: int,
    players: int,
    opponent: str,
    seed: int,
    pool: int,
    jobs: int,
    markdown_file: Path | None,
) -> None:
    from rich.console import Console

    from passing_game.bench import beliefs, beliefs_report

    words = ["passing-game", "bench", "--beliefs", "--positions", str(positions)]
    words += ["--players", str(players), "--opponent", opponent, "--seed", str(seed)]
    if pool != beliefs.POOL:
        words += ["--pool", str(pool)]
    if jobs != 1:
        words += ["--jobs", str(jobs)]
    if markdown_file is not None:
        words += ["--markdown", str(markdown_file)]
    try:
        result = beliefs.run_beliefs_bench(
            positions=positions,
            players=players,
            opponent=opponent,
            seed=seed,
            pool=pool,
            jobs=jobs,
            command=shlex.join(words),
            log=lambda text: click.echo(text, err=True),
        )
    except beliefs.BeliefsError as exc:
        raise click.ClickException(str(exc)) from exc
    beliefs_report.render(result, Console())
    if markdown_file is not None:
        beliefs_report.write_markdown(markdown_file, result)
        click.echo(f"Wrote {markdown_file}", err=True)
