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
from passing_game.web.account_api import current_user
from passing_game.web.ratings import display
from passing_game.web.store import SeatRow, Store

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
    from passing_game.web.seating import seat_names

    with store.transaction() as tx:
        games = tx.all(
            "SELECT s.code, s.seat, t.rules, t.rated, t.created, g.game, g.finished, g.record"
            " FROM web_seats s JOIN web_tables t ON t.code = s.code"
            " JOIN web_games g ON g.code = s.code"
            " WHERE s.user_id = ? ORDER BY t.created DESC, s.code, g.game DESC LIMIT ?",
            (user_id, limit),
        )
        codes = sorted({str(g[0]) for g in games})
        seats: dict[str, list[tuple[SeatRow, str | None]]] = {}
        changes: dict[tuple[str, int], tuple[Any, ...]] = {}
        for code in codes:
            seats[code] = [
                (SeatRow(int(r[0]), r[1], str(r[2]), r[3]), None if r[4] is None else str(r[4]))
                for r in tx.all(
                    "SELECT s.seat, s.kind, s.name, s.level, u.name FROM web_seats s"
                    " LEFT JOIN web_users u ON u.id = s.user_id WHERE s.code = ? ORDER BY s.seat",
                    (code,),
                )
            ]
            for r in tx.all(
                "SELECT game, pool, mu_before, sigma_before, mu_after, sigma_after, removed, at"
                " FROM web_rating_changes WHERE code = ? AND user_id = ?",
                (code, user_id),
            ):
                changes[(code, int(r[0]))] = tuple(r[1:])
    found = []
    for code, seat, rules_text, rated, created, game, finished, record in games:
        code, game = str(code), int(game)
        rules = Rules.from_dict(json.loads(rules_text))
        held = seats.get(code, [])
        names = seat_names([row for row, _account in held])
        players = [
            {"seat": row.seat, "name": account or names[row.seat], "you": row.seat == seat}
            for row, account in held
        ]
        change = changes.get((code, game))
        rating = None
        date = float(created)
        if change is not None:
            pool, mu0, sigma0, mu1, sigma1, removed, at = change
            before, after = display(float(mu0), float(sigma0)), display(float(mu1), float(sigma1))
            rating = {
                "pool": str(pool),
                "before": before,
                "after": after,
                "delta": after - before,
                "removed": bool(removed),
            }
            date = float(at)
        over = bool(finished)
        found.append(
            {
                "code": code,
                "game": game,
                "date": date,
                "seat": int(seat),
                "players": players,
                "rules": {"players": rules.players, "partnerships": rules.partnerships},
                "rated": bool(rated),
                "over": over,
                "result": _result(rules, int(seat), record) if over else None,
                "rating": rating,
                "link": f"/replay/{code}/{game}" if over else f"/t/{code}",
            }
        )
    return found


def tables_of(store: Store, user_id: str, limit: int = MOST_TABLES) -> list[dict[str, Any]]:
    """The tables where the account holds a person's seat, newest first."""
    with store.transaction() as tx:
        rows = tx.all(
            "SELECT s.code, s.seat, g.finished FROM web_seats s"
            " JOIN web_tables t ON t.code = s.code"
            " JOIN web_games g ON g.code = t.code AND g.game = t.game"
            " WHERE s.user_id = ? AND s.kind = 'human' ORDER BY t.created DESC LIMIT ?",
            (user_id, limit),
        )
    return [{"code": str(r[0]), "seat": int(r[1]), "over": bool(r[2])} for r in rows]


def _signed_out() -> JSONResponse:
    return JSONResponse({"error": _("please sign in first"), "code": "signed-out"}, 401)


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
