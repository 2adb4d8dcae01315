"""The moderators' reads and writes on accounts, and their log (``web_admin_log``).

The rows of ``web/admin.py``: each action and its line in the log are one
transaction there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passing_game.web.store.rows import AccountRow, LogEntry

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def find_accounts(tx: Tx, name_key: str | None, limit: int) -> list[AccountRow]:
    """Accounts, oldest first; with ``name_key``, those whose name key contains it."""
    if name_key is not None:
        rows = tx.all(
            "SELECT id, name, created, suspended, deleted FROM web_users"
            " WHERE name_key LIKE ? ESCAPE '\\' ORDER BY created, id LIMIT ?",
            (_like(name_key), limit),
        )
    else:
        rows = tx.all(
            "SELECT id, name, created, suspended, deleted FROM web_users"
            " ORDER BY created, id LIMIT ?",
            (limit,),
        )
    return [AccountRow(str(r[0]), str(r[1]), float(r[2]), bool(r[3]), bool(r[4])) for r in rows]


def live_account(tx: Tx, name_key: str) -> tuple[str, str, bool] | None:
    """The live account of this name key: (id, name, suspended)."""
    row = tx.one(
        "SELECT id, name, suspended FROM web_users WHERE name_key = ? AND deleted = 0",
        (name_key,),
    )
    return None if row is None else (str(row[0]), str(row[1]), bool(row[2]))


def name_used(tx: Tx, name_key: str, skeleton: str, user_id: str) -> bool:
    """Whether another live account has this name, or one that looks like it."""
    other = tx.one(
        "SELECT id FROM web_users WHERE (name_key = ? OR name_skeleton = ?) AND id <> ?"
        " AND deleted = 0",
        (name_key, skeleton, user_id),
    )
    return other is not None


def set_name(tx: Tx, user_id: str, name: str, name_key: str, skeleton: str) -> None:
    tx.run(
        "UPDATE web_users SET name = ?, name_key = ?, name_skeleton = ? WHERE id = ?",
        (name, name_key, skeleton, user_id),
    )


def set_suspended(tx: Tx, user_id: str, suspended: bool) -> None:
    if suspended:
        tx.run("UPDATE web_users SET suspended = 1 WHERE id = ?", (user_id,))
    else:
        tx.run("UPDATE web_users SET suspended = 0 WHERE id = ?", (user_id,))


def account_name(tx: Tx, user_id: str) -> str | None:
    row = tx.one("SELECT name FROM web_users WHERE id = ?", (user_id,))
    return None if row is None else str(row[0])


def log(tx: Tx, entry: LogEntry) -> None:
    tx.run(
        "INSERT INTO web_admin_log (at, actor, action, target, reason) VALUES (?, ?, ?, ?, ?)",
        (entry.at, entry.actor, entry.action, entry.target, entry.reason),
    )


def log_entries(tx: Tx, limit: int) -> list[LogEntry]:
    """The log, newest first."""
    rows = tx.all(
        "SELECT at, actor, action, target, reason FROM web_admin_log ORDER BY at DESC LIMIT ?",
        (limit,),
    )
    return [LogEntry(float(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4])) for r in rows]


__all__ = [
    "account_name",
    "find_accounts",
    "live_account",
    "log",
    "log_entries",
    "name_used",
    "set_name",
    "set_suspended",
]
