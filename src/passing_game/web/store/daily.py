"""The daily deal's attempts (``web_daily``): the rows of ``web/daily.py`` (P31).

One row per day and account: the table it plays, when it began, and the
hashes of the person's name key and address, so that one person playing a
second time under another account is found. A new attempt is made under
``lock`` (``DAILY_LOCK``): two at once cannot both pass the checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passing_game.web.store.rows import DailyAttempt, DailyPlayer

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx

#: The lock under which processes start daily attempts ("dail").
DAILY_LOCK = 0x6461_696C


def lock(tx: Tx) -> None:
    """Hold the daily deal's lock until the transaction ends (``Tx.lock``)."""
    tx.lock(DAILY_LOCK)


def table_of(tx: Tx, day: str, user_id: str) -> str | None:
    """The account's table of the day, if it has one."""
    row = tx.one("SELECT code FROM web_daily WHERE day = ? AND user_id = ?", (day, user_id))
    return None if row is None else str(row[0])


def player(tx: Tx, user_id: str) -> DailyPlayer | None:
    """The live account."""
    row = tx.one(
        "SELECT name, name_key, created, address_hash FROM web_users WHERE id = ? AND deleted = 0",
        (user_id,),
    )
    if row is None:
        return None
    return DailyPlayer(str(row[0]), str(row[1]), float(row[2]), row[3])


def played_by_name(tx: Tx, day: str, name_hash: str, user_id: str) -> bool:
    """Whether another account of this name key played the day's deal."""
    found = tx.one(
        "SELECT 1 FROM web_daily WHERE day = ? AND name_hash = ? AND user_id <> ?",
        (day, name_hash, user_id),
    )
    return found is not None


def played_from(tx: Tx, day: str, address_hash: str, user_id: str) -> bool:
    """Whether another account played the day's deal from this address."""
    found = tx.one(
        "SELECT 1 FROM web_daily WHERE day = ? AND address_hash = ? AND user_id <> ?",
        (day, address_hash, user_id),
    )
    return found is not None


def insert(
    tx: Tx,
    day: str,
    user_id: str,
    code: str,
    now: float,
    name_hash: str,
    address_hash: str | None,
) -> None:
    tx.run(
        "INSERT INTO web_daily (day, user_id, code, started, name_hash,"
        " address_hash) VALUES (?, ?, ?, ?, ?, ?)",
        (day, user_id, code, now, name_hash, address_hash),
    )


def attempts(tx: Tx, day: str) -> list[DailyAttempt]:
    """The day's attempts of accounts not suspended, in the order they began."""
    rows = tx.all(
        "SELECT d.user_id, u.name, d.code, d.started, g.finished, g.record"
        " FROM web_daily d JOIN web_users u ON u.id = d.user_id"
        " JOIN web_games g ON g.code = d.code AND g.game = 1"
        " WHERE d.day = ? AND u.suspended = 0 ORDER BY d.started",
        (day,),
    )
    return [
        DailyAttempt(
            str(r[0]),
            str(r[1]),
            str(r[2]),
            float(r[3]),
            bool(r[4]),
            None if r[5] is None else str(r[5]),
        )
        for r in rows
    ]


__all__ = [
    "DAILY_LOCK",
    "attempts",
    "insert",
    "lock",
    "played_by_name",
    "played_from",
    "player",
    "table_of",
]
