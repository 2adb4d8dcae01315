"""A table in a process that does not lead it: it follows the leader's events.

A replica never checks or stores a move; it applies what the leader stored
(from the event, or from the store when an event was missed), then shows
the new state to its own clients.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from passing_game.moves import parse_move
from passing_game.web.botplay import make_bot
from passing_game.web.store import SeatRow, Timer

if TYPE_CHECKING:
    from passing_game.web.tables import Table


class Replica:
    """How one table follows its leader (``Cluster.emit`` on the leader's side)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def behind(self, game: int, seq: int, finished: bool) -> bool:
        """Whether the store (its current game, last move, finished) is ahead of this copy."""
        t = self.table
        if game != t.game:
            return game > t.game
        return seq > t.seq or (finished and not t.match.is_over)

    async def follow(self, event: dict[str, Any]) -> None:
        """Apply the leader's event, then show the new state to this process's clients."""
        t = self.table
        async with t.lock:
            if "lead" in event:
                t.holder = event["lead"]
            if "pres" in event:
                self._presence(event)
            if event.get("reset") or event.get("g", t.game) != t.game:
                await t.reload()
            elif "q" in event:
                moves = event.get("m") or []
                if moves and int(moves[0][0]) == t.seq + 1:
                    self.apply_moves(moves)
                elif int(event["q"]) > t.seq:
                    self.apply_moves(await t.db.run(t.db.store.moves_since, t.code, t.game, t.seq))
                if "seats" in event:
                    self._apply_seats([SeatRow(*row) for row in event["seats"]])
                if "timer" in event:
                    timer = event["timer"]
                    t.timer = None if timer is None else Timer(*timer)
            if "q" in event or "reset" in event:
                t.outbox.broadcast()

    def _presence(self, event: dict[str, Any]) -> None:
        t = self.table
        seat, conns = int(event["pres"][0]), int(event["pres"][1])
        if not 0 <= seat < len(t.seats):
            return
        procs = t.remote.setdefault(seat, set())
        if conns > 0:
            procs.add(str(event["p"]))
        else:
            procs.discard(str(event["p"]))
        t.seating.presence_changed()

    def apply_moves(self, moves: Sequence[Sequence[Any]]) -> None:
        t = self.table
        for seq, text, by in moves:
            if int(seq) != t.seq + 1:
                continue
            result = t.match.play(parse_move(str(text)))
            t.seq = int(seq)
            t.played_by.append(by)
            ended = result is not None and not t.match.is_over
            t.round_moves = 0 if ended else t.round_moves + 1

    def _apply_seats(self, rows: Sequence[SeatRow]) -> None:
        """New seats from the leader; clients whose seat is no longer theirs are told."""
        t = self.table
        for row in rows:
            held = t.seats[row.seat]
            before = held.row
            held.row = row
            if row.kind == "bot" and before.kind != "bot":
                t.bots[row.seat] = make_bot(held.bot_level, t.seed, row.seat)
            if (row.away == "left" and before.away != "left") or (
                row.kind == "open" and before.kind == "human"
            ):
                t.seating.send_away(held)
            elif row.token_hash != before.token_hash and before.kind == "human":
                t.seating.refuse(held)
