"""The page as an installable app (issue 27, item 5; docs/DECISIONS.md P56).

- ``GET /manifest.webmanifest``: the web app manifest, in the visitor's
  language (its name, its description, the icons, a standalone window);
- ``GET /sw.js``: the service worker (``install/sw.js``) with what it keeps:
  ``VERSION``, a digest of every file of ``static/`` taken when the server
  starts (a new deployment is a new version, so a kept file is never stale),
  and ``FILES``, their addresses;
- ``GET /offline``: what the page says when the server cannot be reached,
  kept by the worker (in the language it was kept in).

The worker keeps the page's own files only: the game, the API and the socket
always go to the server, so nothing is played, or pretended, offline.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from html import escape
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from passing_game.i18n import N_, _, current_language
from passing_game.web.http.page import SECURITY_HEADERS

STATIC = Path(__file__).parent.parent / "static"
#: The worker's code (not a page module: the page never imports it).
WORKER = Path(__file__).parent / "sw.js"
OFFLINE = "/offline"
#: The felt of the table: the installed window's colours.
THEME = "#1f5c3a"
BACKGROUND = "#10281a"

NAME = N_("The Passing Game")
DESCRIPTION = N_(
    "A domino game for 2 to 4 players in which you may pass even when you can play:"
    " against friends and computer opponents."
)
OFFLINE_TITLE = N_("You are offline")
OFFLINE_TEXT = N_(
    "The Passing Game needs its server to play: every game is kept there, so nothing is"
    " lost while you are away. The page comes back once the connection does."
)
TRY_AGAIN = N_("Try again")


@cache
def _files() -> tuple[str, tuple[str, ...]]:
    """This deployment's version (a digest of the page's files) and their addresses."""
    digest = hashlib.sha256()
    names = []
    for path in sorted(p for p in STATIC.iterdir() if p.is_file()):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
        names.append(f"/static/{path.name}")
    digest.update(WORKER.read_bytes())
    return digest.hexdigest()[:16], tuple(names)


def manifest(request: Request) -> Response:
    data = {
        "name": _(NAME),
        "short_name": _(NAME),
        "description": _(DESCRIPTION),
        "lang": current_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": f"/static/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png"}
            for n in (192, 512)
        ]
        + [{"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"}],
    }
    headers = {"Vary": "Accept-Language, Cookie", "Cache-Control": "no-cache"}
    return JSONResponse(data, media_type="application/manifest+json", headers=headers)


def worker(request: Request) -> Response:
    version, files = _files()
    head = (
        f"const VERSION = {json.dumps(version)};\n"
        f"const FILES = {json.dumps(list(files))};\n"
        f"const OFFLINE = {json.dumps(OFFLINE)};\n"
    )
    body = head + WORKER.read_text(encoding="utf-8")
    # Never kept by the browser's cache: a new deployment is found on the next visit.
    headers = {"Cache-Control": "no-cache", "Content-Security-Policy": "default-src 'self'"}
    return Response(body, media_type="text/javascript", headers=headers)


def offline(request: Request) -> Response:
    language = current_language()
    html = (
        f'<!doctype html>\n<html lang="{escape(language)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="dark">\n'
        f"<title>{escape(_(OFFLINE_TITLE))}</title>\n"
        '<link rel="stylesheet" href="/static/app.css">\n</head>\n<body>\n'
        '<main class="lobby offline-page">\n'
        f'<h1>{escape(_(OFFLINE_TITLE))}</h1>\n<p id="offline-text">{escape(_(OFFLINE_TEXT))}</p>\n'
        f'<p><a class="button primary" href="/">{escape(_(TRY_AGAIN))}</a></p>\n'
        "</main>\n</body>\n</html>\n"
    )
    headers = {**SECURITY_HEADERS, "Vary": "Accept-Language, Cookie"}
    return HTMLResponse(html, headers=headers)


ROUTES = [
    Route("/manifest.webmanifest", manifest),
    Route("/sw.js", worker),
    Route(OFFLINE, offline),
]

__all__ = ["ROUTES"]
