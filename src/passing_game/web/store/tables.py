"""Tables, seats, games and moves (``web_tables``, ``web_seats``, ``web_games``, ``web_moves``).

A table is its rules, its seats and its games; a game is its seed and its
accepted moves in order, nothing else: the server rebuilds any position by
replaying them through the engine. Every move is written with the table's
next sequence number (``insert_move``), so that a second writer of the same
number, or a gap, is refused. Each function runs inside the caller's
transaction (``Tx``); ``Store``'s methods (``store/db.py``) wrap them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from passing_game.web.store.rows import (
    NewTable,
    PublicTable,
    SeatRow,
    StoredTable,
    StoreError,
    Timer,
)

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx

#: A seat's columns after ``(code, seat)``, in ``seat_values``'s order.
SEAT_COLUMNS = (
    "kind, name, level, token_hash, bank, timeouts, away, invite_hash, seen, user_id,"
    " hints, rematch"
)


def _rules_text(rules: dict[str, Any]) -> str:
    return json.dumps(rules, sort_keys=True)


def seat_values(seat: SeatRow) -> tuple[Any, ...]:
    return (
        seat.kind,
        seat.name,
        seat.level,
        seat.token_hash,
        seat.bank,
        seat.timeouts,
        seat.away,
        seat.invite_hash,
        seat.seen,
        seat.user_id,
        seat.hints,
        int(seat.rematch),
    )


def insert_table(tx: Tx, table: NewTable) -> None:
    """A new table's rows: the table, its seats, its first game."""
    created = table.created or time.time()
    clock = None if table.clock is None else json.dumps(table.clock, sort_keys=True)
    tx.run(
        "INSERT INTO web_tables (code, created, rules, game, creator, clock, rated,"
        " public, origin) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)",
        (
            table.code,
            created,
            _rules_text(table.rules),
            table.creator,
            clock,
            int(table.rated),
            int(table.public),
            table.origin,
        ),
    )
    for seat in table.seats:
        insert_seat(tx, table.code, seat)
    tx.run(
        "INSERT INTO web_games (code, game, seed, first_seq, deal, fairness)"
        " VALUES (?, 1, ?, 1, ?, ?)",
        (table.code, table.seed, table.deal, table.fairness),
    )


def insert_seat(tx: Tx, code: str, seat: SeatRow) -> None:
    tx.run(
        f"INSERT INTO web_seats (code, seat, {SEAT_COLUMNS})"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (code, seat.seat, *seat_values(seat)),
    )


def code_taken(tx: Tx, code: str) -> bool:
    """Whether a table has this code (a new table's code is one nobody has)."""
    return tx.one("SELECT 1 FROM web_tables WHERE code = ?", (code,)) is not None


def free_code(tx: Tx, draw: Callable[[], str]) -> str:
    """A code no table has, drawn by ``draw`` (``protocol.random_code``)."""
    for _attempt in range(50):
        code = draw()
        if not code_taken(tx, code):
            return code
    raise RuntimeError("no free table code")  # pragma: no cover


