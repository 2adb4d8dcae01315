"""The server seen from outside (issue 12, items 7 and 8): /metrics, JSON logs, /healthz.

In process: the metrics of one app (its own registry), the log formatters
and the filter that keeps secrets out of the log, /healthz with a store or
a bus that does not answer. Over real sockets: ``passing-game serve
--log-format json --log-level debug`` taken through create, join, an
invitation and resumes with tokens; every line of its log is one JSON
object with ``process``, and no token of that play is anywhere in it.
"""

from __future__ import annotations

import io
import json
import logging
import math
import os
import re
import secrets
import socket
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")  # needs httpx2 (or httpx)
pytest.importorskip("prometheus_client")
pytest.importorskip("pythonjsonlogger")

from click.testing import CliRunner
from starlette.testclient import TestClient

from passing_game.cli import main as cli_main
from passing_game.web.http.app import create_app
from passing_game.web.server.observe import (
    MOVERS,
    REDACTED,
    Health,
    JsonLogFormatter,
    Metrics,
    RedactSecrets,
    TextLogFormatter,
    logging_config,
    process_id,
    redact,
)
from passing_game.web.store import SqliteStore
from web_helpers import Player, Server, create, free_port, progress, require_module, time_limit


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    made = SqliteStore(tmp_path / "web.sqlite3")
    yield made
    made.close()


# -- metrics -------------------------------------------------------------------


def test_each_metrics_has_its_own_registry_and_reads_live_values() -> None:
    live = {"tables": 2}
    one = Metrics(tables=lambda: live["tables"], leases=lambda: 1)
    two = Metrics()
    live["tables"] = 5
    assert one.value("passing_game_tables") == 5.0
    assert one.value("passing_game_leases") == 1.0
    assert two.value("passing_game_tables") == 0.0
    one.connections.inc()
    assert (one.value("passing_game_connections"), two.value("passing_game_connections")) == (1, 0)


def test_moves_errors_and_the_text_format() -> None:
    metrics = Metrics(tables=lambda: 1 / 0)  # a callback that fails reads NaN, not an error
    for by in MOVERS:
        assert metrics.value("passing_game_moves_total", by=by) == 0.0  # every series from 0
    metrics.move(0.003, by="person")
    metrics.move(0.2, by="stand-in")
    metrics.move(12.0, by="bot")
    metrics.move(0.01, by="somebody")  # not a mover: counted, never a new series per value
    metrics.store_error()
    metrics.bus_error()
    metrics.bus_error()
    value = metrics.value
    assert value("passing_game_moves_total", by="person") == 1.0
    assert value("passing_game_moves_total", by="other") == 1.0
    assert value("passing_game_move_seconds_count") == 4.0
    assert value("passing_game_move_seconds_bucket", le="0.005") == 1.0
    assert value("passing_game_move_seconds_bucket", le="5.0") == 3.0
    assert value("passing_game_move_seconds_bucket", le="0.001") == 0.0
    assert value("passing_game_store_errors_total") == 1.0
    assert value("passing_game_bus_errors_total") == 2.0
    assert math.isnan(value("passing_game_tables") or 0.0)
    body, content_type = metrics.render()
    assert content_type.startswith("text/plain; version=")
    text = body.decode()
    for name in (
        "passing_game_connections",
        "passing_game_tables",
        "passing_game_leases",
        "passing_game_move_seconds_bucket",
        "passing_game_moves_total",
        "passing_game_store_errors_total",
        "passing_game_bus_errors_total",
        "process_cpu_seconds_total",
    ):
        assert f"\n{name}" in text, name


def sample(text: str, name: str) -> float:
    found = re.search(rf"^{name} (\S+)$", text, re.M)
    assert found, name
    return float(found.group(1))


