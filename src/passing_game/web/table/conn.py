"""One client's connection: its outgoing queue, its rate limit, where it sits.

Frames go out in order through the connection's own queue, so a slow
client never holds up a table; a client that falls too far behind is
dropped (it resyncs when it reconnects).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import orjson

from passing_game.i18n import DEFAULT_LANGUAGE
from passing_game.web.protocol import RateLimit

log = logging.getLogger("passing_game.web")

#: Frames a client may fall behind by before it is dropped (it resyncs on reconnect).
MAX_QUEUE = 200


def encode(frame: dict[str, Any]) -> str:
    """A frame as compact JSON text (orjson: a fifth of the time the standard library takes).

    >>> encode({"type": "state", "name": "Ana Ñ", "legal": ["L3-5"]})
    '{"type":"state","name":"Ana Ñ","legal":["L3-5"]}'
    """
    return orjson.dumps(frame).decode()


class Place(Protocol):
    """Where a connection sits: its table's code, the number of the table's
    last frame (errors carry it), and how to leave it."""

    @property
    def code(self) -> str: ...

    @property
    def state(self) -> int: ...

    def detach(self, conn: Conn) -> None: ...


class Actor(Protocol):
    """Who an intent is from: a connection here, or one of another process (``Relay``)."""

    seat: int | None
    language: str

    def push(self, frame: dict[str, Any]) -> None: ...


class Relay:
    """A client of another process, for an intent forwarded to this one.

    What the table would push to the client is kept in ``out`` and sent
    back with the answer.
    """

    def __init__(self, seat: int | None, language: str) -> None:
        self.seat = seat
        self.language = language
        self.out: list[dict[str, Any]] = []

    def push(self, frame: dict[str, Any]) -> None:
        self.out.append(frame)


class Conn:
    """One client connection: an outgoing queue, a rate limit, where it sits.

    ``send`` is the transport's coroutine for one text frame; ``run`` pumps
    the queue into it until the connection closes.
    """

    def __init__(self, send: Callable[[str], Awaitable[None]]) -> None:
        self._send = send
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.table: Place | None = None
        self.seat: int | None = None
        #: The hash of the seat token this connection sat down with.
        self.token_hash: str | None = None
        #: The signed-in person on this connection (issue 13), if any, and the
        #: hash of the session it opened with: checked again before every intent
        #: (issue 22), and the socket closes when the session ends.
        self.user_id: str | None = None
        self.user_name: str | None = None
        self.session_hash: str | None = None
        #: Whom the client is counted against (``addresses.address_key``).
        self.address = "?"
        self.limit = RateLimit()
        self.hinting = False
        self.closed = False
        #: The visitor's language (``web/http/i18n.py``): frames and errors are worded in it.
        self.language = DEFAULT_LANGUAGE
        self._last_rate_error = -1.0

    def push(self, frame: dict[str, Any]) -> None:
        self.push_text(encode(frame))

    def push_text(self, text: str) -> None:
        """Queue one encoded frame (shared by every connection of a seat)."""
        if self.closed:
            return
        if self._queue.qsize() >= MAX_QUEUE:
            where = self.table.code if self.table is not None else None
            log.warning(
                "dropping a client that fell %d frames behind",
                MAX_QUEUE,
                extra={"table": where, "event": "slow-client"},
            )
            self.close()
            return
        self._queue.put_nowait(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(None)

    async def run(self) -> None:
        while True:
            text = await self._queue.get()
            if text is None:
                return
            await self._send(text)

    def rate_error_due(self, now: float) -> bool:
        """Whether to tell a flooding client again (at most once a second)."""
        if now - self._last_rate_error >= 1.0:
            self._last_rate_error = now
            return True
        return False
