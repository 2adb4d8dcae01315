"""The store: one SQL text for both databases, a transaction (``Tx``), the dialects' hooks.

``Store`` holds what both databases share: the transaction a repository's
functions run in (``Tx``, ``store/tx.py``: ``?`` placeholders whatever the
database, rewritten for PostgreSQL), the schema taken to its version at open, and the tables'
and leases' methods the server calls (each a transaction around a
repository function of ``store/tables.py`` or ``store/leases.py``). Its two
subclasses (``SqliteStore``, ``store/sqlite.py``; ``PostgresStore``,
``store/postgres.py``) give the connection and the few things the two
databases do differently: a lock other processes wait for, a snapshot of
one moment, how a refused key shows, and whether other processes may share
the database (``shared``, with a bus between them, ``bus``).

Nothing outside ``web/store/`` holds SQL or asks which database it runs on:
it asks the store (``is_integrity_error``, ``shared``) or a repository.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal

from passing_game.web.store import leases, schema, tables
from passing_game.web.store.rows import (
    PLAYED_BY,
    DuplicateMove,
    NewTable,
    SeatRow,
    StoredTable,
    StoreError,
    Timer,
)
from passing_game.web.store.tx import Tx

if TYPE_CHECKING:
    from passing_game.web.store.bus import Bus


class Store(ABC):
    """The storage interface the server uses, on SQLite or PostgreSQL.

    Its methods block; the server calls them through ``AsyncStore``, in
    worker threads, never on the event loop.
    """

    #: How many calls may usefully run at once (threads ``AsyncStore`` uses).
    workers: int = 1
    #: Whether other server processes may use the database at the same time
    #: (then they coordinate: leases, and a bus between them, ``bus``).
    shared: bool = False
    placeholder = "?"

    def __init__(self) -> None:
        self._lock = threading.RLock()

    # -- what a database provides ------------------------------------------

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
    def is_integrity_error(self, exc: Exception) -> bool:
        """Whether ``exc`` is the database refusing a duplicate or a missing key."""

    @abstractmethod
    def close(self) -> None:
        """Release the connection."""

    def _advisory_lock(self, cur: Any, key: int) -> None:  # noqa: B027 - SQLite needs none
        """Hold lock ``key`` until the transaction ends (``Tx.lock``)."""

    def _snapshot(self, cur: Any) -> None:  # noqa: B027 - SQLite's reads are one already
        """Make this transaction's reads one snapshot (several statements, one moment)."""

    def _has_table(self, cur: Any, name: str) -> bool:
        raise NotImplementedError  # pragma: no cover

    @property
    def bus(self) -> Bus:
        """The bus between the processes sharing the database (``shared`` only)."""
        raise StoreError("this database has no other processes to talk to")

    def sibling(self, pool_size: int = 2) -> Store:
        """The same database on connections of its own (``shared`` only): the
        cluster's heartbeats never wait behind the moves in this store's queue."""
        raise StoreError("this database is for one process")

    # -- transactions --------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        """One transaction, for a repository's functions:
        ``with store.transaction() as tx: queue.lock(tx)``."""
        with self._transaction() as cur:
            yield Tx(self, cur)

    @contextmanager
    def _statement(self) -> Iterator[Tx]:
        """A ``Tx`` for one statement that commits by itself (one round trip)."""
        with self._single() as cur:
            yield Tx(self, cur)

    def _sql(self, text: str) -> str:
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)

    def _exec(self, cur: Any, text: str, params: Sequence[Any] = ()) -> Any:
        cur.execute(self._sql(text), tuple(params))
        return cur

    def _create_schema(self) -> None:
        """Bring the schema to ``SCHEMA_VERSION`` (``schema.migrate``)."""
        with self.transaction() as tx:
            schema.migrate(tx)

    @property
    def schema_version(self) -> int:
        with self.transaction() as tx:
            return schema.schema_version(tx)

    # -- tables, seats, games, moves (store/tables.py) ------------------------

    def create_table(self, table: NewTable) -> None:
        """Store a new table with its seats and its first game (number 1)."""
        try:
            with self.transaction() as tx:
                tables.insert_table(tx, table)
        except Exception as exc:
            if self.is_integrity_error(exc):
                raise StoreError(f"table {table.code} already exists") from None
            raise

    def load_table(self, code: str) -> StoredTable | None:
        """The table and its current game's moves, or ``None``."""
        with self.transaction() as tx:
            # The moves and the last sequence number must be of one moment:
            # otherwise a move committed between the two reads would make the
            # table think it holds a move it never replayed.
            tx.snapshot()
            return tables.load_table(tx, code)

    def unfinished_codes(self) -> list[str]:
        """Codes of the tables whose current game is not over."""
        with self.transaction() as tx:
            return tables.unfinished_codes(tx)

    def update_seat(self, code: str, seat: SeatRow) -> None:
        """Replace one seat (a person taking it, a name change)."""
        with self.transaction() as tx:
            if tables.update_seat(tx, code, seat) != 1:
                raise StoreError(f"table {code} has no seat {seat.seat}")

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
        if played_by is not None and played_by not in PLAYED_BY:
            raise StoreError(f"unknown mover {played_by!r}")
        # The common case is one statement (one round trip to PostgreSQL):
        # ``tables.insert_move``. A new timer goes with the move, in the same
        # transaction.
        try:
            if timer == "keep":
                with self._statement() as tx:
                    done = tables.insert_move(tx, code, seq, game, move, played_by)
            else:
                with self.transaction() as tx:
                    done = tables.insert_move(tx, code, seq, game, move, played_by)
                    if done == 1:
                        tables.write_timer(tx, code, timer)
        except Exception as exc:
            if self.is_integrity_error(exc):
                raise DuplicateMove(f"table {code} already has move {seq}") from None
            raise
        if done == 1:
            return
        with self.transaction() as tx:  # refused: say why
            at = tables.position(tx, code)
        if at is None:
            raise StoreError(f"no table {code}")
        if at[0] != game:
            raise StoreError(f"table {code} plays game {at[0]}, not {game}")
        if seq <= at[1]:
            raise DuplicateMove(f"table {code} already has move {seq}")
        raise StoreError(f"table {code} is at move {at[1]}; move {seq} leaves a gap")

    def set_timer(self, code: str, timer: Timer | None) -> None:
        """Replace the table's running timer (``None``: no timer runs)."""
        with self.transaction() as tx:
            tables.write_timer(tx, code, timer)

    def resign(self, code: str, game: int, seat: int) -> None:
        """Record that ``seat`` resigned ``game``."""
        with self.transaction() as tx:
            if tables.resign(tx, code, game, seat) != 1:
                raise StoreError(f"table {code} has no game {game} that goes on")

    def finish_game(
        self, code: str, game: int, record: str, also: Callable[[Tx], Any] | None = None
    ) -> None:
        """Mark a game over and keep its record (JSON text).

        ``also`` runs inside the same transaction (a rated game's ratings,
        ``ratings.rate_tx``): the record is kept with them or not at all.
        """
        with self.transaction() as tx:
            tables.finish_game(tx, code, game, record)
            if also is not None:
                also(tx)

    def start_game(self, code: str, game: int, seed: int, fairness: str | None = None) -> None:
        """Start the table's next game (a rematch) with a new seed (and its commitment)."""
        with self.transaction() as tx:
            at = tables.position(tx, code)
            if at is None:
                raise StoreError(f"no table {code}")
            if at[0] + 1 != game:
                raise StoreError(f"table {code} is at game {at[0]}; cannot start game {game}")
            tables.start_game(tx, code, game, seed, at[1] + 1, fairness)

    def set_deal(self, code: str, game: int, seed: int, fairness: str | None) -> None:
        """A game's seed and secrets before its first move (its deal's contributions)."""
        with self.transaction() as tx:
            tables.set_deal(tx, code, game, seed, fairness)

    def game_record(self, code: str, game: int) -> str | None:
        """The record of a finished game, or ``None``."""
        with self.transaction() as tx:
            return tables.game_record(tx, code, game)

    def moves_since(self, code: str, game: int, seq: int) -> list[tuple[int, str, str | None]]:
        """The table's moves of ``game`` after ``seq``: (seq, move, played_by), in order."""
        with self.transaction() as tx:
            return tables.moves_since(tx, code, game, seq)

    def positions(self, codes: Sequence[str]) -> dict[str, tuple[int, int, bool]]:
        """Code -> (current game, last move's number, whether that game is finished)."""
        with self.transaction() as tx:
            return tables.positions(tx, codes)

    def ping(self) -> None:
        """Answer if the database answers (raises otherwise)."""
        with self._statement() as tx:
            tables.ping(tx)

    # -- several processes on one database (issue 12; store/leases.py) ---------

    def heartbeat(self, process: str, now: float, lease_for: float) -> list[str]:
        """Say ``process`` is alive; extend its leases (a lapsed one too, while
        nobody else took it); the codes it holds."""
        with self.transaction() as tx:
            return leases.heartbeat(tx, process, now, lease_for)

    def claim_lease(self, code: str, process: str, now: float, lease_for: float) -> bool:
        """Take the table's lease if nobody holds it live (or ``process`` does)."""
        with self.transaction() as tx:
            return leases.claim_lease(tx, code, process, now, lease_for)

    def lease_holder(self, code: str, now: float) -> str | None:
        """The process whose lease on the table is live, if any."""
        with self.transaction() as tx:
            return leases.lease_holder(tx, code, now)

    def release_leases(self, process: str, codes: Sequence[str] | None = None) -> None:
        """Give up leases (all of the process's when ``codes`` is ``None``)."""
        with self.transaction() as tx:
            leases.release_leases(tx, process, codes)

    def orphans(self, now: float, limit: int = 100) -> list[str]:
        """Started, unfinished tables whose lease nobody holds live: work nobody does."""
        with self.transaction() as tx:
            return leases.orphans(tx, now, limit)

    def set_presence(self, code: str, seat: int, process: str, conns: int) -> None:
        """How many clients of ``process`` sit at ``seat`` (0 removes the row)."""
        with self.transaction() as tx:
            leases.set_presence(tx, code, seat, process, conns)

    def presence(self, code: str, alive_since: float) -> dict[int, set[str]]:
        """Seat -> the live processes with a client at it."""
        with self.transaction() as tx:
            return leases.presence(tx, code, alive_since)

    def forget_process(self, process: str) -> None:
        """A process stops: its presence, leases and row go."""
        with self.transaction() as tx:
            leases.forget_process(tx, process)

    def forget_dead(self, dead_before: float) -> list[str]:
        """Processes silent since ``dead_before`` are forgotten; their ids."""
        with self.transaction() as tx:
            return leases.forget_dead(tx, dead_before)


__all__ = ["Store", "Tx"]
