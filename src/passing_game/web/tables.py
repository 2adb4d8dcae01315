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

This module is the table's authority (its state, and the one way a move
enters a game); the table's other jobs are its parts: ``seating`` (who sits
where), ``clocks`` (the clock and the other timers), ``outbox`` (frames
out), ``autoplay`` (bots and hints) and ``replica`` (following a leader).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from passing_game.errors import PassingGameError
from passing_game.i18n import _
from passing_game.moves import DRAW, PASS, Move, parse_move
from passing_game.records import dump_record
from passing_game.rules import Rules
from passing_game.web import frames, ratings
from passing_game.web.autoplay import Autoplay
from passing_game.web.botplay import make_bot
from passing_game.web.clocks import Clocks
from passing_game.web.conn import Actor, Conn
from passing_game.web.daily import daily_record, match_for
from passing_game.web.outbox import Outbox
from passing_game.web.protocol import Intent, ProtocolError
from passing_game.web.replica import Replica
from passing_game.web.seating import Seat, Seating, seat_names
from passing_game.web.store import AsyncStore, DuplicateMove, StoredTable, Tx

if TYPE_CHECKING:
    from passing_game.web.lobby import Lobby

log = logging.getLogger("passing_game.web")


@dataclass(frozen=True)
class Timing:
    """How long a table waits for people, in seconds (``passing-game serve`` options)."""

    #: A person offline this long, whose game goes on, is played by a stand-in.
    offline_grace: float = 60.0
    #: The round summary holds the table at most this long.
    summary_wait: float = 45.0
    #: A finished or empty table nobody watches leaves memory after this long.
    idle_evict: float = 120.0


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
        #: This process just took the table over from a leader that died: the
        #: bot to move has waited long enough already.
        self.taken_over = False
        #: (game, move) at which a replica was last found behind the store.
        self.lagging_at: tuple[int, int] | None = None
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
        self.seating = Seating(self)
        self.clocks = Clocks(self)
        self.outbox = Outbox(self)
        self.autoplay = Autoplay(self)
        self.replica = Replica(self)
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
        self.bots = {s.seat: make_bot(s.bot_level, seed, s.seat) for s in self.seats}

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

    @property
    def has_clients(self) -> bool:
        return bool(self.spectators) or any(s.conns for s in self.seats)

    @property
    def busy(self) -> bool:
        """Whether work is under way or due here (a table that is busy stays in memory)."""
        return (
            self.autoplay.thinking or self.lock.locked() or self.clocks.armed or self.outbox.pending
        )

    # -- the store ---------------------------------------------------------

    async def save_seat(self, seat: Seat, **changes: Any) -> None:
        """Store a seat's new row, then keep it (nothing changes here if the store fails)."""
        row = replace(seat.row, **changes)
        await self.db.update_seat(self.code, row)
        seat.row = row
        self.changes["seats"] = True

    async def reload(self) -> None:
        """Everything again from the store (a replica that fell behind, a new leader)."""
        stored = await self.db.load_table(self.code)
        if stored is None:  # pragma: no cover - tables are never deleted
            return
        self._load(stored)
        self.remote = await self.lobby.cluster.present_elsewhere(self.code)
        self.cache = frames.FrameCache()

    def stop_leading(self) -> None:
        """The lease went elsewhere: no more timers or bots here."""
        self.clocks.stop()
        self.autoplay.stop()

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
                self.outbox.broadcast()
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
        seat_changes = self.clocks.move_changes(held, played_by, time.time())
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
        self.outbox.timed.append(
            (started, played_by or ("bot" if held.kind == "bot" else "person"))
        )
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
            await self.clocks.update(round_ended=result is not None)
        finally:
            self.outbox.broadcast()

    async def finish(self) -> None:
        """Keep a finished game's record and, at a rated table, its ratings, in one
        transaction (issue 22); a failure is logged and mended on restart, which
        replays the game and finishes it again."""
        self.changes["reset"] = 1
        outcome = ratings.outcome_for(self)
        made: list[ratings.Change] = []

        def rate(tx: Tx) -> None:
            assert outcome is not None
            made.extend(ratings.rate_tx(tx, self.code, self.game, outcome, time.time()))

        try:
            await self.db.finish_game(
                self.code, self.game, self.record(), rate if outcome is not None else None
            )
        except Exception:
            self.lobby.metrics.store_error()
            log.exception("the finished game was not stored", extra={"table": self.code})
            return
        if outcome is not None:
            ratings.remember(self, made, outcome.aborted)

    def moved_seats(self) -> frozenset[int]:
        """The seats whose own person made at least one move this game (not a bot
        for them): a rated game in which some person did not is aborted."""
        moved: set[int] = set()
        at = 0
        for rnd in self.match.rounds:
            for turn in rnd.history:
                if at < len(self.played_by) and self.played_by[at] is None:
                    moved.add(turn.seat)
                at += 1
        return frozenset(moved)

    def record(self) -> str:
        text = dump_record(self.match, names=self.names(), marks=self.marks())
        return daily_record(text) if self.origin == "daily" else text

    def rematch_waiting(self) -> list[int]:
        """The people whose yes a rematch still needs (issue 22: an offer that each
        person accepts). At a rated table every person's; elsewhere a person a
        stand-in plays for, or gone for the offline grace, is not waited for."""
        now = time.time()
        need = []
        for held in self.seats:
            if not held.is_person or held.row.rematch:
                continue
            if not self.rated and self.seating.gone_for_now(held, now):
                continue
            need.append(held.seat)
        return need

    async def rematch(self, seat: int) -> None:
        """``seat`` offers (or accepts) a rematch; it starts once everyone needed said yes."""
        if not self.match.is_over:
            raise ProtocolError(_("a rematch starts once the game is over"), "not-over")
        if self.origin == "daily":
            raise ProtocolError(_("the daily deal is played once a day"), "daily-once")
        held = self.seats[seat]
        if not held.row.rematch:
            await self.save_seat(held, rematch=True)
        if self.rematch_waiting():
            self.outbox.broadcast()
            return
        seed = secrets.randbits(63)
        await self.db.start_game(self.code, self.game + 1, seed)
        self.game += 1
        for held in self.seats:
            row = held.row
            if held.is_person and (
                row.bank is not None or row.seen or row.timeouts or row.rematch or row.hints
            ):
                await self.save_seat(held, bank=None, seen=0, timeouts=0, rematch=False, hints=0)
        self._start_game(seed)
        self.round_moves = 0
        self.changes["reset"] = 1
        await self.clocks.update()
        self.outbox.broadcast()

    async def take_hint(self, seat: int) -> None:
        """A person asks for a hint (the advice itself is worked out where they are
        connected, ``Autoplay.hint``). Never at a rated table or the daily deal (help
        against a person, or on a deal everybody plays, is not fair); at a table
        with other people, everybody sees how many hints each took (issue 22)."""
        if self.rated:
            raise ProtocolError(_("Hints are not given at rated tables."), "no-hints")
        if self.origin == "daily":
            raise ProtocolError(_("Hints are not given in the daily deal."), "no-hints")
        m = self.match
        if m.is_over or m.round.to_move != seat or not self.started:
            raise ProtocolError(_("a hint is given on your turn"), "not-your-turn")
        held = self.seats[seat]
        if any(s.is_person for s in self.seats if s is not held):
            await self.save_seat(held, hints=held.row.hints + 1)
            self.outbox.broadcast()

    # -- a seated person's intents -------------------------------------------

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
        seating = self.seating
        if kind == "join":
            user_id = extra.get("user_id")
            name = extra.get("user_name") or intent["name"]
            if extra.get("invite_hash"):
                taken = await seating.claim_invite(
                    extra["invite_hash"], name, extra["token_hash"], user_id
                )
            else:
                taken = await seating.claim(intent.get("seat"), name, extra["token_hash"], user_id)
            await self.clocks.update()
            self.outbox.broadcast()
            return {"seat": taken}
        seat = actor.seat
        if seat is None:
            raise ProtocolError(_("spectators cannot play"), "spectator")
        if kind == "continue":
            await seating.read_summary(seat)
        elif kind == "rematch":
            await self.rematch(seat)
        elif kind == "hint":
            await self.take_hint(seat)
        elif kind == "leave":
            await seating.leave(seat)
        elif kind == "back":
            await seating.come_back(seat)
        elif kind == "resign":
            await seating.resign(seat)
        elif kind == "invite":
            await seating.invite(seat, intent["seat"], extra["invite_hash"])
        elif kind == "hand_over":
            await seating.hand_over(seat, intent["seat"], intent["level"])
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
                self.outbox.broadcast()
                raise ProtocolError(_("the table moved on; look again"), "stale") from None
        return {}
