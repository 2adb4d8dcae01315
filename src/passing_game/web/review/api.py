"""Replay and analysis of finished games in the browser (issue 13).

====================================  ==================================================
``GET  /replay``                      the page: open a downloaded record (an upload)
``GET  /replay/CODE/GAME``            the page: replay a table's finished game
                                      (``?seat=N&step=K``: a seat's view, a step)
``GET  /api/replay/CODE/GAME``        that game's steps (``replay_data``)
``POST /api/replay``                  the steps of an uploaded record (its JSON as the body)
``POST /api/analysis``                start, or find, the analysis of one seat:
                                      ``{"code", "game", "seat"}`` or ``{"record", "seat"}``
``GET  /api/analysis/HASH/SEAT``      its progress, or the analysis once done
====================================  ==================================================

**One rules implementation.** The server replays a record
(``web/review/replay.py``) through the engine (``load_record``, then
``steps.build_steps``, as ``passing-game replay`` does) and hands the page
every step: the train, every hand, the boneyard's size, the move and its log
sentence in the visitor's language, the scores, the marks of moves a bot
made for a person, and each round's result. The page draws them; it knows no
rule.

**Only finished games.** A stored game is read with ``Store.game_record``,
which answers only once the game is over (the record download's rule: its
record shows every hand); a game that goes on and a table that does not exist
get the same 404. An uploaded record must be of a finished game too, and is
checked by ``load_record``; it is never stored.

**Analysis** (``passing_game.bots.analysis``: the expert, from the seat's
view only) runs in worker processes (``Analyst``, ``web/review/analyses.py``:
a bounded spawn-context ``ProcessPoolExecutor``, at most ``MAX_JOBS`` analyses at a time per server
process) and is kept in ``web_analyses`` per record and seat, keyed by a hash
of the canonical record and the method. While it runs its row holds its
progress, so a page polling any server process sees it; a row left by a
process that died goes stale after ``STALE_SECONDS`` and is taken over. The
result is kept in words for every language (the hint explainer's sentences
need the seat's views).

**Limits before work** (issue 22). A request is counted against its client's
address (``address_key``) before its body is read; records are parsed and
replayed in worker threads, never on the event loop, ``MAX_PARSES`` at once
(then 503); an address runs ``MAX_JOBS_PER_ADDRESS`` analysis at a time (then
429). A refusal is ``{"error": a sentence, "code"}``, whatever the body holds.

POSTs need the page's CSRF token (``X-CSRF-Token``, as ``/api/account``'s).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.i18n import N_, _
from passing_game.web.accounts.api import change_refused
from passing_game.web.game.errors import GAME_NUMBER, OUT_OF_DATE
from passing_game.web.http.addresses import address_wait, client_key, too_many
from passing_game.web.http.page import page
from passing_game.web.protocol import ProtocolError, clean_code
from passing_game.web.review.analyses import (
    STALE_SECONDS,
    Analyst,
    analyst,
    peek,
    set_analyst,
    worded,
)
from passing_game.web.review.replay import (
    MAX_RECORD_BYTES,
    Refused,
    analysis_message,
    not_found,
    parse_record,
    record_hash,
    replay_data,
    stored_record,
)
from passing_game.web.review.replay import asked as ask
from passing_game.web.store import Store
from passing_game.web.store import history as history_rows

log = logging.getLogger("passing_game.web")

#: The highest game number looked up (an SQL ``INTEGER``).
MAX_GAME = 2**31 - 1
#: Per address, a second and in a burst: replays; ``POST /api/analysis`` (even a cached
#: one parses the record); analyses started. The first two are counted before any work.
REPLAY_REQUESTS, ANALYSIS_REQUESTS, ANALYSIS_STARTS = (2.0, 20.0), (0.5, 10.0), (1 / 20, 4.0)
#: How long an address that has its ``MAX_JOBS_PER_ADDRESS`` analyses running is
#: asked to wait (429, ``Retry-After``).
HELD_RETRY = 10
#: Records parsed or replayed at once in one server process, in worker threads (then
#: 503, ``Retry-After: PARSE_RETRY``).
MAX_PARSES, PARSE_RETRY = 2, 2

_T = TypeVar("_T")
_PARSER = ThreadPoolExecutor(max_workers=MAX_PARSES, thread_name_prefix="review-parse")
_PARSE_SLOTS = threading.BoundedSemaphore(MAX_PARSES)


#: Refusals this module sends from more than one place (each worded once).
NO_ANALYSIS = N_("This analysis is not here any more: ask for it again.")


async def _off_loop(fn: Callable[..., _T], *args: Any) -> _T:
    """``fn(*args)`` in one of this module's worker threads, in this request's context
    (its language), so that no parse or replay holds the event loop; 503 when all
    ``MAX_PARSES`` are taken."""
    if not _PARSE_SLOTS.acquire(blocking=False):
        busy = _("The server is busy reading other game records: try again in a few seconds.")
        raise Refused(503, busy, "busy", PARSE_RETRY)
    try:
        future = _PARSER.submit(contextvars.copy_context().run, fn, *args)
    except BaseException:
        _PARSE_SLOTS.release()
        raise
    # Freed when the work ends, or is cancelled before it starts (never twice).
    future.add_done_callback(lambda _done: _PARSE_SLOTS.release())
    return await asyncio.wrap_future(future)


async def _stored_text(request: Request, code_text: Any, game_text: Any) -> str:
    """The record of a table's finished game (``not_found`` otherwise)."""
    try:
        code = clean_code(code_text)
    except ProtocolError as exc:
        raise Refused(400, str(exc), "bad-code") from None
    if isinstance(game_text, int) and not isinstance(game_text, bool):
        game = game_text
    elif isinstance(game_text, str) and game_text.isdigit() and len(game_text) <= 10:
        game = int(game_text)
    else:
        game = 0
    if not 1 <= game <= MAX_GAME:
        raise Refused(400, _(GAME_NUMBER).format(n=MAX_GAME), "bad-game")
    record: str | None = await request.app.state.lobby.db.game_record(code, game)
    if record is None:
        raise not_found()
    return record


