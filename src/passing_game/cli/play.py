"""``passing-game play`` and ``passing-game replay``.

Option values are checked here, before any game starts, so a bad value is
a short usage message and never a traceback; the game itself lives in
``passing_game.terminal``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from passing_game.errors import RecordError
from passing_game.i18n import N_, _
from passing_game.records import load_record, record_names
from passing_game.rules import (
    DRAW_RULES,
    LEADER_RULES,
    PASSING_RULES,
    SCORING_RULES,
    TARGET_PRESETS,
    Rules,
    RulesError,
)
from passing_game.terminal.render import make_console

#: Seconds between computer moves when a person watches in a terminal.
TERMINAL_DELAY = 0.5


class TranslatedOption(click.Option):
    """An option whose help text is translated when shown, not when imported.

    Subcommand modules are imported before ``--lang`` takes effect, so help
    strings are stored untranslated (marked with ``N_``) and translated here.
    """

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        if record is None or not self.help:
            return record
        text = _(self.help)
        if "{bots}" in text:
            from passing_game.terminal.game import fair_bot_names

            text = text.format(bots=", ".join(fair_bot_names()))
        return record[0], record[1].replace(self.help, text, 1)


class TranslatedCommand(click.Command):
    """A command whose description is translated when its help is shown."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        original = self.help
        if original:
            self.help = _(original)
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = original


_F = TypeVar("_F", bound=Callable[..., Any])


def option(*names: str, **settings: Any) -> Callable[[_F], _F]:
    """``click.option`` with help translated at display time."""
    return click.option(*names, cls=TranslatedOption, **settings)


def build_rules(
    players: int | None,
    partnerships: bool,
    draw: str,
    passing: str,
    scoring: str,
    leader: str,
    target: int | None,
    target_preset: str | None,
) -> Rules:
    """Rules from the options; a bad combination becomes a usage error."""
    if target is not None and target_preset is not None:
        raise click.UsageError(_("give --target or --target-preset, not both"))
    fields: dict[str, Any] = {
        "players": players if players is not None else (4 if partnerships else 2),
        "partnerships": partnerships,
        "draw": draw,
        "passing": passing,
        "scoring": scoring,
        "leader": leader,
    }
    try:
        if target_preset is not None:
            return Rules.with_target_preset(target_preset, **fields)
        return Rules(target=target, **fields)  # type: ignore[arg-type]
    except RulesError as exc:
        raise click.UsageError(str(exc)) from None


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
                _("unknown bot {name!r}; choose from {known}").format(
                    name=name, known=", ".join(known)
                ),
                param_hint="'--bots'",
            )
    opponents = players - 1
    if len(names) not in (1, opponents):
        raise click.BadParameter(
            _("give one bot for all {n} opponents or exactly {n} names, got {got}").format(
                n=opponents, got=len(names)
            ),
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
@option(
    "--players",
    type=click.IntRange(2, 4),
    default=None,
    help=N_("Number of players, 2 to 4 (default 2, or 4 with --partnerships)."),
)
@option(
    "--partnerships", is_flag=True, help=N_("Four players in two teams: seats 0+2 against 1+3.")
)
@option(
    "--draw",
    type=click.Choice(DRAW_RULES),
    default="ends-turn",
    show_default=True,
    help=N_("Whether a draw ends the turn or the drawer acts again."),
)
@option(
    "--passing",
    type=click.Choice(PASSING_RULES),
    default="free",
    show_default=True,
    help=N_("Free passing, or passing only when no play or draw is possible."),
)
@option(
    "--scoring",
    type=click.Choice(SCORING_RULES),
    default="literal",
    show_default=True,
    help=N_("How the round winner's points are counted."),
)
@option(
    "--leader",
    type=click.Choice(LEADER_RULES),
    default="random",
    show_default=True,
    help=N_("Who leads each round after the first."),
)
@option(
    "--target",
    type=click.IntRange(min=1),
    default=None,
    help=N_("Points needed to win the match (default 101, or 61 with 4 players)."),
)
@option(
    "--target-preset",
    type=click.Choice(list(TARGET_PRESETS)),
    default=None,
    help=N_("A named target scheme instead of --target."),
)
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
    type=click.IntRange(0, 3),
    default=0,
    show_default=True,
    help=N_("The seat you play (0 to players-1)."),
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
    players: int | None,
    partnerships: bool,
    draw: str,
    passing: str,
    scoring: str,
    leader: str,
    target: int | None,
    target_preset: str | None,
    seed: int | None,
    bot_names: str,
    seat: int,
    save: Path | None,
    rounds: int | None,
    delay: float | None,
) -> None:
    """Play The Passing Game in the terminal against computer opponents."""
    from passing_game.terminal.game import GameOptions, TerminalGame

    rules = build_rules(
        players, partnerships, draw, passing, scoring, leader, target, target_preset
    )
    if seat >= rules.players:
        raise click.BadParameter(
            _("seat must be 0 to {last} with {n} players").format(
                last=rules.players - 1, n=rules.players
            ),
            param_hint="'--seat'",
        )
    chosen_bots = parse_bots(bot_names, rules.players)
    check_save_path(save)
    console = make_console()
    if delay is None:
        delay = TERMINAL_DELAY if console.is_terminal else 0.0
    options = GameOptions(
        rules=rules,
        seed=seed,
        bots=chosen_bots,
        seat=seat,
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

    try:
        data = file.read_bytes()
    except OSError as exc:
        raise click.ClickException(
            _("cannot read {path}: {reason}").format(path=file, reason=exc.strerror or exc)
        ) from None
    try:
        match = load_record(data)
    except RecordError as exc:
        raise click.ClickException(
            _("{path} is not a usable game record: {reason}").format(path=file, reason=exc)
        ) from None
    names = record_names(json.loads(data))
    replayer = Replayer(match, names, console=make_console())
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
