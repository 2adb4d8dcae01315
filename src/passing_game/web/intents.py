"""Where each client's intent goes: one route per intent type (``ROUTES``).

A route names the intent's schema (``protocol.SCHEMA``, which
``parse_intent`` checks it against), what this process does with it, and
whether the table's leader carries it out (``Lobby.lead``: this process, or
the one that leads the table). An intent that only reads (watching, a
resync) is served here; one that changes a table goes to its leader. Each
intent is routed here and nowhere else (``tests/test_web_intents.py``).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from passing_game.i18n import _
from passing_game.web.daily import open_daily
from passing_game.web.game.dealing import NOT_DEALT
from passing_game.web.game.errors import UNKNOWN_REQUEST
from passing_game.web.lobby import Lobby
from passing_game.web.protocol import SCHEMA, Intent, ProtocolError, Schema
from passing_game.web.store import hash_token
from passing_game.web.table.conn import Conn
from passing_game.web.table.runner import Table
from passing_game.web.table.tracker import tracker

log = logging.getLogger("passing_game.web")

#: What this process does with one intent of a client.
Handler = Callable[[Lobby, Conn, Intent], Awaitable[None]]


@dataclass(frozen=True)
class Route:
    """How one intent type is carried out."""

    #: Its required and optional fields (``protocol.SCHEMA``'s entry).
    schema: Schema
    #: What this process does with it; ``None``: nothing but sending it to the
    #: leader of the client's table.
    handler: Handler | None = None
    #: Whether the table's leader carries it out (``Lobby.lead``): a route with a
    #: handler sends it there itself, with what it made for it (a token's hash).
    leader: bool = False

    def __post_init__(self) -> None:
        if self.handler is None and not self.leader:
            raise ValueError("a route does something: a handler, or the leader")


async def handle(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    """Carry out one checked intent; ``ProtocolError`` leaves everything as it was."""
    route = ROUTES.get(intent.type)
    if route is None:  # pragma: no cover - parse_intent knows only routed types
        raise ProtocolError(_(UNKNOWN_REQUEST).format(type=intent.type))
    if route.handler is not None:
        await route.handler(lobby, conn, intent)
    else:
        await lobby.lead(conn, _table_of(conn), intent, {})


def _table_of(conn: Conn) -> Table:
    """The table the client sits at or watches (it joined one first)."""
    at = conn.table
    if not isinstance(at, Table):
        raise ProtocolError(_("Join a table first."), "no-table")
    return at


# -- taking a seat, watching ------------------------------------------------------


async def _create(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    table, seat, token = await lobby.create(intent, conn)
    await table.seating.sit(conn, seat, token, new=True)


async def _join(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    table = await lobby.need(intent["code"])
    # The token is made here and never leaves this process: the leader
    # (maybe another process) keeps only its hash.
    token = secrets.token_urlsafe(24)
    extra: dict[str, Any] = {"token_hash": hash_token(token)}
    if conn.user_id is not None:  # a signed-in person sits as their account
        extra["user_id"], extra["user_name"] = conn.user_id, conn.user_name
    if intent.get("invite") is not None:
        extra["invite_hash"] = hash_token(intent["invite"])
    seat = int((await lobby.lead(conn, table, intent, extra))["seat"])
    if not table.leader:
        async with table.lock:
            await table.reload()
    await table.seating.sit(conn, seat, token, new=True)


async def _resume(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    table = await lobby.need(intent["code"])
    seat = intent["seat"]
    token = intent.get("token")
    if token is None:  # a signed-in person's own seat, on any device
        await table.seating.check_owner(seat, conn.user_id)
    else:
        await table.seating.check_token(seat, token, conn.user_id)
    await table.seating.sit(conn, seat)
    if table.seats[seat].row.away in ("offline", "timeout", "left", "suspended", "paused"):
        await lobby.lead(conn, table, Intent("back"), {})


async def _watch(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    table = await lobby.need(intent["code"])
    await table.seating.sit(conn, None)


async def _daily(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    code, token = await open_daily(lobby, conn)
    if token is None:  # one attempt: the account's seat of the day, on any device
        await _resume(lobby, conn, Intent("resume", {"code": code, "seat": 0}))
        return
    await lobby.cluster.claim(code)  # its player's process leads a new table
    table = await lobby.get(code)
    assert table is not None
    await table.seating.sit(conn, 0, token, new=True)
    log.info("a daily deal started", extra={"table": code, "event": "daily"})


# -- quick play ---------------------------------------------------------------------


async def _quick(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    await lobby.quick.enter(
        conn,
        intent["players"],
        bool(intent.get("rated")),
        intent.get("name"),
        bool(intent.get("bots")),  # meet bot accounts too (P62)
    )


async def _quick_fill(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    await lobby.quick.fill(conn)


async def _quick_cancel(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    await lobby.quick.cancel(conn)


# -- at a table ---------------------------------------------------------------------


async def _sync(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    _table_of(conn).outbox.send_state(conn)


async def _hint(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    table = _table_of(conn)
    if conn.seat is None:
        raise ProtocolError(_("Spectators cannot ask for hints."), "spectator")
    await lobby.lead(conn, table, intent, {})  # counted, or refused, by the leader
    lobby.spawn(table.autoplay.hint(conn))


async def _tracker(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    """The tile tracker of the connection's seat, to it alone (any process has the view)."""
    table = _table_of(conn)
    if conn.seat is None:
        raise ProtocolError(
            _("The tile tracker shows what a player knows: take a seat first."), "spectator"
        )
    if table.dealing is not None:  # the provisional deal's hand is never the game's (P51)
        raise ProtocolError(_(NOT_DEALT), "not-dealt")
    conn.push({"state": table.state, **tracker(table.match.view(conn.seat))})


