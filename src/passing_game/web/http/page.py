"""The page itself: its HTML in the visitor's language, with the headers that
keep it to its own scripts (``SECURITY_HEADERS``).

Apart from ``app`` so that every module serving the page (the replay's,
``review``) serves it the same way without importing the application.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from passing_game.i18n import current_language
from passing_game.web.http import i18n as page_i18n

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


def page(request: Request) -> Response:
    """The page, in the visitor's language (``LanguageMiddleware`` chose it)."""
    headers = {**SECURITY_HEADERS, "Vary": "Accept-Language, Cookie"}
    return HTMLResponse(page_i18n.page_html(current_language()), headers=headers)


__all__ = ["SECURITY_HEADERS", "page"]
