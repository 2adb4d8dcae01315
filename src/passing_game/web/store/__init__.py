"""Where the web app keeps its rows: one layer, SQLite or PostgreSQL.

Every SQL statement of the web is in this package; the features call its
repositories, each a module of functions that take a transaction (``Tx``)
and plain values and return rows (``rows``) or plain values:

==================  ==================================================================
``schema``          the schema of every table, one migration step per version
``rows``            the row types (``SeatRow``, ``StoredTable``, ``Ticket``, ...)
``db``              ``Store`` (the tables' methods, transactions)
``tx``              ``Tx``, the transaction every repository function takes
``urls``            ``open_store``: a store from its URL
``sqlite``          ``SqliteStore``: a file in WAL mode, one server process
``postgres``        ``PostgresStore``: a connection pool, several server processes
``aio``             ``AsyncStore``: the store's calls in worker threads
``bus``             LISTEN/NOTIFY between the processes on one PostgreSQL
``tables``          tables, seats, games, moves
``leases``          processes, leases, presence (several processes)
``accounts``        accounts, sessions, devices
``attempts``        counted attempts (sign-in throttling)
``ratings``         ratings and their changes
``queue``           the quick-play queue
``daily``           the daily deal's attempts
``settings``        the site's own settings
``analyses``        analyses kept per record
``history``         an account's games and tables
``admin``           the moderators' reads and writes, and their log
``puzzles``         puzzle ratings, solvers, first attempts and streaks
``learning``        the tutorial's lessons an account has done
``ladder``          the published ladders of agents
==================  ==================================================================

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
passing_game.web.store.rows.DuplicateMove: table ABC234 already has move 1
"""

from __future__ import annotations

from passing_game.web.store.aio import AsyncStore
from passing_game.web.store.db import Store
from passing_game.web.store.postgres import PostgresStore
from passing_game.web.store.rows import (
    AWAY_REASONS,
    PLAYED_BY,
    DuplicateMove,
    NewTable,
    SeatKind,
    SeatRow,
    StoredTable,
    StoreError,
    Timer,
    hash_token,
)
from passing_game.web.store.schema import MIGRATIONS, SCHEMA_LOCK, SCHEMA_VERSION
from passing_game.web.store.sqlite import SqliteStore
from passing_game.web.store.tx import Tx
from passing_game.web.store.urls import DEFAULT_DB, open_store

__all__ = [
    "AWAY_REASONS",
    "DEFAULT_DB",
    "MIGRATIONS",
    "PLAYED_BY",
    "SCHEMA_LOCK",
    "SCHEMA_VERSION",
    "AsyncStore",
    "DuplicateMove",
    "NewTable",
    "PostgresStore",
    "SeatKind",
    "SeatRow",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoredTable",
    "Timer",
    "Tx",
    "hash_token",
    "open_store",
]
