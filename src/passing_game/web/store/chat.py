"""The chat's rows (issue 27, item 1; ``web/chat/``): messages, reports, moderators' mutes.

- ``web_chat``: one row per message, kept with its place (a table's code, or
  ``"t:"`` and a tournament's id), never in a game's record. Ids grow: a
  message's id is the largest so far plus one, under the chat's lock, so a
  page may ask for what came ``after`` the last id it has.
- ``web_chat_reports``: a reported message with its context (the messages
  around it, as JSON), who reported it, when; ``closed`` once dealt with.
- ``web_chat_mutes``: an account a moderator muted, until when.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx

#: A message's channel: the players' or the spectators' at a table, or a tournament's.
Channel = Literal["players", "spectators", "tournament"]


@dataclass(frozen=True)
class Message:
    """One chat message as stored (``web_chat``)."""

    id: int
    #: The table's code, or ``"t:"`` and the tournament's id.
    place: str
    channel: Channel
    #: Who wrote it: an opaque key the pages may mute by (``author_key``).
    author: str
    #: The account's id, or ``None`` for a guest.
    user_id: str | None
    #: The name shown: the account's or the seat's ("" for a guest spectator).
    name: str
    preset: str | None
    text: str | None
    at: float


#: Held while a message or a report takes its id (``Tx.lock``).
CHAT_LOCK = 0x6368_6174  # "chat"

#: A message's fields, as the bus and a report's context carry them.
FIELDS = ("id", "place", "channel", "author", "user_id", "name", "preset", "text", "at")
_COLUMNS = "id, place, channel, author, user_id, name, preset, body, at"


@dataclass(frozen=True)
class Report:
    id: int
    message: Message | None
    place: str
    reporter: str
    reporter_id: str | None
    at: float
    #: The messages around the reported one when it was reported (as they were then).
    context: list[dict[str, Any]]
    closed: float | None


def _message(row: Sequence[Any]) -> Message:
    channel: Channel = row[2]
    return Message(
        int(row[0]),
        str(row[1]),
        channel,
        str(row[3]),
        None if row[4] is None else str(row[4]),
        str(row[5]),
        None if row[6] is None else str(row[6]),
        None if row[7] is None else str(row[7]),
        float(row[8]),
    )


def _next_id(tx: Tx, table: str) -> int:
    tx.lock(CHAT_LOCK)
    row = tx.one(f"SELECT MAX(id) FROM {table}")
    return 1 if row is None or row[0] is None else int(row[0]) + 1


def add(tx: Tx, message: Message) -> Message:
    """Keep a new message (its ``id`` is ignored); the message with its id."""
    id = _next_id(tx, "web_chat")
    tx.run(
        f"INSERT INTO web_chat ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            id,
            message.place,
            message.channel,
            message.author,
            message.user_id,
            message.name,
            message.preset,
            message.text,
            message.at,
        ),
    )
    return Message(id, *[getattr(message, f) for f in FIELDS[1:]])


def recent_times(tx: Tx, author: str, since: float) -> list[float]:
    """When the author's messages since ``since`` were sent (the rate's window)."""
    rows = tx.all("SELECT at FROM web_chat WHERE author = ? AND at > ?", (author, since))
    return [float(r[0]) for r in rows]


def history(
    tx: Tx, place: str, channels: Sequence[str], limit: int, after: int = 0
) -> list[Message]:
    """The last ``limit`` messages of the place's ``channels`` after id ``after``,
    oldest first; deleted ones left out."""
    if not channels:
        return []
    marks = ", ".join("?" for _ in channels)
    rows = tx.all(
        f"SELECT {_COLUMNS} FROM web_chat WHERE place = ? AND channel IN ({marks})"
        " AND id > ? AND deleted IS NULL ORDER BY id DESC LIMIT ?",
        (place, *channels, after, limit),
    )
    return [_message(r) for r in reversed(rows)]


def get(tx: Tx, id: int, deleted: bool = False) -> Message | None:
    """The message; a deleted one only with ``deleted`` (its author may still be unmuted)."""
    row = tx.one(f"SELECT {_COLUMNS}, deleted FROM web_chat WHERE id = ?", (id,))
    if row is None or (row[-1] is not None and not deleted):
        return None
    return _message(row)


def delete(tx: Tx, id: int, now: float) -> Message | None:
    """Take a message away (it stays for the reports, marked); the message, if it was there."""
    found = get(tx, id)
    if found is not None:
        tx.run("UPDATE web_chat SET deleted = ? WHERE id = ?", (now, id))
    return found


def deleted_since(tx: Tx, since: float) -> list[tuple[int, str, float]]:
    """(id, place, when) of the messages deleted after ``since``: open pages drop them."""
    rows = tx.all("SELECT id, place, deleted FROM web_chat WHERE deleted > ?", (since,))
    return [(int(r[0]), str(r[1]), float(r[2])) for r in rows]


def deleted_among(tx: Tx, place: str, after: int) -> list[int]:
    """The ids after ``after`` at the place that were deleted."""
    rows = tx.all(
        "SELECT id FROM web_chat WHERE place = ? AND id > ? AND deleted IS NOT NULL",
        (place, after),
    )
    return [int(r[0]) for r in rows]


def ignoring(tx: Tx, author_id: str, readers: Sequence[str]) -> set[str]:
    """Which of ``readers`` mute or block the account ``author_id`` (``store/ignores.py``)."""
    if not readers:
        return set()
    marks = ", ".join("?" for _ in readers)
    rows = tx.all(
        f"SELECT user_id FROM web_ignores WHERE other_id = ? AND user_id IN ({marks})",
        (author_id, *readers),
    )
    return {str(r[0]) for r in rows}


def is_entrant(tx: Tx, tournament: str, user_id: str) -> bool:
    """Whether the account joined the tournament (and has not withdrawn)."""
    row = tx.one(
        "SELECT 1 FROM web_tournament_entries WHERE tournament = ? AND user_id = ?"
        " AND withdrawn = 0",
        (tournament, user_id),
    )
    return row is not None


def add_report(tx: Tx, message: Message, reporter: str, reporter_id: str | None, at: float) -> int:
    """Keep a report of ``message`` with the messages around it (every channel of its
    place, as they are now); the report's id. A second report of the same message by
    the same account, or by any guest once a guest reported it, is the first one's id
    (guests cannot be told apart, and one report is enough to be read)."""
    if reporter_id is not None:
        row = tx.one(
            "SELECT id FROM web_chat_reports WHERE message_id = ? AND reporter_id = ?",
            (message.id, reporter_id),
        )
    else:
        row = tx.one(
            "SELECT id FROM web_chat_reports WHERE message_id = ? AND reporter_id IS NULL",
            (message.id,),
        )
    if row is not None:
        return int(row[0])
    before = tx.all(
        f"SELECT {_COLUMNS} FROM web_chat WHERE place = ? AND id < ? ORDER BY id DESC LIMIT 5",
        (message.place, message.id),
    )
    after = tx.all(
        f"SELECT {_COLUMNS} FROM web_chat WHERE place = ? AND id > ? ORDER BY id LIMIT 5",
        (message.place, message.id),
    )
    around = [_message(r) for r in reversed(before)] + [message] + [_message(r) for r in after]
    context = [{f: getattr(m, f) for f in FIELDS} for m in around]
    id = _next_id(tx, "web_chat_reports")
    tx.run(
        "INSERT INTO web_chat_reports (id, message_id, place, reporter, reporter_id, at, context)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (id, message.id, message.place, reporter, reporter_id, at, json.dumps(context)),
    )
    return id


def reports(tx: Tx, open_only: bool, limit: int) -> list[Report]:
    """Reports, oldest first; ``open_only``: those not dealt with."""
    where = " WHERE closed IS NULL" if open_only else ""
    rows = tx.all(
        "SELECT id, message_id, place, reporter, reporter_id, at, context, closed"
        f" FROM web_chat_reports{where} ORDER BY id LIMIT ?",
        (limit,),
    )
    found = []
    for r in rows:
        message = tx.one(f"SELECT {_COLUMNS} FROM web_chat WHERE id = ?", (r[1],))
        found.append(
            Report(
                int(r[0]),
                None if message is None else _message(message),
                str(r[2]),
                str(r[3]),
                None if r[4] is None else str(r[4]),
                float(r[5]),
                json.loads(r[6]),
                None if r[7] is None else float(r[7]),
            )
        )
    return found


def close_reports(tx: Tx, message_id: int | None, report_id: int | None, now: float) -> int:
    """Close the open reports of a message, or one report; how many."""
    if message_id is not None:
        return tx.run(
            "UPDATE web_chat_reports SET closed = ? WHERE message_id = ? AND closed IS NULL",
            (now, message_id),
        )
    return tx.run(
        "UPDATE web_chat_reports SET closed = ? WHERE id = ? AND closed IS NULL", (now, report_id)
    )


def mute(tx: Tx, user_id: str, until: float, reason: str, actor: str) -> None:
    """A moderator's mute: the account may not chat anywhere until ``until``."""
    tx.run("DELETE FROM web_chat_mutes WHERE user_id = ?", (user_id,))
    tx.run(
        "INSERT INTO web_chat_mutes (user_id, until, reason, actor) VALUES (?, ?, ?, ?)",
        (user_id, until, reason, actor),
    )


def muted_until(tx: Tx, user_id: str, now: float) -> float | None:
    """Until when a moderator muted the account, if that is still to come."""
    row = tx.one("SELECT until FROM web_chat_mutes WHERE user_id = ? AND until > ?", (user_id, now))
    return None if row is None else float(row[0])


__all__ = [
    "CHAT_LOCK",
    "FIELDS",
    "Channel",
    "Message",
    "Report",
    "add",
    "add_report",
    "close_reports",
    "delete",
    "deleted_among",
    "deleted_since",
    "get",
    "history",
    "ignoring",
    "is_entrant",
    "mute",
    "muted_until",
    "recent_times",
    "reports",
]
