"""A store from a URL (``open_store``): the one place that picks the database.

Apart from ``store/db.py`` because it names both dialects, which build on it.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from passing_game.web.store.db import Store
from passing_game.web.store.postgres import PostgresStore
from passing_game.web.store.rows import StoreError
from passing_game.web.store.sqlite import SqliteStore

#: The default database: an SQLite file under ./data.
DEFAULT_DB = "sqlite:///data/passing-game.sqlite3"


def open_store(url: str | None = None, *, exclusive: bool = False) -> Store:
    """A store from a URL: ``sqlite:///relative.db``, ``sqlite:////abs.db``,
    ``sqlite://:memory:``, a plain file path, or ``postgresql://...``.

    ``exclusive`` (a server) refuses an SQLite file another process serves.
    """
    url = url or DEFAULT_DB
    if url.startswith(("postgresql://", "postgres://")):
        # ``?schema=NAME`` keeps the game's tables in a schema of their own
        # (made if missing): several sites, or tests, on one database.
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True)
        name = next((v for k, v in query if k == "schema"), None)
        rest = urlencode([(k, v) for k, v in query if k != "schema"])
        return PostgresStore(urlunsplit(parts._replace(query=rest)), schema=name)
    if url.startswith("sqlite://"):
        rest = url[len("sqlite://") :]
        if rest == ":memory:" or rest == "/:memory:":
            return SqliteStore(":memory:")
        return SqliteStore(rest[1:] if rest.startswith("/") else rest, exclusive=exclusive)
    if "://" in url:
        raise StoreError(f"unknown database URL {url!r}: use sqlite:///FILE or postgresql://...")
    return SqliteStore(url, exclusive=exclusive)


__all__ = ["DEFAULT_DB", "open_store"]
