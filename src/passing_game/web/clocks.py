"""A table's clock and its other timers (docs/DECISIONS.md P26, told in ``tables``).

Which timer the table's position calls for, storing it (so that a restart
resumes it), the one wake-up that the leader arms, and what is done when
it comes: a move for a person out of time, a stand-in for a person offline
too long, the end of the round summary's wait.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from passing_game.web.store import DuplicateMove, Timer

if TYPE_CHECKING:
    from passing_game.web.seating import Seat
    from passing_game.web.tables import Table

log = logging.getLogger("passing_game.web")

#: Turns in a row a person's clock may run out before a stand-in takes the seat.
TIMEOUTS_TO_STAND_IN = 2


class Clocks:
    """The timers of one table (its ``clock`` setting, its stored ``timer``) and its wake-up."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._wake: asyncio.TimerHandle | None = None

    @property
    def armed(self) -> bool:
        return self._wake is not None

    def data(self, now: float) -> dict[str, Any] | None:
        """The clock as the page shows it: the running seat's time left, every bank."""
        t = self.table
        if t.clock is None:
            return None
        move, bank = float(t.clock["move"]), float(t.clock["bank"])
        timer = t.timer
        data: dict[str, Any] = {
            "move": move,
            "bank": bank,
            "seat": None,
            "remaining_ms": None,
            "move_ms": None,
            "banks": [bank if s.row.bank is None else s.row.bank for s in t.seats],
        }
        if timer is not None and timer.kind == "move" and not t.match.is_over:
            data["seat"] = timer.seat
            data["remaining_ms"] = max(0, round((timer.end - now) * 1000))
            data["move_ms"] = max(0, round((timer.start + move - now) * 1000))
        return data

    def move_changes(self, seat: Seat, played_by: str | None, now: float) -> dict[str, Any]:
        """What a move does to its seat's bank and timeouts (P26)."""
        t = self.table
        if not seat.is_person or t.clock is None:
            return {}
        timer = t.timer
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
            over = (now - timer.start) - float(t.clock["move"])
            if over > 0:
                bank = float(t.clock["bank"]) if seat.row.bank is None else seat.row.bank
                changes["bank"] = max(0.0, round(bank - over, 3))
        return changes

    def wanted(self, now: float, *, round_ended: bool = False) -> Timer | None:
        """The timer the table's position calls for (the current one if still right)."""
        t = self.table
        m = t.match
        current = t.timer
        if m.is_over or not t.started:
            return None
        if current is not None and current.kind == "summary" and not round_ended:
            # The summary holds the table while somebody reads it, until its end.
            if now < current.end and t.waiting():
                return current
        elif round_ended and t.results_count:
            readers = [s for s in t.seats if s.is_person and not s.stand_in and t.connected(s.seat)]
            if readers:
                return Timer("summary", t.seq, now, now + t.timing.summary_wait)
        seat = m.round.to_move
        if t.clock is None or seat is None:
            return None
        held = t.seats[seat]
        if not held.is_person:
            return None
        if (
            current is not None
            and current.kind == "move"
            and current.seq == t.seq
            and current.seat == seat
        ):
            # The turn's deadline is the table's: leaving, coming back, a stand-in
            # or a reconnection in between never starts it again (issue 22).
            return current
        if held.stand_in:
            return None
        bank = float(t.clock["bank"]) if held.row.bank is None else held.row.bank
        return Timer("move", t.seq, now, now + float(t.clock["move"]) + bank, seat)

    async def update(self, *, round_ended: bool = False) -> None:
        """Store the timer the position calls for, if it changed (call with the lock held)."""
        t = self.table
        wanted = self.wanted(time.time(), round_ended=round_ended)
        if wanted == t.timer:
            return
        try:
            await t.db.set_timer(t.code, wanted)
        except Exception:
            # The move itself is stored; a restart starts this timer afresh.
            t.lobby.metrics.store_error()
            log.exception("the clock was not stored", extra={"table": t.code})
        t.timer = wanted
        t.changes["timer"] = True

    def _stood_in(self, timer: Timer) -> bool:
        """A turn's clock while a stand-in plays the seat: its bot moves, not the clock."""
        seat = timer.seat
        return timer.kind == "move" and seat is not None and self.table.seats[seat].stand_in

    def next_wake(self, now: float) -> float | None:
        """When something is due at this table: a timer's end or an offline grace's."""
        t = self.table
        due: list[float] = []
        if t.timer is not None and not self._stood_in(t.timer):
            due.append(t.timer.end)
        if t.started and not t.match.is_over:
            for held in t.seats:
                if held.is_person and held.row.away is None and held.offline_since is not None:
                    due.append(held.offline_since + t.timing.offline_grace)
        elif not t.started and t.creator is not None:
            # Before the game, the creator may give away a seat whose person has
            # been gone for the grace: its frame says so when the grace ends.
            due.extend(g for g in self._graces() if g > now)
        return min(due) if due else None

    def _graces(self) -> list[float]:
        """When each disconnected person's offline grace ends."""
        t = self.table
        return [
            held.offline_since + t.timing.offline_grace
            for held in t.seats
            if held.is_person and held.offline_since is not None and not t.connected(held.seat)
        ]

    def arm(self) -> None:
        """Wake this table when its next timer is due (the leader only; one wake-up at a time)."""
        t = self.table
        self.stop()
        if t.lobby.closing or not t.leader:
            return
        when = self.next_wake(time.time())
        if when is None:
            return
        delay = max(0.0, when - time.time())
        self._wake = asyncio.get_running_loop().call_later(
            delay + 0.01, lambda: t.lobby.spawn(self.on_time())
        )

    def stop(self) -> None:
        """No wake-up any more (until armed again)."""
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None

    async def on_time(self) -> None:
        """Do what is due: close the summary, play for a person out of time, seat stand-ins."""
        t = self.table
        self._wake = None
        async with t.lock:
            if not t.leader:
                return
            now = time.time()
            changed = False
            for held in t.seats:
                since = held.offline_since
                if (
                    held.is_person
                    and held.row.away is None
                    and since is not None
                    and not t.connected(held.seat)
                    and t.started
                    and not t.match.is_over
                    and now >= since + t.timing.offline_grace
                ):
                    await t.save_seat(held, away="offline")
                    log.info(
                        "seat %d offline, a stand-in plays",
                        held.seat,
                        extra={"table": t.code, "event": "stand-in"},
                    )
                    changed = True
            timer = t.timer
            if timer is not None and now >= timer.end:
                if timer.kind == "summary":
                    await self.update()
                    if t.timer is timer:  # still wanted: nobody reads any more
                        await t.db.set_timer(t.code, None)
                        t.timer = None
                        t.changes["timer"] = True
                    changed = True
                elif (
                    timer.kind == "move"
                    and timer.seq == t.seq
                    and timer.seat is not None
                    and not self._stood_in(timer)
                ):
                    await self._time_out(timer.seat)
                    return
            if not t.started and any(0 <= now - g < 2.0 for g in self._graces()):
                changed = True  # a grace just ended: the creator's tools show
            if changed:
                await self.update()
                t.outbox.broadcast()
            else:
                self.arm()

    async def _time_out(self, seat: int) -> None:
        """The person's time ran out: a bot makes this one move for them (lock held)."""
        t = self.table
        m = t.match
        if m.is_over or m.round.to_move != seat or t.paused:
            await self.update()
            t.outbox.broadcast()
            return
        view = m.view(seat)
        try:
            move = t.bots[seat].choose(view)
        except Exception:
            log.exception("the stand-in failed; it passes or draws", extra={"table": t.code})
            move = view.legal_moves()[-1]
        log.info("seat %d ran out of time", seat, extra={"table": t.code, "event": "timeout"})
        try:
            await t._accept(seat, move, "timeout")
        except DuplicateMove:
            await t.reload()
            t.outbox.broadcast()
