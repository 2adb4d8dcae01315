"""The rows the store reads and writes: plain, frozen values, no SQL.

The tables' own rows (``SeatRow``, ``Timer``, ``NewTable``, ``StoredTable``)
and those of the features that keep rows of their own (accounts, the
quick-play queue, ratings, analyses, the moderators' log). A repository
(``store/*.py``) returns these or plain values; nothing outside the store
sees a cursor or a tuple in a column's order.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

# The table's own values are the authority's (``web/game/model.py``): the
# store keeps them as they are.
from passing_game.web.game.model import AWAY_REASONS as AWAY_REASONS
from passing_game.web.game.model import PLAYED_BY as PLAYED_BY
from passing_game.web.game.model import SeatKind as SeatKind
from passing_game.web.game.model import SeatRow as SeatRow
from passing_game.web.game.model import Timer as Timer


class StoreError(RuntimeError):
    """The store refused a write, or its contents are inconsistent."""


class DuplicateMove(StoreError):
    """A move with this table's sequence number is already stored."""


def hash_token(token: str) -> str:
    """What the store keeps of a seat token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


# -- tables, seats, games, moves ------------------------------------------------


@dataclass(frozen=True)
class NewTable:
    """A table as created: its first game starts with ``seed``."""

    code: str
    rules: dict[str, Any]
    seed: int
    seats: tuple[SeatRow, ...]
    created: float = 0.0
    #: The seat of the person who created the table (``None``: nobody's).
    creator: int | None = None
    #: ``{"move": seconds, "bank": seconds}``, or ``None`` for no clock.
    clock: dict[str, float] | None = None
    #: Whether the game counts for the players' ratings (issue 13).
    rated: bool = False
    #: Whether the table is listed for anyone to join or watch.
    public: bool = False
    #: How the table came to be: ``"friends"`` (the lobby), ``"quick"``, ``"daily"``.
    origin: str = "friends"
    #: The first game's explicit first deal (``web_games.deal``; a practice table's),
    #: or ``None``: its seed deals it.
    deal: str | None = None
    #: The first game's commitment and its secrets (``Fairness.to_dict`` as JSON), or
    #: ``None`` (a daily deal's, a practice round's).
    fairness: str | None = None


@dataclass(frozen=True)
class StoredTable:
    """A table as loaded: its current game's seed and accepted moves."""

    code: str
    created: float
    rules: dict[str, Any]
    seats: tuple[SeatRow, ...]
    game: int
    seed: int
    finished: bool
    moves: tuple[str, ...]
    last_seq: int
    creator: int | None = None
    clock: dict[str, float] | None = None
    timer: Timer | None = None
    #: For each of ``moves``: ``None``, or who made it (``PLAYED_BY``).
    played_by: tuple[str | None, ...] = ()
    #: The seat that resigned the current game, if one did.
    resigned: int | None = None
    rated: bool = False
    public: bool = False
    origin: str = "friends"
    #: The current game's explicit first deal, if it has one (``NewTable.deal``).
    deal: str | None = None
    #: The current game's commitment and secrets, if it has them (``NewTable.fairness``).
    fairness: str | None = None


@dataclass(frozen=True)
class PublicTable:
    """A public table whose current game goes on (``GET /api/tables/public``)."""

    code: str
    rules: dict[str, Any]
    rated: bool
    created: float
    origin: str
    #: How many seats it has, and how many are taken (a person or a bot).
    seats: int
    taken: int


# -- accounts --------------------------------------------------------------------


@dataclass(frozen=True)
class UserRow:
    """An account (``web_users``) as sign-in and the sessions read it."""

    id: str
    name: str
    created: float
    suspended: bool = False
    #: The argon2id hash of its password (``None``: none set, or deleted).
    password_hash: str | None = None


@dataclass(frozen=True)
class AccountRow:
    """An account as the moderators list it."""

    id: str
    name: str
    created: float
    suspended: bool
    deleted: bool


@dataclass(frozen=True)
class LogEntry:
    """One line of the moderators' log (``web_admin_log``)."""

    at: float
    actor: str
    action: str
    target: str
    reason: str


# -- the quick-play queue, the daily deal ------------------------------------------


@dataclass(frozen=True)
class Ticket:
    """One person waiting: a row of ``web_queue``."""

    ticket: str
    players: int
    rated: bool
    user_id: str | None
    name: str
    token_hash: str
    since: float
    #: Whom the row meets (``web_queue.bots``, P62): ``PEOPLE_ONLY``, ``MEETS_BOTS``
    #: (a person who chose to meet bot accounts too) or ``A_BOT`` (a bot account).
    bots: int = 0


#: ``Ticket.bots``: a person who meets people only, one who meets bots too, a bot.
PEOPLE_ONLY, MEETS_BOTS, A_BOT = 0, 1, 2


@dataclass(frozen=True)
class QueueEntry:
    """What one ticket waits for, and the seat it was given (``None``: none yet)."""

    players: int
    rated: bool
    code: str | None
    seat: int | None


@dataclass(frozen=True)
class DailyPlayer:
    """The account asking for the daily deal: its name, name key, age and address."""

    name: str
    name_key: str
    created: float
    address_hash: str | None


@dataclass(frozen=True)
class DailyAttempt:
    """One account's attempt at a day's deal, with its game's state."""

    user_id: str
    name: str
    code: str
    started: float
    finished: bool
    record: str | None


# -- ratings, analyses -----------------------------------------------------------------


@dataclass(frozen=True)
class RatingRow:
    """One account's rating in one pool (``web_ratings``)."""

    pool: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class ChangeRow:
    """One account's rating change in one game (``web_rating_changes``)."""

    user_id: str
    pool: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    removed: bool = False
    #: When it was made (the game's end).
    at: float = 0.0


@dataclass(frozen=True)
class AnalysisRow:
    """An analysis kept per record and seat: its state (JSON) and when it was written."""

    result: str
    created: float


__all__ = [
    "AWAY_REASONS",
    "PLAYED_BY",
    "AccountRow",
    "AnalysisRow",
    "ChangeRow",
    "DailyAttempt",
    "DailyPlayer",
    "DuplicateMove",
    "LogEntry",
    "NewTable",
    "PublicTable",
    "QueueEntry",
    "RatingRow",
    "SeatKind",
    "SeatRow",
    "StoreError",
    "StoredTable",
    "Ticket",
    "Timer",
    "UserRow",
    "hash_token",
]
