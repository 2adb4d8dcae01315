"""Where the web app keeps its tables: one interface, SQLite or PostgreSQL.

A table is its rules, its seats (names, bot levels, the hashes of the
seats' secret tokens) and its games. A game is stored as the seed and the
accepted moves in order, nothing else: the server rebuilds any position by
replaying them through the engine (``Match(rules, seed)`` and ``play``), so
the store holds no derived state that could disagree with the rules.

Every move is written with the table's next sequence number inside one
transaction; a second write of the same number is refused by a unique key
(``DuplicateMove``), and so is a gap. The server writes a move before it
tells anybody about it.

>>> store = open_store("sqlite://:memory:")
>>> store.create_table(NewTable("ABC234", {"players": 2}, 7,
...     (SeatRow(0, "human", "Ana"), SeatRow(1, "bot", "greedy", level="greedy"))))
>>> store.append_move("ABC234", 1, 1, "L3-5")
>>> table = store.load_table("ABC234")
>>> table.moves, table.last_seq, table.seats[1].level
(('L3-5',), 1, 'greedy')
>>> store.append_move("ABC234", 1, 1, "draw")
Traceback (most recent call last):
...
passing_game.web.store.DuplicateMove: table ABC234 already has move 1
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, ParamSpec, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

SeatKind = Literal["open", "human", "bot"]
#: Why a stand-in bot plays a person's seat (docs/DECISIONS.md P26).
AWAY_REASONS = ("left", "timeout", "offline", "invited", "suspended")
#: Who made a stored move when it was not the seat's own player.
PLAYED_BY = ("timeout", "stand-in")

#: The default database: an SQLite file under ./data.
DEFAULT_DB = "sqlite:///data/passing-game.sqlite3"

#: The schema, one step per version: a database records the last step it
#: took (``web_schema``) and takes the later ones at open, under a lock, so
#: that servers started together on an empty database never race. Version 1
#: is the schema of the first release; an older database upgrades itself.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE IF NOT EXISTS web_tables (
            code TEXT PRIMARY KEY,
            created DOUBLE PRECISION NOT NULL,
            rules TEXT NOT NULL,
            game INTEGER NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS web_seats (
            code TEXT NOT NULL REFERENCES web_tables (code),
            seat INTEGER NOT NULL,
            kind TEXT NOT NULL,
            name TEXT NOT NULL,
            level TEXT,
            token_hash TEXT,
            PRIMARY KEY (code, seat)
        )""",
        """CREATE TABLE IF NOT EXISTS web_games (
            code TEXT NOT NULL REFERENCES web_tables (code),
            game INTEGER NOT NULL,
            seed BIGINT NOT NULL,
            first_seq INTEGER NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0,
            record TEXT,
            PRIMARY KEY (code, game)
        )""",
        """CREATE TABLE IF NOT EXISTS web_moves (
            code TEXT NOT NULL REFERENCES web_tables (code),
            seq INTEGER NOT NULL,
            game INTEGER NOT NULL,
            move TEXT NOT NULL,
            PRIMARY KEY (code, seq)
        )""",
    ),
    # Version 2 (issue 11): who created a table, its clock and its one
    # running timer (a turn's deadline or the round summary's countdown);
    # per seat the time bank, timeouts in a row, why a stand-in plays it,
    # a pending invitation and the last round summary read; per move who
    # made it when not the seat's own player; a resignation per game.
    (
        "ALTER TABLE web_tables ADD COLUMN creator INTEGER",
        "ALTER TABLE web_tables ADD COLUMN clock TEXT",
        "ALTER TABLE web_tables ADD COLUMN timer_kind TEXT",
        "ALTER TABLE web_tables ADD COLUMN timer_seq INTEGER",
        "ALTER TABLE web_tables ADD COLUMN timer_seat INTEGER",
        "ALTER TABLE web_tables ADD COLUMN timer_start DOUBLE PRECISION",
        "ALTER TABLE web_tables ADD COLUMN timer_end DOUBLE PRECISION",
        "ALTER TABLE web_seats ADD COLUMN bank DOUBLE PRECISION",
        "ALTER TABLE web_seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE web_seats ADD COLUMN away TEXT",
        "ALTER TABLE web_seats ADD COLUMN invite_hash TEXT",
        "ALTER TABLE web_seats ADD COLUMN seen INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE web_moves ADD COLUMN played_by TEXT",
        "ALTER TABLE web_games ADD COLUMN resigned INTEGER",
    ),
    # Version 3 (issue 12): several server processes on one database. Each
    # process says it is alive (``web_processes``); the one that leads a
    # table holds its lease until ``expires``; which seats have a client
    # connected to which process (``web_presence``).
    (
        """CREATE TABLE IF NOT EXISTS web_processes (
            id TEXT PRIMARY KEY,
            started DOUBLE PRECISION NOT NULL,
            heartbeat DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS web_leases (
            code TEXT PRIMARY KEY REFERENCES web_tables (code),
            holder TEXT NOT NULL,
            expires DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS web_presence (
            code TEXT NOT NULL REFERENCES web_tables (code),
            seat INTEGER NOT NULL,
            process TEXT NOT NULL,
            conns INTEGER NOT NULL,
            PRIMARY KEY (code, seat, process)
        )""",
    ),
    # Version 4 (issue 13): accounts and their sessions, sign-in attempts for
    # the rate limits, seats held by accounts, rated and public tables,
    # ratings and their changes, the quick-play queue, the daily deal, the
    # moderators' log, and analyses kept per record.
    (
        """CREATE TABLE IF NOT EXISTS web_users (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE,
            password_hash TEXT,
            created DOUBLE PRECISION NOT NULL,
            suspended INTEGER NOT NULL DEFAULT 0,
            deleted INTEGER NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE IF NOT EXISTS web_sessions (
            id_hash TEXT PRIMARY KEY,
            user_id TEXT NOT NULL REFERENCES web_users (id),
            created DOUBLE PRECISION NOT NULL,
            expires DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS web_attempts (
            key TEXT PRIMARY KEY,
            since DOUBLE PRECISION NOT NULL,
            count INTEGER NOT NULL
        )""",
        "ALTER TABLE web_seats ADD COLUMN user_id TEXT",
        "ALTER TABLE web_tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE web_tables ADD COLUMN public INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE web_tables ADD COLUMN origin TEXT",
        """CREATE TABLE IF NOT EXISTS web_ratings (
            user_id TEXT NOT NULL REFERENCES web_users (id),
            pool TEXT NOT NULL,
            mu DOUBLE PRECISION NOT NULL,
            sigma DOUBLE PRECISION NOT NULL,
            games INTEGER NOT NULL DEFAULT 0,
            updated DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (user_id, pool)
        )""",
        """CREATE TABLE IF NOT EXISTS web_rating_changes (
            code TEXT NOT NULL,
            game INTEGER NOT NULL,
            user_id TEXT NOT NULL,
            pool TEXT NOT NULL,
            mu_before DOUBLE PRECISION NOT NULL,
            sigma_before DOUBLE PRECISION NOT NULL,
            mu_after DOUBLE PRECISION NOT NULL,
            sigma_after DOUBLE PRECISION NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            removed INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (code, game, user_id)
        )""",
        """CREATE TABLE IF NOT EXISTS web_queue (
            ticket TEXT PRIMARY KEY,
            players INTEGER NOT NULL,
            rated INTEGER NOT NULL,
            user_id TEXT,
            name TEXT NOT NULL,
            token_hash TEXT NOT NULL,
            since DOUBLE PRECISION NOT NULL,
            seen DOUBLE PRECISION NOT NULL,
            code TEXT,
            seat INTEGER
        )""",
        """CREATE TABLE IF NOT EXISTS web_daily (
            day TEXT NOT NULL,
            user_id TEXT NOT NULL REFERENCES web_users (id),
            code TEXT NOT NULL,
            started DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (day, user_id)
        )""",
        """CREATE TABLE IF NOT EXISTS web_admin_log (
            at DOUBLE PRECISION NOT NULL,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            target TEXT NOT NULL,
            reason TEXT NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS web_analyses (
            record_hash TEXT NOT NULL,
            seat INTEGER NOT NULL,
            result TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (record_hash, seat)
        )""",
    ),
    # Version 5 (issue 22): accounts, sessions and ratings that hold under
    # attack. Sign-in throttling keeps when the last attempt came; an
    # account's known devices; a user name's look-alike key and the address
    # an account was made from (hashed); whether a finished game was rated
    # or aborted, in the transaction that keeps its record; per seat the
    # hints taken and a rematch accepted; the daily deal per person (name
    # and address, hashed); the site's own settings (the daily deal's
    # secret when the environment gives none).
    (
        "ALTER TABLE web_attempts ADD COLUMN last DOUBLE PRECISION NOT NULL DEFAULT 0",
        """CREATE TABLE IF NOT EXISTS web_devices (
            user_id TEXT NOT NULL REFERENCES web_users (id),
            device_hash TEXT NOT NULL,
            seen DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (user_id, device_hash)
        )""",
        "ALTER TABLE web_users ADD COLUMN name_skeleton TEXT",
        "ALTER TABLE web_users ADD COLUMN address_hash TEXT",
        "CREATE INDEX IF NOT EXISTS web_users_skeleton ON web_users (name_skeleton)",
        "ALTER TABLE web_games ADD COLUMN rating TEXT",
        "ALTER TABLE web_seats ADD COLUMN hints INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE web_seats ADD COLUMN rematch INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX IF NOT EXISTS web_seats_user ON web_seats (user_id)",
        "ALTER TABLE web_daily ADD COLUMN name_hash TEXT",
        "ALTER TABLE web_daily ADD COLUMN address_hash TEXT",
        """CREATE TABLE IF NOT EXISTS web_settings (
            name TEXT PRIMARY KEY,
            value TEXT NOT NULL
        )""",
    ),
)

