"""Whom a request or a socket is counted against: its client's address.

Every limit that is kept per client (the record download, replays and
analyses, sign-in and sign-up, the daily deal's one attempt per person)
names the client the same way, ``address_key``: the IPv4 address, or the
IPv6 /64 network (one machine usually holds a whole /64, so counting single
IPv6 addresses would count nothing). Behind a proxy the address is the one
uvicorn believed from ``X-Forwarded-For`` (``FORWARDED_ALLOW_IPS``,
docs/DEPLOY.md).
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from passing_game.i18n import ngettext
from passing_game.web.protocol import RateLimit


def address_key(host: str | None) -> str:
    """Whom a request is counted against: its client address; IPv6 by its /64
    network (one machine usually holds a whole /64).

    >>> address_key("2001:db8::1") == address_key("2001:db8::ffff:1")
    True
    >>> address_key("::ffff:10.0.0.7"), address_key(None)
    ('10.0.0.7', '?')
    """
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def client_key(connection: Any) -> str:
    """``address_key`` of a Starlette request's or WebSocket's client."""
    client = getattr(connection, "client", None)
    return address_key(client.host if client else None)


class AddressLimits:
    """A token bucket (``RateLimit``) per client address, ``rate`` requests a
    second in bursts of ``burst``.

    At most ``most`` addresses are kept: the one seen least recently is
    forgotten first, so memory stays bounded whoever sends.

    >>> limits = AddressLimits(rate=1, burst=2, most=2, clock=lambda: 0.0)
    >>> [limits.wait("10.0.0.1") for _ in range(3)], limits.wait("10.0.0.2")
    ([0.0, 0.0, 1.0], 0.0)
    >>> limits.wait("10.0.0.3"), len(limits)
    (0.0, 2)
    """

    def __init__(
        self,
        rate: float,
        burst: float,
        most: int = 4096,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.rate, self.burst, self.most = rate, burst, most
        self._clock = clock or time.monotonic
        self._buckets: OrderedDict[str, RateLimit] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def wait(self, host: str | None) -> float:
        """0 if ``host`` may make a request now (it is counted), else the seconds to wait."""
        key = address_key(host)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = RateLimit(self.rate, self.burst, clock=self._clock)
            while len(self._buckets) > self.most:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return 0.0 if bucket.allow() else bucket.retry_after()


def too_many(wait: float) -> tuple[str, int]:
    """What a client held back for ``wait`` seconds is told, and the whole seconds
    for ``Retry-After``: seconds up to two minutes, minutes beyond (issue 24).

    >>> too_many(0.2)
    ('Too many requests: try again in 1 second.', 1)
    >>> too_many(600)[0]
    'Too many requests: try again in 10 minutes.'
    """
    seconds = max(1, math.ceil(wait))
    if seconds <= 120:
        text = ngettext(
            "Too many requests: try again in {n} second.",
            "Too many requests: try again in {n} seconds.",
            seconds,
        ).format(n=seconds)
    else:
        minutes = math.ceil(seconds / 60)
        text = ngettext(
            "Too many requests: try again in {n} minute.",
            "Too many requests: try again in {n} minutes.",
            minutes,
        ).format(n=minutes)
    return text, seconds


def address_wait(request: Request, name: str, rate: tuple[float, float]) -> float:
    """Count the request against its address's ``name`` limit (``rate``: requests a
    second, burst; the limits live in the app's state): the seconds to wait, or 0."""
    state = request.app.state
    limits = getattr(state, name, None)
    if limits is None:
        limits = AddressLimits(*rate)
        setattr(state, name, limits)
    return float(limits.wait(request.client.host if request.client else None))


def held_back(request: Request, name: str, rate: tuple[float, float]) -> Response | None:
    """A 429 answer when the request's address has asked ``name`` too often, else
    ``None`` (``address_wait``)."""
    wait = address_wait(request, name, rate)
    if wait <= 0:
        return None
    message, seconds = too_many(wait)
    body = {"error": message, "code": "rate-limit"}
    return JSONResponse(body, 429, headers={"Retry-After": str(seconds)})


__all__ = [
    "AddressLimits",
    "address_key",
    "address_wait",
    "client_key",
    "held_back",
    "too_many",
]
