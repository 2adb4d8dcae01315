"""A signed-in person's games: "My games", and the seats the account holds (issue 13).

========================================  =========================================
``GET /api/account/games``                the account's games, newest first
``GET /api/account/tables``               the tables where the account holds a seat
========================================  =========================================

Both need a signed-in person (401 ``signed-out`` otherwise) and show only
that person's own games. A game's entry holds its date, its players, its
result for the person, its rating change (rated games) and a link: a
finished game's replay (``/replay/CODE/GAME``), or the table itself while
the game goes on. Nothing of a game's tiles is sent: a game that is not over
shows no more than its table's lobby card would (who sits there). Players
are named as the table names them, an account by its current name (a
renamed or deleted account's games show the new name).

The date of a rated game is when it was rated (its end); of any other game,
when its table was created (a rematch shares its table's date).
"""

from __future__ import annotations

import contextvars
import json
from collections.abc import Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.i18n import _
from passing_game.rules import Rules
from passing_game.web.accounts.api import current_user
from passing_game.web.game.errors import SIGN_IN_FIRST
from passing_game.web.ratings.model import display
from passing_game.web.store import SeatRow, Store
from passing_game.web.store import history as history_rows
from passing_game.web.store.rows import ChangeRow
from passing_game.web.table import frames

#: The most games "My games" lists (the newest).
MOST_GAMES = 50
#: The most tables ``/api/account/tables`` lists.
MOST_TABLES = 200


def _result(rules: Rules, seat: int, record: str | None) -> dict[str, Any] | None:
    """The finished match's result for ``seat``: won, place, scores, who resigned."""
    if not record:
        return None
    try:
        data = json.loads(record)
        scores = [int(s) for s in data["scores"]]
        winner = data.get("winner")
    except (ValueError, KeyError, TypeError):
        return None
    side = rules.side_of(seat)
    if not 0 <= side < len(scores):
        return None

    def key(s: int) -> tuple[int, int]:
        return (0 if s == winner else 1, -scores[s])

    return {
        "won": winner == side,
        "place": 1 + sum(1 for other in range(len(scores)) if key(other) < key(side)),
        "of": len(scores),
        "side": side,
        "scores": scores,
        "resigned": data.get("resigned"),
    }


def games_of(store: Store, user_id: str, limit: int = MOST_GAMES) -> list[dict[str, Any]]:
    """The account's games, newest first (at most ``limit``)."""
    with store.transaction() as tx:
        games = history_rows.games_of(tx, user_id, limit)
        codes = sorted({g.code for g in games})
        seats: dict[str, list[tuple[SeatRow, str | None]]] = {}
        changes: dict[tuple[str, int], ChangeRow] = {}
        for code in codes:
            seats[code] = history_rows.seats_at(tx, code)
            for game, made in history_rows.changes_at(tx, code, user_id).items():
                changes[(code, game)] = made
    found = []
    for entry in games:
        code, game, seat = entry.code, entry.game, entry.seat
        rules = Rules.from_dict(json.loads(entry.rules))
        held = seats.get(code, [])
        names = frames.seat_names([row for row, _account in held])
        players = [
            {
                "seat": row.seat,
                "name": account or names[row.seat],
                "you": row.seat == seat,
                "bot": row.bot,  # a bot account (P62)
            }
            for row, account in held
        ]
        change = changes.get((code, game))
        rating = None
        date = entry.created
        if change is not None:
            before = display(change.mu_before, change.sigma_before)
            after = display(change.mu_after, change.sigma_after)
            rating = {
                "pool": change.pool,
                "before": before,
                "after": after,
                "delta": after - before,
                "removed": change.removed,
            }
            date = change.at
        over = entry.finished
        found.append(
            {
                "code": code,
                "game": game,
                "date": date,
                "seat": seat,
                "players": players,
                "rules": {"players": rules.players, "partnerships": rules.partnerships},
                "rated": entry.rated,
                "over": over,
                "result": _result(rules, seat, entry.record) if over else None,
                "rating": rating,
                "link": f"/replay/{code}/{game}" if over else f"/t/{code}",
            }
        )
    return found


def tables_of(store: Store, user_id: str, limit: int = MOST_TABLES) -> list[dict[str, Any]]:
    """The tables where the account holds a person's seat, newest first."""
    with store.transaction() as tx:
        rows = history_rows.tables_of(tx, user_id, limit)
    return [{"code": code, "seat": seat, "over": over} for code, seat, over in rows]


def _signed_out() -> JSONResponse:
    return JSONResponse({"error": _(SIGN_IN_FIRST), "code": "signed-out"}, 401)


async def _listing(request: Request, fn: Any, key: str) -> Response:
    user = await current_user(request)
    if user is None:
        return _signed_out()
    db = request.app.state.lobby.db
    # In the visitor's language (bots' names): the worker thread gets this context.
    found: Sequence[Any] = await db.run(contextvars.copy_context().run, fn, db.store, user.id)
    return JSONResponse({key: list(found)}, headers={"Cache-Control": "no-store"})


async def my_games(request: Request) -> Response:
    return await _listing(request, games_of, "games")


async def my_tables(request: Request) -> Response:
    return await _listing(request, tables_of, "tables")


ROUTES = [
    Route("/api/account/games", my_games),
    Route("/api/account/tables", my_tables),
]

__all__ = ["MOST_GAMES", "ROUTES", "games_of", "tables_of"]
