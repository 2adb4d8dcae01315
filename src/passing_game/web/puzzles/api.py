"""The puzzles' endpoints (issue 25, item 2): the page, a puzzle, an answer, the streak.

=====================================  ==============================================
``GET  /puzzles[/...]``                the page (``static/puzzles.js``)
``GET  /api/puzzles/next``             a puzzle the solver never tried, near its rating
``GET  /api/puzzles/daily``            the puzzle of the day (UTC), the same for everyone
``GET  /api/puzzles/streak``           the solver's streak, and the puzzle it waits on
``POST /api/puzzles/streak``           a new streak, and its first puzzle
``GET  /api/puzzles/ID``               one puzzle
``POST /api/puzzles/ID/solve``         ``{"move": "L3-5"}``: right or not, every move's value
=====================================  ==============================================

Every answer holds ``you`` (the solver's rating and streak). Who solves: a
signed-in account, else a guest's browser, known by the ``pg_solver``
cookie the server makes (random, HTTP only, kept a year; the store keeps its
SHA-256, as it does of a device's token). The POSTs change the store, so
they need the site's own page and its CSRF token like every POST
(``accounts.api.change_refused``), and a solve is counted against its
address (``SOLVE_RATE``). Refusals are ``{"error", "code"}`` with a 4xx and
change nothing.
"""

from __future__ import annotations

import json
import random
import re
import secrets
import time
from functools import cache
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.errors import ParseError
from passing_game.i18n import N_, _
from passing_game.moves import parse_move
from passing_game.puzzles import Puzzle, shipped
from passing_game.web.accounts.api import change_refused, current_user, secure
from passing_game.web.accounts.flows import hash_secret
from passing_game.web.game.errors import OUT_OF_DATE
from passing_game.web.http.addresses import held_back
from passing_game.web.http.page import page
from passing_game.web.puzzles import service
from passing_game.web.puzzles.model import Catalog, daily, day_of, legal, same_move
from passing_game.web.puzzles.service import Solver
from passing_game.web.puzzles.shown import (
    change_json,
    judged_json,
    puzzle_json,
    rating_json,
    reveal_json,
)
from passing_game.web.store.puzzles import SolverRow

#: The guest's cookie, and how long it is kept.
SOLVER_COOKIE = "pg_solver"
SOLVER_SECONDS = 365 * 24 * 3600
#: The largest answer body read: a move is a few bytes.
MAX_BODY = 256
#: Solves a second per client address, and their burst.
SOLVE_RATE = (2.0, 30.0)
_ID = re.compile(r"[a-z0-9-]{1,64}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")
NONE_LEFT = N_("You have tried every puzzle. Come back tomorrow for the puzzle of the day.")
BAD_MOVE = N_("A move is written like “L3-5”, “R6-6”, “draw” or “pass”.")


@cache
def shipped_catalog() -> Catalog:
    """The shipped puzzles, read once per process."""
    return Catalog(tuple(shipped()))


def catalog_of(request: Request) -> Catalog:
    """The app's puzzles (``app.state.puzzles`` when a test sets it, else the shipped)."""
    found = getattr(request.app.state, "puzzles", None)
    return found if isinstance(found, Catalog) else shipped_catalog()


def _error(message: str, code: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status)


async def solver_of(request: Request) -> tuple[Solver, str | None]:
    """Who asks, and the new guest token to set (``None``: none to set)."""
    user = await current_user(request)
    if user is not None:
        return Solver("u:" + user.id, user.id), None
    token = request.cookies.get(SOLVER_COOKIE)
    fresh = None
    if token is None or not _TOKEN.fullmatch(token):
        token = fresh = secrets.token_urlsafe(24)
    return Solver("g:" + hash_secret(token)), fresh


def _answer(
    request: Request, body: dict[str, Any], fresh: str | None, status: int = 200
) -> Response:
    response = JSONResponse(body, status, headers={"Cache-Control": "no-store"})
    if fresh is not None:
        response.set_cookie(
            SOLVER_COOKIE,
            fresh,
            max_age=SOLVER_SECONDS,
            httponly=True,
            samesite="lax",
            secure=secure(request),
            path="/",
        )
    return response