#: The schema version this code reads and writes.
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(RuntimeError):
    """The store refused a write, or its contents are inconsistent."""


class DuplicateMove(StoreError):
    """A move with this table's sequence number is already stored."""


def hash_token(token: str) -> str:
    """What the store keeps of a seat token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class SeatRow:
    """One seat: ``open`` (waiting for a person), ``human`` (taken) or ``bot``.

    For a person's seat: ``bank`` is the clock's time bank left in seconds
    (``None``: untouched), ``timeouts`` the turns in a row the clock ran
    out, ``away`` why a stand-in plays it (``AWAY_REASONS``, ``None``: the
    person plays), ``invite_hash`` the SHA-256 of a one-time invitation to
    the seat, and ``seen`` how many finished rounds' summaries the person
    has closed.
    """

    seat: int
    kind: SeatKind
    name: str
    level: str | None = None
    token_hash: str | None = None
    bank: float | None = None
    timeouts: int = 0
    away: str | None = None
    invite_hash: str | None = None
    seen: int = 0
    #: The account the seat belongs to (a signed-in person's), if any.
    user_id: str | None = None
    #: Hints the person took in the current game (shown to the other people).
    hints: int = 0
    #: Whether the person accepted a rematch of the finished game.
    rematch: bool = False


@dataclass(frozen=True)
class Timer:
    """A table's one running countdown, kept so that a restart resumes it.

    ``kind`` is ``"move"`` (``seat``'s turn, begun at ``start``, ends at
    ``end``) or ``"summary"`` (the round summary closes at ``end``); ``seq``
    is the table's move count when it began, so a timer of a position that
    has moved on is recognised as stale. Times are seconds since the epoch.
    """

    kind: Literal["move", "summary"]
    seq: int
    start: float
    end: float
    seat: int | None = None


@dataclass(frozen=True)
class NewTable:
    """A table as created: its first game starts with ``seed``."""

    code: str
    rules: dict[str, Any]
    seed: int
    seats: tuple[SeatRow, ...]
    created: float = 0.0
    #: The seat of the person who created the table (``None``: nobody's).
    creator: int | None = None
    #: ``{"move": seconds, "bank": seconds}``, or ``None`` for no clock.
    clock: dict[str, float] | None = None
    #: Whether the game counts for the players' ratings (issue 13).
    rated: bool = False
    #: Whether the table is listed for anyone to join or watch.
    public: bool = False
    #: How the table came to be: ``"friends"`` (the lobby), ``"quick"``, ``"daily"``.
    origin: str = "friends"


@dataclass(frozen=True)
class StoredTable:
    """A table as loaded: its current game's seed and accepted moves."""

    code: str
    created: float
    rules: dict[str, Any]
    seats: tuple[SeatRow, ...]
    game: int
    seed: int
    finished: bool
    moves: tuple[str, ...]
    last_seq: int
    creator: int | None = None
    clock: dict[str, float] | None = None
    timer: Timer | None = None
    #: For each of ``moves``: ``None``, or who made it (``PLAYED_BY``).
    played_by: tuple[str | None, ...] = ()
    #: The seat that resigned the current game, if one did.
    resigned: int | None = None
    rated: bool = False
    public: bool = False
    origin: str = "friends"


