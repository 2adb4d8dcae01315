"""Who sits where at a table: seats, tokens, invitations, stand-ins, leaving and resigning.

Every change here is made by the table's leader with the table's lock held
(``Table.run``), and stored before it is kept (``Table.save_seat``).
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from passing_game.i18n import N_, _
from passing_game.web import frames
from passing_game.web.botplay import STAND_IN_LEVEL, bot_choices, level_choices, make_bot
from passing_game.web.conn import Conn
from passing_game.web.protocol import ProtocolError
from passing_game.web.store import SeatRow, hash_token

if TYPE_CHECKING:
    from passing_game.web.tables import Table

log = logging.getLogger("passing_game.web")


@dataclass
class Seat:
    """A seat at a table, as the server holds it: its stored row and its connections."""

    row: SeatRow
    conns: set[Conn] = field(default_factory=set)
    #: When the person's last connection closed (``time.time()``), while none is open.
    offline_since: float | None = None

    @property
    def seat(self) -> int:
        return self.row.seat

    @property
    def kind(self) -> str:
        return self.row.kind

    @property
    def is_person(self) -> bool:
        return self.row.kind == "human"

    @property
    def stand_in(self) -> bool:
        """Whether a stand-in bot plays this person's seat now."""
        return self.row.kind == "human" and self.row.away is not None

    @property
    def bot_level(self) -> str:
        """The bot that plays this seat when a bot plays it: its own, or the stand-in."""
        if self.kind == "bot":
            return self.row.level or self.row.name
        return STAND_IN_LEVEL


def seat_names(rows: Sequence[SeatRow]) -> list[str]:
    """How each seat is called; two bots of one level get distinct names (A, B...)."""
    plain = [frames.seat_name(r.kind, r.name, r.level) for r in rows]
    names = list(plain)
    for i, row in enumerate(rows):
        if row.kind != "bot":
            continue
        same = [j for j, other in enumerate(plain) if other == plain[i] and rows[j].kind == "bot"]
        if len(same) > 1:
            names[i] = _("{name} {letter}").format(name=plain[i], letter="ABCD"[same.index(i)])
    return names


def _no_seat(seat: int) -> ProtocolError:
    return ProtocolError(_("this table has no seat {seat}").format(seat=seat + 1), "bad-seat")


