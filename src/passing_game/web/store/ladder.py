"""Published ladders of agents (``web_ladders``; ``web/ladder/``).

Each row is one ladder as it was published: the JSON document checked by
``web.ladder.model`` (a ``passing-game arena --ladder --json`` file), when,
by whom and why. The page shows the newest; older rows are the history.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx

#: Published ladders get their numbers under this lock (PostgreSQL: advisory).
LADDER_LOCK = 0x6C61_6464  # "ladd"


@dataclass(frozen=True)
class PublishedLadder:
    id: int
    published: float
    actor: str
    reason: str
    #: The checked document, as JSON text.
    document: str


def add(tx: Tx, published: float, actor: str, reason: str, document: str) -> int:
    """Keep a newly published ladder; its number (one more than the last)."""
    tx.lock(LADDER_LOCK)
    row = tx.one("SELECT MAX(id) FROM web_ladders")
    number = 1 if row is None or row[0] is None else int(row[0]) + 1
    tx.run(
        "INSERT INTO web_ladders (id, published, actor, reason, document) VALUES (?, ?, ?, ?, ?)",
        (number, published, actor, reason, document),
    )
    return number


def latest(tx: Tx) -> PublishedLadder | None:
    """The newest published ladder, or None before the first."""
    row = tx.one(
        "SELECT id, published, actor, reason, document FROM web_ladders ORDER BY id DESC LIMIT 1"
    )
    if row is None:
        return None
    return PublishedLadder(int(row[0]), float(row[1]), str(row[2]), str(row[3]), str(row[4]))


def count(tx: Tx) -> int:
    """How many ladders were ever published."""
    row = tx.one("SELECT COUNT(*) FROM web_ladders")
    return int(row[0]) if row else 0


__all__ = ["LADDER_LOCK", "PublishedLadder", "add", "count", "latest"]
