"""``passing-game play`` and ``passing-game replay``.

Option values are checked here, before any game starts, so a bad value is
a short usage message and never a traceback; the game itself lives in
``passing_game.terminal``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from passing_game.cli.options import TranslatedCommand, check_seat, option, rules_options
from passing_game.cli.sources import read_record
from passing_game.i18n import N_, _, ngettext
from passing_game.records import record_marks, record_names
from passing_game.rules import Rules
from passing_game.terminal.render import make_console

#: Seconds between computer moves when a person watches in a terminal.
TERMINAL_DELAY = 0.5


def parse_bots(text: str, players: int) -> tuple[str, ...]:
    """``greedy`` or ``greedy,random``: one name for all opponents or one each."""
    from passing_game.terminal.game import fair_bot_names

    names = tuple(part.strip() for part in text.split(",") if part.strip())
    known = fair_bot_names()
    if not names:
        raise click.BadParameter(_("name at least one bot"), param_hint="'--bots'")
    for name in names:
        if name not in known:
            raise click.BadParameter(
                _("unknown bot “{name}”; choose from {known}").format(
                    name=name, known=", ".join(known)
                ),
                param_hint="'--bots'",
            )
    opponents = players - 1
    if len(names) not in (1, opponents):
        raise click.BadParameter(
            ngettext(
                "give one bot name for your one opponent, got {got}",
                "give one bot for all {n} opponents or exactly {n} names, got {got}",
                opponents,
            ).format(n=opponents, got=len(names)),
            param_hint="'--bots'",
        )
    return names


def check_save_path(path: Path | None) -> None:
    """Refuse a save path that cannot be written now, not after an hour of play."""
    if path is None:
        return
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise click.BadParameter(
            _("the folder {folder} does not exist").format(folder=parent), param_hint="'--save'"
        )
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise click.BadParameter(
            _("{path} cannot be written").format(path=path), param_hint="'--save'"
        )


@click.command(
    "play",
    cls=TranslatedCommand,
    help=N_("Play The Passing Game in the terminal against computer opponents."),
)
@rules_options
@option(
    "--seed",
    type=int,
    default=None,
    help=N_("Seed for the shuffle: the same seed deals the same game."),
)
@option(
    "--bots",
    "bot_names",
    default="greedy",
    show_default=True,
    metavar="NAME[,NAME...]",
    help=N_("Computer opponents ({bots}): one name for all, or one per opponent."),
)
@option(
    "--seat",
    type=int,
    metavar="N",
    default=1,
    show_default=True,
    help=N_("The seat you play, numbered from 1."),
)
@option(
    "--save",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=N_("Write the game record to this file at the end, or when you quit."),
)
@option(
    "--rounds",
    type=click.IntRange(min=1),
    default=None,
    help=N_("Stop after this many rounds (e.g. 1 for a single round)."),
)
@option(
    "--delay",
    type=click.FloatRange(0, 10),
    default=None,
    help=N_("Seconds to pause after each computer move (default 0.5 in a terminal, else 0)."),
)
def play_command(
    rules: Rules,
    seed: int | None,
    bot_names: str,
    seat: int,
    save: Path | None,
    rounds: int | None,
    delay: float | None,
) -> None:
    """Play The Passing Game in the terminal against computer opponents."""
    from passing_game.terminal.game import GameOptions, TerminalGame

    check_seat(seat, rules)
    chosen_bots = parse_bots(bot_names, rules.players)
    check_save_path(save)
    console = make_console()
    if delay is None:
        delay = TERMINAL_DELAY if console.is_terminal else 0.0
    options = GameOptions(
        rules=rules,
        seed=seed,
        bots=chosen_bots,
        seat=seat - 1,
        save=save,
        rounds=rounds,
        delay=delay,
    )
    try:
        code = TerminalGame(options, console=console).run()
    except BrokenPipeError:
        code = _quiet_broken_pipe()
    sys.exit(code)


@click.command(
    "replay",
    cls=TranslatedCommand,
    help=N_("Step through a saved game record: Enter for the next move, b back, q quit."),
)
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@option(
    "--all", "show_all", is_flag=True, help=N_("Print the whole game at once instead of stepping.")
)
def replay_command(file: Path, show_all: bool) -> None:
    """Step through a saved game record: Enter for the next move, b back, q quit."""
    from passing_game.terminal.replay import Replayer

    match, parsed = read_record(file)
    replayer = Replayer(
        match, record_names(parsed), console=make_console(), marks=record_marks(parsed)
    )
    try:
        code = replayer.run_all() if show_all else replayer.run()
    except BrokenPipeError:
        code = _quiet_broken_pipe()
    except KeyboardInterrupt:
        click.echo()
        code = 130
    sys.exit(code)


def _quiet_broken_pipe() -> int:
    """Output went to a closed pipe (``| head``): stop without a traceback."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 1
