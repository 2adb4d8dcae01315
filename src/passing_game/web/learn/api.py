"""The tutorial's endpoints (issue 25): the lessons, one position, one try.

``GET /learn`` is the page; ``GET /api/learn`` lists the lessons (titles in the request's language);
``GET /api/learn/ID`` is the learner's view of a lesson's position, built
from ``Round.view(seat)`` alone, so no hidden tile can be in it;
``POST /api/learn/ID/try`` with ``{"move": "R3-5"}`` answers ``{ok,
sentence}``, and after the right move the table as it then is (``after``).
The try changes nothing on the server, so it needs no CSRF token.
Progress is the browser's (localStorage) and, for a signed-in person, the
account's too (``store/learning.py``): ``GET /api/learn`` adds the lessons
the account has done (``done``), and ``POST /api/learn/done`` with
``{"lessons": ["r4-1", ...]}`` keeps lessons as done (checked as every POST
of the site is), so lessons done in the browser before signing in are kept.
"""

from __future__ import annotations

import json
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.errors import ParseError
from passing_game.i18n import _
from passing_game.learn import BY_ID, LESSONS, Lesson, check, position
from passing_game.learn.lesson import same_move
from passing_game.moves import parse_move
from passing_game.round import Round
from passing_game.web.accounts.api import change_refused, current_user
from passing_game.web.game.errors import OUT_OF_DATE
from passing_game.web.http.page import page
from passing_game.web.store import learning
from passing_game.web.store.db import Store

#: The largest try body read: a move is a few bytes.
MAX_BODY = 256
#: The largest body of lessons done read: every lesson's id, with room.
MAX_DONE_BODY = 4096


def _error(message: str, code: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status)


def summary(lesson: Lesson) -> dict[str, Any]:
    return {
        "id": lesson.id,
        "rule": lesson.rule,
        "title": _(lesson.title),
        "basic": lesson.basic,
        "part": lesson.part,
    }


def table_view(rnd: Round, seat: int) -> dict[str, Any]:
    """What ``seat`` sees of the table, from ``Round.view(seat)`` alone (R9)."""
    view = rnd.view(seat)
    return {
        "hand": [str(t) for t in view.hand],
        "train": [[p.left, p.right] for p in view.train],
        "ends": list(view.ends) if view.ends else None,
        "hand_sizes": list(view.hand_sizes),
        "boneyard": view.boneyard_size,
        "drawable": max(0, view.boneyard_size - 2),
    }


def lesson_view(lesson: Lesson) -> dict[str, Any]:
    """The learner's view of the position: their hand and the public facts (R9)."""
    rnd = position(lesson)
    view = rnd.view(lesson.seat)
    index = LESSONS.index(lesson)
    following = LESSONS[index + 1] if index + 1 < len(LESSONS) else None
    part = [other for other in LESSONS if other.part == lesson.part]
    legal = [str(same_move(rnd, m)) for m in rnd.legal_moves()]
    return {
        **summary(lesson),
        "text": _(lesson.text),
        # Counted within the lesson's part: the basics end in a real round (P47).
        "number": part.index(lesson) + 1,
        "total": len(part),
        "next": following.id if following else None,
        "part_end": following is None or following.part != lesson.part,
        "players": view.rules.players,
        "partnerships": view.rules.partnerships,
        "target": view.rules.target,
        "seat": view.seat,
        **table_view(rnd, lesson.seat),
        "legal": legal,
        "scores": list(lesson.scores) if lesson.scores else None,
    }


def _lesson(request: Request) -> Lesson | None:
    return BY_ID.get(request.path_params["id"])


def _done(store: Store, user_id: str) -> list[str]:
    with store.transaction() as tx:
        return [lesson for lesson in learning.done(tx, user_id) if lesson in BY_ID]


def _mark(store: Store, user_id: str, lessons: list[str], now: float) -> list[str]:
    with store.transaction() as tx:
        learning.mark_done(tx, user_id, lessons, now)
        return [lesson for lesson in learning.done(tx, user_id) if lesson in BY_ID]


async def lessons(request: Request) -> Response:
    """``GET /api/learn``: every lesson, in order; a signed-in person's done ones too."""
    body: dict[str, Any] = {"lessons": [summary(lesson) for lesson in LESSONS]}
    user = await current_user(request)
    if user is not None:
        db = request.app.state.lobby.db
        body["done"] = await db.run(_done, db.store, user.id)
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def mark_done(request: Request) -> Response:
    """``POST /api/learn/done``: keep lessons as done on the signed-in account."""
    refused, user = await change_refused(request)
    if refused is not None:
        return _error(_(OUT_OF_DATE), refused, 403)
    if user is None:
        return _error(_("Sign in to keep your lessons on your account."), "signed-out", 401)
    body = await request.body()
    if len(body) > MAX_DONE_BODY:
        return _error(_("That is not a list of lessons."), "too-large", 413)
    try:
        given = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        given = None
    named = given.get("lessons") if isinstance(given, dict) else None
    if not isinstance(named, list) or not all(isinstance(item, str) for item in named):
        return _error(_("That is not a list of lessons."), "bad-lessons", 400)
    unknown = [item for item in named if item not in BY_ID]
    if unknown:
        return _error(_("There is no such lesson."), "no-lesson", 404)
    db = request.app.state.lobby.db
    done = await db.run(_mark, db.store, user.id, list(dict.fromkeys(named)), time.time())
    return JSONResponse({"done": done})


async def one(request: Request) -> Response:
    """``GET /api/learn/ID``: the learner's view of the lesson's position."""
    lesson = _lesson(request)
    if lesson is None:
        return _error(_("There is no such lesson."), "no-lesson", 404)
    return JSONResponse(lesson_view(lesson))


async def attempt(request: Request) -> Response:
    """``POST /api/learn/ID/try``: is this the move asked for, and why (not)."""
    lesson = _lesson(request)
    if lesson is None:
        return _error(_("There is no such lesson."), "no-lesson", 404)
    body = await request.body()
    if len(body) > MAX_BODY:
        return _error(_("A try is one move, like “R3-5”, “draw” or “pass”."), "too-large", 413)
    try:
        given = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        given = None
    move = given.get("move") if isinstance(given, dict) else None
    if not isinstance(move, str):
        return _error(_("A try is one move, like “R3-5”, “draw” or “pass”."), "bad-try", 400)
    try:
        parse_move(move)
    except ParseError:
        return _error(_("A try is one move, like “R3-5”, “draw” or “pass”."), "bad-move", 400)
    ok, sentence = check(lesson, move)
    answer: dict[str, Any] = {"ok": ok, "sentence": sentence}
    if ok:  # the table after the move, to show what it did (the double laid across, R5)
        rnd = position(lesson)
        rnd.play(parse_move(move))
        answer["after"] = table_view(rnd, lesson.seat)
    return JSONResponse(answer)


ROUTES = [
    Route("/learn", page),
    Route("/api/learn", lessons),
    Route("/api/learn/done", mark_done, methods=["POST"]),
    Route("/api/learn/{id}", one),
    Route("/api/learn/{id}/try", attempt, methods=["POST"]),
]

__all__ = ["MAX_BODY", "ROUTES", "lesson_view", "summary", "table_view"]
