"""Accounts, their sessions and devices (``web_users``, ``web_sessions``, ``web_devices``).

The rows of ``web/accounts/flows.py``: what it keeps of a session id or a device
token is a hash, made there; a name's key and look-alike key too. An
account's name also lives in its seats and in its finished games' records
(``seats_of``, ``records_at``: a rename or a deletion rewrites them, P29).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from passing_game.web.store.rows import UserRow

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx

#: The most values one ``IN (...)`` list holds.
CHUNK = 500


def session_user(tx: Tx, session_hash: str, now: float) -> UserRow | None:
    """The live account whose live session this is."""
    row = tx.one(
        "SELECT u.id, u.name, u.created, u.suspended FROM web_sessions s"
        " JOIN web_users u ON u.id = s.user_id"
        " WHERE s.id_hash = ? AND s.expires > ? AND u.deleted = 0",
        (session_hash, now),
    )
    if row is None:
        return None
    return UserRow(str(row[0]), str(row[1]), float(row[2]), bool(row[3]))


def ended_sessions(tx: Tx, owners: dict[str, str], now: float) -> dict[str, tuple[bool, bool]]:
    """Of these sessions (hash -> account), those no longer usable, each with its
    account's (suspended, deleted); an account not found counts as deleted."""
    found: dict[str, tuple[bool, bool]] = {}
    hashes = list(owners)
    for start in range(0, len(hashes), CHUNK):
        chunk = hashes[start : start + CHUNK]
        live = {
            str(r[0])
            for r in tx.all(
                "SELECT s.id_hash FROM web_sessions s JOIN web_users u ON u.id = s.user_id"
                " WHERE s.expires > ? AND u.suspended = 0 AND u.deleted = 0"
                f" AND s.id_hash IN ({', '.join('?' for _h in chunk)})",
                (now, *chunk),
            )
        }
        gone = [h for h in chunk if h not in live]
        users = sorted({owners[h] for h in gone})  # at most one a session
        states = (
            {
                str(r[0]): (bool(r[1]), bool(r[2]))
                for r in tx.all(
                    "SELECT id, suspended, deleted FROM web_users"
                    f" WHERE id IN ({', '.join('?' for _u in users)})",
                    users,
                )
            }
            if users
            else {}
        )
        for session in gone:
            found[session] = states.get(owners[session], (False, True))
    return found


def unusable(tx: Tx, user_ids: Sequence[str]) -> set[str]:
    """Of these accounts, those suspended or deleted."""
    found: set[str] = set()
    ids = sorted(set(user_ids))
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        marks = ", ".join("?" for _u in chunk)
        found |= {
            str(r[0])
            for r in tx.all(
                f"SELECT id FROM web_users WHERE id IN ({marks})"
                " AND (suspended = 1 OR deleted = 1)",
                chunk,
            )
        }
    return found


def claim_seat(tx: Tx, user_id: str, code: str, seat: int, token_hash: str) -> int:
    """A guest's seat (its token's hash) becomes the account's, unless it is someone's."""
    return tx.run(
        "UPDATE web_seats SET user_id = ? WHERE code = ? AND seat = ?"
        " AND kind = 'human' AND token_hash = ? AND user_id IS NULL",
        (user_id, code, seat, token_hash),
    )


def without_skeleton(tx: Tx) -> list[tuple[str, str]]:
    """(id, name) of the live accounts whose name has no look-alike key yet."""
    rows = tx.all("SELECT id, name FROM web_users WHERE name_skeleton IS NULL AND deleted = 0")
    return [(str(r[0]), str(r[1])) for r in rows]


def set_skeleton(tx: Tx, user_id: str, skeleton: str) -> None:
    tx.run("UPDATE web_users SET name_skeleton = ? WHERE id = ?", (skeleton, user_id))


def _credentials(row: tuple[Any, ...] | None) -> UserRow | None:
    if row is None:
        return None
    hashed = str(row[2]) if row[2] else None
    return UserRow(str(row[0]), str(row[1]), float(row[3]), bool(row[4]), hashed)


def credentials(tx: Tx, name_key: str) -> UserRow | None:
    """The live account of this name key, with its password's hash."""
    return _credentials(
        tx.one(
            "SELECT id, name, password_hash, created, suspended FROM web_users"
            " WHERE name_key = ? AND deleted = 0",
            (name_key,),
        )
    )


def credentials_of(tx: Tx, user_id: str) -> UserRow | None:
    """The account with this id, with its password's hash."""
    return _credentials(
        tx.one(
            "SELECT id, name, password_hash, created, suspended FROM web_users WHERE id = ?",
            (user_id,),
        )
    )


