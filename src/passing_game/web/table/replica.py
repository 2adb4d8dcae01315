"""A table in a process that does not lead it: it follows the leader's events.

A replica never checks or stores a move; it applies what the leader stored
(from the event, or from the store when an event was missed), then shows
the new state to its own clients.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, Protocol

from passing_game.match import Match
from passing_game.moves import Move, parse_move
from passing_game.web.store import AsyncStore, SeatRow, Timer
from passing_game.web.table.outbox import Outbox
from passing_game.web.table.seating import Seat, Seating


class Followed(Protocol):
    """What a replica reads of its table, and the table's own ``apply_*`` (the
    leader's code) it changes the table with."""

    @property
    def code(self) -> str: ...

    @property
    def game(self) -> int: ...

    @property
    def seq(self) -> int: ...

    @property
    def match(self) -> Match: ...

    @property
    def seats(self) -> Sequence[Seat]: ...

    #: Seat -> the other processes with a client there.
    @property
    def remote(self) -> dict[int, set[str]]: ...

    #: The process that leads the table, as far as this one knows.
    holder: str | None

    @property
    def lock(self) -> asyncio.Lock: ...

    @property
    def db(self) -> AsyncStore: ...

    async def reload(self) -> None: ...

    def apply_move(self, seq: int, move: Move, played_by: str | None) -> bool: ...

    def apply_row(self, seat: Seat, row: SeatRow) -> None: ...

    def apply_timer(self, timer: Timer | None) -> None: ...


class Replica:
    """How one table follows its leader (``Cluster.emit`` on the leader's side)."""

    def __init__(self, table: Followed, seating: Seating, outbox: Outbox) -> None:
        self.table = table
        self.seating = seating
        self.outbox = outbox

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
                    t.apply_timer(None if timer is None else Timer(*timer))
            if "q" in event or "reset" in event:
                self.outbox.broadcast()

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
        self.seating.presence_changed()

    def apply_moves(self, moves: Sequence[Sequence[Any]]) -> None:
        """The leader's stored moves, applied as the leader applied them."""
        t = self.table
        for seq, text, by in moves:
            if int(seq) == t.seq + 1:
                t.apply_move(int(seq), parse_move(str(text)), by)

    def _apply_seats(self, rows: Sequence[SeatRow]) -> None:
        """New seats from the leader; clients whose seat is no longer theirs are told."""
        t = self.table
        for row in rows:
            held = t.seats[row.seat]
            before = held.row
            t.apply_row(held, row)
            if (row.away == "left" and before.away != "left") or (
                row.kind == "open" and before.kind == "human"
            ):
                self.seating.send_away(held)
            elif row.token_hash != before.token_hash and before.kind == "human":
                self.seating.refuse(held)
