"""The account's HTTP endpoints: sign up, sign in, sign out, password, delete (issue 13).

======================================  =========================================
``GET  /api/account``                   who is signed in, and the page's CSRF token
``POST /api/account/signup``            ``{"name", "password", "seats"?}``
``POST /api/account/signin``            ``{"name", "password", "seats"?}``
``POST /api/account/signout``
``POST /api/account/password``          ``{"old", "new"}``
``POST /api/account/delete``            ``{"password"}``
``POST /api/account/seats``             ``{"seats": [{"code", "seat", "token"}]}``
======================================  =========================================

Every POST needs the ``X-CSRF-Token`` header equal to the ``pg_csrf``
cookie (``accounts.csrf_ok``) and a JSON object body of at most 4 KB; an
answer is ``{"user": ...}`` or ``{"error", "code"}`` with a 4xx status.
``seats`` are the seats this browser holds as a guest: they become the
account's (a guest who signs up keeps the games of that browser).
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.i18n import _
from passing_game.web.accounts import (
    CSRF_COOKIE,
    CSRF_HEADER,
    MIN_PASSWORD,
    SESSION_COOKIE,
    SESSION_SECONDS,
    AccountError,
    Accounts,
    RateLimited,
    User,
    csrf_ok,
)
from passing_game.web.protocol import MAX_MESSAGE_BYTES, ProtocolError, clean_code

log = logging.getLogger("passing_game.web")

Handler = Callable[[Request], Awaitable[Response]]


def secure(request: Request) -> bool:
    """Whether the page was served over https (directly or behind a proxy that says so)."""
    return request.url.scheme == "https"


def user_json(user: User | None) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"id": user.id, "name": user.name, "created": user.created}


async def current_user(request: Request) -> User | None:
    """The signed-in person of this request, if any."""
    accounts: Accounts = request.app.state.accounts
    session = request.cookies.get(SESSION_COOKIE)
    if not session:
        return None
    user: User | None = await request.app.state.lobby.db.run(accounts.user_of, session)
    return user


def error(exc: AccountError) -> JSONResponse:
    status = 429 if isinstance(exc, RateLimited) else 400
    if exc.code in ("bad-credentials", "suspended"):
        status = 401 if exc.code == "bad-credentials" else 403
    headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
    return JSONResponse({"error": str(exc), "code": exc.code}, status, headers=headers)


async def body_of(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_MESSAGE_BYTES:
        raise AccountError(_("message too long"), "too-long")
    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        raise AccountError(_("a message must be a JSON object"), "bad-request") from None
    if not isinstance(data, dict):
        raise AccountError(_("a message must be a JSON object"), "bad-request")
    return data


def guarded(handler: Callable[[Request, dict[str, Any]], Awaitable[Response]]) -> Handler:
    """A POST endpoint: CSRF checked, the body read, account errors answered."""

    async def endpoint(request: Request) -> Response:
        if not csrf_ok(request.cookies.get(CSRF_COOKIE), request.headers.get(CSRF_HEADER)):
            return JSONResponse(
                {"error": _("this page is out of date: reload it and try again"), "code": "csrf"},
                403,
            )
        try:
            return await handler(request, await body_of(request))
        except AccountError as exc:
            return error(exc)

    return endpoint


def seats_of(data: dict[str, Any]) -> list[tuple[str, int, str]]:
    """The guest seats a request names, the malformed ones left out."""
    found = []
    given = data.get("seats")
    for item in given if isinstance(given, list) else []:
        if not isinstance(item, dict):
            continue
        try:
            code = clean_code(item.get("code"))
        except ProtocolError:
            continue
        seat, token = item.get("seat"), item.get("token")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
            continue
        if isinstance(token, str) and 16 <= len(token) <= 64:
            found.append((code, seat, token))
    return found


def signed_in(request: Request, user: User, session: str, **extra: Any) -> Response:
    response = JSONResponse({"user": user_json(user), **extra})
    response.set_cookie(
        SESSION_COOKIE,
        session,
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="lax",
        secure=secure(request),
        path="/",
    )
    return response


async def me(request: Request) -> Response:
    """Who is signed in, and the CSRF token the page sends with every change."""
    token = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
    user = await current_user(request)
    response = JSONResponse(
        {"user": user_json(user), "csrf": token, "min_password": MIN_PASSWORD},
        headers={"Cache-Control": "no-store"},
    )
    if request.cookies.get(CSRF_COOKIE) != token:
        response.set_cookie(
            CSRF_COOKIE, token, httponly=True, samesite="lax", secure=secure(request), path="/"
        )
    return response


async def seats_changed(request: Request, seats: list[tuple[str, int, str]]) -> None:
    """Guest seats just became an account's: the tables held in memory, by this
    process and the others, read their seats again (a leader would otherwise keep,
    and write back, the seat without its account)."""
    lobby = request.app.state.lobby
    for code in sorted({code for code, _seat, _token in seats}):
        table = lobby.tables.get(code)
        if table is not None:
            async with table.lock:
                await table.reload()
        lobby.cluster.emit(code, {"reset": 1})


async def sign_up(request: Request, data: dict[str, Any]) -> Response:
    accounts: Accounts = request.app.state.accounts
    db = request.app.state.lobby.db
    user, session = await db.run(accounts.sign_up, data.get("name"), data.get("password"))
    kept = await db.run(accounts.claim_seats, user, seats_of(data))
    if kept:
        await seats_changed(request, seats_of(data))
    log.info("an account was made", extra={"event": "signup"})
    return signed_in(request, user, session, seats=kept)


async def sign_in(request: Request, data: dict[str, Any]) -> Response:
    accounts: Accounts = request.app.state.accounts
    db = request.app.state.lobby.db
    address = request.client.host if request.client else "?"
    user, session = await db.run(accounts.sign_in, data.get("name"), data.get("password"), address)
    kept = await db.run(accounts.claim_seats, user, seats_of(data))
    if kept:
        await seats_changed(request, seats_of(data))
    old = request.cookies.get(SESSION_COOKIE)
    if old:  # the session id changes at sign-in: the old one is closed
        await db.run(accounts.sign_out, old)
    return signed_in(request, user, session, seats=kept)


async def sign_out(request: Request, data: dict[str, Any]) -> Response:
    accounts: Accounts = request.app.state.accounts
    session = request.cookies.get(SESSION_COOKIE)
    if session:
        await request.app.state.lobby.db.run(accounts.sign_out, session)
    response = JSONResponse({"user": None})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


async def need_user(request: Request) -> tuple[User, str]:
    user = await current_user(request)
    if user is None:
        raise AccountError(_("please sign in first"), "signed-out")
    return user, str(request.cookies.get(SESSION_COOKIE))


async def change_password(request: Request, data: dict[str, Any]) -> Response:
    accounts: Accounts = request.app.state.accounts
    user, session = await need_user(request)
    await request.app.state.lobby.db.run(
        accounts.change_password, user, data.get("old"), data.get("new"), session
    )
    return JSONResponse({"user": user_json(user)})


async def delete_account(request: Request, data: dict[str, Any]) -> Response:
    accounts: Accounts = request.app.state.accounts
    user, _session = await need_user(request)
    await request.app.state.lobby.db.run(accounts.delete, user, data.get("password"))
    response = JSONResponse({"user": None})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


async def claim_seats(request: Request, data: dict[str, Any]) -> Response:
    accounts: Accounts = request.app.state.accounts
    user, _session = await need_user(request)
    kept = await request.app.state.lobby.db.run(accounts.claim_seats, user, seats_of(data))
    if kept:
        await seats_changed(request, seats_of(data))
    return JSONResponse({"user": user_json(user), "seats": kept})


ROUTES = [
    Route("/api/account", me),
    Route("/api/account/signup", guarded(sign_up), methods=["POST"]),
    Route("/api/account/signin", guarded(sign_in), methods=["POST"]),
    Route("/api/account/signout", guarded(sign_out), methods=["POST"]),
    Route("/api/account/password", guarded(change_password), methods=["POST"]),
    Route("/api/account/delete", guarded(delete_account), methods=["POST"]),
    Route("/api/account/seats", guarded(claim_seats), methods=["POST"]),
]
