"""The tutorial's lessons an account has done (``web_lessons_done``): web/learn/api.py's rows.

A guest's progress stays in the browser; an account keeps it here, so a
lesson done on the phone is done on the desktop too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx


def mark_done(tx: Tx, user_id: str, lessons: Iterable[str], now: float) -> None:
    """Keep the lessons as done (a lesson done twice keeps its first time)."""
    for lesson in lessons:
        tx.run(
            "INSERT INTO web_lessons_done (user_id, lesson, at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id, lesson) DO NOTHING",
            (user_id, lesson, now),
        )


def done(tx: Tx, user_id: str) -> list[str]:
    """The lessons the account has done, the first done first."""
    rows = tx.all(
        "SELECT lesson FROM web_lessons_done WHERE user_id = ? ORDER BY at, lesson", (user_id,)
    )
    return [str(row[0]) for row in rows]


__all__ = ["done", "mark_done"]
