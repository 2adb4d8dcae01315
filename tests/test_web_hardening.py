"""The web app against a hostile client (issue 11, item 10, "Hardening").

Each point an adversarial run found has its test: the record download's
game numbers, field names that UTF-8 cannot carry, text frames that are not
UTF-8, the WebSocket's ``Origin``, and probing the record download for live
table codes. In process through Starlette's TestClient, and over real
sockets to a real ``passing-game serve``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")  # needs httpx2 (or httpx)

from click.testing import CliRunner
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from passing_game import load_record
from passing_game.cli import main as cli_main
from passing_game.web.http.addresses import AddressLimits
from passing_game.web.http.app import create_app
from passing_game.web.store import SqliteStore
from web_helpers import Player, create, free_port, require_module, time_limit

FRIEND = "https://friend.example:8443"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    made = SqliteStore(tmp_path / "web.sqlite3")
    yield made
    made.close()


@dataclass
class Served:
    """A real ``passing-game serve`` with ``--allowed-origin FRIEND``, and its log."""

    port: int
    log: Path
    proc: subprocess.Popen[bytes]

    def url(self, path: str, scheme: str = "http") -> str:
        return f"{scheme}://127.0.0.1:{self.port}{path}"

    def lines(self) -> list[str]:
        return self.log.read_text(errors="replace").splitlines()

    def healthy(self) -> bool:
        with urllib.request.urlopen(self.url("/healthz"), timeout=5) as response:
            return bool(json.load(response)["ok"])


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    tmp = tmp_path_factory.mktemp("hardening")
    port = free_port()
    log = tmp / "server.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "passing_game", "serve", "--port", str(port)),
                *("--db", f"sqlite:///{tmp / 'web.sqlite3'}", "--bot-delay", "0"),
                *("--log-level", "warning", "--allowed-origin", FRIEND),
            ],
            cwd=tmp,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    server = Served(port, log, proc)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if server.healthy():
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start: {log.read_text()}")
            time.sleep(0.1)
        yield server
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def real_socket(server: Served, origin: str | None = None) -> Any:
    """A WebSocket to the real server (no proxy from the environment)."""
    sync_client = require_module("websockets.sync.client")
    return sync_client.connect(
        server.url("/ws", "ws"), origin=origin, proxy=None, open_timeout=10, compression=None
    )


def frames_until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(200):
        frame = json.loads(ws.recv(timeout=10))
        if frame["type"] == kind:
            return frame  # type: ignore[no-any-return]
    raise AssertionError(f"no {kind} frame came")


def create_real(ws: Any) -> dict[str, Any]:
    """Create a table for two people (nothing moves until both sit): its first state."""
    message = {"type": "create", "name": "Ana", "seats": ["you", "person"], "rules": {}}
    ws.send(json.dumps(message))
    frames_until(ws, "joined")
    return frames_until(ws, "state")


def wait_for_log(server: Served, needle: str, count: int = 1) -> list[str]:
    deadline = time.monotonic() + 10
    while True:
        found = [line for line in server.lines() if needle in line]
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


# -- 1. the record download's game number ------------------------------------


BAD_GAMES = ["99999999999999999999999", "2147483648", "-1", "0", "abc", "1e3", "", " 1", "١"]


def test_a_bad_game_number_on_the_record_download_is_a_clear_4xx(store: SqliteStore) -> None:
    """issue 11, hardening: a huge, negative, zero or non-numeric ``game=`` on
    the record download answers 400 with a JSON error naming ``game`` (a huge
    one was a 500), and the server goes on answering."""
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6), record_rate_limit=(1e6, 1e6))
    with time_limit(60), TestClient(app, raise_server_exceptions=False) as client:
        with client.websocket_connect("/ws") as ws:
            code = create(Player(ws), ["you", "person"])["table"]
        for game in BAD_GAMES:
            for table in (code, "ZZZZZZ"):
                response = client.get(f"/api/tables/{table}/record", params={"game": game})
                assert response.status_code == 400, (game, response.text)
                error = response.json()["error"]
                assert "game" in error and "2147483647" in error
        assert client.get(f"/api/tables/{code}/record?game=1").status_code == 404
        assert client.get("/healthz").json()["ok"]


# -- 2. field names UTF-8 cannot carry ----------------------------------------

UNENCODABLE = [
    '{"type": "draw", "\\ud800": 1}',
    '{"type": "sync", "\\udfff\\u0000\\n": 1, "x\\ud83d": 2}',
    '{"type": "\\ud800"}',
    '{"type": "create", "name": "Ana", "seats": ["you", "person"], "rules": {"\\ud800": 1}}',
]


def test_a_field_name_utf8_cannot_carry_gets_an_error_and_the_socket_goes_on(
    served: Served, store: SqliteStore
) -> None:
    """issue 11, hardening: a JSON key with a lone surrogate (which json.loads
    accepts) is answered with an error frame that UTF-8 can carry (it closed
    the socket before), nothing changes, and the next message is served."""
    with time_limit(60), real_socket(served) as ws:
        before = create_real(ws)
        for text in UNENCODABLE:
            ws.send(text)
            raw = ws.recv(timeout=10)  # a text frame: valid UTF-8 on the wire
            error = json.loads(raw)
            assert error["type"] == "error" and error["code"] == "bad-request", error
            assert error["state"] == before["state"]
            message = error["message"]
            message.encode("utf-8")  # no lone surrogate
            assert message.isprintable() and "\ufffd" in message, message
            ws.send(json.dumps({"type": "sync"}))
            after = frames_until(ws, "state")
            assert after["state"] == before["state"] and after["round"] == before["round"]
    # In process too: the error is encodable there as well.
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(60), TestClient(app) as client, client.websocket_connect("/ws") as ws:
        player = Player(ws)
        create(player, ["you", "person"])
        assert player.state is not None
        state = player.state["state"]
        player.send_text(UNENCODABLE[0])
        player.error()["message"].encode("utf-8")
        player.send(type="sync")
        assert player.next_state()["state"] == state


# -- 3. text frames that are not UTF-8 ----------------------------------------


def test_a_text_frame_that_is_not_utf8_logs_one_line_and_no_traceback(served: Served) -> None:
    """issue 11, hardening: raw invalid UTF-8 in a text frame over a real socket
    closes that socket (1007) and logs one warning line, no traceback and none
    of the message; the server goes on serving."""
    exceptions = require_module("websockets.exceptions")
    marker = b"SECRET-MARKER"
    with time_limit(60):
        with real_socket(served) as ws:
            create_real(ws)
            ws.send(b'{"type": "sync", "token": "' + marker + b'\xff\xfe"}', text=True)
            with pytest.raises(exceptions.ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
        found = wait_for_log(served, "UTF-8")
        log = served.log.read_text(errors="replace")
        assert len(found) == 1, log
        assert found[0].startswith("WARNING"), found
        assert "Traceback" not in log and "SECRET-MARKER" not in log and "0xff" not in log
        assert served.healthy()
        with real_socket(served) as ws:
            assert create_real(ws)["type"] == "state"
        time.sleep(0.2)
        assert len([line for line in served.lines() if "UTF-8" in line]) == 1


# -- 4. the WebSocket's Origin -------------------------------------------------


def test_a_socket_from_another_sites_page_is_refused(served: Served, store: SqliteStore) -> None:
    """issue 11, hardening: the page's own origin, an ``--allowed-origin`` and
    a client with no Origin open the socket; any other Origin is refused
    (HTTP 403 before accept, close code 1008 in process) with one log line each."""
    exceptions = require_module("websockets.exceptions")
    port = served.port
    with time_limit(60):
        for origin in (None, f"http://127.0.0.1:{port}", f"HTTP://127.0.0.1:{port}/", FRIEND):
            with real_socket(served, origin) as ws:
                assert create_real(ws)["type"] == "state", origin
        refused = [
            "https://evil.example",
            f"http://127.0.0.1:{port + 1}",
            f"https://127.0.0.1:{port}",  # the page is served over http
            "https://friend.example",  # another port than the allowed one
            "null",
            "http://evil.example/" + "x" * 500,
        ]
        before = len(wait_for_log(served, "refused a WebSocket", 0))
        for origin in refused:
            with pytest.raises(exceptions.InvalidStatus) as failed:
                real_socket(served, origin)
            assert failed.value.response.status_code == 403, origin
        lines = wait_for_log(served, "refused a WebSocket", before + len(refused))
        assert len(lines) == before + len(refused)
        assert "evil.example" in lines[before] and max(map(len, lines)) < 300
        assert "Traceback" not in served.log.read_text(errors="replace")
        assert served.healthy()
    # create_app(allowed_origins=...) in process; TestClient sends no Origin by default.
    app = create_app(store, bot_delay=0, allowed_origins=["https://a.example"])
    with time_limit(60), TestClient(app) as client:
        for origin in ("http://testserver", "https://a.example:443"):
            with client.websocket_connect("/ws", headers={"origin": origin}) as ws:
                assert create(Player(ws), ["you", "person"])["type"] == "joined"
        with (
            pytest.raises(WebSocketDisconnect) as disconnect,
            client.websocket_connect("/ws", headers={"origin": "https://b.example"}),
        ):
            pass
        assert disconnect.value.code == 1008
    with pytest.raises(ValueError, match="not an origin"):
        create_app(store, allowed_origins=["example.com"])
    result = CliRunner().invoke(cli_main, ["serve", "--allowed-origin", "ftp://x"])
    assert result.exit_code == 2 and "--allowed-origin" in result.output


# -- 5. probing the record download for live tables ----------------------------


def test_the_record_download_tells_no_live_table_from_none_and_is_rate_limited(
    store: SqliteStore,
) -> None:
    """issue 11, hardening: no table, a game still going on and a game that
    does not exist get the same status and body; past its burst a client
    address gets 429 with Retry-After; a finished game's record still downloads."""
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6), record_rate_limit=(0.01, 7))
    with time_limit(120), TestClient(app) as client:
        with client.websocket_connect("/ws") as ws:
            live = create(Player(ws), ["you", "person"])["table"]
        with client.websocket_connect("/ws") as ws:
            ana = Player(ws)
            done = create(ana, ["you", "random"], target=10)["table"]
            assert ana.play_out()["over"]
        record = client.get(f"/api/tables/{done}/record")
        assert record.status_code == 200 and load_record(record.text).is_over
        assert client.get(f"/api/tables/{done}/record?game=1").text == record.text
        asked = [
            f"/api/tables/{live}/record",
            f"/api/tables/{live}/record?game=1",
            "/api/tables/ZZZZZZ/record",
            "/api/tables/ZZZZZZ/record?game=1",
            f"/api/tables/{done}/record?game=2",
        ]
        answers = [client.get(path) for path in asked]
        assert {a.status_code for a in answers} == {404}
        assert len({a.content for a in answers}) == 1
        assert "game" in answers[0].json()["error"]
        # Probing the codes is slow: 7 requests so far, the burst; then 429.
        limited = client.get("/api/tables/ZZZZZZ/record")
        assert limited.status_code == 429
        retry = int(limited.headers["retry-after"])
        assert retry >= 1 and str(retry) in limited.json()["error"]
        assert client.get(f"/api/tables/{done}/record").status_code == 429
        assert client.get("/healthz").json()["ok"]  # only the record download is limited
    # The addresses remembered stay bounded, whoever sends.
    limits = AddressLimits(rate=1, burst=1, most=100)
    for n in range(1000):
        limits.wait(f"10.0.{n // 256}.{n % 256}")
        limits.wait(f"2001:db8::{n:x}")  # one IPv6 /64: one bucket
    assert len(limits) == 100
    assert limits.wait("2001:db8::ffff") > 0  # that /64 spent its burst
