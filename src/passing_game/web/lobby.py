"""Every table a server process holds, and the way to each table's leader.

The lobby loads a table from the store when a client asks for it, creates
tables and lets go of tables nobody uses. An intent that changes a table is
carried out by the process that leads the table (``cluster``): here if this
process leads it, else forwarded to the leader, whose answer comes back to
the client (``lead``). With one process (``Solo``) everything is here.
Which intent goes where is ``web/intents.py``'s routing table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Literal

from passing_game.bots import Bot
from passing_game.fairness import Fairness
from passing_game.i18n import DEFAULT_LANGUAGE, _, using_language
from passing_game.moves import Move
from passing_game.rules import Rules
from passing_game.views import View
from passing_game.web.accounts.flows import Accounts
from passing_game.web.accounts.passwords import Hashing
from passing_game.web.accounts.sessions import SWEEP_SECONDS, Sessions
from passing_game.web.chat.service import Chat
from passing_game.web.daily import site_secret
from passing_game.web.game.errors import SIGN_IN_RATED
from passing_game.web.game.events import Suspend
from passing_game.web.offloop import Threads
from passing_game.web.protocol import (
    Intent,
    ProtocolError,
    parse_clock,
    parse_intent,
    parse_rules,
    parse_seats,
    random_code,
)
from passing_game.web.quickplay.service import QuickPlay
from passing_game.web.server import workers
from passing_game.web.server.cluster import Cluster, ForwardFailed
from passing_game.web.server.observe import Metrics
from passing_game.web.server.pgcluster import cluster_for
from passing_game.web.social.online import Online
from passing_game.web.store import (
    AsyncStore,
    NewTable,
    SeatRow,
    Store,
    hash_token,
)
from passing_game.web.table.botplay import FAST_BOTS, bot_choices, pooled_choose
from passing_game.web.table.conn import Actor, Conn, Relay
from passing_game.web.table.fairness import awaiting
from passing_game.web.table.runner import Table, Timing
from passing_game.web.tournament.service import Tournaments

log = logging.getLogger("passing_game.web")


def table_choices(
    intent: Intent, user_id: str | None
) -> tuple[Rules, tuple[str, ...], dict[str, float] | None, bool]:
    """What a table's creation asks for, checked: its rules, who sits where, its clock,
    rated or not (the lobby's "create a table" and a challenge's, ``web/social/``)."""
    rules = parse_rules(intent["rules"])
    spec = parse_seats(intent["seats"], rules.players, tuple(bot_choices()))
    clock = parse_clock(intent.get("clock"))
    rated = bool(intent.get("rated"))
    if rated and user_id is None:
        raise ProtocolError(_(SIGN_IN_RATED), "signed-out")
    if rated and any(entry not in ("you", "person") for entry in spec):
        raise ProtocolError(_("A rated game is between people: no bots."), "rated-bots")
    return rules, spec, clock, rated


class Lobby:
    """Every table the server holds, loaded from the store on demand."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.6,
        bot_workers: int = 0,
        timing: Timing | None = None,
        cluster: Cluster | Literal["auto"] = "auto",
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.db = AsyncStore(store)
        #: What /metrics shows (web/server/observe.py).
        self.metrics = metrics or Metrics(process=False)
        self.bot_delay = bot_delay
        self.bot_workers = bot_workers
        self.timing = timing or Timing()
        if cluster == "auto":
            # PostgreSQL may have other server processes on it; SQLite never does.
            cluster = cluster_for(store, on_bus_error=self.metrics.bus_error)
        self.cluster = cluster
        #: Accounts and the signed-in sockets of this process (issue 22): argon2
        #: in threads of its own, never on the store's.
        self.hashing = Hashing()
        self.accounts = Accounts(store, db_run=self.db.run, hash_run=self.hashing.run)
        self.sessions = Sessions(self.accounts, self.db.run)
        cluster.connect(
            on_event=self.on_event,
            on_request=self.on_request,
            on_lead=self.on_lead,
            on_lost=self.on_lost,
            on_tick=self.on_tick,
            on_resume=self.on_resume,
        )
        self._pool: ProcessPoolExecutor | None = None
        #: The quick bots' choices: off the event loop, one hop each (``offloop``).
        self._bot_threads = Threads(2, "bots")
        self.tables: dict[str, Table] = {}
        self.closing = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        #: The key of the daily deal's seeds, read once the lobby starts (``daily``).
        self.daily_secret: str | None = None
        #: Quick play's waiting people in this process (the queue is in the store).
        self.quick = QuickPlay(self)
        #: This process's poll of the tournaments (they are in the store).
        self.tournaments = Tournaments(self)
        #: This process's signed-in sockets, written for the others (social/online.py).
        self.online = Online(self)
        self.chat = Chat(self)  # this process's side of the chat (web/chat/service.py)

    async def start(self) -> int:
        """Join the other processes (if any), then resume what this process leads."""
        self.daily_secret = await self.db.run(site_secret, self.store)  # never the empty key
        await self.db.run(self.accounts.fill_skeletons)
        await self.cluster.start()
        self.spawn(self._watch_accounts())
        self.tournaments.start()
        self.online.start()
        return await self.resume_all()

    async def think(self, bot: Bot, level: str, seed: int, seat: int, view: View) -> Move:
        """A slow bot's move: in worker processes if there are any, else in a thread.

        Processes keep a searching bot from holding the event loop's interpreter.
        """
        if self.bot_workers <= 0 or bot.name in FAST_BOTS:  # a level names its bot
            return await self._bot_threads.run(bot.choose, view)
        if self._pool is None:
            self._pool = workers.pool(self.bot_workers)
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
        if self._sweeper is None:
            self._sweeper = self.spawn(self._sweep())
        if not self.cluster.solo:
            return 0  # the cluster's sweep takes the tables nobody leads, one by one
        count = 0
        for code in await self.db.unfinished_codes():
            try:
                table = await self.get(code)
            except Exception:
                log.exception("table %s could not be restored", code, extra={"table": code})
                continue
            if table is not None:
                await table.settle(finish=True)
                count += 1
        return count

    # -- what the other processes say -------------------------------------------

    async def on_lead(self, code: str) -> None:
        """This process now leads the table: catch up, finish what was left, go on."""
        table = await self.get(code)
        if table is None:
            return
        async with table.lock:
            await table.reload()
        table.taken_over = True
        await table.settle(finish=True)
        table.changes["reset"] = 1  # the others start again from the store
        table.outbox.broadcast()

    def on_resume(self, codes: set[str]) -> None:
        """The leases are sure again after a late heartbeat: bots and timers go on."""
        for code in codes:
            table = self.tables.get(code)
            if table is not None:
                self.spawn(table.settle())

    async def on_tick(self) -> None:
        """Now and then: who is connected where, as the store says (a process that
        died without a word leaves presence behind until it counts as dead); and
        a replica whose leader's event never came catches up from the store."""
        await self._catch_up()
        for table in list(self.tables.values()):
            if table.remote and table.leader:
                async with table.lock:
                    before = {s: set(p) for s, p in table.remote.items() if p}
                    table.remote = await self.cluster.present_elsewhere(table.code)
                    if before != {s: p for s, p in table.remote.items() if p}:
                        table.seating.presence_changed()

    async def _catch_up(self) -> None:
        """Replicas with clients that stayed behind the store since the last tick: reloaded.

        An event lost between processes (a table still loading here when it
        came, a bus that went away) would otherwise leave a person looking at
        a move that is not the last one, waiting for a turn that came. A
        replica behind at one tick may only be waiting for an event on its
        way; behind at the same move at the next tick, it reloads.
        """
        replicas = [t for t in self.tables.values() if not t.leader and t.has_clients]
        if not replicas:
            return
        stored = await self.db.run(self.db.store.positions, [t.code for t in replicas])
        for table in replicas:
            position = stored.get(table.code)
            here = (table.game, table.seq)
            if position is None or not table.replica.behind(*position):
                table.lagging_at = None
                continue
            if table.lagging_at != here:
                table.lagging_at = here  # behind: maybe an event on its way
                continue
            async with table.lock:
                if table.leader or (table.game, table.seq) != here:
                    continue
                log.warning(
                    "caught up from the store (an event was missed)",
                    extra={"table": table.code, "event": "catch-up"},
                )
                await table.reload()
                table.lagging_at = None
                table.outbox.broadcast()

    def on_lost(self, code: str) -> None:
        table = self.tables.get(code)
        if table is not None:
            table.stop_leading()

    async def on_event(self, event: dict[str, Any]) -> None:
        """Another process changed a table (or its lease): the replica here follows."""
        code = str(event.get("c", ""))
        table = self.tables.get(code)
        if table is None or "chat" in event:  # a chat message is the chat's, never the replica's
            return await self.chat.on_event(event)  # (which does nothing without the table)
        try:
            await table.replica.follow(event)
        except Exception:
            log.exception("could not follow an event", extra={"table": code})
            return
        handed_over = "lead" in event and event["lead"] is None and table.has_clients
        # Handed over (a server stopping): lead it from here at once.
        if handed_over and await self.cluster.claim(code):
            await self.on_lead(code)

    async def on_request(self, request: dict[str, Any]) -> dict[str, Any]:
        """An intent another process forwarded to this one, the table's leader."""
        code = str(request.get("c", ""))
        table = await self.get(code)
        if table is not None and not table.leader and await self.cluster.claim(code):
            await self.on_lead(code)  # sent here because nobody (or this process) holds it
        if table is None or not table.leader:
            return {"ok": False, "moved": True}
        try:
            intent = parse_intent(json.dumps(request.get("i")))
        except ProtocolError as exc:
            return {"ok": False, "code": exc.code, "message": str(exc), "out": []}
        seat = request.get("seat")
        actor = Relay(seat if isinstance(seat, int) else None, str(request.get("lang", "")))
        given = request.get("x")
        extra: dict[str, Any] = given if isinstance(given, dict) else {}
        with using_language(actor.language or DEFAULT_LANGUAGE):
            try:
                result = await table.run(actor, intent, extra)
            except ProtocolError as exc:
                table.outbox.flush_now()
                return {"ok": False, "code": exc.code, "message": str(exc), "out": actor.out}
        table.outbox.flush_now()  # the event goes out before the answer
        return {"ok": True, "result": result, "out": actor.out}

    async def _watch_accounts(self) -> None:
        """Now and then: sockets whose session ended are closed, and the seats of
        accounts that may no longer play get a stand-in (issue 22), whichever
        process (or ``passing-game admin``) ended them."""
        while not self.closing:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sessions.sweep()
                await self.check_accounts()
            except Exception:
                log.exception("could not check the signed-in sockets and seats")

    async def check_accounts(self) -> int:
        """The seats of suspended or deleted accounts at the tables this process
        leads: a stand-in plays each from now on; how many."""
        seats = [
            (table, held)
            for table in list(self.tables.values())
            if table.leader and not table.match.is_over
            for held in table.seats
            if held.is_person and held.row.user_id is not None and held.row.away != "suspended"
        ]
        if not seats:
            return 0
        gone = await self.db.run(
            self.accounts.unusable, [str(held.row.user_id) for _table, held in seats]
        )
        done = 0
        for table, held in seats:
            if held.row.user_id in gone:
                await table.dispatch(Suspend(held.seat))
                done += 1
        return done

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
            if not self.cluster.solo:
                self.spawn(self.cluster.release(code))
        if gone:
            log.info("let go of %d idle table(s)", len(gone), extra={"event": "evict"})
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
                if not self.cluster.solo and not stored.finished:
                    # Who sits at it through other processes (events since come as they go).
                    table.remote = await self.cluster.present_elsewhere(code)
                    table.seating.presence_changed()
                if not stored.finished:
                    self.spawn(table.settle())
        return table

    async def need(self, code: str) -> Table:
        table = await self.get(code)
        if table is None:
            raise ProtocolError(_("There is no table {code}.").format(code=code), "no-such-table")
        return table

    async def new_code(self) -> str:
        for _attempt in range(50):
            code = random_code()
            if code not in self.tables and await self.db.load_table(code) is None:
                return code
        raise RuntimeError("no free table code")  # pragma: no cover

    async def create(self, intent: Intent, conn: Actor | None = None) -> tuple[Table, int, str]:
        user_id = getattr(conn, "user_id", None)
        name = getattr(conn, "user_name", None) or intent["name"]
        rules, spec, clock, rated = table_choices(intent, user_id)
        code = await self.new_code()
        token = secrets.token_urlsafe(24)
        rows = []
        for seat, entry in enumerate(spec):
            if entry == "you":
                rows.append(SeatRow(seat, "human", name, None, hash_token(token), user_id=user_id))
            elif entry == "person":
                rows.append(SeatRow(seat, "open", ""))
            else:
                rows.append(SeatRow(seat, "bot", entry, entry))
        committed = Fairness.new(rules.players)  # its deal's commitment (issue 26)
        you = spec.index("you")
        await self.db.create_table(
            NewTable(
                code,
                rules.to_dict(),
                committed.seed,
                tuple(rows),
                creator=you,
                clock=clock,
                rated=rated,
                public=bool(intent.get("public")),
                # A rated game's deal waits for the people's contributions (game/dealing.py).
                fairness=awaiting(committed) if rated else committed.to_json(),
            )
        )
        await self.cluster.claim(code)  # its creator's process leads a new table
        table = await self.get(code)
        assert table is not None
        return table, you, token

    def detach(self, conn: Conn) -> None:
        if conn.table is not None:
            conn.table.detach(conn)

    async def lead(
        self, actor: Actor, table: Table, intent: Intent, extra: dict[str, Any]
    ) -> dict[str, Any]:
        """Have the table's leader carry out ``intent``: this process, or another one."""
        for attempt in range(5):
            if table.leader:
                return await table.run(actor, intent, extra)
            # The leader as the last event named it, else as the store says.
            holder = table.holder or await self.cluster.holder(table.code)
            table.holder = holder
            if holder is None or holder == self.cluster.process:
                table.holder = None
                if await self.cluster.claim(table.code):
                    await self.on_lead(table.code)
                continue
            request = {
                "c": table.code,
                "seat": actor.seat,
                "lang": actor.language,
                "i": {"type": intent.type, **intent.fields},
                "x": extra,
            }
            try:
                reply = await self.cluster.forward(holder, request)
            except ForwardFailed:
                log.warning("the leader %s did not answer", holder, extra={"table": table.code})
                table.holder = None
                await asyncio.sleep(0.2 * (attempt + 1))
                continue
            if reply.get("moved"):
                table.holder = None
                await asyncio.sleep(0.1 * (attempt + 1))
                continue
            for frame in reply.get("out") or ():
                actor.push(frame)
            if not reply.get("ok"):
                raise ProtocolError(str(reply.get("message", "")), str(reply.get("code", "")))
            result = reply.get("result")
            return dict(result) if isinstance(result, dict) else {}
        raise ProtocolError(
            _("The table is moving to another server: try again in a moment."), "retry"
        )

    def bus_ok(self) -> bool | None:
        """Whether the bus between processes answers (``None``: one process, no bus)."""
        return self.cluster.bus_ok()

    async def close(self) -> None:
        """Stop: no more bots or timers here, every lease handed over, writes finished."""
        self.closing = True
        await self.quick.close()
        await self.tournaments.close()
        await self.online.close()
        for table in self.tables.values():
            table.stop_leading()
        await self.cluster.stop()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pool is not None:
            await asyncio.to_thread(workers.stop, self._pool)
        await asyncio.to_thread(self._bot_threads.shutdown)
        # Writes already handed to the store finish (and commit) before it closes.
        await asyncio.to_thread(self.db.shutdown)
        self.hashing.close()
