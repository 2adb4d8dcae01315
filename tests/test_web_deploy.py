"""docs/DEPLOY.md, run: nginx in front of three ``passing-game serve`` on one PostgreSQL.

The nginx site and the systemd unit's command line are read from
docs/DEPLOY.md itself, so that what the page says is what runs here: a
real nginx (Debian's, as this user, its files in a temp folder) spreads
HTTP and WebSockets round robin over three real processes on free ports,
all on the test PostgreSQL (a schema of its own per test, through libpq's
``options``: ``--db`` takes a URL, and the test user may not create
databases). A person plays a whole game against two bots over a WebSocket
through nginx's port; /healthz answers through nginx from every process,
with the visitor's address passed on (X-Forwarded-For); each process's
/metrics counts what it holds.

Without nginx or PostgreSQL the test skips, except under CI
(PASSING_GAME_REQUIRE_SERVICES=1), where it fails. .ci/services.sh
installs both.
"""

from __future__ import annotations

import concurrent.futures
import grp
import json
import os
import pwd
import re
import shlex
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from passing_game import load_record
from web_helpers import Server, free_port, progress, require_module, service_missing, time_limit

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "docs" / "DEPLOY.md"
PG_URL = os.environ.get("PASSING_GAME_TEST_PG_URL")
#: Debian's nginx (the ``nginx`` package); another binary through PASSING_GAME_NGINX.
NGINX = os.environ.get("PASSING_GAME_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
#: The ports docs/DEPLOY.md gives the three processes.
DOC_PORTS = ("8001", "8002", "8003")
#: An address from the documentation range, as a visitor behind nginx.
VISITOR = "203.0.113.7"


def fenced(first_line: str) -> str:
    """The fenced block of docs/DEPLOY.md whose first line is ``first_line``."""
    text = DEPLOY.read_text()
    for block in re.findall(r"^```[a-z]*\n(.*?)^```$", text, re.M | re.S):
        if block.splitlines()[0].strip() == first_line:
            return str(block)
    raise AssertionError(f"docs/DEPLOY.md has no block starting {first_line!r}")


def unit_arguments(port: int, db: str) -> list[str]:
    """The unit's ``passing-game serve`` options for instance ``port``, on database ``db``."""
    unit = fenced("# /etc/systemd/system/passing-game@.service")
    (line,) = [x for x in unit.splitlines() if x.startswith("ExecStart=")]
    words = shlex.split(line.removeprefix("ExecStart="))
    assert words[0].endswith("/passing-game") and words[1] == "serve", words
    args = [w.replace("%i", str(port)) for w in words[2:]]
    assert args[args.index("--db") + 1].startswith("postgresql://")
    args[args.index("--db") + 1] = db
    assert args[args.index("--port") + 1] == str(port)
    assert args[args.index("--log-format") + 1] == "json"
    return args


def nginx_site(port: int, upstreams: list[int]) -> str:
    """The doc's nginx site, listening on ``port`` of loopback, in front of ``upstreams``."""
    site = fenced("# /etc/nginx/conf.d/passing-game.conf")
    for doc_port, real in zip(DOC_PORTS, upstreams, strict=True):
        assert f"server 127.0.0.1:{doc_port};" in site
        site = site.replace(f"server 127.0.0.1:{doc_port};", f"server 127.0.0.1:{real};")
    assert "listen 80;" in site
    site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
    return "\n".join(line for line in site.splitlines() if "listen [::]" not in line) + "\n"


def nginx_main(folder: Path, site: Path) -> str:
    """A main configuration that keeps every file nginx writes inside ``folder``."""
    user = ""
    if os.geteuid() == 0:  # workers as this user, not Debian's www-data
        name = pwd.getpwuid(os.geteuid()).pw_name
        user = f"user {name} {grp.getgrgid(os.getegid()).gr_name};"
    return f"""{user}
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log info;
events {{ worker_connections 256; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {site};
}}
"""


@pytest.fixture
def database() -> Iterator[str]:
    """A URL of the test database whose connections use a fresh schema."""
    if not PG_URL:
        service_missing("PASSING_GAME_TEST_PG_URL is not set (see .ci/services.sh)")
    psycopg = require_module("psycopg")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    parts = urllib.parse.urlsplit(PG_URL)
    query = [*urllib.parse.parse_qsl(parts.query), ("options", f"-csearch_path={schema}")]
    yield urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


class Nginx:
    """``nginx -p FOLDER -c CONF -g 'daemon off;'`` as a subprocess, on ``port``."""

    def __init__(self, folder: Path, port: int, upstreams: list[int]) -> None:
        self.folder, self.port = folder, port
        site = folder / "passing-game.conf"
        site.write_text(nginx_site(port, upstreams))
        conf = folder / "nginx.conf"
        conf.write_text(nginx_main(folder, site))
        command = [NGINX, "-p", f"{folder}/", "-e", f"{folder}/error.log", "-c", str(conf)]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0, checked.stderr
        self.proc = subprocess.Popen(
            [*command, "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=(folder / "nginx.out").open("w"),
        )
        deadline = time.monotonic() + 15
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        "nginx did not start: " + (folder / "error.log").read_text()
                    ) from None
                time.sleep(0.1)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def get(self, path: str) -> tuple[int, bytes]:
        request = urllib.request.Request(self.url(path), headers={"X-Forwarded-For": VISITOR})
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy
        with opener.open(request, timeout=10) as response:
            return response.status, response.read()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


class Person:
    """A person over a real WebSocket through nginx, playing the first legal move."""

    def __init__(self, port: int) -> None:
        sync_client = require_module("websockets.sync.client")
        # A browser's Origin: the page's own address, port included (nginx passes Host on).
        self._cm = sync_client.connect(
            f"ws://127.0.0.1:{port}/ws",
            origin=f"http://127.0.0.1:{port}",
            proxy=None,
            open_timeout=10,
            compression=None,
        )
        self.ws = self._cm.__enter__()
        self.acted: tuple[int, ...] = (0,)

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv(timeout=30))
            assert frame["type"] != "error", frame
            if frame["type"] == kind:
                return frame

    def play_out(self) -> dict[str, Any]:
        """Play to the end of the game; the last frame."""
        while True:
            frame = self.until("state")
            ready = (
                frame["over"]
                or frame["round"]["legal"]
                or (frame["paused"] and frame["you"] in frame["waiting"])
            )
            if progress(frame) <= self.acted or not ready:
                continue
            if frame["over"]:
                return frame
            self.acted = progress(frame)
            if frame["paused"] and frame["you"] in frame["waiting"]:
                self.send(type="continue")
                continue
            move = frame["round"]["legal"][0]
            if move in ("draw", "pass"):
                self.send(type=move)
            else:
                self.send(type="play", move=move)

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


