"""The store's calls in worker threads, so the event loop never waits on a database."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, ParamSpec, TypeVar

from passing_game.web.offloop import Threads
from passing_game.web.store.db import Store
from passing_game.web.store.rows import NewTable, SeatRow, StoredTable, Timer
from passing_game.web.store.tx import Tx

_P = ParamSpec("_P")
_T = TypeVar("_T")


class AsyncStore:
    """A store's calls in worker threads, so the event loop never waits on a database.

    SQLite gets one thread (one writer at a time anyway); PostgreSQL one per
    pooled connection. A call returns once its transaction has committed, so
    ``await db.append_move(...)`` still means "stored" before anything is
    broadcast.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._threads = Threads(store.workers, "store")

    async def run(self, fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """Any of the store's methods, in a worker thread: ``await db.run(store.ping)``."""
        return await self._threads.run(fn, *args, **kwargs)

    _call = run

    async def create_table(self, table: NewTable) -> None:
        await self._call(self.store.create_table, table)

    async def load_table(self, code: str) -> StoredTable | None:
        return await self._call(self.store.load_table, code)

    async def unfinished_codes(self) -> list[str]:
        return await self._call(self.store.unfinished_codes)

    async def update_seat(self, code: str, seat: SeatRow) -> None:
        await self._call(self.store.update_seat, code, seat)

    async def append_move(
        self,
        code: str,
        seq: int,
        game: int,
        move: str,
        played_by: str | None = None,
        timer: Timer | Literal["keep"] | None = "keep",
    ) -> None:
        await self._call(self.store.append_move, code, seq, game, move, played_by, timer)

    async def set_timer(self, code: str, timer: Timer | None) -> None:
        await self._call(self.store.set_timer, code, timer)

    async def resign(self, code: str, game: int, seat: int) -> None:
        await self._call(self.store.resign, code, game, seat)

    async def finish_game(
        self, code: str, game: int, record: str, also: Callable[[Tx], Any] | None = None
    ) -> None:
        await self._call(self.store.finish_game, code, game, record, also)

    async def start_game(
        self, code: str, game: int, seed: int, fairness: str | None = None
    ) -> None:
        await self._call(self.store.start_game, code, game, seed, fairness)

    async def set_deal(self, code: str, game: int, seed: int, fairness: str | None) -> None:
        await self._call(self.store.set_deal, code, game, seed, fairness)

    async def game_record(self, code: str, game: int) -> str | None:
        return await self._call(self.store.game_record, code, game)

    def shutdown(self) -> None:
        """Wait for the calls in flight (every write they hold is committed), then stop."""
        self._threads.shutdown()


__all__ = ["AsyncStore"]