def bot_seats(store: Store, code: str) -> list[bool]:
    """Which seats of the table a bot account holds (P62): the replay marks them."""
    with store.transaction() as tx:
        return [row.bot for row, _name in history_rows.seats_at(tx, code)]


# -- the endpoints ---------------------------------------------------------------------


def _limit(request: Request, name: str, rate_burst: tuple[float, float]) -> None:
    """Count this request against its client's ``name`` limit; 429 when it is over."""
    wait = address_wait(request, name, rate_burst)
    if wait > 0:
        raise _too_many(wait)


def _too_many(wait: float) -> Refused:
    message, seconds = too_many(wait)
    return Refused(429, message, "rate-limit", seconds)


def _answer(exc: Refused) -> JSONResponse:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
    return JSONResponse({"error": exc.message, "code": exc.code}, exc.status, headers=headers)


async def _check_csrf(request: Request) -> None:
    """The site's own page and its CSRF token, as every POST (``account_api``)."""
    refused, _user = await change_refused(request)
    if refused is not None:
        raise Refused(403, _(OUT_OF_DATE), refused)


async def read_body(request: Request, most: int) -> bytes:
    """The request's body, at most ``most`` bytes (else 413 ``too-large``, as a record)."""
    declared = request.headers.get("content-length")
    too_big = Refused(
        413,
        _("The file is too large: a game record is at most {n} KB.").format(n=most // 1024),
        "too-large",
    )
    if declared is not None and declared.isdigit() and int(declared) > most:
        raise too_big
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            raise too_big
        chunks.append(chunk)
    return b"".join(chunks)


async def replay_stored(request: Request) -> Response:
    """``GET /api/replay/CODE/GAME``: the steps of a table's finished game."""
    code, game = request.path_params["code"], request.path_params["game"]
    try:
        _limit(request, "replay_limits", REPLAY_REQUESTS)
        text = await _stored_text(request, code, game)
        body = await _off_loop(lambda: replay_data(*stored_record(text)))
    except Refused as exc:
        return _answer(exc)
    body["code"], body["game"] = clean_code(code), int(game)
    db = request.app.state.lobby.db
    body["bots"] = await db.run(bot_seats, db.store, body["code"])  # bot accounts (P62)
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def replay_upload(request: Request) -> Response:
    """``POST /api/replay``: the steps of a record the visitor opened (never stored)."""
    try:
        await _check_csrf(request)
        _limit(request, "replay_limits", REPLAY_REQUESTS)
        raw = await read_body(request, MAX_RECORD_BYTES)
        body = await _off_loop(lambda: replay_data(*parse_record(raw)))
    except Refused as exc:
        return _answer(exc)
    body["code"], body["game"] = None, None
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def start_analysis(request: Request) -> Response:
    """``POST /api/analysis``: the analysis of one seat, started if nobody has it yet."""
    try:
        await _check_csrf(request)
        # Before the body is read: finding even a cached analysis parses the record.
        _limit(request, "analysis_requests", ANALYSIS_REQUESTS)
        raw = await read_body(request, MAX_RECORD_BYTES + 4096)
        asked = await _off_loop(analysis_message, raw)
        if isinstance(asked, dict):
            text = await _stored_text(request, asked.get("code"), asked.get("game"))
            seat_value = asked.get("seat")
            asked = await _off_loop(lambda: ask(*stored_record(text), seat_value))
        key, seat = asked.key, asked.seat
        worker = analyst()
        job = worker.job(key, seat)
        if job is not None:
            return JSONResponse(_progress(key, seat, job.done, job.total))
        db = request.app.state.lobby.db
        store: Store = db.store
        # A cached analysis first: no other limit, no work.
        kind, state = await db.run(peek, store, key, seat)
        if kind != "none":
            return _known(kind, state, key, seat)
        if worker.busy():
            busy = _("The server is busy analysing other games: try again in a minute.")
            raise Refused(503, busy, "busy", 60)
        address = client_key(request)
        if not worker.hold(address):
            held = _("Your other analysis is still running: try again once it is done.")
            raise Refused(429, held, "one-at-a-time", HELD_RETRY)
        started = False
        try:
            _limit(request, "analysis_limits", ANALYSIS_STARTS)
            kind, state = await db.run(worker.claim, store, key, seat, asked.total)
            if kind == "mine":
                worker.start(store, asked, address)
                started = True
                return JSONResponse(_progress(key, seat, 0, asked.total), 202)
        finally:
            if not started:
                worker.let_go(address)
        return _known(kind, state, key, seat)
    except Refused as exc:
        return _answer(exc)


def _known(kind: str, state: Mapping[str, Any], key: str, seat: int) -> JSONResponse:
    """The answer for an analysis found ``done`` or ``running`` in ``web_analyses``."""
    if kind == "done":
        return JSONResponse(worded(state, key, seat))
    return JSONResponse(_progress(key, seat, state.get("done", 0), state.get("total", 0)))


def _progress(key: str, seat: int, done: int, total: int) -> dict[str, Any]:
    return {"hash": key, "seat": seat, "status": "running", "done": done, "total": total}


async def analysis_status(request: Request) -> Response:
    """``GET /api/analysis/HASH/SEAT``: progress, or the analysis once done."""
    key = str(request.path_params["key"])
    seat_text = str(request.path_params["seat"])
    hexadecimal = len(key) == 64 and all(c in "0123456789abcdef" for c in key)
    if not hexadecimal or seat_text not in ("0", "1", "2", "3"):
        return JSONResponse(
            {
                "error": _(NO_ANALYSIS),
                "code": "not-found",
            },
            404,
        )
    seat = int(seat_text)
    worker = analyst()
    job = worker.job(key, seat)
    if job is not None:
        return JSONResponse(_progress(key, seat, job.done, job.total))
    kind, state = await request.app.state.lobby.db.run(
        peek, request.app.state.lobby.db.store, key, seat
    )
    if kind != "none":
        return _known(kind, state, key, seat)
    failed = worker.failed.get((key, seat))
    if failed is not None:
        return JSONResponse(
            {
                "hash": key,
                "seat": seat,
                "status": "failed",
                "error": _("The analysis failed; try again."),
            },
            500,
        )
    return JSONResponse(
        {"error": _(NO_ANALYSIS), "code": "not-found"},
        404,
    )


ROUTES = [
    Route("/replay", page),
    Route("/replay/{code}/{game}", page),
    Route("/api/replay", replay_upload, methods=["POST"]),
    Route("/api/replay/{code}/{game}", replay_stored),
    Route("/api/analysis", start_analysis, methods=["POST"]),
    Route("/api/analysis/{key}/{seat}", analysis_status),
]

__all__ = [
    "MAX_PARSES",
    "MAX_RECORD_BYTES",
    "ROUTES",
    "STALE_SECONDS",
    "Analyst",
    "analyst",
    "read_body",
    "record_hash",
    "replay_data",
    "set_analyst",
]
