"""Quick play and public tables (issue 13, item 4; docs/DECISIONS.md P30).

**Quick play.** A person asks for a game of 2, 3 or 4 players, rated or
casual (``{"type": "quick", "players": 2, "rated": false}``) and waits in
the queue, a table of the store (``web_queue``), never one process's
memory: any number of server processes share it. Each waiting person is a
row: a random ticket, what they wait for, their name (or account), the hash
of the seat token their own process made for them (the token never leaves
that process, as with ``join``), when they started waiting and when their
process last said they still wait (``seen``).

**Matching** (``web/quickplay/matching.py``) is one transaction that holds a
lock (``store.queue.lock``; PostgreSQL: an advisory transaction lock;
SQLite: its write lock, one process anyway): the newcomer's row is inserted,
the rows waiting for the same game are read oldest first, and if there are
enough distinct people, the new table (origin ``"quick"``, seats in waiting
order) is created and each row is marked with its code and seat by a
conditional ``UPDATE … WHERE code IS NULL`` in that same transaction. Two
processes matching at once take turns at the lock, and a row can be given a
seat only once: nobody sits at two tables, and two people never end up at
two half-empty ones. The process that matched leads the new table
(``Lobby.lead``'s rules: it claims the lease).

**Telling the others.** Every process polls the queue for its own waiting
people twice a second: one query finds their rows (a seat found: the
person gets ``joined`` and the table's frames), says they still wait, and
counts who waits for what (the ``queue`` frame's ``waiting``). A process
that dies stops saying so, and its people's rows are dropped after
``STALE_SECONDS``; a connection that closes leaves the queue at once.

**One place per account** (issue 22), from any socket or process: refused
while one of its rows waits (``already-waiting``) or while it holds a seat
it has not left at an unfinished quick game (``already-playing``, naming the
table), read under the queue's lock in the transaction that inserts the row.
A guest has no account to count: each connection waits once.

**Bots.** After a wait (the page offers it after ``FILL_AFTER`` seconds) a
waiting person may ask for bots (``quick_fill``): the people waiting for
the same casual game are seated with them, oldest first, and bots of level
``FILL_LEVEL`` take the other seats. A game with a bot is never rated
(a rated game is between people), so a person waiting for a rated game who
asks for bots is seated alone with them, and the others go on waiting.

**Public tables** are those created with ``public: true`` and every quick
table: ``GET /api/tables/public`` lists the ones that wait for players or
are being played, newest first, at most ``PUBLIC_LIMIT``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.i18n import N_, _, using_language
from passing_game.web.game.errors import GIVE_A_NAME, NOT_READ, NOT_SAVED, SIGN_IN_RATED
from passing_game.web.protocol import ProtocolError
from passing_game.web.quickplay.matching import (
    PUBLIC_LIMIT,
    STALE_SECONDS,
    QueueRace,
    QueueRefused,
    Seated,
    enter_queue,
    fill_queue,
    forget_tickets,
    leave_queue,
    match_queue,
    poll_queue,
    public_tables,
)
from passing_game.web.server.cluster import Cluster
from passing_game.web.store import AsyncStore, Store, hash_token
from passing_game.web.store.rows import MEETS_BOTS, PEOPLE_ONLY, Ticket
from passing_game.web.table.conn import Conn
from passing_game.web.table.seating import Seat, Seating

log = logging.getLogger("passing_game.web")

#: Seconds of waiting after which the page offers bots for the empty seats.
FILL_AFTER = 20.0
#: How often a process looks at the queue for its waiting people.
POLL_SECONDS = 0.5


#: Refusals this module sends from more than one place (each worded once).
NOT_WAITING = N_("You are not waiting for a game.")


@dataclass(eq=False)
class Waiter:
    """A connection of this process whose person waits in the queue."""

    conn: Conn
    ticket: Ticket
    #: The seat token the person gets with their seat (only its hash is stored).
    token: str
    #: Whether the row is in the store (the poll looks for it only then).
    entered: bool = False
    #: The number of people waiting the person was last told (``-1``: none yet).
    told: int = -1


class Quick(Protocol):
    """What quick play reads of a table made from the queue, and seats people at."""

    @property
    def leader(self) -> bool: ...

    @property
    def seats(self) -> Sequence[Seat]: ...

    @property
    def lock(self) -> asyncio.Lock: ...

    @property
    def seating(self) -> Seating: ...

    async def reload(self) -> None: ...

    async def settle(self, *, finish: bool = False) -> None: ...


class Matchmaker(Protocol):
    """What quick play asks of its process: the store, the other processes (the
    new table's lease), its tables, and tasks that end when it closes."""

    @property
    def store(self) -> Store: ...

    @property
    def db(self) -> AsyncStore: ...

    @property
    def cluster(self) -> Cluster: ...

    @property
    def closing(self) -> bool: ...

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]: ...

    async def get(self, code: str) -> Quick | None: ...


