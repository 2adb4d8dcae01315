"""Bot accounts over HTTP, and a bot's WebSocket (issue 28, item 4; P62).

=======================================  ==============================================
``GET  /api/bots``                        the signed-in person's bot accounts
``POST /api/bots``                        ``{"name"}``: a new bot account; its token,
                                          shown once
``POST /api/bots/{name}/token``           a new token (the old one stops working)
``POST /api/bots/{name}/revoke``          no token works any more
``WS   /bot``                             a bot plays: ``Authorization: Bearer TOKEN``
=======================================  ==============================================

The POSTs are the site's like any (``accounts.api.signed_post``: its own
page, the CSRF token, signed in, a small JSON object); a refusal is
``{"error", "code"}`` with a 4xx and changes nothing. A token is in exactly
one answer, the one that made it, and never in a log.

The socket is opened by a program with ``Authorization: Bearer TOKEN`` and
nothing else: no ``Origin`` (a web page sends one, and no page may play as a
bot), no token in the address, no cookie. A refusal comes before the socket
is accepted, as an HTTP answer with a JSON body (``{"error", "code"}``: 401
``no-token`` or ``bad-token``, 403 ``origin`` or ``suspended``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from passing_game.bots import protocol
from passing_game.i18n import _, current_language, using_language
from passing_game.web.accounts.api import current_user, signed_post
from passing_game.web.accounts.flows import hash_secret
from passing_game.web.botapi import service
from passing_game.web.botapi.hub import BotHub
from passing_game.web.botapi.link import CLOSED_WORDS, BotLink
from passing_game.web.botapi.model import MOST_BOTS, bearer
from passing_game.web.game.errors import NOT_READ, SIGN_IN_FIRST
from passing_game.web.http.addresses import client_key
from passing_game.web.lobby import Lobby
from passing_game.web.protocol import ProtocolError
from passing_game.web.table.conn import encode

log = logging.getLogger("passing_game.web")

#: The most bytes a POST's body may take.
MAX_BODY = 1024
NO_STORE = {"Cache-Control": "no-store"}
T = TypeVar("T")


def _error(message: str, code: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status, headers=NO_STORE)


async def _run(request: Request, fn: Callable[..., T], *args: Any) -> T:
    """``fn(store, *args)`` in the store's threads, worded in the asker's language."""
    lobby: Lobby = request.app.state.lobby
    language = current_language()

    def worded() -> T:
        with using_language(language):
            return fn(lobby.store, *args)

    return await lobby.db.run(worded)


async def listing(request: Request) -> Response:
    user = await current_user(request)
    if user is None:
        return _error(_(SIGN_IN_FIRST), "signed-out", 401)
    try:
        bots = await _run(request, service.listing, user.id, time.time())
    except Exception:
        log.exception("could not list the bot accounts")
        return _error(_(NOT_READ), "store", 503)
    return JSONResponse({"bots": bots, "most": MOST_BOTS}, headers=NO_STORE)


async def make(request: Request) -> Response:
    """A new bot account: its JSON and its token, shown this once."""
    got = await signed_post(request, MAX_BODY)
    if isinstance(got, JSONResponse):
        return got
    user, body = got
    address = hash_secret(client_key(request))
    try:
        made, token = await _run(
            request, service.create, user.id, body.get("name"), time.time(), address
        )
    except ProtocolError as exc:
        return _error(str(exc), exc.code, getattr(exc, "status", 400))
    log.info("a bot account was made", extra={"event": "bot-made"})
    return JSONResponse({"bot": made, "token": token}, 201, headers=NO_STORE)


async def action(request: Request) -> Response:
    """A bot's token replaced, or revoked."""
    got = await signed_post(request, MAX_BODY)
    if isinstance(got, JSONResponse):
        return got
    user, _body = got
    name, what = request.path_params["name"], request.path_params["action"]
    now = time.time()
    try:
        if what == "token":
            bot, token = await _run(request, service.replace_token, user.id, name, now)
            log.info("a bot's token was replaced", extra={"event": "bot-token"})
            return JSONResponse({"bot": bot, "token": token}, headers=NO_STORE)
        if what == "revoke":
            bot = await _run(request, service.revoke, user.id, name, now)
            log.info("a bot's token was revoked", extra={"event": "bot-revoke"})
            return JSONResponse({"bot": bot}, headers=NO_STORE)
    except ProtocolError as exc:
        return _error(str(exc), exc.code, getattr(exc, "status", 400))
    return _error(_("There is no such request."), "bad-request", 404)


