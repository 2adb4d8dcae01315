"""The bus between server processes: PostgreSQL's LISTEN/NOTIFY (docs/DECISIONS.md P28).

``PgCluster`` (web/server/pgcluster.py) listens and publishes on connections of its
own, outside the store's pool, through these calls: what it sends and the
channels are its own business, the statements are here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Bus:
    """Where the processes sharing a PostgreSQL database talk (``PostgresStore.bus``)."""

    #: The database's address (it may hold a password: never logged).
    url: str = ""
    #: The store's schema, which names the channels (``None``: ``public``).
    schema: str | None = None

    async def connect(self) -> Any:
        """A connection of its own (autocommit), for listening or publishing."""
        import psycopg

        return await psycopg.AsyncConnection.connect(self.url, autocommit=True, connect_timeout=10)

    @staticmethod
    async def listen(conn: Any, channel: str) -> None:
        """Deliver ``channel``'s notifications to ``conn`` (``conn.notifies()``)."""
        await conn.execute(f'LISTEN "{channel}"')

    @staticmethod
    async def notify(conn: Any, messages: Sequence[tuple[str, str]]) -> None:
        """Send (channel, payload) notifications in order, in one statement."""
        sql = "SELECT " + ", ".join(["pg_notify(%s, %s)"] * len(messages))
        await conn.execute(sql, [value for message in messages for value in message])


__all__ = ["Bus"]
