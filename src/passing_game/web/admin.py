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
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from passing_game.i18n import _, ngettext
from passing_game.web.accounts import check_user_name, name_key, rename_seats
from passing_game.web.names import skeleton
from passing_game.web.protocol import ProtocolError
from passing_game.web.ratings import POOLS, RatingError, display, unrate_tx
from passing_game.web.store import Store, Tx

#: The longest reason kept.
MAX_REASON = 500
#: The actions ``web_admin_log`` holds.
ACTIONS = ("rename", "suspend", "restore", "unrate")


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


@dataclass(frozen=True)
class LogEntry:
    at: float
    actor: str
    action: str
    target: str
    reason: str


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


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def accounts(store: Store, search: str | None = None, limit: int = 100) -> list[Account]:
    """Accounts, oldest first; ``search`` keeps those whose name contains it."""
    with store.transaction() as tx:
        if search:
            rows = tx.all(
                "SELECT id, name, created, suspended, deleted FROM web_users"
                " WHERE name_key LIKE ? ESCAPE '\\' ORDER BY created, id LIMIT ?",
                (_like(name_key(search)), limit),
            )
        else:
            rows = tx.all(
                "SELECT id, name, created, suspended, deleted FROM web_users"
                " ORDER BY created, id LIMIT ?",
                (limit,),
            )
        found = []
        for row in rows:
            ratings = {
                str(pool): (display(float(mu), float(sigma)), int(games))
                for pool, mu, sigma, games in tx.all(
                    "SELECT pool, mu, sigma, games FROM web_ratings"
                    " WHERE user_id = ? AND games > 0",
                    (row[0],),
                )
            }
            found.append(
                Account(
                    str(row[0]),
                    str(row[1]),
                    float(row[2]),
                    bool(row[3]),
                    bool(row[4]),
                    {p: ratings[p] for p in POOLS if p in ratings},
                )
            )
    return found


def _find(tx: Tx, name: str) -> tuple[str, str, bool]:
    """The live account called ``name`` (case and width folded): id, name, suspended."""
    row = tx.one(
        "SELECT id, name, suspended FROM web_users WHERE name_key = ? AND deleted = 0",
        (name_key(" ".join(str(name).split())),),
    )
    if row is None:
        raise AdminError(_("there is no account called {name!r}").format(name=name))
    return str(row[0]), str(row[1]), bool(row[2])


def _log(tx: Tx, actor: str, action: str, target: str, reason: str) -> None:
    tx.run(
        "INSERT INTO web_admin_log (at, actor, action, target, reason) VALUES (?, ?, ?, ?, ?)",
        (time.time(), actor, action, target, reason),
    )


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
        other = tx.one(
            "SELECT id FROM web_users WHERE (name_key = ? OR name_skeleton = ?) AND id <> ?"
            " AND deleted = 0",
            (name_key(new), look, user),
        )
        if other is not None:
            raise AdminError(_("the name {name!r} is taken").format(name=new))
        tx.run(
            "UPDATE web_users SET name = ?, name_key = ?, name_skeleton = ? WHERE id = ?",
            (new, name_key(new), look, user),
        )
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
        tx.run("UPDATE web_users SET suspended = 1 WHERE id = ?", (user,))
        tx.run("DELETE FROM web_sessions WHERE user_id = ?", (user,))
        _log(tx, actor, "suspend", f"{shown} [{user}]", reason)


def restore(store: Store, name: str, *, actor: str, reason: str) -> None:
    """A suspended account may sign in again and is back on the leaderboards."""
    reason = check_reason(reason)
    with store.transaction() as tx:
        user, shown, suspended = _find(tx, name)
        if not suspended:
            raise AdminError(_("{name} is not suspended").format(name=shown))
        tx.run("UPDATE web_users SET suspended = 0 WHERE id = ?", (user,))
        _log(tx, actor, "restore", f"{shown} [{user}]", reason)


def unrate(store: Store, code: str, game: int, *, actor: str, reason: str) -> list[str]:
    """Take a game out of the ratings; the names of the accounts it changes."""
    reason = check_reason(reason)
    try:
        with store.transaction() as tx:
            users = unrate_tx(tx, code, game)
            names = [
                str(row[0])
                for user in users
                if (row := tx.one("SELECT name FROM web_users WHERE id = ?", (user,))) is not None
            ]
            _log(tx, actor, "unrate", f"{code}/{game}", reason)
    except RatingError as exc:
        raise AdminError(str(exc)) from None
    return names


def log_entries(store: Store, limit: int = 50) -> list[LogEntry]:
    """The moderators' log, newest first."""
    with store.transaction() as tx:
        rows = tx.all(
            "SELECT at, actor, action, target, reason FROM web_admin_log ORDER BY at DESC LIMIT ?",
            (limit,),
        )
    return [LogEntry(float(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4])) for r in rows]


__all__ = [
    "ACTIONS",
    "MAX_REASON",
    "Account",
    "AdminError",
    "LogEntry",
    "accounts",
    "check_reason",
    "log_entries",
    "rename",
    "restore",
    "suspend",
    "unrate",
]
