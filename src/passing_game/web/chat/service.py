"""The chat on several processes (issue 27, item 1; P58): checked, stored, then told.

A table's message comes as a ``say`` intent on the table's socket
(``intents.py``). The process that gets it checks it (``model``), keeps it
in the store in one transaction with the checks that need the store (a
moderator's mute, the rate counted over the author's stored messages), then
delivers it to its own clients at the table and puts it on the bus
(``Cluster.emit``): every other process delivers it to its own
(``Lobby.on_event`` hands chat events here, never to the replica).

Delivery is per reader: the channel's rule (``model.may_read``), the
reader's own mutes and blocks (``web_ignores``, read where it is delivered)
and the reader's language for a preset. A tournament's chat is the same
rows, read by its page's poll (``chat/api.py``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Protocol

from passing_game.i18n import _
from passing_game.web.chat import model
from passing_game.web.chat.model import Channel, ChatError, Message
from passing_game.web.protocol import Intent, ProtocolError
from passing_game.web.store import Store, ignores
from passing_game.web.store import chat as rows

if TYPE_CHECKING:
    from passing_game.web.server.cluster import Cluster
    from passing_game.web.store import AsyncStore
    from passing_game.web.table.conn import Conn
    from passing_game.web.table.runner import Table

log = logging.getLogger("passing_game.web")

#: Seconds between two looks for messages a moderator deleted (open pages drop them).
DELETIONS_EVERY = 2.0


def keep(store: Store, message: Message, now: float) -> Message | tuple[str, float]:
    """Check what needs the store and keep the message, in one transaction: the
    message with its id, or why not (``("muted", until)``, ``("rate", 0)``)."""
    with store.transaction() as tx:
        if message.user_id is not None:
            until = rows.muted_until(tx, message.user_id, now)
            if until is not None:
                return ("muted", until)
        if not model.rate_ok(rows.recent_times(tx, message.author, now - model.RATE_SECONDS), now):
            return ("rate", 0.0)
        return rows.add(tx, message)


def refusal(why: tuple[str, float]) -> ChatError:
    """``keep``'s refusal in the asker's language."""
    kind, until = why
    if kind == "muted":
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))
        return ChatError(_(model.MUTED).format(when=when), "chat-muted")
    return ChatError(_(model.TOO_FAST), "chat-rate")


def _readers_ignoring(store: Store, author_id: str, readers: list[str]) -> set[str]:
    with store.transaction() as tx:
        return rows.ignoring(tx, author_id, readers)


def _history(
    store: Store, place: str, channels: list[str], user_id: str | None
) -> tuple[list[Message], dict[str, ignores.Kind]]:
    with store.transaction() as tx:
        found = rows.history(tx, place, channels, model.HISTORY)
        ignored = ignores.ignored_by(tx, user_id) if user_id is not None else {}
    return found, ignored


def _get(store: Store, id: int) -> Message | None:
    with store.transaction() as tx:
        return rows.get(tx, id)


def mute_author(store: Store, user_id: str, id: int, now: float, on: bool = True) -> Message | None:
    """``user_id`` mutes (``on``) or unmutes the author of message ``id`` (an account's;
    a block stays: it is lifted where it was set); the message."""
    with store.transaction() as tx:
        found = rows.get(tx, id, deleted=not on)
        if found is not None and found.user_id is not None and found.user_id != user_id:
            if on:
                ignores.ignore(tx, user_id, found.user_id, "mute", now)
            else:
                ignores.unignore(tx, user_id, found.user_id, "mute")
        return found


def report(store: Store, id: int, reporter: str, reporter_id: str | None, now: float) -> int | None:
    """Report message ``id``, with its context; the report's id (``None``: no such message)."""
    with store.transaction() as tx:
        found = rows.get(tx, id)
        if found is None:
            return None
        return rows.add_report(tx, found, reporter, reporter_id, now)


