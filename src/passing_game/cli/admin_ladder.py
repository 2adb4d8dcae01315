"""``passing-game admin ladder``: put a ladder of agents on the site's /ladder page (P63).

::

    passing-game admin ladder publish FILE --reason TEXT
    passing-game admin ladder show

``FILE`` is what ``passing-game arena --ladder --json FILE`` wrote. It is
checked whole before anything is stored (``web.ladder.model``): a file the
site will not show is a usage error saying what is wrong, and nothing
changes. Publishing is in ``admin log`` with its reason. The work itself is
``passing_game.web.ladder.service``.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from passing_game.cli.admin import _REASON, _refusals, _store, _when, admin_command
from passing_game.cli.options import TranslatedCommand, TranslatedGroup
from passing_game.i18n import N_, _, ngettext


@admin_command.group(
    "ladder",
    cls=TranslatedGroup,
    help=N_("The ladder of computer players on the site's /ladder page."),
)
def ladder_command() -> None:
    """The ladder of computer players on the site's /ladder page."""


def _read(path: Path) -> bytes:
    from passing_game.web.ladder.model import MAX_BYTES

    try:
        if path.stat().st_size > MAX_BYTES:
            raise click.UsageError(
                _("{file} is larger than {n} KB: not a ladder file").format(
                    file=path, n=MAX_BYTES // 1024
                )
            )
        return path.read_bytes()
    except OSError as exc:
        raise click.UsageError(
            _("cannot read {file}: {error}").format(file=path, error=exc.strerror or exc)
        ) from None


@ladder_command.command(
    "publish",
    cls=TranslatedCommand,
    help=N_(
        "Publish a ladder (a file of passing-game arena --ladder --json): the site's /ladder "
        "page shows it from now on."
    ),
)
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@_REASON
@click.pass_context
def publish_command(ctx: click.Context, file: Path, reason: str) -> None:
    """Publish a ladder: the site's /ladder page shows it from now on."""
    from passing_game.web.ladder.service import publish

    text = _read(file)
    with _store(ctx) as store, _refusals():
        number, document = publish(store, text, actor=ctx.obj["actor"], reason=reason)
    agents = document["agents"]
    click.echo(
        ngettext(
            "Ladder {number} is on the site's /ladder page: {n} agent, led by {best}.",
            "Ladder {number} is on the site's /ladder page: {n} agents, led by {best}.",
            len(agents),
        ).format(number=number, n=len(agents), best=agents[0]["label"])
    )


@ladder_command.command(
    "show", cls=TranslatedCommand, help=N_("Show the ladder the site shows now.")
)
@click.pass_context
def show_command(ctx: click.Context) -> None:
    """Show the ladder the site shows now."""
    from passing_game.web.ladder.service import latest

    with _store(ctx) as store:
        found = latest(store)
    if found is None:
        click.echo(_("No ladder has been published yet."))
        return
    document = json.loads(found.document)
    run = document["run"]
    click.echo(
        _("Ladder {number}, published {when} by {actor}: {reason}").format(
            number=found.id, when=_when(found.published), actor=found.actor, reason=found.reason
        )
    )
    played = _when(run["finished"])
    click.echo(_("Played {when}: {command}").format(when=played, command=run["command"]))
    for rank, agent in enumerate(document["agents"], 1):
        net = agent["net"]
        ends = "" if net["low"] is None else f" [{net['low']:+.2f}, {net['high']:+.2f}]"
        click.echo(f"{rank:>3}  {agent['label']:<24} {net['estimate']:+.2f}{ends}")