def you_json(row: SolverRow | None) -> dict[str, Any]:
    rating = service.solver_rating(row)
    return {
        **rating_json(rating),
        "plays": row.plays if row else 0,
        "solved": row.solved if row else 0,
        "streak": {
            "run": row.streak_run if row else 0,
            "best": row.streak_best if row else 0,
            "puzzle": row.streak_puzzle if row else None,
        },
    }


async def _run(request: Request, fn: Any, *args: Any) -> Any:
    db = request.app.state.lobby.db
    return await db.run(fn, db.store, *args)


async def _with_puzzle(
    request: Request, puzzle: Puzzle, solver: Solver, row: SolverRow | None, **extra: Any
) -> dict[str, Any]:
    rating = await _run(request, service.puzzle_rating, puzzle)
    attempt = await _run(request, service.attempt_of, solver, puzzle)
    tried = None if attempt is None else {"correct": attempt.correct, "move": attempt.move}
    return {"puzzle": puzzle_json(puzzle, rating), "tried": tried, "you": you_json(row), **extra}


def _none_left(request: Request, row: SolverRow | None, fresh: str | None) -> Response:
    """Every puzzle that could be served has been tried (404, with the solver's rating)."""
    body = {"error": _(NONE_LEFT), "code": "none-left", "you": you_json(row)}
    return _answer(request, body, fresh, 404)


async def next_endpoint(request: Request) -> Response:
    """``GET /api/puzzles/next``."""
    solver, fresh = await solver_of(request)
    found, row = await _run(
        request, service.next_puzzle, catalog_of(request), solver, random.Random()
    )
    if found is None:
        return _none_left(request, row, fresh)
    return _answer(request, await _with_puzzle(request, found, solver, row), fresh)


async def daily_endpoint(request: Request) -> Response:
    """``GET /api/puzzles/daily``: the puzzle of today (UTC)."""
    solver, fresh = await solver_of(request)
    day = day_of(time.time())
    puzzle = daily(catalog_of(request), day)
    row = await _run(request, service.solver_row, solver)
    body = await _with_puzzle(request, puzzle, solver, row, day=day.isoformat())
    return _answer(request, body, fresh)


async def one_endpoint(request: Request) -> Response:
    """``GET /api/puzzles/ID``."""
    puzzle = _puzzle(request)
    if puzzle is None:
        return _error(_("There is no such puzzle."), "no-puzzle", 404)
    solver, fresh = await solver_of(request)
    row = await _run(request, service.solver_row, solver)
    return _answer(request, await _with_puzzle(request, puzzle, solver, row), fresh)


def _puzzle(request: Request) -> Puzzle | None:
    wanted = request.path_params["id"]
    if not _ID.fullmatch(wanted):
        return None
    return catalog_of(request).by_id.get(wanted)


async def streak_endpoint(request: Request) -> Response:
    """``GET /api/puzzles/streak``: the streak under way and its puzzle, if any."""
    solver, fresh = await solver_of(request)
    row = await _run(request, service.solver_row, solver)
    waiting = row.streak_puzzle if row else None
    puzzle = catalog_of(request).by_id.get(waiting) if waiting else None
    if puzzle is None:
        return _answer(request, {"puzzle": None, "tried": None, "you": you_json(row)}, fresh)
    return _answer(request, await _with_puzzle(request, puzzle, solver, row), fresh)


def _limited(request: Request) -> Response | None:
    return held_back(request, "puzzle_limits", SOLVE_RATE)


async def new_streak_endpoint(request: Request) -> Response:
    """``POST /api/puzzles/streak``: a new streak and its first puzzle."""
    refused, _user = await change_refused(request)
    if refused is not None:
        return _error(_(OUT_OF_DATE), refused, 403)
    solver, fresh = await solver_of(request)
    first, row = await _run(
        request, service.start_streak, catalog_of(request), solver, time.time(), random.Random()
    )
    if first is None:
        return _none_left(request, row, fresh)
    return _answer(request, await _with_puzzle(request, first, solver, row), fresh)


