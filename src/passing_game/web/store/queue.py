"""The quick-play queue (``web_queue``): the rows of ``web/quickplay/service.py`` (P30).

Each waiting person is a row: a ticket, what they wait for, their name or
account, their seat token's hash, since when they wait and when their
process last said they still do (``seen``); once matched, the table's code
and their seat. Matching holds ``lock`` (``QUEUE_LOCK``) for its
transaction: two processes matching at once take turns, and a row is given
a seat only once (``seat_ticket``'s ``WHERE code IS NULL``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from passing_game.web.store.rows import QueueEntry, Ticket

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx

#: The lock under which processes match the queue ("quic").
QUEUE_LOCK = 0x7175_6963


def lock(tx: Tx) -> None:
    """Hold the queue's lock until the transaction ends (``Tx.lock``)."""
    tx.lock(QUEUE_LOCK)


def expire(tx: Tx, waiting_before: float, matched_before: float) -> None:
    """Forget the waiting rows not seen since ``waiting_before`` (their process
    died), and the matched ones not seen since ``matched_before``."""
    tx.run("DELETE FROM web_queue WHERE code IS NULL AND seen < ?", (waiting_before,))
    tx.run("DELETE FROM web_queue WHERE code IS NOT NULL AND seen < ?", (matched_before,))


def waits_elsewhere(tx: Tx, user_id: str, ticket: str, seen_since: float) -> bool:
    """Whether another live row of the account waits."""
    return bool(
        tx.one(
            "SELECT 1 FROM web_queue WHERE user_id = ? AND ticket <> ? AND code IS NULL"
            " AND seen >= ?",
            (user_id, ticket, seen_since),
        )
    )


def quick_table_of(tx: Tx, user_id: str) -> str | None:
    """The newest unfinished quick table where the account holds a seat it has not left."""
    playing = tx.one(
        "SELECT t.code FROM web_seats s JOIN web_tables t ON t.code = s.code"
        " JOIN web_games g ON g.code = t.code AND g.game = t.game"
        " WHERE s.user_id = ? AND s.kind = 'human' AND (s.away IS NULL OR s.away <> 'left')"
        " AND t.origin = 'quick' AND g.finished = 0 ORDER BY t.created DESC LIMIT 1",
        (user_id,),
    )
    return None if playing is None else str(playing[0])


def insert(tx: Tx, ticket: Ticket, now: float) -> None:
    tx.run(
        "INSERT INTO web_queue (ticket, players, rated, user_id, name, token_hash, since,"
        " seen, bots) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            ticket.ticket,
            ticket.players,
            int(ticket.rated),
            ticket.user_id,
            ticket.name,
            ticket.token_hash,
            ticket.since,
            now,
            ticket.bots,
        ),
    )


def waiting_count(tx: Tx, players: int, rated: bool, seen_since: float) -> int:
    row = tx.one(
        "SELECT COUNT(*) FROM web_queue WHERE players = ? AND rated = ? AND code IS NULL"
        " AND seen >= ?",
        (players, int(rated), seen_since),
    )
    return int(row[0]) if row else 0


def waiting(tx: Tx, players: int, rated: bool, seen_since: float) -> list[Ticket]:
    """The live rows waiting for this game, oldest first."""
    rows = tx.all(
        "SELECT ticket, user_id, name, token_hash, since, bots FROM web_queue"
        " WHERE players = ? AND rated = ? AND code IS NULL AND seen >= ?"
        " ORDER BY since, ticket",
        (players, int(rated), seen_since),
    )
    return [
        Ticket(
            str(r[0]),
            players,
            rated,
            None if r[1] is None else str(r[1]),
            str(r[2]),
            str(r[3]),
            float(r[4]),
            int(r[5]),
        )
        for r in rows
    ]


def seat_ticket(tx: Tx, ticket: str, code: str, seat: int, now: float) -> bool:
    """Give the waiting row its seat; ``False`` if it was given one already."""
    done = tx.run(
        "UPDATE web_queue SET code = ?, seat = ?, seen = ? WHERE ticket = ? AND code IS NULL",
        (code, seat, now, ticket),
    )
    return done == 1


def entry(tx: Tx, ticket: str) -> QueueEntry | None:
    row = tx.one("SELECT players, rated, code, seat FROM web_queue WHERE ticket = ?", (ticket,))
    if row is None:
        return None
    return QueueEntry(
        int(row[0]),
        bool(row[1]),
        None if row[2] is None else str(row[2]),
        None if row[3] is None else int(row[3]),
    )


def leave(tx: Tx, ticket: str) -> bool:
    """Drop the row if it still waits; whether it did."""
    return bool(tx.run("DELETE FROM web_queue WHERE ticket = ? AND code IS NULL", (ticket,)))


def seat_of(tx: Tx, ticket: str) -> tuple[str | None, int | None] | None:
    """The row's (code, seat) (``None``s while it waits; ``None``: no row)."""
    row = tx.one("SELECT code, seat FROM web_queue WHERE ticket = ?", (ticket,))
    if row is None:
        return None
    return (None if row[0] is None else str(row[0]), None if row[1] is None else int(row[1]))


def forget(tx: Tx, ticket: str) -> None:
    tx.run("DELETE FROM web_queue WHERE ticket = ?", (ticket,))


def poll(
    tx: Tx, tickets: Sequence[str], now: float, seen_since: float
) -> tuple[dict[str, tuple[str | None, int | None]], dict[tuple[int, bool], int]]:
    """The waiting ones of these tickets seen now; each ticket's (code, seat)
    (missing: dropped), and how many live rows wait for each game."""
    marks = ", ".join("?" for _t in tickets)
    tx.run(
        f"UPDATE web_queue SET seen = ? WHERE code IS NULL AND ticket IN ({marks})",
        (now, *tickets),
    )
    rows = tx.all(f"SELECT ticket, code, seat FROM web_queue WHERE ticket IN ({marks})", tickets)
    counts = tx.all(
        "SELECT players, rated, COUNT(*) FROM web_queue WHERE code IS NULL AND seen >= ?"
        " GROUP BY players, rated",
        (seen_since,),
    )
    found = {
        str(r[0]): (None if r[1] is None else str(r[1]), None if r[2] is None else int(r[2]))
        for r in rows
    }
    return found, {(int(p), bool(r)): int(n) for p, r, n in counts}


__all__ = [
    "QUEUE_LOCK",
    "entry",
    "expire",
    "forget",
    "insert",
    "leave",
    "lock",
    "poll",
    "quick_table_of",
    "seat_of",
    "seat_ticket",
    "waiting",
    "waiting_count",
    "waits_elsewhere",
]
