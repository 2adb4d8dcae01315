"""Counted attempts (``web_attempts``): the rows of ``web/accounts/throttle.py``.

A key's row is its count, when it was last counted and since when it
counts. ``lock_attempts`` makes the row if missing and takes its lock, so
that two processes counting one key take turns (PostgreSQL; SQLite's write
lock already serialises every transaction).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx


def lock_attempts(tx: Tx, key: str, now: float) -> tuple[int, float, float]:
    """The key's (count, last, since), its row made if missing and locked until
    the transaction ends."""
    tx.run(
        "INSERT INTO web_attempts (key, since, count, last) VALUES (?, ?, 0, ?)"
        " ON CONFLICT (key) DO NOTHING",
        (key, now, now),
    )
    # A no-op write takes the row's lock (PostgreSQL): another process
    # counting this key waits here, then reads what this one wrote.
    tx.run("UPDATE web_attempts SET count = count WHERE key = ?", (key,))
    row = tx.one("SELECT count, last, since FROM web_attempts WHERE key = ?", (key,))
    return (int(row[0]), float(row[1]), float(row[2])) if row else (0, now, now)


def set_attempts(tx: Tx, key: str, count: int, last: float, since: float) -> None:
    tx.run(
        "UPDATE web_attempts SET count = ?, last = ?, since = ? WHERE key = ?",
        (count, last, since, key),
    )


def give_back(tx: Tx, key: str) -> None:
    """One attempt less (never below zero)."""
    tx.run("UPDATE web_attempts SET count = count - 1 WHERE key = ? AND count > 0", (key,))


def clear(tx: Tx, key: str) -> None:
    tx.run("DELETE FROM web_attempts WHERE key = ?", (key,))


def forget_before(tx: Tx, before: float) -> None:
    """The rows whose last attempt came before ``before``."""
    tx.run("DELETE FROM web_attempts WHERE last < ?", (before,))


__all__ = ["clear", "forget_before", "give_back", "lock_attempts", "set_attempts"]