class Store(ABC):
    """The storage interface the server uses; both databases implement it.

    Its methods block; the server calls them through ``AsyncStore``, in
    worker threads, never on the event loop.
    """

    #: How many calls may usefully run at once (threads ``AsyncStore`` uses).
    workers: int = 1

    @abstractmethod
    def create_table(self, table: NewTable) -> None:
        """Store a new table with its seats and its first game (number 1)."""

    @abstractmethod
    def load_table(self, code: str) -> StoredTable | None:
        """The table and its current game's moves, or ``None``."""

    @abstractmethod
    def unfinished_codes(self) -> list[str]:
        """Codes of the tables whose current game is not over."""

    @abstractmethod
    def update_seat(self, code: str, seat: SeatRow) -> None:
        """Replace one seat (a person taking it, a name change)."""

    @abstractmethod
    def append_move(
        self,
        code: str,
        seq: int,
        game: int,
        move: str,
        played_by: str | None = None,
        timer: Timer | Literal["keep"] | None = "keep",
    ) -> None:
        """Store accepted move number ``seq`` of the table (1, 2, ...).

        ``played_by`` marks a move its seat's player did not make
        (``PLAYED_BY``); ``timer`` replaces the table's timer in the same
        transaction (``"keep"`` leaves it). Raises ``DuplicateMove`` if
        ``seq`` is already stored and ``StoreError`` if it would leave a gap
        or names another game.
        """

    @abstractmethod
    def set_timer(self, code: str, timer: Timer | None) -> None:
        """Replace the table's running timer (``None``: no timer runs)."""

    @abstractmethod
    def resign(self, code: str, game: int, seat: int) -> None:
        """Record that ``seat`` resigned ``game``."""

    @abstractmethod
    def finish_game(
        self, code: str, game: int, record: str, also: Callable[[Tx], Any] | None = None
    ) -> None:
        """Mark a game over and keep its record (JSON text).

        ``also`` runs inside the same transaction (a rated game's ratings,
        ``ratings.rate_tx``): the record is kept with them or not at all.
        """

    @abstractmethod
    def start_game(self, code: str, game: int, seed: int) -> None:
        """Start the table's next game (a rematch) with a new seed."""

    @abstractmethod
    def game_record(self, code: str, game: int) -> str | None:
        """The record of a finished game, or ``None``."""

    @abstractmethod
    def moves_since(self, code: str, game: int, seq: int) -> list[tuple[int, str, str | None]]:
        """The table's moves of ``game`` after ``seq``: (seq, move, played_by), in order."""

    @abstractmethod
    def positions(self, codes: Sequence[str]) -> dict[str, tuple[int, int, bool]]:
        """Code -> (current game, last move's number, whether that game is finished)."""

    @abstractmethod
    def ping(self) -> None:
        """Answer if the database answers (raises otherwise)."""

    # -- several processes on one database (issue 12) ---------------------

    @abstractmethod
    def heartbeat(self, process: str, now: float, lease_for: float) -> list[str]:
        """Say ``process`` is alive; extend its leases (a lapsed one too, while
        nobody else took it); the codes it holds."""

    @abstractmethod
    def claim_lease(self, code: str, process: str, now: float, lease_for: float) -> bool:
        """Take the table's lease if nobody holds it live (or ``process`` does)."""

    @abstractmethod
    def lease_holder(self, code: str, now: float) -> str | None:
        """The process whose lease on the table is live, if any."""

    @abstractmethod
    def release_leases(self, process: str, codes: Sequence[str] | None = None) -> None:
        """Give up leases (all of the process's when ``codes`` is ``None``)."""

    @abstractmethod
    def orphans(self, now: float, limit: int = 100) -> list[str]:
        """Started, unfinished tables whose lease nobody holds live: work nobody does."""

    @abstractmethod
    def set_presence(self, code: str, seat: int, process: str, conns: int) -> None:
        """How many clients of ``process`` sit at ``seat`` (0 removes the row)."""

    @abstractmethod
    def presence(self, code: str, alive_since: float) -> dict[int, set[str]]:
        """Seat -> the live processes with a client at it."""

    @abstractmethod
    def forget_process(self, process: str) -> None:
        """A process stops: its presence, leases and row go."""

    @abstractmethod
    def forget_dead(self, dead_before: float) -> list[str]:
        """Processes silent since ``dead_before`` are forgotten; their ids."""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Tx]:
        """One transaction, for the modules that keep their own rows (accounts,
        ratings, queues): ``with store.transaction() as tx: tx.one(sql, params)``.
        Statements use ``?`` placeholders whatever the database."""

    @abstractmethod
    def close(self) -> None:
        """Release the connection."""