def test_metrics_of_a_running_app(store: SqliteStore) -> None:
    """/metrics answers Prometheus' text format; open sockets and tables held
    are counted as they change, per app."""
    app = create_app(store, bot_delay=0)
    other = create_app(store, bot_delay=0)
    assert app.state.metrics.registry is not other.state.metrics.registry
    with time_limit(60), TestClient(app) as client:
        response = client.get("/metrics")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/plain; version=")
        assert sample(response.text, "passing_game_connections") == 0
        assert sample(response.text, "passing_game_leases") == 0

        def connections(expected: int) -> float:
            """The gauge, once it reads ``expected`` (the handler counts as it runs)."""
            for _attempt in range(200):
                found = sample(client.get("/metrics").text, "passing_game_connections")
                if found == expected:
                    break
                time.sleep(0.02)
            return found

        with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws"):
            create(Player(ws), ["you", "greedy"])
            assert connections(2) == 2
            assert sample(client.get("/metrics").text, "passing_game_tables") == 1
        assert connections(0) == 0


# -- /healthz --------------------------------------------------------------------


def health(response: Any) -> dict[str, Any]:
    """What /healthz says of the store and the bus (it may say more: the process, leases)."""
    body: dict[str, Any] = response.json()
    return {key: body[key] for key in ("ok", "tables", "store", "bus")}


def test_healthz_says_whether_the_store_and_the_bus_answer(store: SqliteStore) -> None:
    app = create_app(store, bot_delay=0)
    with time_limit(60), TestClient(app) as client:
        response = client.get("/healthz")
        assert response.status_code == 200
        assert health(response) == {"ok": True, "tables": 0, "store": True, "bus": None}

        lobby = app.state.lobby
        lobby.bus_ok = lambda: False
        response = client.get("/healthz")
        assert response.status_code == 503
        assert response.json()["bus"] is False and response.json()["store"] is True

        async def answers() -> bool:
            return True

        lobby.bus_ok = answers
        assert client.get("/healthz").json()["bus"] is True
        lobby.bus_ok = lambda: None  # a lobby with no bus
        assert health(client.get("/healthz")) == {
            "ok": True,
            "tables": 0,
            "store": True,
            "bus": None,
        }

        def down() -> None:
            raise RuntimeError("connection refused")

        # Whichever the store has: a ping, or a table read.
        store.ping = down  # type: ignore[method-assign]
        store.load_table = down  # type: ignore[assignment, method-assign]
        response = client.get("/healthz")
        assert response.status_code == 503
        assert health(response) == {"ok": False, "tables": 0, "store": False, "bus": None}


def test_healthz_gives_a_hanging_store_two_seconds_and_one_thread(store: SqliteStore) -> None:
    """A store that never answers: /healthz says so after its timeout, and
    checks that come while the question is still out wait for that one."""
    app = create_app(store, bot_delay=0)
    asked = []

    def hangs(code: str = "") -> None:
        asked.append(code)
        time.sleep(1.5)

    assert Health().timeout == 2.0
    with time_limit(60), TestClient(app) as client:
        app.state.health.timeout = 0.2
        store.ping = hangs  # type: ignore[method-assign]
        store.load_table = hangs  # type: ignore[assignment, method-assign]
        started = time.monotonic()
        for _check in range(3):
            response = client.get("/healthz")
            assert response.status_code == 503 and response.json()["store"] is False
        assert time.monotonic() - started < 1.4
        assert len(asked) == 1
        time.sleep(1.5)
        del store.ping, store.load_table
        assert client.get("/healthz").status_code == 200


# -- logs ------------------------------------------------------------------------


def record(msg: str, *args: Any, **extra: Any) -> logging.LogRecord:
    made = logging.makeLogRecord({"name": "passing_game.web", "msg": msg, "args": args or None})
    made.levelno, made.levelname = logging.INFO, "INFO"
    for key, value in extra.items():
        setattr(made, key, value)
    return made


