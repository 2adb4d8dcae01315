"""Keeping the site clean: the moderators' actions on the store (issue 13, item 9).

``passing-game admin`` (cli/admin.py) calls these against the same database
the servers use. Each action and its line in ``web_admin_log`` (when, who,
what, on whom, why) are one transaction: an action is never done without
its reason kept, nor logged without being done.

- ``rename``: the account's name, and the name in its seats and in its
  finished games' records. History and leaderboards always show an
  account's current name; a table a server holds in memory at that moment
  shows the old name at the table until it is loaded again.
- ``suspend``: the account cannot sign in (``Accounts.sign_in`` refuses it,
  ``Accounts.user_of`` no longer knows its sessions, which are closed) and
  leaves the leaderboards; its ratings are kept. Every server process closes
  the account's sockets and gives its seats to stand-ins within seconds
  (``Lobby._watch_accounts``: this command has no bus). ``restore`` undoes it.
- ``unrate``: a game leaves the ratings (``ratings.unrate_tx``).
- ``recovery_code``: one more recovery code for an account whose person lost
  the password and the codes (``accounts/recovery.py``); the log names the
  account, never the code. A bot account has no password, and gets none.
- Bot accounts (P62): suspending a person suspends their bots with them
  (``held``), restoring them restores those; ``bots`` lists every bot and
  ``revoke_bot`` takes a bot's token away (its socket closes within seconds).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

from passing_game.i18n import _, ngettext
from passing_game.web.accounts.flows import check_user_name, name_key, rename_seats
from passing_game.web.accounts.names import skeleton
from passing_game.web.accounts.recovery import clean, code_hash, new_code
from passing_game.web.protocol import ProtocolError
from passing_game.web.ratings.service import BOT_POOLS, POOLS, RatingError, display, unrate_tx
from passing_game.web.store import Store, Tx
from passing_game.web.store import accounts as users
from passing_game.web.store import admin as moderation
from passing_game.web.store import bots as bot_rows
from passing_game.web.store import ratings as rating_rows
from passing_game.web.store import recovery as codes_rows
from passing_game.web.store import tournaments as tournament_rows
from passing_game.web.store.bots import BotRow
from passing_game.web.store.rows import LogEntry
from passing_game.web.tournament.director import parse_settings
from passing_game.web.tournament.model import Event, TournamentError

#: The longest reason kept.
MAX_REASON = 500
#: The actions ``web_admin_log`` holds.
ACTIONS = (
    "rename",
    "suspend",
    "restore",
    "unrate",
    "tournament",
    "recovery",
    "chat-delete",  # the chat's (web/chat/moderation.py)
    "chat-mute",
    "chat-close",
    "ladder",  # a ladder of agents published (web/ladder/service.py)
    "bot-revoke",
)


class AdminError(ValueError):
    """An action refused (no such account, a reason missing...); ``str(exc)`` says why."""


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    created: float
    suspended: bool
    deleted: bool
    #: Pool -> (displayed rating, games rated).
    ratings: dict[str, tuple[int, int]]

    @property
    def state(self) -> str:
        return "deleted" if self.deleted else "suspended" if self.suspended else "active"


def check_reason(reason: Any) -> str:
    text = " ".join(str(reason or "").split())
    if not text:
        raise AdminError(_("give a reason (--reason): every action is logged with one"))
    if len(text) > MAX_REASON:
        raise AdminError(
            ngettext(
                "a reason has at most {n} character",
                "a reason has at most {n} characters",
                MAX_REASON,
            ).format(n=MAX_REASON)
        )
    return text


def accounts(store: Store, search: str | None = None, limit: int = 100) -> list[Account]:
    """Accounts, oldest first; ``search`` keeps those whose name contains it."""
    with store.transaction() as tx:
        found = []
        for row in moderation.find_accounts(tx, name_key(search) if search else None, limit):
            ratings = {
                rating.pool: (display(rating.mu, rating.sigma), rating.games)
                for rating in rating_rows.rated_pools(tx, row.id)
            }
            found.append(
                Account(
                    row.id,
                    row.name,
                    row.created,
                    row.suspended,
                    row.deleted,
                    {p: ratings[p] for p in POOLS + BOT_POOLS if p in ratings},
                )
            )
    return found


def _find(tx: Tx, name: str) -> tuple[str, str, bool]:
    """The live account called ``name`` (case and width folded): id, name, suspended."""
    found = moderation.live_account(tx, name_key(" ".join(str(name).split())))
    if found is None:
        raise AdminError(_("there is no account called “{name}”").format(name=name))
    return found


def _log(tx: Tx, actor: str, action: str, target: str, reason: str) -> None:
    moderation.log(tx, LogEntry(time.time(), actor, action, target, reason))


def rename(store: Store, name: str, new: str, *, actor: str, reason: str) -> str:
    """Give an account a new name; the new name as kept."""
    reason = check_reason(reason)
    try:
        new = check_user_name(new)
    except ProtocolError as exc:
        raise AdminError(str(exc)) from None
    look = skeleton(new)
    with store.transaction() as tx:
        user, old, _suspended = _find(tx, name)
        if moderation.name_used(tx, name_key(new), look, user):
            raise AdminError(_("the name “{name}” is taken").format(name=new))
        moderation.set_name(tx, user, new, name_key(new), look)
        rename_seats(tx, user, new)
        _log(tx, actor, "rename", f"{old} -> {new} [{user}]", reason)
    return new


def suspend(store: Store, name: str, *, actor: str, reason: str) -> None:
    """The account cannot sign in and leaves the leaderboards; its sessions close."""
    reason = check_reason(reason)
    with store.transaction() as tx:
        user, shown, suspended = _find(tx, name)
        if suspended:
            raise AdminError(_("{name} is already suspended").format(name=shown))
        moderation.set_suspended(tx, user, True)
        users.end_sessions_of(tx, user)
        bot_rows.unhold(tx, user)  # a bot suspended by name stays so, whatever its owner
        held = bot_rows.hold(tx, user)  # a person's bots stop with them
        _log(tx, actor, "suspend", _with_bots(f"{shown} [{user}]", held), reason)


def restore(store: Store, name: str, *, actor: str, reason: str) -> None:
    """A suspended account may sign in again and is back on the leaderboards."""
    reason = check_reason(reason)
    with store.transaction() as tx:
        user, shown, suspended = _find(tx, name)
        if not suspended:
            raise AdminError(_("{name} is not suspended").format(name=shown))
        moderation.set_suspended(tx, user, False)
        bot_rows.unhold(tx, user)
        freed = bot_rows.release(tx, user)
        _log(tx, actor, "restore", _with_bots(f"{shown} [{user}]", freed), reason)


def _with_bots(target: str, bots: list[str]) -> str:
    """The log's target, with the bot accounts that went with it."""
    return f"{target} + bots [{', '.join(bots)}]" if bots else target


