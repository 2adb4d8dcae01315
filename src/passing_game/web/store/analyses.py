"""Analyses kept per record and seat (``web_analyses``): the rows of ``web/review/api.py``.

A row's ``result`` is the analysis's state as JSON (running, with its
progress and the process that runs it, or done) and ``created`` when it was
last written: a running row not written for a while was left by a dead
process, and the next asker takes it over (``take_over``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passing_game.web.store.rows import AnalysisRow

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx


def claim(tx: Tx, key: str, seat: int, result: str, now: float) -> bool:
    """Keep a new row (this process runs the analysis); ``False`` if one exists."""
    inserted = tx.run(
        "INSERT INTO web_analyses (record_hash, seat, result, created) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (record_hash, seat) DO NOTHING",
        (key, seat, result, now),
    )
    return inserted == 1


def analysis(tx: Tx, key: str, seat: int) -> AnalysisRow | None:
    row = tx.one(
        "SELECT result, created FROM web_analyses WHERE record_hash = ? AND seat = ?",
        (key, seat),
    )
    return None if row is None else AnalysisRow(str(row[0]), float(row[1]))


def take_over(tx: Tx, key: str, seat: int, result: str, now: float, was: float) -> bool:
    """Take a row last written at ``was`` (stale); ``False`` if another process did."""
    taken = tx.run(
        "UPDATE web_analyses SET result = ?, created = ?"
        " WHERE record_hash = ? AND seat = ? AND created = ?",
        (result, now, key, seat, was),
    )
    return taken == 1


def save(tx: Tx, key: str, seat: int, result: str, now: float) -> None:
    """The analysis's state now (its progress, or its result)."""
    tx.run(
        "UPDATE web_analyses SET result = ?, created = ? WHERE record_hash = ? AND seat = ?",
        (result, now, key, seat),
    )


def forget(tx: Tx, key: str, seat: int) -> None:
    tx.run("DELETE FROM web_analyses WHERE record_hash = ? AND seat = ?", (key, seat))


__all__ = ["analysis", "claim", "forget", "save", "take_over"]