class Tx:
    """A cursor inside one transaction, with ``?`` placeholders on both databases."""

    def __init__(self, store: _SqlStore, cur: Any) -> None:
        self._store = store
        self.cur = cur

    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; the number of rows it changed."""
        return int(self._store._exec(self.cur, sql, params).rowcount)

    def one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        row = self._store._exec(self.cur, sql, params).fetchone()
        return None if row is None else tuple(row)

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self._store._exec(self.cur, sql, params).fetchall()]

    def is_integrity_error(self, exc: Exception) -> bool:
        """Whether ``exc`` is a unique or foreign key refusal."""
        return self._store._is_integrity_error(exc)

    def create_table(self, table: NewTable) -> None:
        """Store a new table as ``Store.create_table`` does, inside this transaction
        (quick play seats the people it takes from the queue in the same one)."""
        self._store._insert_table(self.cur, table)


def _rules_text(rules: dict[str, Any]) -> str:
    return json.dumps(rules, sort_keys=True)


class _SqlStore(Store):
    """The SQL both databases share; subclasses give the connection."""

    placeholder = "?"

    def __init__(self) -> None:
        self._lock = threading.RLock()

    # -- what a subclass provides ----------------------------------------

    @contextmanager
    @abstractmethod
    def _transaction(self) -> Iterator[Any]:
        """A cursor inside a transaction that commits on success."""
        yield None  # pragma: no cover

    @contextmanager
    @abstractmethod
    def _single(self) -> Iterator[Any]:
        """A cursor for one statement that commits by itself."""
        yield None  # pragma: no cover

    @abstractmethod
    def _is_integrity_error(self, exc: Exception) -> bool: ...

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        with self._transaction() as cur:
            yield Tx(self, cur)

    def _sql(self, text: str) -> str:
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)

    def _exec(self, cur: Any, text: str, params: Sequence[Any] = ()) -> Any:
        cur.execute(self._sql(text), tuple(params))
        return cur

    def _lock_schema(self, cur: Any) -> None:
        """Hold the lock that serialises schema changes until the transaction ends."""

    def _has_table(self, cur: Any, name: str) -> bool:
        raise NotImplementedError  # pragma: no cover

    def _schema_version(self, cur: Any) -> int:
        cur.execute("CREATE TABLE IF NOT EXISTS web_schema (version INTEGER NOT NULL)")
        row = self._exec(cur, "SELECT MAX(version) FROM web_schema").fetchone()
        if row is not None and row[0] is not None:
            return int(row[0])
        # A database of the first release has its tables but no version yet.
        return 1 if self._has_table(cur, "web_tables") else 0

    def _create_schema(self) -> None:
        """Bring the schema to ``SCHEMA_VERSION``, one migration step at a time."""
        with self._transaction() as cur:
            self._lock_schema(cur)
            version = self._schema_version(cur)
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"the database has schema version {version}; this program knows"
                    f" up to {SCHEMA_VERSION}: upgrade passing-game"
                )
            for step in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS[step]:
                    cur.execute(statement)
            if version != SCHEMA_VERSION:
                self._exec(cur, "DELETE FROM web_schema")
                self._exec(cur, "INSERT INTO web_schema (version) VALUES (?)", (SCHEMA_VERSION,))

    @property
    def schema_version(self) -> int:
        with self._transaction() as cur:
            return self._schema_version(cur)

    # -- the interface -----------------------------------------------------

    def create_table(self, table: NewTable) -> None:
        try:
            with self._transaction() as cur:
                self._insert_table(cur, table)
        except Exception as exc:
            if self._is_integrity_error(exc):
                raise StoreError(f"table {table.code} already exists") from None
            raise

    def _insert_table(self, cur: Any, table: NewTable) -> None:
        """A new table's rows, inside the caller's transaction (``Tx.create_table``)."""
        created = table.created or time.time()
        clock = None if table.clock is None else json.dumps(table.clock, sort_keys=True)
        self._exec(
            cur,
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
            self._insert_seat(cur, table.code, seat)
        self._exec(
            cur,
            "INSERT INTO web_games (code, game, seed, first_seq) VALUES (?, 1, ?, 1)",
            (table.code, table.seed),
        )

    _SEAT_COLUMNS = (
        "kind, name, level, token_hash, bank, timeouts, away, invite_hash, seen, user_id,"
        " hints, rematch"
    )

    @staticmethod
    def _seat_values(seat: SeatRow) -> tuple[Any, ...]:
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

    def _insert_seat(self, cur: Any, code: str, seat: SeatRow) -> None:
        self._exec(
            cur,
            f"INSERT INTO web_seats (code, seat, {self._SEAT_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (code, seat.seat, *self._seat_values(seat)),
        )

    def _snapshot(self, cur: Any) -> None:
        """Make this transaction's reads one snapshot (several statements, one moment)."""

    def load_table(self, code: str) -> StoredTable | None:
        with self._transaction() as cur:
            # The moves and the last sequence number must be of one moment:
            # otherwise a move committed between the two reads would make the
            # table think it holds a move it never replayed.
            self._snapshot(cur)
            row = self._exec(
                cur,
                "SELECT code, created, rules, game, creator, clock, timer_kind, timer_seq,"
                " timer_seat, timer_start, timer_end, rated, public, origin"
                " FROM web_tables WHERE code = ?",
                (code,),
            ).fetchone()
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
                )
                for s in self._exec(
                    cur,
                    f"SELECT seat, {self._SEAT_COLUMNS} FROM web_seats"
                    " WHERE code = ? ORDER BY seat",
                    (code,),
                ).fetchall()
            )
            game_row = self._exec(
                cur,
                "SELECT seed, finished, resigned FROM web_games WHERE code = ? AND game = ?",
                (code, game),
            ).fetchone()
            if game_row is None:
                raise StoreError(f"table {code} has no game {game}")
            moves = self._exec(
                cur,
                "SELECT seq, move, played_by FROM web_moves WHERE code = ? AND game = ?"
                " ORDER BY seq",
                (code, game),
            ).fetchall()
            last = self._exec(
                cur, "SELECT COALESCE(MAX(seq), 0) FROM web_moves WHERE code = ?", (code,)
            ).fetchone()
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
        )

    def unfinished_codes(self) -> list[str]:
        with self._transaction() as cur:
            rows = self._exec(
                cur,
                "SELECT t.code FROM web_tables t JOIN web_games g"
                " ON g.code = t.code AND g.game = t.game WHERE g.finished = 0 ORDER BY t.created",
            ).fetchall()
        return [str(r[0]) for r in rows]

    def update_seat(self, code: str, seat: SeatRow) -> None:
        with self._transaction() as cur:
            done = self._exec(
                cur,
                "UPDATE web_seats SET kind = ?, name = ?, level = ?, token_hash = ?, bank = ?,"
                " timeouts = ?, away = ?, invite_hash = ?, seen = ?, user_id = ?, hints = ?,"
                " rematch = ? WHERE code = ? AND seat = ?",
                (*self._seat_values(seat), code, seat.seat),
            ).rowcount
            if done != 1:
                raise StoreError(f"table {code} has no seat {seat.seat}")

    def _write_timer(self, cur: Any, code: str, timer: Timer | None) -> None:
        values: tuple[Any, ...] = (None, None, None, None, None)
        if timer is not None:
            values = (timer.kind, timer.seq, timer.seat, timer.start, timer.end)
        self._exec(
            cur,
            "UPDATE web_tables SET timer_kind = ?, timer_seq = ?, timer_seat = ?,"
            " timer_start = ?, timer_end = ? WHERE code = ?",
            (*values, code),
        )

    def set_timer(self, code: str, timer: Timer | None) -> None:
        with self._transaction() as cur:
            self._write_timer(cur, code, timer)

    def append_move(
        self,
        code: str,
        seq: int,
        game: int,
        move: str,
        played_by: str | None = None,
        timer: Timer | Literal["keep"] | None = "keep",
    ) -> None:
        if played_by is not None and played_by not in PLAYED_BY:
            raise StoreError(f"unknown mover {played_by!r}")
        # The common case is one statement (one round trip to PostgreSQL): it
        # inserts only if ``seq`` follows the table's last move in its current
        # game; the primary key refuses a second writer of the same number.
        # A new timer goes with the move, in the same transaction.
        insert = (
            "INSERT INTO web_moves (code, seq, game, move, played_by)"
            " SELECT CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER),"
            " CAST(? AS TEXT), CAST(? AS TEXT)"
            " WHERE EXISTS (SELECT 1 FROM web_tables WHERE code = ? AND game = ?)"
            " AND (SELECT COALESCE(MAX(seq), 0) FROM web_moves WHERE code = ?) = ?"
        )
        params = (code, seq, game, move, played_by, code, game, code, seq - 1)
        try:
            if timer == "keep":
                with self._single() as cur:
                    done = self._exec(cur, insert, params).rowcount
            else:
                with self._transaction() as cur:
                    done = self._exec(cur, insert, params).rowcount
                    if done == 1:
                        self._write_timer(cur, code, timer)
        except Exception as exc:
            if self._is_integrity_error(exc):
                raise DuplicateMove(f"table {code} already has move {seq}") from None
            raise
        if done == 1:
            return
        with self._transaction() as cur:  # refused: say why
            row = self._exec(
                cur,
                "SELECT t.game, (SELECT COALESCE(MAX(seq), 0) FROM web_moves m"
                " WHERE m.code = t.code) FROM web_tables t WHERE t.code = ?",
                (code,),
            ).fetchone()
        if row is None:
            raise StoreError(f"no table {code}")
        if int(row[0]) != game:
            raise StoreError(f"table {code} plays game {row[0]}, not {game}")
        if seq <= int(row[1]):
            raise DuplicateMove(f"table {code} already has move {seq}")
        raise StoreError(f"table {code} is at move {row[1]}; move {seq} leaves a gap")

    def resign(self, code: str, game: int, seat: int) -> None:
        with self._transaction() as cur:
            done = self._exec(
                cur,
                "UPDATE web_games SET resigned = ? WHERE code = ? AND game = ? AND finished = 0",
                (seat, code, game),
            ).rowcount
            if done != 1:
                raise StoreError(f"table {code} has no game {game} that goes on")

    def finish_game(
        self, code: str, game: int, record: str, also: Callable[[Tx], Any] | None = None
    ) -> None:
        with self._transaction() as cur:
            self._exec(
                cur,
                "UPDATE web_games SET finished = 1, record = ? WHERE code = ? AND game = ?",
                (record, code, game),
            )
            if also is not None:
                also(Tx(self, cur))

    def start_game(self, code: str, game: int, seed: int) -> None:
        with self._transaction() as cur:
            row = self._exec(
                cur,
                "SELECT t.game, (SELECT COALESCE(MAX(seq), 0) FROM web_moves m"
                " WHERE m.code = t.code) FROM web_tables t WHERE t.code = ?",
                (code,),
            ).fetchone()
            if row is None:
                raise StoreError(f"no table {code}")
            if int(row[0]) + 1 != game:
                raise StoreError(f"table {code} is at game {row[0]}; cannot start game {game}")
            self._exec(
                cur,
                "INSERT INTO web_games (code, game, seed, first_seq) VALUES (?, ?, ?, ?)",
                (code, game, seed, int(row[1]) + 1),
            )
            self._exec(cur, "UPDATE web_tables SET game = ? WHERE code = ?", (game, code))

    def game_record(self, code: str, game: int) -> str | None:
        with self._transaction() as cur:
            row = self._exec(
                cur,
                "SELECT record FROM web_games WHERE code = ? AND game = ? AND finished = 1",
                (code, game),
            ).fetchone()
        return None if row is None else str(row[0])

    def moves_since(self, code: str, game: int, seq: int) -> list[tuple[int, str, str | None]]:
        with self._transaction() as cur:
            rows = self._exec(
                cur,
                "SELECT seq, move, played_by FROM web_moves WHERE code = ? AND game = ?"
                " AND seq > ? ORDER BY seq",
                (code, game, seq),
            ).fetchall()
        return [(int(r[0]), str(r[1]), r[2]) for r in rows]

    def positions(self, codes: Sequence[str]) -> dict[str, tuple[int, int, bool]]:
        found: dict[str, tuple[int, int, bool]] = {}
        with self._transaction() as cur:
            for start in range(0, len(codes), 500):
                chunk = list(codes[start : start + 500])
                marks = ", ".join("?" for _code in chunk)
                rows = self._exec(
                    cur,
                    "SELECT t.code, t.game, g.finished,"
                    " (SELECT COALESCE(MAX(seq), 0) FROM web_moves m WHERE m.code = t.code)"
                    " FROM web_tables t JOIN web_games g ON g.code = t.code AND g.game = t.game"
                    f" WHERE t.code IN ({marks})",
                    chunk,
                ).fetchall()
                for code, game, finished, seq in rows:
                    found[str(code)] = (int(game), int(seq), bool(finished))
        return found

    def ping(self) -> None:
        with self._single() as cur:
            self._exec(cur, "SELECT 1").fetchone()

    def heartbeat(self, process: str, now: float, lease_for: float) -> list[str]:
        with self._transaction() as cur:
            self._exec(
                cur,
                "INSERT INTO web_processes (id, started, heartbeat) VALUES (?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET heartbeat = excluded.heartbeat",
                (process, now, now),
            )
            # A lease that lapsed (this process was too busy to beat in time)
            # and that nobody took since is still this process's: extended.
            self._exec(
                cur,
                "UPDATE web_leases SET expires = ? WHERE holder = ?",
                (now + lease_for, process),
            )
            rows = self._exec(
                cur, "SELECT code FROM web_leases WHERE holder = ?", (process,)
            ).fetchall()
        return [str(r[0]) for r in rows]

    def claim_lease(self, code: str, process: str, now: float, lease_for: float) -> bool:
        with self._transaction() as cur:
            done = self._exec(
                cur,
                "INSERT INTO web_leases (code, holder, expires) VALUES (?, ?, ?)"
                " ON CONFLICT (code) DO UPDATE SET holder = excluded.holder,"
                " expires = excluded.expires"
                " WHERE web_leases.expires < ? OR web_leases.holder = excluded.holder",
                (code, process, now + lease_for, now),
            ).rowcount
        return bool(done == 1)

    def lease_holder(self, code: str, now: float) -> str | None:
        with self._transaction() as cur:
            row = self._exec(
                cur, "SELECT holder FROM web_leases WHERE code = ? AND expires >= ?", (code, now)
            ).fetchone()
        return None if row is None else str(row[0])

    def release_leases(self, process: str, codes: Sequence[str] | None = None) -> None:
        with self._transaction() as cur:
            if codes is None:
                self._exec(cur, "DELETE FROM web_leases WHERE holder = ?", (process,))
            else:
                for code in codes:
                    self._exec(
                        cur,
                        "DELETE FROM web_leases WHERE holder = ? AND code = ?",
                        (process, code),
                    )

    def orphans(self, now: float, limit: int = 100) -> list[str]:
        with self._transaction() as cur:
            rows = self._exec(
                cur,
                "SELECT t.code FROM web_tables t JOIN web_games g"
                " ON g.code = t.code AND g.game = t.game WHERE g.finished = 0"
                " AND NOT EXISTS (SELECT 1 FROM web_seats s WHERE s.code = t.code"
                " AND s.kind = 'open')"
                " AND NOT EXISTS (SELECT 1 FROM web_leases l WHERE l.code = t.code"
                " AND l.expires >= ?) ORDER BY t.created LIMIT ?",
                (now, limit),
            ).fetchall()
        return [str(r[0]) for r in rows]

    def set_presence(self, code: str, seat: int, process: str, conns: int) -> None:
        with self._transaction() as cur:
            if conns <= 0:
                self._exec(
                    cur,
                    "DELETE FROM web_presence WHERE code = ? AND seat = ? AND process = ?",
                    (code, seat, process),
                )
            else:
                self._exec(
                    cur,
                    "INSERT INTO web_presence (code, seat, process, conns) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (code, seat, process) DO UPDATE SET conns = excluded.conns",
                    (code, seat, process, conns),
                )

    def presence(self, code: str, alive_since: float) -> dict[int, set[str]]:
        with self._transaction() as cur:
            rows = self._exec(
                cur,
                "SELECT p.seat, p.process FROM web_presence p JOIN web_processes w"
                " ON w.id = p.process WHERE p.code = ? AND w.heartbeat >= ?",
                (code, alive_since),
            ).fetchall()
        found: dict[int, set[str]] = {}
        for seat, process in rows:
            found.setdefault(int(seat), set()).add(str(process))
        return found

    def forget_process(self, process: str) -> None:
        with self._transaction() as cur:
            for table in ("web_presence", "web_leases"):
                column = "process" if table == "web_presence" else "holder"
                self._exec(cur, f"DELETE FROM {table} WHERE {column} = ?", (process,))
            self._exec(cur, "DELETE FROM web_processes WHERE id = ?", (process,))

    def forget_dead(self, dead_before: float) -> list[str]:
        with self._transaction() as cur:
            dead = [
                str(r[0])
                for r in self._exec(
                    cur, "SELECT id FROM web_processes WHERE heartbeat < ?", (dead_before,)
                ).fetchall()
            ]
            for process in dead:
                self._exec(cur, "DELETE FROM web_presence WHERE process = ?", (process,))
                self._exec(cur, "DELETE FROM web_processes WHERE id = ?", (process,))
        return dead


