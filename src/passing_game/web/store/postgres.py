"""PostgreSQL through psycopg 3: a connection pool, several server processes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from passing_game.web.store.bus import Bus
from passing_game.web.store.db import Store
from passing_game.web.store.rows import StoreError
from passing_game.web.store.schema import SCHEMA_LOCK


class PostgresStore(Store):
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

    Other server processes may use the same database (``shared``): they lead
    tables by leases and talk on LISTEN/NOTIFY (``bus``).
    """

    placeholder = "%s"
    shared = True

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

    def is_integrity_error(self, exc: Exception) -> bool:
        return isinstance(exc, self._psycopg.errors.IntegrityError)

    def _snapshot(self, cur: Any) -> None:
        cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")

    def _advisory_lock(self, cur: Any, key: int) -> None:
        # Servers started together on an empty database take turns here (issue 12),
        # and so do processes matching the quick-play queue or starting a daily deal.
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (key,))

    def _has_table(self, cur: Any, name: str) -> bool:
        row = cur.execute("SELECT to_regclass(%s)", (name,)).fetchone()
        return row is not None and row[0] is not None

    @property
    def bus(self) -> Bus:
        return Bus(self.url, self.schema)

    def sibling(self, pool_size: int = 2) -> PostgresStore:
        return PostgresStore(
            self.url, self.schema, synchronous_commit=self.synchronous_commit, pool_size=pool_size
        )

    def close(self) -> None:
        self._pool.close()


__all__ = ["PostgresStore"]
