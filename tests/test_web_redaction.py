"""Every secret that can reach a log is redacted, at every level (Issue 22, point 7).

``passing-game serve --log-level debug`` logs what uvicorn and ``websockets``
log at DEBUG: the WebSocket handshake's request headers one a line
(``< cookie: pg_csrf=…; pg_session=…``), its response's (``> …``), the
access log's request lines with their query strings (``?invite=…``). Here a
real server, in both log formats (and at uvicorn's ``trace`` level), is taken
through what a person does: signs up, signs in, opens the WebSocket with the
cookies, creates a table, resumes it with the seat token on a second socket,
opens an invitation link; then no secret it saw is anywhere in its log.
In process: the shapes ``redact`` hides, and the ones it leaves alone.
"""

from __future__ import annotations

import http.cookiejar
import json
import logging
import secrets
import time
import urllib.request
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
pytest.importorskip("prometheus_client")
pytest.importorskip("pythonjsonlogger")

from passing_game.web.server.observe import (
    REDACTED,
    JsonLogFormatter,
    RedactSecrets,
    logging_config,
    redact,
)
from web_helpers import Server, free_port, require_module, time_limit

pytestmark = pytest.mark.web

# -- redact, in process -------------------------------------------------------------


def test_redact_hides_cookies_and_secret_headers_in_every_shape() -> None:
    """Issue 22, point 7: the handshake's header lines as ``websockets`` logs
    them at DEBUG, and header lists, dicts and tuples as reprs show them."""
    session, csrf, device = (secrets.token_urlsafe(n) for n in (32, 24, 32))
    cookie = f"pg_csrf={csrf}; pg_session={session}; pg_lang=gl"
    for text in (
        f"< cookie: {cookie}",  # websockets' handshake line (uvicorn.error, DEBUG)
        f"< Cookie: {cookie}",
        f"> set-cookie: pg_session={session}; HttpOnly; Path=/; SameSite=lax",
        f"> Set-Cookie: pg_device={device}; Max-Age=31536000",
        f"Headers([('Host', 'x'), ('Cookie', '{cookie}')])",  # websockets' Headers
        f"<Headers([(b'host', b'x'), (b'cookie', b'{cookie}')])>",  # h11's
        f"Headers({{'cookie': '{cookie}'}})",  # Starlette's
        f"Headers(raw=[(b'cookie', b'{cookie}'), (b'x-csrf-token', b'{csrf}')])",
        f'{{"headers": {{"Cookie": "{cookie}"}}}}',
        f"'Cookie: {cookie}\\r\\nHost: x\\r\\n\\r\\n'",  # str(Headers), repr'd
        f"< x-csrf-token: {csrf}",
        f"X-CSRF-Token={csrf}",
        f"the page sent pg_session={session[:20]}",
        f"device pg_device={device[:12]}",
        f'{{"csrf": "{csrf[:10]}", "user": null}}',
        f"Authorization: Basic {csrf[:12]}",
    ):
        hidden = redact(text)
        assert REDACTED in hidden, text
        for secret in (session, csrf, device):
            assert secret[:10] not in hidden, (text, hidden)
        assert redact(hidden) == hidden, text
    assert redact(f"< cookie: {cookie}") == f"< cookie: {REDACTED}"
    assert redact(f"('cookie', '{cookie}')") == f"('cookie', '{REDACTED}')"


def test_redact_hides_tokens_of_32_to_64_characters() -> None:
    """Session ids (43 characters), CSRF tokens (32; 48 hex digits once signed
    in), seat tokens and invitations (32), known devices (43): by their shape."""
    for size in (24, 32, 48):
        token = secrets.token_urlsafe(size)
        assert redact(f"refused {token} here") == f"refused {REDACTED} here"
        assert redact(f"({token!r},)") == f"('{REDACTED}',)"
    signed_in_csrf = secrets.token_hex(24)  # accounts.csrf_for: 48 hex digits of an HMAC
    assert redact(f"X {signed_in_csrf}") == f"X {REDACTED}"
    sixty_four = "aB3-" * 16
    assert redact(sixty_four) == REDACTED
    assert redact("aB3-" * 16 + "x") == "aB3-" * 16 + "x"  # 65: not a token's shape


def test_redact_hides_a_password_with_spaces_in_a_body() -> None:
    body = '{"name": "Ana", "password": "correct horse battery staple"}'
    assert redact(body) == f'{{"name": "Ana", "password": "{REDACTED}"}}'
    assert redact(f"b'{body}'") == f'b\'{{"name": "Ana", "password": "{REDACTED}"}}\''
    escaped = '{\\"password\\": \\"two words\\", \\"name\\": \\"Ana\\"}'
    assert redact(escaped) == f'{{\\"password\\": \\"{REDACTED}\\", \\"name\\": \\"Ana\\"}}'
    quoted = "{'old': 'a b', 'password': 'it\\'s mine', 'seat': 2}"
    assert redact(quoted) == f"{{'old': 'a b', 'password': '{REDACTED}', 'seat': 2}}"
    form = "name=Ana&password=correct+horse&lang=gl"
    assert redact(form) == f"name=Ana&password={REDACTED}&lang=gl"
    assert (
        redact("FormData([('password', 'two words')])") == f"FormData([('password', '{REDACTED}')])"
    )


