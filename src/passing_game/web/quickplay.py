"""Quick play and public tables (issue 13, item 4; docs/DECISIONS.md P30).

**Quick play.** A person asks for a game of 2, 3 or 4 players, rated or
casual (``{"type": "quick", "players": 2, "rated": false}``) and waits in
the queue, a table of the store (``web_queue``), never one process's
memory: any number of server processes share it. Each waiting person is a
row: a random ticket, what they wait for, their name (or account), the hash
of the seat token their own process made for them (the token never leaves
that process, as with ``join``), when they started waiting and when their
process last said they still wait (``seen``).

**Matching** is one transaction that holds a lock (PostgreSQL: an advisory
transaction lock; SQLite: its write lock, one process anyway): the newcomer's
row is inserted, the rows waiting for the same game are read oldest first,
and if there are enough distinct people, the new table (origin ``"quick"``,
seats in waiting order) is created and each row is marked with its code and
seat by a conditional ``UPDATE … WHERE code IS NULL`` in that same
transaction. Two processes matching at once take turns at the lock, and a
row can be given a seat only once: nobody sits at two tables, and two
people never end up at two half-empty ones. The process that matched leads
the new table (``Lobby.lead``'s rules: it claims the lease).

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
import json
import logging
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.i18n import _, using_language
from passing_game.rules import Rules
from passing_game.web.conn import Conn
from passing_game.web.protocol import (
    CLOCK_PRESETS,
    CODE_ALPHABET,
    CODE_LENGTH,
    Intent,
    ProtocolError,
)
from passing_game.web.store import NewTable, PostgresStore, SeatRow, Store, Tx, hash_token

if TYPE_CHECKING:
    from passing_game.web.lobby import Lobby

log = logging.getLogger("passing_game.web")

#: The advisory lock under which PostgreSQL processes match the queue ("quic").
QUEUE_LOCK = 0x7175_6963
#: Seconds of waiting after which the page offers bots for the empty seats.
FILL_AFTER = 20.0
#: How often a process looks at the queue for its waiting people.
POLL_SECONDS = 0.5
#: A waiting row its process has not refreshed for this long is dropped (the
#: process died); a live process refreshes it every ``POLL_SECONDS``.
STALE_SECONDS = 10.0
#: How long a matched row waits for its person's process to take the seat.
MATCHED_KEEP = 300.0
#: The level of the bots that fill a quick table's empty seats.
FILL_LEVEL = "medium"
#: A quick table with two or more people has this clock (P26's presets).
QUICK_CLOCK = "45"
#: The most tables ``GET /api/tables/public`` lists.
PUBLIC_LIMIT = 50

#: The intents this module answers.
QUICK_INTENTS = frozenset({"quick", "quick_fill", "quick_cancel"})


class QueueRace(RuntimeError):
    """A row was given a seat by somebody else meanwhile (the lock makes this
    impossible; the transaction is rolled back if it ever happens)."""


class QueueRefused(Exception):
    """The account already waits (``code`` ``None``) or plays at quick table ``code``.
    Raised in a store thread; ``error`` words it, in the event loop's language."""

    def __init__(self, code: str | None = None) -> None:
        super().__init__(code or "waiting")
        self.code = code

    def error(self) -> ProtocolError:
        if self.code is None:
            text = _("You are already waiting for a game, in another tab or window.")
            return ProtocolError(text, "already-waiting")
        text = _(
            "You are already playing at table {code}: go back to it, or finish that game first."
        )
        return ProtocolError(text.format(code=self.code), "already-playing")


@dataclass(frozen=True)
class Ticket:
    """One person waiting: a row of ``web_queue``."""

    ticket: str
    players: int
    rated: bool
    user_id: str | None
    name: str
    token_hash: str
    since: float


@dataclass(frozen=True)
class Seated:
    """A table made from the queue: its code, and each ticket's seat."""

    code: str
    seats: dict[str, int]


# -- the queue in the store (blocking: run through AsyncStore.run) -------------


def _lock(store: Store, tx: Tx) -> None:
    if isinstance(store, PostgresStore):
        tx.one("SELECT pg_advisory_xact_lock(?)", (QUEUE_LOCK,))


