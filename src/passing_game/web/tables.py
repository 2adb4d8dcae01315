"""The tables a server holds: people, bots, clocks, and who is told what.

Everything that changes a table holds the table's lock (``Table.lock``)
from its check to its broadcast, so two intents never interleave. While it
is held the table waits for the database, in a worker thread
(``AsyncStore``): the event loop goes on serving every other table. A bot's
(or the hint adviser's) thinking also runs off the loop, in a thread or a
worker process; its move is then checked against the table's move count
before it is taken, exactly like a person's.

Order for every accepted move: check it against the rules, store it (with
the table's next sequence number) and wait for the commit, apply it, and
only then put the new frames on the clients' queues. A client's frames go
out in order through its own queue, so a slow client never holds up a table.

No table waits forever for anyone (docs/DECISIONS.md P26): a table may
have a clock, whose deadline is stored so that a restart resumes it; when
it runs out a bot makes that one move for the person. A seat whose person
left, timed out twice in a row or stayed offline too long is played by a
stand-in bot until the person is back. The round summary holds the bots for
the people reading it, but only until its countdown ends.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import time
from collections.abc import Sequence
from dataclasses import astuple, dataclass, field, replace
from typing import TYPE_CHECKING, Any

from passing_game.errors import PassingGameError
from passing_game.i18n import N_, _, using_language
from passing_game.moves import DRAW, PASS, Move, parse_move
from passing_game.records import dump_record
from passing_game.rules import Rules
from passing_game.web import frames, ratings
from passing_game.web.botplay import (
    FAST_BOTS,
    STAND_IN_LEVEL,
    bot_choices,
    hint_level,
    level_choices,
    make_bot,
)
from passing_game.web.conn import Actor, Conn, encode
from passing_game.web.daily import DAILY_ROUNDS, daily_record, match_for
from passing_game.web.protocol import Intent, ProtocolError
from passing_game.web.store import (
    AsyncStore,
    DuplicateMove,
    SeatRow,
    StoredTable,
    Timer,
    hash_token,
)

if TYPE_CHECKING:
    from passing_game.web.lobby import Lobby

log = logging.getLogger("passing_game.web")

#: Turns in a row a person's clock may run out before a stand-in takes the seat.
TIMEOUTS_TO_STAND_IN = 2
#: How long a change that only shows who is online may wait to be merged with others.
PRESENCE_DELAY = 0.25


@dataclass(frozen=True)
class Timing:
    """How long a table waits for people, in seconds (``passing-game serve`` options)."""

    #: A person offline this long, whose game goes on, is played by a stand-in.
    offline_grace: float = 60.0
    #: The round summary holds the table at most this long.
    summary_wait: float = 45.0
    #: A finished or empty table nobody watches leaves memory after this long.
    idle_evict: float = 120.0


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


class Table:
    """One table: its seats, its current game, its clock, its clients.

    In the process that leads the table (``leader``) it is the authority:
    every change is checked, stored and applied here, and the other
    processes are told (``Cluster.emit``). Elsewhere it is a replica that
    only follows those events and serves its own clients' frames.
    """

    def __init__(self, lobby: Lobby, stored: StoredTable) -> None:
        self.lobby = lobby
        self.code = stored.code
        self.state = 0
        self.spectators: set[Conn] = set()
        self._bot_task: asyncio.Task[None] | None = None
        #: This process just took the table over from a leader that died: the
        #: bot to move has waited long enough already.
        self.taken_over = False
        #: (game, move) at which a replica was last found behind the store.
        self.lagging_at: tuple[int, int] | None = None
        self._wake: asyncio.TimerHandle | None = None
        self._flush: asyncio.Handle | None = None
        self._flush_urgent = False
        #: When the table last had a client or changed (``time.monotonic()``).
        self.touched = time.monotonic()
        #: Held from a change's check to its broadcast (the store is awaited inside).
        self.lock = asyncio.Lock()
        self.cache = frames.FrameCache()
        #: The process that leads the table, as far as this one knows (replicas).
        self.holder: str | None = None
        #: Seat -> the other processes with a client there.
        self.remote: dict[int, set[str]] = {}
        #: What changed since the other processes were last told (the leader's).
        self.changes: dict[str, Any] = {}
        #: Moves accepted since the last frames went out: when, and who made them.
        self._timed: list[tuple[float, str]] = []
        self.seats: list[Seat] = []
        self._load(stored)
        # After a restart nobody is connected yet: nobody is offline for long.
        now = time.time()
        for seat in self.seats:
            if seat.is_person:
                seat.offline_since = now

    def _load(self, stored: StoredTable) -> None:
        """Everything from the store (the connections stay)."""
        conns = {s.seat: s.conns for s in self.seats}
        since = {s.seat: s.offline_since for s in self.seats}
        self.rules = Rules.from_dict(stored.rules)
        self.seats = [
            Seat(row, conns.get(row.seat, set()), since.get(row.seat)) for row in stored.seats
        ]
        self.creator = stored.creator
        self.clock = stored.clock
        self.rated = stored.rated
        self.public = stored.public
        self.origin = stored.origin
        self.timer = stored.timer
        self.game = stored.game
        self.seq = stored.last_seq
        self._start_game(stored.seed)
        for index, text in enumerate(stored.moves, start=1):
            try:
                self.match.play(parse_move(text))
            except PassingGameError as exc:
                raise PassingGameError(
                    f"table {self.code}, game {self.game}, stored move {index} ({text!r}): {exc}"
                ) from None
        self.played_by: list[str | None] = list(stored.played_by) or [None] * len(stored.moves)
        self.resigned: int | None = stored.resigned
        if self.resigned is not None and not self.match.is_over:
            self.match.resign(self.resigned)
        #: Moves made in the current round (cheaper than copying its history).
        self.round_moves = len(self.match.round.history)

    def _start_game(self, seed: int) -> None:
        self.seed = seed
        # A daily deal's match ends after its rounds (web/daily.py, P31).
        self.match = match_for(self.origin, self.rules, seed)
        self.played_by = []
        self.resigned = None
        self.bots = {s.seat: make_bot(self._level(s), seed, s.seat) for s in self.seats}

    @staticmethod
    def _level(seat: Seat) -> str:
        """The bot that plays ``seat`` when a bot plays it: its own, or the stand-in."""
        if seat.kind == "bot":
            return seat.row.level or seat.row.name
        return STAND_IN_LEVEL

    # -- reading -----------------------------------------------------------

    @property
    def db(self) -> AsyncStore:
        return self.lobby.db

    @property
    def timing(self) -> Timing:
        return self.lobby.timing

    @property
    def leader(self) -> bool:
        """Whether this process leads the table (holds its lease) now."""
        return self.lobby.cluster.leads(self.code)

    @property
    def started(self) -> bool:
        """Play starts once every seat is taken."""
        return all(s.kind != "open" for s in self.seats)

    @property
    def results_count(self) -> int:
        return len(self.match.results)

    def connected(self, seat: int) -> bool:
        """Whether a client sits at ``seat`` in this process or another."""
        return bool(self.seats[seat].conns) or bool(self.remote.get(seat))

    def summary_open(self) -> bool:
        """Whether the last round's summary holds the table (until its countdown ends)."""
        return self.timer is not None and self.timer.kind == "summary" and not self.match.is_over

    def waiting(self) -> list[int]:
        """People still reading the last round's summary: the table waits for them."""
        if not self.summary_open():
            return []
        done = self.results_count
        return [
            s.seat
            for s in self.seats
            if s.is_person and not s.stand_in and self.connected(s.seat) and s.row.seen < done
        ]

    @property
    def paused(self) -> bool:
        return bool(self.waiting())

    def names(self) -> list[str]:
        return seat_names([s.row for s in self.seats])

    def seat_rows(self) -> list[dict[str, Any]]:
        names = self.names()
        return [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": names[s.seat],
                "level": s.row.level,
                "connected": s.kind == "bot" or self.connected(s.seat),
                "away": s.row.away if s.is_person else None,
                "standin": s.stand_in,
            }
            for s in self.seats
        ]

    def clock_data(self, now: float) -> dict[str, Any] | None:
        """The clock as the page shows it: the running seat's time left, every bank."""
        if self.clock is None:
            return None
        move, bank = float(self.clock["move"]), float(self.clock["bank"])
        timer = self.timer
        data: dict[str, Any] = {
            "move": move,
            "bank": bank,
            "seat": None,
            "remaining_ms": None,
            "move_ms": None,
            "banks": [bank if s.row.bank is None else s.row.bank for s in self.seats],
        }
        if timer is not None and timer.kind == "move" and not self.match.is_over:
            data["seat"] = timer.seat
            data["remaining_ms"] = max(0, round((timer.end - now) * 1000))
            data["move_ms"] = max(0, round((timer.start + move - now) * 1000))
        return data

    def frame(self, viewer: int | None) -> dict[str, Any]:
        waiting = self.waiting()
        now = time.time()
        frame = frames.state_frame(
            self.match,
            viewer,
            code=self.code,
            state=self.state,
            game=self.game,
            seat_rows=self.seat_rows(),
            started=self.started,
            paused=bool(waiting),
            waiting=waiting,
            cache=self.cache,
            played_by=self.round_played_by(),
            holding=viewer is not None and self.seats[viewer].stand_in,
        )
        timer = self.timer
        frame["clock"] = self.clock_data(now)
        frame["summary_ms"] = (
            max(0, round((timer.end - now) * 1000))
            if timer is not None and timer.kind == "summary" and waiting
            else None
        )
        frame["creator"] = viewer is not None and viewer == self.creator
        frame["can_resign"] = (
            viewer is not None
            and self.rules.players == 2
            and self.started
            and not self.match.is_over
            and not self.seats[viewer].stand_in
        )
        frame["resigned"] = self.resigned
        if self.origin == "daily":
            frame["daily"] = {"rounds": DAILY_ROUNDS}
        frame["ratings"] = ratings.shown(self)
        return frame

    def round_played_by(self) -> list[str | None]:
        """Who made each move of the current round, when not the seat's own player."""
        n = len(self.match.round.moves)
        return self.played_by[len(self.played_by) - n :] if n else []

    def marks(self) -> dict[tuple[int, int], str]:
        """The record's marks: (round, move) of every auto-played or stand-in move."""
        found: dict[tuple[int, int], str] = {}
        at = 0
        for number, rnd in enumerate(self.match.rounds, start=1):
            for index in range(1, len(rnd.moves) + 1):
                by = self.played_by[at] if at < len(self.played_by) else None
                if by is not None:
                    found[(number, index)] = by
                at += 1
        return found

    # -- telling the clients (and the other processes) ----------------------

    def broadcast(self, *, urgent: bool = True) -> None:
        """A new state: every client soon gets its own seat's frame (spectators: no hand).

        Changes within one turn of the event loop go out as one frame; a
        change that only shows who is online (``urgent=False``) waits up to
        ``PRESENCE_DELAY`` to be merged with others, so that clients coming
        and going cannot flood the people playing.
        """
        self.touched = time.monotonic()
        if self._flush is not None:
            if not urgent or self._flush_urgent:
                return
            self._flush.cancel()
        loop = asyncio.get_running_loop()
        self._flush_urgent = urgent
        if urgent:
            self._flush = loop.call_soon(self._send_all)
        else:
            self._flush = loop.call_later(PRESENCE_DELAY, self._send_all)

    def flush_now(self) -> None:
        """Send what is due at once (before a forwarded intent's answer goes back)."""
        if self._flush is not None:
            self._flush.cancel()
            self._send_all()

    def _send_all(self) -> None:
        self._flush = None
        self.state += 1
        self._tell_others()
        for seat in self.seats:
            if seat.conns:
                self._push_frames(seat.conns, seat.seat)
        if self.spectators:
            self._push_frames(self.spectators, None)
        if self._timed:
            done = time.perf_counter()
            for started, by in self._timed:
                self.lobby.metrics.move(done - started, by)
            self._timed.clear()
        self.kick()
        self.arm()

    def _tell_others(self) -> None:
        """The leader's changes since it last told, as one event for the other processes."""
        changes, self.changes = self.changes, {}
        if not changes or self.lobby.cluster.solo:
            return
        event: dict[str, Any] = {"q": self.seq, "g": self.game}
        if changes.get("reset"):
            event["reset"] = 1
        else:
            if changes.get("m"):
                event["m"] = changes["m"]
            if changes.get("seats"):
                event["seats"] = [list(astuple(s.row)) for s in self.seats]
            if "timer" in changes:
                timer = self.timer
                event["timer"] = None if timer is None else list(astuple(timer))
        self.lobby.cluster.emit(self.code, event)

    def _push_frames(self, conns: set[Conn], viewer: int | None) -> None:
        """``viewer``'s frame to each of ``conns``, worded once per language among them."""
        texts: dict[str, str] = {}
        for conn in list(conns):
            text = texts.get(conn.language)
            if text is None:
                with using_language(conn.language):
                    text = texts[conn.language] = encode(self.frame(viewer))
            conn.push_text(text)

    def send_state(self, conn: Conn) -> None:
        with using_language(conn.language):
            conn.push(self.frame(conn.seat))

    def tell(self, conns: Sequence[Conn] | set[Conn], message: str, code: str) -> None:
        for conn in list(conns):
            with using_language(conn.language):
                conn.push(self.error_frame(_(message), code))

    # -- following the leader (replicas) -------------------------------------

    def behind(self, game: int, seq: int, finished: bool) -> bool:
        """Whether the store (its current game, last move, finished) is ahead of this copy."""
        if game != self.game:
            return game > self.game
        return seq > self.seq or (finished and not self.match.is_over)

    async def reload(self) -> None:
        """Everything again from the store (a replica that fell behind, a new leader)."""
        stored = await self.db.load_table(self.code)
        if stored is None:  # pragma: no cover - tables are never deleted
            return
        self._load(stored)
        self.remote = await self.lobby.cluster.present_elsewhere(self.code)
        self.cache = frames.FrameCache()

    async def follow(self, event: dict[str, Any]) -> None:
        """Apply the leader's event, then show the new state to this process's clients."""
        async with self.lock:
            if "lead" in event:
                self.holder = event["lead"]
            if "pres" in event:
                self._presence(event)
            if event.get("reset") or event.get("g", self.game) != self.game:
                await self.reload()
            elif "q" in event:
                moves = event.get("m") or []
                if moves and int(moves[0][0]) == self.seq + 1:
                    self._apply_moves(moves)
                elif int(event["q"]) > self.seq:
                    self._apply_moves(
                        await self.db.run(self.db.store.moves_since, self.code, self.game, self.seq)
                    )
                if "seats" in event:
                    self._apply_seats([SeatRow(*row) for row in event["seats"]])
                if "timer" in event:
                    timer = event["timer"]
                    self.timer = None if timer is None else Timer(*timer)
            if "q" in event or "reset" in event:
                self.broadcast()

    def _presence(self, event: dict[str, Any]) -> None:
        seat, conns = int(event["pres"][0]), int(event["pres"][1])
        if not 0 <= seat < len(self.seats):
            return
        procs = self.remote.setdefault(seat, set())
        if conns > 0:
            procs.add(str(event["p"]))
        else:
            procs.discard(str(event["p"]))
        self.presence_changed()

    def presence_changed(self) -> None:
        """Who is connected changed: offline clocks start or stop, timers move."""
        now = time.time()
        for held in self.seats:
            if not held.is_person:
                continue
            if self.connected(held.seat):
                held.offline_since = None
            elif held.offline_since is None:
                held.offline_since = now
        self.arm()
        self.broadcast(urgent=False)

    def _apply_moves(self, moves: Sequence[Sequence[Any]]) -> None:
        for seq, text, by in moves:
            if int(seq) != self.seq + 1:
                continue
            result = self.match.play(parse_move(str(text)))
            self.seq = int(seq)
            self.played_by.append(by)
            ended = result is not None and not self.match.is_over
            self.round_moves = 0 if ended else self.round_moves + 1

    def _apply_seats(self, rows: Sequence[SeatRow]) -> None:
        """New seats from the leader; clients whose seat is no longer theirs are told."""
        for row in rows:
            held = self.seats[row.seat]
            before = held.row
            held.row = row
            if row.kind == "bot" and before.kind != "bot":
                self.bots[row.seat] = make_bot(self._level(held), self.seed, row.seat)
            if (row.away == "left" and before.away != "left") or (
                row.kind == "open" and before.kind == "human"
            ):
                self._send_away(held)
            elif row.token_hash != before.token_hash and before.kind == "human":
                self._refuse(held)

    def _send_away(self, held: Seat) -> None:
        """The person left: their clients go back to the lobby."""
        for conn in list(held.conns):
            self.detach(conn)
            conn.push({"type": "left", "state": self.state, "table": self.code})

    def _refuse(self, held: Seat) -> None:
        """The seat's token changed hands: its old clients are refused."""
        old = [c for c in held.conns if c.token_hash != held.row.token_hash]
        for conn in old:
            self.detach(conn)
        self.tell(old, N_("that seat token is not valid"), "bad-token")

    # -- who sits where ----------------------------------------------------

    async def save_seat(self, seat: Seat, **changes: Any) -> None:
        """Store a seat's new row, then keep it (nothing changes here if the store fails)."""
        row = replace(seat.row, **changes)
        await self.db.update_seat(self.code, row)
        seat.row = row
        self.changes["seats"] = True

    def _check_account(self, user_id: str | None) -> None:
        if self.rated and user_id is None:
            raise ProtocolError(_("sign in to play a rated game"), "signed-out")
        if user_id is not None and any(s.row.user_id == user_id for s in self.seats):
            raise ProtocolError(_("you already have a seat at this table"), "seat-taken")

    async def claim(
        self, seat: int | None, name: str, token_hash: str, user_id: str | None = None
    ) -> int:
        """A person takes an open seat with the token whose hash is given; returns the seat."""
        self._check_account(user_id)
        if seat is None:
            seat = next((s.seat for s in self.seats if s.kind == "open"), None)
            if seat is None:
                raise ProtocolError(_("this table is full; you can watch it"), "table-full")
        if not 0 <= seat < len(self.seats):
            raise ProtocolError(
                _("this table has no seat {seat}").format(seat=seat + 1), "bad-seat"
            )
        target = self.seats[seat]
        if target.kind != "open":
            raise ProtocolError(_("that seat is taken"), "seat-taken")
        await self.save_seat(
            target, kind="human", name=name, level=None, token_hash=token_hash, user_id=user_id
        )
        self.bots[seat] = make_bot(STAND_IN_LEVEL, self.seed, seat)
        return seat

    async def claim_invite(
        self, invite_hash: str, name: str, token_hash: str, user_id: str | None = None
    ) -> int:
        """Whoever opens a seat's invitation gets the seat; the invitation is then used up."""
        for seat in self.seats:
            held = seat.row.invite_hash
            if held is not None and hmac.compare_digest(held, invite_hash):
                if self.rated and user_id is None:
                    raise ProtocolError(_("sign in to play a rated game"), "signed-out")
                await self.save_seat(
                    seat,
                    name=name,
                    token_hash=token_hash,
                    invite_hash=None,
                    away=None,
                    timeouts=0,
                    user_id=user_id,
                )
                self._refuse(seat)
                log.info(
                    "seat %d taken by invitation",
                    seat.seat,
                    extra={"table": self.code, "event": "invite-used"},
                )
                return seat.seat
        raise ProtocolError(
            _("this invitation is not valid: it was used or replaced"), "bad-invite"
        )

    def token_matches(self, seat: int, token: str) -> bool:
        held = self.seats[seat].row
        return (
            held.kind == "human"
            and held.token_hash is not None
            and hmac.compare_digest(held.token_hash, hash_token(token))
        )

    async def check_owner(self, seat: int, user_id: str | None) -> None:
        """Refuse a seat that is not the signed-in person's own (resuming without a token)."""
        if not 0 <= seat < len(self.seats):
            raise ProtocolError(
                _("this table has no seat {seat}").format(seat=seat + 1), "bad-seat"
            )
        if user_id is not None and self.seats[seat].row.user_id != user_id and not self.leader:
            stored = await self.db.load_table(self.code)
            if stored is not None and len(stored.seats) > seat:
                self.seats[seat].row = stored.seats[seat]
        held = self.seats[seat].row
        if user_id is None or held.kind != "human" or held.user_id != user_id:
            raise ProtocolError(_("that seat token is not valid"), "bad-token")

    async def check_token(self, seat: int, token: str) -> None:
        """Refuse a seat token that is not the seat's (a reload takes a seat back with it).

        A replica may not have heard of a seat changing hands yet: before
        refusing, it asks the store.
        """
        if not 0 <= seat < len(self.seats):
            raise ProtocolError(
                _("this table has no seat {seat}").format(seat=seat + 1), "bad-seat"
            )
        if self.token_matches(seat, token):
            return
        if not self.leader:
            stored = await self.db.load_table(self.code)
            if stored is not None and len(stored.seats) > seat:
                self.seats[seat].row = stored.seats[seat]
                if self.token_matches(seat, token):
                    return
        raise ProtocolError(_("that seat token is not valid"), "bad-token")

    async def attach(self, conn: Conn, seat: int | None, *, new: bool = False) -> None:
        """Seat ``conn`` (``None``: to watch); the other processes learn who is here."""
        self.lobby.detach(conn)
        conn.table, conn.seat = self, seat
        self.touched = time.monotonic()
        if seat is None:
            self.spectators.add(conn)
            # Nobody else's frame changes when somebody watches.
            self.send_state(conn)
            return
        held = self.seats[seat]
        conn.token_hash = held.row.token_hash
        held.conns.add(conn)
        held.offline_since = None
        self._announce_presence(seat)
        if new:  # a seat just taken: everybody's table changed
            self.broadcast()
            return
        # Somebody back at their seat sees the table at once; the others
        # learn that the person is online with the next merged frame.
        self.send_state(conn)
        self.broadcast(urgent=False)

    def _announce_presence(self, seat: int) -> None:
        if not self.lobby.cluster.solo:
            count = len(self.seats[seat].conns)
            self.lobby.spawn(self.lobby.cluster.presence(self.code, seat, count))

    async def come_back(self, seat: int) -> None:
        """The person is back: the stand-in stops, their clock starts at their turn."""
        held = self.seats[seat]
        if held.row.away is None or held.row.away == "invited":
            return
        await self.save_seat(held, away=None, timeouts=0)
        await self._update_timer()
        self.broadcast()

    def detach(self, conn: Conn) -> None:
        seat = conn.seat
        self.spectators.discard(conn)
        for held in self.seats:
            held.conns.discard(conn)
        conn.table, conn.seat = None, None
        if seat is not None:
            held = self.seats[seat]
            if not held.conns:
                self._announce_presence(seat)
                if held.is_person and not self.connected(seat):
                    held.offline_since = time.time()
            self.broadcast(urgent=False)

    # -- moves -------------------------------------------------------------

    async def accept(
        self, seat: int, move: Move, *, at: int | None = None, played_by: str | None = None
    ) -> bool:
        """Check, store, apply, tell: the one way a move enters a game.

        ``at`` is the move count a bot chose for: if the table has moved on
        since (or this process no longer leads it), the move is dropped
        (``False``) instead of refused.
        ``played_by`` marks a move the seat's own player did not make.
        """
        async with self.lock:
            if at is not None and (at != self.seq or not self.leader):
                return False
            try:
                await self._accept(seat, move, played_by)
            except DuplicateMove:
                # Another process stored this move number first (a lease that
                # changed hands): this one catches up and drops its own.
                log.warning(
                    "move %d was already stored elsewhere",
                    self.seq + 1,
                    extra={"table": self.code, "event": "duplicate-move"},
                )
                await self.reload()
                self.broadcast()
                if at is not None:
                    return False
                raise ProtocolError(_("the table moved on; look again"), "stale") from None
            return True

    async def _accept(self, seat: int, move: Move, played_by: str | None = None) -> None:
        m = self.match
        if m.is_over:
            raise ProtocolError(_("the game is over"), "game-over")
        if not self.started:
            raise ProtocolError(_("the game starts when every seat is taken"), "not-started")
        if self.paused:
            raise ProtocolError(
                _("the table waits while the round's result is read"), "summary-open"
            )
        if m.round.to_move != seat:
            raise ProtocolError(_("it is not your turn"), "not-your-turn")
        reason = m.round.why_illegal(move)
        if reason is not None:
            raise ProtocolError(reason, "illegal")
        held = self.seats[seat]
        started = time.perf_counter()
        seat_changes = self._clock_changes(held, played_by, time.time())
        seq = self.seq + 1
        # Stored (committed) before anything changes here or anybody hears of it.
        try:
            await self.db.append_move(self.code, seq, self.game, str(move), played_by)
        except DuplicateMove:
            raise
        except Exception:
            self.lobby.metrics.store_error()
            raise
        log.debug("move %d %s", seq, move, extra={"table": self.code, "event": "move"})
        self._timed.append((started, played_by or ("bot" if held.kind == "bot" else "person")))
        self.seq = seq
        self.played_by.append(played_by)
        self.changes.setdefault("m", []).append([seq, str(move), played_by])
        result = m.play(move)
        self.round_moves = 0 if result is not None and not m.is_over else self.round_moves + 1
        try:
            if seat_changes:
                await self.save_seat(held, **seat_changes)
            if m.is_over:
                await self.finish()
            await self._update_timer(round_ended=result is not None)
        finally:
            self.broadcast()

    def _clock_changes(self, seat: Seat, played_by: str | None, now: float) -> dict[str, Any]:
        """What a move does to its seat's bank and timeouts (P26)."""
        if not seat.is_person or self.clock is None:
            return {}
        timer = self.timer
        if played_by == "timeout":
            timeouts = seat.row.timeouts + 1
            changes: dict[str, Any] = {"bank": 0.0, "timeouts": timeouts}
            if timeouts >= TIMEOUTS_TO_STAND_IN:
                changes["away"] = "timeout"
            return changes
        if played_by is not None:
            return {}
        changes = {}
        if seat.row.timeouts:
            changes["timeouts"] = 0
        if timer is not None and timer.kind == "move" and timer.seat == seat.seat:
            over = (now - timer.start) - float(self.clock["move"])
            if over > 0:
                bank = float(self.clock["bank"]) if seat.row.bank is None else seat.row.bank
                changes["bank"] = max(0.0, round(bank - over, 3))
        return changes

    async def finish(self) -> None:
        """Keep a finished game's record; a failure is logged and mended on restart."""
        self.changes["reset"] = 1
        try:
            await self.db.finish_game(self.code, self.game, self.record())
        except Exception:
            self.lobby.metrics.store_error()
            log.exception("the finished game's record was not stored", extra={"table": self.code})
        await ratings.after_finish(self)  # a rated game: every player's rating, once

    def record(self) -> str:
        text = dump_record(self.match, names=self.names(), marks=self.marks())
        return daily_record(text) if self.origin == "daily" else text

    async def run(self, actor: Actor, intent: Intent, extra: dict[str, Any]) -> dict[str, Any]:
        """Carry out a seated person's intent that changes the table (the leader only).

        ``actor`` stands for the person's connection: its seat, its language,
        and where errors and answers go; it may be in another process.
        ``extra`` holds what that process made for the intent (token hashes).
        Returns what the intent's process needs to finish (a seat taken).
        """
        async with self.lock:
            return await self._run(actor, intent, extra)

    async def _run(self, actor: Actor, intent: Intent, extra: dict[str, Any]) -> dict[str, Any]:
        kind = intent.type
        if kind == "join":
            user_id = extra.get("user_id")
            name = extra.get("user_name") or intent["name"]
            if extra.get("invite_hash"):
                taken = await self.claim_invite(
                    extra["invite_hash"], name, extra["token_hash"], user_id
                )
            else:
                taken = await self.claim(intent.get("seat"), name, extra["token_hash"], user_id)
            await self._update_timer()
            self.broadcast()
            return {"seat": taken}
        seat = actor.seat
        if seat is None:
            raise ProtocolError(_("spectators cannot play"), "spectator")
        if kind == "continue":
            await self.read_summary(seat)
        elif kind == "rematch":
            await self.rematch()
        elif kind == "leave":
            await self.leave(seat)
        elif kind == "back":
            await self.come_back(seat)
        elif kind == "resign":
            await self.resign(seat)
        elif kind == "invite":
            await self.invite(seat, intent["seat"], extra["invite_hash"])
        elif kind == "hand_over":
            await self.hand_over(seat, intent["seat"], intent["level"])
        else:
            if self.seats[seat].stand_in:
                raise ProtocolError(
                    _("a stand-in plays for you: take your seat back first"), "stand-in"
                )
            if kind == "play":
                move: Move = parse_move(intent["move"])
            elif kind == "draw":
                move = DRAW
            elif kind == "pass":
                move = PASS
            else:  # pragma: no cover - the schema has no other types
                raise ProtocolError(_("unknown message type {type!r}").format(type=kind))
            try:
                await self._accept(seat, move)
            except DuplicateMove:
                await self.reload()
                self.broadcast()
                raise ProtocolError(_("the table moved on; look again"), "stale") from None
        return {}

    async def read_summary(self, seat: int) -> None:
        """A person closed the last round's summary: the table may go on without them."""
        held = self.seats[seat]
        done = self.results_count
        if held.row.seen >= done:
            return
        await self.save_seat(held, seen=done)
        if self.summary_open() and not self.waiting():
            await self._update_timer()
        self.broadcast()

    async def leave(self, seat: int) -> None:
        """The person leaves: before the game, the seat opens; during it, a stand-in plays."""
        held = self.seats[seat]
        if not self.started:
            await self.save_seat(held, kind="open", name="", token_hash=None)
        elif not self.match.is_over and held.row.away is None:
            await self.save_seat(held, away="left")
            await self._update_timer()
        self._send_away(held)
        self.broadcast()

    async def resign(self, seat: int) -> None:
        if self.rules.players != 2:
            raise ProtocolError(_("only a two-player game can be resigned"), "no-resign")
        if self.match.is_over:
            raise ProtocolError(_("the game is over"), "game-over")
        if not self.started:
            raise ProtocolError(_("the game starts when every seat is taken"), "not-started")
        await self.db.resign(self.code, self.game, seat)
        self.match.resign(seat)
        self.resigned = seat
        await self.finish()
        await self._update_timer()
        self.broadcast()

    def _absent(self, target: int, creator: int) -> Seat:
        """The seat the creator acts on: another person's, whose person is not here."""
        if not 0 <= target < len(self.seats) or target == creator:
            raise ProtocolError(
                _("this table has no seat {seat}").format(seat=target + 1), "bad-seat"
            )
        held = self.seats[target]
        if held.kind == "bot":
            raise ProtocolError(_("a bot already plays that seat"), "seat-taken")
        if held.is_person and self.connected(target) and not held.stand_in:
            raise ProtocolError(_("that person is at the table"), "seat-taken")
        return held

    def _check_creator(self, seat: int) -> None:
        if self.creator is None or seat != self.creator:
            raise ProtocolError(
                _("only the person who created the table can do that"), "not-creator"
            )

    async def invite(self, seat: int, target: int, invite_hash: str) -> None:
        """A new one-time invitation to an absent person's seat; the old token stops working."""
        self._check_creator(seat)
        held = self._absent(target, seat)
        if not held.is_person:
            raise ProtocolError(_("an open seat is taken with the table's link"), "seat-open")
        away = "invited" if self.started and not self.match.is_over else held.row.away
        await self.save_seat(held, token_hash=None, invite_hash=invite_hash, away=away)
        self._refuse(held)
        await self._update_timer()
        self.broadcast()

    async def hand_over(self, seat: int, target: int, level: str) -> None:
        """The creator gives an absent person's (or an open) seat to a bot for good."""
        self._check_creator(seat)
        held = self._absent(target, seat)
        if level not in bot_choices():
            raise ProtocolError(
                _("{field} must be one of {choices}").format(
                    field=_("level"), choices=", ".join(level_choices())
                )
            )
        await self.save_seat(
            held,
            kind="bot",
            name=level,
            level=level,
            token_hash=None,
            invite_hash=None,
            away=None,
            timeouts=0,
        )
        self.bots[target] = make_bot(level, self.seed, target)
        self._refuse(held)
        await self._update_timer()
        self.broadcast()

    async def rematch(self) -> None:
        if not self.match.is_over:
            raise ProtocolError(_("a rematch starts once the game is over"), "not-over")
        if self.origin == "daily":
            raise ProtocolError(_("the daily deal is played once a day"), "daily-once")
        seed = secrets.randbits(63)
        await self.db.start_game(self.code, self.game + 1, seed)
        self.game += 1
        for held in self.seats:
            if held.is_person and (held.row.bank is not None or held.row.seen or held.row.timeouts):
                await self.save_seat(held, bank=None, seen=0, timeouts=0)
        self._start_game(seed)
        self.round_moves = 0
        self.changes["reset"] = 1
        await self._update_timer()
        self.broadcast()

    async def hint(self, conn: Conn) -> None:
        """Advice for ``conn``'s seat, sent to that connection only."""
        seat = conn.seat
        if conn.hinting or seat is None:
            return
        m = self.match
        if m.is_over or m.round.to_move != seat or not self.started:
            conn.push(self.error_frame(_("a hint is given on your turn"), "not-your-turn"))
            return
        view = m.view(seat)
        conn.hinting = True
        try:
            adviser = make_bot(hint_level(), 0, seat)
            explain = getattr(adviser, "explain", None)

            def think() -> tuple[Move, str]:
                if callable(explain):
                    found: tuple[Move, str] = explain(view)
                    return found
                return adviser.choose(view), ""

            move, reason = await asyncio.to_thread(think)
        except Exception:
            log.exception("hint failed", extra={"table": self.code})
            conn.push(self.error_frame(_("No hint is available right now."), "no-hint"))
            return
        finally:
            conn.hinting = False
        conn.push(
            {
                "type": "hint",
                "state": self.state,
                "move": str(move),
                "text": _("Hint: {move}.").format(move=frames.move_words(str(move))),
                "reason": reason,
            }
        )

    def error_frame(self, message: str, code: str = "bad-request") -> dict[str, Any]:
        return {"type": "error", "state": self.state, "code": code, "message": message}

    # -- the clock and the other timers -------------------------------------

    def wanted_timer(self, now: float, *, round_ended: bool = False) -> Timer | None:
        """The timer the table's position calls for (the current one if still right)."""
        m = self.match
        current = self.timer
        if m.is_over or not self.started:
            return None
        if current is not None and current.kind == "summary" and not round_ended:
            # The summary holds the table while somebody reads it, until its end.
            if now < current.end and self.waiting():
                return current
        elif round_ended and self.results_count:
            readers = [
                s for s in self.seats if s.is_person and not s.stand_in and self.connected(s.seat)
            ]
            if readers:
                return Timer("summary", self.seq, now, now + self.timing.summary_wait)
        seat = m.round.to_move
        if self.clock is None or seat is None:
            return None
        held = self.seats[seat]
        if not held.is_person or held.stand_in:
            return None
        if (
            current is not None
            and current.kind == "move"
            and current.seq == self.seq
            and current.seat == seat
        ):
            return current
        bank = float(self.clock["bank"]) if held.row.bank is None else held.row.bank
        return Timer("move", self.seq, now, now + float(self.clock["move"]) + bank, seat)

    async def _update_timer(self, *, round_ended: bool = False) -> None:
        """Store the timer the position calls for, if it changed (call with the lock held)."""
        wanted = self.wanted_timer(time.time(), round_ended=round_ended)
        if wanted == self.timer:
            return
        try:
            await self.db.set_timer(self.code, wanted)
        except Exception:
            # The move itself is stored; a restart starts this timer afresh.
            self.lobby.metrics.store_error()
            log.exception("the clock was not stored", extra={"table": self.code})
        self.timer = wanted
        self.changes["timer"] = True

    def next_wake(self, now: float) -> float | None:
        """When something is due at this table: a timer's end or an offline grace's."""
        due: list[float] = []
        if self.timer is not None:
            due.append(self.timer.end)
        if self.started and not self.match.is_over:
            for held in self.seats:
                if held.is_person and held.row.away is None and held.offline_since is not None:
                    due.append(held.offline_since + self.timing.offline_grace)
        return min(due) if due else None

    def arm(self) -> None:
        """Wake this table when its next timer is due (the leader only; one wake-up at a time)."""
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        if self.lobby.closing or not self.leader:
            return
        when = self.next_wake(time.time())
        if when is None:
            return
        delay = max(0.0, when - time.time())
        self._wake = asyncio.get_running_loop().call_later(
            delay + 0.01, lambda: self.lobby.spawn(self.on_time())
        )

    def stop_leading(self) -> None:
        """The lease went elsewhere: no more timers or bots here."""
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        if self._bot_task is not None and not self._bot_task.done():
            self._bot_task.cancel()

    async def on_time(self) -> None:
        """Do what is due: close the summary, play for a person out of time, seat stand-ins."""
        self._wake = None
        async with self.lock:
            if not self.leader:
                return
            now = time.time()
            changed = False
            for held in self.seats:
                since = held.offline_since
                if (
                    held.is_person
                    and held.row.away is None
                    and since is not None
                    and not self.connected(held.seat)
                    and self.started
                    and not self.match.is_over
                    and now >= since + self.timing.offline_grace
                ):
                    await self.save_seat(held, away="offline")
                    log.info(
                        "seat %d offline, a stand-in plays",
                        held.seat,
                        extra={"table": self.code, "event": "stand-in"},
                    )
                    changed = True
            timer = self.timer
            if timer is not None and now >= timer.end:
                if timer.kind == "summary":
                    await self._update_timer()
                    if self.timer is timer:  # still wanted: nobody reads any more
                        await self.db.set_timer(self.code, None)
                        self.timer = None
                        self.changes["timer"] = True
                    changed = True
                elif timer.kind == "move" and timer.seq == self.seq and timer.seat is not None:
                    await self._time_out(timer.seat)
                    return
            if changed:
                await self._update_timer()
                self.broadcast()
            else:
                self.arm()

    async def _time_out(self, seat: int) -> None:
        """The person's time ran out: a bot makes this one move for them (lock held)."""
        m = self.match
        if m.is_over or m.round.to_move != seat or self.paused:
            await self._update_timer()
            self.broadcast()
            return
        view = m.view(seat)
        try:
            move = self.bots[seat].choose(view)
        except Exception:
            log.exception("the stand-in failed; it passes or draws", extra={"table": self.code})
            move = view.legal_moves()[-1]
        log.info("seat %d ran out of time", seat, extra={"table": self.code, "event": "timeout"})
        try:
            await self._accept(seat, move, "timeout")
        except DuplicateMove:
            await self.reload()
            self.broadcast()

    # -- bots --------------------------------------------------------------

    def bot_to_move(self) -> int | None:
        m = self.match
        if m.is_over or not self.started or self.paused or not self.leader:
            return None
        seat = m.round.to_move
        if seat is None:
            return None
        held = self.seats[seat]
        return seat if held.kind == "bot" or held.stand_in else None

    def kick(self) -> None:
        """Start the bots' loop if a bot is to move and none is thinking (the leader only)."""
        if self.lobby.closing or self.bot_to_move() is None:
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = self.lobby.spawn(self._bots())

    @property
    def has_clients(self) -> bool:
        return bool(self.spectators) or any(s.conns for s in self.seats)

    @property
    def busy(self) -> bool:
        """Whether work is under way or due here (a table that is busy stays in memory)."""
        thinking = self._bot_task is not None and not self._bot_task.done()
        return thinking or self.lock.locked() or self._wake is not None or self._flush is not None

    async def _bots(self) -> None:
        while True:
            seat = self.bot_to_move()
            if seat is None:
                return
            seq = self.seq
            if self.lobby.bot_delay > 0 and not self.taken_over:
                await asyncio.sleep(self.lobby.bot_delay)
                if self.seq != seq or self.bot_to_move() != seat:
                    continue
            self.taken_over = False
            bot = self.bots[seat]
            held = self.seats[seat]
            level = self._level(held)
            view = self.match.view(seat)
            try:
                if bot.name in FAST_BOTS:
                    move = bot.choose(view)
                else:
                    move = await self.lobby.think(bot, level, self.seed, seat, view)
            except Exception:
                log.exception(
                    "bot %s failed; it passes or draws", bot.name, extra={"table": self.code}
                )
                move = view.legal_moves()[-1]
            if self.seq != seq or self.bot_to_move() != seat:
                continue
            try:
                await self.accept(
                    seat, move, at=seq, played_by="stand-in" if held.stand_in else None
                )
            except ProtocolError as exc:
                log.error(
                    "bot %s chose a refused move: %s", bot.name, exc, extra={"table": self.code}
                )
                return
            await asyncio.sleep(0)