class SqliteStore(_SqlStore):
    """An embedded SQLite file in WAL mode (or ``:memory:`` for tests).

    WAL with ``synchronous=NORMAL`` keeps every committed move through a
    killed server process; only a power cut may lose the last commits.
    Checkpoints (copying the log into the database, with an fsync) run in a
    thread of their own every ``checkpoint_every`` seconds, so a commit on
    the server's event loop never waits for the disk.
    """

    def __init__(
        self, path: str | Path, checkpoint_every: float = 1.0, *, exclusive: bool = False
    ) -> None:
        super().__init__()
        self.path = str(path)
        self._held: Any = None
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            if exclusive:
                self._held = self._hold(self.path)
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        self._conn.execute("PRAGMA busy_timeout=5000")
        self._create_schema()
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self.path != ":memory:" and checkpoint_every > 0:
            self._conn.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop,
                args=(checkpoint_every,),
                name="sqlite-checkpoint",
                daemon=True,
            )
            self._checkpointer.start()

    def _checkpoint_loop(self, every: float) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None)
        try:
            conn.execute("PRAGMA busy_timeout=5000")
            while not self._stop.wait(every):
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error:  # pragma: no cover - the main connection checkpoints at close
            pass
        finally:
            conn.close()

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        with self._lock:
            cur = self._conn.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                yield cur
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            else:
                cur.execute("COMMIT")
            finally:
                cur.close()

    @contextmanager
    def _single(self) -> Iterator[Any]:
        with self._lock:
            cur = self._conn.cursor()
            try:
                yield cur
            finally:
                cur.close()

    def _is_integrity_error(self, exc: Exception) -> bool:
        return isinstance(exc, sqlite3.IntegrityError)

    def _has_table(self, cur: Any, name: str) -> bool:
        row = cur.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
        ).fetchone()
        return row is not None

    @property
    def journal_mode(self) -> str:
        with self._lock:
            return str(self._conn.execute("PRAGMA journal_mode").fetchone()[0])

    @staticmethod
    def _hold(path: str) -> Any:
        """Lock ``path``'s lock file for this process's life, or refuse (issue 12).

        SQLite is for one server process: a second one would hold its own
        copy of every table, and the two would diverge. The lock is the
        operating system's (``flock``), so a killed process releases it.
        """
        import fcntl

        held = open(path + ".lock", "a+")  # noqa: SIM115 - held open for the store's life
        try:
            fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            held.close()
            raise StoreError(
                f"another passing-game server already serves {path}: an SQLite file is for"
                " one server process; to run several, use PostgreSQL"
                " (--db postgresql://USER:PASSWORD@HOST/DB)"
            ) from None
        return held

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=5)
        with self._lock:
            if self.path != ":memory:":
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._conn.close()
        if self._held is not None:
            self._held.close()
            self._held = None


