"""The account's HTTP endpoints: sign up, sign in, sign out, password, delete (issues 13, 22).

======================================  =========================================
``GET  /api/account``                   who is signed in, and the page's CSRF token
``POST /api/account/signup``            ``{"name", "password", "seats"?}``
``POST /api/account/signin``            ``{"name", "password", "seats"?}``
``POST /api/account/signout``
``POST /api/account/password``          ``{"old", "new"}``
``POST /api/account/delete``            ``{"password"}``
``POST /api/account/seats``             ``{"seats": [{"code", "seat", "token"}]}``
======================================  =========================================

Every POST must come from the site's own page (``origins.same_site``), carry
the page's CSRF token in ``X-CSRF-Token`` (while signed in the one derived
from the session, ``accounts.csrf_for``; else the ``pg_csrf`` cookie's) and
a JSON object body of at most 4 KB. An answer is ``{"user": ..., "csrf"}``
or ``{"error", "code"}`` with a 4xx status, whatever the body holds.
Signing in, up or out and changing the password answer with the new CSRF
token; ending a session closes its sockets (``sessions.Sessions``).
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

from passing_game.i18n import N_, _
from passing_game.web.accounts.flows import (
    CSRF_COOKIE,
    CSRF_HEADER,
    DEVICE_COOKIE,
    DEVICE_SECONDS,
    MIN_PASSWORD,
    SESSION_COOKIE,
    SESSION_SECONDS,
    AccountError,
    Accounts,
    RateLimited,
    Runner,
    SignedIn,
    User,
    csrf_for,
    csrf_ok,
    hash_secret,
)
from passing_game.web.accounts.recovery import Recovery
from passing_game.web.accounts.sessions import Sessions
from passing_game.web.game.errors import OUT_OF_DATE, SIGN_IN_FIRST, UNREADABLE
from passing_game.web.http.addresses import client_key
from passing_game.web.http.origins import same_site
from passing_game.web.protocol import MAX_MESSAGE_BYTES, ProtocolError, clean_code

log = logging.getLogger("passing_game.web")

Handler = Callable[[Request], Awaitable[Response]]
Action = Callable[[Request, dict[str, Any], User | None], Awaitable[Response]]


#: Refusals this module sends from more than one place (each worded once).
TOO_MUCH = N_("The page sent too much at once.")


def secure(request: Request) -> bool:
    """Whether the page was served over https (directly or behind a proxy that says so)."""
    return request.url.scheme == "https"


def user_json(user: User | None) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"id": user.id, "name": user.name, "created": user.created}


def _accounts(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


def _sessions(request: Request) -> Sessions:
    sessions: Sessions = request.app.state.sessions
    return sessions


async def current_user(request: Request) -> User | None:
    """The signed-in person of this request, if any."""
    return await _accounts(request).user_of(request.cookies.get(SESSION_COOKIE))


def error(exc: ProtocolError) -> JSONResponse:
    status = 400
    if isinstance(exc, RateLimited):
        status = 429
    elif exc.code == "bad-credentials":
        status = 401
    elif exc.code == "suspended":
        status = 403
    elif exc.code == "too-long":
        status = 413
    headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
    return JSONResponse({"error": str(exc), "code": exc.code}, status, headers=headers)


def _refused(message: str, code: str, status: int = 403) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status)


async def body_of(request: Request) -> dict[str, Any]:
    """The request's JSON object; anything else (too long, not JSON, nested past
    what the parser takes) an ``AccountError``, never a server error."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_MESSAGE_BYTES:
        raise AccountError(_(TOO_MUCH), "too-long")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_MESSAGE_BYTES:
            raise AccountError(_(TOO_MUCH), "too-long")
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise AccountError(_(UNREADABLE), "bad-request") from None
    if not isinstance(data, dict):
        raise AccountError(_(UNREADABLE), "bad-request")
    return data


