"""Publishing a ladder, and the newest one as the page reads it (P63).

``publish`` is the moderators' (``passing-game admin ladder publish``): the
file is checked whole (``model.parse``) before anything is written, and
the ladder and its line in the moderators' log are one transaction, like
every moderator's action (``web/admin.py``). ``shown`` is what
``GET /api/ladder`` answers, read from the store on every request, so every
server process shows the same ladder as soon as it is published.
"""

from __future__ import annotations

import functools
import json
import time
from importlib import resources
from typing import Any

from passing_game.web.admin import AdminError, _log, check_reason
from passing_game.web.ladder.model import LadderFileError, parse
from passing_game.web.store import Store
from passing_game.web.store import ladder as rows
from passing_game.web.table.botplay import level_about


def publish(
    store: Store, text: str | bytes, *, actor: str, reason: str, now: float | None = None
) -> tuple[int, dict[str, Any]]:
    """Check a ladder file and make it the site's ladder; its number and the document.

    A file the site will not show (``LadderFileError``) or a missing reason
    is an ``AdminError`` saying why, and nothing is written.
    """
    reason = check_reason(reason)
    try:
        document = parse(text)
    except LadderFileError as exc:
        raise AdminError(str(exc)) from None
    with store.transaction() as tx:
        at = time.time() if now is None else now
        number = rows.add(tx, at, actor, reason, json.dumps(document))
        agents = len(document["agents"])
        _log(tx, actor, "ladder", f"ladder #{number} ({agents} agents)", reason)
    return number, document


def latest(store: Store) -> rows.PublishedLadder | None:
    with store.transaction() as tx:
        return rows.latest(tx)


def shown(store: Store) -> dict[str, Any] | None:
    """The newest published ladder as the page draws it, in the visitor's language; None before one.

    A level also carries what a newcomer calls it on this site and how it
    plays (``table.botplay.level_about``). Who published it and why stay in
    the moderators' log.
    """
    found = latest(store)
    if found is None:
        return None
    return {"number": found.id, "published": found.published, **_worded(json.loads(found.document))}


def shipped() -> dict[str, Any] | None:
    """The ladder the project measured for this version, as the page draws it
    (package data ``data/ladder.json``; docs/STRENGTH.md "Ladder"): what the
    page shows until a moderator publishes the site's own. None without it."""
    text = _shipped_text()
    if text is None:
        return None
    return {"number": 0, "published": None, "shipped": True, **_worded(parse(text))}


@functools.cache
def _shipped_text() -> str | None:
    """The shipped file's text, read once a process (it comes with the package)."""
    try:
        return resources.files("passing_game.web.ladder").joinpath("data/ladder.json").read_text()
    except OSError:
        return None


def _worded(document: dict[str, Any]) -> dict[str, Any]:
    for agent in document["agents"]:
        words = level_about(agent["label"]) if agent["kind"] == "level" else None
        if words is not None:
            agent["title"], agent["about"] = words
    return document


__all__ = ["latest", "publish", "shipped", "shown"]