def _expire(tx: Tx, now: float) -> None:
    """Forget the rows of processes that died, and old matched rows."""
    tx.run("DELETE FROM web_queue WHERE code IS NULL AND seen < ?", (now - STALE_SECONDS,))
    tx.run("DELETE FROM web_queue WHERE code IS NOT NULL AND seen < ?", (now - MATCHED_KEEP,))


def _check_account(tx: Tx, ticket: Ticket, now: float) -> None:
    """One place per account (``QueueRefused``; a guest passes). Call with the lock held."""
    if ticket.user_id is None:
        return
    if tx.one(
        "SELECT 1 FROM web_queue WHERE user_id = ? AND ticket <> ? AND code IS NULL AND seen >= ?",
        (ticket.user_id, ticket.ticket, now - STALE_SECONDS),
    ):
        raise QueueRefused()
    playing = tx.one(  # a person's seat, not left, at an unfinished quick game
        "SELECT t.code FROM web_seats s JOIN web_tables t ON t.code = s.code"
        " JOIN web_games g ON g.code = t.code AND g.game = t.game"
        " WHERE s.user_id = ? AND s.kind = 'human' AND (s.away IS NULL OR s.away <> 'left')"
        " AND t.origin = 'quick' AND g.finished = 0 ORDER BY t.created DESC LIMIT 1",
        (ticket.user_id,),
    )
    if playing is not None:
        raise QueueRefused(str(playing[0]))


def _new_code(tx: Tx) -> str:
    for _attempt in range(50):
        code = "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))
        if tx.one("SELECT 1 FROM web_tables WHERE code = ?", (code,)) is None:
            return code
    raise RuntimeError("no free table code")  # pragma: no cover


def _waiting_count(tx: Tx, players: int, rated: bool, now: float) -> int:
    row = tx.one(
        "SELECT COUNT(*) FROM web_queue WHERE players = ? AND rated = ? AND code IS NULL"
        " AND seen >= ?",
        (players, int(rated), now - STALE_SECONDS),
    )
    return int(row[0]) if row else 0


def _match(tx: Tx, players: int, rated: bool, now: float, asker: str | None) -> Seated | None:
    """Seat the people waiting for this game if there are enough (or ``asker``
    asked for bots); ``None`` if nobody is seated. Call with the lock held."""
    rows = tx.all(
        "SELECT ticket, user_id, name, token_hash, since FROM web_queue"
        " WHERE players = ? AND rated = ? AND code IS NULL AND seen >= ?"
        " ORDER BY since, ticket",
        (players, int(rated), now - STALE_SECONDS),
    )
    if asker is not None:
        first = [r for r in rows if r[0] == asker]
        if not first:
            return None
        # A rated wait filled with bots is a casual game of the asker alone.
        rows = first + ([] if rated else [r for r in rows if r[0] != asker])
    chosen: list[tuple[Any, ...]] = []
    users: set[str] = set()
    for row in rows:
        if row[1] is not None:
            if row[1] in users:
                continue  # one person twice (two tabs): never at one table
            users.add(row[1])
        chosen.append(row)
        if len(chosen) == players:
            break
    if asker is None and len(chosen) < players:
        return None
    chosen.sort(key=lambda r: (float(r[4]), str(r[0])))  # seats in waiting order
    code = _new_code(tx)
    seats = [
        SeatRow(i, "human", str(r[2]), None, str(r[3]), user_id=r[1]) for i, r in enumerate(chosen)
    ]
    seats += [SeatRow(i, "bot", FILL_LEVEL, FILL_LEVEL) for i in range(len(chosen), players)]
    people = len(chosen)
    tx.create_table(
        NewTable(
            code,
            Rules(players=players).to_dict(),
            secrets.randbits(63),
            tuple(seats),
            created=now,
            creator=None,
            clock=dict(CLOCK_PRESETS[QUICK_CLOCK]) if people > 1 else None,
            rated=rated and people == players,
            public=True,
            origin="quick",
        )
    )
    given: dict[str, int] = {}
    for seat, row in enumerate(chosen):
        done = tx.run(
            "UPDATE web_queue SET code = ?, seat = ?, seen = ? WHERE ticket = ? AND code IS NULL",
            (code, seat, now, row[0]),
        )
        if done != 1:
            raise QueueRace(f"ticket {row[0]} was seated elsewhere")
        given[str(row[0])] = seat
    return Seated(code, given)