#: The advisory lock key under which a PostgreSQL schema is migrated.
SCHEMA_LOCK = 0x7061_7373  # "pass"


class PostgresStore(_SqlStore):
    """A PostgreSQL database through psycopg 3 and a connection pool.

    ``pool_size`` connections (psycopg_pool) let that many calls run at once
    from ``AsyncStore``'s threads, each a round trip the event loop never
    waits for. ``schema`` keeps tests apart.

    Like SQLite's WAL mode with ``synchronous=NORMAL``, commits do not wait
    for the database's own disk flush (``synchronous_commit=off``): a move is
    in PostgreSQL before anyone hears of it, so killing the game server loses
    nothing, and a move costs one round trip instead of an fsync. Only a
    crash of PostgreSQL's machine may lose the last fraction of a second;
    ``synchronous_commit=True`` trades speed for that too.
    """

    placeholder = "%s"

    def __init__(
        self,
        url: str,
        schema: str | None = None,
        *,
        synchronous_commit: bool = False,
        pool_size: int = 4,
    ) -> None:
        super().__init__()
        import psycopg
        from psycopg_pool import ConnectionPool

        self._psycopg = psycopg
        #: The database's address (it may hold a password: never logged).
        self.url = url
        self.schema = schema
        self.synchronous_commit = synchronous_commit
        if schema is not None and not schema.replace("_", "").isalnum():
            raise StoreError(f"bad schema name {schema!r}")
        # One plain connection first: a wrong URL or password fails here with
        # the driver's own message, not with a pool's timeout.
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as first:
            if schema is not None:
                # IF NOT EXISTS is not safe against a process creating the
                # schema at the same moment: take the migration lock first.
                with first.transaction():
                    first.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                    first.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')

        def configure(conn: Any) -> None:
            if not synchronous_commit:
                conn.execute("SET synchronous_commit TO OFF")
            if schema is not None:
                conn.execute(f'SET search_path TO "{schema}"')

        self.workers = max(1, pool_size)
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=self.workers,
            kwargs={"autocommit": True},
            configure=configure,
            open=True,
            name="passing-game",
        )
        self._pool.wait(timeout=30)
        self._create_schema()

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
            yield cur

    @contextmanager
    def _single(self) -> Iterator[Any]:
        with self._pool.connection() as conn, conn.cursor() as cur:
            yield cur

    def _is_integrity_error(self, exc: Exception) -> bool:
        return isinstance(exc, self._psycopg.errors.IntegrityError)

    def _snapshot(self, cur: Any) -> None:
        cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")

    def _lock_schema(self, cur: Any) -> None:
        # Servers started together on an empty database take turns here (issue 12).
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))

    def _has_table(self, cur: Any, name: str) -> bool:
        row = cur.execute("SELECT to_regclass(%s)", (name,)).fetchone()
        return row is not None and row[0] is not None

    def close(self) -> None:
        self._pool.close()


