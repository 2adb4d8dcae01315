"""The Starlette application: the page, its texts, and the WebSocket.

``create_app`` wires a store (SQLite by default, PostgreSQL by URL) to the
tables (``passing_game.web.table.runner``) and serves:

==========================  ===============================================
``GET /``, ``GET /t/CODE``  the page (lobby, or a table by its code)
``GET /static/...``         its script, style sheet and icon; no build step
``GET /api/config``         rules variants and bot levels for the lobby
``GET /api/i18n``           every text the page shows, through ``_`` (web/http/i18n.py)
``GET /api/rules``          the players' rules for the page's rules panel
``GET /api/tables/CODE/record?game=N``  a finished game's record
``GET /api/tables/public``  public tables to join or watch (web/quickplay/service.py)
``GET /api/daily[/DAY]``    the daily deal's table of the day (web/daily.py)
``GET /replay[/CODE/GAME]``  a finished game's replay and analysis (web/review/api.py)
``GET /learn``, ``/api/learn[/ID[/try]]``  the tutorial (web/learn/api.py)
``GET /puzzles``, ``/api/puzzles/...``  puzzles to solve (web/puzzles/api.py)
``GET /api/leaderboard?pool=2``  a pool's ratings, best first (web/ratings/service.py)
``GET /ladder``, ``/api/ladder``  the published ladder of agents (web/ladder/api.py)
``GET /api/account/games``  the signed-in person's games (web/history.py)
``GET /healthz``            whether the store and the bus answer (503 if not)
``GET /metrics``            this process's metrics, Prometheus' text format
``WS  /ws``                 the game: intents in, frames out
``WS  /bot``, ``/api/bots``  bot accounts and their socket (web/botapi/api.py)
==========================  ===============================================

On start every unfinished game is loaded from the store and its bots go on
from the last stored move.

Hardening: a WebSocket from a page of another site (its ``Origin``) is
refused unless allowed (``allowed_origins``); the record download is rate
limited per client address (``AddressLimits``) and answers a table that does
not exist exactly like one with no finished game; a client's text quoted in
an error is made printable (``protocol.shown``); uvicorn's traceback for a
text frame that is not UTF-8 becomes one warning line (``QuietBadText``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import mimetypes
import re
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from passing_game import __version__
from passing_game.i18n import LANGUAGES, _, current_language
from passing_game.learn import LESSONS
from passing_game.rules import (
    DRAW_RULES,
    LEADER_RULES,
    PASSING_RULES,
    SCORING_RULES,
    TARGET_PRESETS,
    Rules,
)
from passing_game.web import intents
from passing_game.web.accounts.api import ROUTES as ACCOUNT_ROUTES
from passing_game.web.accounts.flows import SESSION_COOKIE, hash_secret
from passing_game.web.botapi.api import ROUTES as BOT_ROUTES
from passing_game.web.chat.api import ROUTES as CHAT_ROUTES
from passing_game.web.daily import ROUTES as DAILY_ROUTES
from passing_game.web.game.errors import GAME_NUMBER, NOT_READ, NOT_SAVED
from passing_game.web.history import ROUTES as HISTORY_ROUTES
from passing_game.web.http import i18n as page_i18n
from passing_game.web.http.addresses import AddressLimits, client_key, too_many
from passing_game.web.http.origins import origin_allowed, parse_origin
from passing_game.web.http.page import page
from passing_game.web.install.api import ROUTES as INSTALL_ROUTES
from passing_game.web.ladder.api import ROUTES as LADDER_ROUTES
from passing_game.web.learn.api import ROUTES as LEARN_ROUTES
from passing_game.web.lobby import Lobby
from passing_game.web.practice.api import ROUTES as PRACTICE_ROUTES
from passing_game.web.profiles.api import ROUTES as PROFILE_ROUTES
from passing_game.web.protocol import (
    CLOCK_PRESETS,
    CODE_LENGTH,
    MAX_NAME,
    ProtocolError,
    RateLimit,
    clean_code,
    parse_intent,
    shown,
)
from passing_game.web.puzzles.api import ROUTES as PUZZLE_ROUTES
from passing_game.web.puzzles.mine_api import ROUTES as MINE_PUZZLE_ROUTES
from passing_game.web.quickplay.service import ROUTES as QUICK_ROUTES
from passing_game.web.ratings.service import ROUTES as RATING_ROUTES
from passing_game.web.reputation import ROUTES as REPUTATION_ROUTES
from passing_game.web.review.api import ROUTES as REVIEW_ROUTES
from passing_game.web.server.observe import Health, Metrics
from passing_game.web.social.api import ROUTES as SOCIAL_ROUTES
from passing_game.web.store import Store, StoreError, open_store
from passing_game.web.table.botplay import bot_choices, level_about, level_choices
from passing_game.web.table.conn import Conn
from passing_game.web.table.frames import level_word
from passing_game.web.table.runner import Timing
from passing_game.web.tournament.api import ROUTES as TOURNAMENT_ROUTES
from passing_game.web.yourdata.export import ROUTES as EXPORT_ROUTES
from passing_game.web.yours import ROUTES as YOURS_ROUTES

log = logging.getLogger("passing_game.web")

STATIC = Path(__file__).parent.parent / "static"
# The page's scripts are ES modules, which a browser runs only when served with a
# JavaScript type; the system's table (a Windows registry says text/plain) may not.
mimetypes.add_type("text/javascript", ".js")


def _level(name: str) -> dict[str, Any]:
    """A level as the lobby offers it: its name, its word, and for the levels a
    newcomer chooses from, a title and how it plays."""
    found: dict[str, Any] = {"name": name, "label": level_word(name)}
    words = level_about(name)
    if words is not None:
        found["title"], found["about"] = words
    return found


def _config(request: Request) -> JSONResponse:
    levels = level_choices()
    return JSONResponse(
        {
            "version": __version__,
            "levels": [_level(n) for n in levels],
            "bots": bot_choices(),
            "default_level": levels[0] if levels else "random",
            # The clocks a table may have (P26): "none" first, then the presets.
            "clocks": ["none", *CLOCK_PRESETS],
            "clock_presets": CLOCK_PRESETS,
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
            # The tutorial's lessons and their parts: the lobby offers the rest of it
            # to whoever has done the basics (P47).
            "lessons": [{"id": lesson.id, "part": lesson.part} for lesson in LESSONS],
        }
    )


#: The highest game number the record download looks up (an SQL ``INTEGER``).
MAX_GAME = 2**31 - 1
_GAME = re.compile(r"[0-9]{1,10}")


async def _record(request: Request) -> Response:
    lobby: Lobby = request.app.state.lobby
    limits: AddressLimits = request.app.state.record_limits
    wait = limits.wait(request.client.host if request.client else None)
    if wait > 0:
        message, seconds = too_many(wait)
        return JSONResponse({"error": message}, 429, headers={"Retry-After": str(seconds)})
    try:
        code = clean_code(request.path_params["code"])
    except ProtocolError as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    asked = request.query_params.get("game")
    game: int | None = None
    if asked is not None:
        if not _GAME.fullmatch(asked) or not 1 <= int(asked) <= MAX_GAME:
            return JSONResponse({"error": _(GAME_NUMBER).format(n=MAX_GAME)}, 400)
        game = int(asked)
    try:
        if game is None:  # the table's current game; a table is not loaded to play for this
            table = lobby.tables.get(code)
            stored = None if table is not None else await lobby.db.load_table(code)
            game = table.game if table is not None else stored.game if stored else None
        record = None if game is None else await lobby.db.game_record(code, game)
    except Exception:
        log.exception("could not read a game record")
        return JSONResponse({"error": _(NOT_READ)}, 503)
    if record is None:
        # No such table, or its game goes on (its record would show every hand):
        # the same answer, so that nobody can find live tables by trying codes.
        message = _(
            "There is no finished game to download: check the table code,"
            " or wait until the game is over."
        )
        return JSONResponse({"error": message}, 404)
    return Response(
        record,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="passing-game-{code}-{game}.json"'},
    )


async def _health(request: Request) -> JSONResponse:
    health: Health = request.app.state.health
    body, status = await health.check(request.app.state.lobby)
    return JSONResponse(body, status)


def _metrics(request: Request) -> Response:
    metrics: Metrics = request.app.state.metrics
    body, content_type = metrics.render()
    return Response(body, headers={"Content-Type": content_type})


async def _socket(websocket: WebSocket) -> None:
    lobby: Lobby = websocket.app.state.lobby
    origin = websocket.headers.get("origin")
    # A browser names the page that opens a socket; a page of another site may not
    # play here in its visitor's name. Tools that send no Origin are let in.
    if origin is not None and not origin_allowed(websocket, origin):
        log.warning("refused a WebSocket from another site's page (Origin %s)", shown(origin, 100))
        await websocket.close(code=1008)  # policy violation; uvicorn answers HTTP 403
        return
    await websocket.accept()
    conn = Conn(websocket.send_text)
    conn.language = current_language()  # chosen by LanguageMiddleware
    conn.limit = RateLimit(*websocket.app.state.rate_limit)
    conn.address = client_key(websocket)
    # The signed-in person, from the session cookie the socket came with; the
    # session is checked again before every intent (web/accounts/sessions.py).
    session = websocket.cookies.get(SESSION_COOKIE)
    if session:
        user = await lobby.accounts.user_of(session)
        if user is not None:
            conn.user_id, conn.user_name = user.id, user.name
            conn.session_hash = hash_secret(session)
            lobby.sessions.add(conn)

    async def pump() -> None:
        try:
            await conn.run()
        except Exception:
            conn.closed = True
        finally:
            with contextlib.suppress(Exception):
                await websocket.close()

    writer = asyncio.ensure_future(pump())
    connections = websocket.app.state.metrics.connections
    connections.inc()
    try:
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            state = conn.table.state if conn.table is not None else 0
            if not conn.limit.allow():
                if conn.rate_error_due(time.monotonic()):
                    conn.push(
                        _error(
                            state, _("Too many requests at once: slow down a little."), "rate-limit"
                        )
                    )
                continue
            try:
                intent = parse_intent(text if text is not None else message.get("bytes") or b"")
                if not await lobby.sessions.check(conn):
                    break  # the session ended: the socket was told why and closes
                await intents.handle(lobby, conn, intent)
            except ProtocolError as exc:
                conn.push(_error(state, str(exc), exc.code))
            except Exception as exc:  # a database that is down must not end the connection
                log.exception("could not carry out a %s message", _kind(text))
                code = "store" if isinstance(exc, StoreError) else "server"
                if code == "store":
                    websocket.app.state.metrics.store_error()
                conn.push(_error(state, _(NOT_SAVED), code))
    except WebSocketDisconnect:
        pass
    finally:
        connections.dec()
        lobby.sessions.discard(conn)
        lobby.quick.gone(conn)  # a person waiting for quick play leaves the queue
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
    # Never anything UTF-8 cannot carry: it would end the connection instead.
    message = message.encode("utf-8", "replace").decode("utf-8")
    return {"type": "error", "state": state, "code": code, "message": message}


class QuietBadText(logging.Filter):
    """uvicorn logs a text frame that is not valid UTF-8 at ERROR, with a whole
    traceback; anybody can send one, so it becomes one warning line without
    the message's content."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, UnicodeDecodeError) and "utf-8" in str(record.msg).lower():
            record.msg, record.args = "closed a WebSocket that sent text that is not UTF-8", ()
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True