def enter_queue(store: Store, ticket: Ticket, now: float) -> tuple[Seated | None, int]:
    """Put ``ticket`` in the queue and match: the table made, if any, and how
    many wait for the same game afterwards. ``QueueRefused`` if its account
    already waits or plays (checked under the lock: one place per account)."""
    with store.transaction() as tx:
        _lock(store, tx)
        _expire(tx, now)
        _check_account(tx, ticket, now)
        tx.run(
            "INSERT INTO web_queue (ticket, players, rated, user_id, name, token_hash, since,"
            " seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                ticket.ticket,
                ticket.players,
                int(ticket.rated),
                ticket.user_id,
                ticket.name,
                ticket.token_hash,
                ticket.since,
                now,
            ),
        )
        seated = _match(tx, ticket.players, ticket.rated, now, None)
        return seated, _waiting_count(tx, ticket.players, ticket.rated, now)


def match_queue(store: Store, players: int, rated: bool, now: float) -> Seated | None:
    """Match the people waiting for one game (the poll's second chance, should a
    match have failed when the last of them came)."""
    with store.transaction() as tx:
        _lock(store, tx)
        return _match(tx, players, rated, now, None)


def fill_queue(store: Store, ticket: str, now: float) -> Seated | None:
    """Bots for the seats nobody waits for: the table made (or the one the
    ticket was already given); ``None`` if the ticket is not in the queue."""
    with store.transaction() as tx:
        _lock(store, tx)
        row = tx.one("SELECT players, rated, code, seat FROM web_queue WHERE ticket = ?", (ticket,))
        if row is None:
            return None
        if row[2] is not None:
            return Seated(str(row[2]), {ticket: int(row[3])})
        return _match(tx, int(row[0]), bool(row[1]), now, ticket)


def leave_queue(store: Store, ticket: str) -> Seated | None:
    """Stop waiting; if a seat was given meanwhile, that seat."""
    with store.transaction() as tx:
        if tx.run("DELETE FROM web_queue WHERE ticket = ? AND code IS NULL", (ticket,)):
            return None
        row = tx.one("SELECT code, seat FROM web_queue WHERE ticket = ?", (ticket,))
    if row is None or row[0] is None:
        return None
    return Seated(str(row[0]), {ticket: int(row[1])})


def forget_tickets(store: Store, tickets: list[str]) -> None:
    """The rows of people seated (or gone) here."""
    with store.transaction() as tx:
        for ticket in tickets:
            tx.run("DELETE FROM web_queue WHERE ticket = ?", (ticket,))


def poll_queue(
    store: Store, tickets: list[str], now: float
) -> tuple[dict[str, tuple[str | None, int | None]], dict[tuple[int, bool], int]]:
    """This process's people still wait (their rows refreshed); each ticket's
    row (code and seat, ``None`` while waiting; missing if dropped), and how
    many wait for each game."""
    marks = ", ".join("?" for _t in tickets)
    with store.transaction() as tx:
        tx.run(
            f"UPDATE web_queue SET seen = ? WHERE code IS NULL AND ticket IN ({marks})",
            (now, *tickets),
        )
        rows = tx.all(
            f"SELECT ticket, code, seat FROM web_queue WHERE ticket IN ({marks})", tickets
        )
        counts = tx.all(
            "SELECT players, rated, COUNT(*) FROM web_queue WHERE code IS NULL AND seen >= ?"
            " GROUP BY players, rated",
            (now - STALE_SECONDS,),
        )
    found = {
        str(r[0]): (None if r[1] is None else str(r[1]), None if r[2] is None else int(r[2]))
        for r in rows
    }
    return found, {(int(p), bool(r)): int(n) for p, r, n in counts}


