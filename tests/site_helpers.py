"""Several people on one app in process: cookie jars, addresses, sockets (not collected).

``Site`` drives one app through one Starlette ``TestClient`` (one event loop),
each person a cookie jar swapped in for their requests and sockets, and an
address of their own: ``addressed`` makes each request and socket come from
the address in its ``X-Test-Address`` header, so that per-address limits see
distinct clients.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send

from web_helpers import Player

PASSWORD = "correct horse battery"
ADDRESS_HEADER = "X-Test-Address"


def addressed(app: ASGIApp) -> ASGIApp:
    """``app``, each request and socket coming from the address in its ``X-Test-Address``."""

    async def call(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            for name, value in scope["headers"]:
                if name == ADDRESS_HEADER.lower().encode():
                    scope = {**scope, "client": (value.decode(), 50000)}
        await app(scope, receive, send)

    return call


class Site:
    """One app and one TestClient; each person a cookie jar and an address."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.jars: dict[str, dict[str, str]] = {}
        self.addresses: dict[str, str] = {}

    def address(self, who: str | None) -> dict[str, str]:
        found = self.addresses.get(who or "")
        return {ADDRESS_HEADER: found} if found else {}

    @contextmanager
    def as_(self, who: str | None) -> Iterator[TestClient]:
        self.client.cookies.clear()
        if who is not None:
            for name, value in self.jars.setdefault(who, {}).items():  # as the server set them
                self.client.cookies.set(name, value, domain="testserver.local", path="/")
        try:
            yield self.client
        finally:
            if who is not None:
                self.jars[who] = {c.name: c.value for c in self.client.cookies.jar}
            self.client.cookies.clear()

    def post(self, who: str | None, path: str, body: dict[str, Any], **headers: str) -> Any:
        with self.as_(who) as c:
            token = c.get("/api/account", headers=self.address(who)).json()["csrf"]
            return c.post(
                path,
                content=json.dumps(body),
                headers={"X-CSRF-Token": token, **self.address(who), **headers},
            )

    def get(self, who: str | None, path: str) -> Any:
        with self.as_(who) as c:
            return c.get(path, headers=self.address(who))

    def sign_up(self, name: str, address: str | None = None, password: str = PASSWORD) -> str:
        self.jars[name] = {}
        if address is not None:
            self.addresses[name] = address
        made = self.post(name, "/api/account/signup", {"name": name, "password": password})
        assert made.status_code == 200, made.text
        return str(made.json()["user"]["id"])

    def sign_in(self, who: str, name: str, password: str = PASSWORD) -> Any:
        """``who``'s browser signs in as ``name``."""
        return self.post(who, "/api/account/signin", {"name": name, "password": password})

    @contextmanager
    def socket(self, who: str | None) -> Iterator[Player]:
        with self.as_(who) as c:
            ws = c.websocket_connect("/ws", headers=self.address(who))
            ws.__enter__()
        try:
            yield Player(ws)
        finally:
            ws.__exit__(None, None, None)


def either_site(kind: str, tmp_path: Path, label: str, seconds: int = 150) -> Iterator[Site]:
    """A ``Site`` on a fresh store of ``kind`` ("sqlite" or "postgresql"; a fixture's param),
    its app without limits on messages, each test given ``seconds``."""
    from passing_game.web.http.app import create_app
    from web_helpers import either_store, time_limit

    for store in either_store(kind, tmp_path, label):
        app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
        with time_limit(seconds), TestClient(app) as client:
            yield Site(client)


__all__ = ["ADDRESS_HEADER", "PASSWORD", "Site", "addressed", "either_site"]
