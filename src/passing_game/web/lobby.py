"""Every table a server process holds, and the intents that are not one table's.

The lobby loads a table from the store when a client asks for it, creates
tables, lets go of tables nobody uses, and on start resumes every
unfinished game so that its bots and clocks go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import secrets
import time
from collections.abc import Awaitable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from passing_game.bots import Bot
from passing_game.i18n import _
from passing_game.moves import Move
from passing_game.views import View
from passing_game.web.botplay import bot_choices, pooled_choose
from passing_game.web.conn import Conn
from passing_game.web.protocol import (
    CODE_ALPHABET,
    CODE_LENGTH,
    Intent,
    ProtocolError,
    parse_clock,
    parse_rules,
    parse_seats,
)
from passing_game.web.store import AsyncStore, NewTable, SeatRow, Store, hash_token
from passing_game.web.tables import Table, Timing

log = logging.getLogger("passing_game.web")


class Lobby:
    """Every table the server holds, loaded from the store on demand."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.6,
        bot_workers: int = 0,
        timing: Timing | None = None,
    ) -> None:
        self.store = store
        self.db = AsyncStore(store)
        self.bot_delay = bot_delay
        self.bot_workers = bot_workers
        self.timing = timing or Timing()
        self._pool: ProcessPoolExecutor | None = None
        self.tables: dict[str, Table] = {}
        self.closing = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    async def think(self, bot: Bot, level: str, seed: int, seat: int, view: View) -> Move:
        """A slow bot's move: in worker processes if there are any, else in a thread.

        Processes keep a searching bot from holding the event loop's interpreter.
        """
        if self.bot_workers <= 0:
            return await asyncio.to_thread(bot.choose, view)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.bot_workers, mp_context=multiprocessing.get_context("spawn")
            )
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, pooled_choose, level, seed, seat, view)

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a table task failed", exc_info=task.exception())

    async def resume_all(self) -> int:
        """On start: load every unfinished game and let its bots and clocks go on.

        A game whose last move was stored but whose end was not (the server
        died in between) is finished here. A clock resumes from its stored
        deadline.
        """
        count = 0
        for code in await self.db.unfinished_codes():
            try:
                table = await self.get(code)
            except Exception:
                log.exception("table %s could not be restored", code)
                continue
            if table is not None:
                async with table.lock:
                    if table.match.is_over:
                        await table.finish()
                    await table._update_timer()
                table.kick()
                table.arm()
                count += 1
        if self._sweeper is None:
            self._sweeper = self.spawn(self._sweep())
        return count

    async def _sweep(self) -> None:
        """Let go of tables nobody uses; they load again from the store on demand."""
        every = max(1.0, min(30.0, self.timing.idle_evict / 2))
        while not self.closing:
            await asyncio.sleep(every)
            self.evict_idle(time.monotonic())

    def evict_idle(self, now: float) -> list[str]:
        """Drop the tables with no client and nothing due for ``idle_evict`` seconds."""
        gone = []
        for code, table in list(self.tables.items()):
            clients = table.spectators or any(s.conns for s in table.seats)
            if clients or table.busy or now - table.touched < self.timing.idle_evict:
                continue
            del self.tables[code]
            gone.append(code)
        if gone:
            log.info("let go of %d idle table(s)", len(gone))
        return gone

    async def get(self, code: str) -> Table | None:
        table = self.tables.get(code)
        if table is None:
            stored = await self.db.load_table(code)
            if stored is None:
                return None
            # Another connection may have loaded it while this one waited.
            table = self.tables.get(code)
            if table is None:
                table = self.tables[code] = Table(self, stored)
                if not stored.finished:
                    table.arm()
        return table

    async def need(self, code: str) -> Table:
        table = await self.get(code)
        if table is None:
            raise ProtocolError(_("there is no table {code}").format(code=code), "no-such-table")
        return table

    async def new_code(self) -> str:
        for _attempt in range(50):
            code = "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))
            if code not in self.tables and await self.db.load_table(code) is None:
                return code
        raise RuntimeError("no free table code")  # pragma: no cover

    async def create(self, intent: Intent) -> tuple[Table, int, str]:
        rules = parse_rules(intent["rules"])
        spec = parse_seats(intent["seats"], rules.players, tuple(bot_choices()))
        clock = parse_clock(intent.get("clock"))
        code = await self.new_code()
        token = secrets.token_urlsafe(24)
        rows = []
        for seat, entry in enumerate(spec):
            if entry == "you":
                rows.append(SeatRow(seat, "human", intent["name"], None, hash_token(token)))
            elif entry == "person":
                rows.append(SeatRow(seat, "open", ""))
            else:
                rows.append(SeatRow(seat, "bot", entry, entry))
        seed = secrets.randbits(63)
        you = spec.index("you")
        await self.db.create_table(
            NewTable(code, rules.to_dict(), seed, tuple(rows), creator=you, clock=clock)
        )
        table = await self.get(code)
        assert table is not None
        return table, you, token

    def detach(self, conn: Conn) -> None:
        if conn.table is not None:
            conn.table.detach(conn)

    async def handle(self, conn: Conn, intent: Intent) -> None:
        """Carry out one checked intent; ``ProtocolError`` leaves everything as it was."""
        kind = intent.type
        if kind == "create":
            table, seat, token = await self.create(intent)
            conn.push(self.joined(table, seat, token))
            async with table.lock:
                await table._update_timer()
            await table.attach(conn, seat, new=True)
            return
        if kind == "join":
            table = await self.need(intent["code"])
            invite = intent.get("invite")
            if invite is not None:
                seat, token = await table.claim_invite(invite, intent["name"])
            else:
                seat, token = await table.claim(intent.get("seat"), intent["name"])
            conn.push(self.joined(table, seat, token))
            async with table.lock:
                await table._update_timer()
            await table.attach(conn, seat, new=True)
            return
        if kind == "resume":
            table = await self.need(intent["code"])
            table.check_token(intent["seat"], intent["token"])
            conn.push(self.joined(table, intent["seat"], None))
            await table.attach(conn, intent["seat"])
            return
        if kind == "watch":
            table = await self.need(intent["code"])
            conn.push(self.joined(table, None, None))
            await table.attach(conn, None)
            return
        if conn.table is None:
            raise ProtocolError(_("join a table first"), "no-table")
        await conn.table.act(conn, intent)

    @staticmethod
    def joined(table: Table, seat: int | None, token: str | None) -> dict[str, Any]:
        frame: dict[str, Any] = {
            "type": "joined",
            "state": table.state,
            "table": table.code,
            "seat": seat,
            "link": f"/t/{table.code}",
        }
        if token is not None:
            frame["token"] = token
        return frame

    async def close(self) -> None:
        self.closing = True
        for table in self.tables.values():
            if table._wake is not None:
                table._wake.cancel()
                table._wake = None
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        # Writes already handed to the store finish (and commit) before it closes.
        await asyncio.to_thread(self.db.shutdown)