def public_tables(store: Store, limit: int = PUBLIC_LIMIT) -> list[dict[str, Any]]:
    """Public tables that wait for players or are being played, newest first."""
    with store.transaction() as tx:
        rows = tx.all(
            "SELECT t.code, t.rules, t.rated, t.created, t.origin,"
            " (SELECT COUNT(*) FROM web_seats s WHERE s.code = t.code) AS seats,"
            " (SELECT COUNT(*) FROM web_seats s WHERE s.code = t.code AND s.kind <> 'open')"
            " AS taken"
            " FROM web_tables t JOIN web_games g ON g.code = t.code AND g.game = t.game"
            " WHERE t.public = 1 AND g.finished = 0 ORDER BY t.created DESC, t.code LIMIT ?",
            (limit,),
        )
    found = []
    for code, rules_text, rated, created, origin, seats, taken in rows:
        rules = json.loads(rules_text)
        found.append(
            {
                "code": str(code),
                "players": int(rules.get("players", seats)),
                "seats": int(seats),
                "taken": int(taken),
                "rules": rules,
                "rated": bool(rated),
                "created": float(created),
                "origin": str(origin or "friends"),
                "status": "waiting" if int(taken) < int(seats) else "playing",
            }
        )
    return found


# -- the people waiting in this process --------------------------------------------


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


class QuickPlay:
    """The queue as one process sees it: its own waiting people, and the poll."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.waiters: dict[str, Waiter] = {}
        self.of_conn: dict[Conn, str] = {}
        self.fill_after = FILL_AFTER
        self.poll_every = POLL_SECONDS
        self._poller: asyncio.Task[None] | None = None

    @property
    def store(self) -> Store:
        return self.lobby.store

    async def handle(self, conn: Conn, intent: Intent) -> None:
        if intent.type == "quick":
            await self.enter(conn, intent["players"], bool(intent.get("rated")), intent.get("name"))
        elif intent.type == "quick_fill":
            await self.fill(conn)
        elif intent.type == "quick_cancel":
            await self.cancel(conn)

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

    async def enter(self, conn: Conn, players: int, rated: bool, name: str | None) -> None:
        if rated and conn.user_id is None:
            raise ProtocolError(_("sign in to play a rated game"), "signed-out")
        name = conn.user_name or name
        if not name:
            raise ProtocolError(_("please give a name"))
        if await self.cancel(conn, quiet=True):
            return  # the earlier wait was just given a seat: that is the game
        token = secrets.token_urlsafe(24)
        now = time.time()
        ticket = Ticket(
            secrets.token_urlsafe(18), players, rated, conn.user_id, name, hash_token(token), now
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
            await self._made(seated)  # the person sits down there (if still connected)
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
        raise ProtocolError(_("the server could not save that; try again"), "store")

    async def fill(self, conn: Conn) -> None:
        found = self.of_conn.get(conn)
        waiter = self.waiters.get(found) if found is not None else None
        if waiter is None or not waiter.entered:
            raise ProtocolError(_("you are not waiting for a game"), "not-waiting")
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
            raise ProtocolError(_("you are not waiting for a game"), "not-waiting")
        await self._made(seated)

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

    async def _made(self, seated: Seated) -> None:
        """A table made from the queue here: this process leads it; its people here sit down."""
        lobby = self.lobby
        if await lobby.cluster.claim(seated.code):
            table = await lobby.get(seated.code)
            if table is not None and table.leader:
                async with table.lock:
                    await table.clocks.update()
                table.autoplay.kick()
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
        conn.push(self.lobby.joined(table, seat, waiter.token))
        await table.seating.attach(conn, seat, new=True)

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
            await self._made(seated)

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
            await self._made(seated)

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
    lobby: Lobby = request.app.state.lobby
    try:
        found = await lobby.db.run(public_tables, lobby.store)
    except Exception:
        log.exception("could not list the public tables")
        return JSONResponse({"error": _("the server could not read that; try again")}, 503)
    return JSONResponse({"tables": found}, headers={"Cache-Control": "no-store"})


ROUTES = [Route("/api/tables/public", public_endpoint)]

__all__ = [
    "FILL_AFTER",
    "QUICK_INTENTS",
    "ROUTES",
    "QuickPlay",
    "Seated",
    "Ticket",
    "enter_queue",
    "fill_queue",
    "leave_queue",
    "poll_queue",
    "public_tables",
]
