"""What a table tells: each client's frame, the other processes' event, errors.

A client's frames go out in order through its own queue, so a slow client
never holds up a table. They go out only after a change is stored and
applied (``Table.accept``), never before.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import astuple
from typing import TYPE_CHECKING, Any

from passing_game.i18n import _, using_language
from passing_game.web import frames, ratings
from passing_game.web.conn import Conn, encode
from passing_game.web.daily import DAILY_ROUNDS

if TYPE_CHECKING:
    from passing_game.web.tables import Table

#: How long a change that only shows who is online may wait to be merged with others.
PRESENCE_DELAY = 0.25


class Outbox:
    """One table's frames, and when they go out (changes in one turn go out as one)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._flush: asyncio.Handle | None = None
        self._flush_urgent = False
        #: Moves accepted since the last frames went out: when, and who made them.
        self.timed: list[tuple[float, str]] = []

    @property
    def pending(self) -> bool:
        return self._flush is not None

    # -- what a viewer sees ------------------------------------------------

    def seat_rows(self) -> list[dict[str, Any]]:
        t = self.table
        names = t.names()
        now = time.time()
        return [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": names[s.seat],
                "level": s.row.level,
                "connected": s.kind == "bot" or t.connected(s.seat),
                "away": s.row.away if s.is_person else None,
                "standin": s.stand_in,
                # A person without an account is marked: a guest never looks like one.
                "guest": s.is_person and s.row.user_id is None,
                # Whether the table's creator may give the seat away now (issue 22).
                "absent": s.kind != "bot" and t.seating.gone_for_now(s, now),
                "hints": s.row.hints,
                "rematch": s.row.rematch,
            }
            for s in t.seats
        ]

    def frame(self, viewer: int | None) -> dict[str, Any]:
        t = self.table
        waiting = t.waiting()
        now = time.time()
        frame = frames.state_frame(
            t.match,
            viewer,
            code=t.code,
            state=t.state,
            game=t.game,
            seat_rows=self.seat_rows(),
            started=t.started,
            paused=bool(waiting),
            waiting=waiting,
            cache=t.cache,
            played_by=t.round_played_by(),
            holding=viewer is not None and t.seats[viewer].stand_in,
        )
        timer = t.timer
        frame["clock"] = t.clocks.data(now)
        frame["summary_ms"] = (
            max(0, round((timer.end - now) * 1000))
            if timer is not None and timer.kind == "summary" and waiting
            else None
        )
        frame["creator"] = viewer is not None and viewer == t.creator
        frame["can_resign"] = (
            viewer is not None
            and t.rules.players == 2
            and t.started
            and not t.match.is_over
            and not t.seats[viewer].stand_in
        )
        frame["resigned"] = t.resigned
        if t.origin == "daily":
            frame["daily"] = {"rounds": DAILY_ROUNDS}
        frame["ratings"] = ratings.shown(t)
        frame["unrated"] = ratings.unrated(t)
        frame["rematch_waiting"] = t.rematch_waiting() if t.match.is_over else []
        return frame

    def error_frame(self, message: str, code: str = "bad-request") -> dict[str, Any]:
        return {"type": "error", "state": self.table.state, "code": code, "message": message}

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
        for seat in t.seats:
            if seat.conns:
                self._push_frames(seat.conns, seat.seat)
        if t.spectators:
            self._push_frames(t.spectators, None)
        if self.timed:
            done = time.perf_counter()
            for started, by in self.timed:
                t.lobby.metrics.move(done - started, by)
            self.timed.clear()
        t.autoplay.kick()
        t.clocks.arm()

    def _tell_others(self) -> None:
        """The leader's changes since it last told, as one event for the other processes."""
        t = self.table
        changes, t.changes = t.changes, {}
        if not changes or t.lobby.cluster.solo:
            return
        event: dict[str, Any] = {"q": t.seq, "g": t.game}
        if changes.get("reset"):
            event["reset"] = 1
        else:
            if changes.get("m"):
                event["m"] = changes["m"]
            if changes.get("seats"):
                event["seats"] = [list(astuple(s.row)) for s in t.seats]
            if "timer" in changes:
                timer = t.timer
                event["timer"] = None if timer is None else list(astuple(timer))
        t.lobby.cluster.emit(t.code, event)

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
