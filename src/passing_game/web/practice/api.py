"""``POST /api/practice``: play on from a replay's position against bots (issue 25, item 3).

The body names a finished game and a step of its replay, as the replay page
numbers them (one step for each round's deal, then one for each move), and
the practice round's choices::

    {"code": "ABC234", "game": 1, "step": 12, "seat": 0, "level": "hard",
     "hidden": "redeal", "name": "Ana"}
    {"record": {...}, "step": 12, "seat": 0, "level": "hard", "hidden": "real"}

``seat`` is an index from 0 (P27): the seat the person plays, the one whose
view the replay showed; ``level`` one of the lobby's bot levels; ``hidden``
``"real"`` (the hidden tiles as they were) or ``"redeal"`` (dealt again,
consistent with the seat's view: ``model.redeal``); ``name`` optional (a
signed-in person plays under their account's name). A table's game is read
with the replay's rule (finished games only; a game that goes on, or none, is
the same 404); an uploaded record is checked by ``load_record`` and never
stored. The answer is ``{"code", "seat", "token", "link", "hidden", "level"}``:
the page keeps the seat's token as for any table it sits at and opens the link.

A refusal is ``{"error": a sentence, "code"}`` and changes nothing: ``bad-request``
(not JSON, not an object), ``too-large``, ``bad-code``, ``bad-game``,
``not-found``, ``record``, ``not-over``, ``bad-seat``, ``bad-step`` (not a step
of the replay), ``round-over`` (the round is over at that step: nothing is left
to play), ``bad-level``, ``bad-hidden``, a name refused (``bad-name`` and the
names' own codes), ``rate-limit`` (429), ``busy`` (503). The POST needs the
page's CSRF token like every POST.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import threading
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.i18n import _
from passing_game.match import Match
from passing_game.web.accounts.api import change_refused
from passing_game.web.game.errors import GAME_NUMBER, OUT_OF_DATE, UNREADABLE
from passing_game.web.http.addresses import AddressLimits, too_many
from passing_game.web.practice.model import HIDDEN, PracticeError, Setup, setup
from passing_game.web.practice.service import practice_table
from passing_game.web.protocol import ProtocolError, clean_code, clean_name
from passing_game.web.review.api import read_body
from passing_game.web.review.replay import (
    MAX_RECORD_BYTES,
    Refused,
    decode,
    not_found,
    parse_record,
    seat_of,
    stored_record,
)
from passing_game.web.table.botplay import level_choices

log = logging.getLogger("passing_game.web")

#: Practice tables an address may make: a second, and in a burst.
PRACTICE_REQUESTS = (0.2, 10.0)
#: Records read at once for practice in one process (then 503).
MAX_READS = 2
#: The highest game number looked up (an SQL ``INTEGER``).
MAX_GAME = 2**31 - 1

_READS = threading.BoundedSemaphore(MAX_READS)


def _answer(exc: Refused) -> JSONResponse:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
    return JSONResponse({"error": exc.message, "code": exc.code}, exc.status, headers=headers)


def _limit(request: Request) -> None:
    state = request.app.state
    limits = getattr(state, "practice_limits", None)
    if limits is None:
        limits = state.practice_limits = AddressLimits(*PRACTICE_REQUESTS)
    wait = float(limits.wait(request.client.host if request.client else None))
    if wait > 0:
        message, seconds = too_many(wait)
        raise Refused(429, message, "rate-limit", seconds)


async def _body(request: Request) -> dict[str, Any]:
    raw = await read_body(request, MAX_RECORD_BYTES + 4096)
    try:
        body = decode(raw)
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise Refused(400, _(UNREADABLE), "bad-request")
    return body


def _choices(body: Mapping[str, Any]) -> tuple[str, str]:
    """The bot level and the way the hidden tiles are dealt, checked."""
    level = body.get("level")
    levels = level_choices()
    if not isinstance(level, str) or level not in levels:
        raise Refused(
            400,
            _("There is no such computer level: choose one of {levels}.").format(
                levels=", ".join(levels)
            ),
            "bad-level",
        )
    hidden = body.get("hidden")
    if not isinstance(hidden, str) or hidden not in HIDDEN:
        raise Refused(
            400,
            _("Choose how the hidden tiles are dealt: as they were, or dealt again."),
            "bad-hidden",
        )
    return level, hidden


def _game_number(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        game = value
    elif isinstance(value, str) and value.isdigit() and len(value) <= 10:
        game = int(value)
    else:
        game = 0
    if not 1 <= game <= MAX_GAME:
        raise Refused(400, _(GAME_NUMBER).format(n=MAX_GAME), "bad-game")
    return game


def _setup(data: Mapping[str, Any], match: Match, body: Mapping[str, Any], hidden: str) -> Setup:
    """The practice round the body asks for (off the event loop)."""
    seat = seat_of(body.get("seat"), match.rules.players)
    step = body.get("step")
    rounds = data.get("rounds")
    try:
        return setup(
            match,
            step,
            seat,
            hidden,
            random.Random(secrets.randbits(64)),
            rounds=len(rounds) if isinstance(rounds, list) else None,
        )
    except PracticeError as exc:
        if exc.code == "round-over":
            over = _("The round is over at this move: step back to a move where it goes on.")
            raise Refused(400, over, "round-over") from None
        raise Refused(
            400, _("This game's replay has no such move to play on from."), "bad-step"
        ) from None


async def _read(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` in a thread (a record's replay can be long); 503 when busy."""
    if not _READS.acquire(blocking=False):
        busy = _("The server is busy reading other game records: try again in a few seconds.")
        raise Refused(503, busy, "busy", 2)
    try:
        return await asyncio.to_thread(fn, *args)
    finally:
        _READS.release()


