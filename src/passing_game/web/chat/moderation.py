"""The moderators' side of the chat (``passing-game admin chat``; P58).

Reports with their context, a message deleted, an account muted for a time,
a report closed without action. Each action and its line in
``web_admin_log`` are one transaction, as every moderator's action is
(``web/admin.py``). Suspending an account is ``passing-game admin suspend``:
a suspended account has no session, so it cannot chat either.

A deleted message leaves every history at once (the store is read for
each); open pages drop it within seconds (``Chat._deletions`` on every
server process, and the tournament page's poll). A mute is read from the
store on every message, on whichever process it comes.
"""

from __future__ import annotations

import re
import time

from passing_game.i18n import _
from passing_game.web.admin import AdminError, _find, _log, check_reason
from passing_game.web.chat.model import Message
from passing_game.web.store import Store
from passing_game.web.store import chat as rows

#: The longest mute a moderator gives (a longer one is a suspension's work).
LONGEST_MUTE = 366 * 86400
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_DURATION = re.compile(r"(\d+)\s*([smhd])")


def parse_duration(text: str) -> float:
    """``"2h"``, ``"30m"``, ``"1d12h"`` as seconds.

    >>> parse_duration("1h30m")
    5400.0
    """
    given = "".join(str(text).split()).lower()
    parts = _DURATION.findall(given)
    if not given or "".join(n + u for n, u in parts) != given:
        raise AdminError(_("write a time as a number and a unit: 90s, 30m, 2h or 7d"))
    seconds = float(sum(int(n) * _UNITS[u] for n, u in parts))
    if not 0 < seconds <= LONGEST_MUTE:
        raise AdminError(_("a chat mute lasts from a second to a year"))
    return seconds


def reports(store: Store, open_only: bool = True, limit: int = 100) -> list[rows.Report]:
    """The reports, oldest first, each with its message and context."""
    with store.transaction() as tx:
        return rows.reports(tx, open_only, limit)


def delete(store: Store, id: int, *, actor: str, reason: str) -> Message:
    """Take a message away (every history drops it); its open reports close."""
    reason = check_reason(reason)
    now = time.time()
    with store.transaction() as tx:
        found = rows.delete(tx, id, now)
        if found is None:
            raise AdminError(_("there is no chat message {id}").format(id=id))
        rows.close_reports(tx, found.id, None, now)
        _log(tx, actor, "chat-delete", f"#{id} {found.name} @ {found.place}", reason)
    return found


def mute(store: Store, name: str, seconds: float, *, actor: str, reason: str) -> float:
    """The account may not chat anywhere for ``seconds``; until when."""
    reason = check_reason(reason)
    until = time.time() + seconds
    with store.transaction() as tx:
        user, shown, _suspended = _find(tx, name)
        rows.mute(tx, user, until, reason, actor)
        _log(tx, actor, "chat-mute", f"{shown} [{user}]", reason)
    return until


def close(store: Store, report: int, *, actor: str, reason: str) -> None:
    """Close a report without acting on its message."""
    reason = check_reason(reason)
    with store.transaction() as tx:
        if rows.close_reports(tx, None, report, time.time()) != 1:
            raise AdminError(_("there is no open report {id}").format(id=report))
        _log(tx, actor, "chat-close", f"report #{report}", reason)


__all__ = ["LONGEST_MUTE", "close", "delete", "mute", "parse_duration", "reports"]