QUIET_BAD_TEXT = QuietBadText()


def create_app(
    db: str | Store | None = None,
    *,
    bot_delay: float = 0.6,
    rate_limit: tuple[float, float] = (20.0, 40.0),
    bot_workers: int = 0,
    allowed_origins: Iterable[str] = (),
    record_rate_limit: tuple[float, float] = (1.0, 10.0),
    timing: Timing | None = None,
) -> Starlette:
    """The application; ``db`` is a store or a database URL (default: SQLite under ./data).

    ``bot_delay`` is how long a bot waits before it moves; ``rate_limit`` is
    the messages a second a client may send, and the burst it may send at once;
    ``bot_workers`` processes run the searching bots (0: a thread each).
    ``allowed_origins`` (``https://host[:port]``) may open sockets besides the
    page's own origin; ``record_rate_limit`` is the record downloads a second
    one client address may make, and its burst. ``timing`` says how long a
    table waits for people (offline grace, the round summary's countdown).
    """
    origins = set()
    for url in allowed_origins:
        found = parse_origin(url)
        if found is None:
            raise ValueError(
                _("{url} is not an origin like https://example.com:8443").format(url=url)
            )
        origins.add(found)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = db if isinstance(db, Store) else open_store(db)
        lobby = Lobby(
            store,
            bot_delay=bot_delay,
            bot_workers=bot_workers,
            timing=timing,
            metrics=app.state.metrics,
        )
        app.state.lobby = lobby
        app.state.accounts = lobby.accounts
        app.state.sessions = lobby.sessions
        # After uvicorn has set up its logging (idempotent: one filter however many apps).
        logging.getLogger("uvicorn.error").addFilter(QUIET_BAD_TEXT)
        resumed = await lobby.start()
        if resumed:
            log.info("resumed %d unfinished game(s)", resumed)
        try:
            yield
        finally:
            app.state.health.close()
            await lobby.close()
            if not isinstance(db, Store):
                store.close()

    routes = [
        *ACCOUNT_ROUTES,
        *REVIEW_ROUTES,
        *QUICK_ROUTES,
        *DAILY_ROUTES,
        *HISTORY_ROUTES,
        *YOURS_ROUTES,
        *RATING_ROUTES,
        *LEARN_ROUTES,
        *MINE_PUZZLE_ROUTES,  # before PUZZLE_ROUTES: /api/puzzles/{id} would take "mine"
        *PUZZLE_ROUTES,
        *PRACTICE_ROUTES,
        *REPUTATION_ROUTES,
        *TOURNAMENT_ROUTES,
        *CHAT_ROUTES,
        *INSTALL_ROUTES,
        *EXPORT_ROUTES,
        *PROFILE_ROUTES,
        *SOCIAL_ROUTES,
        *LADDER_ROUTES,
        *BOT_ROUTES,
        Route("/", page),
        Route("/t/{code}", page),
        Route("/api/config", _config),
        Route("/api/i18n", page_i18n.catalog),
        Route("/api/rules", page_i18n.rules),
        Route("/api/tables/{code}/record", _record),
        Route("/healthz", _health),
        Route("/metrics", _metrics),
        WebSocketRoute("/ws", _socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    # Every request and socket in its visitor's language (web/http/i18n.py).
    middleware = [Middleware(page_i18n.LanguageMiddleware)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.rate_limit = rate_limit
    app.state.allowed_origins = frozenset(origins)
    app.state.record_limits = AddressLimits(*record_rate_limit)
    # One registry per app (web/server/observe.py). Open sockets are counted in _socket.
    app.state.metrics = Metrics(
        tables=lambda: len(app.state.lobby.tables),
        leases=lambda: app.state.lobby.cluster.lease_count(),
    )
    app.state.health = Health()
    return app


def dumps(frame: dict[str, Any]) -> str:
    return json.dumps(frame, ensure_ascii=False)
