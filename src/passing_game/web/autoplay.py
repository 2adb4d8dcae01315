"""The bots at a table: the seat's own bot or a stand-in plays, and the hint adviser.

A bot's thinking runs off the event loop (a thread or a worker process);
its move is then checked against the table's move count before it is
taken, exactly like a person's (``Table.accept``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from passing_game.i18n import _
from passing_game.moves import Move
from passing_game.web import frames
from passing_game.web.botplay import FAST_BOTS, hint_level, make_bot
from passing_game.web.conn import Conn
from passing_game.web.protocol import ProtocolError

if TYPE_CHECKING:
    from passing_game.web.tables import Table

log = logging.getLogger("passing_game.web")


class Autoplay:
    """One table's bots' loop (the leader only) and its hints."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._task: asyncio.Task[None] | None = None

    @property
    def thinking(self) -> bool:
        return self._task is not None and not self._task.done()

    def bot_to_move(self) -> int | None:
        t = self.table
        m = t.match
        if m.is_over or not t.started or t.paused or not t.leader:
            return None
        seat = m.round.to_move
        if seat is None:
            return None
        held = t.seats[seat]
        return seat if held.kind == "bot" or held.stand_in else None

    def kick(self) -> None:
        """Start the bots' loop if a bot is to move and none is thinking (the leader only)."""
        t = self.table
        if t.lobby.closing or self.bot_to_move() is None:
            return
        if not self.thinking:
            self._task = t.lobby.spawn(self._bots())

    def stop(self) -> None:
        if self.thinking:
            assert self._task is not None
            self._task.cancel()

    async def _bots(self) -> None:
        t = self.table
        while True:
            seat = self.bot_to_move()
            if seat is None:
                return
            seq = t.seq
            if t.lobby.bot_delay > 0 and not t.taken_over:
                await asyncio.sleep(t.lobby.bot_delay)
                if t.seq != seq or self.bot_to_move() != seat:
                    continue
            t.taken_over = False
            bot = t.bots[seat]
            held = t.seats[seat]
            view = t.match.view(seat)
            try:
                if bot.name in FAST_BOTS:
                    move = bot.choose(view)
                else:
                    move = await t.lobby.think(bot, held.bot_level, t.seed, seat, view)
            except Exception:
                log.exception(
                    "bot %s failed; it passes or draws", bot.name, extra={"table": t.code}
                )
                move = view.legal_moves()[-1]
            if t.seq != seq or self.bot_to_move() != seat:
                continue
            try:
                await t.accept(seat, move, at=seq, played_by="stand-in" if held.stand_in else None)
            except ProtocolError as exc:
                log.error("bot %s chose a refused move: %s", bot.name, exc, extra={"table": t.code})
                return
            await asyncio.sleep(0)

    async def hint(self, conn: Conn) -> None:
        """Advice for ``conn``'s seat, sent to that connection only."""
        t = self.table
        seat = conn.seat
        if conn.hinting or seat is None:
            return
        m = t.match
        if m.is_over or m.round.to_move != seat or not t.started:
            conn.push(t.outbox.error_frame(_("a hint is given on your turn"), "not-your-turn"))
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
            conn.push(t.outbox.error_frame(_("No hint is available right now."), "no-hint"))
            return
        finally:
            conn.hinting = False
        conn.push(
            {
                "type": "hint",
                "state": t.state,
                "move": str(move),
                "text": _("Hint: {move}.").format(move=frames.move_words(str(move))),
                "reason": reason,
            }
        )
