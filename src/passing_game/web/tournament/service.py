"""Tournaments as one server process runs them (issue 26, item 1; P54).

Every process polls the store every ``ADVANCE_SECONDS`` for the tournaments
not finished and asks ``director.advance`` of each, which holds the
tournaments' lock while it reads the games and makes the next tables: any
number of processes may poll at once, and whichever comes first after a
game ends pairs the next one. The process that made a table leads it (as
quick play's tables: it claims the lease and settles it); a table whose
process died is taken by the cluster's sweep like any other. Nothing of a
tournament is in a process's memory, so a process killed mid-tournament
loses no game and no result (the store has them), and the others go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from typing import Any, Protocol

from passing_game.web.server.cluster import Cluster
from passing_game.web.store import AsyncStore, Store
from passing_game.web.tournament import director

log = logging.getLogger("passing_game.web")

#: How often a process looks for tournament games to pair.
ADVANCE_SECONDS = 2.0


class Led(Protocol):
    @property
    def leader(self) -> bool: ...

    async def settle(self, *, finish: bool = False) -> None: ...


class Host(Protocol):
    """What the tournaments ask of their process."""

    @property
    def store(self) -> Store: ...

    @property
    def db(self) -> AsyncStore: ...

    @property
    def cluster(self) -> Cluster: ...

    @property
    def closing(self) -> bool: ...

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]: ...

    async def get(self, code: str) -> Led | None: ...


class Tournaments:
    """The poll of one process: pair what is due, lead the tables made here."""

    def __init__(self, host: Host, every: float = ADVANCE_SECONDS) -> None:
        self.host = host
        self.every = every
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = self.host.spawn(self._poll())

    async def advance(self, id: str) -> list[str]:
        """Pair tournament ``id`` now if it is due; lead the tables made."""
        host = self.host
        made = await host.db.run(director.advance, host.store, id, time.time())
        for code in made:
            await self._lead(code)
        if made:
            log.info("a tournament made %d table(s)", len(made), extra={"event": "tournament"})
        return made

    async def _lead(self, code: str) -> None:
        if await self.host.cluster.claim(code):
            table = await self.host.get(code)
            if table is not None and table.leader:
                await table.settle()

    async def _poll(self) -> None:
        host = self.host
        while not host.closing:
            await asyncio.sleep(self.every)
            try:
                ids = await host.db.run(director.due, host.store, time.time())
                for id in ids:
                    await self.advance(id)
            except Exception:
                log.exception("could not pair the tournaments")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task


__all__ = ["ADVANCE_SECONDS", "Tournaments"]
