"""Who is at a table: its seats' connections, their tokens, their coming and going.

What a seat's person may do (take it, leave it, hand it over) is the
authority's to decide (``web/game/table.py``); this module holds the
connections and checks the tokens that a client resumes a seat with. A
change of who is connected is an event for the authority (``Presence``):
a turn's clock depends on it (P41).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import time
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from passing_game.i18n import N_, _
from passing_game.web.accounts.flows import Accounts
from passing_game.web.game import events
from passing_game.web.game import table as authority
from passing_game.web.game.errors import NO_SUCH_SEAT, NOT_YOUR_SEAT, SUSPENDED
from passing_game.web.game.model import RowFacts
from passing_game.web.protocol import ProtocolError
from passing_game.web.server.cluster import Cluster
from passing_game.web.store import AsyncStore, SeatRow, hash_token
from passing_game.web.table import frames
from passing_game.web.table.conn import Conn
from passing_game.web.table.outbox import Outbox

log = logging.getLogger("passing_game.web")


@dataclass
class Seat(RowFacts):
    """A seat at a table, as the server holds it: its stored row and its connections."""

    row: SeatRow
    conns: set[Conn] = field(default_factory=set)
    #: When the person's last connection closed (``time.time()``), while none is open.
    offline_since: float | None = None

    @property
    def bot_level(self) -> str:
        """The bot that plays this seat when a bot plays it: its own, or the stand-in."""
        return authority.bot_level(self.row)


def _no_seat(seat: int) -> ProtocolError:
    return ProtocolError(_(NO_SUCH_SEAT).format(seat=seat + 1), "bad-seat")


class Sat(Protocol):
    """What seating reads and changes of its table (a ``conn.Place`` too)."""

    @property
    def code(self) -> str: ...

    @property
    def state(self) -> int: ...

    @property
    def seats(self) -> Sequence[Seat]: ...

    @property
    def spectators(self) -> set[Conn]: ...

    #: When the table last had a client or changed (``time.monotonic()``).
    touched: float

    @property
    def leader(self) -> bool: ...

    @property
    def db(self) -> AsyncStore: ...

    def connected(self, seat: int) -> bool: ...

    def detach(self, conn: Conn) -> None: ...

    async def dispatch(self, event: events.Event) -> Mapping[str, Any]: ...


class Usher(Protocol):
    """What seating asks of its process: the accounts, the other processes, tasks."""

    @property
    def closing(self) -> bool: ...

    @property
    def accounts(self) -> Accounts: ...

    @property
    def cluster(self) -> Cluster: ...

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]: ...


class Seating:
    """A table's seats as people take, leave, hand over and come back to them."""

    def __init__(self, table: Sat, outbox: Outbox, host: Usher) -> None:
        self.table = table
        self.outbox = outbox
        self.host = host

    def token_matches(self, seat: int, token: str) -> bool:
        held = self.table.seats[seat].row
        return (
            held.kind == "human"
            and held.token_hash is not None
            and hmac.compare_digest(held.token_hash, hash_token(token))
        )

    async def check_owner(self, seat: int, user_id: str | None) -> None:
        """Refuse a seat that is not the signed-in person's own (resuming without a token)."""
        t = self.table
        if not 0 <= seat < len(t.seats):
            raise _no_seat(seat)
        if user_id is not None and t.seats[seat].row.user_id != user_id and not t.leader:
            stored = await t.db.load_table(t.code)
            if stored is not None and len(stored.seats) > seat:
                t.seats[seat].row = stored.seats[seat]
        held = t.seats[seat].row
        if user_id is None or held.kind != "human" or held.user_id != user_id:
            raise ProtocolError(_(NOT_YOUR_SEAT), "bad-token")

    async def check_token(self, seat: int, token: str, user_id: str | None = None) -> None:
        """Refuse a seat token that is not the seat's (a reload takes a seat back with it).

        A replica may not have heard of a seat changing hands yet: before
        refusing, it asks the store. A seat that belongs to an account is
        taken back with its token only while the account may play, and never
        by a socket signed in as another account (issue 22).
        """
        t = self.table
        if not 0 <= seat < len(t.seats):
            raise _no_seat(seat)
        if not self.token_matches(seat, token):
            matched = False
            if not t.leader:
                stored = await t.db.load_table(t.code)
                if stored is not None and len(stored.seats) > seat:
                    t.seats[seat].row = stored.seats[seat]
                    matched = self.token_matches(seat, token)
            if not matched:
                raise ProtocolError(_(NOT_YOUR_SEAT), "bad-token")
        owner = t.seats[seat].row.user_id
        if owner is None:
            return
        if user_id is not None and user_id != owner:
            raise ProtocolError(_("This seat belongs to another account."), "not-your-seat")
        if not await t.db.run(self.host.accounts.usable, owner):
            raise ProtocolError(_(SUSPENDED), "suspended")

    # -- connections ---------------------------------------------------------

    async def sit(
        self, conn: Conn, seat: int | None, token: str | None = None, *, new: bool = False
    ) -> None:
        """Tell ``conn`` where it sits (``joined``, with the seat's ``token`` when
        it was just made), then seat it there (``attach``)."""
        t = self.table
        conn.push(frames.joined_frame(t.code, t.state, seat, token))
        await self.attach(conn, seat, new=new)

    async def attach(self, conn: Conn, seat: int | None, *, new: bool = False) -> None:
        """Seat ``conn`` (``None``: to watch); the other processes learn who is here."""
        t = self.table
        if conn.table is not None:
            conn.table.detach(conn)
        conn.table, conn.seat = t, seat
        t.touched = time.monotonic()
        if seat is None:
            t.spectators.add(conn)
            # Nobody else's frame changes when somebody watches.
            self.outbox.send_state(conn)
            return
        held = t.seats[seat]
        conn.token_hash = held.row.token_hash
        held.conns.add(conn)
        held.offline_since = None
        self._announce_presence(seat)
        if t.leader and not self.host.closing:
            # The person is here: their turn's clock includes their bank again.
            await t.dispatch(events.Presence())
        if new:  # a seat just taken: everybody's table changed
            self.outbox.broadcast()
            return
        # Somebody back at their seat sees the table at once; the others
        # learn that the person is online with the next merged frame.
        self.outbox.send_state(conn)
        self.outbox.broadcast(urgent=False)

    def _announce_presence(self, seat: int) -> None:
        host = self.host
        if not host.cluster.solo:
            count = len(self.table.seats[seat].conns)
            host.spawn(host.cluster.presence(self.table.code, seat, count))

    def _moved(self) -> None:
        """Who is connected changed: the leader's authority hears of it (a turn's
        clock follows whether its person is here); a replica only shows it."""
        t = self.table
        if t.leader and not self.host.closing:
            self.host.spawn(t.dispatch(events.Presence()))
        else:
            self.outbox.broadcast(urgent=False)

    def detach(self, conn: Conn) -> None:
        t = self.table
        seat = conn.seat
        t.spectators.discard(conn)
        for held in t.seats:
            held.conns.discard(conn)
        conn.table, conn.seat = None, None
        if seat is not None:
            held = t.seats[seat]
            if not held.conns:
                self._announce_presence(seat)
                if held.is_person and not t.connected(seat):
                    held.offline_since = time.time()
            self._moved()

    def presence_changed(self) -> None:
        """Who is connected elsewhere changed: offline graces start or stop."""
        t = self.table
        now = time.time()
        for held in t.seats:
            if not held.is_person:
                continue
            if t.connected(held.seat):
                held.offline_since = None
            elif held.offline_since is None:
                held.offline_since = now
        self._moved()

    def send_away(self, held: Seat, *, keep: bool = False) -> None:
        """The person left: their clients go back to the lobby (``keep``: the seat
        waits for them, so their page keeps its token)."""
        t = self.table
        for conn in list(held.conns):
            self.detach(conn)
            conn.push({"type": "left", "state": t.state, "table": t.code, "keep": keep})

    def dismiss(self, held: Seat, message: str, code: str, every: bool = False) -> None:
        """Refuse the seat's clients whose token is no longer the seat's (``every``:
        all of them), telling them ``message`` (a msgid, worded in each one's language)."""
        gone = [c for c in held.conns if every or c.token_hash != held.row.token_hash]
        for conn in gone:
            self.detach(conn)
        self.outbox.tell(gone, message, code)

    def refuse(self, held: Seat) -> None:
        """The seat's token changed hands: its old clients are refused."""
        self.dismiss(held, N_(NOT_YOUR_SEAT), "bad-token")


__all__ = ["Sat", "Seat", "Seating", "Usher"]


def log_seat(code: str, effect: events.SaveSeat) -> None:
    """The seat changes an operator looks for in the log."""
    changes, seat = effect.changes, effect.seat
    away = changes.get("away", "")
    if "invite_hash" in changes and changes.get("token_hash"):
        message, event = "seat %d taken by invitation", "invite-used"
    elif away == "offline":
        message, event = "seat %d offline, a stand-in plays", "stand-in"
    elif away == "paused":
        message, event = "seat %d away, the game waits for its person", "paused"
    else:
        return
    log.info(message, seat, extra={"table": code, "event": event})
