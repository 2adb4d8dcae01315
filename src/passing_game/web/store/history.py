"""An account's games and tables: the reads of ``web/history.py``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from passing_game.web.store.rows import ChangeRow, SeatRow

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx


@dataclass(frozen=True)
class GameRow:
    """One game at a table where the account holds a seat."""

    code: str
    seat: int
    rules: str
    rated: bool
    created: float
    game: int
    finished: bool
    record: str | None


def games_of(tx: Tx, user_id: str, limit: int) -> list[GameRow]:
    """The games at the account's tables, newest table first, a table's last game first."""
    rows = tx.all(
        "SELECT s.code, s.seat, t.rules, t.rated, t.created, g.game, g.finished, g.record"
        " FROM web_seats s JOIN web_tables t ON t.code = s.code"
        " JOIN web_games g ON g.code = s.code"
        " WHERE s.user_id = ? ORDER BY t.created DESC, s.code, g.game DESC LIMIT ?",
        (user_id, limit),
    )
    return [
        GameRow(
            str(r[0]),
            int(r[1]),
            str(r[2]),
            bool(r[3]),
            float(r[4]),
            int(r[5]),
            bool(r[6]),
            None if r[7] is None else str(r[7]),
        )
        for r in rows
    ]


def records_of(
    tx: Tx, user_id: str, after: tuple[str, int] | None, limit: int
) -> list[tuple[str, int, str]]:
    """The finished games of the account's tables, ``(code, game, record)``, in order of
    code and game, those after ``after`` (a page of an export, ``web/yourdata``)."""
    code, game = after if after is not None else ("", 0)
    rows = tx.all(
        "SELECT g.code, g.game, g.record FROM web_games g"
        " JOIN web_seats s ON s.code = g.code AND s.user_id = ?"
        " WHERE g.finished = 1 AND g.record IS NOT NULL"
        " AND (g.code > ? OR (g.code = ? AND g.game > ?))"
        " ORDER BY g.code, g.game LIMIT ?",
        (user_id, code, code, game, limit),
    )
    return [(str(r[0]), int(r[1]), str(r[2])) for r in rows]


def seats_at(tx: Tx, code: str) -> list[tuple[SeatRow, str | None]]:
    """The table's seats, each with its account's current name (``None``: no account);
    a bot account's seat says so (``SeatRow.bot``)."""
    return [
        (
            SeatRow(int(r[0]), r[1], str(r[2]), r[3], bot=bool(r[5])),
            None if r[4] is None else str(r[4]),
        )
        for r in tx.all(
            "SELECT s.seat, s.kind, s.name, s.level, u.name,"
            " (SELECT COUNT(*) FROM web_bots b WHERE b.user_id = s.user_id) FROM web_seats s"
            " LEFT JOIN web_users u ON u.id = s.user_id WHERE s.code = ? ORDER BY s.seat",
            (code,),
        )
    ]


def changes_at(tx: Tx, code: str, user_id: str) -> dict[int, ChangeRow]:
    """Game -> the account's rating change in it, at this table."""
    return {
        int(r[0]): ChangeRow(
            user_id,
            str(r[1]),
            float(r[2]),
            float(r[3]),
            float(r[4]),
            float(r[5]),
            bool(r[6]),
            float(r[7]),
        )
        for r in tx.all(
            "SELECT game, pool, mu_before, sigma_before, mu_after, sigma_after, removed, at"
            " FROM web_rating_changes WHERE code = ? AND user_id = ?",
            (code, user_id),
        )
    }


def tables_of(tx: Tx, user_id: str, limit: int) -> list[tuple[str, int, bool]]:
    """(code, seat, current game finished) of the tables where the account holds
    a person's seat, newest first."""
    rows = tx.all(
        "SELECT s.code, s.seat, g.finished FROM web_seats s"
        " JOIN web_tables t ON t.code = s.code"
        " JOIN web_games g ON g.code = t.code AND g.game = t.game"
        " WHERE s.user_id = ? AND s.kind = 'human' ORDER BY t.created DESC LIMIT ?",
        (user_id, limit),
    )
    return [(str(r[0]), int(r[1]), bool(r[2])) for r in rows]


def away_at(tx: Tx, user_id: str) -> dict[str, str | None]:
    """Why the account's seat at each of its tables is not played by the person now
    (``SeatRow.away``; ``None``: the person plays it), by table."""
    return {
        str(code): None if reason is None else str(reason)
        for code, reason in tx.all("SELECT code, away FROM web_seats WHERE user_id = ?", (user_id,))
    }


__all__ = [
    "GameRow",
    "away_at",
    "changes_at",
    "games_of",
    "records_of",
    "seats_at",
    "tables_of",
]
