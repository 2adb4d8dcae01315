"""The server seen from outside (issue 12, items 7 and 8): metrics, logs, health.

- ``Metrics``: one process's Prometheus metrics in a registry of its own
  (one per app, so that tests can make several), served at ``GET /metrics``.
- ``logging_config``: every log line of the process, the server's and
  uvicorn's, through one formatter: ``text`` (the default of ``make play``)
  or ``json``, one object per line with ``time``, ``level``, ``logger``,
  ``message``, ``process`` (``host:pid``) and, when the call gives them
  (``extra={"table": code, "event": "move"}``), ``table`` and ``event``.
- ``RedactSecrets``: the last line of defence: a log line never carries a
  seat token, an invitation, a password, a session, CSRF or device cookie,
  at any level (``redact``; issue 22, point 7: the WebSocket handshake's
  headers that uvicorn logs at DEBUG).
- ``Health``: what ``GET /healthz`` says: does the store answer, does the bus.

Metric names and log lines are for operators, not players: they are not
translated.
"""

from __future__ import annotations

import asyncio
import datetime
import inspect
import logging
import math
import os
import re
import socket
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
from pythonjsonlogger.json import JsonFormatter

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
        for by in MOVERS:
            self.moves.labels(by=by)  # every series from 0, not from its first move
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
        self.moves.labels(by=by if by in MOVERS else "other").inc()

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


# -- logs ------------------------------------------------------------------------

REDACTED = "[redacted]"

#: The words in the names a secret goes by: seat tokens and ``X-CSRF-Token``,
#: invitations, passwords, the ``pg_session``, ``pg_csrf``, ``pg_device`` cookies.
_SECRET_WORDS = r"token|invite|password|passwd|secret|csrf|pg_session|session_?id|pg_device"
#: A name with one of those words in it, taken whole (possessive: a long word
#: costs one pass, not a backtracking search).
_SECRET_NAMES = rf"(?=[\w-]*?(?:{_SECRET_WORDS}))[\w-]++"
#: Headers whose whole value is a secret: cookies, credentials.
_SECRET_HEADERS = r"(?:set-)?cookie2?|(?:proxy-)?authorization"
#: A quoted value, from its opening quote (``"``, ``'``, or ``\"`` in an escaped
#: string: group ``q``) to the matching one or the end of the line.
_QUOTED = r"(?P<q>\\?[\"'])(?:(?!(?P=q))(?:\\.|[^\r\n\\]))+"

#: Anything shaped like a token of this site (``secrets.token_urlsafe(24)`` for
#: seats, invitations and CSRF, ``(32)`` for sessions and known devices): 32 to
#: 64 characters of the URL-safe alphabet (but not ``_ORDINARY`` ones).
TOKEN_SHAPE = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,64}(?![A-Za-z0-9_-])")
#: What has a token's length and alphabet but is no token: a SHA-256 in hex
#: (what the store keeps of a session or a device, ``hash_secret``), or lowercase
#: words joined by ``_`` or ``-`` (a metric, a function). Shorter hex is redacted:
#: the CSRF token of a session is 48 hex digits of an HMAC (``csrf_for``). A
#: random token is one of these once in 10¹¹ or less.
_ORDINARY = re.compile(r"[0-9a-f]{64}|[0-9A-F]{64}|[a-z]+(?:[_-][a-z]+)+")
#: A value given under a secret's name: ``invite=…``, ``"token": "…"``,
#: ``pg_session=…``, ``"password": "two words"`` (quoted: up to its quote).
KEYED_SECRET = re.compile(
    rf"""(?ix)
    (?P<key>\b{_SECRET_NAMES}\\?["']?[ \t]*[:=][ \t]*)  # the name, = or :
    (?:{_QUOTED}                                        # a quoted value
      |(?!\[redacted\])[^\s"'&,;(){{}}\[\]\\]+)         # or a bare one, once
    """
)
#: A header line, or a dict's entry: ``< cookie: a=…; b=…`` as ``websockets``
#: logs a handshake at DEBUG, ``'Set-Cookie': '…'``: the whole value.
SECRET_HEADER = re.compile(
    rf"""(?ix)
    (?P<key>\b(?:{_SECRET_HEADERS})\\?["']?[ \t]*[:=][ \t]*)  # the name, = or :
    (?:{_QUOTED}                                              # a quoted value
      |(?!\[redacted\])[^\s"'\\][^\r\n"'\\]*)                  # or the rest of the line
    """
)
#: A header (or form field) as a pair in a list's repr: ``('cookie', '…')``,
#: ``(b'x-csrf-token', b'…')`` (h11's, Starlette's, websockets' ``Headers``).
SECRET_PAIR = re.compile(
    rf"""(?ix)
    (?P<key>[(\[][ \t]*b?(?P<n>["'])(?:{_SECRET_HEADERS}|{_SECRET_NAMES})(?P=n)
     [ \t]*,[ \t]*b?)                                         # the name, a comma
    {_QUOTED}                                                 # the quoted value
    """
)
#: The password in a URL: ``postgresql://user:PASSWORD@host/db``.
URL_PASSWORD = re.compile(r"(://[^/\s:@]*:)[^@\s/]+(@)")
#: What a line names a secret by, in lowercase: a line with none of these
#: (most lines) is only looked at for frames and token shapes.
_NAME_HINTS = ("token", "invite", "passw", "secret", "csrf", "session", "device")
_HINTS = (*_NAME_HINTS, "cookie", "authoriz", "://")
#: A WebSocket frame as the ``websockets`` library logs it at DEBUG
#: (``< TEXT '{"type": "resume", ...}' [95 bytes]``): its beginning and end are
#: shown, cut anywhere, so that a token's tail escapes the patterns above. A
#: frame's content (tokens, invitations, a player's hand) is never logged.
WS_FRAME = re.compile(r"^([<>] (?:TEXT|BINARY|CONT) ).*?( \[[^\[\]]*\bbytes?\b[^\[\]]*\])$", re.S)