class Seating:
    """A table's seats as people take, leave, hand over and come back to them."""

    def __init__(self, table: Table) -> None:
        self.table = table

    # -- taking a seat -------------------------------------------------------

    def _check_account(self, user_id: str | None) -> None:
        t = self.table
        if t.rated and user_id is None:
            raise ProtocolError(_("sign in to play a rated game"), "signed-out")
        if user_id is not None and any(s.row.user_id == user_id for s in t.seats):
            raise ProtocolError(_("you already have a seat at this table"), "seat-taken")

    async def claim(
        self, seat: int | None, name: str, token_hash: str, user_id: str | None = None
    ) -> int:
        """A person takes an open seat with the token whose hash is given; returns the seat."""
        t = self.table
        self._check_account(user_id)
        if seat is None:
            seat = next((s.seat for s in t.seats if s.kind == "open"), None)
            if seat is None:
                raise ProtocolError(_("this table is full; you can watch it"), "table-full")
        if not 0 <= seat < len(t.seats):
            raise _no_seat(seat)
        target = t.seats[seat]
        if target.kind != "open":
            raise ProtocolError(_("that seat is taken"), "seat-taken")
        await t.save_seat(
            target, kind="human", name=name, level=None, token_hash=token_hash, user_id=user_id
        )
        t.bots[seat] = make_bot(STAND_IN_LEVEL, t.seed, seat)
        return seat

    async def claim_invite(
        self, invite_hash: str, name: str, token_hash: str, user_id: str | None = None
    ) -> int:
        """Whoever opens a seat's invitation gets the seat; the invitation is then used up."""
        t = self.table
        for seat in t.seats:
            held = seat.row.invite_hash
            if held is not None and hmac.compare_digest(held, invite_hash):
                if t.rated and user_id is None:
                    raise ProtocolError(_("sign in to play a rated game"), "signed-out")
                if user_id is not None and any(
                    s.row.user_id == user_id for s in t.seats if s is not seat
                ):
                    raise ProtocolError(_("you already have a seat at this table"), "seat-taken")
                owner = seat.row.user_id
                if t.rated and owner is not None and owner != user_id:
                    # A rated seat stays its account's: nobody else finishes its game.
                    raise ProtocolError(
                        _("This invitation is for the account that holds the seat."),
                        "not-your-seat",
                    )
                await t.save_seat(
                    seat,
                    name=name,
                    token_hash=token_hash,
                    invite_hash=None,
                    away=None,
                    timeouts=0,
                    user_id=user_id,
                )
                self.refuse(seat)
                log.info(
                    "seat %d taken by invitation",
                    seat.seat,
                    extra={"table": t.code, "event": "invite-used"},
                )
                return seat.seat
        raise ProtocolError(
            _("this invitation is not valid: it was used or replaced"), "bad-invite"
        )

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
            raise ProtocolError(_("that seat token is not valid"), "bad-token")

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
                raise ProtocolError(_("that seat token is not valid"), "bad-token")
        owner = t.seats[seat].row.user_id
        if owner is None:
            return
        if user_id is not None and user_id != owner:
            raise ProtocolError(_("This seat belongs to another account."), "not-your-seat")
        if not await t.db.run(t.lobby.accounts.usable, owner):
            raise ProtocolError(_("This account is suspended."), "suspended")

    # -- connections ---------------------------------------------------------

    async def attach(self, conn: Conn, seat: int | None, *, new: bool = False) -> None:
        """Seat ``conn`` (``None``: to watch); the other processes learn who is here."""
        t = self.table
        t.lobby.detach(conn)
        conn.table, conn.seat = t, seat
        t.touched = time.monotonic()
        if seat is None:
            t.spectators.add(conn)
            # Nobody else's frame changes when somebody watches.
            t.outbox.send_state(conn)
            return
        held = t.seats[seat]
        conn.token_hash = held.row.token_hash
        held.conns.add(conn)
        held.offline_since = None
        self._announce_presence(seat)
        if new:  # a seat just taken: everybody's table changed
            t.outbox.broadcast()
            return
        # Somebody back at their seat sees the table at once; the others
        # learn that the person is online with the next merged frame.
        t.outbox.send_state(conn)
        t.outbox.broadcast(urgent=False)

    def _announce_presence(self, seat: int) -> None:
        lobby = self.table.lobby
        if not lobby.cluster.solo:
            count = len(self.table.seats[seat].conns)
            lobby.spawn(lobby.cluster.presence(self.table.code, seat, count))

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
            t.outbox.broadcast(urgent=False)

    def presence_changed(self) -> None:
        """Who is connected changed: offline clocks start or stop, timers move."""
        t = self.table
        now = time.time()
        for held in t.seats:
            if not held.is_person:
                continue
            if t.connected(held.seat):
                held.offline_since = None
            elif held.offline_since is None:
                held.offline_since = now
        t.clocks.arm()
        t.outbox.broadcast(urgent=False)

    def send_away(self, held: Seat) -> None:
        """The person left: their clients go back to the lobby."""
        t = self.table
        for conn in list(held.conns):
            self.detach(conn)
            conn.push({"type": "left", "state": t.state, "table": t.code})

    def refuse(self, held: Seat) -> None:
        """The seat's token changed hands: its old clients are refused."""
        old = [c for c in held.conns if c.token_hash != held.row.token_hash]
        for conn in old:
            self.detach(conn)
        self.table.outbox.tell(old, N_("that seat token is not valid"), "bad-token")

    async def suspend(self, held: Seat) -> None:
        """The seat's account may no longer play (suspended or deleted): a stand-in
        plays it from now on; its sockets are refused (lock held)."""
        t = self.table
        if held.row.away == "suspended" or not held.is_person:
            return
        await t.save_seat(held, away="suspended")
        refused = list(held.conns)
        for conn in refused:
            self.detach(conn)
        t.outbox.tell(refused, N_("This account is suspended."), "suspended")
        await t.clocks.update()
        t.outbox.broadcast()

    # -- a seated person's intents (lock held) -------------------------------

    async def come_back(self, seat: int) -> None:
        """The person is back: the stand-in stops, their clock starts at their turn."""
        t = self.table
        held = t.seats[seat]
        if held.row.away is None or held.row.away == "invited":
            return
        await t.save_seat(held, away=None, timeouts=0)
        await t.clocks.update()
        t.outbox.broadcast()

    async def read_summary(self, seat: int) -> None:
        """A person closed the last round's summary: the table may go on without them."""
        t = self.table
        held = t.seats[seat]
        done = t.results_count
        if held.row.seen >= done:
            return
        await t.save_seat(held, seen=done)
        if t.summary_open() and not t.waiting():
            await t.clocks.update()
        t.outbox.broadcast()

    async def leave(self, seat: int) -> None:
        """The person leaves: before the game, the seat opens; during it, a stand-in plays."""
        t = self.table
        held = t.seats[seat]
        if not t.started:
            await t.save_seat(held, kind="open", name="", token_hash=None)
        elif not t.match.is_over and held.row.away is None:
            await t.save_seat(held, away="left")
            await t.clocks.update()
        self.send_away(held)
        t.outbox.broadcast()

    async def resign(self, seat: int) -> None:
        t = self.table
        if t.rules.players != 2:
            raise ProtocolError(_("only a two-player game can be resigned"), "no-resign")
        if t.match.is_over:
            raise ProtocolError(_("the game is over"), "game-over")
        if not t.started:
            raise ProtocolError(_("the game starts when every seat is taken"), "not-started")
        await t.db.resign(t.code, t.game, seat)
        t.match.resign(seat)
        t.resigned = seat
        await t.finish()
        await t.clocks.update()
        t.outbox.broadcast()

    # -- the creator's intents about an absent person's seat ----------------

    def gone_for_now(self, held: Seat, now: float) -> bool:
        """Whether the creator may give this person's seat away: a stand-in plays it
        (they left, timed out twice, were offline for the grace) or its person has
        been offline for the grace (issue 22: never during a blink)."""
        t = self.table
        if not held.is_person:
            return held.kind == "open"
        if held.stand_in:
            return True
        since = held.offline_since
        return (
            not t.connected(held.seat)
            and since is not None
            and now - since >= t.timing.offline_grace
        )

    def _absent(self, target: int, creator: int) -> Seat:
        """The seat the creator acts on: another person's, whose person is not here
        and has not been for the offline grace."""
        t = self.table
        if not 0 <= target < len(t.seats) or target == creator:
            raise _no_seat(target)
        held = t.seats[target]
        if held.kind == "bot":
            raise ProtocolError(_("a bot already plays that seat"), "seat-taken")
        if held.is_person and t.connected(target) and not held.stand_in:
            raise ProtocolError(_("that person is at the table"), "seat-taken")
        if not self.gone_for_now(held, time.time()):
            raise ProtocolError(
                _("That person may still come back: wait until a stand-in plays their seat."),
                "not-away",
            )
        return held

    def _check_creator(self, seat: int) -> None:
        creator = self.table.creator
        if creator is None or seat != creator:
            raise ProtocolError(
                _("only the person who created the table can do that"), "not-creator"
            )

    async def invite(self, seat: int, target: int, invite_hash: str) -> None:
        """A new one-time invitation to an absent person's seat; the old token stops working."""
        t = self.table
        self._check_creator(seat)
        held = self._absent(target, seat)
        if not held.is_person:
            raise ProtocolError(_("an open seat is taken with the table's link"), "seat-open")
        away = "invited" if t.started and not t.match.is_over else held.row.away
        await t.save_seat(held, token_hash=None, invite_hash=invite_hash, away=away)
        self.refuse(held)
        await t.clocks.update()
        t.outbox.broadcast()

    async def hand_over(self, seat: int, target: int, level: str) -> None:
        """The creator gives an absent person's (or an open) seat to a bot for good."""
        t = self.table
        self._check_creator(seat)
        held = self._absent(target, seat)
        if level not in bot_choices():
            raise ProtocolError(
                _("{field} must be one of {choices}").format(
                    field=_("level"), choices=", ".join(level_choices())
                )
            )
        await t.save_seat(
            held,
            kind="bot",
            name=level,
            level=level,
            token_hash=None,
            invite_hash=None,
            away=None,
            timeouts=0,
        )
        t.bots[target] = make_bot(level, t.seed, target)
        self.refuse(held)
        await t.clocks.update()
        t.outbox.broadcast()
