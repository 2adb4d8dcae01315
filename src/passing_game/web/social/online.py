"""Who is online, written by each process for the others (issue 27, item 2; P59).

A process knows its own signed-in sockets (``lobby.sessions``) and the
table each one sits at (``conn.table``, ``conn.seat``). Once a second it
compares that with what it last wrote to ``web_online`` and writes only the
difference: a write when a socket connects, sits, leaves or disconnects,
none while nothing changes. Every ``REFRESH_SECONDS`` it writes its whole
set again (a row another process swept away while this one was slow comes
back) and sweeps away the rows of dead processes. A row counts while its
process's heartbeat is recent (``store/social.py``'s ``online``); with one
process, only that process's rows count.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Protocol

from passing_game.web.store import social as rows

if TYPE_CHECKING:
    from passing_game.web.accounts.sessions import Sessions
    from passing_game.web.server.cluster import Cluster
    from passing_game.web.store import AsyncStore, Store

log = logging.getLogger("passing_game.web")

#: How often this process compares its sockets with its rows.
CHECK_SECONDS = 1.0
#: How often it writes its whole set again and forgets dead processes' rows.
REFRESH_SECONDS = 30.0
#: A process silent this long counts as dead (``pgcluster.DEAD_SECONDS``).
DEAD_SECONDS = 10.0

Pair = tuple[str, str]


class Host(Protocol):
    """What ``Online`` asks of the lobby (it never imports it: no circle)."""

    cluster: Cluster
    sessions: Sessions
    db: AsyncStore
    closing: bool


class Online:
    """This process's signed-in sockets, kept in the store (``web_online``)."""

    def __init__(self, lobby: Host) -> None:
        self.lobby = lobby
        self.written: set[Pair] = set()
        self._task: asyncio.Task[None] | None = None
        self._refreshed = 0.0

    @property
    def process(self) -> str:
        return self.lobby.cluster.process

    def alive_since(self, now: float) -> float | None:
        """Since when a process must have beaten to count (``None``: one process)."""
        return None if self.lobby.cluster.solo else now - DEAD_SECONDS

    def current(self) -> set[Pair]:
        """(account, table code it sits at or ``""``) of every open signed-in socket."""
        found: set[Pair] = set()
        for conn in self.lobby.sessions.conns:
            if conn.user_id is None or conn.closed:
                continue
            table = conn.table
            code = getattr(table, "code", "") if conn.seat is not None else ""
            found.add((conn.user_id, str(code or "")))
        return found

    async def sync(self, *, refresh: bool = False) -> bool:
        """Write what changed since the last write (``refresh``: everything); whether
        anything was written."""
        want = self.current()
        if want == self.written and not refresh:
            return False
        added, gone = want - self.written, self.written - want
        if refresh:
            added = want
        db = self.lobby.db
        await db.run(_write, db.store, self.process, added, gone, time.time(), refresh)
        self.written = want
        return True

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.ensure_future(self._loop())

    async def _loop(self) -> None:
        db = self.lobby.db
        with contextlib.suppress(Exception):
            if self.lobby.cluster.solo:  # one process: rows of an earlier run are stale
                await db.run(_forget_others, db.store, self.process)
        while not self.lobby.closing:
            await asyncio.sleep(CHECK_SECONDS)
            now = time.monotonic()
            refresh = now - self._refreshed >= REFRESH_SECONDS
            try:
                await self.sync(refresh=refresh)
                if refresh:
                    self._refreshed = now
                    if not self.lobby.cluster.solo:
                        await db.run(_forget_dead, db.store, time.time() - DEAD_SECONDS)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not write who is online")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(Exception):
            db = self.lobby.db
            await db.run(_forget_own, db.store, self.process)
        self.written = set()


def _write(
    store: Store, process: str, added: set[Pair], gone: set[Pair], now: float, refresh: bool
) -> None:
    with store.transaction() as tx:
        if refresh:
            rows.forget_online(tx, process)
        rows.set_online(tx, process, sorted(added), sorted(gone), now)


def _forget_own(store: Store, process: str) -> None:
    with store.transaction() as tx:
        rows.forget_online(tx, process)


def _forget_others(store: Store, process: str) -> None:
    with store.transaction() as tx:
        rows.forget_others(tx, process)


def _forget_dead(store: Store, dead_before: float) -> None:
    with store.transaction() as tx:
        rows.forget_online(tx, dead_before=dead_before)


__all__ = ["CHECK_SECONDS", "DEAD_SECONDS", "REFRESH_SECONDS", "Online"]
