"""``passing-game admin``: keep the site clean, against the servers' own database.

::

    passing-game admin [--db URL] [--actor NAME] accounts [--search TEXT]
    passing-game admin rename NAME NEW --reason TEXT
    passing-game admin suspend NAME --reason TEXT
    passing-game admin restore NAME --reason TEXT
    passing-game admin unrate CODE GAME --reason TEXT
    passing-game admin log [--limit N]
    passing-game admin chat reports|delete|mute|close ...   (cli/admin_chat.py)
    passing-game admin ladder publish FILE --reason TEXT | ladder show   (cli/admin_ladder.py)
    passing-game admin bots list|revoke ...                 (cli/admin_bots.py)
    passing-game admin tournament NAME --kind swiss|arena|duplicate --starts "YYYY-MM-DD HH:MM"
        [--size 2|4] [--rounds N] [--minutes N] [--clock 20|45|90] [--rated]
        [--target N] [--min-finished SHARE] [--bots N [--bot-level LEVEL]] --reason TEXT

Every action is kept in the moderators' log with its reason (``admin log``).
Bad input (an unknown account, a missing reason, a game that was not rated)
is a usage error with a clear message, never a traceback. The work itself is
``passing_game.web.admin``.
"""

from __future__ import annotations

import getpass
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import click

from passing_game.cli.options import TranslatedCommand, TranslatedGroup, option
from passing_game.cli.sources import open_web_store
from passing_game.i18n import N_, _, ngettext, pgettext


def _default_actor() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no user name in this environment
        return "admin"


@click.group(
    "admin",
    cls=TranslatedGroup,
    help=N_("Moderate the web site: accounts, names, suspensions and ratings."),
)
@option(
    "--db",
    default=None,
    metavar="URL",
    help=N_(
        "The web site's database: sqlite:///FILE (default sqlite:///data/passing-game.sqlite3)"
        " or postgresql://USER:PASSWORD@HOST/DB."
    ),
)
@option(
    "--actor",
    default=None,
    metavar="NAME",
    help=N_("Who acts, as the log keeps it (default: your login name)."),
)
@click.pass_context
def admin_command(ctx: click.Context, db: str | None, actor: str | None) -> None:
    """Moderate the web site: accounts, names, suspensions and ratings."""
    ctx.obj = {"db": db, "actor": (actor or "").strip() or _default_actor()}


@contextmanager
def _store(ctx: click.Context) -> Iterator[Any]:
    """The site's store, opened as ``serve`` opens it; its errors as clear messages."""
    store = open_web_store(ctx.obj["db"])
    try:
        yield store
    finally:
        store.close()


@contextmanager
def _refusals() -> Iterator[None]:
    """An action the store refuses becomes a usage error."""
    from passing_game.web.admin import AdminError

    try:
        yield
    except AdminError as exc:
        raise click.UsageError(str(exc)) from None


def _when(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


def _columns(rows: Sequence[Sequence[str]]) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())


_REASON = option(
    "--reason",
    required=True,
    metavar="TEXT",
    help=N_("Why: kept in the moderators' log with the action."),
)


def _code(value: str) -> str:
    from passing_game.web.protocol import ProtocolError, clean_code

    try:
        return clean_code(value)
    except ProtocolError as exc:
        raise click.BadParameter(str(exc), param_hint="CODE") from None


@admin_command.command(
    "accounts", cls=TranslatedCommand, help=N_("List the accounts, with their ratings.")
)
@option("--search", default=None, metavar="TEXT", help=N_("Only names that contain TEXT."))
@option(
    "--limit",
    type=click.IntRange(1, 10000),
    default=100,
    show_default=True,
    help=N_("At most this many."),
)
@click.pass_context
def accounts_command(ctx: click.Context, search: str | None, limit: int) -> None:
    """List the accounts, with their ratings."""
    from passing_game.web.admin import accounts

    with _store(ctx) as store:
        found = accounts(store, search, limit)
    if not found:
        click.echo(_("No accounts."))
        return
    states = {"active": _("active"), "suspended": _("suspended"), "deleted": _("deleted")}
    rows = [[_("name"), _("id"), _("created"), _("state"), _("ratings")]]
    for account in found:
        ratings = ", ".join(
            ngettext(
                "{pool}: {rating} ({games} game)", "{pool}: {rating} ({games} games)", games
            ).format(pool=pool, rating=rating, games=games)
            for pool, (rating, games) in account.ratings.items()
        )
        rows.append(
            [account.name, account.id, _when(account.created), states[account.state], ratings]
        )
    _columns(rows)