def guarded(action: Action) -> Handler:
    """A POST endpoint: the site's own page, its CSRF token, the body read, every
    refusal answered as a 4xx."""

    async def endpoint(request: Request) -> Response:
        refused, user = await change_refused(request)
        if refused is not None:
            return _refused(_(OUT_OF_DATE), refused)
        try:
            return await action(request, await body_of(request), user)
        except ProtocolError as exc:
            return error(exc)

    return endpoint


async def change_refused(request: Request) -> tuple[str | None, User | None]:
    """Why a request that changes something is refused (``"cross-site"``,
    ``"csrf"``), or ``None``; and the signed-in person. Every POST of the site
    asks this (the account's, the replay's and the analysis')."""
    if not same_site(request):
        log.warning("refused a POST from another site's page", extra={"event": "cross-site"})
        return "cross-site", None
    session = request.cookies.get(SESSION_COOKIE)
    user = await _accounts(request).user_of(session)
    expected = csrf_for(session) if user is not None and session else None
    if expected is None:
        expected = request.cookies.get(CSRF_COOKIE)
    if not csrf_ok(expected, request.headers.get(CSRF_HEADER)):
        return "csrf", user
    return None, user


async def signed_post(
    request: Request, max_body: int, sign_in: str = SIGN_IN_FIRST
) -> tuple[User, dict[str, Any]] | JSONResponse:
    """A POST a feature carries out for the signed-in person (the chat's, the
    friends', the tournaments'): the person and the body's JSON object, or the
    error to answer with (another site's page, no CSRF token, signed out, a body
    longer than ``max_body`` bytes or not a JSON object)."""
    refused, user = await change_refused(request)
    if refused is not None:
        return _refused(_(OUT_OF_DATE), refused)
    if user is None:
        return _refused(_(sign_in), "signed-out", 401)
    raw = await request.body()
    try:
        if len(raw) > max_body:
            raise ValueError(len(raw))
        body = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        return _refused(_(UNREADABLE), "bad-request", 400)
    if not isinstance(body, dict):
        return _refused(_(UNREADABLE), "bad-request", 400)
    return user, body


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
        if isinstance(token, str) and 16 <= len(token) <= 64 and token.isascii():
            found.append((code, seat, token))
    return found


def _cookie(response: Response, request: Request, name: str, value: str, age: int | None) -> None:
    response.set_cookie(
        name, value, max_age=age, httponly=True, samesite="lax", secure=secure(request), path="/"
    )


def signed_in(request: Request, signed: SignedIn, **extra: Any) -> Response:
    """The answer to a sign-in: the session, its CSRF token, the device remembered."""
    csrf = csrf_for(signed.session)
    response = JSONResponse({"user": user_json(signed.user), "csrf": csrf, **extra})
    _cookie(response, request, SESSION_COOKIE, signed.session, SESSION_SECONDS)
    _cookie(response, request, CSRF_COOKIE, csrf, None)
    if signed.device is not None:
        _cookie(response, request, DEVICE_COOKIE, signed.device, DEVICE_SECONDS)
    return response


def signed_out(request: Request) -> Response:
    """The answer once the session is gone: a guest's new CSRF token."""
    csrf = secrets.token_urlsafe(24)
    response = JSONResponse({"user": None, "csrf": csrf})
    response.delete_cookie(SESSION_COOKIE, path="/")
    _cookie(response, request, CSRF_COOKIE, csrf, None)
    return response


async def me(request: Request) -> Response:
    """Who is signed in, and the CSRF token the page sends with every change."""
    session = request.cookies.get(SESSION_COOKIE)
    user = await current_user(request)
    if user is not None and session:
        token = csrf_for(session)
    else:
        token = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
    response = JSONResponse(
        {"user": user_json(user), "csrf": token, "min_password": MIN_PASSWORD},
        headers={"Cache-Control": "no-store"},
    )
    if request.cookies.get(CSRF_COOKIE) != token:
        _cookie(response, request, CSRF_COOKIE, token, None)
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


async def _claim(request: Request, user: User, data: dict[str, Any]) -> int:
    db = request.app.state.lobby.db
    kept: int = await db.run(_accounts(request).claim_seats, user, seats_of(data))
    if kept:
        await seats_changed(request, seats_of(data))
    return kept


