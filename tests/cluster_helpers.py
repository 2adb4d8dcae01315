"""What the tests of several server processes share: a person on a real WebSocket, and
starting and stopping the processes. Importing it skips the test module when the web
extra or the test client is missing (under CI it fails, see ``web_helpers.require_module``).
"""

from __future__ import annotations

import http.cookiejar
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from web_helpers import Server, free_port, require_module

require_module("starlette")
require_module("psycopg")
connect = require_module("websockets.sync.client").connect


class Person:
    """Somebody over a real WebSocket to one server process."""

    def __init__(self, port: int) -> None:
        self._cm = connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10)
        self.ws = self._cm.__enter__()
        self.latest: dict[str, Any] | None = None

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if frame["type"] == "state":
            self.latest = frame
        return frame

    def until(self, pred: Any, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, "the expected frame never came"
            frame = self.recv(timeout=left)
            if pred(frame):
                return frame

    def state(self, pred: Any = lambda f: True, timeout: float = 30) -> dict[str, Any]:
        """The next state frame that satisfies ``pred``."""
        return self.until(lambda f: f["type"] == "state" and pred(f), timeout)

    def now(self, pred: Any, timeout: float = 30) -> dict[str, Any]:
        """The latest state if it satisfies ``pred``, else the next one that does."""
        if self.latest is not None and pred(self.latest):
            return self.latest
        return self.state(pred, timeout)

    def act(self, move: str) -> None:
        if move in ("draw", "pass"):
            self.send(type=move)
        else:
            self.send(type="play", move=move)

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


class Browser:
    """One person's cookie jar against one server process."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> Any:
        with self.opener.open(self.server.url(path), timeout=10) as response:
            return json.load(response)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        token = self.get("/api/account")["csrf"]
        request = urllib.request.Request(
            self.server.url(path),
            data=json.dumps(body).encode(),
            headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
            method="POST",
        )
        with self.opener.open(request, timeout=30) as response:
            return json.load(response)

    def socket(self, server: Server | None = None, lang: str | None = None) -> Person:
        """A socket with this browser's cookies, to its server or to ``server``
        (another process of the site, as a balancer would pick), in ``lang`` if
        given (the page's ``/ws?lang=``)."""
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        query = f"?lang={lang}" if lang else ""
        person = Person.__new__(Person)
        person._cm = connect(
            f"ws://127.0.0.1:{(server or self.server).port}/ws{query}",
            open_timeout=10,
            additional_headers={"Cookie": cookies},
        )
        person.ws = person._cm.__enter__()
        person.latest = None
        return person


def start(url: str, work: Path, n: int, **kw: Any) -> list[Server]:
    return [Server(url, free_port(), work, **kw) for _ in range(n)]


def stop(servers: list[Server]) -> None:
    for server in servers:
        if server.proc.poll() is None:
            server.stop()
