"""Friends, presence, challenges and blocks over HTTP (issue 27, item 2; P59).

=================================================  ===========================================
``GET  /api/social``                                the accounts followed (online, at which
                                                    table), those blocked, the challenges open
                                                    and those answered in the last minutes
``POST /api/social/follow`` ``/unfollow``           ``{"name"}``
``POST /api/social/block`` ``/unblock``             ``{"name"}``
``POST /api/social/challenge``                      ``{"name", "rules", "seats", "clock",
                                                    "rated"}``: the lobby's table choices,
                                                    ``"person"`` the seat of the one challenged
``POST /api/social/challenges/{id}/accept``         ``{"code", "seat"}``: the table made
``POST /api/social/challenges/{id}/decline``        the account challenged says no
``POST /api/social/challenges/{id}/cancel``         the challenger takes it back
=================================================  ===========================================

Only for signed-in people (``signed-out``, 401; ``session-ended``, 401, when the
page's session cookie names a session that ended, so that a page still showing the
account learns it was signed out, as its socket would tell it). A POST needs the site's
own page and its CSRF token like every POST (``accounts.api.change_refused``).
A refusal is ``{"error": a sentence, "code"}`` with a 4xx and changes
nothing: ``bad-request``, ``bad-name``, ``no-such-account`` (404),
``yourself``, ``unavailable``, ``you-block``, ``not-blocked``,
``already-challenged``, ``too-many``, ``bad-settings``, ``gone`` (404).
The page asks ``GET /api/social`` every few seconds: the store is the truth,
whichever process wrote it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.i18n import _, current_language, using_language
from passing_game.web.accounts.api import current_user, signed_post
from passing_game.web.accounts.flows import ENDED_WORDS, SESSION_COOKIE, User
from passing_game.web.game.errors import NOT_READ, UNREADABLE
from passing_game.web.lobby import Lobby
from passing_game.web.social import model, service
from passing_game.web.social.model import SocialError

log = logging.getLogger("passing_game.web")

#: The most bytes a POST's body may take.
MAX_BODY = 4096
NO_STORE = {"Cache-Control": "no-store"}
T = TypeVar("T")


def _error(message: str, code: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status, headers=NO_STORE)


def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


async def _run(request: Request, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
    """``fn(store, *args)`` in the store's threads, its words in the asker's language
    (a refusal is worded where it is raised)."""
    db = _lobby(request).db
    language = current_language()

    def worded() -> T:
        with using_language(language):
            return fn(db.store, *args, **kw)

    return await db.run(worded)


async def _state(request: Request, user: User) -> dict[str, Any]:
    lobby = _lobby(request)
    now = time.time()
    found: dict[str, Any] = await _run(
        request,
        service.state,
        user.id,
        now,
        alive_since=lobby.online.alive_since(now),
        process=lobby.cluster.process,
    )
    return found


async def listing(request: Request) -> Response:
    user = await current_user(request)
    if user is None and request.cookies.get(SESSION_COOKIE):
        return _error(_(ENDED_WORDS["session-ended"]), "session-ended", 401)
    if user is None:
        return _error(_(model.SIGN_IN), "signed-out", 401)
    try:
        found = await _state(request, user)
    except Exception:
        log.exception("could not read the friends panel")
        return _error(_(NOT_READ), "store", 503)
    return JSONResponse(found, headers=NO_STORE)


async def account_action(request: Request) -> Response:
    """Follow, unfollow, block or unblock an account by name."""
    got = await signed_post(request, MAX_BODY, model.SIGN_IN)
    if isinstance(got, JSONResponse):
        return got
    user, body = got
    action = request.path_params["action"]
    now = time.time()
    try:
        if action == "follow":
            name = await _run(request, service.follow, user.id, body.get("name"), now)
        elif action == "unfollow":
            name = await _run(request, service.unfollow, user.id, body.get("name"))
        elif action == "block":
            name = await _run(request, service.block, user.id, body.get("name"), now)
            log.info("an account blocked another", extra={"event": "block"})
        elif action == "unblock":
            name = await _run(request, service.unblock, user.id, body.get("name"))
        else:
            return _error(_(UNREADABLE), "bad-request", 404)
    except SocialError as exc:
        return _error(str(exc), exc.code, exc.status)
    return JSONResponse({"name": name, **await _state(request, user)}, headers=NO_STORE)


async def make_challenge(request: Request) -> Response:
    got = await signed_post(request, MAX_BODY, model.SIGN_IN)
    if isinstance(got, JSONResponse):
        return got
    user, body = got
    try:
        made = await _run(request, service.challenge, user.id, body, time.time())
    except SocialError as exc:
        return _error(str(exc), exc.code, exc.status)
    log.info("a challenge was sent", extra={"event": "challenge"})
    return JSONResponse({"challenge": made}, headers=NO_STORE)


async def challenge_action(request: Request) -> Response:
    """Accept, decline or cancel a challenge."""
    got = await signed_post(request, MAX_BODY, model.SIGN_IN)
    if isinstance(got, JSONResponse):
        return got
    user, _body = got
    id, action = request.path_params["id"], request.path_params["action"]
    lobby = _lobby(request)
    now = time.time()
    try:
        if action == "accept":
            code, seat = await _run(request, service.accept, user.id, id, now)
        elif action in ("decline", "cancel"):
            done = await _run(request, service.answer, user.id, id, action, now)
            return JSONResponse({"challenge": done}, headers=NO_STORE)
        else:
            return _error(_(UNREADABLE), "bad-request", 404)
    except SocialError as exc:
        return _error(str(exc), exc.code, exc.status)
    # The new table's bots and clock start here, as a creator's process leads a new table.
    await lobby.cluster.claim(code)
    await lobby.get(code)
    log.info("a challenge was accepted", extra={"table": code, "event": "challenge-accepted"})
    return JSONResponse({"code": code, "seat": seat, "link": f"/t/{code}"}, headers=NO_STORE)


ROUTES = [
    Route("/api/social", listing),
    Route("/api/social/challenge", make_challenge, methods=["POST"]),
    Route("/api/social/challenges/{id}/{action}", challenge_action, methods=["POST"]),
    Route("/api/social/{action}", account_action, methods=["POST"]),
]

__all__ = ["ROUTES"]
