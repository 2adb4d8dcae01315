"""Several server processes on one database: who leads each table, and the bus.

The database is the only source of truth; every process can rebuild any
table from it. What must happen exactly once per table (its moves, bots,
clocks, stand-ins, the summary's countdown, seats changing hands) is done
by the one process that holds the table's **lease**, a row in
``web_leases`` with an expiry that its holder extends every second. A
process that dies stops extending it; within ``lease_for`` seconds (3) it
expires, and the next sweep of any other process takes it over and the
table goes on. A process that loses its lease (a long pause) stops acting
for the table; if it wakes and writes anyway, the move's sequence number
is refused by the store.

The other processes hold **replicas**: a table some of their clients sit
at, rebuilt from the store and kept current by the leader's **events**.
Their clients' intents that change the table are **forwarded** to the
leader and its answer relayed back. Events and forwarded intents travel on
PostgreSQL's LISTEN/NOTIFY (docs/DECISIONS.md P28): nothing else to run,
and a notification is delivered in commit order to every listening process.

``Cluster`` is what the lobby asks of the processes around it. ``Solo`` is
the one-process case (SQLite, or PostgreSQL with one server): it leads
every table and has no bus. ``PgCluster`` (``web/server/pgcluster.py``) is the
real thing, for a store other processes may share (``Store.shared``;
``cluster_for``): its leases are the store's (``store/leases.py``), its bus
the store's (``Store.bus``, ``store/bus.py``).
Seat tokens never travel on the bus: the process a client is connected to
makes a token and sends only its hash.
"""

from __future__ import annotations

import os
import secrets
import socket
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from typing import Any

Handler = Callable[[dict[str, Any]], Awaitable[None]]
Requester = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


def process_id() -> str:
    """A name for this server process, unique across machines and restarts."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class ForwardFailed(RuntimeError):
    """The leader did not answer a forwarded intent in time."""


class Cluster(ABC):
    """What the lobby asks of the processes around it."""

    #: True when this process is the only one: it leads every table.
    solo: bool = False

    def __init__(self, process: str | None = None) -> None:
        self.process = process or process_id()
        self._on_event: Handler | None = None
        self._on_request: Requester | None = None
        self._on_lead: Callable[[str], Awaitable[None]] | None = None
        self._on_lost: Callable[[str], None] | None = None
        self._on_tick: Callable[[], Awaitable[None]] | None = None
        self._on_resume: Callable[[set[str]], None] | None = None

    def connect(
        self,
        *,
        on_event: Handler,
        on_request: Requester,
        on_lead: Callable[[str], Awaitable[None]],
        on_lost: Callable[[str], None],
        on_tick: Callable[[], Awaitable[None]] | None = None,
        on_resume: Callable[[set[str]], None] | None = None,
    ) -> None:
        """The lobby's callbacks: an event, a forwarded intent, a lease won or
        lost, a tick every few heartbeats, and leases sure again after a late
        heartbeat (work paused meanwhile goes on)."""
        self._on_event = on_event
        self._on_request = on_request
        self._on_lead = on_lead
        self._on_lost = on_lost
        self._on_tick = on_tick
        self._on_resume = on_resume

    async def start(self) -> None:  # noqa: B027 - nothing to start for one process
        """Start listening and beating."""

    async def stop(self) -> None:  # noqa: B027
        """Hand every lease over and stop."""

    @abstractmethod
    def leads(self, code: str) -> bool:
        """Whether this process leads the table now."""

    @abstractmethod
    async def claim(self, code: str) -> bool:
        """Take the table's lease if nobody holds it; whether this process leads it."""

    @abstractmethod
    async def holder(self, code: str) -> str | None:
        """The process that leads the table, if any."""

    async def release(self, code: str) -> None:  # noqa: B027
        """Give the table's lease up (the table leaves this process's memory)."""

    def emit(self, code: str, event: dict[str, Any]) -> None:  # noqa: B027
        """Tell the other processes what changed at a table this process leads."""

    async def forward(self, holder: str, request: dict[str, Any]) -> dict[str, Any]:
        """An intent for ``holder`` to carry out; its answer."""
        raise ForwardFailed("there is no other process")

    async def presence(self, code: str, seat: int, conns: int) -> None:  # noqa: B027
        """This process now has ``conns`` clients at the seat."""

    async def present_elsewhere(self, code: str) -> dict[int, set[str]]:
        """Seat -> the other live processes with a client there."""
        return {}

    def bus_ok(self) -> bool | None:
        """Whether the bus answers (``None``: there is no bus)."""
        return None

    def lease_count(self) -> int:
        return 0


class Solo(Cluster):
    """One server process: it leads every table; there is nobody to tell."""

    solo = True

    def leads(self, code: str) -> bool:
        return True

    async def claim(self, code: str) -> bool:
        return True

    async def holder(self, code: str) -> str | None:
        return self.process


__all__ = ["Cluster", "ForwardFailed", "Handler", "Requester", "Solo", "process_id"]
