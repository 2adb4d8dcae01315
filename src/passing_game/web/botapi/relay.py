"""One table a bot account plays at: its seat's frames in, the protocol's lines out (P62).

The bot's seat is a person's seat (kind ``human``, the bot's account), and
this process sits at it the way a page does: a ``Conn`` resumed at the seat
(``intents.handle``'s ``resume``, the account's own seat taken back without a
token), wherever the table is led. Its frames are the seat's frames, made from
``Match.view(seat)`` only; each one is a cue to look at the table this process
holds (the leader, or a replica that follows it) and to tell the bot what it
has not been told: the game's ``start``, each round's ``round_end``, the
``decision`` open for its seat (``bots.protocol.decision`` from the seat's
``View`` alone), the ``game_end``. The bot's move goes back as the page's
would (``play``, ``draw``, ``pass`` through ``Lobby.lead``), so the table's
own rules hold: its clock, its stand-ins, a late move refused as stale.

What a page would do for the person and a program cannot, the relay does:
it closes the round's summary (``continue``), adds a random part to a deal
that waits for one (``contribute``, P51: a program has no browser), and takes
the seat back when a stand-in plays it while the bot is connected (``back``).
An answer that is not a move, or not a legal one, gets an error line naming
what is wrong, and the decision stays open.
"""

from __future__ import annotations

import logging
import secrets
import time
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from passing_game.bots import protocol
from passing_game.bots.protocol import AnswerError
from passing_game.bots.text import view_text
from passing_game.i18n import using_language
from passing_game.moves import Draw, Pass
from passing_game.web import intents
from passing_game.web.botapi.model import Decision, decision_id, legal_words
from passing_game.web.protocol import Intent, ProtocolError
from passing_game.web.table.conn import Conn
from passing_game.web.table.frames import seat_names

if TYPE_CHECKING:
    from passing_game.web.lobby import Lobby
    from passing_game.web.store.bots import BotRow
    from passing_game.web.table.runner import Table

log = logging.getLogger("passing_game.web")

#: Seat states in which a stand-in plays for a connected bot: it takes the seat back.
TAKE_BACK = ("offline", "timeout")


class Holder(Protocol):
    """What a relay asks of its bot's socket (``link.BotLink``)."""

    bot: BotRow
    language: str
    #: The bot asked for the view as text in its decisions.
    text: bool
    closed: bool

    @property
    def lobby(self) -> Lobby: ...

    def send(self, line: dict[str, Any]) -> None: ...

    def lost(self, relay: GameRelay, why: str) -> None: ...

    def online(self, conn: Conn, on: bool) -> None: ...