def test_redact_hides_tokens_invitations_and_passwords() -> None:
    token = secrets.token_urlsafe(24)
    assert len(token) == 32
    for text in (
        f"seat token {token} refused",
        f'{{"type": "resume", "code": "ABC234", "seat": 0, "token": "{token[:10]}"}}',
        f"GET /t/ABC234?invite={token[:5]}&lang=gl HTTP/1.1",
        f"{{'invite': '{token[:7]}'}}",
        f"postgresql://passing_game:{token[:9]}@127.0.0.1:5432/passing_game",
        f"password={token[:9]}",
    ):
        hidden = redact(text)
        assert REDACTED in hidden, text
        assert token[:5] not in hidden, text
        assert redact(hidden) == hidden
    for text in (  # nothing secret: unchanged
        "table ABC234: seat 1 taken by invitation",
        '{"type": "invite", "seat": 2}',
        "let go of 3 idle table(s)",
        "sha256 " + "ab" * 32,
    ):
        assert redact(text) == text


def test_the_filter_redacts_messages_arguments_and_extras() -> None:
    token = secrets.token_urlsafe(24)
    red = RedactSecrets()
    split = record("link /t/%s?invite=%s for seat %d", "ABC234", token, 2)
    assert red.filter(split)
    assert split.getMessage() == f"link /t/ABC234?invite={REDACTED} for seat 2"
    shaped = record("refused %r", token)
    red.filter(shaped)
    assert token not in shaped.getMessage()
    plain = record("seat %d of table %s", 1, "ABC234", table="ABC234")
    red.filter(plain)
    assert plain.args == (1, "ABC234") and plain.msg == "seat %d of table %s"
    extras = record("joined", table="ABC234", seat_token=token, note=f"token={token}")
    red.filter(extras)
    assert extras.seat_token == REDACTED and token not in extras.note


def test_json_lines_carry_process_table_and_event_and_no_secret() -> None:
    token = secrets.token_urlsafe(24)
    formatter = JsonLogFormatter()
    line = formatter.format(record("table %s: move %d", "ABC234", 7, table="ABC234", event="move"))
    data = json.loads(line)
    assert list(data)[:7] == ["time", "level", "logger", "message", "process", "table", "event"]
    assert data["message"] == "table ABC234: move 7"
    assert data["process"] == process_id() == f"{socket.gethostname()}:{os.getpid()}"
    assert (data["table"], data["event"], data["level"]) == ("ABC234", "move", "INFO")
    assert data["time"].endswith("+00:00")
    plain = json.loads(formatter.format(record("let go of %d idle table(s)", 2)))
    assert "table" not in plain and "event" not in plain
    uvicorn_line = record("Started server process [%d]", 12, color_message="\x1b[36m%d\x1b[0m")
    assert "color_message" not in json.loads(formatter.format(uvicorn_line))
    try:
        raise ValueError(f"bad token {token}")
    except ValueError:
        failed = record("could not carry out a resume message")
        failed.exc_info = sys.exc_info()
    data = json.loads(formatter.format(failed))
    assert "ValueError" in data["exc_info"] and token not in data["exc_info"]
    text = TextLogFormatter().format(failed)
    assert text.startswith("INFO passing_game.web: could not carry out") and token not in text
    moved = record("seat %d ran out of time", 2, table="ABC234", event="timeout")
    assert TextLogFormatter().format(moved) == (
        "INFO passing_game.web: table ABC234: seat 2 ran out of time"
    )


def test_logging_config_sends_every_logger_through_one_redacting_handler() -> None:
    config = logging_config("json", "warning")
    assert config["root"]["level"] == "WARNING"
    assert config["handlers"]["default"]["filters"] == ["redact"]
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        assert config["loggers"][name]["propagate"] is True
        assert config["loggers"][name]["handlers"] == []
    assert logging_config()["formatters"]["default"]["()"] is TextLogFormatter
    with pytest.raises(ValueError, match="log format"):
        logging_config("xml")
    result = CliRunner().invoke(cli_main, ["serve", "--log-format", "xml"])
    assert result.exit_code == 2 and "xml" in result.output
    # A handler built the way the config says it.
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonLogFormatter())
    handler.addFilter(RedactSecrets())
    token = secrets.token_urlsafe(24)
    handler.handle(record("a client sent %s", f'{{"token": "{token}"}}'))
    assert token not in out.getvalue() and json.loads(out.getvalue())["process"]


