"""What a table is, as the authority reads it: plain values, no I/O.

``TableState`` is one table's position at one moment: its stored rows
(seats, timer, moves) and what the runner knows of who is connected. The
runner (``web/table/runner.py``) builds one for every event and hands it to
``game.table.step``; the match inside is read, never changed, here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from passing_game.match import Match
from passing_game.rules import Rules

SeatKind = Literal["open", "human", "bot"]
#: Why a person's seat is not played by the person (``SeatRow.away``): a
#: stand-in bot plays it, except ``paused`` (the table waits for them).
AWAY_REASONS = ("left", "timeout", "offline", "invited", "suspended", "paused")
#: Who made a move other than the seat's own player.
PLAYED_BY = ("timeout", "stand-in")


@dataclass(frozen=True)
class SeatRow:
    """One seat: ``open`` (waiting for a person), ``human`` (taken) or ``bot``.

    For a person's seat: ``bank`` is the clock's time bank left in seconds
    (``None``: untouched), ``timeouts`` the turns in a row the clock ran
    out, ``away`` why the person does not play it now (``AWAY_REASONS``,
    ``None``: the person plays), ``invite_hash`` the SHA-256 of a one-time
    invitation to the seat, and ``seen`` how many finished rounds'
    summaries the person has closed.
    """

    seat: int
    kind: SeatKind
    name: str
    level: str | None = None
    token_hash: str | None = None
    bank: float | None = None
    timeouts: int = 0
    away: str | None = None
    invite_hash: str | None = None
    seen: int = 0
    #: The account the seat belongs to (a signed-in person's), if any.
    user_id: str | None = None
    #: Hints the person took in the current game (shown to the other people).
    hints: int = 0
    #: Whether the person accepted a rematch of the finished game.
    rematch: bool = False
    #: Whether the account is a bot account (issue 28, P62): read with the seat
    #: from ``web_bots``, never written with it.
    bot: bool = False


@dataclass(frozen=True)
class Timer:
    """A table's one running countdown, kept so that a restart resumes it.

    ``kind`` is ``"move"`` (``seat``'s turn, begun at ``start``, ends at
    ``end``) or ``"summary"`` (the round summary closes at ``end``); ``seq``
    is the table's move count when it began, so a timer of a position that
    has moved on is recognised as stale. Times are seconds since the epoch.
    """

    kind: Literal["move", "summary"]
    seq: int
    start: float
    end: float
    seat: int | None = None


@dataclass(frozen=True)
class Timing:
    """How long a table waits for people, in seconds (``passing-game serve`` options)."""

    #: A person offline this long, whose game goes on, is played by a stand-in.
    offline_grace: float = 60.0
    #: The round summary holds the table at most this long.
    summary_wait: float = 45.0
    #: A finished or empty table nobody watches leaves memory after this long.
    idle_evict: float = 120.0


@dataclass(frozen=True)
class Clock:
    """A table's clock setting: seconds a move, and each person's bank."""

    move: float
    bank: float


class RowFacts:
    """What a seat's row says of it: shared by the authority's ``SeatState`` and
    the runner's ``seating.Seat``."""

    row: SeatRow

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
        return self.is_person and self.row.away is not None and self.row.away != "paused"

    @property
    def paused(self) -> bool:
        """Whether the table waits for this person (P41: nobody else is a person)."""
        return self.is_person and self.row.away == "paused"


@dataclass(frozen=True)
class SeatState(RowFacts):
    """A seat as the authority reads it: its row and whether its person is here."""

    row: SeatRow
    #: A client sits here, in this process or another.
    online: bool = False
    #: When the person's last client went (``None`` while one is connected).
    offline_since: float | None = None


@dataclass(frozen=True)
class Dealing:
    """A game's deal still waiting for the people's contributions (``game/dealing.py``):
    ``until`` is when it is dealt without the missing ones (``None``: the wait has
    not begun, it begins once every seat is taken); ``given`` says which seat gave one."""

    until: float | None
    given: tuple[bool, ...]


@dataclass(frozen=True)
class TableState:
    """One table at one moment: what ``step`` decides from.

    ``match`` is the current game with every stored move applied; ``step``
    only reads it. ``played_by`` has one entry per move of the game.
    ``thinking`` says a bot's move for the current position is being chosen.
    """

    code: str
    rules: Rules
    seats: tuple[SeatState, ...]
    match: Match
    game: int
    seed: int
    seq: int
    timer: Timer | None = None
    clock: Clock | None = None
    creator: int | None = None
    rated: bool = False
    origin: str = "friends"
    played_by: Sequence[str | None] = ()
    resigned: int | None = None
    timing: Timing = Timing()
    thinking: bool = False
    #: The deal waits for the people's contributions (``None``: it is dealt).
    dealing: Dealing | None = None

    @property
    def started(self) -> bool:
        """The game starts once every seat is taken (play, once it is dealt too)."""
        return all(s.kind != "open" for s in self.seats)

    @property
    def playing(self) -> bool:
        """Moves may be made: every seat is taken and the deal is made."""
        return self.started and self.dealing is None

    @property
    def over(self) -> bool:
        return self.match.is_over

    @property
    def results_count(self) -> int:
        return len(self.match.results)

    def people(self) -> list[SeatState]:
        return [s for s in self.seats if s.is_person]
