"""A transaction (``Tx``): what every repository function takes.

Apart from the store (``store/db.py``), which makes one and calls the
repositories with it: so the repositories never import the store, and the
store imports them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class Dialect(Protocol):
    """What a transaction asks of its store: running a statement, and the few
    things the two databases do differently (``Store``'s hooks)."""

    def _exec(self, cur: Any, text: str, params: Sequence[Any] = ()) -> Any: ...

    def _advisory_lock(self, cur: Any, key: int) -> None: ...

    def _snapshot(self, cur: Any) -> None: ...

    def _has_table(self, cur: Any, name: str) -> bool: ...

    def is_integrity_error(self, exc: Exception) -> bool: ...


class Tx:
    """A cursor inside one transaction, with ``?`` placeholders on both databases.

    The repositories (``store/*.py``) take one: ``tables.load_table(tx, code)``.
    """

    def __init__(self, store: Dialect, cur: Any) -> None:
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

    def execute(self, sql: str) -> None:
        """A statement as written, without parameters (the schema's steps)."""
        self.cur.execute(sql)

    def is_integrity_error(self, exc: Exception) -> bool:
        """Whether ``exc`` is a unique or foreign key refusal."""
        return self._store.is_integrity_error(exc)

    def lock(self, key: int) -> None:
        """Hold the lock ``key`` until the transaction ends: other processes that
        ask for it wait (PostgreSQL: an advisory transaction lock; SQLite: its
        write lock, which every transaction already holds, one process anyway)."""
        self._store._advisory_lock(self.cur, key)

    def snapshot(self) -> None:
        """Make this transaction's reads one snapshot (the transaction's first call)."""
        self._store._snapshot(self.cur)

    def has_table(self, name: str) -> bool:
        return self._store._has_table(self.cur, name)


__all__ = ["Dialect", "Tx"]