class GameRelay:
    """The bot's seat at one table, through a connection of this process."""

    def __init__(self, link: Holder, code: str, seat: int) -> None:
        self.link, self.code, self.seat = link, code, seat
        self.conn = Conn(self._on_text)
        self.conn.user_id, self.conn.user_name = link.bot.id, link.bot.name
        self.conn.language = link.language
        self.table: Table | None = None
        #: The game told to the bot (its ``start`` sent), and how far.
        self.game: int | None = None
        self.results = 0
        self.ended_at: float | None = None
        self.scores: tuple[int, ...] = ()
        #: The decision open for the bot, and the last one it answered (game, id).
        self.open: Decision | None = None
        self.answered: tuple[int, int] | None = None
        self.answering = False
        #: What was done once for the bot (closing a summary, a deal's part...).
        self.done: set[tuple[Any, ...]] = set()
        self.closed = False

    # -- sitting down, leaving ----------------------------------------------------

    async def attach(self) -> None:
        """Sit at the seat, as the account's own page would (``resume`` without a token)."""
        lobby = self.link.lobby
        self.table = await lobby.need(self.code)
        lobby.spawn(self.conn.run())
        self.link.online(self.conn, True)
        await intents.handle(
            lobby, self.conn, Intent("resume", {"code": self.code, "seat": self.seat})
        )

    def close(self) -> None:
        """Stand up (the seat stays the bot's: a stand-in plays after the offline grace)."""
        if self.closed:
            return
        self.closed = True
        self.link.online(self.conn, False)
        if self.conn.table is not None:
            self.conn.table.detach(self.conn)
        self.conn.close()

    # -- the seat's frames ---------------------------------------------------------

    async def _on_text(self, text: str) -> None:
        """One frame the table sent the seat (the connection's pump, in order)."""
        if self.closed:
            return
        try:
            frame = orjson.loads(text)
            kind = frame.get("type")
            if kind == "state":
                self._state(frame)
            elif kind in ("left", "signed_out") or frame.get("code") in ("bad-token", "suspended"):
                self.link.lost(self, str(frame.get("message") or kind))
        except Exception:  # a frame the relay cannot read must not end the bot's games
            log.exception("could not relay a frame to a bot", extra={"table": self.code})

    def _state(self, frame: dict[str, Any]) -> None:
        table = self.table
        if table is None or frame.get("you") != self.seat:
            return
        game = int(frame["game"])
        if game != self.game:
            self._new_game(table, game)
        self.scores = tuple(int(s) for s in frame.get("scores") or ())
        if table.game != game:
            return  # the table has moved on since this frame: a newer one comes
        match = table.match
        for result in match.results[self.results :]:
            self._send(
                protocol.round_end(
                    result.points_by_side(), result.side_pips, result.winner, result.reason
                )
            )
        self.results = len(match.results)
        if match.is_over:
            self.open = None
            if self.ended_at is None:
                self.ended_at = time.monotonic()
                self._send(protocol.game_end(tuple(match.scores), match.winner))
        else:
            self._decide(frame, table)
        self._chores(frame, game)

    def _new_game(self, table: Table, game: int) -> None:
        """A game the bot was not told of: its end first if it missed it, then its start."""
        if self.game is not None and self.ended_at is None:
            self._send(protocol.game_end(self.scores, None))
        self.game, self.ended_at, self.open = game, None, None
        self.results = len(table.match.results) if table.game == game else 0
        with using_language(self.conn.language):
            names = seat_names([s.row for s in table.seats])
        self._send(protocol.start(table.rules, self.seat, names, game))

    def _decide(self, frame: dict[str, Any], table: Table) -> None:
        """The decision the frame opens for the seat, from its ``View`` alone (R9)."""
        match = table.match
        asked = frame["round"]["legal"]
        if not asked or table.dealing is not None or match.to_move != self.seat:
            self.open = None
            return
        view = match.view(self.seat)
        legal = tuple(view.legal_moves())
        if [str(m) for m in legal] != asked:
            return  # the frame is older than the table: a newer one comes
        assert self.game is not None
        ident = decision_id(match, self.seat)
        key = (self.game, ident)
        if key == self.answered or (self.open is not None and self.open.ident == ident):
            return
        self.open = Decision(self.game, ident, legal)
        text = view_text(view) if self.link.text else None
        self._send(protocol.decision(view, ident, text=text))

    def _chores(self, frame: dict[str, Any], game: int) -> None:
        """What a page does for its person and a program cannot."""
        seat = frame["seats"][self.seat]
        if self.seat in (frame.get("waiting") or ()):
            self._once(("continue", game, self.results), Intent("continue"))
        dealing = frame.get("dealing")
        if dealing and dealing.get("give"):
            part = secrets.token_hex(16)
            self._once(("contribute", game), Intent("contribute", {"value": part}))
        table = self.table
        if seat.get("away") in TAKE_BACK and not self.link.closed and table is not None:
            self._once(("back", game, len(table.played_by)), Intent("back"))
        offered = frame.get("over") and self.seat in (frame.get("rematch_waiting") or ())
        if offered and ("rematch", game) not in self.done:
            self.done.add(("rematch", game))
            self._send({"type": "rematch"})

    def _once(self, key: tuple[Any, ...], intent: Intent) -> None:
        """A chore done once (its refusal is the table's business, not the bot's)."""
        if key not in self.done:
            self.done.add(key)
            self.link.lobby.spawn(self.act(intent, quiet=True))

    # -- the bot's lines ------------------------------------------------------------

    def answer(self, message: dict[str, Any]) -> None:
        """The bot's answer to its open decision; refused with a sentence, else played."""
        open_now = self.open
        ident = message.get("id")
        if open_now is None:
            self._refuse("not-your-turn", "no decision is open for you at this table", ident)
            return
        if ident is not None and ident != open_now.ident:
            self._refuse(
                "stale", f"decision {ident} is not open; decision {open_now.ident} is", ident
            )
            return
        if self.answering:
            self._refuse("answered", f"decision {open_now.ident} was answered already", ident)
            return
        try:
            move = protocol.move_of(message, list(open_now.legal))
        except AnswerError as exc:
            words = legal_words(open_now.legal)
            self._refuse("nonsense", f"{exc}; the legal moves are {words}", ident)
            return
        if move not in open_now.legal:
            words = legal_words(open_now.legal)
            self._refuse("illegal", f"{move} is not legal now; the legal moves are {words}", ident)
            return
        self.answering = True
        self.link.lobby.spawn(self._play(open_now, move))

    async def _play(self, decision: Decision, move: Any) -> None:
        if isinstance(move, Draw):
            intent = Intent("draw")
        elif isinstance(move, Pass):
            intent = Intent("pass")
        else:
            intent = Intent("play", {"move": str(move)})
        try:
            if await self.act(intent, decision.ident):
                self.answered = (decision.game, decision.ident)
                if self.open is decision:
                    self.open = None
        finally:
            self.answering = False

    async def act(self, intent: Intent, ident: int | None = None, *, quiet: bool = False) -> bool:
        """An intent for the bot's seat, carried out by the table's leader; whether it was
        (a refusal is told to the bot, unless ``quiet``: the relay's own chores)."""
        table = self.table
        if table is None or self.closed or self.conn.seat is None:
            return False
        try:
            with using_language(self.conn.language):
                await self.link.lobby.lead(self.conn, table, intent, {})
        except ProtocolError as exc:
            if quiet:
                log.debug("a bot's %s was refused: %s", intent.type, exc)
            else:
                self._refuse(exc.code or "refused", str(exc), ident)
            return False
        except Exception:
            log.exception("a bot's %s was not carried out", intent.type, extra={"table": self.code})
            self._refuse("server", "the server could not carry that out: try again", ident)
            return False
        return True

    def _refuse(self, code: str, message: str, ident: Any = None) -> None:
        where: dict[str, Any] = {"table": self.code}
        if isinstance(ident, int) and not isinstance(ident, bool):
            where["id"] = ident
        self.link.send(protocol.site_error(code, message, **where))

    def _send(self, line: dict[str, Any]) -> None:
        self.link.send(protocol.on_table(line, self.code))


__all__ = ["TAKE_BACK", "GameRelay"]
