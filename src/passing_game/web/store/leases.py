"""Several processes on one database (issue 12): who is alive, who leads, who sits where.

``web_processes`` (a process's heartbeat), ``web_leases`` (the process that
leads a table, until ``expires``) and ``web_presence`` (how many clients of
which process sit at which seat). Only ``web/server/pgcluster.py`` asks, through
``Store``'s methods of the same names (docs/DECISIONS.md P28).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx


def heartbeat(tx: Tx, process: str, now: float, lease_for: float) -> list[str]:
    """``process`` is alive; its leases extended; the codes it holds."""
    tx.run(
        "INSERT INTO web_processes (id, started, heartbeat) VALUES (?, ?, ?)"
        " ON CONFLICT (id) DO UPDATE SET heartbeat = excluded.heartbeat",
        (process, now, now),
    )
    # A lease that lapsed (this process was too busy to beat in time)
    # and that nobody took since is still this process's: extended.
    tx.run("UPDATE web_leases SET expires = ? WHERE holder = ?", (now + lease_for, process))
    rows = tx.all("SELECT code FROM web_leases WHERE holder = ?", (process,))
    return [str(r[0]) for r in rows]


def claim_lease(tx: Tx, code: str, process: str, now: float, lease_for: float) -> bool:
    done = tx.run(
        "INSERT INTO web_leases (code, holder, expires) VALUES (?, ?, ?)"
        " ON CONFLICT (code) DO UPDATE SET holder = excluded.holder,"
        " expires = excluded.expires"
        " WHERE web_leases.expires < ? OR web_leases.holder = excluded.holder",
        (code, process, now + lease_for, now),
    )
    return bool(done == 1)


def lease_holder(tx: Tx, code: str, now: float) -> str | None:
    row = tx.one("SELECT holder FROM web_leases WHERE code = ? AND expires >= ?", (code, now))
    return None if row is None else str(row[0])


def release_leases(tx: Tx, process: str, codes: Sequence[str] | None = None) -> None:
    if codes is None:
        tx.run("DELETE FROM web_leases WHERE holder = ?", (process,))
        return
    for code in codes:
        tx.run("DELETE FROM web_leases WHERE holder = ? AND code = ?", (process, code))


def orphans(tx: Tx, now: float, limit: int = 100) -> list[str]:
    rows = tx.all(
        "SELECT t.code FROM web_tables t JOIN web_games g"
        " ON g.code = t.code AND g.game = t.game WHERE g.finished = 0"
        " AND NOT EXISTS (SELECT 1 FROM web_seats s WHERE s.code = t.code"
        " AND s.kind = 'open')"
        " AND NOT EXISTS (SELECT 1 FROM web_leases l WHERE l.code = t.code"
        " AND l.expires >= ?) ORDER BY t.created LIMIT ?",
        (now, limit),
    )
    return [str(r[0]) for r in rows]


def set_presence(tx: Tx, code: str, seat: int, process: str, conns: int) -> None:
    if conns <= 0:
        tx.run(
            "DELETE FROM web_presence WHERE code = ? AND seat = ? AND process = ?",
            (code, seat, process),
        )
    else:
        tx.run(
            "INSERT INTO web_presence (code, seat, process, conns) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (code, seat, process) DO UPDATE SET conns = excluded.conns",
            (code, seat, process, conns),
        )


def presence(tx: Tx, code: str, alive_since: float) -> dict[int, set[str]]:
    rows = tx.all(
        "SELECT p.seat, p.process FROM web_presence p JOIN web_processes w"
        " ON w.id = p.process WHERE p.code = ? AND w.heartbeat >= ?",
        (code, alive_since),
    )
    found: dict[int, set[str]] = {}
    for seat, process in rows:
        found.setdefault(int(seat), set()).add(str(process))
    return found


def forget_process(tx: Tx, process: str) -> None:
    for table in ("web_presence", "web_leases"):
        column = "process" if table == "web_presence" else "holder"
        tx.run(f"DELETE FROM {table} WHERE {column} = ?", (process,))
    tx.run("DELETE FROM web_processes WHERE id = ?", (process,))


def forget_dead(tx: Tx, dead_before: float) -> list[str]:
    dead = [
        str(r[0])
        for r in tx.all("SELECT id FROM web_processes WHERE heartbeat < ?", (dead_before,))
    ]
    for process in dead:
        tx.run("DELETE FROM web_presence WHERE process = ?", (process,))
        tx.run("DELETE FROM web_processes WHERE id = ?", (process,))
    return dead


__all__ = [
    "claim_lease",
    "forget_dead",
    "forget_process",
    "heartbeat",
    "lease_holder",
    "orphans",
    "presence",
    "release_leases",
    "set_presence",
]
