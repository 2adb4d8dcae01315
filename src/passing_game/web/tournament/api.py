"""Tournaments over HTTP (issue 26, item 1; P54).

- ``GET /tournament/{id}``: the page (``static/tournament.js`` draws it);
- ``GET /api/tournaments``: the public ones not finished (and those that
  ended in the last day), soonest first, and the server's ``now``;
- ``GET /api/tournaments/{id}``: settings, status, standings, tables, and
  the asker's game under way (``yours``: the code and seat to sit at);
- ``POST /api/tournaments``: a private tournament, by any signed-in person,
  reached by its link (a public one is a moderator's:
  ``passing-game admin tournament``);
- ``POST /api/tournaments/{id}/join`` (also back in after withdrawing),
  ``/withdraw``, ``/pause``, ``/resume``: the signed-in person's entry;
  ``/start``: its creator starts it before its time.

A POST needs the page's CSRF token like every POST; a refusal is
``{"error": a sentence, "code"}`` and changes nothing: ``signed-out`` (401),
``bad-request``, ``bad-settings``, ``too-many`` (the creator has
``director.MOST_OPEN`` tournaments not over), ``not-found`` (404), ``refused``,
``bad-part``. A create or join may carry ``contribution``: the browser's
random part of a duplicate's deals (16 to 64 hex digits, ``parts.py``).
"""

from __future__ import annotations

import contextvars
import logging
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.fairness import CONTRIBUTION
from passing_game.i18n import _
from passing_game.web.accounts.api import current_user, signed_post
from passing_game.web.game.errors import BAD_PART, NOT_READ, UNREADABLE
from passing_game.web.http.page import page
from passing_game.web.store import AsyncStore
from passing_game.web.store import tournaments as rows
from passing_game.web.tournament import director
from passing_game.web.tournament.model import TournamentError

log = logging.getLogger("passing_game.web")

#: The most bytes a tournament's settings may take.
MAX_BODY = 4096
#: The most public tournaments listed.
LISTED = 50

NO_SUCH = "There is no such tournament."


def _error(message: str, code: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status)


def _db(request: Request) -> AsyncStore:
    db: AsyncStore = request.app.state.lobby.db
    return db


def _listed(store: Any, now: float) -> list[dict[str, Any]]:
    with store.transaction() as tx:
        found = rows.public(tx, now - 86400, LISTED)
    out = []
    for row in found:
        settings = director.public_settings(row.settings, finished=False)
        out.append({"id": row.id, "status": row.status, "round": row.round, **settings})
    return out


async def listing(request: Request) -> Response:
    db = _db(request)
    try:
        found = await db.run(_listed, db.store, time.time())
    except Exception:
        log.exception("could not list the tournaments")
        return _error(_(NOT_READ), "store", 503)
    # The server's time with them: the page's countdowns run from it, not the visitor's clock.
    return JSONResponse(
        {"tournaments": found, "now": time.time()}, headers={"Cache-Control": "no-store"}
    )


async def one(request: Request) -> Response:
    db = _db(request)
    user = await current_user(request)
    id = request.path_params["id"]
    try:
        seen = await _state(db, id, user.id if user else None)
    except TournamentError:
        return _error(_(NO_SUCH), "not-found", 404)
    return JSONResponse(seen, headers={"Cache-Control": "no-store"})


async def _state(db: AsyncStore, id: str, user_id: str | None) -> dict[str, Any]:
    """The tournament's page's state, its words (a computer player's name) in the
    asker's language: the store's thread runs it in this request's context."""
    run = contextvars.copy_context().run
    found: dict[str, Any] = await db.run(run, director.state, db.store, id, user_id, time.time())
    return found


def _part(body: object) -> str | None:
    """The browser's random part of a duplicate's deals, given with a join (``parts.py``),
    taken out of ``body``; ``ValueError``: it is not one."""
    part = body.pop("contribution", None) if isinstance(body, dict) else None
    if part is not None and not (isinstance(part, str) and CONTRIBUTION.fullmatch(part)):
        raise ValueError(part)
    return part


async def create(request: Request) -> Response:
    got = await signed_post(request, MAX_BODY)
    if isinstance(got, JSONResponse):
        return got
    user, body = got
    now = time.time()
    try:
        part = _part(body)
    except ValueError:
        return _error(_(BAD_PART), "bad-part")
    try:
        event = director.parse_settings(body, creator=user.id, now=now)
    except TournamentError as exc:
        return _error(str(exc), "bad-settings")
    db = _db(request)
    try:
        await db.run(director.create, db.store, event, now)
    except TournamentError as exc:
        return _error(str(exc), "too-many")
    await db.run(director.join, db.store, event.id, user.id, user.name, now, part)
    log.info("a tournament was created", extra={"event": "tournament"})
    return JSONResponse({"id": event.id, "link": f"/tournament/{event.id}"})


#: Each entry action: whether it leaves the person withdrawn, paused.
ENTRY = {"withdraw": (True, False), "pause": (False, True), "resume": (False, False)}


async def entry(request: Request) -> Response:
    got = await signed_post(request, MAX_BODY)
    if isinstance(got, JSONResponse):
        return got
    user, body = got
    id, action = request.path_params["id"], request.path_params["action"]
    try:
        part = _part(body)
    except ValueError:
        return _error(_(BAD_PART), "bad-part")
    db = _db(request)
    try:
        if action == "join":
            await db.run(director.join, db.store, id, user.id, user.name, time.time(), part)
        elif action == "start":
            await db.run(director.start_now, db.store, id, user.id, time.time())
        elif action in ENTRY:
            withdrawn, paused = ENTRY[action]
            await db.run(
                director.set_entry, db.store, id, user.id, withdrawn=withdrawn, paused=paused
            )
        else:
            return _error(_(UNREADABLE), "bad-request", 404)
    except TournamentError as exc:
        return _error(str(exc), "refused")
    lobby = request.app.state.lobby
    await lobby.tournaments.advance(id)  # a late joiner may be paired at once (arena)
    return JSONResponse(await _state(db, id, user.id), headers={"Cache-Control": "no-store"})


ROUTES = [
    Route("/tournament/{id}", page),
    Route("/api/tournaments", listing),
    Route("/api/tournaments", create, methods=["POST"]),
    Route("/api/tournaments/{id}", one),
    Route("/api/tournaments/{id}/{action}", entry, methods=["POST"]),
]

__all__ = ["ROUTES"]