@admin_command.command("rename", cls=TranslatedCommand, help=N_("Give an account a new name."))
@click.argument("name")
@click.argument("new")
@_REASON
@click.pass_context
def rename_command(ctx: click.Context, name: str, new: str, reason: str) -> None:
    """Give an account a new name."""
    from passing_game.web.admin import rename

    with _store(ctx) as store, _refusals():
        kept = rename(store, name, new, actor=ctx.obj["actor"], reason=reason)
    click.echo(_("{old} is now called {new}.").format(old=name, new=kept))


@admin_command.command(
    "suspend",
    cls=TranslatedCommand,
    help=N_("Suspend an account: it cannot sign in and leaves the leaderboards."),
)
@click.argument("name")
@_REASON
@click.pass_context
def suspend_command(ctx: click.Context, name: str, reason: str) -> None:
    """Suspend an account: it cannot sign in and leaves the leaderboards."""
    from passing_game.web.admin import suspend

    with _store(ctx) as store, _refusals():
        suspend(store, name, actor=ctx.obj["actor"], reason=reason)
    click.echo(_("{name} is suspended.").format(name=name))


@admin_command.command(
    "recovery",
    cls=TranslatedCommand,
    help=N_("Give an account one more recovery code, for a person who lost the password."),
)
@click.argument("name")
@_REASON
@click.pass_context
def recovery_command(ctx: click.Context, name: str, reason: str) -> None:
    """Give an account one more recovery code, for a person who lost the password."""
    from passing_game.web.admin import recovery_code

    with _store(ctx) as store, _refusals():
        code = recovery_code(store, name, actor=ctx.obj["actor"], reason=reason)
    click.echo(_("A recovery code for {name}: {code}").format(name=name, code=code))
    click.echo(_("It works once. Give it to its person yourself: it is kept nowhere in clear."))


@admin_command.command("restore", cls=TranslatedCommand, help=N_("Restore a suspended account."))
@click.argument("name")
@_REASON
@click.pass_context
def restore_command(ctx: click.Context, name: str, reason: str) -> None:
    """Restore a suspended account."""
    from passing_game.web.admin import restore

    with _store(ctx) as store, _refusals():
        restore(store, name, actor=ctx.obj["actor"], reason=reason)
    click.echo(_("{name} is restored.").format(name=name))


@admin_command.command(
    "unrate",
    cls=TranslatedCommand,
    help=N_("Take a game out of the ratings (its players' ratings are replayed without it)."),
)
@click.argument("code")
@click.argument("game", type=click.IntRange(1, 2**31 - 1))
@_REASON
@click.pass_context
def unrate_command(ctx: click.Context, code: str, game: int, reason: str) -> None:
    """Take a game out of the ratings (its players' ratings are replayed without it)."""
    from passing_game.web.admin import unrate

    table = _code(code)
    with _store(ctx) as store, _refusals():
        names = unrate(store, table, game, actor=ctx.obj["actor"], reason=reason)
    click.echo(
        _("Game {game} of table {code} is out of the ratings; replayed: {names}.").format(
            game=game, code=table, names=", ".join(names)
        )
    )


def _action_word(action: str) -> str:
    """A logged action (``web.admin.ACTIONS``) as the moderator reads it in the log."""
    words = {
        # TRANSLATORS: the moderators' log's "action" column: an account was renamed.
        "rename": pgettext("moderators' log", "rename"),
        # TRANSLATORS: the moderators' log's "action" column: an account was suspended.
        "suspend": pgettext("moderators' log", "suspend"),
        # TRANSLATORS: the moderators' log's "action" column: a suspended account was restored.
        "restore": pgettext("moderators' log", "restore"),
        # TRANSLATORS: the moderators' log's "action" column: a game was taken out of the ratings.
        "unrate": pgettext("moderators' log", "unrate"),
        # TRANSLATORS: the moderators' log's "action" column: a public tournament was scheduled.
        "tournament": pgettext("moderators' log", "tournament"),
        # TRANSLATORS: the moderators' log's "action" column: a chat message was deleted.
        "chat-delete": pgettext("moderators' log", "chat: delete"),
        # TRANSLATORS: the moderators' log's "action" column: an account's chat was muted.
        "chat-mute": pgettext("moderators' log", "chat: mute"),
        # TRANSLATORS: the moderators' log's "action" column: a chat report closed, no action.
        "chat-close": pgettext("moderators' log", "chat: close report"),
        # TRANSLATORS: the moderators' log's "action" column: a ladder of agents was published.
        "ladder": pgettext("moderators' log", "ladder: publish"),
        # TRANSLATORS: the moderators' log's "action" column: a bot account's token revoked.
        "bot-revoke": pgettext("moderators' log", "bot: revoke token"),
    }
    return words.get(action, action)


