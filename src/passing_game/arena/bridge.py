"""A program in any language plays on the web site: ``passing-game bot connect`` (P62).

The bridge opens the site's bot socket (``WS /bot``) with the bot account's
token and runs the program exactly as the arena runs an outside program
(``arena.outside``: ``cmd:PROGRAM ARGS``, its options, its ``hello``, one
process per seat kept between games, a bad or late answer met by the first
legal move and counted, a late or dead program started again). Between the
two it relays the protocol's lines (``bots.protocol``, docs/BOTS.md): the
site's ``start``, ``decision``, ``round_end`` and ``game_end`` go to the
program as the arena sends them (the site's ``table`` taken off), and the
program's answer goes back with its table and decision. The program sees
nothing of the site but its own seat's lines.

The bridge answers the site's own lines itself: challenges by its rules
(``Accepting``), rematches as challenges, quick play when asked (``seek``).
It plays several games at once with one program per game (``slot``), and
connects again after a lost connection, unless the site said the token or
the account may not play.

The token comes from ``PASSING_GAME_BOT_TOKEN`` or a file, never from the
command line: another user of the machine can read a process's arguments.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import stat
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from passing_game.arena import outside
from passing_game.bots import protocol
from passing_game.i18n import _
from passing_game.moves import Move, parse_move

#: Where the token is read from when no file is given.
TOKEN_ENV = "PASSING_GAME_BOT_TOKEN"
#: Exit statuses: the site refused the bot for good (token, suspension); a bad setup.
REFUSED, SETUP = 3, 2
#: The site's refusals after which connecting again would only be refused again.
FINAL = ("revoked", "suspended", "deleted", "replaced", "bad-token", "no-token", "origin")
#: Seconds between attempts to connect again, growing to the last.
RETRY = (1.0, 2.0, 5.0, 10.0, 30.0)


class BridgeError(ValueError):
    """A setup that cannot work (no token, a bad address); ``str(exc)`` says why."""


def site_address(url: str) -> str:
    """The bot socket of a site given by its address (``http[s]://HOST[:PORT]``), or the
    socket's own address (``ws[s]://.../bot``).

    >>> site_address("http://127.0.0.1:8000"), site_address("https://example.com/")
    ('ws://127.0.0.1:8000/bot', 'wss://example.com/bot')
    >>> site_address("wss://example.com/bot")
    'wss://example.com/bot'
    """
    parts = urlsplit(url.strip())
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None or not parts.netloc:
        raise BridgeError(
            _("{url} is not a site's address like https://example.com").format(url=url)
        )
    path = parts.path if parts.scheme in ("ws", "wss") and parts.path else "/bot"
    return urlunsplit((scheme, parts.netloc, path, "", ""))


def read_token(environ: Mapping[str, str], path: str | None, warn: Callable[[str], None]) -> str:
    """The bot's token: from the file ``path``, else from ``PASSING_GAME_BOT_TOKEN``."""
    if path is not None:
        file = Path(path)
        try:
            text = file.read_text(encoding="utf-8")
            mode = file.stat().st_mode
        except (OSError, UnicodeDecodeError) as exc:
            raise BridgeError(
                _("cannot read the token file {path}: {error}").format(path=path, error=exc)
            ) from None
        if mode & (stat.S_IRGRP | stat.S_IROTH):
            warn(
                _("{path} can be read by other users of this machine: chmod 600 it").format(
                    path=path
                )
            )
    else:
        text = environ.get(TOKEN_ENV, "")
    token = text.strip()
    if not token:
        raise BridgeError(
            _(
                "no token: set {env} or give --token-file (never the token itself on the"
                " command line)"
            ).format(env=TOKEN_ENV)
        )
    if not token.isascii() or not token.isprintable() or " " in token:
        raise BridgeError(_("the token holds characters no token has: check it"))
    return token


@dataclass(frozen=True)
class Accepting:
    """Which challenges (and rematches) the bridge accepts."""

    #: ``any``, ``casual`` (not rated), ``rated`` or ``none``.
    mode: str = "any"
    #: Only from these accounts (names case-folded); empty: from anyone.
    names: frozenset[str] = frozenset()
    players: frozenset[int] = frozenset({2, 3, 4})
    #: The most games played at once.
    most: int = 1

    def refusal(self, challenge: Mapping[str, Any], playing: int) -> str | None:
        """Why a challenge is declined, or ``None`` to accept it.

        >>> rules = Accepting(mode="casual", names=frozenset({"ana"}))
        >>> rules.refusal({"from": "Ana", "players": 2, "rated": False}, 0) is None
        True
        >>> rules.refusal({"from": "Ben", "players": 2, "rated": False}, 0)
        'not from an account on the list'
        """
        if self.mode == "none":
            return _("challenges are not accepted")
        rated = bool(challenge.get("rated"))
        if self.mode == "casual" and rated:
            return _("casual games only")
        if self.mode == "rated" and not rated:
            return _("rated games only")
        if self.names and str(challenge.get("from", "")).casefold() not in self.names:
            return _("not from an account on the list")
        if challenge.get("players") not in self.players:
            return _("not that many players")
        if playing >= self.most:
            return _("playing as many games as it may")
        return None


@dataclass
class Seat:
    """The program playing one table's game, and the lines waiting for it."""

    code: str
    slot: int
    bot: outside.OutsideBot
    lines: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    ended: bool = False
    task: asyncio.Task[None] | None = None


class Bridge:
    """One bot account on the site, its games played by a program."""

    def __init__(
        self,
        url: str,
        token: str,
        spec: str,
        *,
        accepting: Accepting | None = None,
        seek: tuple[int, bool] | None = None,
        move_timeout: float = outside.DEFAULT_TIMEOUT,
        say: Callable[[str], None] | None = None,
        again: bool = True,
    ) -> None:
        self.url = site_address(url)
        self.token = token
        self.argv, options = outside.parse_command(spec)
        self.label = str(options.get("label") or spec)
        self.timeout = float(options.get("timeout", move_timeout))
        self.text = bool(options.get("text", False))
        self.accepting = accepting or Accepting()
        self.seek = seek
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self.again = again
        self.seats: dict[str, Seat] = {}
        self.socket: Any = None
        self.name = self.label

    # -- the program ----------------------------------------------------------------

    def check(self) -> None:
        """Start the program once and read its hello: a bad command fails before the site."""
        try:
            hello = outside.check(self.argv, self.timeout)
        except outside.OutsideError as exc:
            raise BridgeError(str(exc)) from None
        self.text = self.text or hello.get("text") is True
        self.name = str(hello.get("name") or self.label)[:40]

    def _slot(self) -> int:
        taken = {seat.slot for seat in self.seats.values()}
        return next(n for n in range(len(taken) + 1) if n not in taken)

    async def _play(self, seat: Seat) -> None:
        """One table's lines, in order, through its program (in a thread: it blocks)."""
        while (line := await seat.lines.get()) is not None:
            kind = line.get("type")
            if kind == "start":
                await asyncio.to_thread(seat.bot.begin_line, line, seat.slot)
            elif kind == "decision":
                legal = [parse_move(m) for m in line["legal"]]
                move = await asyncio.to_thread(_choose, seat.bot, line, legal)
                await self._send(protocol.answer(seat.code, int(line["id"]), move))
            elif kind in ("round_end", "game_end"):
                await asyncio.to_thread(seat.bot.tell, line)
            if kind == "game_end":
                faults = seat.bot.fault_counts()
                if faults:
                    self.say(outside.fault_line(self.label, dict(faults)))
                self.say(_("game over at table {code}").format(code=seat.code))
                seat.ended = True
                if self.seats.get(seat.code) is seat:
                    del self.seats[seat.code]
                return

    def _to_seat(self, code: str, line: dict[str, Any]) -> None:
        seat = self.seats.get(code)
        if seat is None or (seat.ended and line.get("type") == "start"):
            if line.get("type") != "start":
                return  # a line of a game this bridge never started: the site sends its start
            bot = outside.OutsideBot(self.label, self.argv, timeout=self.timeout, text=self.text)
            seat = self.seats[code] = Seat(code, self._slot(), bot)
            seat.task = asyncio.ensure_future(self._play(seat))
            self.say(_("playing at table {code}").format(code=code))
        seat.lines.put_nowait(line)

    # -- the site -------------------------------------------------------------------------

    async def _send(self, line: dict[str, Any]) -> None:
        if self.socket is not None:
            with contextlib.suppress(Exception):
                await self.socket.send(protocol.dumps(line))

    async def _line(self, line: dict[str, Any]) -> str | None:
        """One line of the site; a reason to stop (``FINAL``), or ``None``."""
        kind, code = line.get("type"), line.pop("table", None)
        if kind in ("start", "decision", "round_end", "game_end") and isinstance(code, str):
            self._to_seat(code, line)
        elif kind == "welcome":
            self.say(
                _("connected as {name} (run by {owner})").format(
                    name=line.get("name"), owner=line.get("owner")
                )
            )
            if self.seek is not None:
                await self._send({"type": "seek", "players": self.seek[0], "rated": self.seek[1]})
        elif kind == "challenge":
            playing = sum(1 for seat in self.seats.values() if not seat.ended)
            why = self.accepting.refusal(line, playing)
            who = line.get("from")
            if why is None:
                self.say(_("challenge from {name}: accepted").format(name=who))
            else:
                self.say(
                    _("challenge from {name}: declined ({reason})").format(name=who, reason=why)
                )
            answer = "accept" if why is None else "decline"
            await self._send({"type": answer, "challenge": line.get("id")})
        elif kind == "rematch" and isinstance(code, str) and self.accepting.mode != "none":
            await self._send({"type": "rematch", "table": code})
        elif kind == "error":
            where = f" [{code}]" if code else ""
            self.say(
                _("the site said{where}: {message}").format(
                    where=where, message=line.get("message")
                )
            )
        elif kind == "closed":
            self.say(
                _("the site closed the connection: {message}").format(message=line.get("message"))
            )
            return str(line.get("code"))
        return None

    async def session(self) -> str | None:
        """One connection, until it ends; why it ended for good (``FINAL``), or ``None``."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidStatus

        headers = {"Authorization": f"Bearer {self.token}"}
        try:
            async with connect(self.url, additional_headers=headers, max_size=1 << 20) as socket:
                self.socket = socket
                hello = {"type": "hello", "protocol": protocol.VERSION, "name": self.name}
                await socket.send(protocol.dumps({**hello, "text": self.text}))
                async for text in socket:
                    try:
                        line = json.loads(text)
                    except ValueError:
                        continue
                    if isinstance(line, dict) and (stop := await self._line(line)) is not None:
                        return stop if stop in FINAL else None
        except InvalidStatus as exc:
            body = exc.response.body or b""
            try:
                said = json.loads(body)
            except ValueError:
                said = {"error": body.decode("utf-8", "replace")[:200], "code": "refused"}
            self.say(_("the site refused the bot: {message}").format(message=said.get("error")))
            return str(said.get("code", "refused"))
        except (TimeoutError, OSError) as exc:
            self.say(_("cannot reach {url}: {error}").format(url=self.url, error=exc))
        except Exception as exc:  # the connection dropped: connect again
            self.say(_("the connection ended: {error}").format(error=type(exc).__name__))
        finally:
            self.socket = None
        return None

    async def run(self) -> int:
        """Play until stopped; the exit status (``REFUSED`` when the site refuses for good)."""
        attempt = 0
        try:
            while True:
                stop = await self.session()
                if stop is not None and (stop in FINAL or not self.again):
                    return REFUSED
                if not self.again:
                    return 0
                delay = RETRY[min(attempt, len(RETRY) - 1)]
                attempt += 1
                self.say(_("connecting again in {n} s").format(n=int(delay)))
                await asyncio.sleep(delay)
        finally:
            for seat in self.seats.values():
                seat.lines.put_nowait(None)
            outside.close_all()


def _choose(bot: outside.OutsideBot, line: dict[str, Any], legal: list[Move]) -> Move:
    """The program's move (its first legal move when it cannot answer)."""
    if bot.program is None or not bot.ready():
        return legal[0]
    return bot.answer(line, legal)


def token_from(path: str | None, warn: Callable[[str], None]) -> str:
    return read_token(os.environ, path, warn)


__all__ = [
    "FINAL",
    "REFUSED",
    "SETUP",
    "TOKEN_ENV",
    "Accepting",
    "Bridge",
    "BridgeError",
    "read_token",
    "site_address",
    "token_from",
]
