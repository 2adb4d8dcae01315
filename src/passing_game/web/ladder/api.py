"""The ladder over HTTP (issue 28, item 5; P63).

- ``GET /ladder``: the page (``static/ladder.js`` draws it);
- ``GET /api/ladder``: the newest published ladder (``service.shown``), for
  anyone; before the first is published, the one the package ships
  (``service.shipped``, ``"shipped": true``), and without that
  ``{"ladder": null, "message"}`` (the page is there, empty: not an error).

Read from the store on every request, in a worker thread, so every process
answers the same; counted against the asker's address (``READ_RATE``).
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
from passing_game.web.ladder.service import shipped, shown
from passing_game.web.store import AsyncStore

log = logging.getLogger("passing_game.web")

#: Ladders one address may read: a second, and in a burst.
READ_RATE = (5.0, 30.0)

NONE_YET = N_("No ladder has been published yet.")
#: Every process answers from the store: a published ladder shows at once.
NO_STORE = {"Cache-Control": "no-store"}


async def ladder(request: Request) -> Response:
    limited = held_back(request, "ladder_limits", READ_RATE)
    if limited is not None:
        return limited
    db: AsyncStore = request.app.state.lobby.db
    try:
        # In the visitor's language (the levels' names): the worker thread gets this context.
        found: dict[str, Any] | None = await db.run(contextvars.copy_context().run, shown, db.store)
    except Exception:
        log.exception("could not read the ladder")
        return JSONResponse({"error": _(NOT_READ), "code": "store"}, 503)
    if found is None:
        found = await db.run(contextvars.copy_context().run, shipped)
    if found is None:
        return JSONResponse({"ladder": None, "message": _(NONE_YET)}, headers=NO_STORE)
    return JSONResponse(found, headers=NO_STORE)


ROUTES = [
    Route("/ladder", page),
    Route("/api/ladder", ladder),
]

__all__ = ["NONE_YET", "READ_RATE", "ROUTES"]
