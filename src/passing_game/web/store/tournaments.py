"""Tournaments (``web_tournaments`` and its two tables): the rows of ``web/tournament/`` (P54).

A tournament is its settings (JSON, ``Event``'s fields), a status (``open``,
``running``, ``finished``) and its current round; its people are rows of
``web_tournament_entries``, its tables rows of ``web_tournament_tables``
(the table's code, its round and each seat's account). Its games are the
tables' own rows (``web_games``, ``web_seats``): a result is never copied,
so the standings are always a replay of the stored games. Pairing holds
``lock`` (``TOURNAMENT_LOCK``) for its transaction: two processes pairing
at once take turns, and nobody is seated twice.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from passing_game.web.store.rows import SeatRow

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx

#: The lock under which processes pair tournaments ("tour").
TOURNAMENT_LOCK = 0x746F_7572


@dataclass(frozen=True)
class TournamentRow:
    id: str
    settings: dict[str, Any]
    created: float
    status: str
    round: int


@dataclass(frozen=True)
class EntryRow:
    user_id: str
    name: str
    joined: float
    withdrawn: bool
    paused: bool


@dataclass(frozen=True)
class TableRow:
    """A tournament table and, once its match ended, the record's result."""

    code: str
    round: int
    seats: tuple[str | None, ...]
    started: float
    #: The game's record (JSON) once finished, else ``None``.
    record: str | None
    #: The table's seat rows now (who left, who a stand-in plays for).
    rows: tuple[SeatRow, ...]
    #: A duplicate round's: the people's parts its deals were mixed from (``parts.py``).
    parts: tuple[str, ...] = ()


def lock(tx: Tx) -> None:
    """Hold the tournaments' lock until the transaction ends (``Tx.lock``)."""
    tx.lock(TOURNAMENT_LOCK)


def insert(tx: Tx, id: str, settings: dict[str, Any], created: float) -> None:
    tx.run(
        "INSERT INTO web_tournaments (id, settings, created, status, round, public, starts,"
        " creator) VALUES (?, ?, ?, 'open', 0, ?, ?, ?)",
        (
            id,
            json.dumps(settings, sort_keys=True),
            created,
            int(bool(settings.get("public"))),
            float(settings.get("starts", created)),
            str(settings.get("creator", "")),
        ),
    )


def _row(found: Sequence[Any]) -> TournamentRow:
    return TournamentRow(
        str(found[0]), json.loads(found[1]), float(found[2]), found[3], int(found[4])
    )


def get(tx: Tx, id: str) -> TournamentRow | None:
    found = tx.one(
        "SELECT id, settings, created, status, round FROM web_tournaments WHERE id = ?", (id,)
    )
    return None if found is None else _row(found)


def due(tx: Tx, now: float) -> list[str]:
    """The tournaments to pair now: open or running, and past their start."""
    return [
        str(r[0])
        for r in tx.all(
            "SELECT id FROM web_tournaments WHERE status <> 'finished' AND starts <= ?"
            " ORDER BY starts",
            (now,),
        )
    ]


def open_by(tx: Tx, creator: str) -> int:
    """How many tournaments ``creator`` made that are not finished."""
    found = tx.one(
        "SELECT COUNT(*) FROM web_tournaments WHERE status <> 'finished' AND creator = ?",
        (creator,),
    )
    return int(found[0]) if found else 0


def public(tx: Tx, since: float, limit: int) -> list[TournamentRow]:
    """Public tournaments not finished, or finished after ``since``; soonest first."""
    return [
        _row(r)
        for r in tx.all(
            "SELECT id, settings, created, status, round FROM web_tournaments"
            " WHERE public = 1 AND (status <> 'finished' OR starts >= ?)"
            " ORDER BY starts LIMIT ?",
            (since, limit),
        )
    ]


def set_start(tx: Tx, id: str, settings: dict[str, Any], starts: float) -> None:
    """A tournament not started yet starts at ``starts`` (its settings say so too)."""
    tx.run(
        "UPDATE web_tournaments SET settings = ?, starts = ? WHERE id = ? AND status = 'open'",
        (json.dumps({**settings, "starts": starts}, sort_keys=True), starts, id),
    )


def set_status(tx: Tx, id: str, status: str, number: int) -> None:
    tx.run("UPDATE web_tournaments SET status = ?, round = ? WHERE id = ?", (status, number, id))


