"""The chat over HTTP: a tournament's chat, and muting or reporting from its page (P58).

- ``GET /api/chat/t/{id}?after=N&from=M``: the tournament's messages after id
  ``N`` (the last 50 when ``N`` is 0), worded in the asker's language, without
  those of accounts the asker mutes or blocks; ``deleted``: the ids from ``M``
  on that a moderator took away (the page drops them); ``write``: whether the
  asker may write (a signed-in entrant);
- ``POST /api/chat/t/{id}`` ``{"preset": KEY}`` or ``{"text": ...}``: say
  something there (its entrants only);
- ``POST /api/chat/{message}/mute``, ``/unmute``, ``/report``: the signed-in
  asker mutes or unmutes the message's author, or reports the message.

A POST needs the page's CSRF token like every POST; a refusal is
``{"error": a sentence, "code"}`` and changes nothing (the codes of
``chat/model.py``, ``signed-out``, ``not-found``, ``bad-request``).
A table's chat goes over its socket instead (``chat/service.py``).
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.i18n import _, current_language
from passing_game.web.accounts.api import change_refused, current_user, signed_post
from passing_game.web.chat import model
from passing_game.web.chat.model import ChatError, Message
from passing_game.web.chat.service import keep, mute_author, refusal, report
from passing_game.web.game.errors import OUT_OF_DATE, SIGN_IN_FIRST, UNREADABLE
from passing_game.web.store import AsyncStore, Store, ignores
from passing_game.web.store import chat as rows
from passing_game.web.store import tournaments as tournament_rows
from passing_game.web.tournament.api import NO_SUCH

#: The most bytes a chat POST may take.
MAX_BODY = 2048


def _error(message: str, code: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status)


def _db(request: Request) -> AsyncStore:
    db: AsyncStore = request.app.state.lobby.db
    return db


def _number(value: str | None) -> int:
    try:
        return max(0, min(2**62, int(value or 0)))
    except ValueError:
        return 0


def _read(
    store: Store, id: str, user_id: str | None, after: int, start: int
) -> dict[str, Any] | None:
    place = "t:" + id
    with store.transaction() as tx:
        if tournament_rows.get(tx, id) is None:
            return None
        found = rows.history(tx, place, ["tournament"], model.HISTORY, after)
        ignored = ignores.ignored_by(tx, user_id) if user_id is not None else {}
        deleted = rows.deleted_among(tx, place, start - 1) if start > 0 else []
        write = user_id is not None and rows.is_entrant(tx, id, user_id)
    return {"found": found, "ignored": ignored, "deleted": deleted, "write": write}


async def messages(request: Request) -> Response:
    db = _db(request)
    user = await current_user(request)
    id = request.path_params["id"]
    after = _number(request.query_params.get("after"))
    start = _number(request.query_params.get("from"))
    read = await db.run(_read, db.store, id, user.id if user else None, after, start)
    if read is None:
        return _error(_(NO_SUCH), "not-found", 404)
    me = model.author_key(user.id, "") if user else None
    language = current_language()
    found: list[Message] = read["found"]
    shown = [
        model.render(m, language, m.author == me)
        for m in found
        if m.user_id is None or m.user_id not in read["ignored"]
    ]
    return JSONResponse(
        {
            "messages": shown,
            "last": max([after, *(m.id for m in found)]),
            "deleted": [d for d in read["deleted"] if d <= after],
            "write": read["write"],
            "signed_in": user is not None,
            "presets": model.presets_in(language),
            "limit": model.MAX_TEXT,
        },
        headers={"Cache-Control": "no-store"},
    )


async def _signed_body(request: Request) -> tuple[Any, dict[str, Any]] | JSONResponse:
    got = await signed_post(request, MAX_BODY)
    if not isinstance(got, JSONResponse) and set(got[1]) - {"preset", "text"}:
        return _error(_(UNREADABLE), "bad-request")
    return got


def _entrant(store: Store, id: str, user_id: str) -> bool | None:
    with store.transaction() as tx:
        if tournament_rows.get(tx, id) is None:
            return None
        return rows.is_entrant(tx, id, user_id)


async def say(request: Request) -> Response:
    got = await _signed_body(request)
    if isinstance(got, JSONResponse):
        return got
    user, body = got
    id = request.path_params["id"]
    db = _db(request)
    try:
        preset, text = model.check_say(body.get("preset"), body.get("text"), True)
    except ChatError as exc:
        return _error(str(exc), exc.code)
    entrant = await db.run(_entrant, db.store, id, user.id)
    if entrant is None:
        return _error(_(NO_SUCH), "not-found", 404)
    if not entrant:
        refusal_text = _("Only the tournament's players write in its chat.")
        return _error(refusal_text, "chat-not-entrant", 403)
    now = time.time()
    author = model.author_key(user.id, "")
    draft = Message(0, "t:" + id, "tournament", author, user.id, user.name, preset, text, now)
    kept = await db.run(keep, db.store, draft, now)
    if isinstance(kept, tuple):
        refused = refusal(kept)
        return _error(str(refused), refused.code, 429 if refused.code == "chat-rate" else 403)
    return JSONResponse({"message": model.render(kept, current_language(), True)})


async def act(request: Request) -> Response:
    refused, user = await change_refused(request)
    if refused is not None:
        return _error(_(OUT_OF_DATE), refused, 403)
    if user is None:
        return _error(_(SIGN_IN_FIRST), "signed-out", 401)
    db = _db(request)
    id = int(request.path_params["message"])
    action = request.path_params["action"]
    if action in ("mute", "unmute"):
        on = action == "mute"
        found = await db.run(mute_author, db.store, user.id, id, time.time(), on)
        if found is not None:
            return JSONResponse({"author": found.author, "name": found.name, "message": id})
    elif request.path_params["action"] == "report":
        done = await db.run(report, db.store, id, user.name, user.id, time.time())
        if done is not None:
            return JSONResponse({"report": done})
    else:
        return _error(_(UNREADABLE), "bad-request", 404)
    return _error(_(model.NO_MESSAGE), "chat-no-message", 404)


ROUTES = [
    Route("/api/chat/t/{id}", messages),
    Route("/api/chat/t/{id}", say, methods=["POST"]),
    Route("/api/chat/{message:int}/{action}", act, methods=["POST"]),
]

__all__ = ["ROUTES"]
