"""Public profiles over HTTP (issue 27, item 3; P60).

- ``GET /u/NAME``: the page (``static/profile.js`` draws it);
- ``GET /api/profiles/NAME``: its JSON (``service.profile``), for anyone, signed in
  or not: ratings per pool with each graph's points, finished games, the newest of
  them, and the statistics of the newest ``service.MOST_GAMES``.

A name is matched as sign-in matches it; an unknown or deleted account is a 404
``{"error": a sentence, "code": "not-found"}``. The work (records replayed through the
engine) runs in a worker thread, never on the event loop, and is counted against the
asker's address first (``READ_RATE``; then 429 with ``Retry-After``).
"""

from __future__ import annotations

import contextvars
import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.i18n import N_, _
from passing_game.web.game.errors import NOT_READ
from passing_game.web.http.addresses import held_back
from passing_game.web.http.page import page
from passing_game.web.profiles.service import exists, profile
from passing_game.web.store import AsyncStore

log = logging.getLogger("passing_game.web")

#: Profiles one address may read: a second, and in a burst.
READ_RATE = (2.0, 20.0)

NO_SUCH = N_("There is no account of this name: it may have been deleted, or renamed.")


def _error(message: str, code: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status)


async def one(request: Request) -> Response:
    limited = held_back(request, "profile_limits", READ_RATE)
    if limited is not None:
        return limited
    db: AsyncStore = request.app.state.lobby.db
    name = request.path_params["name"]
    try:
        # In the visitor's language (bots' names): the worker thread gets this context.
        found: dict[str, Any] | None = await db.run(
            contextvars.copy_context().run, profile, db.store, name
        )
    except Exception:
        log.exception("could not read a profile")
        return _error(_(NOT_READ), "store", 503)
    if found is None:
        return _error(_(NO_SUCH), "not-found", 404)
    return JSONResponse(found, headers={"Cache-Control": "no-store"})


async def profile_page(request: Request) -> Response:
    """The page; a 404 (the page still says why) for a name no live account has."""
    limited = held_back(request, "profile_limits", READ_RATE)
    if limited is not None:
        return limited
    shown = page(request)
    db: AsyncStore = request.app.state.lobby.db
    try:
        if not await db.run(exists, db.store, request.path_params["name"]):
            shown.status_code = 404
    except Exception:
        log.exception("could not look a profile up")
    return shown


ROUTES = [
    Route("/u/{name:path}", profile_page),
    Route("/api/profiles/{name:path}", one),
]

__all__ = ["NO_SUCH", "READ_RATE", "ROUTES"]