class QuickPlay:
    """The queue as one process sees it: its own waiting people, and the poll."""

    def __init__(self, lobby: Matchmaker) -> None:
        self.lobby = lobby
        self.waiters: dict[str, Waiter] = {}
        self.of_conn: dict[Conn, str] = {}
        self.fill_after = FILL_AFTER
        self.poll_every = POLL_SECONDS
        self._poller: asyncio.Task[None] | None = None

    @property
    def store(self) -> Store:
        return self.lobby.store

    def _add(self, waiter: Waiter) -> None:
        self.waiters[waiter.ticket.ticket] = waiter
        self.of_conn[waiter.conn] = waiter.ticket.ticket

    def _drop(self, waiter: Waiter) -> bool:
        """Whether the waiter was still here (it is not any more)."""
        here = self.waiters.get(waiter.ticket.ticket) is waiter
        if here:
            del self.waiters[waiter.ticket.ticket]
            if self.of_conn.get(waiter.conn) == waiter.ticket.ticket:
                del self.of_conn[waiter.conn]
        return here

    def frame(self, waiter: Waiter, waiting: int) -> dict[str, Any]:
        ticket = waiter.ticket
        now = time.time()
        left = max(0.0, ticket.since + self.fill_after - now)
        return {
            "type": "queue",
            "players": ticket.players,
            "rated": ticket.rated,
            "waiting": waiting,
            "since": ticket.since,
            "waited_ms": round(max(0.0, now - ticket.since) * 1000),
            "fill_after": self.fill_after,
            "fill_in_ms": round(left * 1000),
        }

    def _tell(self, waiter: Waiter, waiting: int) -> None:
        waiter.told = waiting
        waiter.conn.push(self.frame(waiter, waiting))

    async def enter(
        self, conn: Conn, players: int, rated: bool, name: str | None, bots: bool = False
    ) -> None:
        """Wait for a game (``bots``: bot accounts may sit at it too, P62)."""
        if rated and conn.user_id is None:
            raise ProtocolError(_(SIGN_IN_RATED), "signed-out")
        name = conn.user_name or name
        if not name:
            raise ProtocolError(_(GIVE_A_NAME))
        if await self.cancel(conn, quiet=True):
            return  # the earlier wait was just given a seat: that is the game
        token = secrets.token_urlsafe(24)
        now = time.time()
        ticket = Ticket(
            secrets.token_urlsafe(18),
            *(players, rated, conn.user_id, name, hash_token(token), now),
            MEETS_BOTS if bots else PEOPLE_ONLY,
        )
        waiter = Waiter(conn, ticket, token)
        self._add(waiter)
        try:
            seated, waiting = await self._enter(ticket)
        except Exception as exc:
            self._drop(waiter)
            if isinstance(exc, QueueRefused):
                raise exc.error() from None
            raise
        waiter.entered = True
        if seated is not None:
            await self.made(seated)  # the person sits down there (if still connected)
        if self.waiters.get(ticket.ticket) is not waiter:
            return
        if conn.closed:  # gone while the store worked: the row goes too
            self._drop(waiter)
            self.lobby.spawn(self.lobby.db.run(leave_queue, self.store, ticket.ticket))
            return
        self._tell(waiter, waiting)
        self._ensure_poller()

    async def _enter(self, ticket: Ticket) -> tuple[Seated | None, int]:
        for _attempt in range(3):
            try:
                return await self.lobby.db.run(enter_queue, self.store, ticket, time.time())
            except QueueRace:  # pragma: no cover - the lock prevents it
                log.warning("a quick-play match raced; matching again")
        raise ProtocolError(_(NOT_SAVED), "store")

    async def fill(self, conn: Conn) -> None:
        found = self.of_conn.get(conn)
        waiter = self.waiters.get(found) if found is not None else None
        if waiter is None or not waiter.entered:
            raise ProtocolError(_(NOT_WAITING), "not-waiting")
        seated = None
        for _attempt in range(3):
            try:
                seated = await self.lobby.db.run(
                    fill_queue, self.store, waiter.ticket.ticket, time.time()
                )
                break
            except QueueRace:  # pragma: no cover - the lock prevents it
                continue
        if seated is None:
            self._drop(waiter)
            conn.push({"type": "queue_left"})
            raise ProtocolError(_(NOT_WAITING), "not-waiting")
        await self.made(seated)

    async def cancel(self, conn: Conn, *, quiet: bool = False) -> bool:
        """Stop waiting; whether a seat had been given meanwhile (the person takes it)."""
        found = self.of_conn.get(conn)
        waiter = self.waiters.get(found) if found is not None else None
        if waiter is None:
            if not quiet:
                conn.push({"type": "queue_left"})
            return False
        self._drop(waiter)
        seated = await self.lobby.db.run(leave_queue, self.store, waiter.ticket.ticket)
        if seated is not None:
            await self._seat(waiter, seated.code, seated.seats[waiter.ticket.ticket])
            return True
        if not quiet:
            conn.push({"type": "queue_left"})
        return False

    def gone(self, conn: Conn) -> None:
        """The connection closed: its person leaves the queue."""
        found = self.of_conn.get(conn)
        waiter = self.waiters.get(found) if found is not None else None
        if waiter is not None and self._drop(waiter):
            self.lobby.spawn(self.lobby.db.run(leave_queue, self.store, waiter.ticket.ticket))

    async def made(self, seated: Seated) -> None:
        """A table made from the queue here: this process leads it; its people here sit
        down (a bot account's hub calls it too: the bot's seat is found by its poll)."""
        lobby = self.lobby
        if await lobby.cluster.claim(seated.code):
            table = await lobby.get(seated.code)
            if table is not None and table.leader:
                await table.settle()
        log.info(
            "quick play seated %d person(s)",
            len(seated.seats),
            extra={"table": seated.code, "event": "quick"},
        )
        for ticket, seat in seated.seats.items():
            waiter = self.waiters.get(ticket)
            if waiter is not None:
                await self._seat(waiter, seated.code, seat)

    async def _seat(self, waiter: Waiter, code: str, seat: int) -> None:
        """The person's seat was given (here or by another process): they sit down."""
        self._drop(waiter)
        self.lobby.spawn(self.lobby.db.run(forget_tickets, self.store, [waiter.ticket.ticket]))
        conn = waiter.conn
        if conn.closed:
            return  # the seat stays theirs; a stand-in plays after the offline grace
        table = await self.lobby.get(code)
        if table is None:  # pragma: no cover - made in the same transaction as the row
            log.error("a quick-play table is missing", extra={"table": code})
            return
        if table.seats[seat].row.token_hash != waiter.ticket.token_hash:
            async with table.lock:
                await table.reload()
        await table.seating.sit(conn, seat, waiter.token, new=True)

    def _ensure_poller(self) -> None:
        if self._poller is None or self._poller.done():
            self._poller = self.lobby.spawn(self._poll())

    async def _poll(self) -> None:
        """While people wait here: their seats, their rows kept alive, the counts."""
        while self.waiters and not self.lobby.closing:
            await asyncio.sleep(self.poll_every)
            entered = [w for w in self.waiters.values() if w.entered]
            if not entered:
                continue
            try:
                found, counts = await self.lobby.db.run(
                    poll_queue, self.store, [w.ticket.ticket for w in entered], time.time()
                )
            except Exception:
                log.exception("could not read the quick-play queue")
                continue
            games = {(w.ticket.players, w.ticket.rated) for w in entered}
            for players, rated in games:
                if counts.get((players, rated), 0) >= players:
                    await self._second_chance(players, rated)
            for waiter in entered:
                if self.waiters.get(waiter.ticket.ticket) is not waiter:
                    continue
                spot = found.get(waiter.ticket.ticket)
                ticket = waiter.ticket
                if spot is None:
                    # Dropped as stale (this process stalled): back in, same place.
                    waiter.entered = False
                    self.lobby.spawn(self._again(waiter))
                elif spot[0] is not None and spot[1] is not None:
                    await self._seat(waiter, spot[0], spot[1])
                else:
                    waiting = counts.get((ticket.players, ticket.rated), 1)
                    if waiting != waiter.told:
                        self._tell(waiter, waiting)

    async def _second_chance(self, players: int, rated: bool) -> None:
        """Enough people wait for one game, yet nobody seated them: match now."""
        try:
            seated = await self.lobby.db.run(match_queue, self.store, players, rated, time.time())
        except Exception:
            log.exception("could not match the quick-play queue")
            return
        if seated is not None:
            await self.made(seated)

    async def _again(self, waiter: Waiter) -> None:
        try:
            seated, _waiting = await self._enter(waiter.ticket)
        except QueueRefused as refused:  # the account waits or plays elsewhere meanwhile
            if self._drop(waiter):
                with using_language(waiter.conn.language):
                    error = refused.error()
                frame = {"type": "error", "state": 0, "code": error.code, "message": str(error)}
                waiter.conn.push(frame)
                waiter.conn.push({"type": "queue_left"})
            return
        except Exception:
            log.exception("could not put a person back in the quick-play queue")
            return
        waiter.entered = True
        if seated is not None:
            await self.made(seated)

    async def close(self) -> None:
        """The server stops: its waiting people leave the queue."""
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._poller
        tickets = list(self.waiters)
        self.waiters.clear()
        self.of_conn.clear()
        if tickets:
            with contextlib.suppress(Exception):
                await self.lobby.db.run(forget_tickets, self.store, tickets)


# -- HTTP --------------------------------------------------------------------------


async def public_endpoint(request: Request) -> Response:
    """``GET /api/tables/public``: tables anybody may join or watch."""
    db: AsyncStore = request.app.state.lobby.db
    try:
        found = await db.run(public_tables, db.store)
    except Exception:
        log.exception("could not list the public tables")
        return JSONResponse({"error": _(NOT_READ)}, 503)
    return JSONResponse({"tables": found}, headers={"Cache-Control": "no-store"})


ROUTES = [Route("/api/tables/public", public_endpoint)]

__all__ = [
    "FILL_AFTER",
    "PUBLIC_LIMIT",
    "ROUTES",
    "STALE_SECONDS",
    "QuickPlay",
    "Seated",
    "Ticket",
    "enter_queue",
    "fill_queue",
    "leave_queue",
    "poll_queue",
    "public_tables",
]
