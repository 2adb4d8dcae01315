"""What a table tells: each client's frame, the other processes' event, errors.

A client's frames go out in order through its own queue, so a slow client
never holds up a table. They go out only after a change is stored and
applied (``Table.dispatch``), never before. Sending starts nothing: bots
and timers are the authority's effects (``Think``, ``Arm``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import astuple
from typing import Any, Protocol

from passing_game.fairness import Fairness
from passing_game.i18n import _, using_language
from passing_game.web.daily import DAILY_ROUNDS
from passing_game.web.game import clock, dealing, seats
from passing_game.web.game.model import TableState
from passing_game.web.practice import model as practice
from passing_game.web.ratings.shown import RatingsShown
from passing_game.web.server.cluster import Cluster
from passing_game.web.server.observe import Metrics
from passing_game.web.table import fairness as fair
from passing_game.web.table import frames
from passing_game.web.table.conn import Conn, encode

#: How long a change that only shows who is online may wait to be merged with others.
PRESENCE_DELAY = 0.25


class Held(Protocol):
    """A seat as the outbox sees it: whose clients get which seat's frame."""

    @property
    def seat(self) -> int: ...

    @property
    def conns(self) -> set[Conn]: ...


class Told(Protocol):
    """What the outbox reads and changes of its table; the rest of a frame is
    the table's snapshot (``snapshot``), the same for every viewer."""

    @property
    def code(self) -> str: ...

    #: The number of the table's last frame (each frame and error carries it).
    state: int
    #: When the table last had a client or changed (``time.monotonic()``).
    touched: float
    #: What changed since the other processes were last told (the leader's).
    changes: dict[str, Any]
    #: The current game's commitment and its secrets, if it has them (``fairness.py``).
    fairness: Fairness | None

    @property
    def seats(self) -> Sequence[Held]: ...

    @property
    def spectators(self) -> set[Conn]: ...

    @property
    def has_clients(self) -> bool: ...

    @property
    def cache(self) -> frames.FrameCache: ...

    def snapshot(self) -> TableState: ...


class Teller(Protocol):
    """What the outbox asks of its process: the other processes, the metrics."""

    @property
    def cluster(self) -> Cluster: ...

    @property
    def metrics(self) -> Metrics: ...


