"""What the commands open: a saved game record, and the web site's store.

``replay`` and ``analyse`` read records, ``serve`` and ``admin`` open the
store; each failure becomes one clear message (a ``ClickException``), said
the same way by every command.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from passing_game.errors import RecordError
from passing_game.i18n import _
from passing_game.records import load_record

if TYPE_CHECKING:
    from passing_game.match import Match
    from passing_game.web.store import Store


def read_record(path: Path) -> tuple[Match, dict[str, Any]]:
    """The record at ``path`` replayed, and its parsed JSON (names, marks)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise click.ClickException(
            _("cannot read {path}: {reason}").format(path=path, reason=exc.strerror or exc)
        ) from None
    try:
        match = load_record(raw)
    except RecordError as exc:
        raise click.ClickException(
            _("{path} is not a usable game record: {reason}").format(path=path, reason=exc)
        ) from None
    data: dict[str, Any] = json.loads(raw)
    return match, data


def open_web_store(url: str | None, *, exclusive: bool = False) -> Store:
    """The web site's store at ``url`` (the default SQLite file when None)."""
    try:
        from passing_game.web.store import DEFAULT_DB, StoreError, open_store
    except ImportError as exc:  # pragma: no cover - the web extra is missing
        raise click.ClickException(
            _("the web app needs its extra: pip install 'passing-game[web]' ({reason})").format(
                reason=exc
            )
        ) from None
    try:
        return open_store(url or DEFAULT_DB, exclusive=exclusive)
    except (StoreError, OSError) as exc:
        raise click.ClickException(
            _("cannot open the database: {reason}").format(reason=exc)
        ) from None
    except Exception as exc:  # a database driver's own error (PostgreSQL down, bad password)
        raise click.ClickException(
            _("cannot open the database: {reason}").format(reason=str(exc).strip())
        ) from None
