"""A bot's socket on this process: its lines read and carried out, its games (P62).

Once open (``api.bot_socket``), the bot says ``hello`` (docs/BOTS.md) and the
site answers ``welcome``; then every line is read by
``bots.protocol.read_bot_line``, and anything it refuses (not JSON, too long,
an unknown type, a field that is wrong) gets an ``error`` line saying what,
and changes nothing. A game's line goes to the table's relay
(``relay.GameRelay``); a challenge's answer and quick play to the process's
hub (``hub.BotHub``). Nothing a bot sends ends the socket but its own end,
a new socket of the same bot (on any process), or what the store says of the
bot (``closed``, with the reason: ``CLOSED_WORDS``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from passing_game.bots import protocol
from passing_game.bots.protocol import AnswerError
from passing_game.web.botapi.relay import GameRelay
from passing_game.web.protocol import Intent, RateLimit
from passing_game.web.store.bots import BotRow
from passing_game.web.table.conn import Conn

if TYPE_CHECKING:
    from passing_game.web.lobby import Lobby

log = logging.getLogger("passing_game.web")

#: Why the site closes a bot's socket (``closed`` lines), in the words a program reads.
CLOSED_WORDS = {
    "revoked": "this bot's token was revoked or replaced: ask its owner for the new one",
    "suspended": "this bot account may not play now: it or its owner is suspended",
    "deleted": "this bot account was deleted",
    "replaced": "another connection of this bot took over",
    "server": "the server is stopping: connect again in a moment",
}


class Hub(Protocol):
    """What a bot's socket asks of its process's hub (``hub.BotHub``)."""

    @property
    def lobby(self) -> Lobby: ...

    @property
    def lobby_rate(self) -> tuple[float, float]: ...

    def poke(self) -> None: ...

    def online(self, conn: Conn, on: bool) -> None: ...

    async def answer_challenge(self, link: BotLink, challenge: str, accept: bool) -> None: ...


class BotLink:
    """One bot's socket on this process: its lines in and out, the tables it plays at."""

    def __init__(
        self,
        hub: Hub,
        bot: BotRow,
        nonce: str,
        send: Callable[[str], Awaitable[None]],
        language: str,
    ) -> None:
        self.hub = hub
        self.bot = bot
        self.nonce = nonce
        self.token_hash = bot.token_hash
        self.wire = Conn(send)
        self.wire.user_id, self.wire.user_name = bot.id, bot.name
        self.language = language
        #: Lines a second the bot may send, and its burst: a page's (``--rate-limit``).
        self.limit = RateLimit(*hub.lobby_rate)
        #: The bot said hello; whether it asked for the view as text too.
        self.hello = False
        self.text = False
        self.games: dict[str, GameRelay] = {}
        self.attaching: set[str] = set()
        #: The challenges told to the bot, still open.
        self.offered: set[str] = set()
        #: Quick play: the game sought (players, rated), and the queue's ticket.
        self.seek: tuple[int, bool] | None = None
        self.ticket: Any = None
        self.closed = False
        self._last_rate_error = -1.0

    @property
    def lobby(self) -> Lobby:
        return self.hub.lobby

    def send(self, line: dict[str, Any]) -> None:
        self.wire.push(line)

    def online(self, conn: Conn, on: bool) -> None:
        self.hub.online(conn, on)

    def close(self, code: str) -> None:
        """The site ends the socket, saying why (``CLOSED_WORDS``)."""
        if self.closed:
            return
        self.send({"type": "closed", "code": code, "message": CLOSED_WORDS.get(code, code)})
        self.stop()

    def stop(self) -> None:
        """Stand up from every table (the seats stay the bot's) and end the socket."""
        self.closed = True
        for relay in list(self.games.values()):
            relay.close()
        self.games.clear()
        self.wire.close()

    def lost(self, relay: GameRelay, why: str) -> None:
        """The bot's seat at a table is not its own any more (handed over, refused)."""
        if self.games.get(relay.code) is relay:
            del self.games[relay.code]
        relay.close()
        self.send(protocol.site_error("seat-lost", why[:200], table=relay.code))

    async def attach(self, code: str, seat: int) -> None:
        """Sit at the bot's seat at table ``code`` (a challenge accepted, quick play, a
        game the bot had before this socket)."""
        if self.closed or code in self.games or code in self.attaching:
            return
        self.attaching.add(code)
        relay = GameRelay(self, code, seat)
        self.games[code] = relay
        try:
            await relay.attach()
        except Exception as exc:
            if self.games.get(code) is relay:
                del self.games[code]
            relay.close()
            log.warning("a bot could not sit at its seat: %s", exc, extra={"table": code})
        finally:
            self.attaching.discard(code)

    # -- the bot's lines ---------------------------------------------------------------

    async def line(self, text: str | bytes) -> None:
        """One line of the bot: read, then carried out; anything wrong an ``error`` line."""
        try:
            kind, message = protocol.read_bot_line(text)
        except AnswerError as exc:
            self.send(protocol.site_error("bad-line", str(exc)))
            return
        if kind == "hello":
            self.hello, self.text = True, message.get("text") is True
            self.send(protocol.welcome(self.bot.name, self.bot.owner, sorted(self.games)))
            self.hub.poke()
            return
        if not self.hello:
            self.send(protocol.site_error("hello-first", 'say hello first: {"type": "hello", ...}'))
            return
        if kind == "answer":
            self._answer(message)
        elif kind in ("accept", "decline"):
            await self.hub.answer_challenge(self, str(message["challenge"]), kind == "accept")
        elif kind == "seek":
            self.seek = (int(message["players"]), bool(message["rated"]))
            self.send({"type": "seeking", "players": self.seek[0], "rated": self.seek[1]})
            self.hub.poke()
        elif kind == "seek_off":
            self.seek = None
            self.send({"type": "seeking", "players": None, "rated": None})
            self.hub.poke()
        else:  # rematch, resign: the table's own intents, for the bot's seat
            relay = self._relay(message.get("table"))
            if relay is not None:
                await relay.act(Intent(kind))

    def _relay(self, code: Any) -> GameRelay | None:
        if code is None and len(self.games) == 1:
            return next(iter(self.games.values()))
        relay = self.games.get(code) if isinstance(code, str) else None
        if relay is None:
            said = "name the table (table)" if code is None else f"you play at no table {code}"
            self.send(protocol.site_error("no-table", said, table=code))
        return relay

    def _answer(self, message: dict[str, Any]) -> None:
        relay = self._relay(message.get("table"))
        if relay is not None:
            relay.answer(message)

    def rate_error_due(self, now: float) -> bool:
        if now - self._last_rate_error >= 1.0:
            self._last_rate_error = now
            return True
        return False


__all__ = ["CLOSED_WORDS", "BotLink", "Hub"]