_P = ParamSpec("_P")
_T = TypeVar("_T")


class AsyncStore:
    """A store's calls in worker threads, so the event loop never waits on a database.

    SQLite gets one thread (one writer at a time anyway); PostgreSQL one per
    pooled connection. A call returns once its transaction has committed, so
    ``await db.append_move(...)`` still means "stored" before anything is
    broadcast.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._threads = ThreadPoolExecutor(
            max_workers=max(1, store.workers), thread_name_prefix="store"
        )

    async def run(self, fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """Any of the store's methods, in a worker thread: ``await db.run(store.ping)``."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, functools.partial(fn, *args, **kwargs))

    _call = run

    async def create_table(self, table: NewTable) -> None:
        await self._call(self.store.create_table, table)

    async def load_table(self, code: str) -> StoredTable | None:
        return await self._call(self.store.load_table, code)

    async def unfinished_codes(self) -> list[str]:
        return await self._call(self.store.unfinished_codes)

    async def update_seat(self, code: str, seat: SeatRow) -> None:
        await self._call(self.store.update_seat, code, seat)

    async def append_move(
        self,
        code: str,
        seq: int,
        game: int,
        move: str,
        played_by: str | None = None,
        timer: Timer | Literal["keep"] | None = "keep",
    ) -> None:
        await self._call(self.store.append_move, code, seq, game, move, played_by, timer)

    async def set_timer(self, code: str, timer: Timer | None) -> None:
        await self._call(self.store.set_timer, code, timer)

    async def resign(self, code: str, game: int, seat: int) -> None:
        await self._call(self.store.resign, code, game, seat)

    async def finish_game(
        self, code: str, game: int, record: str, also: Callable[[Tx], Any] | None = None
    ) -> None:
        await self._call(self.store.finish_game, code, game, record, also)

    async def start_game(self, code: str, game: int, seed: int) -> None:
        await self._call(self.store.start_game, code, game, seed)

    async def game_record(self, code: str, game: int) -> str | None:
        return await self._call(self.store.game_record, code, game)

    def shutdown(self) -> None:
        """Wait for the calls in flight (every write they hold is committed), then stop."""
        self._threads.shutdown(wait=True)