async def sign_up(request: Request, data: dict[str, Any], _user: User | None) -> Response:
    signed = await _accounts(request).sign_up(
        data.get("name"), data.get("password"), client_key(request)
    )
    kept = await _claim(request, signed.user, data)
    log.info("an account was made", extra={"event": "signup"})
    # Shown once, never stored in clear: the way back in if the password is lost.
    codes = await _db_run(request)(_recovery(request).issue, signed.user.id)
    return signed_in(request, signed, seats=kept, recovery_codes=codes)


def _db_run(request: Request) -> Runner:
    run: Runner = request.app.state.lobby.db.run
    return run


def _recovery(request: Request) -> Recovery:
    return Recovery(_accounts(request), _db_run(request))


async def recover(request: Request, data: dict[str, Any], _user: User | None) -> Response:
    """Back in with a recovery code and a new password: every other session ends,
    its sockets too, on every process; this browser is signed in."""
    signed = await _recovery(request).recover(
        data.get("name"), data.get("code"), data.get("password"), client_key(request)
    )
    _sessions(request).end("session-ended", user_id=signed.user.id)
    log.info("an account was recovered with a code", extra={"event": "recovered"})
    return signed_in(request, signed)


async def sign_in(request: Request, data: dict[str, Any], _user: User | None) -> Response:
    signed = await _accounts(request).sign_in(
        data.get("name"),
        data.get("password"),
        client_key(request),
        request.cookies.get(DEVICE_COOKIE),
    )
    kept = await _claim(request, signed.user, data)
    old = request.cookies.get(SESSION_COOKIE)
    if old:  # the session id changes at sign-in: the old one is closed, its sockets too
        await _accounts(request).sign_out(old)
        _sessions(request).end("session-ended", session_hash=hash_secret(old))
    return signed_in(request, signed, seats=kept)


async def sign_out(request: Request, data: dict[str, Any], _user: User | None) -> Response:
    session = request.cookies.get(SESSION_COOKIE)
    if session:
        await _accounts(request).sign_out(session)
        _sessions(request).end("session-ended", session_hash=hash_secret(session))
    return signed_out(request)


def need_user(user: User | None) -> User:
    if user is None:
        raise AccountError(_(SIGN_IN_FIRST), "signed-out")
    return user


async def change_password(request: Request, data: dict[str, Any], user: User | None) -> Response:
    """A new password ends every session of the account (a thief's too), on every
    process; this browser signs in again with a new one."""
    person = need_user(user)
    signed = await _accounts(request).change_password(
        person, data.get("old"), data.get("new"), client_key(request)
    )
    old = request.cookies.get(SESSION_COOKIE) or ""
    _sessions(request).end("session-ended", user_id=person.id, keep=hash_secret(old))
    return signed_in(request, signed)


async def delete_account(request: Request, data: dict[str, Any], user: User | None) -> Response:
    person = need_user(user)
    await _accounts(request).delete(person, data.get("password"), client_key(request))
    _sessions(request).end("deleted", user_id=person.id)
    response = signed_out(request)
    response.delete_cookie(DEVICE_COOKIE, path="/")
    return response


async def claim_seats(request: Request, data: dict[str, Any], user: User | None) -> Response:
    person = need_user(user)
    kept = await _claim(request, person, data)
    return JSONResponse({"user": user_json(person), "seats": kept})


ROUTES = [
    Route("/api/account", me),
    Route("/api/account/signup", guarded(sign_up), methods=["POST"]),
    Route("/api/account/signin", guarded(sign_in), methods=["POST"]),
    Route("/api/account/recover", guarded(recover), methods=["POST"]),
    Route("/api/account/signout", guarded(sign_out), methods=["POST"]),
    Route("/api/account/password", guarded(change_password), methods=["POST"]),
    Route("/api/account/delete", guarded(delete_account), methods=["POST"]),
    Route("/api/account/seats", guarded(claim_seats), methods=["POST"]),
]