async def _move_text(request: Request) -> str | Response:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        return _error(_(BAD_MOVE), "too-large", 413)
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            return _error(_(BAD_MOVE), "too-large", 413)
    try:
        given = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _error(_(BAD_MOVE), "bad-json", 400)
    move = given.get("move") if isinstance(given, dict) else None
    if not isinstance(move, str):
        return _error(_(BAD_MOVE), "bad-request", 400)
    return move


async def checked_move(request: Request, puzzle: Puzzle) -> Any:
    """The legal move the body names, in the puzzle's form, or the refusal to answer with
    (a bad body, a move that is not legal, too many solves from the address)."""
    text = await _move_text(request)
    if isinstance(text, Response):
        return text
    try:
        move = same_move(puzzle, parse_move(text))
    except ParseError:
        return _error(_(BAD_MOVE), "bad-move", 400)
    if not legal(puzzle, move):
        body = {
            "error": _("That move is not legal here."),
            "code": "illegal",
            "legal": [str(m) for m, _v in puzzle.values],
        }
        return JSONResponse(body, 400)
    limited = _limited(request)
    if limited is not None:
        return limited
    return move


async def solve_endpoint(request: Request) -> Response:
    """``POST /api/puzzles/ID/solve``: judge one move, rate a first attempt."""
    refused, _user = await change_refused(request)
    if refused is not None:
        return _error(_(OUT_OF_DATE), refused, 403)
    puzzle = _puzzle(request)
    if puzzle is None:
        return _error(_("There is no such puzzle."), "no-puzzle", 404)
    move = await checked_move(request, puzzle)
    if isinstance(move, Response):
        return move
    return await answer(request, puzzle, move)


async def answer(
    request: Request,
    puzzle: Puzzle,
    move: Any,
    rated: bool = True,
    estimate: bool = False,
    **extra: Any,
) -> Response:
    """The answer to a legal move at any ``Puzzle`` (shipped or one's own, ``mine_api``):
    judged, rated, streak; ``estimate`` and ``extra`` as ``judged_json`` and more fields."""
    solver, fresh = await solver_of(request)
    solved = await _run(
        request,
        service.solve,
        catalog_of(request),
        solver,
        puzzle,
        move,
        time.time(),
        random.Random(),
        rated,
    )
    row = await _run(request, service.solver_row, solver)
    body: dict[str, Any] = {
        **judged_json(puzzle, solved.judged, estimate),
        "rated": solved.rated,
        "solver": change_json(solved.solver_before, solved.solver_after),
        "puzzle_rating": change_json(solved.puzzle_before, solved.puzzle_after),
        "reveal": reveal_json(puzzle),
        "streak": None,
        "you": you_json(row),
        **extra,
    }
    if solved.streak is not None:
        s = solved.streak
        body["streak"] = {"run": s.run, "best": s.best, "over": s.over, "next": s.next}
    return _answer(request, body, fresh)


ROUTES = [
    Route("/puzzles", page),
    Route("/puzzles/{rest:path}", page),
    Route("/api/puzzles/next", next_endpoint),
    Route("/api/puzzles/daily", daily_endpoint),
    Route("/api/puzzles/streak", streak_endpoint, methods=["GET"]),
    Route("/api/puzzles/streak", new_streak_endpoint, methods=["POST"]),
    Route("/api/puzzles/{id}", one_endpoint),
    Route("/api/puzzles/{id}/solve", solve_endpoint, methods=["POST"]),
]

__all__ = [
    "MAX_BODY",
    "ROUTES",
    "SOLVER_COOKIE",
    "answer",
    "catalog_of",
    "checked_move",
    "puzzle_json",
    "shipped_catalog",
    "solver_of",
    "you_json",
]
