"""A table's runner: it feeds events to the pure authority and does the I/O.

The rules of a table (an intent, a bot's move, the clock, a person's coming
and going) are decided by ``web/game/``'s ``step`` and ``settle``, which
touch nothing. This module carries their effects out in the order the store
demands (P21, P41): check, store (and wait for the commit), apply, tell.
The table's lock (``Table.lock``) is held from an event's check to its
broadcast, so two events never interleave; meanwhile the table waits for
the database in a worker thread (``AsyncStore``) and the loop serves others.

Its parts: ``seating`` (connections, seat tokens), ``outbox`` (frames out),
``autoplay`` (the one place a bot's move is chosen, off the event loop),
``replica`` (following a leader through the same ``apply_*`` methods),
``ratings`` (its game's rating changes shown) and ``fairness`` (the deal's
commitment). Each names what it uses of the table in a ``Protocol`` of its
own; the table knows its process only as a ``Host``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from passing_game.fairness import Fairness
from passing_game.i18n import _
from passing_game.moves import Move
from passing_game.records import dump_record
from passing_game.rules import Rules
from passing_game.web.daily import daily_record, match_for, stored_match
from passing_game.web.game import events, model
from passing_game.web.game import seats as seat_rules
from passing_game.web.game import table as authority
from passing_game.web.game.model import Clock, SeatRow, SeatState, TableState, Timer, Timing
from passing_game.web.practice import model as practice
from passing_game.web.protocol import Intent, ProtocolError
from passing_game.web.ratings.model import Change, outcome_for
from passing_game.web.ratings.service import rate_tx
from passing_game.web.ratings.shown import RatingsShown
from passing_game.web.store import AsyncStore, DuplicateMove, StoredTable, Tx
from passing_game.web.table import fairness as fair
from passing_game.web.table import frames
from passing_game.web.table.autoplay import Autoplay, Thinker
from passing_game.web.table.botplay import bot_choices, level_choices
from passing_game.web.table.conn import Actor, Conn
from passing_game.web.table.outbox import Outbox, Teller
from passing_game.web.table.replica import Replica
from passing_game.web.table.seating import Seat, Seating, Usher, log_seat

__all__ = ["Host", "Table", "Timing"]

log = logging.getLogger("passing_game.web")


class Host(Thinker, Usher, Teller, Protocol):
    """What a table asks of its process (the lobby): the store, the timing, and
    what its parts ask (``Thinker``, ``Usher``, ``Teller``)."""

    @property
    def db(self) -> AsyncStore: ...

    @property
    def timing(self) -> Timing: ...


@dataclass
class _Done:
    """What applying a step's effects did (for ``settle``)."""

    round_ended: bool = False
    finished: bool = False
    stored: bool = False
    broadcast: bool = False
    urgent: bool = False