def unrate(store: Store, code: str, game: int, *, actor: str, reason: str) -> list[str]:
    """Take a game out of the ratings; the names of the accounts it changes."""
    reason = check_reason(reason)
    try:
        with store.transaction() as tx:
            changed = unrate_tx(tx, code, game)
            names = [
                name for user in changed if (name := moderation.account_name(tx, user)) is not None
            ]
            _log(tx, actor, "unrate", f"{code}/{game}", reason)
    except RatingError as exc:
        raise AdminError(str(exc)) from None
    return names


def recovery_code(store: Store, name: str, *, actor: str, reason: str) -> str:
    """One more one-time recovery code for the account, to give to its person."""
    reason = check_reason(reason)
    code = new_code()
    with store.transaction() as tx:
        user, shown, _suspended = _find(tx, name)
        if bot_rows.bot(tx, user) is not None:
            raise AdminError(
                _(
                    "{name} is a bot account: it has no password; its owner makes it a new token"
                ).format(name=shown)
            )
        codes_rows.add_codes(tx, user, [code_hash(user, str(clean(code)))], time.time())
        _log(tx, actor, "recovery", f"{shown} [{user}]", reason)
    return code


def bots(store: Store, search: str | None = None, limit: int = 100) -> list[BotRow]:
    """Bot accounts, oldest first; ``search`` keeps those whose name or owner's holds it."""
    with store.transaction() as tx:
        return bot_rows.find(tx, name_key(search) if search else None, limit)


def revoke_bot(store: Store, name: str, *, actor: str, reason: str) -> None:
    """No token works for the bot any more (its owner may make a new one)."""
    reason = check_reason(reason)
    with store.transaction() as tx:
        user, shown, _suspended = _find(tx, name)
        found = bot_rows.bot(tx, user)
        if found is None:
            raise AdminError(_("{name} is not a bot account").format(name=shown))
        if not found.token:
            raise AdminError(_("{name} has no token to revoke").format(name=shown))
        bot_rows.set_token(tx, user, None, time.time())
        _log(tx, actor, "bot-revoke", f"{shown} [{user}]", reason)


def log_entries(store: Store, limit: int = 50) -> list[LogEntry]:
    """The moderators' log, newest first."""
    with store.transaction() as tx:
        return moderation.log_entries(tx, limit)


__all__ = [
    "ACTIONS",
    "MAX_REASON",
    "Account",
    "AdminError",
    "LogEntry",
    "accounts",
    "bots",
    "check_reason",
    "log_entries",
    "recovery_code",
    "rename",
    "restore",
    "revoke_bot",
    "suspend",
    "unrate",
]


def schedule(
    store: Store, settings: dict[str, Any], *, actor: str, reason: str, now: float
) -> Event:
    """A public tournament, listed on the lobby with its countdown (issue 26, item 1)."""
    reason = check_reason(reason)
    try:
        event = parse_settings(settings, creator=f"admin:{actor}", now=now, public=True)
    except TournamentError as exc:
        raise AdminError(str(exc)) from None
    with store.transaction() as tx:
        tournament_rows.insert(tx, event.id, asdict(event), now)
        _log(tx, actor, "tournament", f"{event.name} [{event.id}]", reason)
    return event