async def _invite(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    table = _table_of(conn)
    token = secrets.token_urlsafe(24)
    await lobby.lead(conn, table, intent, {"invite_hash": hash_token(token)})
    conn.push(
        {
            "type": "invite",
            "state": table.state,
            "seat": intent["seat"],
            "link": f"/t/{table.code}?invite={token}",
        }
    )


# -- the chat (web/chat/service.py): served by the process the client is on ---------


async def _say(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    await lobby.chat.say(conn, intent)


async def _chat_history(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    await lobby.chat.history(conn)


async def _chat_mute(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    await lobby.chat.mute(conn, intent)


async def _chat_unmute(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    await lobby.chat.mute(conn, intent, on=False)


async def _chat_report(lobby: Lobby, conn: Conn, intent: Intent) -> None:
    await lobby.chat.report(conn, intent)


def _route(kind: str, handler: Handler | None = None, *, leader: bool = False) -> tuple[str, Route]:
    """One intent type's route, with its schema."""
    return kind, Route(SCHEMA[kind], handler, leader)


#: Every intent type: its schema, what this process does, whether the leader does it.
ROUTES: dict[str, Route] = dict(
    [
        _route("create", _create),
        _route("join", _join, leader=True),
        _route("watch", _watch),
        _route("resume", _resume),
        _route("daily", _daily),
        _route("quick", _quick),
        _route("quick_fill", _quick_fill),
        _route("quick_cancel", _quick_cancel),
        _route("sync", _sync),
        _route("hint", _hint, leader=True),
        _route("tracker", _tracker),
        _route("invite", _invite, leader=True),
        _route("play", leader=True),
        _route("draw", leader=True),
        _route("pass", leader=True),
        _route("continue", leader=True),
        _route("rematch", leader=True),
        _route("leave", leader=True),
        _route("back", leader=True),
        _route("resign", leader=True),
        _route("hand_over", leader=True),
        _route("contribute", leader=True),
        _route("say", _say),
        _route("chat_history", _chat_history),
        _route("chat_mute", _chat_mute),
        _route("chat_unmute", _chat_unmute),
        _route("chat_report", _chat_report),
    ]
)

__all__ = ["ROUTES", "Handler", "Route", "handle"]