# -- a real server's JSON log ------------------------------------------------------


class Socket:
    """A client over a real WebSocket to ``passing-game serve``."""

    def __init__(self, port: int) -> None:
        sync_client = require_module("websockets.sync.client")
        self._cm = sync_client.connect(
            f"ws://127.0.0.1:{port}/ws", proxy=None, open_timeout=10, compression=None
        )
        self.ws = self._cm.__enter__()
        self.latest: dict[str, Any] | None = None
        self.acted: tuple[int, ...] = (0,)

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv(timeout=30))
            if frame["type"] == "state":
                self.latest = frame
            if frame["type"] == kind:
                return frame
            assert frame["type"] != "error", frame

    def play(self, moves: int) -> None:
        """Play the first legal move ``moves`` times (or until the game is over)."""
        frame = self.latest or self.until("state")
        while moves > 0:
            while progress(frame) <= self.acted or not (
                frame["over"]
                or frame["round"]["legal"]
                or (frame["paused"] and frame["you"] in frame["waiting"])
            ):
                frame = self.until("state")
            if frame["over"]:
                return
            self.acted = progress(frame)
            if frame["paused"] and frame["you"] in frame["waiting"]:
                self.send(type="continue")
                continue
            move = frame["round"]["legal"][0]
            if move in ("draw", "pass"):
                self.send(type=move)
            else:
                self.send(type="play", move=move)
            moves -= 1

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


