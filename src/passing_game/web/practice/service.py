"""A practice table made in the store (blocking: through ``AsyncStore.run``).

The table is an ordinary one of origin ``"practice"`` (``model.ORIGIN``): the
person at the seat they viewed, a bot of one level at every other seat, no
clock, never rated nor listed. Its first game holds the explicit first deal
(``web_games.deal``) and the moves already made are its first stored moves, so
that any process rebuilds the position as it rebuilds any table
(``daily.stored_match``). The table, its seats, its game and those moves are
one transaction: a crash leaves no half-made practice table. The person's
seat has no account (``user_id`` is ``None``), so the round is never in
anybody's history; the browser keeps its seat token.
"""

from __future__ import annotations

import secrets
import time

from passing_game.web.practice.model import ORIGIN, Setup, deal_json
from passing_game.web.protocol import random_code
from passing_game.web.store import NewTable, SeatRow, Store, hash_token
from passing_game.web.store import tables as table_rows


def practice_table(store: Store, found: Setup, name: str, level: str, token: str) -> str:
    """A new practice table for ``found``: its code. The person's seat is
    ``found.seat``, its token ``token``; every other seat is a bot of ``level``."""
    rules = found.rules
    seats = tuple(
        SeatRow(s, "human", name, None, hash_token(token))
        if s == found.seat
        else SeatRow(s, "bot", level, level)
        for s in range(rules.players)
    )
    for _attempt in range(3):
        try:
            with store.transaction() as tx:
                code = table_rows.free_code(tx, random_code)
                table_rows.insert_table(
                    tx,
                    NewTable(
                        code,
                        rules.to_dict(),
                        secrets.randbits(63),
                        seats,
                        created=time.time(),
                        creator=found.seat,
                        origin=ORIGIN,
                        deal=deal_json(found.deal),
                    ),
                )
                for seq, move in enumerate(found.moves, start=1):
                    if table_rows.insert_move(tx, code, seq, 1, str(move), None) != 1:
                        raise RuntimeError("a practice table's move was refused")
        except Exception as exc:
            if store.is_integrity_error(exc):
                continue  # a table code taken meanwhile: another one
            raise
        return code
    raise RuntimeError("no practice table")  # pragma: no cover


__all__ = ["practice_table"]
