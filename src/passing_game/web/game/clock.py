"""A table's clock and its other timers, as pure rules (docs/DECISIONS.md P26, P41).

Which timer the position calls for, what a move does to its seat's bank,
when the table next has something due, and the clock as the page shows it.

The bank is for people who are there: a person who is offline on their
turn gets the move time only, and keeps their bank for when they are
back. A turn's deadline is the table's: it begins when the turn does, and
leaving, coming back or a stand-in in between never begins it again.
"""

from __future__ import annotations

from typing import Any

from passing_game.web.game import seats
from passing_game.web.game.model import SeatState, TableState, Timer

#: Turns in a row a person's clock may run out before a stand-in takes the seat.
TIMEOUTS_TO_STAND_IN = 2


def bank_of(state: TableState, held: SeatState) -> float:
    """The seat's bank left (the whole bank until it is first used)."""
    assert state.clock is not None
    return state.clock.bank if held.row.bank is None else held.row.bank


def turn_end(state: TableState, held: SeatState, start: float) -> float:
    """When a turn begun at ``start`` runs out: the move time, and the bank for a
    person who is there."""
    assert state.clock is not None
    return start + state.clock.move + (bank_of(state, held) if held.online else 0.0)


def wanted(state: TableState, now: float, *, round_ended: bool = False) -> Timer | None:
    """The timer the table's position calls for (the current one if still right)."""
    current = state.timer
    if state.over or not state.playing or seats.paused_for(state) is not None:
        return None
    if current is not None and current.kind == "summary" and not round_ended:
        # The summary holds the table while somebody reads it, until its end.
        if now < current.end and seats.waiting(state):
            return current
    elif round_ended and state.results_count and seats.readers(state):
        return Timer("summary", state.seq, now, now + state.timing.summary_wait)
    seat = state.match.round.to_move
    if state.clock is None or seat is None:
        return None
    held = state.seats[seat]
    if not held.is_person:
        return None  # bot seats have no clock
    if (
        current is not None
        and current.kind == "move"
        and current.seq == state.seq
        and current.seat == seat
    ):
        # The same turn: its start stays; its end follows whether the person is here.
        if held.stand_in:
            return current
        end = turn_end(state, held, current.start)
        return (
            current if end == current.end else Timer("move", current.seq, current.start, end, seat)
        )
    if held.stand_in:
        return None
    return Timer("move", state.seq, now, turn_end(state, held, now), seat)


def move_changes(
    state: TableState, held: SeatState, played_by: str | None, now: float
) -> dict[str, Any]:
    """What a move does to its seat's bank and timeouts (P26)."""
    if not held.is_person or state.clock is None:
        return {}
    if played_by not in (None, "timeout"):
        return {}  # a stand-in's move spends nobody's time
    changes: dict[str, Any] = {}
    timer = state.timer
    if timer is not None and timer.kind == "move" and timer.seat == held.seat:
        # Only the bank this turn gave counts (none while the person was away).
        given = (timer.end - timer.start) - state.clock.move
        over = min((now - timer.start) - state.clock.move, given)
        if over > 0:
            changes["bank"] = max(0.0, round(bank_of(state, held) - over, 3))
    if played_by == "timeout":
        timeouts = held.row.timeouts + 1
        changes["timeouts"] = timeouts
        if timeouts >= TIMEOUTS_TO_STAND_IN:
            changes["away"] = "timeout"
    elif held.row.timeouts:
        changes["timeouts"] = 0
    return changes


def stood_in(state: TableState, timer: Timer) -> bool:
    """A turn's clock while a stand-in plays the seat: its bot moves, not the clock."""
    seat = timer.seat
    return timer.kind == "move" and seat is not None and state.seats[seat].stand_in


def next_wake(state: TableState, now: float) -> float | None:
    """When something is due at this table: a timer's end or an offline grace's."""
    due: list[float] = []
    timer = state.timer
    # A move being chosen for a person out of time is not due again meanwhile.
    timing_out = timer is not None and state.thinking and timer.kind == "move" and timer.end <= now
    if timer is not None and not stood_in(state, timer) and not timing_out:
        due.append(timer.end)
    if state.dealing is not None and state.dealing.until is not None:
        due.append(state.dealing.until)  # the deal is made then (game/dealing.py)
    if state.started and not state.over:
        grace = state.timing.offline_grace
        for held in state.seats:
            if held.is_person and held.row.away is None and held.offline_since is not None:
                due.append(held.offline_since + grace)
    elif not state.started and state.creator is not None:
        # Before the game, the creator may give away a seat whose person has
        # been gone for the grace: its frame says so when the grace ends.
        due.extend(g for g in seats.graces(state) if g > now)
    return min(due) if due else None


def data(state: TableState, now: float) -> dict[str, Any] | None:
    """The clock as the page shows it: the running seat's time, every person's bank.

    ``banks`` has ``None`` for a seat without a clock (a bot's, an open one).
    ``move_ms`` is the running turn's move time left: the page shows it
    first, and the bank (``remaining_ms`` minus it) once it is spent.
    """
    clock = state.clock
    if clock is None:
        return None
    timer = state.timer
    found: dict[str, Any] = {
        "move": clock.move,
        "bank": clock.bank,
        "seat": None,
        "remaining_ms": None,
        "move_ms": None,
        "banks": [bank_of(state, s) if s.is_person else None for s in state.seats],
    }
    if timer is not None and timer.kind == "move" and not state.over:
        found["seat"] = timer.seat
        found["remaining_ms"] = max(0, round((timer.end - now) * 1000))
        found["move_ms"] = max(0, round((timer.start + clock.move - now) * 1000))
    return found
