"""Follows, challenges and who is online (issue 27, item 2; ``web/social/``; P59).

- ``web_follows``: one row per (account, account it follows);
- ``web_challenges``: a challenge from one account to another, with the
  table's settings chosen by the challenger (JSON), ``status`` ``"open"``
  until it is ``"accepted"`` (``code``: the table made), ``"declined"`` or
  ``"cancelled"``; an open one past ``expires`` is over (nobody writes that);
- ``web_online``: each process's signed-in sockets, one row per (process,
  account, table code it sits at or ``""``). A row counts only while its
  process is alive (``web_processes``' heartbeat, store/leases.py); with
  one process (``Solo``) only that process's rows count.

Blocks are ``web_ignores``' (store/ignores.py), not here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx


@dataclass(frozen=True)
class Account:
    """An account as the social features need it: its id, name, whether it may play."""

    id: str
    name: str
    usable: bool = True


@dataclass(frozen=True)
class ChallengeRow:
    id: str
    from_id: str
    to_id: str
    settings: dict[str, Any]
    created: float
    expires: float
    status: str
    decided: float | None = None
    code: str | None = None
    from_name: str = ""
    to_name: str = ""


@dataclass(frozen=True)
class TableSeen:
    """A table somebody sits at, as their followers see it."""

    code: str
    rated: bool
    origin: str
    finished: bool
    #: Each taken seat's kind, name and bot level, in seat order.
    seats: tuple[tuple[str, str, str | None], ...]


def _in(values: Sequence[str]) -> str:
    return ", ".join("?" for _v in values)


# -- accounts ---------------------------------------------------------------------


def account_by_key(tx: Tx, name_key: str) -> Account | None:
    """The live account of this name key (``accounts.flows.name_key``)."""
    row = tx.one(
        "SELECT id, name, suspended FROM web_users WHERE name_key = ? AND deleted = 0",
        (name_key,),
    )
    return None if row is None else Account(str(row[0]), str(row[1]), not row[2])


def account(tx: Tx, user_id: str) -> Account | None:
    row = tx.one(
        "SELECT id, name, suspended FROM web_users WHERE id = ? AND deleted = 0", (user_id,)
    )
    return None if row is None else Account(str(row[0]), str(row[1]), not row[2])


# -- follows ----------------------------------------------------------------------


def follow(tx: Tx, user_id: str, other_id: str, now: float) -> bool:
    """``user_id`` follows ``other_id``; whether that is new."""
    if tx.one("SELECT 1 FROM web_follows WHERE user_id = ? AND other_id = ?", (user_id, other_id)):
        return False
    tx.run(
        "INSERT INTO web_follows (user_id, other_id, created) VALUES (?, ?, ?)",
        (user_id, other_id, now),
    )
    return True


def unfollow(tx: Tx, user_id: str, other_id: str) -> bool:
    return (
        tx.run("DELETE FROM web_follows WHERE user_id = ? AND other_id = ?", (user_id, other_id))
        == 1
    )


def following(tx: Tx, user_id: str) -> list[Account]:
    """The live accounts ``user_id`` follows, by name."""
    rows = tx.all(
        "SELECT u.id, u.name, u.suspended FROM web_follows f JOIN web_users u"
        " ON u.id = f.other_id WHERE f.user_id = ? AND u.deleted = 0 ORDER BY u.name_key",
        (user_id,),
    )
    return [Account(str(i), str(n), not s) for i, n, s in rows]


def follows(tx: Tx, user_id: str, other_id: str) -> bool:
    row = tx.one(
        "SELECT 1 FROM web_follows WHERE user_id = ? AND other_id = ?", (user_id, other_id)
    )
    return row is not None


def blocked_accounts(tx: Tx, user_id: str) -> list[Account]:
    """The live accounts ``user_id`` blocks (``web_ignores``, kind ``"block"``), by name."""
    rows = tx.all(
        "SELECT u.id, u.name, u.suspended FROM web_ignores i JOIN web_users u"
        " ON u.id = i.other_id WHERE i.user_id = ? AND i.kind = 'block' AND u.deleted = 0"
        " ORDER BY u.name_key",
        (user_id,),
    )
    return [Account(str(i), str(n), not s) for i, n, s in rows]


def blockers_among(tx: Tx, user_id: str, others: Sequence[str]) -> set[str]:
    """Of ``others``, those who block ``user_id``."""
    if not others:
        return set()
    rows = tx.all(
        f"SELECT user_id FROM web_ignores WHERE other_id = ? AND kind = 'block'"
        f" AND user_id IN ({_in(others)})",
        (user_id, *others),
    )
    return {str(r[0]) for r in rows}


# -- challenges -------------------------------------------------------------------

_CHALLENGE = (
    "SELECT c.id, c.from_id, c.to_id, c.settings, c.created, c.expires, c.status,"
    " c.decided, c.code, a.name, b.name FROM web_challenges c"
    " JOIN web_users a ON a.id = c.from_id JOIN web_users b ON b.id = c.to_id"
)


def _challenge(row: tuple[Any, ...]) -> ChallengeRow:
    return ChallengeRow(
        id=str(row[0]),
        from_id=str(row[1]),
        to_id=str(row[2]),
        settings=json.loads(row[3]),
        created=float(row[4]),
        expires=float(row[5]),
        status=str(row[6]),
        decided=None if row[7] is None else float(row[7]),
        code=None if row[8] is None else str(row[8]),
        from_name=str(row[9]),
        to_name=str(row[10]),
    )


def add_challenge(tx: Tx, c: ChallengeRow) -> None:
    tx.run(
        "INSERT INTO web_challenges (id, from_id, to_id, settings, created, expires, status)"
        " VALUES (?, ?, ?, ?, ?, ?, 'open')",
        (c.id, c.from_id, c.to_id, json.dumps(c.settings, sort_keys=True), c.created, c.expires),
    )


def challenge(tx: Tx, id: str) -> ChallengeRow | None:
    row = tx.one(_CHALLENGE + " WHERE c.id = ?", (id,))
    return None if row is None else _challenge(row)


def open_challenges(tx: Tx, user_id: str, now: float, *, incoming: bool) -> list[ChallengeRow]:
    """The open challenges to (``incoming``) or from ``user_id`` not expired, oldest first."""
    side = "c.to_id" if incoming else "c.from_id"
    rows = tx.all(
        _CHALLENGE + f" WHERE {side} = ? AND c.status = 'open' AND c.expires > ?"
        " AND a.deleted = 0 AND a.suspended = 0 AND b.deleted = 0 ORDER BY c.created, c.id",
        (user_id, now),
    )
    return [_challenge(r) for r in rows]


def recent_challenges(tx: Tx, user_id: str, since: float, now: float) -> list[ChallengeRow]:
    """The challenges from or to ``user_id`` decided, or expired, since ``since``."""
    rows = tx.all(
        _CHALLENGE + " WHERE (c.from_id = ? OR c.to_id = ?) AND ((c.status <> 'open'"
        " AND c.decided >= ?) OR (c.status = 'open' AND c.expires >= ? AND c.expires <= ?))"
        " ORDER BY c.created, c.id",
        (user_id, user_id, since, since, now),
    )
    return [_challenge(r) for r in rows]


def decide(
    tx: Tx, id: str, status: str, now: float, code: str | None = None, *, before: float
) -> bool:
    """An open challenge not expired at ``before`` becomes ``status``; whether it was
    (the one statement two accepts race on: one wins)."""
    done = tx.run(
        "UPDATE web_challenges SET status = ?, decided = ?, code = ?"
        " WHERE id = ? AND status = 'open' AND expires > ?",
        (status, now, code, id, before),
    )
    return bool(done == 1)


def cancel_between(tx: Tx, from_id: str, to_id: str, now: float) -> int:
    """Every open challenge from ``from_id`` to ``to_id`` cancelled (a block); how many."""
    return tx.run(
        "UPDATE web_challenges SET status = 'cancelled', decided = ?"
        " WHERE from_id = ? AND to_id = ? AND status = 'open'",
        (now, from_id, to_id),
    )


# -- who is online ----------------------------------------------------------------


def set_online(
    tx: Tx,
    process: str,
    added: Iterable[tuple[str, str]],
    gone: Iterable[tuple[str, str]],
    now: float,
) -> None:
    """This process's signed-in sockets changed: (account, table code or ``""``) pairs
    that came and that went."""
    for user_id, code in gone:
        tx.run(
            "DELETE FROM web_online WHERE process = ? AND user_id = ? AND code = ?",
            (process, user_id, code),
        )
    for user_id, code in added:
        tx.run(
            "INSERT INTO web_online (process, user_id, code, since) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (process, user_id, code) DO NOTHING",
            (process, user_id, code, now),
        )


def forget_online(tx: Tx, process: str | None = None, *, dead_before: float | None = None) -> int:
    """A process's rows (it stops), or every row of the processes not alive since
    ``dead_before``; how many."""
    if process is not None:
        return tx.run("DELETE FROM web_online WHERE process = ?", (process,))
    if dead_before is None:
        raise ValueError("say which rows: a process, or those dead before a time")
    return tx.run(
        "DELETE FROM web_online WHERE process NOT IN"
        " (SELECT id FROM web_processes WHERE heartbeat >= ?)",
        (dead_before,),
    )


def forget_others(tx: Tx, process: str) -> int:
    """Every row of another process (one process on its database: the others are gone)."""
    return tx.run("DELETE FROM web_online WHERE process <> ?", (process,))


def online(
    tx: Tx, user_ids: Sequence[str], *, alive_since: float | None, process: str | None = None
) -> dict[str, set[str]]:
    """Of ``user_ids``, those online -> the table codes they sit at (``""``: at none).

    A row counts while its process beat since ``alive_since``; with
    ``alive_since`` ``None`` (one process), only ``process``'s rows count."""
    if not user_ids:
        return {}
    if alive_since is None:
        rows = tx.all(
            f"SELECT user_id, code FROM web_online WHERE process = ?"
            f" AND user_id IN ({_in(user_ids)})",
            (process, *user_ids),
        )
    else:
        rows = tx.all(
            f"SELECT o.user_id, o.code FROM web_online o JOIN web_processes p"
            f" ON p.id = o.process WHERE p.heartbeat >= ? AND o.user_id IN ({_in(user_ids)})",
            (alive_since, *user_ids),
        )
    found: dict[str, set[str]] = {}
    for user_id, code in rows:
        found.setdefault(str(user_id), set()).add(str(code))
    return found