def _hidden_value(match: re.Match[str]) -> str:
    """A secret's name and opening quote, kept; its value, redacted."""
    return match["key"] + (match["q"] or "") + REDACTED


def _token(match: re.Match[str]) -> str:
    """A token's shape, redacted unless it is an ordinary word or a digest."""
    return match[0] if _ORDINARY.fullmatch(match[0]) else REDACTED


def redact(text: str) -> str:
    """``text`` with every secret in it replaced by ``[redacted]``.

    >>> redact("GET /t/ABC234?invite=Xy_3-abcdefghijklmnopqrstuvwxyz01&lang=gl")
    'GET /t/ABC234?invite=[redacted]&lang=gl'
    >>> redact('{"type": "resume", "token": "abc"}, seat 2')
    '{"type": "resume", "token": "[redacted]"}, seat 2'
    >>> redact("postgresql://game:hunter2@db/passing_game")
    'postgresql://game:[redacted]@db/passing_game'
    >>> redact("seat 1 taken by invitation at table ABC234")
    'seat 1 taken by invitation at table ABC234'
    >>> redact(redact("token=abc")) == redact("token=abc")  # a line may pass twice
    True
    >>> redact("> TEXT '{type: joined, st...k9KCkHAb8RUGEFuXv9pop}' [115 bytes]")
    '> TEXT [content not logged] [115 bytes]'

    The handshake's cookies (``websockets`` at DEBUG), a header list, a body:

    >>> redact("< cookie: pg_csrf=abc; pg_session=def; pg_lang=gl")
    '< cookie: [redacted]'
    >>> redact("Headers([('Cookie', 'pg_session=def'), ('X-CSRF-Token', 'abc')])")
    "Headers([('Cookie', '[redacted]'), ('X-CSRF-Token', '[redacted]')])"
    >>> redact('{"name": "Ana", "password": "correct horse battery"}')
    '{"name": "Ana", "password": "[redacted]"}'
    >>> redact("session 0QuYzBL1t5wS3Oq1Tz2vhFYYvjnJk4I-BB2sMTbJ3_8 expired")
    'session [redacted] expired'
    >>> redact("passing_game_move_seconds_bucket sha256 " + "0f" * 32)[-12:]
    '0f0f0f0f0f0f'
    """
    text = WS_FRAME.sub(r"\1[content not logged]\2", text)
    lower = text.lower()
    if any(hint in lower for hint in _HINTS):
        text = SECRET_HEADER.sub(_hidden_value, text)
        text = SECRET_PAIR.sub(_hidden_value, text)
        text = KEYED_SECRET.sub(_hidden_value, text)
        text = URL_PASSWORD.sub(lambda m: m.group(1) + REDACTED + m.group(2), text)
    return TOKEN_SHAPE.sub(_token, text)


#: A ``LogRecord``'s own attributes: anything else on a record came with ``extra=``.
_RECORD_ATTRS = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}
#: Extras that are not for the JSON line (uvicorn's colored copy of its message).
_SKIPPED_EXTRAS = frozenset({"color_message"})
_SECRET_NAME = re.compile(rf"(?i){_SECRET_NAMES}")
_SECRET_PAIR_NAME = re.compile(rf"(?i){_SECRET_HEADERS}|{_SECRET_NAMES}")