@admin_command.command("log", cls=TranslatedCommand, help=N_("Show the moderators' log."))
@option(
    "--limit",
    type=click.IntRange(1, 10000),
    default=50,
    show_default=True,
    help=N_("At most this many, newest first."),
)
@click.pass_context
def log_command(ctx: click.Context, limit: int) -> None:
    """Show the moderators' log."""
    from passing_game.web.admin import log_entries

    with _store(ctx) as store:
        entries = log_entries(store, limit)
    if not entries:
        click.echo(_("The log is empty."))
        return
    # TRANSLATORS: the moderators' log's columns; "target" is the account or game acted on.
    rows = [[_("when"), _("who"), _("action"), _("target"), _("reason")]]
    rows += [[_when(e.at), e.actor, _action_word(e.action), e.target, e.reason] for e in entries]
    _columns(rows)


@admin_command.command(
    "tournament",
    cls=TranslatedCommand,
    help=N_("Schedule a public tournament: listed on the lobby, with a countdown to its start."),
)
@click.argument("name")
@option(
    "--kind",
    type=click.Choice(["swiss", "arena", "duplicate"]),
    required=True,
    help=N_("The kind of tournament."),
)
@option(
    "--starts",
    required=True,
    metavar="'YYYY-MM-DD HH:MM'",
    help=N_("When it starts (this computer's time)."),
)
@option(
    "--size",
    type=click.Choice(["2", "4"]),
    default="2",
    show_default=True,
    help=N_("People at a table (4: in partnerships)."),
)
@option("--rounds", type=int, default=None, help=N_("Swiss and duplicate: how many rounds."))
@option("--minutes", type=int, default=None, help=N_("Arena: how long pairing goes on."))
@option(
    "--clock",
    type=click.Choice(["20", "45", "90"]),
    default="45",
    show_default=True,
    help=N_("Seconds a move."),
)
@option("--rated", is_flag=True, help=N_("Its games change the players' ratings."))
@option("--target", type=int, default=None, help=N_("Each game's target score."))
@option(
    "--min-finished",
    type=float,
    default=None,
    metavar="SHARE",
    help=N_("The share of games a person must have finished to join (0 to 1)."),
)
@option(
    "--bots",
    type=int,
    default=None,
    metavar="N",
    help=N_("Computer players taking part as entrants, paired and ranked as anyone."),
)
@option(
    "--bot-level",
    default=None,
    metavar="LEVEL",
    help=N_("The computer players' level: easy, medium, hard or expert."),
)
@_REASON
@click.pass_context
def tournament_command(
    ctx: click.Context,
    name: str,
    kind: str,
    starts: str,
    size: str,
    rounds: int | None,
    minutes: int | None,
    clock: str,
    rated: bool,
    target: int | None,
    min_finished: float | None,
    bots: int | None,
    bot_level: str | None,
    reason: str,
) -> None:
    """Schedule a public tournament: listed on the lobby, with a countdown to its start."""
    from passing_game.web.admin import schedule

    try:
        at = time.mktime(time.strptime(starts.strip(), "%Y-%m-%d %H:%M"))
    except ValueError:
        raise click.BadParameter(_("write it as YYYY-MM-DD HH:MM"), param_hint="--starts") from None
    given = {
        "kind": kind,
        "name": name,
        "starts": at,
        "size": int(size),
        "clock": clock,
        "rated": rated,
    }
    for key, value in (
        ("rounds", rounds),
        ("minutes", minutes),
        ("target", target),
        ("min_finished", min_finished),
        ("bots", bots),
        ("bot_level", bot_level),
    ):
        if value is not None:
            given[key] = value
    with _store(ctx) as store, _refusals():
        event = schedule(store, given, actor=ctx.obj["actor"], reason=reason, now=time.time())
    click.echo(_("{name} is scheduled: /tournament/{id}").format(name=event.name, id=event.id))


# ``admin chat ...`` (issue 27, item 1), ``admin bots ...`` (issue 28, item 4) and
# ``admin ladder ...`` (issue 28, item 5): each its own module, registered on this group.
import passing_game.cli.admin_bots  # noqa: E402
import passing_game.cli.admin_chat  # noqa: E402
import passing_game.cli.admin_ladder  # noqa: E402, F401
