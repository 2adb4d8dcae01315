"""The one place a table's bot moves are chosen: the seat's own bot, a stand-in,
a person out of time (``Think``), and the hint adviser.

Every choice runs off the event loop (a thread, or a worker process for the
searching levels) and comes back to the authority as a ``BotMove`` event,
checked like a person's move and dropped if the table moved on meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Mapping
from typing import Any, Protocol

from passing_game import words
from passing_game.bots import Bot
from passing_game.i18n import _
from passing_game.match import Match
from passing_game.moves import Move
from passing_game.views import View
from passing_game.web.game import events
from passing_game.web.game.errors import HINT_ON_YOUR_TURN
from passing_game.web.protocol import ProtocolError
from passing_game.web.table import frames
from passing_game.web.table.botplay import hint_level, make_bot
from passing_game.web.table.conn import Conn

log = logging.getLogger("passing_game.web")


class Played(Protocol):
    """What the bots read and change of their table."""

    @property
    def code(self) -> str: ...

    @property
    def state(self) -> int: ...

    @property
    def seed(self) -> int: ...

    @property
    def seq(self) -> int: ...

    @property
    def match(self) -> Match: ...

    @property
    def playing(self) -> bool: ...

    @property
    def leader(self) -> bool: ...

    #: The table was just taken over from a dead leader: its bot does not wait again.
    taken_over: bool

    async def dispatch(self, event: events.Event) -> Mapping[str, Any]: ...


class Thinker(Protocol):
    """What the bots ask of their process: where a move is chosen, how long a
    bot waits first, and tasks that end when the process closes."""

    @property
    def closing(self) -> bool: ...

    @property
    def bot_delay(self) -> float: ...

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]: ...

    async def think(self, bot: Bot, level: str, seed: int, seat: int, view: View) -> Move: ...


class Autoplay:
    """One table's bots (the leader only) and its hints."""

    def __init__(self, table: Played, host: Thinker) -> None:
        self.table = table
        self.host = host
        #: Move count -> the task choosing a bot's move for that position.
        self._tasks: dict[int, asyncio.Task[None]] = {}
        #: (seat, level) -> the game's bot: one object for the whole game, so
        #: that a bot with a memory plays the same as in a worker process.
        self._bots: dict[tuple[int, str], Bot] = {}

    @property
    def thinking(self) -> bool:
        return any(not task.done() for task in self._tasks.values())

    def thinking_at(self, seq: int) -> bool:
        """Whether a bot's move for the position at move count ``seq`` is being chosen."""
        task = self._tasks.get(seq)
        return task is not None and not task.done()

    def new_game(self) -> None:
        self._bots.clear()

    def forget(self, seat: int) -> None:
        """Who plays ``seat`` changed: its bots are made again when needed."""
        for key in [k for k in self._bots if k[0] == seat]:
            del self._bots[key]

    def bot(self, seat: int, level: str) -> Bot:
        """The game's bot of ``level`` for ``seat`` (seeded by the game's seed and the seat)."""
        found = self._bots.get((seat, level))
        if found is None:
            found = self._bots[(seat, level)] = make_bot(level, self.table.seed, seat)
        return found

    def think(self, want: events.Think) -> None:
        """Start choosing the move ``want`` asks for, unless that is under way."""
        if self.host.closing or self.thinking_at(want.at):
            return
        for seq in [s for s, task in self._tasks.items() if task.done()]:
            del self._tasks[seq]
        self._tasks[want.at] = self.host.spawn(self._think(want))

    def stop(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()

    async def _think(self, want: events.Think) -> None:
        t = self.table
        delay = self.host.bot_delay
        if want.delay and delay > 0 and not t.taken_over:
            await asyncio.sleep(delay)
        t.taken_over = False
        if t.seq != want.at or not t.leader:
            return
        view = t.match.view(want.seat)
        try:
            bot = self.bot(want.seat, want.level)
            move: Move = await self.host.think(bot, want.level, t.seed, want.seat, view)
        except Exception:
            log.exception("bot %s failed; it passes or draws", want.level, extra={"table": t.code})
            move = view.legal_moves()[-1]
        if want.played_by == "timeout":
            log.info(
                "seat %d ran out of time", want.seat, extra={"table": t.code, "event": "timeout"}
            )
        # This choice is done: the move's own step may ask for the next one.
        self._tasks.pop(want.at, None)
        try:
            await t.dispatch(events.BotMove(want.seat, want.at, move, want.played_by))
        except ProtocolError as exc:
            log.error("bot %s chose a refused move: %s", want.level, exc, extra={"table": t.code})

    async def hint(self, conn: Conn) -> None:
        """Advice for ``conn``'s seat, sent to that connection only."""
        t = self.table
        seat = conn.seat
        if conn.hinting or seat is None:
            return
        m = t.match
        if m.is_over or m.round.to_move != seat or not t.playing:
            text = _(HINT_ON_YOUR_TURN)
            conn.push(frames.error_frame(t.state, text, "not-your-turn"))
            return
        view = m.view(seat)
        conn.hinting = True
        try:
            adviser = make_bot(hint_level(), 0, seat)
            explain = getattr(adviser, "explain", None)

            def think() -> tuple[Move, str]:
                if callable(explain):
                    found: tuple[Move, str] = explain(view)
                    return found
                return adviser.choose(view), ""

            move, reason = await asyncio.to_thread(think)
        except Exception:
            log.exception("hint failed", extra={"table": t.code})
            conn.push(frames.error_frame(t.state, _("No hint is available right now."), "no-hint"))
            return
        finally:
            conn.hinting = False
        conn.push(
            {
                "type": "hint",
                "state": t.state,
                "move": str(move),
                # "lead [4|6]" on an empty train, the end named only when it matters (R4.2).
                "text": _("Hint: {move}.").format(move=words.advice_words(move, view.ends)),
                "reason": reason,
            }
        )
