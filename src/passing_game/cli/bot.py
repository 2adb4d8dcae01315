"""``passing-game bot connect``: a program in any language plays on the web site (P62).

::

    PASSING_GAME_BOT_TOKEN=pgbot_... passing-game bot connect https://example.com \\
        "cmd:node examples/bots/greedy_bot.js" [--token-file FILE] [--accept any]
        [--accept-from NAME ...] [--players 2,3,4] [--max-games N]
        [--seek N [--seek-rated]] [--move-timeout S] [--once]

The token comes from ``PASSING_GAME_BOT_TOKEN`` or ``--token-file``, never
from the command line (other users of a machine can read a process's
arguments). The program is run as the arena runs one (``cmd:`` and its
options, docs/BOTS.md); the work is ``passing_game.arena.bridge``. Exit
status 2 for a setup that cannot work, 3 when the site refuses the bot for
good (its token revoked or replaced, the account suspended).
"""

from __future__ import annotations

import asyncio
import sys

import click

from passing_game.cli.options import TranslatedCommand, TranslatedGroup, option
from passing_game.i18n import N_, _

#: What the bridge needs beyond the command line's own libraries.
EXTRA_HINT = "passing-game bot needs a WebSocket client: pip install 'passing-game[bot]'"


@click.group(
    "bot", cls=TranslatedGroup, help=N_("Play on the web site as a bot account: a program plays.")
)
def bot_command() -> None:
    """Play on the web site as a bot account: a program plays."""


def _players(value: str) -> frozenset[int]:
    try:
        found = frozenset(int(part) for part in value.split(",") if part.strip())
    except ValueError:
        found = frozenset()
    if not found or not found <= {2, 3, 4}:
        raise click.BadParameter(_("give player counts from 2 to 4, e.g. 2,3"))
    return found


@bot_command.command(
    "connect",
    cls=TranslatedCommand,
    help=N_(
        "Connect a bot account to the site at URL and let PROGRAM play its games"
        " (cmd:PROGRAM ARGS, as in the arena). The token comes from"
        " PASSING_GAME_BOT_TOKEN or --token-file."
    ),
)
@click.argument("url")
@click.argument("program")
@option(
    "--token-file",
    default=None,
    metavar="FILE",
    help=N_("Read the bot's token from FILE (else from PASSING_GAME_BOT_TOKEN)."),
)
@option(
    "--accept",
    type=click.Choice(["any", "casual", "rated", "none"]),
    default="any",
    show_default=True,
    help=N_("Which challenges to accept."),
)
@option(
    "--accept-from",
    multiple=True,
    metavar="NAME",
    help=N_("Accept challenges only from this account (repeatable)."),
)
@option(
    "--players",
    default="2,3,4",
    show_default=True,
    help=N_("Accept games of these player counts."),
)
@option(
    "--max-games",
    type=click.IntRange(1, 8),
    default=1,
    show_default=True,
    help=N_("Play at most this many games at once."),
)
@option(
    "--seek",
    type=click.IntRange(2, 4),
    default=None,
    help=N_("Seek quick play with this many players (with people who meet bots)."),
)
@option("--seek-rated", is_flag=True, help=N_("Seek rated games in quick play."))
@option(
    "--move-timeout",
    type=click.FloatRange(0.1, 600),
    default=5.0,
    show_default=True,
    help=N_("Seconds the program may take for a move (the site's clock still counts)."),
)
@option("--once", is_flag=True, help=N_("Do not connect again when the connection ends."))
def connect_command(
    url: str,
    program: str,
    token_file: str | None,
    accept: str,
    accept_from: tuple[str, ...],
    players: str,
    max_games: int,
    seek: int | None,
    seek_rated: bool,
    move_timeout: float,
    once: bool,
) -> None:
    """Connect a bot account to the site and let a program play its games."""
    try:
        import websockets  # noqa: F401
    except ImportError:
        raise click.ClickException(EXTRA_HINT) from None
    from passing_game.arena.bridge import SETUP, Accepting, Bridge, BridgeError, token_from

    def say(line: str) -> None:
        click.echo(line, err=True)

    spec = program.removeprefix("cmd:")
    try:
        token = token_from(token_file, say)
        accepting = Accepting(
            accept, frozenset(n.casefold() for n in accept_from), _players(players), max_games
        )
        bridge = Bridge(
            url,
            token,
            spec,
            accepting=accepting,
            seek=None if seek is None else (seek, seek_rated),
            move_timeout=move_timeout,
            say=say,
            again=not once,
        )
        bridge.check()
    except (BridgeError, click.BadParameter) as exc:
        click.echo(_("error: {message}").format(message=exc), err=True)
        sys.exit(SETUP)
    try:
        status = asyncio.run(bridge.run())
    except KeyboardInterrupt:
        status = 130
    sys.exit(status)


__all__ = ["bot_command"]