def open_store(url: str | None = None, *, exclusive: bool = False) -> Store:
    """A store from a URL: ``sqlite:///relative.db``, ``sqlite:////abs.db``,
    ``sqlite://:memory:``, a plain file path, or ``postgresql://...``.

    ``exclusive`` (a server) refuses an SQLite file another process serves.
    """
    url = url or DEFAULT_DB
    if url.startswith(("postgresql://", "postgres://")):
        # ``?schema=NAME`` keeps the game's tables in a schema of their own
        # (made if missing): several sites, or tests, on one database.
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True)
        schema = next((v for k, v in query if k == "schema"), None)
        rest = urlencode([(k, v) for k, v in query if k != "schema"])
        return PostgresStore(urlunsplit(parts._replace(query=rest)), schema=schema)
    if url.startswith("sqlite://"):
        rest = url[len("sqlite://") :]
        if rest == ":memory:" or rest == "/:memory:":
            return SqliteStore(":memory:")
        return SqliteStore(rest[1:] if rest.startswith("/") else rest, exclusive=exclusive)
    if "://" in url:
        raise StoreError(f"unknown database URL {url!r}: use sqlite:///FILE or postgresql://...")
    return SqliteStore(url, exclusive=exclusive)


__all__ = [
    "AWAY_REASONS",
    "DEFAULT_DB",
    "MIGRATIONS",
    "PLAYED_BY",
    "SCHEMA_VERSION",
    "AsyncStore",
    "DuplicateMove",
    "NewTable",
    "PostgresStore",
    "SeatRow",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoredTable",
    "Timer",
    "hash_token",
    "open_store",
]
