"""``passing-game admin bots``: the moderators' side of bot accounts (P62).

::

    passing-game admin bots list [--search TEXT] [--limit N]
    passing-game admin bots revoke NAME --reason TEXT

A bot account is an account: ``passing-game admin suspend NAME`` suspends it
(its socket closes, its seats get stand-ins), and suspending a person
suspends their bots with them until they are restored. The work itself is
``passing_game.web.admin``; every action is in ``admin log``.
"""

from __future__ import annotations

import click

from passing_game.cli.admin import _REASON, _columns, _refusals, _store, _when, admin_command
from passing_game.cli.options import TranslatedCommand, TranslatedGroup, option
from passing_game.i18n import N_, _


@admin_command.group(
    "bots",
    cls=TranslatedGroup,
    help=N_("Bot accounts: list them, revoke a token."),
)
def bots_command() -> None:
    """Bot accounts: list them, revoke a token."""


@bots_command.command("list", cls=TranslatedCommand, help=N_("List the bot accounts."))
@option(
    "--search", default=None, metavar="TEXT", help=N_("Only bots or owners whose name holds TEXT.")
)
@option(
    "--limit",
    type=click.IntRange(1, 10000),
    default=100,
    show_default=True,
    help=N_("At most this many."),
)
@click.pass_context
def list_command(ctx: click.Context, search: str | None, limit: int) -> None:
    """List the bot accounts."""
    from passing_game.web.admin import bots

    with _store(ctx) as store:
        found = bots(store, search, limit)
    if not found:
        click.echo(_("No bot accounts."))
        return
    rows = [[_("name"), _("owner"), _("created"), _("state"), _("token"), _("last seen")]]
    for bot in found:
        if bot.held:
            state = _("suspended with its owner")
        elif bot.suspended:
            state = _("suspended")
        else:
            state = _("active")
        token = _("yes") if bot.token else _("revoked")
        seen = _when(bot.seen) if bot.seen else "–"
        rows.append([bot.name, bot.owner, _when(bot.created), state, token, seen])
    _columns(rows)


@bots_command.command(
    "revoke", cls=TranslatedCommand, help=N_("Revoke a bot account's token: it stops playing.")
)
@click.argument("name")
@_REASON
@click.pass_context
def revoke_command(ctx: click.Context, name: str, reason: str) -> None:
    """Revoke a bot account's token."""
    from passing_game.web.admin import revoke_bot

    with _store(ctx) as store, _refusals():
        revoke_bot(store, name, actor=ctx.obj["actor"], reason=reason)
    click.echo(_("{name}'s token is revoked.").format(name=name))


__all__ = ["bots_command"]
