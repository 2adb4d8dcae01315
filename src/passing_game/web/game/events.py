"""What goes into the table authority and what comes out (P41): the events
(a person's intent, a bot's move, presence, the clock, a suspended account)
and the effects the runner carries out, in order.

Apart from the rules (``game/table.py``) so that the runner, its parts and
the tests name them without the rules' code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from passing_game.moves import Move
from passing_game.web.game.model import Timer

# -- events -------------------------------------------------------------------


@dataclass(frozen=True)
class Act:
    """A person's intent: ``kind`` as the protocol names it, its checked
    ``fields``, and what the person's process made for it (token hashes,
    the account). ``seat`` is ``None`` for somebody not seated (``join``).
    ``seed`` is fresh randomness the runner drew (a rematch's deal)."""

    seat: int | None
    kind: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0


@dataclass(frozen=True)
class BotMove:
    """The move a bot chose for ``seat`` at move count ``at`` (``Think``)."""

    seat: int
    at: int
    move: Move
    played_by: str | None = None


@dataclass(frozen=True)
class Presence:
    """Who is connected changed (the runner keeps who and since when)."""


@dataclass(frozen=True)
class Tick:
    """The time came for what ``clock.next_wake`` said."""


@dataclass(frozen=True)
class Suspend:
    """``seat``'s account may no longer play (suspended or deleted)."""

    seat: int


Event = Act | BotMove | Presence | Tick | Suspend


# -- effects ------------------------------------------------------------------


@dataclass(frozen=True)
class AppendMove:
    """Store the game's move number ``seq``, then play it."""

    seq: int
    move: Move
    played_by: str | None = None


@dataclass(frozen=True)
class SaveSeat:
    """Store the seat's row with these changes, then keep it."""

    seat: int
    changes: Mapping[str, Any]


@dataclass(frozen=True)
class Resign:
    """Store that ``seat`` resigned the game, then end it."""

    seat: int


@dataclass(frozen=True)
class NewGame:
    """Store that game number ``game`` starts with ``seed``, then deal it."""

    game: int
    seed: int


@dataclass(frozen=True)
class Contribute:
    """Store ``seat``'s contribution to the deal's seed (``game/dealing.py``), then keep it."""

    seat: int
    value: str


@dataclass(frozen=True)
class OpenDeal:
    """Store that the deal waits for contributions until ``until``, then keep it."""

    until: float


@dataclass(frozen=True)
class Deal:
    """Store the seed mixed from the contributions given, then deal the game from it."""


@dataclass(frozen=True)
class SetTimer:
    """Store the table's timer, then keep it."""

    timer: Timer | None


@dataclass(frozen=True)
class Finish:
    """Keep the finished game's record and, at a rated table, its ratings."""


@dataclass(frozen=True)
class Think:
    """Have ``level`` choose a move for ``seat`` at move count ``at``, off the
    event loop; it comes back as ``BotMove``. ``delay`` says whether to wait
    the table's bot delay first (a person's timeout is played at once)."""

    seat: int
    level: str
    at: int
    played_by: str | None
    delay: bool = True


@dataclass(frozen=True)
class SendAway:
    """The seat's clients go back to the lobby (they left); ``keep``: their
    seat waits for them, so the page keeps its token."""

    seat: int
    keep: bool = False


@dataclass(frozen=True)
class Dismiss:
    """The seat's clients whose token is no longer the seat's are refused
    (``all``: every client of the seat), told ``message``."""

    seat: int
    message: str
    code: str
    all: bool = False


@dataclass(frozen=True)
class Broadcast:
    """Everybody gets the new frames (``urgent=False``: may wait to be merged)."""

    urgent: bool = True


@dataclass(frozen=True)
class Arm:
    """Wake the table (a ``Tick``) at ``when`` (``None``: nothing is due)."""

    when: float | None


Effect = (
    AppendMove
    | SaveSeat
    | Resign
    | NewGame
    | Contribute
    | OpenDeal
    | Deal
    | SetTimer
    | Finish
    | Think
    | SendAway
    | Dismiss
    | Broadcast
    | Arm
)
#: The effects that change what is stored (the runner stores each first).
STORED = (AppendMove, SaveSeat, Resign, NewGame, Contribute, OpenDeal, Deal, SetTimer)


@dataclass(frozen=True)
class Step:
    """What an event does, and what its sender is answered (a seat taken)."""

    effects: tuple[Effect, ...] = ()
    reply: Mapping[str, Any] = field(default_factory=dict)


NOTHING = Step()


__all__ = [
    "NOTHING",
    "STORED",
    "Act",
    "AppendMove",
    "Arm",
    "BotMove",
    "Broadcast",
    "Contribute",
    "Deal",
    "Dismiss",
    "Effect",
    "Event",
    "Finish",
    "NewGame",
    "OpenDeal",
    "Presence",
    "Resign",
    "SaveSeat",
    "SendAway",
    "SetTimer",
    "Step",
    "Suspend",
    "Think",
    "Tick",
]
