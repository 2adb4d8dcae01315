"""Shared helpers for the web app's tests (not collected: no test_ prefix)."""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TypeVar

T = TypeVar("T")

#: Set (to 1) by .ci/services.sh under CI: a missing browser or database fails the run.
REQUIRE_SERVICES = os.environ.get("PASSING_GAME_REQUIRE_SERVICES", "") not in ("", "0")


def service_missing(reason: str) -> NoReturn:
    """Skip a test whose service (Chromium, PostgreSQL) is missing; under CI, fail it."""
    import pytest

    if REQUIRE_SERVICES:
        pytest.fail(f"{reason} (PASSING_GAME_REQUIRE_SERVICES is set)", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def require_module(name: str) -> Any:
    """``pytest.importorskip``, except that under CI a missing module fails."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError as exc:
        service_missing(f"cannot import {name}: {exc}")


#: The PostgreSQL test database (.ci/services.sh sets it); tests take a schema of their own.
PG_URL = os.environ.get("PASSING_GAME_TEST_PG_URL")


@contextmanager
def pg_schema(prefix: str) -> Iterator[str]:
    """A fresh schema name in the test database, dropped afterwards (skips without one)."""
    if not PG_URL:
        service_missing("PASSING_GAME_TEST_PG_URL is not set (see .ci/services.sh)")
    import uuid

    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    try:
        yield schema
    finally:
        psycopg = require_module("psycopg")
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def either_store(kind: str, folder: Path, prefix: str) -> Iterator[Any]:
    """For a fixture over both databases: a ``SqliteStore`` in ``folder`` (``kind``
    ``"sqlite"``) or a ``PostgresStore`` in a fresh schema, closed afterwards."""
    from passing_game.web.store import PostgresStore, SqliteStore

    if kind == "sqlite":
        made: Any = SqliteStore(folder / f"{prefix}.sqlite3")
        yield made
        made.close()
        return
    with pg_schema(prefix) as schema:
        assert PG_URL is not None
        made = PostgresStore(PG_URL, schema=schema)
        yield made
        made.close()


def blocking(work: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end from a test (``Accounts``' methods are coroutines), in
    a thread of its own: Playwright's sync API keeps an event loop running in the
    main thread, where ``asyncio.run`` refuses to start another."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, work).result()


#: A tile written anywhere in a frame: "3-5" (hands, moves) or "[3|5]" (sentences).
TILE_TEXT = re.compile(r"(?<![0-9])([0-6])\s*[-|]\s*([0-6])(?![0-9])")


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Fail instead of hanging when a server never answers."""

    def alarm(signum: int, frame: object) -> None:
        raise TimeoutError(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


class Player:
    """One test client on a Starlette TestClient websocket, keeping every frame."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self.state: dict[str, Any] | None = None
        self.joined: dict[str, Any] | None = None
        #: Whether the last state frame has not been acted on yet.
        self.fresh = False
        #: How far the game was when this seat last acted: frames not past it are stale.
        self.acted_at: tuple[int, ...] = (0,)
        #: Whether this client adds its random part to a deal that waits for it, as a
        #: browser does (web/game/dealing.py); by (table, game), the parts it sent.
        self.contributing = True
        self.parts: dict[tuple[str, int], str] = {}

    def send(self, **message: Any) -> None:
        if message.get("type") in ("play", "draw", "pass", "continue") and self.state:
            self.fresh = False
            self.acted_at = progress(self.state)
        self.ws.send_text(json.dumps(message))

    def send_text(self, text: str) -> None:
        self.ws.send_text(text)

    def recv(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        frame = json.loads(text)
        self.texts.append(text)
        self.frames.append(frame)
        if frame["type"] == "state":
            self.state = frame
            self.fresh = True
            waits = frame.get("dealing")
            key = (str(frame["table"]), int(frame["game"]))
            if waits and waits["give"] and self.contributing and key not in self.parts:
                self.parts[key] = secrets.token_hex(16)
                self.ws.send_text(json.dumps({"type": "contribute", "value": self.parts[key]}))
        elif frame["type"] == "joined":
            self.joined = frame
        return frame

    def until(self, pred: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
        for _ in range(limit):
            frame = self.recv()
            if pred(frame):
                return frame
        raise AssertionError("the expected frame never came")

    def next_state(self) -> dict[str, Any]:
        return self.until(lambda f: f["type"] == "state")

    def error(self) -> dict[str, Any]:
        return self.until(lambda f: f["type"] == "error")

    def my_turn(self) -> dict[str, Any]:
        """The latest state if this seat may act on it, else frames until it may."""

        def ready(f: dict[str, Any]) -> bool:
            return (
                f["type"] == "state"
                and progress(f) > self.acted_at
                and (
                    f["over"]
                    or bool(f["round"]["legal"])
                    or (f["paused"] and f["you"] in f["waiting"])
                )
            )

        if self.fresh and self.state is not None and ready(self.state):
            return self.state
        return self.until(ready)

    def act(self, move: str) -> None:
        if move in ("draw", "pass"):
            self.send(type=move)
        else:
            self.send(type="play", move=move)

    def play_out(self, choose: Callable[[dict[str, Any]], str] | None = None) -> dict[str, Any]:
        """Play this seat until the game is over; returns the last frame."""
        choose = choose or (lambda f: f["round"]["legal"][0])
        while True:
            frame = self.my_turn()
            if frame["over"]:
                return frame
            if frame["paused"] and frame["you"] in frame["waiting"] and not frame["round"]["legal"]:
                self.send(type="continue")
                continue
            self.act(choose(frame))


def progress(frame: dict[str, Any]) -> tuple[int, ...]:
    """How far a game is: game, round, moves, and whether this seat saw the summary."""
    seen = int(not (frame["paused"] and frame["you"] in frame["waiting"]))
    return (frame["game"], frame["round"]["number"], len(frame["round"]["history"]), seen)


def create(player: Player, seats: list[str], **rules: Any) -> dict[str, Any]:
    player.send(type="create", name="Ana", seats=seats, rules={"players": len(seats), **rules})
    joined = player.until(lambda f: f["type"] == "joined")
    player.next_state()
    return joined


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``passing-game serve`` in a subprocess; ``db`` an SQLite file or a database URL.

    Its output (both streams) goes to ``log_path``; ``extra`` options come
    last, so they override the ones given here (``--log-level`` for one).
    """

    def __init__(
        self,
        db: Path | str,
        port: int,
        cwd: Path,
        bot_delay: float = 0.0,
        extra: tuple[str, ...] = (),
    ) -> None:
        self.port = port
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.log_path = cwd / f"server-{time.monotonic_ns()}.log"
        self.log = self.log_path.open("w")
        url = db if isinstance(db, str) else f"sqlite:///{db}"
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "passing_game", "serve", "--port", str(port)),
                *("--db", url, "--bot-delay", str(bot_delay)),
                *("--log-level", "warning", "--rate-limit", "10000"),
                *extra,
            ],
            cwd=cwd,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.url("/healthz"), timeout=2) as response:
                    if json.load(response)["ok"]:
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.1)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.log.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()
