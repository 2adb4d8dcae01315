"""The server seen from outside (issue 12, items 7 and 8): metrics, logs, health.

- ``Metrics``: one process's Prometheus metrics in a registry of its own
  (one per app, so that tests can make several), served at ``GET /metrics``.
- ``logging_config``, ``RedactSecrets`` (``web/server/logs.py``, named here too):
  every log line through one formatter, ``text`` or ``json``, and never a
  secret in it.
- ``Health``: what ``GET /healthz`` says: does the store answer, does the bus.

Metric names and log lines are for operators, not players: they are not
translated.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)

from passing_game.web.server.logs import (
    LOG_FORMATS,
    REDACTED,
    JsonLogFormatter,
    RedactSecrets,
    TextLogFormatter,
    logging_config,
    process_id,
    redact,
)

log = logging.getLogger("passing_game.web")

# -- metrics -------------------------------------------------------------------

#: Who made a move, as ``passing_game_moves_total`` counts it (``by``): the
#: seat's person, its bot, a bot because the person's time ran out, a stand-in.
MOVERS = ("person", "bot", "timeout", "stand-in")

#: The move latency histogram's buckets, in seconds: 1 ms to 5 s.
MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


def _reading(read: Callable[[], float]) -> Callable[[], float]:
    """A gauge's callback that never breaks ``/metrics``: NaN when it fails."""

    def safe() -> float:
        try:
            return float(read())
        except Exception:
            return math.nan

    return safe


class Metrics:
    """One process's metrics, in their own ``CollectorRegistry``.

    ``connections``, ``tables`` and ``leases`` are callbacks read at every
    scrape (live values); a gauge without one reads what was last ``set``.
    The counters and the histogram are fed by the server: ``move``,
    ``store_error``, ``bus_error``.

    >>> metrics = Metrics(tables=lambda: 3)
    >>> metrics.move(0.004, by="bot")
    >>> metrics.value("passing_game_tables"), metrics.value("passing_game_moves_total", by="bot")
    (3.0, 1.0)
    >>> metrics.value("passing_game_move_seconds_count")
    1.0
    """

    def __init__(
        self,
        *,
        connections: Callable[[], float] | None = None,
        tables: Callable[[], float] | None = None,
        leases: Callable[[], float] | None = None,
        process: bool = True,
    ) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        reg = self.registry
        self.connections = Gauge(
            "passing_game_connections", "Open WebSockets of this process.", registry=reg
        )
        self.tables = Gauge("passing_game_tables", "Tables in this process's memory.", registry=reg)
        self.leases = Gauge("passing_game_leases", "Tables this process leads.", registry=reg)
        for gauge, read in (
            (self.connections, connections),
            (self.tables, tables),
            (self.leases, leases),
        ):
            if read is not None:
                gauge.set_function(_reading(read))
        self.move_seconds = Histogram(
            "passing_game_move_seconds",
            "From a move's intent arriving to its frames being queued, in seconds.",
            buckets=MOVE_BUCKETS,
            registry=reg,
        )
        self.moves = Counter(
            "passing_game_moves",
            "Moves accepted by this process, by who made them.",
            ["by"],
            registry=reg,
        )
        # Every series from 0, not from its first move; each looked up once.
        self._moves_by = {by: self.moves.labels(by=by) for by in (*MOVERS, "other")}
        self.store_errors = Counter(
            "passing_game_store_errors", "Store calls that failed.", registry=reg
        )
        self.bus_errors = Counter(
            "passing_game_bus_errors", "Bus sends or receives that failed.", registry=reg
        )
        if process:  # CPU seconds, memory, open files of this process (process_*)
            ProcessCollector(registry=reg)

    def move(self, seconds: float, by: str = "person") -> None:
        """An accepted move: ``seconds`` from its intent to its frames being
        queued; ``by`` one of ``MOVERS`` (anything else counts as ``other``)."""
        self.move_seconds.observe(max(0.0, seconds))
        self._moves_by.get(by, self._moves_by["other"]).inc()

    def store_error(self) -> None:
        """A store call failed (the database is down, a write was refused...)."""
        self.store_errors.inc()

    def bus_error(self) -> None:
        """A message could not be sent on, or was lost from, the bus."""
        self.bus_errors.inc()

    def render(self) -> tuple[bytes, str]:
        """The Prometheus text format, and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST

    def value(self, name: str, **labels: str) -> float | None:
        """One sample's current value (for tests and checks), or ``None``."""
        return self.registry.get_sample_value(name, labels)


# -- health ----------------------------------------------------------------------


def ping_store(store: Any) -> None:
    """Ask the store one cheap question; raises if it does not answer.

    ``store.ping()`` (``SELECT 1``) where the store has it; else a table
    code that cannot exist (codes have six letters), which proves as much.
    """
    ping = getattr(store, "ping", None)
    if callable(ping):
        ping()
    else:
        store.load_table("HEALTHZ")


class Health:
    """What ``/healthz`` says: whether the store answers and whether the bus does.

    The store is asked in a thread of its own, ``timeout`` seconds at most;
    while one question is still out (a database that hangs), the next check
    waits for that one instead of piling up threads.
    """

    def __init__(self, timeout: float = 2.0) -> None:
        self.timeout = timeout
        self._threads: ThreadPoolExecutor | None = None
        self._pending: asyncio.Future[None] | None = None

    async def store_ok(self, store: Any) -> bool:
        if self._pending is None or self._pending.done():
            if self._threads is None:
                self._threads = ThreadPoolExecutor(1, thread_name_prefix="healthz")
            loop = asyncio.get_running_loop()
            self._pending = loop.run_in_executor(self._threads, ping_store, store)
        try:
            await asyncio.wait_for(asyncio.shield(self._pending), self.timeout)
        except Exception as exc:
            reason = "no answer" if isinstance(exc, TimeoutError) else repr(exc)[:200]
            log.warning("healthz: the store did not answer: %s", reason, extra={"event": "health"})
            return False
        return True

    async def bus_ok(self, lobby: Any) -> bool | None:
        """``lobby.bus_ok()`` (plain or async); ``None`` when the lobby has no
        such method or it answers ``None``: no bus (one process)."""
        ask = getattr(lobby, "bus_ok", None)
        if ask is None:
            return None
        try:
            answer = ask()
            if inspect.isawaitable(answer):
                answer = await asyncio.wait_for(answer, self.timeout)
        except Exception as exc:
            log.warning("healthz: the bus did not answer: %r", exc, extra={"event": "health"})
            return False
        return None if answer is None else bool(answer)

    async def check(self, lobby: Any) -> tuple[dict[str, Any], int]:
        """The ``/healthz`` body and its HTTP status (503 when the store or the bus is down)."""
        store, bus = await asyncio.gather(self.store_ok(lobby.store), self.bus_ok(lobby))
        ok = store and bus is not False
        body = {"ok": ok, "tables": len(lobby.tables), "store": store, "bus": bus}
        cluster = getattr(lobby, "cluster", None)
        if cluster is not None:  # which process answers, and how many tables it leads
            body["process"] = cluster.process
            body["leases"] = cluster.lease_count()
        return body, 200 if ok else 503

    def close(self) -> None:
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None


__all__ = [
    "LOG_FORMATS",
    "MOVERS",
    "MOVE_BUCKETS",
    "REDACTED",
    "Health",
    "JsonLogFormatter",
    "Metrics",
    "RedactSecrets",
    "TextLogFormatter",
    "logging_config",
    "ping_store",
    "process_id",
    "redact",
]
