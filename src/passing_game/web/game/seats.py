"""Who the table waits for, and who plays for whom (docs/DECISIONS.md P26, P41).

Pure rules over a ``TableState``: which seat a bot moves for, whose
summary the table waits for, when a person counts as gone, and whether
the table is paused for one. ``game.table.step`` decides with them; the
frames show what they say.
"""

from __future__ import annotations

from collections.abc import Sequence

from passing_game.match import Match
from passing_game.web.game.model import SeatState, TableState

#: Tables whose game is always played out (P65): a tournament waits for its games'
#: results, so a person alone with bots there is stood in for, never waited for.
PLAYED_OUT = frozenset({"tournament"})


def alone(state: TableState, seat: int) -> bool:
    """Whether nobody but ``seat``'s person is a person at the table (P41).

    Then that person's absence pauses the table instead of a stand-in
    playing their match out: nobody else is kept waiting. Never at a table
    of ``PLAYED_OUT``: there the game must end, the person's seat forfeited.
    """
    if state.origin in PLAYED_OUT:
        return False
    return not any(s.is_person for s in state.seats if s.seat != seat)


def paused_for(state: TableState) -> int | None:
    """The seat whose person the table waits for (P41), if any."""
    return next((s.seat for s in state.seats if s.paused), None)


def summary_open(state: TableState) -> bool:
    """Whether the last round's summary holds the table (until its countdown ends)."""
    timer = state.timer
    return timer is not None and timer.kind == "summary" and not state.over


def waiting(state: TableState) -> list[int]:
    """People still reading the last round's summary: the table waits for them."""
    if not summary_open(state):
        return []
    done = state.results_count
    return [
        s.seat
        for s in state.seats
        if s.is_person and not s.stand_in and s.online and s.row.seen < done
    ]


def readers(state: TableState) -> list[SeatState]:
    """The people who would read a round's summary now (here, playing their seat)."""
    return [s for s in state.seats if s.is_person and not s.stand_in and s.online]


def bot_to_move(state: TableState) -> int | None:
    """The seat a bot (its own, or a stand-in) moves for now, if any."""
    if state.over or not state.playing or waiting(state) or paused_for(state) is not None:
        return None
    seat = state.match.round.to_move
    if seat is None:
        return None
    held = state.seats[seat]
    return seat if held.kind == "bot" or held.stand_in else None


def gone_for_now(state: TableState, held: SeatState, now: float) -> bool:
    """Whether the creator may give this person's seat away: a stand-in plays it
    (they left, timed out twice, were offline for the grace), the table waits
    for them, or its person has been offline for the grace (never during a blink)."""
    if not held.is_person:
        return held.kind == "open"
    if held.row.away is not None:
        return True
    since = held.offline_since
    return not held.online and since is not None and now - since >= state.timing.offline_grace


def can_come_back(state: TableState, seat: int) -> bool:
    """Whether the seat's person may take it back now: only during the game (a
    finished game offers no seat back), and not a seat given to someone invited."""
    away = state.seats[seat].row.away
    return not state.over and state.started and away is not None and away != "invited"


def rematch_waiting(state: TableState, now: float) -> list[int]:
    """The people whose yes a rematch still needs: at a rated table every person's;
    elsewhere a person who is gone for now is not waited for."""
    need = []
    for held in state.seats:
        if not held.is_person or held.row.rematch:
            continue
        if not state.rated and gone_for_now(state, held, now):
            continue
        need.append(held.seat)
    return need


def moved_seats(state: TableState) -> frozenset[int]:
    """The seats whose own person made at least one move this game (not a bot for
    them): a rated game in which some person did not is aborted."""
    moved: set[int] = set()
    at = 0
    played_by = state.played_by
    for rnd in state.match.rounds:
        for turn in rnd.history:
            if at < len(played_by) and played_by[at] is None:
                moved.add(turn.seat)
            at += 1
    return frozenset(moved)


def round_played_by(state: TableState) -> list[str | None]:
    """Who made each move of the current round, when not the seat's own player."""
    n = len(state.match.round.moves)
    played_by = state.played_by
    return list(played_by[len(played_by) - n :]) if n else []


def record_marks(match: Match, played_by: Sequence[str | None]) -> dict[tuple[int, int], str]:
    """The record's marks: (round, move) of every move a bot made for a person."""
    found: dict[tuple[int, int], str] = {}
    at = 0
    for number, rnd in enumerate(match.rounds, start=1):
        for index in range(1, len(rnd.moves) + 1):
            by = played_by[at] if at < len(played_by) else None
            if by is not None:
                found[(number, index)] = by
            at += 1
    return found


def last_round_ended_by(state: TableState) -> str | None:
    """Who made the last finished round's last move, if a bot made it for a person."""
    if not state.match.results:
        return None
    played_by = state.played_by
    at = len(played_by) - 1
    if state.match.round.result is None:
        at -= len(state.match.round.moves)
    return played_by[at] if 0 <= at < len(played_by) else None


def offline_due(state: TableState, now: float) -> list[SeatState]:
    """People offline for the whole grace whose game goes on: a stand-in (or, for
    a person alone with bots, the pause) takes over their seat now."""
    if not state.started or state.over:
        return []
    grace = state.timing.offline_grace
    return [
        s
        for s in state.seats
        if s.is_person
        and s.row.away is None
        and s.offline_since is not None
        and not s.online
        and now >= s.offline_since + grace
    ]


def graces(state: TableState) -> list[float]:
    """When each disconnected person's offline grace ends."""
    grace = state.timing.offline_grace
    return [
        s.offline_since + grace
        for s in state.seats
        if s.is_person and s.offline_since is not None and not s.online
    ]


def adjourns(state: TableState, seat: int) -> bool:
    """Whether ``seat``'s running turn adjourns the game when it runs out: the
    person is alone with bots (P41). The page then asks "are you still
    there?" once the move time is spent."""
    timer = state.timer
    return (
        state.clock is not None
        and timer is not None
        and timer.kind == "move"
        and timer.seat == seat
        and alone(state, seat)
    )
