"""Processes on one PostgreSQL database (P28): leases in it, events on LISTEN/NOTIFY.

``PgCluster`` is the ``Cluster`` (``web/server/cluster.py``, which says how
leases, replicas, events and forwarding work) for a store other server
processes may share; ``cluster_for`` picks it, or ``Solo``. Apart from the
protocol so that the parts of a table name what they ask of the other
processes without the bus's machinery.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from passing_game.web.server.cluster import Cluster, ForwardFailed, Solo
from passing_game.web.store import AsyncStore, Store

log = logging.getLogger("passing_game.web")

#: Seconds a lease lasts without being extended; a dead leader's tables go
#: on elsewhere within about this long (plus a sweep).
LEASE_SECONDS = 3.0
#: Seconds between heartbeats (each extends the process's leases).
BEAT_SECONDS = 1.0
#: A process silent this long is dead: its presence rows are forgotten.
DEAD_SECONDS = 10.0
#: Tables without a live leader one sweep takes at most (a dead process's,
#: all at once: each one waits for it).
ORPHANS_A_SWEEP = 1000
#: Of them, how many are claimed and loaded side by side.
SWEEP_AT_ONCE = 8
#: Notifications sent in one statement at most (in order, one transaction).
NOTIFY_BATCH = 200
#: How long a forwarded intent waits for the leader's answer: a lease's length,
#: so that a dead leader's lease has lapsed when the intent is sent again.
FORWARD_SECONDS = LEASE_SECONDS
#: PostgreSQL refuses notifications over 8000 bytes; events stay well under.
MOST_PAYLOAD = 7900


def channel_names(schema: str | None) -> tuple[str, str]:
    """The bus's channel for table events, and the prefix of each process's own."""
    name = (schema or "public").lower()
    return f"pg_{name}_tables"[:63], f"pg_{name}_p_"


def cluster_for(store: Store, *, on_bus_error: Callable[[], None] | None = None) -> Cluster:
    """The processes around this one: ``PgCluster`` when other server processes
    may share the store's database (``Store.shared``: PostgreSQL), else ``Solo``
    (an SQLite file is for one process)."""
    if store.shared:
        return PgCluster.own_connections(store, on_bus_error=on_bus_error)
    return Solo()


class PgCluster(Cluster):
    """Processes on one PostgreSQL database: leases in it, events on LISTEN/NOTIFY."""

    def __init__(
        self,
        store: Store,
        db: AsyncStore,
        *,
        process: str | None = None,
        lease_for: float = LEASE_SECONDS,
        beat: float = BEAT_SECONDS,
        on_bus_error: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(process)
        self._on_bus_error = on_bus_error
        self.store = store
        self.db = db
        self.bus = store.bus
        self.lease_for = lease_for
        self.beat = beat
        self.tables_channel, prefix = channel_names(self.bus.schema)
        digest = hashlib.sha256(self.process.encode()).hexdigest()[:16]
        self.own_channel = prefix + digest
        self._leading: set[str] = set()
        self._lease_until = 0.0  # time.monotonic() until which the leases are surely ours
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._running: set[asyncio.Future[None]] = set()
        self._listening = False
        self._closing = False
        self._sweeping: asyncio.Task[None] | None = None
        self._owns_store = False

    @classmethod
    def own_connections(
        cls, store: Store, *, on_bus_error: Callable[[], None] | None = None
    ) -> PgCluster:
        """A cluster whose leases and presence use connections of their own, so
        that a heartbeat never waits behind the moves in the store's queue
        (a late one lets another process take this one's tables)."""
        leases = store.sibling(pool_size=2)
        cluster = cls(leases, AsyncStore(leases), on_bus_error=on_bus_error)
        cluster._owns_store = True
        return cluster

    # -- leases ---------------------------------------------------------------

    def leads(self, code: str) -> bool:
        return code in self._leading and time.monotonic() < self._lease_until

    def lease_count(self) -> int:
        return len(self._leading) if time.monotonic() < self._lease_until else 0

    async def claim(self, code: str) -> bool:
        if self.leads(code):
            return True
        now = time.time()
        won = await self.db.run(self.store.claim_lease, code, self.process, now, self.lease_for)
        if won:
            self._leading.add(code)
            self._lease_until = max(self._lease_until, time.monotonic() + self.lease_for - 0.5)
            log.info("leading table %s", code, extra={"table": code, "event": "lease"})
            self.emit(code, {"lead": self.process})
        return bool(won)

    async def holder(self, code: str) -> str | None:
        if self.leads(code):
            return self.process
        return await self.db.run(self.store.lease_holder, code, time.time())

    async def release(self, code: str) -> None:
        if code in self._leading:
            self._leading.discard(code)
            await self.db.run(self.store.release_leases, self.process, [code])
            self.emit(code, {"lead": None})

    # -- the bus --------------------------------------------------------------

    def emit(self, code: str, event: dict[str, Any]) -> None:
        self._send(self.tables_channel, {"c": code, "p": self.process, **event})

    def _send(self, channel: str, message: dict[str, Any]) -> None:
        payload = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
        if len(payload.encode()) > MOST_PAYLOAD:
            # Too big to carry (a long run of moves): say only that it changed.
            slim = {k: message[k] for k in ("c", "p") if k in message}
            payload = json.dumps({**slim, "reset": 1})
        self._outbox.put_nowait((channel, payload))

    async def forward(self, holder: str, request: dict[str, Any]) -> dict[str, Any]:
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[ident] = future
        digest = hashlib.sha256(holder.encode()).hexdigest()[:16]
        channel = channel_names(self.bus.schema)[1] + digest
        self._send(channel, {"k": "req", "id": ident, "from": self.process, **request})
        try:
            return await asyncio.wait_for(future, FORWARD_SECONDS)
        except TimeoutError:
            raise ForwardFailed(f"{holder} did not answer") from None
        finally:
            self._pending.pop(ident, None)

    async def presence(self, code: str, seat: int, conns: int) -> None:
        await self.db.run(self.store.set_presence, code, seat, self.process, conns)
        self.emit(code, {"pres": [seat, conns]})

    async def present_elsewhere(self, code: str) -> dict[int, set[str]]:
        alive = time.time() - DEAD_SECONDS
        found = await self.db.run(self.store.presence, code, alive)
        return {s: procs - {self.process} for s, procs in found.items() if procs - {self.process}}

    def bus_ok(self) -> bool | None:
        return self._listening

    # -- running --------------------------------------------------------------

    async def start(self) -> None:
        await self._beat_once()
        ready = asyncio.Event()
        self._tasks = [
            asyncio.ensure_future(self._listen(ready)),
            asyncio.ensure_future(self._publish()),
            asyncio.ensure_future(self._beating()),
        ]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ready.wait(), 10)

    async def stop(self) -> None:
        """Hand every lease over at once (others take them at their next sweep)."""
        self._closing = True
        if self._sweeping is not None:
            self._sweeping.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeping
        led = list(self._leading)
        self._leading.clear()
        # Intents and events under way finish while the store is still open
        # (new ones find no leader here), and their answers go out below.
        if self._running:
            await asyncio.wait(set(self._running), timeout=LEASE_SECONDS)
        for code in led:
            self.emit(code, {"lead": None})
        # Let the publisher send what is queued, then stop everything.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._outbox.join(), 2)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self.db.run(self.store.forget_process, self.process)
        if self._owns_store:
            with contextlib.suppress(Exception):
                self.store.close()
        if led:
            log.info("handed over %d table(s)", len(led), extra={"event": "handover"})

    async def _connect(self) -> Any:
        return await self.bus.connect()

    async def _listen(self, ready: asyncio.Event) -> None:
        delay = 0.2
        while not self._closing:
            try:
                conn = await self._connect()
                async with conn:
                    for channel in (self.tables_channel, self.own_channel):
                        await self.bus.listen(conn, channel)
                    self._listening = True
                    ready.set()
                    delay = 0.2
                    async for note in conn.notifies():
                        self._dispatch(note.channel, note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._bus_error()
                log.warning("the bus went away (%s); listening again", type(exc).__name__)
            finally:
                self._listening = False
            await asyncio.sleep(delay)
            delay = min(5.0, delay * 2)

    def _bus_error(self) -> None:
        if self._on_bus_error is not None:
            self._on_bus_error()

    def _dispatch(self, channel: str, payload: str) -> None:
        try:
            message = json.loads(payload)
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        if channel == self.tables_channel:
            if message.get("p") != self.process and self._on_event is not None:
                self._spawn(self._on_event(message))
            return
        kind = message.get("k")
        if kind == "rep":
            future = self._pending.get(message.get("id", -1))
            if future is not None and not future.done():
                future.set_result(message)
        elif kind == "req" and self._on_request is not None:
            self._spawn(self._answer(message))

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _answer(self, request: dict[str, Any]) -> None:
        assert self._on_request is not None
        try:
            reply = await self._on_request(request)
        except Exception:
            log.exception("a forwarded intent failed")
            reply = {"ok": False, "moved": True}
        sender = str(request.get("from", ""))
        digest = hashlib.sha256(sender.encode()).hexdigest()[:16]
        channel = channel_names(self.bus.schema)[1] + digest
        self._send(channel, {"k": "rep", "id": request.get("id"), **reply})

    async def _publish(self) -> None:
        """Send the outbox in order, on a connection of its own, what has queued
        up since the last round trip in one statement (a busy process's events
        would otherwise wait for a round trip each, seconds behind its moves)."""
        conn = None
        while True:
            batch = [await self._outbox.get()]
            while len(batch) < NOTIFY_BATCH and not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                for attempt in range(3):
                    try:
                        if conn is None:
                            conn = await self._connect()
                        await self.bus.notify(conn, batch)
                        break
                    except asyncio.CancelledError:
                        raise
                    except Exception as exc:
                        self._bus_error()
                        log.warning("could not publish on the bus (%s)", type(exc).__name__)
                        with contextlib.suppress(Exception):
                            if conn is not None:
                                await conn.close()
                        conn = None
                        await asyncio.sleep(0.1 * (attempt + 1))
            finally:
                for _message in batch:
                    self._outbox.task_done()

    async def _beat_once(self) -> None:
        now = time.time()
        started = time.monotonic()
        # Only a lease held before the heartbeat's query can be missing from its
        # answer: one claimed while the query ran is not lost (the table would
        # stay leased to this process with nobody doing its work).
        before = set(self._leading)
        held = set(await self.db.run(self.store.heartbeat, self.process, now, self.lease_for))
        # A late heartbeat (a busy process, a slow answer): for a while ``leads``
        # said no, so bots and timers stopped; now that the leases are sure
        # again they go on.
        unsure = time.monotonic() >= self._lease_until
        self._lease_until = started + self.lease_for - 0.5
        lost = (before & self._leading) - held
        self._leading -= lost
        if unsure and self._leading and self._on_resume is not None:
            log.warning(
                "the heartbeat was late: %d table(s) go on",
                len(self._leading),
                extra={"event": "late-beat"},
            )
            self._on_resume(set(self._leading))
        for code in lost:
            log.warning("lost the lease of table %s", code, extra={"table": code})
            if self._on_lost is not None:
                self._on_lost(code)

    async def _beating(self) -> None:
        beats = 0
        while not self._closing:
            await asyncio.sleep(self.beat)
            beats += 1
            try:
                await self._beat_once()
                # Taking over a dead leader's tables (many reloads) runs beside
                # the heartbeats, so that this process's own leases stay extended.
                if self._sweeping is None or self._sweeping.done():
                    self._sweeping = asyncio.create_task(self._sweep())
                if beats % 5 == 0:
                    dead = await self.db.run(self.store.forget_dead, time.time() - DEAD_SECONDS)
                    for process in dead:
                        log.info("forgot the silent process %s", process, extra={"event": "dead"})
                    if self._on_tick is not None:
                        await self._on_tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the heartbeat failed")

    async def _sweep(self) -> None:
        """Take the tables whose work nobody does (their leader died or stopped)."""
        try:
            orphans = await self.db.run(self.store.orphans, time.time(), ORPHANS_A_SWEEP)
            # In its own order: processes sweeping at once split the tables between them.
            secrets.SystemRandom().shuffle(orphans)

            async def take(code: str) -> None:
                try:
                    if not self._closing and await self.claim(code) and self._on_lead is not None:
                        await self._on_lead(code)
                except Exception:
                    log.exception("could not take the table over", extra={"table": code})

            # A few at a time: the store's connections work side by side.
            for start in range(0, len(orphans), SWEEP_AT_ONCE):
                await asyncio.gather(*(take(c) for c in orphans[start : start + SWEEP_AT_ONCE]))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the sweep for tables nobody leads failed")


__all__ = [
    "BEAT_SECONDS",
    "LEASE_SECONDS",
    "PgCluster",
    "channel_names",
    "cluster_for",
]
