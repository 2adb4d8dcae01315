"""The Starlette application: the page, its texts, and the WebSocket.

``create_app`` wires a store (SQLite by default, PostgreSQL by URL) to the
tables (``passing_game.web.tables``) and serves:

==========================  ===============================================
``GET /``, ``GET /t/CODE``  the page (lobby, or a table by its code)
``GET /static/...``         its script, style sheet and icon; no build step
``GET /api/config``         rules variants and bot levels for the lobby
``GET /api/i18n``           every text the page shows, through ``_`` (web/i18n.py)
``GET /api/rules``          the players' rules for the page's rules panel
``GET /api/tables/CODE/record?game=N``  a finished game's record
``WS  /ws``                 the game: intents in, frames out
==========================  ===============================================

On start every unfinished game is loaded from the store and its bots go on
from the last stored move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from passing_game import __version__
from passing_game.i18n import LANGUAGES, _, current_language
from passing_game.rules import (
    DRAW_RULES,
    LEADER_RULES,
    PASSING_RULES,
    SCORING_RULES,
    TARGET_PRESETS,
    Rules,
)
from passing_game.web import i18n as page_i18n
from passing_game.web.frames import level_word
from passing_game.web.protocol import (
    CODE_LENGTH,
    MAX_NAME,
    ProtocolError,
    RateLimit,
    clean_code,
    parse_intent,
)
from passing_game.web.store import Store, StoreError, open_store
from passing_game.web.tables import Conn, Lobby, bot_choices, level_choices

log = logging.getLogger("passing_game.web")

STATIC = Path(__file__).parent / "static"

#: Headers on every page response: no inline script, nothing from elsewhere.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def _page(request: Request) -> Response:
    headers = {**SECURITY_HEADERS, "Vary": "Accept-Language, Cookie"}
    return HTMLResponse(page_i18n.page_html(current_language()), headers=headers)


def _config(request: Request) -> JSONResponse:
    levels = level_choices()
    return JSONResponse(
        {
            "version": __version__,
            "levels": [{"name": n, "label": level_word(n)} for n in levels],
            "bots": bot_choices(),
            "default_level": levels[0] if levels else "random",
            "rules": {
                "draw": list(DRAW_RULES),
                "passing": list(PASSING_RULES),
                "scoring": list(SCORING_RULES),
                "leader": list(LEADER_RULES),
                "target_presets": list(TARGET_PRESETS),
            },
            "targets": {str(n): Rules(players=n).target for n in (2, 3, 4)},
            # The target each preset gives (D10): players, plus "p" with partnerships.
            "preset_targets": {
                preset: {
                    f"{n}{'p' if teams else ''}": Rules.with_target_preset(
                        preset, players=n, partnerships=teams
                    ).target
                    for n in (2, 3, 4)
                    for teams in ((False, True) if n == 4 else (False,))
                }
                for preset in TARGET_PRESETS
            },
            "max_name": MAX_NAME,
            "code_length": CODE_LENGTH,
            "languages": list(LANGUAGES),
        }
    )


async def _record(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    try:
        code = clean_code(request.path_params["code"])
    except ProtocolError as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    table = await lobby.get(code)
    if table is None:
        return JSONResponse({"error": _("there is no table {code}").format(code=code)}, 404)
    try:
        game = int(request.query_params.get("game", table.game))
    except ValueError:
        return JSONResponse({"error": _("game must be a number")}, status_code=400)
    record = await lobby.db.game_record(code, game)
    if record is None:
        # A game that goes on has no record yet: it would show every hand.
        return JSONResponse({"error": _("the record is there once the game is over")}, 409)
    return Response(
        record,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="passing-game-{code}-{game}.json"'},
    )


def _health(request: Request) -> JSONResponse:
    lobby: Lobby = request.app.state.lobby
    return JSONResponse({"ok": True, "tables": len(lobby.tables)})


async def _socket(websocket: WebSocket) -> None:
    lobby: Lobby = websocket.app.state.lobby
    await websocket.accept()
    conn = Conn(websocket.send_text)
    conn.language = current_language()  # chosen by LanguageMiddleware
    conn.limit = RateLimit(*websocket.app.state.rate_limit)

    async def pump() -> None:
        try:
            await conn.run()
        except Exception:
            conn.closed = True
        finally:
            with contextlib.suppress(Exception):
                await websocket.close()

    writer = asyncio.ensure_future(pump())
    try:
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            state = conn.table.state if conn.table is not None else 0
            if not conn.limit.allow():
                if conn.rate_error_due(time.monotonic()):
                    conn.push(_error(state, _("too many messages: slow down"), "rate-limit"))
                continue
            try:
                intent = parse_intent(text if text is not None else message.get("bytes") or b"")
                await lobby.handle(conn, intent)
            except ProtocolError as exc:
                conn.push(_error(state, str(exc), exc.code))
            except Exception as exc:  # a database that is down must not end the connection
                log.exception("could not carry out a %s message", _kind(text))
                code = "store" if isinstance(exc, StoreError) else "server"
                conn.push(_error(state, _("the server could not save that; try again"), code))
    except WebSocketDisconnect:
        pass
    finally:
        lobby.detach(conn)
        conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, timeout=1.0)


def _kind(text: str | None) -> str:
    """A message's type for the server log (never its fields: they may hold a token)."""
    try:
        kind = json.loads(text or "").get("type")
    except (ValueError, AttributeError):
        return "?"
    return kind if isinstance(kind, str) and kind.isalpha() and len(kind) <= 20 else "?"


def _error(state: int, message: str, code: str) -> dict[str, Any]:
    return {"type": "error", "state": state, "code": code, "message": message}


def create_app(
    db: str | Store | None = None,
    *,
    bot_delay: float = 0.6,
    rate_limit: tuple[float, float] = (20.0, 40.0),
    bot_workers: int = 0,
) -> Starlette:
    """The application; ``db`` is a store or a database URL (default: SQLite under ./data).

    ``bot_delay`` is how long a bot waits before it moves; ``rate_limit`` is
    the messages a second a client may send, and the burst it may send at once;
    ``bot_workers`` processes run the searching bots (0: a thread each).
    """

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = db if isinstance(db, Store) else open_store(db)
        lobby = Lobby(store, bot_delay=bot_delay, bot_workers=bot_workers)
        app.state.lobby = lobby
        resumed = await lobby.resume_all()
        if resumed:
            log.info("resumed %d unfinished game(s)", resumed)
        try:
            yield
        finally:
            await lobby.close()
            if not isinstance(db, Store):
                store.close()

    routes = [
        Route("/", _page),
        Route("/t/{code}", _page),
        Route("/api/config", _config),
        Route("/api/i18n", page_i18n.catalog),
        Route("/api/rules", page_i18n.rules),
        Route("/api/tables/{code}/record", _record),
        Route("/healthz", _health),
        WebSocketRoute("/ws", _socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    # Every request and socket in its visitor's language (web/i18n.py).
    middleware = [Middleware(page_i18n.LanguageMiddleware)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.rate_limit = rate_limit
    return app


def dumps(frame: dict[str, Any]) -> str:
    return json.dumps(frame, ensure_ascii=False)