# -- the socket ----------------------------------------------------------------------------


async def _deny(websocket: WebSocket, status: int, code: str, message: str) -> None:
    """Refuse the socket before it is open: an HTTP answer a program can read."""
    try:
        await websocket.send_denial_response(JSONResponse({"error": message, "code": code}, status))
    except RuntimeError:  # a server without the extension: open, say why, close
        await websocket.accept()
        await websocket.send_text(encode(protocol.site_error(code, message)))
        await websocket.close(code=4000 + status)


async def bot_socket(websocket: WebSocket) -> None:
    """``WS /bot``: a bot account plays (docs/BOTS.md, "On the site")."""
    lobby: Lobby = websocket.app.state.lobby
    if websocket.headers.get("origin") is not None:
        log.warning("refused a bot socket opened by a web page", extra={"event": "bot-origin"})
        return await _deny(
            websocket, 403, "origin", "a bot's socket is opened by a program, not by a web page"
        )
    token = bearer(websocket.headers.get("authorization"))
    if token is None:
        said = "send the bot's token as the header Authorization: Bearer TOKEN"
        if "token" in websocket.query_params:
            said += " (never in the address: addresses are logged)"
        return await _deny(websocket, 401, "no-token", said)
    nonce = f"{lobby.cluster.process}:{secrets.token_hex(8)}"
    row = await lobby.db.run(service.login, lobby.store, token, nonce, time.time())
    if row is None:
        log.info("refused a bot socket: unknown token", extra={"event": "bot-token"})
        said = "no bot has this token: it was revoked, replaced or mistyped"
        return await _deny(websocket, 401, "bad-token", said)
    if not row.usable:
        return await _deny(websocket, 403, "suspended", CLOSED_WORDS["suspended"])
    await websocket.accept()
    hub = BotHub.of(websocket.app)
    link = BotLink(hub, row, nonce, websocket.send_text, current_language())
    hub.add(link)
    log.info("a bot connected", extra={"event": "bot-connect"})

    async def pump() -> None:
        try:
            await link.wire.run()
        except Exception:
            link.closed = True
        finally:
            with contextlib.suppress(Exception):
                await websocket.close()

    writer = asyncio.ensure_future(pump())
    try:
        while not link.closed:
            # The site may end the socket (``closed``) while the bot says nothing.
            receiving = asyncio.ensure_future(websocket.receive())
            await asyncio.wait({receiving, writer}, return_when=asyncio.FIRST_COMPLETED)
            if not receiving.done():
                receiving.cancel()
                break
            message = receiving.result()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if not link.limit.allow():
                if link.rate_error_due(time.monotonic()):
                    link.send(protocol.site_error("rate-limit", "too many lines: slow down"))
                continue
            try:
                await link.line(text if text is not None else message.get("bytes") or b"")
            except Exception:  # nothing a bot sends ends its socket
                log.exception("could not carry out a bot's line")
                link.send(protocol.site_error("server", "the server could not carry that out"))
    except WebSocketDisconnect:
        pass
    finally:
        hub.remove(link)
        link.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, timeout=1.0)


ROUTES = [
    Route("/api/bots", listing),
    Route("/api/bots", make, methods=["POST"]),
    Route("/api/bots/{name}/{action}", action, methods=["POST"]),
    WebSocketRoute("/bot", bot_socket),
]

__all__ = ["ROUTES", "bot_socket"]