def load_table(tx: Tx, code: str) -> StoredTable | None:
    """The table and its current game's moves, or ``None`` (call in a snapshot,
    ``Tx.snapshot``: the moves and the last number must be of one moment)."""
    row = tx.one(
        "SELECT code, created, rules, game, creator, clock, timer_kind, timer_seq,"
        " timer_seat, timer_start, timer_end, rated, public, origin"
        " FROM web_tables WHERE code = ?",
        (code,),
    )
    if row is None:
        return None
    game = int(row[3])
    seats = tuple(
        SeatRow(
            seat=int(s[0]),
            kind=s[1],
            name=s[2],
            level=s[3],
            token_hash=s[4],
            bank=None if s[5] is None else float(s[5]),
            timeouts=int(s[6]),
            away=s[7],
            invite_hash=s[8],
            seen=int(s[9]),
            user_id=s[10],
            hints=int(s[11]),
            rematch=bool(s[12]),
            bot=bool(s[13]),
        )
        for s in tx.all(
            f"SELECT seat, {SEAT_COLUMNS}, (SELECT COUNT(*) FROM web_bots b"
            " WHERE b.user_id = web_seats.user_id) FROM web_seats WHERE code = ? ORDER BY seat",
            (code,),
        )
    )
    game_row = tx.one(
        "SELECT seed, finished, resigned, deal, fairness FROM web_games"
        " WHERE code = ? AND game = ?",
        (code, game),
    )
    if game_row is None:
        raise StoreError(f"table {code} has no game {game}")
    moves = tx.all(
        "SELECT seq, move, played_by FROM web_moves WHERE code = ? AND game = ? ORDER BY seq",
        (code, game),
    )
    last = tx.one("SELECT COALESCE(MAX(seq), 0) FROM web_moves WHERE code = ?", (code,))
    assert last is not None
    timer = None
    if row[6] is not None:
        timer = Timer(
            kind=row[6],
            seq=int(row[7]),
            start=float(row[9]),
            end=float(row[10]),
            seat=None if row[8] is None else int(row[8]),
        )
    return StoredTable(
        code=str(row[0]),
        created=float(row[1]),
        rules=json.loads(row[2]),
        seats=seats,
        game=game,
        seed=int(game_row[0]),
        finished=bool(game_row[1]),
        moves=tuple(str(m[1]) for m in moves),
        last_seq=int(last[0]),
        creator=None if row[4] is None else int(row[4]),
        clock=None if row[5] is None else json.loads(row[5]),
        timer=timer,
        played_by=tuple(m[2] for m in moves),
        resigned=None if game_row[2] is None else int(game_row[2]),
        rated=bool(row[11]),
        public=bool(row[12]),
        origin=str(row[13] or "friends"),
        deal=None if game_row[3] is None else str(game_row[3]),
        fairness=None if game_row[4] is None else str(game_row[4]),
    )


def unfinished_codes(tx: Tx) -> list[str]:
    rows = tx.all(
        "SELECT t.code FROM web_tables t JOIN web_games g"
        " ON g.code = t.code AND g.game = t.game WHERE g.finished = 0 ORDER BY t.created",
    )
    return [str(r[0]) for r in rows]


def update_seat(tx: Tx, code: str, seat: SeatRow) -> int:
    """Replace one seat; how many rows changed (1, or 0 for no such seat)."""
    return tx.run(
        "UPDATE web_seats SET kind = ?, name = ?, level = ?, token_hash = ?, bank = ?,"
        " timeouts = ?, away = ?, invite_hash = ?, seen = ?, user_id = ?, hints = ?,"
        " rematch = ? WHERE code = ? AND seat = ?",
        (*seat_values(seat), code, seat.seat),
    )


def write_timer(tx: Tx, code: str, timer: Timer | None) -> None:
    values: tuple[Any, ...] = (None, None, None, None, None)
    if timer is not None:
        values = (timer.kind, timer.seq, timer.seat, timer.start, timer.end)
    tx.run(
        "UPDATE web_tables SET timer_kind = ?, timer_seq = ?, timer_seat = ?,"
        " timer_start = ?, timer_end = ? WHERE code = ?",
        (*values, code),
    )


def insert_move(tx: Tx, code: str, seq: int, game: int, move: str, played_by: str | None) -> int:
    """Store move ``seq`` if it follows the table's last move in its current game
    (1: stored, 0: refused); one statement, and the primary key refuses a second
    writer of the same number (an integrity error)."""
    return tx.run(
        "INSERT INTO web_moves (code, seq, game, move, played_by)"
        " SELECT CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER),"
        " CAST(? AS TEXT), CAST(? AS TEXT)"
        " WHERE EXISTS (SELECT 1 FROM web_tables WHERE code = ? AND game = ?)"
        " AND (SELECT COALESCE(MAX(seq), 0) FROM web_moves WHERE code = ?) = ?",
        (code, seq, game, move, played_by, code, game, code, seq - 1),
    )


def position(tx: Tx, code: str) -> tuple[int, int] | None:
    """The table's current game and its last move's number (``None``: no table)."""
    row = tx.one(
        "SELECT t.game, (SELECT COALESCE(MAX(seq), 0) FROM web_moves m"
        " WHERE m.code = t.code) FROM web_tables t WHERE t.code = ?",
        (code,),
    )
    return None if row is None else (int(row[0]), int(row[1]))


def resign(tx: Tx, code: str, game: int, seat: int) -> int:
    """``seat`` resigned ``game`` (1; 0 when that game is not going on)."""
    return tx.run(
        "UPDATE web_games SET resigned = ? WHERE code = ? AND game = ? AND finished = 0",
        (seat, code, game),
    )