def test_redact_leaves_ordinary_lines_alone() -> None:
    """Words, table codes, identifiers and hex digests (a SHA-256 is not a
    secret of this site: tokens are stored hashed) stay as they were."""
    for text in (
        "table ABC234: seat 1 taken by invitation",
        '{"type": "invite", "seat": 2}',
        "DEBUG uvicorn.error: < GET /ws HTTP/1.1",
        "DEBUG uvicorn.error: < sec-websocket-key: wEH0Gl6VFQ27wM06Q+4AbQ==",
        "DEBUG uvicorn.error: > Sec-WebSocket-Accept: Oq/psf2/fOFytIwXPWX3Ipb+Zjg=",
        "DEBUG uvicorn.error: = connection is CONNECTING",
        '127.0.0.1:49690 - "GET /t/3CS6YD?lang=gl HTTP/1.1" 200',
        "passing_game_move_seconds_bucket and the-longest-kebab-case-name-of-all",
        "sha256 " + "ab" * 32,
        "digest " + "0123456789ABCDEF" * 4,
        "a session for Ana, sessions: 3",
        "the cookie jar",
        "Antidisestablishmentarianism is long but not 32 letters",
    ):
        assert redact(text) == text, text


#: Pieces of log lines, secret and not, that a line may be made of.
PIECES = (
    "< cookie: pg_session=",
    "> Set-Cookie: pg_csrf=",
    "('cookie', '",
    "(b'x-csrf-token', b'",
    '{"password": "',
    '\\"token\\": \\"',
    "?invite=",
    "postgresql://game:pw@db/x",
    "'",
    '"',
    "\\",
    "; ",
    ", ",
    " ",
    "=",
    ": ",
    "[redacted]",
    "ABC234",
    "word",
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=6), max_size=12), st.integers(24, 48))
def test_redact_is_idempotent_and_a_planted_token_never_survives(
    pieces: list[str], size: int
) -> None:
    """A line may be redacted twice (by the filter, then by the text formatter)."""
    token = secrets.token_urlsafe(size)
    line = " ".join(pieces) + f" {token} " + "".join(pieces)
    once = redact(line)
    assert redact(once) == once
    assert token not in once


# -- the filter and the configuration ------------------------------------------------


def test_the_filter_redacts_extras_inside_dicts_and_lists() -> None:
    token = secrets.token_urlsafe(24)
    record = logging.makeLogRecord({"name": "uvicorn.error", "msg": "handshake", "args": None})
    record.headers = [("cookie", f"pg_session={token}"), ("host", "x")]
    record.frame = {"type": "joined", "token": token, "seat": 0, "more": [{"invite": "abc"}]}
    assert RedactSecrets().filter(record)
    assert record.headers == [("cookie", REDACTED), ("host", "x")]
    assert record.frame == {
        "type": "joined",
        "token": REDACTED,
        "seat": 0,
        "more": [{"invite": REDACTED}],
    }
    line = JsonLogFormatter().format(record)
    assert token not in line and json.loads(line)["frame"]["seat"] == 0


def test_uvicorns_trace_level_is_a_level_the_configuration_knows() -> None:
    """``--log-level trace`` (uvicorn's level 5, below DEBUG) is given as a
    number: by its name, ``dictConfig`` failed (``Unable to configure logger
    'uvicorn'``) and the server did not start; the json-trace run below serves."""
    config = logging_config("json", "trace")
    assert config["root"]["level"] == 5 and config["loggers"]["uvicorn"]["level"] == 5
    assert logging_config("text", "debug")["root"]["level"] == "DEBUG"


# -- a real server's log, at DEBUG and TRACE --------------------------------------------


class Browser:
    """One person's cookie jar against one server process (as a browser keeps
    it), and every secret value it was given: cookies, CSRF tokens."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        #: A secret value, and what it was (``pg_session``, ``csrf``...).
        self.seen: dict[str, str] = {}

    def cookies(self) -> dict[str, str]:
        return {c.name: str(c.value) for c in self.jar}

    def _remember(self, answer: Any) -> Any:
        for name, value in self.cookies().items():
            if name != "pg_lang":
                self.seen.setdefault(value, name)
        if isinstance(answer, dict) and answer.get("csrf"):
            self.seen.setdefault(answer["csrf"], "csrf")
        return answer

    def open(self, path: str) -> bytes:
        with self.opener.open(self.server.url(path), timeout=10) as response:
            body: bytes = response.read()
        self._remember(None)
        return body

    def csrf(self) -> str:
        token: str = self._remember(json.loads(self.open("/api/account")))["csrf"]
        return token

    def post(self, path: str, body: dict[str, Any]) -> Any:
        """POST ``body`` with the page's CSRF token in ``X-CSRF-Token``."""
        request = urllib.request.Request(
            self.server.url(path),
            data=json.dumps(body).encode(),
            headers={"X-CSRF-Token": self.csrf(), "Content-Type": "application/json"},
            method="POST",
        )
        with self.opener.open(request, timeout=30) as response:
            return self._remember(json.load(response))