class Outbox:
    """One table's frames, and when they go out (changes in one turn go out as one)."""

    def __init__(self, table: Told, host: Teller, ratings: RatingsShown) -> None:
        self.table = table
        self.host = host
        self.ratings = ratings
        self._flush: asyncio.Handle | None = None
        self._flush_urgent = False
        #: Moves accepted since the last frames went out: when, and who made them.
        self.timed: list[tuple[float, str]] = []

    @property
    def pending(self) -> bool:
        return self._flush is not None

    # -- what a viewer sees ------------------------------------------------

    def seat_rows(self, state: TableState, now: float) -> list[dict[str, Any]]:
        names = self.table.cache.names([s.row for s in state.seats])
        return [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": names[s.seat],
                "level": s.row.level,
                "connected": s.kind == "bot" or s.online,
                "away": s.row.away if s.is_person else None,
                "standin": s.stand_in,
                # A person without an account is marked: a guest never looks like one.
                # A practice round's one person sits with bots only: nobody to tell.
                "guest": s.is_person and s.row.user_id is None and state.origin != practice.ORIGIN,
                # An account's seat: the page shows its reputation (web/reputation.py).
                "account": s.is_person and s.row.user_id is not None,
                # A bot account's seat (P62): a program plays it, and the page says so.
                "bot_account": s.is_person and s.row.bot,
                # Whether the table's creator may give the seat away now (issue 22).
                "absent": s.kind != "bot" and seats.gone_for_now(state, s, now),
                "hints": s.row.hints,
                "rematch": s.row.rematch,
            }
            for s in state.seats
        ]

    def frame(self, viewer: int | None, state: TableState | None = None) -> dict[str, Any]:
        """``viewer``'s frame (``state``: the table's snapshot, shared by every viewer)."""
        t = self.table
        state = state or t.snapshot()
        now = time.time()
        waiting = seats.waiting(state)
        held = None if viewer is None else state.seats[viewer]
        frame = frames.state_frame(
            state.match,
            viewer,
            code=state.code,
            state=t.state,
            game=state.game,
            seat_rows=self.seat_rows(state, now),
            started=state.playing,
            paused=bool(waiting),
            waiting=waiting,
            cache=t.cache,
            played_by=seats.round_played_by(state),
            holding=held is not None and held.stand_in,
            ended_by=seats.last_round_ended_by(state),
        )
        # The summary opens by itself only for whom the table waits (a person
        # arriving mid-round sees the round, not a dialog of the last one).
        frame["summary_due"] = bool(waiting) and (viewer is None or viewer in waiting)
        timer = state.timer
        frame["clock"] = clock.data(state, now)
        frame["summary_ms"] = (
            max(0, round((timer.end - now) * 1000))
            if timer is not None and timer.kind == "summary" and waiting
            else None
        )
        frame["creator"] = viewer is not None and viewer == state.creator
        frame["can_resign"] = (
            held is not None
            and state.rules.players == 2
            and state.playing
            and not state.over
            and not held.stand_in
        )
        frame["can_come_back"] = viewer is not None and seats.can_come_back(state, viewer)
        frame["adjourned"] = seats.paused_for(state)
        frame["alone"] = viewer is not None and seats.alone(state, viewer)
        frame["adjourns"] = viewer is not None and seats.adjourns(state, viewer)
        frame["resigned"] = state.resigned
        # The commitment to the deal, for every viewer from the start (issue 26, fairness.py).
        # While the deal waits (once every seat is taken), each viewer's browser is
        # asked for its part; the provisional deal's hands are never the game's.
        waits = state.dealing if state.started else None
        frame.update(fair.frame_fields(t.fairness, state.match, waits, viewer, now))
        if state.dealing is not None:
            frame["round"].update(hand=[], pips=0, leader=None, to_move=None)
        if waits is not None:
            frame["status"] = _(dealing.DEALING)
        if state.origin == "daily":
            frame["daily"] = {"rounds": DAILY_ROUNDS}
        frame["tournament"] = state.origin == "tournament"  # one game, no rematch (P54)
        if state.origin == practice.ORIGIN:  # one round from a replay's position (issue 25)
            frame["practice"] = True
            if state.over and state.match.resigned is None:  # a resignation says so
                names = [str(row["name"]) for row in frame["seats"]]
                frame["status"] = practice.ending_text(state.match, viewer, names)
        frame["ratings"] = self.ratings.shown()
        frame["unrated"] = self.ratings.unrated()
        frame["rematch_waiting"] = seats.rematch_waiting(state, now) if state.over else []
        return frame

    def error_frame(self, message: str, code: str = "bad-request") -> dict[str, Any]:
        return frames.error_frame(self.table.state, message, code)

    # -- sending -----------------------------------------------------------

    def broadcast(self, *, urgent: bool = True) -> None:
        """A new state: every client soon gets its own seat's frame (spectators: no hand).

        Changes within one turn of the event loop go out as one frame; a
        change that only shows who is online (``urgent=False``) waits up to
        ``PRESENCE_DELAY`` to be merged with others, so that clients coming
        and going cannot flood the people playing.
        """
        self.table.touched = time.monotonic()
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
        t = self.table
        self._flush = None
        t.state += 1
        self._tell_others()
        if t.has_clients:
            state = t.snapshot()
            for seat in t.seats:
                if seat.conns:
                    self._push_frames(seat.conns, seat.seat, state)
            if t.spectators:
                self._push_frames(t.spectators, None, state)
        if self.timed:
            done = time.perf_counter()
            for started, by in self.timed:
                self.host.metrics.move(done - started, by)
            self.timed.clear()

    def _tell_others(self) -> None:
        """The leader's changes since it last told, as one event for the other processes."""
        t = self.table
        changes, t.changes = t.changes, {}
        cluster = self.host.cluster
        if not changes or cluster.solo:
            return
        state = t.snapshot()
        event: dict[str, Any] = {"q": state.seq, "g": state.game}
        if changes.get("reset"):
            event["reset"] = 1
        else:
            if changes.get("m"):
                event["m"] = changes["m"]
            if changes.get("seats"):
                event["seats"] = [list(astuple(s.row)) for s in state.seats]
            if "timer" in changes:
                timer = state.timer
                event["timer"] = None if timer is None else list(astuple(timer))
        cluster.emit(t.code, event)

    def _push_frames(self, conns: set[Conn], viewer: int | None, state: TableState) -> None:
        """``viewer``'s frame to each of ``conns``, worded once per language among them."""
        texts: dict[str, str] = {}
        for conn in list(conns):
            text = texts.get(conn.language)
            if text is None:
                with using_language(conn.language):
                    text = texts[conn.language] = encode(self.frame(viewer, state))
            conn.push_text(text)

    def send_state(self, conn: Conn) -> None:
        with using_language(conn.language):
            conn.push(self.frame(conn.seat))

    def tell(self, conns: Sequence[Conn] | set[Conn], message: str, code: str) -> None:
        for conn in list(conns):
            with using_language(conn.language):
                conn.push(self.error_frame(_(message), code))
