"""The endpoints of puzzles from one's own games (issue 25; the puzzles: ``mine``).

=========================================  ==========================================
``GET  /api/puzzles/mine``                 the signed-in account's blunders as puzzles
``GET  /api/puzzles/mine/ID``              one of them, before its answer
``POST /api/puzzles/mine/ID/solve``        ``{"move": "L3-5"}``: right or not, never rated
=========================================  ==========================================

Signed in only (401 ``signed-out`` otherwise): the puzzles are made of the
account's own games. An id that is not one of the account's is 404
``no-puzzle``, whoever else's it is. A solve is judged like any puzzle's
(``api.answer``) but never rated: the puzzle is one person's, there is
nobody to rate it against. Its first attempt is kept (``tried``), so the
list says which blunders were found again. These routes come before
``/api/puzzles/{id}`` in the app's table.
"""

from __future__ import annotations

import contextvars
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.i18n import _
from passing_game.web.accounts.api import change_refused, current_user
from passing_game.web.game.errors import OUT_OF_DATE, SIGN_IN_FIRST
from passing_game.web.http.addresses import held_back
from passing_game.web.puzzles import service
from passing_game.web.puzzles.api import answer, checked_move, solver_of, you_json
from passing_game.web.puzzles.mine import Mine, mine_by_id, puzzles_of
from passing_game.web.puzzles.shown import puzzle_json
from passing_game.web.puzzles.words import MINE_NONE

#: Reads an address may make: a second, and in a burst (each reads the account's games).
READ_RATE = (2.0, 20.0)


def _error(message: str, code: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status)


def _no_puzzle() -> JSONResponse:
    return _error(_("There is no such puzzle."), "no-puzzle", 404)


async def _run(request: Request, fn: Any, *args: Any) -> Any:
    db = request.app.state.lobby.db
    # In the asker's language: the worker thread gets this context.
    return await db.run(contextvars.copy_context().run, fn, db.store, *args)


def where_json(found: Mine) -> dict[str, Any]:
    """Where the blunder was made; what was played is said only with the answer."""
    return {
        "valued": found.valued,
        "code": found.code,
        "game": found.game,
        "round": found.round,
        "index": found.index,
        "step": found.step,
        "date": found.date,
    }


def told_json(found: Mine) -> dict[str, Any]:
    """With the answer: the move played in the game, what the analysis said it cost, the replay."""
    return {**where_json(found), "played": found.played, "loss": found.loss, "link": found.link}


async def list_endpoint(request: Request) -> Response:
    """``GET /api/puzzles/mine``: every blunder of the account's analysed games, newest first."""
    user = await _account(request)
    if isinstance(user, Response):
        return user
    solver, _fresh = await solver_of(request)
    found: list[Mine] = await _run(request, puzzles_of, user.id)
    rows = []
    for entry in found:
        tried = await _run(request, service.attempt_of, solver, entry.puzzle)
        rows.append(
            {
                "id": entry.puzzle.id,
                **where_json(entry),
                "tried": None if tried is None else {"correct": tried.correct},
            }
        )
    row = await _run(request, service.solver_row, solver)
    body = {"puzzles": rows, "none": _(MINE_NONE) if not rows else None, "you": you_json(row)}
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def _account(request: Request) -> Any:
    """The signed-in account asking, or the answer to give instead (429, 401)."""
    limited = held_back(request, "mine_limits", READ_RATE)
    if limited is not None:
        return limited
    user = await current_user(request)
    return _error(_(SIGN_IN_FIRST), "signed-out", 401) if user is None else user


async def _found(request: Request) -> Mine | Response:
    user = await _account(request)
    if isinstance(user, Response):
        return user
    wanted = request.path_params["id"]
    if not isinstance(wanted, str) or not wanted.startswith("mine-") or len(wanted) > 64:
        return _no_puzzle()
    found = await _run(request, mine_by_id, user.id, wanted)
    return _no_puzzle() if found is None else found


async def one_endpoint(request: Request) -> Response:
    """``GET /api/puzzles/mine/ID``: the puzzle, from the seat's view only."""
    found = await _found(request)
    if isinstance(found, Response):
        return found
    solver, _fresh = await solver_of(request)
    tried = await _run(request, service.attempt_of, solver, found.puzzle)
    row = await _run(request, service.solver_row, solver)
    body = {
        "puzzle": {**puzzle_json(found.puzzle), "mine": where_json(found)},
        "tried": None if tried is None else {"correct": tried.correct, "move": tried.move},
        "you": you_json(row),
    }
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def solve_endpoint(request: Request) -> Response:
    """``POST /api/puzzles/mine/ID/solve``: judged, never rated; the game's move with it."""
    refused, _user = await change_refused(request)
    if refused is not None:
        return _error(_(OUT_OF_DATE), refused, 403)
    found = await _found(request)
    if isinstance(found, Response):
        return found
    move = await checked_move(request, found.puzzle)
    if isinstance(move, Response):
        return move
    estimate = found.valued == "estimate"
    return await answer(
        request, found.puzzle, move, rated=False, estimate=estimate, mine=told_json(found)
    )


ROUTES = [
    Route("/api/puzzles/mine", list_endpoint),
    Route("/api/puzzles/mine/{id}", one_endpoint),
    Route("/api/puzzles/mine/{id}/solve", solve_endpoint, methods=["POST"]),
]

__all__ = ["ROUTES", "told_json", "where_json"]