def _name(body: Mapping[str, Any], user: Any) -> str:
    if user is not None:
        return str(user.name)
    given = body.get("name")
    if given is None or given == "":
        return _("Player")
    try:
        return clean_name(given)
    except ProtocolError as exc:
        raise Refused(
            400, str(exc), exc.code if exc.code != "bad-request" else "bad-name"
        ) from None


async def start_practice(request: Request) -> Response:
    """``POST /api/practice``: a practice table from a replay's position."""
    try:
        refused, user = await change_refused(request)
        if refused is not None:
            raise Refused(403, _(OUT_OF_DATE), refused)
        _limit(request)
        body = await _body(request)
        level, hidden = _choices(body)
        name = _name(body, user)
        lobby = request.app.state.lobby
        if "record" in body:
            record = body["record"]
            if not isinstance(record, Mapping):
                record = b"" if not isinstance(record, (str, bytes)) else record
                if isinstance(record, str):
                    record = record.encode()
            data, match = await _read(parse_record, record)
        else:
            try:
                code = clean_code(body.get("code"))
            except ProtocolError as exc:
                raise Refused(400, str(exc), "bad-code") from None
            text = await lobby.db.game_record(code, _game_number(body.get("game")))
            if text is None:
                raise not_found()
            data, match = await _read(stored_record, text)
        found = await _read(_setup, data, match, body, hidden)
        token = secrets.token_urlsafe(24)
        code = await lobby.db.run(practice_table, lobby.db.store, found, name, level, token)
    except Refused as exc:
        return _answer(exc)
    log.info("practice table %s made", code, extra={"event": "practice", "table": code})
    return JSONResponse(
        {
            "code": code,
            "seat": found.seat,
            "token": token,
            "link": f"/t/{code}",
            "hidden": hidden,
            "level": level,
        },
        201,
        headers={"Cache-Control": "no-store"},
    )


ROUTES = [Route("/api/practice", start_practice, methods=["POST"])]

__all__ = ["PRACTICE_REQUESTS", "ROUTES", "start_practice"]
