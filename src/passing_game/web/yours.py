"""Your games first (issue 24, item 2): the tables a visitor holds a seat at.

The lobby lists them before anything else, for guests and accounts alike:
a guest's page knows its tables by the seat tokens it keeps, an account's
by its rows (``history.tables_of``); either way the page asks here how each
table stands. What it gets back is what a spectator of that table sees
(whose turn, who is away, the scores), read from the store, so every
process answers the same; a code that names no table is left out.
"""

from __future__ import annotations

import contextvars
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.errors import PassingGameError
from passing_game.i18n import ngettext
from passing_game.web.daily import stored_match
from passing_game.web.protocol import ProtocolError, clean_code
from passing_game.web.store import Store
from passing_game.web.table.frames import seat_names

#: The most tables one request asks about (a page keeps at most this many).
MOST_CODES = 20


def codes_of(text: str) -> list[str]:
    """The table codes of a query (``ABC234,K7M2QX``), checked; ``ProtocolError`` if one is not."""
    given = [part for part in text.split(",") if part.strip()]
    if len(given) > MOST_CODES:
        raise ProtocolError(
            ngettext(
                "At most {n} table can be asked about at once.",
                "At most {n} tables can be asked about at once.",
                MOST_CODES,
            ).format(n=MOST_CODES),
            "too-many",
        )
    return list(dict.fromkeys(clean_code(part) for part in given))


def status_of(store: Store, code: str) -> dict[str, Any] | None:
    """How table ``code`` stands, as anyone watching it can see (``None``: no such table)."""
    stored = store.load_table(code)
    if stored is None:
        return None
    try:
        match = stored_match(stored)
    except PassingGameError:  # a damaged game: the table itself will say so
        return None
    started = all(row.kind != "open" for row in stored.seats)
    over = match.is_over
    return {
        "code": code,
        "started": started,
        "over": over,
        "to_move": None if over or not started else match.round.to_move,
        "adjourned": next((r.seat for r in stored.seats if r.away == "paused"), None),
        "names": seat_names(stored.seats),
        "bots": [row.bot for row in stored.seats],  # bot accounts' seats (P62)
        "scores": list(match.scores),
        "round": match.round_number,
        "link": f"/t/{code}",
        # A practice round from a replay (web/practice/): the list marks it.
        "practice": stored.origin == "practice",
    }


def statuses(store: Store, codes: list[str]) -> list[dict[str, Any]]:
    found = (status_of(store, code) for code in codes)
    return [status for status in found if status is not None]


async def tables_status(request: Request) -> Response:
    """``GET /api/tables/status?codes=A,B``: how each of those tables stands."""
    try:
        codes = codes_of(request.query_params.get("codes", ""))
    except ProtocolError as exc:
        return JSONResponse({"error": str(exc), "code": exc.code}, 400)
    db = request.app.state.lobby.db
    # In the visitor's language (bots' names): the worker thread gets this context.
    found = await db.run(contextvars.copy_context().run, statuses, db.store, codes)
    return JSONResponse({"tables": found}, headers={"Cache-Control": "no-store"})


ROUTES = [Route("/api/tables/status", tables_status)]

__all__ = ["MOST_CODES", "ROUTES", "codes_of", "status_of", "statuses"]