def known_device(tx: Tx, user_id: str, device_hash: str, seen_after: float) -> bool:
    """Whether the account signed in from this device since ``seen_after``."""
    return (
        tx.one(
            "SELECT 1 FROM web_devices WHERE user_id = ? AND device_hash = ? AND seen > ?",
            (user_id, device_hash, seen_after),
        )
        is not None
    )


def name_clash(tx: Tx, name_key: str, skeleton: str) -> str | None:
    """``"taken"`` (a live account has the name), ``"confusable"`` (one's looks
    like it), or ``None``."""
    taken = tx.one(
        "SELECT name_key = ? FROM web_users WHERE deleted = 0"
        " AND (name_key = ? OR name_skeleton = ?)",
        (name_key, name_key, skeleton),
    )
    if taken is None:
        return None
    return "taken" if taken[0] else "confusable"


def insert_user(
    tx: Tx,
    user: UserRow,
    name_key: str,
    skeleton: str,
    address_hash: str,
) -> None:
    """A new account (an integrity error if its name key is taken meanwhile)."""
    tx.run(
        "INSERT INTO web_users (id, name, name_key, password_hash, created,"
        " name_skeleton, address_hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (user.id, user.name, name_key, user.password_hash, user.created, skeleton, address_hash),
    )


def set_password_hash(tx: Tx, user_id: str, hashed: str) -> None:
    tx.run("UPDATE web_users SET password_hash = ? WHERE id = ?", (hashed, user_id))


def open_session(
    tx: Tx, session_hash: str, user_id: str, device_hash: str, now: float, expires: float
) -> None:
    """A new session (expired ones cleared first), and its device seen now."""
    tx.run("DELETE FROM web_sessions WHERE expires <= ?", (now,))
    tx.run(
        "INSERT INTO web_sessions (id_hash, user_id, created, expires) VALUES (?, ?, ?, ?)",
        (session_hash, user_id, now, expires),
    )
    tx.run(
        "INSERT INTO web_devices (user_id, device_hash, seen) VALUES (?, ?, ?)"
        " ON CONFLICT (user_id, device_hash) DO UPDATE SET seen = excluded.seen",
        (user_id, device_hash, now),
    )


def end_session(tx: Tx, session_hash: str) -> None:
    tx.run("DELETE FROM web_sessions WHERE id_hash = ?", (session_hash,))


def end_sessions_of(tx: Tx, user_id: str) -> None:
    """Every session of the account ends."""
    tx.run("DELETE FROM web_sessions WHERE user_id = ?", (user_id,))


def delete_user(tx: Tx, user_id: str, name: str, name_key: str) -> None:
    """The account goes: its sessions, devices and password; its row keeps ``name``."""
    end_sessions_of(tx, user_id)
    tx.run("DELETE FROM web_devices WHERE user_id = ?", (user_id,))
    tx.run("DELETE FROM web_recovery_codes WHERE user_id = ?", (user_id,))
    tx.run("DELETE FROM web_ignores WHERE user_id = ? OR other_id = ?", (user_id, user_id))
    tx.run("DELETE FROM web_follows WHERE user_id = ? OR other_id = ?", (user_id, user_id))
    tx.run(
        "DELETE FROM web_challenges WHERE (from_id = ? OR to_id = ?) AND status = 'open'",
        (user_id, user_id),
    )
    tx.run(
        "UPDATE web_users SET deleted = 1, password_hash = NULL, name = ?,"
        " name_key = ?, name_skeleton = NULL WHERE id = ?",
        (name, name_key, user_id),
    )


def rename_in_seats(tx: Tx, user_id: str, name: str) -> list[tuple[str, int]]:
    """The account's seats take ``name``; those seats (code, seat)."""
    tx.run("UPDATE web_seats SET name = ? WHERE user_id = ?", (name, user_id))
    rows = tx.all("SELECT code, seat FROM web_seats WHERE user_id = ?", (user_id,))
    return [(str(r[0]), int(r[1])) for r in rows]


def records_at(tx: Tx, code: str) -> list[tuple[int, str]]:
    """(game, record) of the table's games that have a record."""
    rows = tx.all(
        "SELECT game, record FROM web_games WHERE code = ? AND record IS NOT NULL", (code,)
    )
    return [(int(r[0]), str(r[1])) for r in rows]


def set_record(tx: Tx, code: str, game: int, record: str) -> None:
    tx.run("UPDATE web_games SET record = ? WHERE code = ? AND game = ?", (record, code, game))


__all__ = [
    "claim_seat",
    "credentials",
    "credentials_of",
    "delete_user",
    "end_session",
    "end_sessions_of",
    "ended_sessions",
    "insert_user",
    "known_device",
    "name_clash",
    "open_session",
    "records_at",
    "rename_in_seats",
    "session_user",
    "set_password_hash",
    "set_record",
    "set_skeleton",
    "unusable",
    "without_skeleton",
]