def receive(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = json.loads(ws.recv(timeout=30))
        assert frame["type"] != "error", frame
        if frame["type"] == kind:
            return frame


#: (log format, log level): both formats at DEBUG, and uvicorn's TRACE once.
MODES = [("text", "debug"), ("json", "debug"), ("json", "trace")]


@pytest.fixture(scope="module", params=MODES, ids=["-".join(mode) for mode in MODES])
def played(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """A real server with ``--log-format F --log-level L`` through a person's
    sign-up, sign-in, socket, table, resume and invitation link; its log and
    every secret value that went over the wire."""
    log_format, level = request.param
    connect = require_module("websockets.sync.client").connect
    work = tmp_path_factory.mktemp(f"redaction-{log_format}-{level}")
    port = free_port()
    server = Server(
        work / "web.sqlite3", port, work, extra=("--log-level", level, "--log-format", log_format)
    )
    password = f"correct horse {secrets.token_hex(6)} staple"
    web = Browser(server)
    try:
        with time_limit(120):
            name = f"Ana{secrets.token_hex(3)}"
            web.post("/api/account/signup", {"name": name, "password": password})
            signed_up = web.cookies()["pg_session"]
            web.post("/api/account/signin", {"name": name, "password": password})
            assert web.cookies()["pg_session"] != signed_up  # a new session at sign-in
            cookies = web.cookies()
            # A known device's cookie, as a browser sends it back (secrets.token_urlsafe(32)).
            cookies.setdefault("pg_device", secrets.token_urlsafe(32))
            web.seen.setdefault(cookies["pg_device"], "pg_device")
            headers = {
                "Cookie": "; ".join(f"{key}={value}" for key, value in cookies.items()),
                "X-CSRF-Token": web.csrf(),
            }
            url = f"ws://127.0.0.1:{port}/ws"
            with connect(url, proxy=None, open_timeout=10, additional_headers=headers) as ws:
                create = {"type": "create", "name": "Ana", "seats": ["you", "person"]}
                ws.send(json.dumps({**create, "rules": {"players": 2}}))
                joined = receive(ws, "joined")
                web.seen[joined["token"]] = "seat token"
                receive(ws, "state")
                code = joined["table"]
                resume = {"type": "resume", "code": code, "seat": 0, "token": joined["token"]}
                with connect(url, proxy=None, open_timeout=10, additional_headers=headers) as again:
                    again.send(json.dumps(resume))  # the page reloaded: the seat token resumes
                    assert receive(again, "joined")["seat"] == 0
            invitation = secrets.token_urlsafe(24)
            web.seen[invitation] = "invitation"
            web.open(f"/t/{code}?invite={invitation}")  # an invitation link, opened
            web.post("/api/account/signout", {})
            time.sleep(0.3)  # the last lines reach the log
    finally:
        server.stop()
    web.seen[password] = "password"
    return {
        "format": log_format,
        "level": level,
        "code": code,
        "secrets": web.seen,
        "text": server.log_path.read_text(errors="replace"),
    }


def test_no_secret_a_person_sent_or_got_is_in_the_log(played: dict[str, Any]) -> None:
    """Issue 22, point 7: the session ids, the CSRF token, the known device, the
    seat token, the invitation and the password: not one, nor a piece of one."""
    text = played["text"]
    kinds = set(played["secrets"].values())
    assert {"pg_session", "pg_csrf", "pg_device", "seat token", "invitation", "password"} <= kinds
    for secret, what in played["secrets"].items():
        assert len(secret) >= 24, what
        assert secret not in text, f"the {what} is in the log"
        for start in range(len(secret) - 11):
            assert secret[start : start + 12] not in text, f"a piece of the {what} is in the log"


def test_the_log_tells_the_handshake_and_the_requests(played: dict[str, Any]) -> None:
    """The debug lines were written, redacted rather than dropped: the
    handshake's request line and its cookie header, the invitation link's
    access line; in JSON, every line is still one object."""
    text = played["text"]
    if played["format"] == "json":
        messages = [json.loads(line)["message"] for line in text.splitlines() if line.strip()]
    else:
        messages = text.splitlines()
    joined = "\n".join(messages)
    assert "< GET /ws HTTP/1.1" in joined
    assert f"< cookie: {REDACTED}" in joined
    assert f"< x-csrf-token: {REDACTED}" in joined
    assert f"GET /t/{played['code']}?invite={REDACTED} HTTP/1.1" in joined
    assert "POST /api/account/signin HTTP/1.1" in joined
    if played["level"] == "trace":
        assert "ASGI [" in joined and "'query_string': b'invite=[redacted]'" in joined