class Table:
    """One table: its seats, its current game, its clock, its clients.

    In the process that leads the table (``leader``) it is the authority's
    runner: every event is checked, stored and applied here, and the other
    processes are told (``Cluster.emit``). Elsewhere it is a replica that
    only follows those events and serves its own clients' frames.
    """

    def __init__(self, lobby: Host, stored: StoredTable) -> None:
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
        #: Held from an event's check to its broadcast (the store is awaited inside).
        self.lock = asyncio.Lock()
        self.cache = frames.FrameCache()
        #: The process that leads the table, as far as this one knows (replicas).
        self.holder: str | None = None
        #: Seat -> the other processes with a client there.
        self.remote: dict[int, set[str]] = {}
        #: Each seat's last ``SeatState`` (``snapshot``: made again only when it changed).
        self._seat_states: dict[int, SeatState] = {}
        #: What changed since the other processes were last told (the leader's).
        self.changes: dict[str, Any] = {}
        self._wake: asyncio.TimerHandle | None = None
        #: The commitment drawn for the game the intent being handled may deal.
        self._fresh: Fairness | None = None
        self.ratings = RatingsShown(self, lobby.spawn, lambda: self.outbox.broadcast())
        self.outbox = Outbox(self, lobby, self.ratings)
        self.seating = Seating(self, self.outbox, lobby)
        self.autoplay = Autoplay(self, lobby)
        self.replica = Replica(self, self.seating, self.outbox)
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
        given = stored.clock
        self.clock = None if given is None else Clock(float(given["move"]), float(given["bank"]))
        self.rated = stored.rated
        self.public = stored.public
        self.origin = stored.origin
        self.timer = stored.timer
        self.game = stored.game
        self.seq = stored.last_seq
        fairness = fair.loaded(stored.fairness, self.rules.players)
        self._start_game(stored.seed, fairness, fair.dealing_of(stored.fairness, fairness))
        self.match = stored_match(stored)
        self.played_by: list[str | None] = list(stored.played_by) or [None] * len(stored.moves)
        self.resigned: int | None = stored.resigned

    def _start_game(
        self, seed: int, fairness: Fairness | None = None, dealing: model.Dealing | None = None
    ) -> None:
        self.seed, self.fairness = seed, fairness  # fairness: the commitment (fair.py)
        self.dealing = dealing  # the deal waits for contributions (game/dealing.py)
        # A daily deal's match ends after its rounds (web/daily.py, P31).
        self.match = match_for(self.origin, self.rules, seed)
        self.played_by = []
        self.resigned = None
        self.autoplay.new_game()

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
        """The game starts once every seat is taken."""
        return all(s.kind != "open" for s in self.seats)

    @property
    def playing(self) -> bool:
        """Moves may be made: every seat is taken and the deal is made."""
        return self.started and self.dealing is None

    def connected(self, seat: int) -> bool:
        """Whether a client sits at ``seat`` in this process or another."""
        return bool(self.seats[seat].conns) or bool(self.remote.get(seat))

    def snapshot(self) -> TableState:
        """The table as the authority reads it, now."""
        return TableState(
            code=self.code,
            rules=self.rules,
            seats=tuple(self._seat_state(s) for s in self.seats),
            match=self.match,
            game=self.game,
            seed=self.seed,
            seq=self.seq,
            timer=self.timer,
            clock=self.clock,
            creator=self.creator,
            rated=self.rated,
            origin=self.origin,
            played_by=self.played_by,
            resigned=self.resigned,
            timing=self.timing,
            thinking=self.autoplay.thinking_at(self.seq),
            dealing=self.dealing,
        )

    def _seat_state(self, seat: Seat) -> SeatState:
        """``seat`` as the authority reads it; the same object while nothing of it changed."""
        online = bool(seat.conns) or bool(self.remote.get(seat.seat))
        known = self._seat_states.get(seat.seat)
        if (
            known is None
            or known.row is not seat.row
            or known.online != online
            or known.offline_since != seat.offline_since
        ):
            known = self._seat_states[seat.seat] = SeatState(seat.row, online, seat.offline_since)
        return known

    def waiting(self) -> list[int]:
        """People still reading the last round's summary: the table waits for them."""
        return seat_rules.waiting(self.snapshot())

    def names(self) -> list[str]:
        return frames.seat_names([s.row for s in self.seats])

    def record(self) -> str:
        marks = seat_rules.record_marks(self.match, self.played_by)
        revealed = fair.revealed(self.fairness, self.match)
        text = dump_record(self.match, names=self.names(), marks=marks, fairness=revealed)
        if self.origin == practice.ORIGIN:
            return practice.practice_record(text)
        return daily_record(text) if self.origin == "daily" else text

    def detach(self, conn: Conn) -> None:
        """``conn`` leaves this table (``conn.Place``)."""
        self.seating.detach(conn)

    @property
    def has_clients(self) -> bool:
        return bool(self.spectators) or any(s.conns for s in self.seats)

    @property
    def busy(self) -> bool:
        """Whether work is under way or due here (a table that is busy stays in memory)."""
        return (
            self.autoplay.thinking
            or self.lock.locked()
            or self._wake is not None
            or self.outbox.pending
        )

    # -- events ------------------------------------------------------------

    async def run(self, actor: Actor, intent: Intent, extra: dict[str, Any]) -> dict[str, Any]:
        """Carry out a person's intent that changes the table (the leader only).

        ``actor`` stands for the person's connection: its seat, its language,
        and where errors and answers go; it may be in another process.
        ``extra`` holds what that process made for the intent (token hashes).
        Returns what the intent's process needs to finish (a seat taken).
        """
        fields: dict[str, Any] = {**intent.fields, **extra}
        if intent.type == "hand_over":
            fields["levels"], fields["shown"] = bot_choices(), level_choices()
        seat = None if intent.type == "join" else actor.seat
        # Fresh randomness (a system call) only for an intent that deals: its commitment.
        self._fresh = Fairness.new(self.rules.players) if intent.type in authority.DEALING else None
        event = events.Act(seat, intent.type, fields, seed=self._fresh.seed if self._fresh else 0)
        return dict(await self.dispatch(event))

    async def dispatch(self, event: events.Event) -> Mapping[str, Any]:
        """One event through the authority, its effects carried out (the leader only)."""
        async with self.lock:
            return await self._dispatch(event)

    async def _dispatch(self, event: events.Event) -> Mapping[str, Any]:
        if not isinstance(event, events.Act) and not self.leader:
            return {}
        now = time.time()
        found = authority.step(self.snapshot(), event, now)
        done = _Done()
        try:
            await self._perform(found.effects, done)
            await self._settle(done, now, round_ended=done.round_ended, finished=done.finished)
        except DuplicateMove:
            # Another process stored this move number first (a lease that
            # changed hands): this one catches up and drops its own.
            log.warning(
                "move %d was already stored elsewhere",
                self.seq + 1,
                extra={"table": self.code, "event": "duplicate-move"},
            )
            await self.reload()
            # Caught up: the position's own timer and bots, from here.
            await self._perform(authority.settle(self.snapshot(), time.time()), _Done())
            self.outbox.broadcast()
            if isinstance(event, events.Act):
                raise ProtocolError(
                    _("The table has moved on since: look again, then try again."), "stale"
                ) from None
            return {}
        if done.broadcast or done.stored:
            self.outbox.broadcast(urgent=done.urgent or done.stored)
        return found.reply

    async def settle(self, *, finish: bool = False) -> None:
        """What the position calls for now (after a restart, a new lead, a new
        table): its timer, its bots, its wake-up; a finished game kept again."""
        async with self.lock:
            if not self.leader:
                return
            done = _Done()
            await self._settle(done, time.time(), finished=finish and self.match.is_over)
            if done.stored:
                self.outbox.broadcast()

    async def _settle(self, done: _Done, now: float, **given: bool) -> None:
        """What the position calls for, carried out (and what a deal just made calls for)."""
        effects = authority.settle(self.snapshot(), now, **given)
        await self._perform(effects, done)
        if any(isinstance(e, events.Deal) for e in effects):
            await self._perform(authority.settle(self.snapshot(), now), done)

    async def _perform(self, effects: Sequence[events.Effect], done: _Done) -> None:
        """Carry out effects in order: each stored one is stored, then applied."""
        for effect in effects:
            if isinstance(effect, events.AppendMove):
                await self._append(effect, done)
            elif isinstance(effect, events.SaveSeat):
                await self.save_seat(self.seats[effect.seat], **effect.changes)
                log_seat(self.code, effect)
            elif isinstance(effect, events.SetTimer):
                await self._set_timer(effect.timer)
            elif isinstance(effect, events.Resign):
                await self.db.resign(self.code, self.game, effect.seat)
                self.match.resign(effect.seat)
                self.resigned = effect.seat
                done.finished = True
            elif isinstance(effect, events.NewGame):
                made = self._fresh if self._fresh and self._fresh.seed == effect.seed else None
                # A rated table's next deal waits for contributions too (game/dealing.py).
                text = fair.awaiting(made) if made and self.rated else fair.stored(made)
                await self.db.start_game(self.code, effect.game, effect.seed, text)
                self.game = effect.game
                self._start_game(effect.seed, made, fair.dealing_of(text, made))
                self.changes["reset"] = 1
            elif isinstance(effect, events.Contribute | events.OpenDeal | events.Deal):
                fairness, waiting, seed, text = fair.after(self.fairness, self.dealing, effect)
                await self.db.set_deal(self.code, self.game, seed, text)
                self._start_game(seed, fairness, waiting)  # no move yet: dealt again
                self.cache, self.changes["reset"] = frames.FrameCache(), 1
            elif isinstance(effect, events.Finish):
                await self.finish()
            elif isinstance(effect, events.Think):
                self.autoplay.think(effect)
                continue
            elif isinstance(effect, events.SendAway):
                self.seating.send_away(self.seats[effect.seat], keep=effect.keep)
                continue
            elif isinstance(effect, events.Dismiss):
                self.seating.dismiss(
                    self.seats[effect.seat], effect.message, effect.code, effect.all
                )
                continue
            elif isinstance(effect, events.Broadcast):
                done.broadcast = True
                done.urgent = done.urgent or effect.urgent
                continue
            elif isinstance(effect, events.Arm):
                self.arm(effect.when)
                continue
            done.stored = True

    async def _append(self, effect: events.AppendMove, done: _Done) -> None:
        seat = self.match.round.to_move
        assert seat is not None
        held = self.seats[seat]
        started = time.perf_counter()
        try:
            await self.db.append_move(
                self.code, effect.seq, self.game, str(effect.move), effect.played_by
            )
        except DuplicateMove:
            raise
        except Exception:
            self.lobby.metrics.store_error()
            raise
        log.debug(
            "move %d %s", effect.seq, effect.move, extra={"table": self.code, "event": "move"}
        )
        by = effect.played_by or ("bot" if held.kind == "bot" else "person")
        self.outbox.timed.append((started, by))
        self.changes.setdefault("m", []).append([effect.seq, str(effect.move), effect.played_by])
        result = self.apply_move(effect.seq, effect.move, effect.played_by)
        done.finished = done.finished or self.match.is_over
        done.round_ended = done.round_ended or (result and not self.match.is_over)

    # -- applying (the leader after storing, a replica from the leader's event) --

    def apply_move(self, seq: int, move: Move, played_by: str | None) -> bool:
        """Play the stored move number ``seq``; whether it ended a round."""
        result = self.match.play(move)
        self.seq = seq
        self.played_by.append(played_by)
        return result is not None

    def apply_row(self, seat: Seat, row: SeatRow) -> None:
        """A seat's new stored row (its bot follows a change of who plays it)."""
        before = seat.row
        seat.row = row
        if row.kind != before.kind or row.level != before.level:
            self.autoplay.forget(seat.seat)

    def apply_timer(self, timer: Timer | None) -> None:
        self.timer = timer

    # -- the store ---------------------------------------------------------

    async def save_seat(self, seat: Seat, **changes: Any) -> None:
        """Store a seat's new row, then keep it (nothing changes here if the store fails)."""
        row = replace(seat.row, **changes)
        await self.db.update_seat(self.code, row)
        self.apply_row(seat, row)
        self.changes["seats"] = True

    async def _set_timer(self, timer: Timer | None) -> None:
        try:
            await self.db.set_timer(self.code, timer)
        except Exception:
            # What caused it is stored; a restart starts this timer afresh.
            self.lobby.metrics.store_error()
            log.exception("the clock was not stored", extra={"table": self.code})
        self.apply_timer(timer)
        self.changes["timer"] = True

    async def finish(self) -> None:
        """Keep a finished game's record and, at a rated table, its ratings, in one
        transaction (issue 22); a failure is logged and mended on restart, which
        replays the game and finishes it again."""
        self.changes["reset"] = 1
        outcome = outcome_for(self.snapshot())
        made: list[Change] = []

        def rate(tx: Tx) -> None:
            assert outcome is not None
            made.extend(rate_tx(tx, self.code, self.game, outcome, time.time()))

        try:
            await self.db.finish_game(
                self.code, self.game, self.record(), rate if outcome is not None else None
            )
        except Exception:
            self.lobby.metrics.store_error()
            log.exception("the finished game was not stored", extra={"table": self.code})
            return
        if outcome is not None:
            self.ratings.remember(made, outcome.aborted)

    async def reload(self) -> None:
        """Everything again from the store (a replica that fell behind, a new leader)."""
        stored = await self.db.load_table(self.code)
        if stored is None:  # pragma: no cover - tables are never deleted
            return
        self._load(stored)
        self.remote = await self.lobby.cluster.present_elsewhere(self.code)
        self.cache = frames.FrameCache()

    # -- the wake-up -------------------------------------------------------

    def arm(self, when: float | None) -> None:
        """Wake this table (a ``Tick``) at ``when`` (the leader only; one at a time)."""
        self.stop_wake()
        if when is None or self.lobby.closing or not self.leader:
            return
        delay = max(0.0, when - time.time())
        self._wake = asyncio.get_running_loop().call_later(
            delay + 0.01, lambda: self.lobby.spawn(self._on_time())
        )

    def stop_wake(self) -> None:
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None

    async def _on_time(self) -> None:
        self._wake = None
        await self.dispatch(events.Tick())

    def stop_leading(self) -> None:
        """The lease went elsewhere: no more timers or bots here."""
        self.stop_wake()
        self.autoplay.stop()