def metric(server: Server, name: str) -> float:
    with urllib.request.urlopen(server.url("/metrics"), timeout=10) as response:
        text = response.read().decode()
    found = re.search(rf"^{name} (\S+)$", text, re.M)
    assert found, name
    return float(found.group(1))


def test_a_game_through_nginx_on_three_processes(tmp_path: Path, database: str) -> None:
    if not (Path(NGINX).exists() or shutil.which(NGINX)):
        service_missing(f"no nginx at {NGINX} (see .ci/services.sh)")
    ports = [free_port() for _ in range(3)]

    def start(port: int) -> Server:
        # The unit's options (--log-level info as serve's own default: Server says warning).
        options = (*unit_arguments(port, database), "--log-level", "info")
        return Server(database, port, tmp_path, bot_delay=0.0, extra=options)

    servers: list[Server] = []
    nginx: Nginx | None = None
    try:
        with time_limit(240):
            # Started together on an empty schema: they must not race on creating it.
            with concurrent.futures.ThreadPoolExecutor(3) as pool:
                futures = [pool.submit(start, port) for port in ports]
                for future in futures:
                    try:
                        servers.append(future.result())
                    except Exception:
                        for other in futures:
                            if other.exception() is None:
                                servers.append(other.result())
                        raise
            nginx = Nginx(tmp_path, free_port(), ports)

            for _request in range(6):  # round robin: every process answers through nginx
                status, body = nginx.get("/healthz")
                health = json.loads(body)
                assert status == 200 and health["ok"] and health["store"] is True, health
                assert health["bus"] in (None, True), health
            status, page = nginx.get("/")
            assert status == 200 and b"<html" in page.lower()

            ana = Person(nginx.port)
            ana.send(
                type="create",
                name="Ana",
                seats=["you", "greedy", "random"],
                rules={"players": 3, "target": 100},
            )
            joined = ana.until("joined")
            code = joined["table"]
            assert sum(metric(s, "passing_game_connections") for s in servers) == 1
            assert sum(metric(s, "passing_game_tables") for s in servers) >= 1
            last = ana.play_out()
            assert last["over"] and last["winner"] is not None
            ana.close()

            # The finished game, from whichever process nginx picks: the store is shared.
            status, body = nginx.get(f"/api/tables/{code}/record")
            assert status == 200
            record = json.loads(body)
            match = load_record(record)
            assert match.is_over and list(match.scores) == last["scores"]
            with pytest.raises(urllib.error.HTTPError) as refused:
                nginx.get("/metrics")
            assert refused.value.code == 403  # per process, not for the public
            time.sleep(0.5)  # the last access lines reach the logs
    finally:
        if nginx is not None:
            nginx.stop()
        for server in servers:
            server.stop()

    access = (tmp_path / "access.log").read_text()
    assert ' /ws HTTP/1.1" 101 ' in access and "/healthz" in access
    for server in servers:
        lines = [json.loads(x) for x in server.log_path.read_text().splitlines() if x.strip()]
        assert lines and all("process" in line for line in lines)
        # nginx passed the visitor's address on, and this process served some of it.
        served = [
            line["message"]
            for line in lines
            if line["logger"] == "uvicorn.access" and line["message"].startswith(f"{VISITOR}:")
        ]
        assert any("/healthz" in message for message in served), server.port