class RedactSecrets(logging.Filter):
    """Removes secrets from a record's message, its arguments and its extras.

    The message is redacted once rendered (``getMessage``), so that a secret
    split between the format and its arguments is caught too and a format's
    placeholders are never broken; a record with nothing to hide keeps its
    ``msg`` and ``args``. Formatters redact tracebacks (``formatException``).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format: logging reports it itself
            message = None
        if message is not None:
            hidden = redact(message)
            if hidden != message:
                record.msg, record.args = hidden, None
        for key, value in list(vars(record).items()):
            if key not in _RECORD_ATTRS:
                setattr(record, key, _redacted(key, value))
        return True


def _redacted(key: object, value: Any) -> Any:
    """An extra without its secrets: a secret's name hides its whole value; in
    dicts, lists and tuples (which the JSON line shows whole) every item is
    redacted the same way; a string is ``redact``-ed."""
    if isinstance(key, str) and _SECRET_NAME.search(key):
        return REDACTED
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: _redacted(k, v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        items = [_redacted(None, item) for item in value]
        if len(items) == 2 and isinstance(value[0], str) and _SECRET_PAIR_NAME.fullmatch(value[0]):
            items[1] = REDACTED  # a header: ("cookie", "pg_session=…")
        return items if isinstance(value, list) else tuple(items)
    return value


_process_id: tuple[int, str] | None = None


def process_id() -> str:
    """This process in a log line: ``host:pid``."""
    global _process_id
    pid = os.getpid()
    if _process_id is None or _process_id[0] != pid:
        _process_id = (pid, f"{socket.gethostname()}:{pid}")
    return _process_id[1]


class JsonLogFormatter(JsonFormatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``,
    ``message``, ``process``, then ``table`` and ``event`` and any other
    ``extra=`` the call gave, and ``exc_info`` for a traceback (redacted)."""

    def __init__(self) -> None:
        super().__init__(json_ensure_ascii=False)

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        log_data["time"] = datetime.datetime.fromtimestamp(
            record.created, tz=datetime.UTC
        ).isoformat(timespec="milliseconds")
        log_data["level"] = record.levelname
        log_data["logger"] = record.name
        log_data["message"] = record.message
        log_data["process"] = process_id()
        for key in ("table", "event"):
            if key in record.__dict__:
                log_data[key] = record.__dict__[key]
        for key, value in record.__dict__.items():
            skipped = key in _RECORD_ATTRS or key in _SKIPPED_EXTRAS or key.startswith("_")
            if not skipped and key not in log_data:
                log_data[key] = value
        log_data.update(message_dict)  # exc_info, stack_info

    def formatException(self, ei: Any) -> str:
        return redact(logging.Formatter.formatException(self, ei))

    def formatStack(self, stack_info: str) -> str:
        return redact(logging.Formatter.formatStack(self, stack_info))


class TextLogFormatter(logging.Formatter):
    """``LEVEL logger: message``, as ``make play`` always printed it, with
    ``table CODE:`` before the message of a call that gave ``extra={"table": ...}``;
    redacted whole (a traceback too)."""

    def __init__(self) -> None:
        super().__init__("%(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        table = record.__dict__.get("table")
        if table:
            head = f"{record.levelname} {record.name}: "
            if text.startswith(head):
                text = f"{head}table {table}: {text[len(head) :]}"
        return redact(text)


LOG_FORMATS = ("text", "json")
#: uvicorn's level below DEBUG (``--log-level trace``): the ASGI messages. It is
#: named only once uvicorn starts, after logging is configured: given as a number.
TRACE = 5


def logging_config(log_format: str = "text", level: str = "info") -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for the server: one handler on standard
    error, every logger through it (uvicorn's error and access logs too), the
    formatter ``log_format`` and the ``RedactSecrets`` filter."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"log format {log_format!r}: one of {', '.join(LOG_FORMATS)}")
    formatter = JsonLogFormatter if log_format == "json" else TextLogFormatter
    level = level.upper()
    threshold: int | str = TRACE if level == "TRACE" else level
    through_root = {"handlers": [], "propagate": True}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"redact": {"()": RedactSecrets}},
        "formatters": {"default": {"()": formatter}},
        "handlers": {
            "default": {
                "class": "logging.StreamHandler",
                "formatter": "default",
                "filters": ["redact"],
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["default"], "level": threshold},
        "loggers": {
            "uvicorn": {**through_root, "level": threshold},
            "uvicorn.error": {**through_root, "level": threshold},
            "uvicorn.access": {**through_root, "level": threshold},
        },
    }


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