def tables_seen(tx: Tx, codes: Sequence[str]) -> dict[str, TableSeen]:
    """The tables of these codes: rated or not, how they came to be, whether their
    current game is over, the names at their seats."""
    if not codes:
        return {}
    rows = tx.all(
        f"SELECT t.code, t.rated, t.origin, g.finished FROM web_tables t JOIN web_games g"
        f" ON g.code = t.code AND g.game = t.game WHERE t.code IN ({_in(codes)})",
        tuple(codes),
    )
    seats: dict[str, list[tuple[str, str, str | None]]] = {}
    for code, kind, name, level in tx.all(
        f"SELECT code, kind, name, level FROM web_seats WHERE code IN ({_in(codes)})"
        " AND kind <> 'open' ORDER BY code, seat",
        tuple(codes),
    ):
        seats.setdefault(str(code), []).append(
            (str(kind), str(name), None if level is None else str(level))
        )
    return {
        str(code): TableSeen(
            str(code), bool(rated), str(origin or "friends"), bool(done), tuple(seats.get(code, ()))
        )
        for code, rated, origin, done in rows
    }


__all__ = [
    "Account",
    "ChallengeRow",
    "TableSeen",
    "account",
    "account_by_key",
    "add_challenge",
    "blocked_accounts",
    "blockers_among",
    "cancel_between",
    "challenge",
    "decide",
    "follow",
    "following",
    "follows",
    "forget_online",
    "forget_others",
    "online",
    "open_challenges",
    "recent_challenges",
    "set_online",
    "tables_seen",
    "unfollow",
]
