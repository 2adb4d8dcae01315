"""A deal that waits for the people's contributions (issue 26, item 3; P51).

At a rated table and at a tournament's (not a duplicate's: every table of
its round must have the same deal) the server does not choose the deal
alone. The game's commitment is shown from the start; once every seat is
taken the table waits, at most ``WAIT`` seconds, for each person's
browser to send a random contribution, and then deals from the seed mixed
of the committed secret and every contribution given
(``passing_game.fairness``). A browser that sends none in time is dealt
without (``null`` in the record). Until the deal nobody moves, no clock
runs and no hand is shown: the hands of the server's provisional deal are
never the game's.

Pure like ``game/table.py``, whose ``step`` and ``settle`` call these.
"""

from __future__ import annotations

from passing_game.i18n import N_, _
from passing_game.web.game.errors import ProtocolError
from passing_game.web.game.events import (
    NOTHING,
    Act,
    Arm,
    Broadcast,
    Contribute,
    Deal,
    Effect,
    OpenDeal,
    Step,
)
from passing_game.web.game.model import TableState

#: How long a table waits for the contributions once every seat is taken, in seconds.
WAIT = 15.0
#: What every viewer reads while the deal waits.
DEALING = N_("Dealing: each person's browser adds a random part, so nobody chooses the deal alone.")
NOT_DEALT = N_("The deal is not made yet: each person's browser adds its part to it first.")


def contribute(state: TableState, seat: int, act: Act, now: float) -> Step:
    """``seat``'s browser adds its contribution (checked by the protocol). Late, a
    second time, or at a table that asks for none, it changes nothing: the
    deal stands as it is."""
    waiting = state.dealing
    if waiting is None or waiting.given[seat] or not state.seats[seat].is_person:
        return NOTHING
    given = tuple(g or s == seat for s, g in enumerate(waiting.given))
    effects: list[Effect] = [Contribute(seat, str(act.fields["value"]))]
    if state.started and _complete(state, given):
        effects.append(Deal())
    effects.append(Broadcast())
    return Step(tuple(effects))


def settle(state: TableState, now: float) -> list[Effect]:
    """What a waiting deal calls for: its wait begins once every seat is taken,
    and it is dealt at once when every person has given. ``[]``: nothing (it
    is dealt already, or it still waits and ``wake`` says until when)."""
    waiting = state.dealing
    if waiting is None or not state.started:
        return []
    if _complete(state, waiting.given):
        return [Deal(), Broadcast()]
    if waiting.until is None:
        return [OpenDeal(now + WAIT), Broadcast(), Arm(now + WAIT)]
    return []


def due(state: TableState, now: float) -> list[Effect]:
    """At the wait's end the game is dealt with the contributions given."""
    waiting = state.dealing
    if waiting is not None and waiting.until is not None and now >= waiting.until:
        return [Deal(), Broadcast()]
    return []


def wake(state: TableState) -> float | None:
    """When the wait ends, if the deal waits."""
    return None if state.dealing is None else state.dealing.until


def check_dealt(state: TableState) -> None:
    """Refuse a move before the deal."""
    if state.dealing is not None:
        raise ProtocolError(_(NOT_DEALT), "not-dealt")


def _complete(state: TableState, given: tuple[bool, ...]) -> bool:
    return all(given[s.seat] for s in state.seats if s.is_person)


__all__ = ["DEALING", "NOT_DEALT", "WAIT", "check_dealt", "contribute", "due", "settle", "wake"]
