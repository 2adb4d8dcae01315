"""Which pages may talk to the server: the site's own, and the origins it allows.

A browser names the page behind every WebSocket and every POST (the
``Origin`` header). A page of another site may not play or change an
account in its visitor's name: the socket is refused before it is accepted
(issue 11) and a POST answers 403 (issue 22), besides its CSRF token.
Tools that send no ``Origin`` are let in; the CSRF token still holds for
them.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_origin(url: str) -> tuple[str, str, int] | None:
    """An origin's scheme, host and port (default port filled in), or ``None``.

    >>> parse_origin("HTTPS://Example.com"), parse_origin("http://[::1]:8000/")
    (('https', 'example.com', 443), ('http', '::1', 8000))
    >>> parse_origin("null"), parse_origin("ftp://x"), parse_origin("http://x:99999")
    (None, None, None)
    """
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def origin_allowed(connection: Any, origin: str) -> bool:
    """The page's own origin (the scheme and ``Host`` this request or socket came
    to), or one of the app's ``allowed_origins``."""
    found = parse_origin(origin)
    if found is None:
        return False
    if found in connection.app.state.allowed_origins:
        return True
    scheme = "https" if connection.url.scheme in ("https", "wss") else "http"
    return found == parse_origin(f"{scheme}://{connection.headers.get('host', '')}")


def same_site(connection: Any) -> bool:
    """Whether a request may change something: no ``Origin`` (a tool) or an allowed
    one, and not marked cross-site by the browser (``Sec-Fetch-Site``)."""
    origin = connection.headers.get("origin")
    if origin is not None and not origin_allowed(connection, origin):
        return False
    return connection.headers.get("sec-fetch-site", "same-origin") in ("same-origin", "none")


__all__ = ["DEFAULT_PORTS", "origin_allowed", "parse_origin", "same_site"]
