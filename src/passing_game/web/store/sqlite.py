"""SQLite: an embedded file in WAL mode, for one server process."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from passing_game.web.store.db import Store
from passing_game.web.store.rows import StoreError


class SqliteStore(Store):
    """An embedded SQLite file in WAL mode (or ``:memory:`` for tests).

    WAL with ``synchronous=NORMAL`` keeps every committed move through a
    killed server process; only a power cut may lose the last commits.
    Checkpoints (copying the log into the database, with an fsync) run in a
    thread of their own every ``checkpoint_every`` seconds, so a commit on
    the server's event loop never waits for the disk.

    Every transaction begins ``IMMEDIATE``: it holds the write lock from its
    first statement, so transactions take turns (``Tx.lock`` has nothing to add).
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

    def is_integrity_error(self, exc: Exception) -> bool:
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


__all__ = ["SqliteStore"]
