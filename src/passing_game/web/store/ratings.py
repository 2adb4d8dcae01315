"""Ratings and their changes (``web_ratings``, ``web_rating_changes``; a game's ``rating``).

The rows of ``web/ratings/service.py``, whose formula (``ratings.rate``) is pure:
here a player's rating is read under its row's lock (``lock_rating``: in
one order of accounts, so that two games finishing together never
deadlock), a change is kept once per game and player (the primary key
``(code, game, user_id)``), and a game taken out of the ratings has its
changes marked ``removed``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passing_game.web.store.rows import ChangeRow, RatingRow

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx


def changes(tx: Tx, code: str, game: int) -> list[ChangeRow]:
    """The rating changes a game made (removed ones included), by account."""
    rows = tx.all(
        "SELECT user_id, pool, mu_before, sigma_before, mu_after, sigma_after, removed"
        " FROM web_rating_changes WHERE code = ? AND game = ? ORDER BY user_id",
        (code, game),
    )
    return [
        ChangeRow(
            str(r[0]),
            str(r[1]),
            float(r[2]),
            float(r[3]),
            float(r[4]),
            float(r[5]),
            removed=bool(r[6]),
        )
        for r in rows
    ]


def was_rated(tx: Tx, code: str, game: int) -> bool:
    """Whether the game made rating changes already."""
    return bool(
        tx.one("SELECT 1 FROM web_rating_changes WHERE code = ? AND game = ?", (code, game))
    )


def mark_aborted(tx: Tx, code: str, game: int) -> None:
    """The game is not rated: a person never moved (or no account played)."""
    tx.run("UPDATE web_games SET rating = 'aborted' WHERE code = ? AND game = ?", (code, game))


def mark_rated(tx: Tx, code: str, game: int) -> None:
    tx.run("UPDATE web_games SET rating = 'rated' WHERE code = ? AND game = ?", (code, game))


def game_rating(tx: Tx, code: str, game: int) -> str | None:
    """``"rated"``, ``"aborted"`` or ``None`` (not rated, or no such game)."""
    row = tx.one("SELECT rating FROM web_games WHERE code = ? AND game = ?", (code, game))
    return None if row is None or row[0] is None else str(row[0])


def lock_rating(
    tx: Tx, user_id: str, pool: str, mu: float, sigma: float, now: float
) -> tuple[float, float]:
    """The account's (mu, sigma) in the pool, its row made at (``mu``, ``sigma``)
    if missing and locked until the transaction ends."""
    tx.run(
        "INSERT INTO web_ratings (user_id, pool, mu, sigma, games, updated)"
        " VALUES (?, ?, ?, ?, 0, ?) ON CONFLICT (user_id, pool) DO NOTHING",
        (user_id, pool, mu, sigma, now),
    )
    # A no-op write takes the row's lock (PostgreSQL): a game finishing
    # at the same moment with this player waits, then reads the new value.
    lock_row(tx, user_id, pool)
    row = tx.one(
        "SELECT mu, sigma FROM web_ratings WHERE user_id = ? AND pool = ?", (user_id, pool)
    )
    assert row is not None
    return float(row[0]), float(row[1])


def lock_row(tx: Tx, user_id: str, pool: str) -> None:
    """Take the rating row's lock (a no-op write) until the transaction ends."""
    tx.run("UPDATE web_ratings SET games = games WHERE user_id = ? AND pool = ?", (user_id, pool))


def add_change(tx: Tx, code: str, game: int, change: ChangeRow, now: float) -> None:
    """The account's new rating (one game more), and the change kept for the game."""
    tx.run(
        "UPDATE web_ratings SET mu = ?, sigma = ?, games = games + 1, updated = ?"
        " WHERE user_id = ? AND pool = ?",
        (change.mu_after, change.sigma_after, now, change.user_id, change.pool),
    )
    tx.run(
        "INSERT INTO web_rating_changes (code, game, user_id, pool, mu_before,"
        " sigma_before, mu_after, sigma_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            code,
            game,
            change.user_id,
            change.pool,
            change.mu_before,
            change.sigma_before,
            change.mu_after,
            change.sigma_after,
            now,
        ),
    )


def changed(tx: Tx, code: str, game: int) -> list[tuple[str, str, bool]]:
    """(account, pool, removed) of each change the game made, by account."""
    rows = tx.all(
        "SELECT user_id, pool, removed FROM web_rating_changes WHERE code = ? AND game = ?"
        " ORDER BY user_id",
        (code, game),
    )
    return [(str(r[0]), str(r[1]), bool(r[2])) for r in rows]


def remove_changes(tx: Tx, code: str, game: int) -> None:
    tx.run("UPDATE web_rating_changes SET removed = 1 WHERE code = ? AND game = ?", (code, game))


def kept_steps(tx: Tx, user_id: str, pool: str) -> list[tuple[float, float, float, float]]:
    """The account's changes in the pool that count, in order: (mu_before,
    sigma_before, mu_after, sigma_after)."""
    rows = tx.all(
        "SELECT mu_before, sigma_before, mu_after, sigma_after"
        " FROM web_rating_changes WHERE user_id = ? AND pool = ? AND removed = 0"
        " ORDER BY at, code, game",
        (user_id, pool),
    )
    return [(float(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in rows]


def set_rating(
    tx: Tx, user_id: str, pool: str, mu: float, sigma: float, games: int, now: float
) -> None:
    tx.run(
        "UPDATE web_ratings SET mu = ?, sigma = ?, games = ?, updated = ?"
        " WHERE user_id = ? AND pool = ?",
        (mu, sigma, games, now, user_id, pool),
    )


def rated_pools(tx: Tx, user_id: str) -> list[RatingRow]:
    """The account's ratings in the pools it played rated games in."""
    rows = tx.all(
        "SELECT pool, mu, sigma, games FROM web_ratings WHERE user_id = ? AND games > 0",
        (user_id,),
    )
    return [RatingRow(str(r[0]), float(r[1]), float(r[2]), int(r[3])) for r in rows]


def leaderboard(tx: Tx, pool: str, limit: int) -> list[tuple[str, str, RatingRow]]:
    """(account, name, rating) of the pool's rated players, best ordinal first;
    suspended and deleted accounts left out."""
    rows = tx.all(
        "SELECT u.name, r.mu, r.sigma, r.games, u.id FROM web_ratings r"
        " JOIN web_users u ON u.id = r.user_id"
        " WHERE r.pool = ? AND r.games > 0 AND u.suspended = 0 AND u.deleted = 0"
        " ORDER BY r.mu - 3 * r.sigma DESC, u.name_key LIMIT ?",
        (pool, limit),
    )
    return [
        (str(r[4]), str(r[0]), RatingRow(pool, float(r[1]), float(r[2]), int(r[3]))) for r in rows
    ]


__all__ = [
    "add_change",
    "changed",
    "changes",
    "game_rating",
    "kept_steps",
    "leaderboard",
    "lock_rating",
    "lock_row",
    "mark_aborted",
    "mark_rated",
    "rated_pools",
    "remove_changes",
    "set_rating",
    "was_rated",
]
