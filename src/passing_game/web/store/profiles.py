"""A public profile's reads (``web/profiles/service.py``): the account by its name, its
finished games (the newest first, a bounded number), its rating changes and the
analyses kept of its seats.

Only finished games are read (``web_games.finished`` with a record): a game under way,
its moves and its hands never leave the store through here. The account's ratings per
pool are ``ratings.rated_pools``'; the seats of a table ``history.seats_at``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx


@dataclass(frozen=True)
class ProfileAccount:
    """The live account a profile is of."""

    id: str
    name: str
    created: float


@dataclass(frozen=True)
class FinishedGame:
    """One finished game at a table where the account held a seat, with its record."""

    code: str
    game: int
    seat: int
    rules: str
    rated: bool
    created: float
    record: str


@dataclass(frozen=True)
class RatingStep:
    """One rating change that counts (not removed), in order of time."""

    code: str
    game: int
    pool: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    at: float


def account(tx: Tx, name_key: str) -> ProfileAccount | None:
    """The live (not deleted) account of this name key (``accounts.name_key``)."""
    row = tx.one(
        "SELECT id, name, created FROM web_users WHERE name_key = ? AND deleted = 0",
        (name_key,),
    )
    return None if row is None else ProfileAccount(str(row[0]), str(row[1]), float(row[2]))


def finished_count(tx: Tx, user_id: str) -> int:
    """How many finished games the account held a seat in."""
    row = tx.one(
        "SELECT COUNT(*) FROM web_seats s JOIN web_games g ON g.code = s.code"
        " WHERE s.user_id = ? AND g.finished = 1 AND g.record IS NOT NULL",
        (user_id,),
    )
    return 0 if row is None else int(row[0])


def finished_games(tx: Tx, user_id: str, limit: int) -> list[FinishedGame]:
    """The account's finished games with their records, the newest table first and a
    table's last game first, at most ``limit``."""
    rows = tx.all(
        "SELECT g.code, g.game, s.seat, t.rules, t.rated, t.created, g.record"
        " FROM web_seats s JOIN web_tables t ON t.code = s.code"
        " JOIN web_games g ON g.code = s.code"
        " WHERE s.user_id = ? AND g.finished = 1 AND g.record IS NOT NULL"
        " ORDER BY t.created DESC, g.code DESC, g.game DESC LIMIT ?",
        (user_id, limit),
    )
    return [
        FinishedGame(str(r[0]), int(r[1]), int(r[2]), str(r[3]), bool(r[4]), float(r[5]), str(r[6]))
        for r in rows
    ]


def rating_steps(tx: Tx, user_id: str, limit: int) -> list[RatingStep]:
    """The account's rating changes that count, every pool, the last ``limit`` of them in
    order of time (oldest first)."""
    rows = tx.all(
        "SELECT code, game, pool, mu_before, sigma_before, mu_after, sigma_after, at"
        " FROM web_rating_changes WHERE user_id = ? AND removed = 0"
        " ORDER BY at DESC, code DESC, game DESC LIMIT ?",
        (user_id, limit),
    )
    steps = [
        RatingStep(
            str(r[0]),
            int(r[1]),
            str(r[2]),
            float(r[3]),
            float(r[4]),
            float(r[5]),
            float(r[6]),
            float(r[7]),
        )
        for r in rows
    ]
    steps.reverse()
    return steps


def game_dates(
    tx: Tx, user_id: str, games: Sequence[tuple[str, int]]
) -> dict[tuple[str, int], float]:
    """When each of these games was rated for the account (its end), where it was."""
    found: dict[tuple[str, int], float] = {}
    codes = sorted({code for code, _game in games})
    for start in range(0, len(codes), 100):
        part = codes[start : start + 100]
        marks = ", ".join("?" for _ in part)
        for code, game, at in tx.all(
            "SELECT code, game, at FROM web_rating_changes"
            f" WHERE user_id = ? AND code IN ({marks})",
            (user_id, *part),
        ):
            found[(str(code), int(game))] = float(at)
    return found


def done_analyses(tx: Tx, keys: Sequence[tuple[str, int]]) -> dict[tuple[str, int], str]:
    """The stored state (JSON) of each analysis kept for these (record hash, seat) pairs;
    running ones included (the caller reads ``status``)."""
    found: dict[tuple[str, int], str] = {}
    wanted = set(keys)
    hashes = sorted({key for key, _seat in keys})
    for start in range(0, len(hashes), 100):
        part = hashes[start : start + 100]
        marks = ", ".join("?" for _ in part)
        for key, seat, result in tx.all(
            f"SELECT record_hash, seat, result FROM web_analyses WHERE record_hash IN ({marks})",
            tuple(part),
        ):
            if (str(key), int(seat)) in wanted:
                found[(str(key), int(seat))] = str(result)
    return found


__all__ = [
    "FinishedGame",
    "ProfileAccount",
    "RatingStep",
    "account",
    "done_analyses",
    "finished_count",
    "finished_games",
    "game_dates",
    "rating_steps",
]