def entries(tx: Tx, id: str) -> list[EntryRow]:
    return [
        EntryRow(str(r[0]), r[1], float(r[2]), bool(r[3]), bool(r[4]))
        for r in tx.all(
            "SELECT user_id, name, joined, withdrawn, paused FROM web_tournament_entries"
            " WHERE tournament = ? ORDER BY joined, user_id",
            (id,),
        )
    ]


def add_entry(
    tx: Tx, id: str, user_id: str, name: str, joined: float, part: str | None = None
) -> bool:
    """Whether the account was added (``False``: it was in already; it is back in, its
    first part kept); ``part``: its browser's random part of a duplicate's deals."""
    if tx.one(
        "SELECT 1 FROM web_tournament_entries WHERE tournament = ? AND user_id = ?", (id, user_id)
    ):
        tx.run(
            "UPDATE web_tournament_entries SET withdrawn = 0, paused = 0,"
            " contribution = COALESCE(contribution, ?) WHERE tournament = ? AND user_id = ?",
            (part, id, user_id),
        )
        return False
    tx.run(
        "INSERT INTO web_tournament_entries (tournament, user_id, name, joined, contribution)"
        " VALUES (?, ?, ?, ?, ?)",
        (id, user_id, name, joined, part),
    )
    return True


def set_entry(tx: Tx, id: str, user_id: str, *, withdrawn: bool, paused: bool) -> bool:
    """Whether the account is in the tournament (its flags are now these)."""
    return (
        tx.run(
            "UPDATE web_tournament_entries SET withdrawn = ?, paused = ?"
            " WHERE tournament = ? AND user_id = ?",
            (int(withdrawn), int(paused), id, user_id),
        )
        > 0
    )


def add_table(
    tx: Tx,
    id: str,
    code: str,
    number: int,
    seats: Sequence[str | None],
    started: float,
    parts: Sequence[str] = (),
) -> None:
    tx.run(
        "INSERT INTO web_tournament_tables (tournament, code, round, seats, started, parts)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (id, code, number, json.dumps(list(seats)), started, json.dumps(list(parts))),
    )


def parts(tx: Tx, id: str) -> list[str]:
    """The random parts its people's browsers gave with their joins, so far."""
    return [
        str(r[0])
        for r in tx.all(
            "SELECT contribution FROM web_tournament_entries"
            " WHERE tournament = ? AND contribution IS NOT NULL ORDER BY contribution",
            (id,),
        )
    ]


def tables(tx: Tx, id: str) -> list[TableRow]:
    """Every table of the tournament, oldest first, with its first game's record."""
    found = tx.all(
        "SELECT t.code, t.round, t.seats, t.started, g.finished, g.record, t.parts"
        " FROM web_tournament_tables t"
        " LEFT JOIN web_games g ON g.code = t.code AND g.game = 1"
        " WHERE t.tournament = ? ORDER BY t.started, t.code",
        (id,),
    )
    seat_rows: dict[str, list[SeatRow]] = {}
    for r in tx.all(
        "SELECT s.code, s.seat, s.kind, s.name, s.level, s.away, s.user_id"
        " FROM web_seats s JOIN web_tournament_tables t ON t.code = s.code"
        " WHERE t.tournament = ? ORDER BY s.code, s.seat",
        (id,),
    ):
        seat_rows.setdefault(str(r[0]), []).append(
            SeatRow(int(r[1]), r[2], r[3], r[4], None, away=r[5], user_id=r[6])
        )
    return [
        TableRow(
            str(r[0]),
            int(r[1]),
            tuple(json.loads(r[2])),
            float(r[3]),
            r[5] if r[4] else None,
            tuple(seat_rows.get(str(r[0]), ())),
            tuple(json.loads(r[6])) if r[6] else (),
        )
        for r in found
    ]


def tournament_of(tx: Tx, code: str) -> str | None:
    """The tournament a table belongs to, if any."""
    found = tx.one("SELECT tournament FROM web_tournament_tables WHERE code = ?", (code,))
    return None if found is None else str(found[0])


__all__ = [
    "TOURNAMENT_LOCK",
    "EntryRow",
    "TableRow",
    "TournamentRow",
    "add_entry",
    "add_table",
    "due",
    "entries",
    "get",
    "insert",
    "lock",
    "open_by",
    "parts",
    "public",
    "set_entry",
    "set_start",
    "set_status",
    "tables",
    "tournament_of",
]