class Host(Protocol):
    """What the chat needs of the lobby (``web/lobby.py``)."""

    @property
    def store(self) -> Store: ...

    @property
    def db(self) -> AsyncStore: ...

    @property
    def cluster(self) -> Cluster: ...

    @property
    def tables(self) -> dict[str, Table]: ...

    @property
    def closing(self) -> bool: ...

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]: ...


class Chat:
    """This process's side of the chat: its clients' messages, and delivery to them."""

    def __init__(self, lobby: Host) -> None:
        self.lobby = lobby
        #: A guest spectator's author key, one per connection.
        self._guests: weakref.WeakKeyDictionary[Conn, str] = weakref.WeakKeyDictionary()
        self._watcher: asyncio.Task[Any] | None = None

    # -- who is who -----------------------------------------------------------

    def _author(self, conn: Conn, table: Table) -> tuple[str, str]:
        """The connection's author key and the name it writes under."""
        if conn.user_id is not None:
            return model.author_key(conn.user_id, ""), conn.user_name or ""
        if conn.seat is not None:
            guest = f"{table.code}/{conn.seat}"
            return model.author_key(None, guest), table.seats[conn.seat].row.name
        key = self._guests.get(conn)
        if key is None:
            key = self._guests[conn] = secrets.token_hex(8)
        return model.author_key(None, key), ""

    @staticmethod
    def _seated(conn: Conn, table: Table) -> bool:
        """Whether the connection counts as a player's: seated, or an account that holds
        a seat at the table watching it from elsewhere (it reads as its seat reads)."""
        if conn.seat is not None:
            return True
        return conn.user_id is not None and any(
            held.row.user_id == conn.user_id for held in table.seats
        )

    def _table(self, conn: Conn) -> Table:
        from passing_game.web.table.runner import Table

        if not isinstance(conn.table, Table):
            raise ProtocolError(_("Join a table first."), "no-table")
        return conn.table

    # -- the intents ------------------------------------------------------------

    async def say(self, conn: Conn, intent: Intent) -> None:
        table = self._table(conn)
        try:
            preset, text = model.check_say(
                intent.get("preset"), intent.get("text"), conn.user_id is not None
            )
        except ChatError as exc:
            raise ProtocolError(str(exc), exc.code) from None
        author, name = self._author(conn, table)
        channel = model.channel_of(self._seated(conn, table))
        now = time.time()
        draft = Message(0, table.code, channel, author, conn.user_id, name, preset, text, now)
        kept = await self.lobby.db.run(keep, self.lobby.store, draft, now)
        if isinstance(kept, tuple):
            refused = refusal(kept)
            raise ProtocolError(str(refused), refused.code)
        log.info("a chat message", extra={"table": table.code, "event": "chat"})
        self.lobby.cluster.emit(table.code, {"chat": _wire(kept)})
        await self.deliver(table, kept)

    async def history(self, conn: Conn) -> None:
        """The recent messages of the channels the connection may read, and the presets."""
        table = self._table(conn)
        seated = self._seated(conn, table)
        over = table.match.is_over
        channels = [c for c in ("players", "spectators") if model.may_read(c, seated, over)]
        found, ignored = await self.lobby.db.run(
            _history, self.lobby.store, table.code, channels, conn.user_id
        )
        me, _name = self._author(conn, table)
        shown = [
            model.render(m, conn.language, m.author == me)
            for m in found
            if m.user_id is None or m.user_id not in ignored
        ]
        conn.push(
            {
                "type": "chat",
                "place": table.code,
                "history": True,
                "messages": shown,
                "presets": model.presets_in(conn.language),
                "write": conn.user_id is not None,
                "channel": model.channel_of(seated),
                "limit": model.MAX_TEXT,
            }
        )
        self._watch()

    async def mute(self, conn: Conn, intent: Intent, on: bool = True) -> None:
        """The account mutes (or unmutes) the author of a message; its page is told."""
        if conn.user_id is None:  # a guest's mute stays in the page (static/chat.js)
            raise ProtocolError(_("Sign in to mute a person for good."), "chat-signed-out")
        found = await self.lobby.db.run(
            mute_author, self.lobby.store, conn.user_id, intent["message"], time.time(), on
        )
        if found is None:
            raise ProtocolError(_(model.NO_MESSAGE), "chat-no-message")
        kind = "chat_muted" if on else "chat_unmuted"
        conn.push({"type": kind, "author": found.author, "name": found.name, "message": found.id})

    async def report(self, conn: Conn, intent: Intent) -> None:
        table = self._table(conn)
        _author, name = self._author(conn, table)  # "" for a guest watching
        done = await self.lobby.db.run(
            report, self.lobby.store, intent["message"], name, conn.user_id, time.time()
        )
        if done is None:
            raise ProtocolError(_(model.NO_MESSAGE), "chat-no-message")
        conn.push({"type": "chat_reported", "message": intent["message"]})

    # -- delivery -----------------------------------------------------------------

    async def on_event(self, event: dict[str, Any]) -> None:
        """Another process's chat event: its message (or deletions) to the clients here."""
        table = self.lobby.tables.get(str(event.get("c", "")))
        if table is None or not table.has_clients:
            return
        message = _unwire(event.get("chat"))
        if message is not None:
            await self.deliver(table, message)

    async def deliver(self, table: Table, message: Message) -> None:
        """The message to every client here that may read it, in the reader's language."""
        over = table.match.is_over
        readers = [(c, self._seated(c, table)) for c in table.spectators]
        readers += [(c, True) for held in table.seats for c in held.conns]
        readers = [(c, s) for c, s in readers if model.may_read(message.channel, s, over)]
        if message.user_id is not None:
            users = sorted({c.user_id for c, _s in readers if c.user_id is not None})
            if users:
                deaf = await self.lobby.db.run(
                    _readers_ignoring, self.lobby.store, message.user_id, users
                )
                readers = [(c, s) for c, s in readers if c.user_id not in deaf]
        for conn, _seated in readers:
            mine = self._author(conn, table)[0] == message.author
            shown = model.render(message, conn.language, mine)
            conn.push({"type": "chat", "place": table.code, "messages": [shown]})

    def _watch(self) -> None:
        if self._watcher is None and not self.lobby.closing:
            self._watcher = self.lobby.spawn(self._deletions())

    async def _deletions(self) -> None:
        """Now and then: messages a moderator deleted (``passing-game admin``, which has no
        bus) leave the open pages of this process."""
        since = time.time() - DELETIONS_EVERY
        while not self.lobby.closing:
            await asyncio.sleep(DELETIONS_EVERY)
            try:
                gone = await self.lobby.db.run(_deleted_since, self.lobby.store, since)
            except Exception:
                log.exception("could not look for deleted chat messages")
                continue
            for id, place, at in gone:
                since = max(since, at)
                table = self.lobby.tables.get(place)
                if table is None:
                    continue
                conns = list(table.spectators) + [c for s in table.seats for c in s.conns]
                for conn in conns:
                    conn.push({"type": "chat_deleted", "place": place, "ids": [id]})


def _deleted_since(store: Store, since: float) -> list[tuple[int, str, float]]:
    with store.transaction() as tx:
        return rows.deleted_since(tx, since)


def _wire(message: Message) -> dict[str, Any]:
    return {f: getattr(message, f) for f in rows.FIELDS}


def _unwire(data: Any) -> Message | None:
    if not isinstance(data, dict):
        return None
    try:
        channel: Channel = data["channel"]
        if channel not in model.CHANNELS:
            return None
        return Message(
            int(data["id"]),
            str(data["place"]),
            channel,
            str(data["author"]),
            None if data["user_id"] is None else str(data["user_id"]),
            str(data["name"]),
            data["preset"] if data["preset"] in model.PRESETS else None,
            None if data["text"] is None else str(data["text"]),
            float(data["at"]),
        )
    except (KeyError, TypeError, ValueError):
        return None


__all__ = ["Chat", "keep", "mute_author", "refusal", "report"]