def finish_game(tx: Tx, code: str, game: int, record: str) -> None:
    tx.run(
        "UPDATE web_games SET finished = 1, record = ? WHERE code = ? AND game = ?",
        (record, code, game),
    )


def start_game(
    tx: Tx, code: str, game: int, seed: int, first_seq: int, fairness: str | None = None
) -> None:
    """The table's next game, its moves numbered from ``first_seq``."""
    tx.run(
        "INSERT INTO web_games (code, game, seed, first_seq, fairness) VALUES (?, ?, ?, ?, ?)",
        (code, game, seed, first_seq, fairness),
    )
    tx.run("UPDATE web_tables SET game = ? WHERE code = ?", (game, code))


def set_deal(tx: Tx, code: str, game: int, seed: int, fairness: str | None) -> None:
    """A game's seed and secrets while its deal waits for contributions (P51): only
    before its first move, so no stored move is ever replayed on another deal."""
    changed = tx.run(
        "UPDATE web_games SET seed = ?, fairness = ? WHERE code = ? AND game = ?"
        " AND finished = 0 AND NOT EXISTS"
        " (SELECT 1 FROM web_moves m WHERE m.code = ? AND m.game = ?)",
        (seed, fairness, code, game, code, game),
    )
    if changed != 1:
        raise StoreError(f"table {code} game {game} is under way; its deal stands")


def game_record(tx: Tx, code: str, game: int) -> str | None:
    row = tx.one(
        "SELECT record FROM web_games WHERE code = ? AND game = ? AND finished = 1",
        (code, game),
    )
    return None if row is None else str(row[0])


def moves_since(tx: Tx, code: str, game: int, seq: int) -> list[tuple[int, str, str | None]]:
    rows = tx.all(
        "SELECT seq, move, played_by FROM web_moves WHERE code = ? AND game = ?"
        " AND seq > ? ORDER BY seq",
        (code, game, seq),
    )
    return [(int(r[0]), str(r[1]), r[2]) for r in rows]


def positions(tx: Tx, codes: Sequence[str]) -> dict[str, tuple[int, int, bool]]:
    found: dict[str, tuple[int, int, bool]] = {}
    for start in range(0, len(codes), 500):
        chunk = list(codes[start : start + 500])
        marks = ", ".join("?" for _code in chunk)
        rows = tx.all(
            "SELECT t.code, t.game, g.finished,"
            " (SELECT COALESCE(MAX(seq), 0) FROM web_moves m WHERE m.code = t.code)"
            " FROM web_tables t JOIN web_games g ON g.code = t.code AND g.game = t.game"
            f" WHERE t.code IN ({marks})",
            chunk,
        )
        for code, game, finished, seq in rows:
            found[str(code)] = (int(game), int(seq), bool(finished))
    return found


def public_tables(tx: Tx, limit: int) -> list[PublicTable]:
    """Public tables whose current game goes on, newest first."""
    rows = tx.all(
        "SELECT t.code, t.rules, t.rated, t.created, t.origin,"
        " (SELECT COUNT(*) FROM web_seats s WHERE s.code = t.code) AS seats,"
        " (SELECT COUNT(*) FROM web_seats s WHERE s.code = t.code AND s.kind <> 'open')"
        " AS taken"
        " FROM web_tables t JOIN web_games g ON g.code = t.code AND g.game = t.game"
        " WHERE t.public = 1 AND g.finished = 0 ORDER BY t.created DESC, t.code LIMIT ?",
        (limit,),
    )
    return [
        PublicTable(
            str(code),
            json.loads(rules),
            bool(rated),
            float(created),
            str(origin or "friends"),
            int(seats),
            int(taken),
        )
        for code, rules, rated, created, origin, seats, taken in rows
    ]


def ping(tx: Tx) -> None:
    tx.one("SELECT 1")


__all__ = [
    "SEAT_COLUMNS",
    "code_taken",
    "finish_game",
    "game_record",
    "insert_move",
    "insert_seat",
    "insert_table",
    "load_table",
    "moves_since",
    "ping",
    "position",
    "positions",
    "public_tables",
    "resign",
    "seat_values",
    "start_game",
    "unfinished_codes",
    "update_seat",
    "write_timer",
]
