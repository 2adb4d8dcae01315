"""What a table shows of its finished game's rating changes (``frame["ratings"]``,
``frame["unrated"]``).

A part of the table (``Table.ratings``): the leader remembers what it rated
(``remember``); a table that did not rate the game itself (a replica, a
table loaded after its end) asks the store once, in the background.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from passing_game.match import Match
from passing_game.web.game.model import SeatRow
from passing_game.web.ratings.model import Change
from passing_game.web.ratings.service import game_rating
from passing_game.web.store import AsyncStore

log = logging.getLogger("passing_game.web")

#: How often a table asks the store for a finished game's changes that are not there,
#: and how long it waits before asking again (seconds, growing).
MOST_TRIES = 3
RETRY = 0.5


class HasRow(Protocol):
    @property
    def row(self) -> SeatRow: ...


class Rated(Protocol):
    """What the shown ratings read of their table."""

    @property
    def code(self) -> str: ...

    @property
    def game(self) -> int: ...

    @property
    def rated(self) -> bool: ...

    @property
    def match(self) -> Match: ...

    @property
    def seats(self) -> Sequence[HasRow]: ...

    @property
    def db(self) -> AsyncStore: ...


@dataclass
class _Shown:
    game: int
    items: list[dict[str, Any]] | None = None
    #: The game was not rated: a person never moved (``Outcome.aborted``).
    aborted: bool = False
    loading: bool = False
    tries: int = 0


def frame_items(rows: Sequence[SeatRow], changes: Sequence[Change]) -> list[dict[str, Any]]:
    """``frame["ratings"]``: per seat of an account, its rating before and after, the
    change, and whether the rating was still settling (its first games move it more)."""
    by_user = {c.user_id: c for c in changes if not c.removed}
    items = []
    for row in rows:
        change = by_user.get(row.user_id or "")
        if change is not None:
            items.append(
                {
                    "seat": row.seat,
                    "pool": change.pool,
                    "before": change.before,
                    "after": change.after,
                    "delta": change.delta,
                    "settling": change.settling,
                }
            )
    return items


class RatingsShown:
    """One table's rating changes of its current game, as its frames show them.

    ``spawn`` runs the store's read in the background; ``changed`` is called
    once it has found something to show (the table broadcasts).
    """

    def __init__(
        self,
        table: Rated,
        spawn: Callable[[Awaitable[Any]], object],
        changed: Callable[[], None],
    ) -> None:
        self.table = table
        self._spawn = spawn
        self._changed = changed
        self._known: _Shown | None = None

    def _rows(self) -> list[SeatRow]:
        return [held.row for held in self.table.seats]

    def remember(self, changes: Sequence[Change], aborted: bool) -> None:
        """What the leader's ``Table.finish`` rated, shown from the next frame on."""
        t = self.table
        self._known = _Shown(t.game, frame_items(self._rows(), changes), aborted)
        event = "aborted" if aborted else "rated"
        log.info("%s game %d", event, t.game, extra={"table": t.code, "event": event})

    def _find(self) -> _Shown | None:
        """What the table shows of its finished rated game (``None``: nothing to show)."""
        t = self.table
        if not t.rated or not t.match.is_over:
            return None
        known = self._known
        if known is None or known.game != t.game:
            known = self._known = _Shown(t.game)
        if known.items is None and not known.loading and known.tries < MOST_TRIES:
            known.loading = True
            known.tries += 1
            self._spawn(self._load(known))
        return known

    def shown(self) -> list[dict[str, Any]] | None:
        """``frame["ratings"]``: the rating changes of the table's finished, rated game."""
        known = self._find()
        return None if known is None or known.aborted else known.items

    def unrated(self) -> str | None:
        """``frame["unrated"]``: why a rated table's finished game was not rated, if it was not."""
        known = self._find()
        return "aborted" if known is not None and known.aborted else None

    async def _load(self, known: _Shown) -> None:
        # A replica may learn of the game's last move before its leader has rated
        # it (the rating's commit follows the move's): it asks again a little later.
        t = self.table
        state: str | None = None
        changes: list[Change] = []
        try:
            for attempt in range(MOST_TRIES):
                state, changes = await t.db.run(game_rating, t.db.store, t.code, known.game)
                if state is not None or changes or t.game != known.game:
                    break
                await asyncio.sleep(RETRY * (attempt + 1))
        finally:
            known.loading = False
        if (state is not None or changes) and t.game == known.game:
            known.items = frame_items(self._rows(), changes)
            known.aborted = state == "aborted"
            self._changed()


__all__ = ["RatingsShown", "frame_items"]
