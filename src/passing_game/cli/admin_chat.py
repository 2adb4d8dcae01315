"""``passing-game admin chat``: the moderators' side of the chat (P58).

::

    passing-game admin chat reports [--all] [--limit N]
    passing-game admin chat delete ID --reason TEXT
    passing-game admin chat mute NAME --for 2h --reason TEXT
    passing-game admin chat close REPORT --reason TEXT

Suspending an account is ``passing-game admin suspend``. The work itself is
``passing_game.web.chat.moderation``; every action is in ``admin log``.
"""

from __future__ import annotations

import time

import click

from passing_game.cli.admin import _REASON, _refusals, _store, _when, admin_command
from passing_game.cli.options import TranslatedCommand, TranslatedGroup, option
from passing_game.i18n import N_, _, pgettext


@admin_command.group(
    "chat",
    cls=TranslatedGroup,
    help=N_("The chat: reports, deleting a message, muting an account for a time."),
)
def chat_command() -> None:
    """The chat: reports, deleting a message, muting an account for a time."""


def _line(message: dict[str, object] | None, mark: str = "  ") -> str:
    if message is None:
        return mark + _("(no message)")
    said = message.get("text") if message.get("preset") is None else f"[{message.get('preset')}]"
    at = message.get("at")
    when = _when(float(at)) if isinstance(at, (int, float)) else ""
    # TRANSLATORS: one chat message in a report: its id, when, its channel, who, what.
    return mark + _("#{id} {when} ({channel}) {name}: {text}").format(
        id=message.get("id"),
        when=when,
        channel=message.get("channel"),
        name=message.get("name") or _("a spectator"),
        text=said,
    )


@chat_command.command(
    "reports", cls=TranslatedCommand, help=N_("List the open reports, with their context.")
)
@option("--all", "every", is_flag=True, help=N_("Closed reports too."))
@option(
    "--limit",
    type=click.IntRange(1, 10000),
    default=100,
    show_default=True,
    help=N_("At most this many."),
)
@click.pass_context
def reports_command(ctx: click.Context, every: bool, limit: int) -> None:
    """List the open reports, with their context."""
    from passing_game.web.chat.moderation import reports

    with _store(ctx) as store:
        found = reports(store, not every, limit)
    if not found:
        click.echo(_("No open reports."))
        return
    for report in found:
        state = (
            pgettext("chat report", "closed") if report.closed else pgettext("chat report", "open")
        )
        click.echo(
            _("Report {id} ({state}), {when}, by {who}, at {place}:").format(
                id=report.id,
                state=state,
                when=_when(report.at),
                who=report.reporter or _("a spectator"),
                place=report.place,
            )
        )
        reported = report.message.id if report.message is not None else None
        for message in report.context:
            click.echo(_line(message, "> " if message.get("id") == reported else "  "))


@chat_command.command(
    "delete",
    cls=TranslatedCommand,
    help=N_("Delete a chat message: it leaves every history and the open pages."),
)
@click.argument("id", type=click.IntRange(1, 2**62))
@_REASON
@click.pass_context
def delete_command(ctx: click.Context, id: int, reason: str) -> None:
    """Delete a chat message: it leaves every history and the open pages."""
    from passing_game.web.chat.moderation import delete

    with _store(ctx) as store, _refusals():
        delete(store, id, actor=ctx.obj["actor"], reason=reason)
    click.echo(_("Message {id} is deleted.").format(id=id))


@chat_command.command(
    "mute",
    cls=TranslatedCommand,
    help=N_("Mute an account's chat for a time: it may not chat anywhere until then."),
)
@click.argument("name")
@option("--for", "duration", required=True, metavar="TIME", help=N_("How long: 30m, 2h, 7d."))
@_REASON
@click.pass_context
def mute_command(ctx: click.Context, name: str, duration: str, reason: str) -> None:
    """Mute an account's chat for a time: it may not chat anywhere until then."""
    from passing_game.web.chat.moderation import mute, parse_duration

    with _store(ctx) as store, _refusals():
        until = mute(store, name, parse_duration(duration), actor=ctx.obj["actor"], reason=reason)
    click.echo(
        _("{name} may not chat until {when}.").format(
            name=name, when=time.strftime("%Y-%m-%d %H:%M", time.localtime(until))
        )
    )


@chat_command.command(
    "close", cls=TranslatedCommand, help=N_("Close a report without acting on its message.")
)
@click.argument("report", type=click.IntRange(1, 2**62))
@_REASON
@click.pass_context
def close_command(ctx: click.Context, report: int, reason: str) -> None:
    """Close a report without acting on its message."""
    from passing_game.web.chat.moderation import close

    with _store(ctx) as store, _refusals():
        close(store, report, actor=ctx.obj["actor"], reason=reason)
    click.echo(_("Report {id} is closed.").format(id=report))


__all__ = ["chat_command"]
