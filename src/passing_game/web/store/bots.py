"""Bot accounts (``web_bots``; issue 28, item 4; ``web/botapi/``; P62).

A bot account is an account of ``web_users`` with no password, and a row
here: its owner (the person who made it), the SHA-256 of its API token
(``NULL`` once revoked: the token itself is shown once and never kept),
whether it is ``held`` (suspended because its owner was, and restored with
them), which socket plays it now (``link``: the process and a nonce; a new
socket takes over from the old one, on any process) and when it was last
connected (``seen``). Its seats, ratings, challenges and history are the
account's own rows, as a person's are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx

#: The most values one ``IN (...)`` list holds.
CHUNK = 500


@dataclass(frozen=True)
class BotRow:
    """A bot account and its owner."""

    id: str
    name: str
    owner_id: str
    owner: str
    created: float
    #: Whether it has a live token (not revoked).
    token: bool
    token_made: float | None
    suspended: bool
    #: Suspended because its owner is (restored with them).
    held: bool
    seen: float | None
    #: The owner's account is suspended or deleted: the bot may not play.
    owner_out: bool = False
    token_hash: str | None = None
    link: str | None = None

    @property
    def usable(self) -> bool:
        """Whether the bot may play now: a token, neither it nor its owner out."""
        return self.token and not self.suspended and not self.owner_out


_SELECT = (
    "SELECT b.user_id, u.name, b.owner_id, o.name, b.created, b.token_hash, b.token_made,"
    " u.suspended, b.held, b.seen, o.suspended + o.deleted, b.link"
    " FROM web_bots b JOIN web_users u ON u.id = b.user_id"
    " JOIN web_users o ON o.id = b.owner_id WHERE u.deleted = 0"
)


def _row(r: Sequence[Any]) -> BotRow:
    return BotRow(
        id=str(r[0]),
        name=str(r[1]),
        owner_id=str(r[2]),
        owner=str(r[3]),
        created=float(r[4]),
        token=r[5] is not None,
        token_made=None if r[6] is None else float(r[6]),
        suspended=bool(r[7]),
        held=bool(r[8]),
        seen=None if r[9] is None else float(r[9]),
        owner_out=bool(r[10]),
        token_hash=None if r[5] is None else str(r[5]),
        link=None if r[11] is None else str(r[11]),
    )


def _in(values: Sequence[str]) -> str:
    return ", ".join("?" for _v in values)


def insert_bot(tx: Tx, user_id: str, owner_id: str, token_hash: str, now: float) -> None:
    """The bot row of an account just made (``accounts.insert_user``, no password)."""
    tx.run(
        "INSERT INTO web_bots (user_id, owner_id, token_hash, token_made, created)"
        " VALUES (?, ?, ?, ?, ?)",
        (user_id, owner_id, token_hash, now, now),
    )


def count_of(tx: Tx, owner_id: str) -> int:
    """How many live bot accounts the owner has."""
    row = tx.one(
        "SELECT COUNT(*) FROM web_bots b JOIN web_users u ON u.id = b.user_id"
        " WHERE b.owner_id = ? AND u.deleted = 0",
        (owner_id,),
    )
    return int(row[0]) if row else 0


def bots_of(tx: Tx, owner_id: str) -> list[BotRow]:
    """The owner's live bot accounts, oldest first."""
    rows = tx.all(f"{_SELECT} AND b.owner_id = ? ORDER BY b.created, b.user_id", (owner_id,))
    return [_row(r) for r in rows]


def bot(tx: Tx, user_id: str) -> BotRow | None:
    """A live bot account by its id."""
    row = tx.one(f"{_SELECT} AND b.user_id = ?", (user_id,))
    return None if row is None else _row(row)


def by_token(tx: Tx, token_hash: str) -> BotRow | None:
    """The live bot account whose token has this hash."""
    row = tx.one(f"{_SELECT} AND b.token_hash = ?", (token_hash,))
    return None if row is None else _row(row)


def set_token(tx: Tx, user_id: str, token_hash: str | None, now: float) -> None:
    """A new token's hash (``None``: revoked, no token works)."""
    tx.run(
        "UPDATE web_bots SET token_hash = ?, token_made = ? WHERE user_id = ?",
        (token_hash, now if token_hash else None, user_id),
    )


def bot_ids(tx: Tx, user_ids: Sequence[str]) -> set[str]:
    """Of these accounts, the bot accounts."""
    found: set[str] = set()
    ids = sorted({u for u in user_ids if u})
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        found |= {
            str(r[0])
            for r in tx.all(f"SELECT user_id FROM web_bots WHERE user_id IN ({_in(chunk)})", chunk)
        }
    return found