@pytest.fixture(scope="module")
def json_log(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real server with ``--log-format json --log-level debug`` through create,
    join, an invitation, a refused old token, resumes, the invitation link
    opened in a browser's way, and some moves; then its log and the secrets."""
    work = tmp_path_factory.mktemp("observe")
    port = free_port()
    server = Server(
        work / "web.sqlite3",
        port,
        work,
        extra=("--log-format", "json", "--log-level", "debug", "--offline-grace", "1"),
    )
    secrets_seen: list[str] = []
    try:
        with time_limit(120):
            ana = Socket(port)
            ana.send(
                type="create", name="Ana", seats=["you", "person", "greedy"], rules={"players": 3}
            )
            joined = ana.until("joined")
            code = joined["table"]
            secrets_seen.append(joined["token"])
            ben = Socket(port)
            ben.send(type="join", code=code, name="Ben")
            ben_joined = ben.until("joined")
            assert ben_joined["seat"] == 1
            secrets_seen.append(ben_joined["token"])
            ben.close()
            for _attempt in range(100):  # until Ben has been gone for the grace (issue 22)
                ana.send(type="invite", seat=1)
                frame = json.loads(ana.ws.recv(timeout=30))
                while frame["type"] == "state":
                    frame = json.loads(ana.ws.recv(timeout=30))
                if frame["type"] == "invite":
                    break
                assert frame["code"] in ("seat-taken", "not-away"), frame
                time.sleep(0.1)
            link = frame["link"]
            invite = link.split("invite=", 1)[1]
            secrets_seen.append(invite)
            with urllib.request.urlopen(server.url(link), timeout=10) as page:  # the link, opened
                assert page.status == 200
            cai = Socket(port)
            cai.send(type="join", code=code, name="Cai", invite=invite)
            cai_joined = cai.until("joined")
            assert cai_joined["seat"] == 1
            secrets_seen.append(cai_joined["token"])
            ben = Socket(port)  # Ben's old token no longer opens the seat
            ben.send(type="resume", code=code, seat=1, token=ben_joined["token"])
            assert ben.until("error")["code"] == "bad-token"
            ben.close()
            cai.close()
            cai = Socket(port)  # Cai reloads the page
            cai.send(type="resume", code=code, seat=1, token=cai_joined["token"])
            assert cai.until("joined")["seat"] == 1
            cai.send(type="leave")  # a stand-in plays Cai's seat from here
            cai.until("left")
            cai.close()
            ana.close()
            ana = Socket(port)
            ana.send(type="resume", code=code, seat=0, token=joined["token"])
            ana.until("joined")
            ana.play(moves=6)
            ana.close()
            deadline = time.monotonic() + 10
            while True:  # until the server has seen every socket close
                with urllib.request.urlopen(server.url("/metrics"), timeout=10) as response:
                    metrics = response.read().decode()
                if "\npassing_game_connections 0.0\n" in metrics or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            time.sleep(0.3)
    finally:
        server.stop()
    return {
        "code": code,
        "secrets": secrets_seen,
        "text": server.log_path.read_text(errors="replace"),
        "pid": server.proc.pid,
        "metrics": metrics,
    }


def lines_of(json_log: dict[str, Any]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in json_log["text"].splitlines() if line.strip()]


def test_every_line_of_the_servers_log_is_json_with_its_process(json_log: dict[str, Any]) -> None:
    text = json_log["text"]
    assert text.strip(), "the server logged nothing"
    for line in text.splitlines():
        data = json.loads(line)  # one object a line, nothing else (not even "Serving ...")
        assert isinstance(data, dict), line
        assert {"time", "level", "logger", "message", "process"} <= data.keys(), line
        assert data["process"] == f"{socket.gethostname()}:{json_log['pid']}", line
    loggers = {data["logger"] for data in lines_of(json_log)}
    assert {"uvicorn.error", "uvicorn.access", "passing_game.web"} <= loggers
    assert re.search(r"^passing_game_connections 0\.0$", json_log["metrics"], re.M)


def test_no_token_of_the_play_is_anywhere_in_the_log(json_log: dict[str, Any]) -> None:
    """Seat tokens, the invitation token, not even their beginnings: the
    access log's line for the invitation link says ``invite=[redacted]``."""
    text = json_log["text"]
    assert len(json_log["secrets"]) == 4
    for secret in json_log["secrets"]:
        assert len(secret) == 32
        for start in range(len(secret) - 8):  # no piece of it either (a cut frame's tail)
            assert secret[start : start + 8] not in text, secret
    access = [d["message"] for d in lines_of(json_log) if d["logger"] == "uvicorn.access"]
    assert any(f"?invite={REDACTED}" in message for message in access), access


def test_a_moves_log_line_carries_its_table(json_log: dict[str, Any]) -> None:
    lines = lines_of(json_log)
    assert any(d.get("table") == json_log["code"] and d.get("event") == "move" for d in lines)
    invited = [d for d in lines if "taken by invitation" in d["message"]]
    assert invited and all(d.get("table") == json_log["code"] for d in invited)


def test_the_text_log_does_not_call_uvicorns_own_lines_errors() -> None:
    """Issue 24, item 6: uvicorn's general log is named ``uvicorn.error`` for
    history; the text format shows it as ``uvicorn`` (an INFO line read as an
    error otherwise). Other names, and the record itself, are left alone."""
    formatter = TextLogFormatter()
    record = logging.makeLogRecord(
        {"name": "uvicorn.error", "levelname": "INFO", "levelno": logging.INFO, "msg": "ready"}
    )
    assert formatter.format(record) == "INFO uvicorn: ready"
    assert record.name == "uvicorn.error"
    other = logging.makeLogRecord(
        {"name": "passing_game.web", "levelname": "WARNING", "msg": "careful", "table": "ABC234"}
    )
    assert formatter.format(other) == "WARNING passing_game.web: table ABC234: careful"
