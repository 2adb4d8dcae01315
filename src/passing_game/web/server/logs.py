"""Every log line of a server process through one formatter, secrets redacted.

``logging_config``: the server's lines and uvicorn's, as ``text`` (the
default of ``make play``) or ``json``, one object per line with ``time``,
``level``, ``logger``, ``message``, ``process`` (``host:pid``) and, when the
call gives them (``extra={"table": code, "event": "move"}``), ``table`` and
``event``. ``RedactSecrets`` is the last line of defence: a log line never
carries a seat token, an invitation, a password, a session, CSRF or device
cookie, at any level (``redact``; issue 22, point 7: the WebSocket
handshake's headers that uvicorn logs at DEBUG). Apart from the metrics
(``web/server/observe.py``), which a log line does not need.
"""

from __future__ import annotations

import datetime
import logging
import os
import re
import socket
from typing import Any

from pythonjsonlogger.json import JsonFormatter

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


#: Loggers shown under another name in the text format: uvicorn's general log is
#: called "uvicorn.error" for history, and its lines are not errors.
SHOWN_NAMES = {"uvicorn.error": "uvicorn"}


class TextLogFormatter(logging.Formatter):
    """``LEVEL logger: message``, as ``make play`` always printed it, with
    ``table CODE:`` before the message of a call that gave ``extra={"table": ...}``;
    redacted whole (a traceback too)."""

    def __init__(self) -> None:
        super().__init__("%(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        shown = SHOWN_NAMES.get(record.name)
        if shown is not None:
            record = logging.makeLogRecord({**record.__dict__, "name": shown})
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


__all__ = [
    "LOG_FORMATS",
    "REDACTED",
    "TRACE",
    "JsonLogFormatter",
    "RedactSecrets",
    "TextLogFormatter",
    "logging_config",
    "process_id",
    "redact",
]