def owner_names(tx: Tx, user_ids: Sequence[str]) -> dict[str, str]:
    """Of these accounts, the bot accounts, each with its owner's name."""
    found: dict[str, str] = {}
    ids = sorted({u for u in user_ids if u})
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        rows = tx.all(
            "SELECT b.user_id, o.name FROM web_bots b JOIN web_users o ON o.id = b.owner_id"
            f" WHERE b.user_id IN ({_in(chunk)})",
            chunk,
        )
        found.update({str(r[0]): str(r[1]) for r in rows})
    return found


def owned(tx: Tx, owner_id: str) -> list[str]:
    """The ids of the owner's live bot accounts."""
    return [b.id for b in bots_of(tx, owner_id)]


def hold(tx: Tx, owner_id: str) -> list[str]:
    """The owner is suspended: its bots that play are suspended with it (``held``);
    their ids."""
    ids = [b.id for b in bots_of(tx, owner_id) if not b.suspended]
    for user_id in ids:
        tx.run("UPDATE web_users SET suspended = 1 WHERE id = ?", (user_id,))
        tx.run("UPDATE web_bots SET held = 1 WHERE user_id = ?", (user_id,))
    return ids


def release(tx: Tx, owner_id: str) -> list[str]:
    """The owner is restored: the bots held with it play again; their ids."""
    ids = [b.id for b in bots_of(tx, owner_id) if b.held]
    for user_id in ids:
        tx.run("UPDATE web_users SET suspended = 0 WHERE id = ?", (user_id,))
        tx.run("UPDATE web_bots SET held = 0 WHERE user_id = ?", (user_id,))
    return ids


def unhold(tx: Tx, user_id: str) -> None:
    """A moderator suspended or restored the bot itself: it is no longer held."""
    tx.run("UPDATE web_bots SET held = 0 WHERE user_id = ?", (user_id,))


def set_link(tx: Tx, user_id: str, link: str | None, now: float) -> None:
    """The socket that plays the bot from now (``None``: none), seen now."""
    tx.run("UPDATE web_bots SET link = ?, seen = ? WHERE user_id = ?", (link, now, user_id))


def drop_link(tx: Tx, user_id: str, link: str, now: float) -> None:
    """The socket ``link`` closed: if it was the bot's, the bot has none."""
    tx.run(
        "UPDATE web_bots SET link = NULL, seen = ? WHERE user_id = ? AND link = ?",
        (now, user_id, link),
    )


def linked(tx: Tx, user_ids: Sequence[str], now: float) -> dict[str, BotRow]:
    """These bots as the store has them now (each seen now); a bot gone is missing."""
    if not user_ids:
        return {}
    ids = sorted(set(user_ids))
    tx.run(f"UPDATE web_bots SET seen = ? WHERE user_id IN ({_in(ids)})", (now, *ids))
    return {str(r[0]): _row(r) for r in tx.all(f"{_SELECT} AND b.user_id IN ({_in(ids)})", ids)}


def seats_at_play(tx: Tx, user_ids: Sequence[str]) -> list[tuple[str, str, int]]:
    """(account, table code, seat) of these accounts' seats at games not over."""
    if not user_ids:
        return []
    ids = sorted(set(user_ids))
    rows = tx.all(
        "SELECT s.user_id, s.code, s.seat FROM web_seats s"
        " JOIN web_tables t ON t.code = s.code"
        " JOIN web_games g ON g.code = t.code AND g.game = t.game"
        f" WHERE s.user_id IN ({_in(ids)}) AND s.kind = 'human' AND g.finished = 0"
        " ORDER BY s.code, s.seat",
        ids,
    )
    return [(str(r[0]), str(r[1]), int(r[2])) for r in rows]


def find(tx: Tx, name_key: str | None, limit: int) -> list[BotRow]:
    """Every live bot account (``name_key``: whose name or owner's name holds it)."""
    if name_key:
        rows = tx.all(
            f"{_SELECT} AND (u.name_key LIKE ? OR o.name_key LIKE ?)"
            " ORDER BY b.created, b.user_id LIMIT ?",
            (f"%{name_key}%", f"%{name_key}%", limit),
        )
    else:
        rows = tx.all(f"{_SELECT} ORDER BY b.created, b.user_id LIMIT ?", (limit,))
    return [_row(r) for r in rows]


__all__ = [
    "BotRow",
    "bot",
    "bot_ids",
    "bots_of",
    "by_token",
    "count_of",
    "drop_link",
    "find",
    "hold",
    "insert_bot",
    "linked",
    "owned",
    "owner_names",
    "release",
    "seats_at_play",
    "set_link",
    "set_token",
    "unhold",
]
