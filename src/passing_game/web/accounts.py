"""Accounts: a name that lasts, a password, sessions (issues 13 and 22; P29, P40).

A person may play as a guest (a name and a seat token in one browser) or
sign up with a user name and a password. Passwords are hashed with
argon2id (``passwords``, in threads of their own) and never stored, sent
or logged in clear; the only rule is a length. Signing in opens a session:
a random id in an HttpOnly, SameSite=Lax cookie (Secure behind https), of
which the store keeps only a hash; every sign-in and every password change
makes a new id, and the page's CSRF token is derived from it
(``csrf_for``), so that it changes with the session too.

Guessing is slowed, never made a lockout (``throttle``): attempts count per
account and address together, per account from anywhere (an account's
known devices are not held by that), and per address; each attempt past
the free ones waits longer. The counts are in the store, taken atomically,
so the limits hold whichever server process is asked. An unknown name and a
wrong password get the same answer, after the same work.

``Accounts``'s methods are coroutines: the store's work runs through
``db_run`` (``AsyncStore.run`` on the server), the hashing through
``hash_run`` (``passwords.Hashing``); both default to running in place, for
the command line and tests (``asyncio.run(accounts.sign_up(...))``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, ParamSpec, Protocol, TypeVar

from passing_game.i18n import N_, _, ngettext
from passing_game.web import frames, names, passwords, throttle
from passing_game.web.protocol import MAX_NAME, ProtocolError, clean_name
from passing_game.web.store import Store, Tx, hash_token

#: The name a deleted account's games keep (translated where it is shown).
DELETED_NAME = frames.DELETED_NAME
#: Fewest characters in a password; no other rule (NIST SP 800-63B).
MIN_PASSWORD = 10
#: Most characters in a password (hashing a megabyte would be work for anyone).
MAX_PASSWORD = 256
#: Fewest characters in a user name.
MIN_USER_NAME = 3
#: How long a session lasts without signing in again.
SESSION_SECONDS = 30 * 24 * 3600
#: How long a device is remembered after its last sign-in.
DEVICE_SECONDS = 365 * 24 * 3600
#: The free sign-in attempts (``throttle.SIGN_IN_PAIR`` and ``SIGN_IN_ADDRESS``).
ATTEMPTS_PER_ACCOUNT = throttle.SIGN_IN_PAIR.free
ATTEMPTS_PER_ADDRESS = throttle.SIGN_IN_ADDRESS.free

SESSION_COOKIE = "pg_session"
CSRF_COOKIE = "pg_csrf"
CSRF_HEADER = "x-csrf-token"
DEVICE_COOKIE = "pg_device"

#: Why a signed-in socket was closed (``sessions``), as the page is told.
ENDED_WORDS = {
    "session-ended": N_("You were signed out here: sign in again to play as your account."),
    "suspended": N_("This account is suspended."),
    "deleted": N_("This account was deleted."),
}


class AccountError(ProtocolError):
    """A refused account request; ``str(exc)`` is shown to the person."""


class RateLimited(AccountError):
    """Too many attempts; ``retry_after`` seconds to wait."""

    def __init__(self, wait: float) -> None:
        super().__init__(throttle.wait_sentence(wait), "rate-limit")
        self.retry_after = max(1, int(wait + 0.999))


@dataclass(frozen=True)
class User:
    """A signed-in person as the server knows them."""

    id: str
    name: str
    created: float
    suspended: bool = False


@dataclass(frozen=True)
class SignedIn:
    """A sign-in or sign-up that worked: the person, the new session id, and the
    device token to set (``None``: the device's cookie stays as it is)."""

    user: User
    session: str
    device: str | None = None


def name_key(name: str) -> str:
    """What makes two user names the same name: case and width folded.

    >>> name_key("Ana") == name_key("ＡＮＡ")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold()


def hash_secret(value: str) -> str:
    """What the store keeps of a session id or a device token: its SHA-256."""
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


def csrf_for(session: str) -> str:
    """The page's CSRF token while signed in: derived from the session id, so it
    is bound to the session and changes with it (a new one at every sign-in).

    >>> csrf_for("a") == csrf_for("a") != csrf_for("b")
    True
    """
    digest = hmac.new(session.encode(), b"passing-game csrf", hashlib.sha256).hexdigest()
    return digest[:48]


def csrf_ok(expected: str | None, header: str | None) -> bool:
    """Whether a request's ``X-CSRF-Token`` is the token expected of it."""
    return bool(expected) and bool(header) and hmac.compare_digest(str(expected), str(header))


def check_user_name(value: Any) -> str:
    """A user name: a display name (``protocol.clean_name``) of at least ``MIN_USER_NAME``."""
    name = clean_name(value)
    if len(name) < MIN_USER_NAME:
        raise AccountError(
            ngettext(
                "a user name has at least {n} character",
                "a user name has at least {n} characters",
                MIN_USER_NAME,
            ).format(n=MIN_USER_NAME),
            "bad-name",
        )
    return name


def check_password(value: Any) -> str:
    if not isinstance(value, str):
        raise AccountError(_("please give a password"), "bad-password")
    if len(value) < MIN_PASSWORD:
        raise AccountError(
            ngettext(
                "a password has at least {n} character",
                "a password has at least {n} characters",
                MIN_PASSWORD,
            ).format(n=MIN_PASSWORD),
            "bad-password",
        )
    if len(value) > MAX_PASSWORD:
        raise AccountError(
            ngettext(
                "a password has at most {n} character",
                "a password has at most {n} characters",
                MAX_PASSWORD,
            ).format(n=MAX_PASSWORD),
            "bad-password",
        )
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate that JSON let through
        raise AccountError(
            _("A password cannot hold that character: please choose another."), "bad-password"
        ) from None
    return value


def _wrong() -> AccountError:
    # One answer for an unknown name and a wrong password.
    return AccountError(_("wrong user name or password"), "bad-credentials")


def _sign_in_keys(key: str, address: str, known: bool) -> list[tuple[str, throttle.Policy]]:
    """What a password check counts against: the pair, the address, the account
    (unless the device is one the account signed in from before)."""
    keys = [
        (throttle.key_of("pair", key, address), throttle.SIGN_IN_PAIR),
        (throttle.key_of("address", address), throttle.SIGN_IN_ADDRESS),
    ]
    if not known:
        keys.append((throttle.key_of("account", key), throttle.SIGN_IN_ACCOUNT))
    return keys


_P = ParamSpec("_P")
_T = TypeVar("_T")


class Runner(Protocol):
    """Where blocking work runs: ``AsyncStore.run``, ``Hashing.run``, or in place."""

    def __call__(
        self, fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs
    ) -> Awaitable[_T]: ...


async def _in_place(fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
    return fn(*args, **kwargs)


class Accounts:
    """Accounts and sessions in the store."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float] = time.time,
        *,
        db_run: Runner = _in_place,
        hash_run: Runner = _in_place,
    ) -> None:
        self.store = store
        self.clock = clock
        self._db = db_run
        self._hash = hash_run

    # -- sign up, sign in, sign out ------------------------------------------

    async def sign_up(self, name: Any, password: Any, address: str = "?") -> SignedIn:
        """A new account, signed in (sign-ups are limited per address)."""
        name = check_user_name(name)
        password = check_password(password)
        slot = throttle.key_of("signup", address)
        wait = await self._db(self._reserve, [(slot, throttle.SIGN_UP_ADDRESS)])
        if wait > 0:
            raise RateLimited(wait)
        try:
            hashed = await self._hash(passwords.hash_password, password)
            user = User(secrets.token_hex(8), name, self.clock())
            await self._db(self._insert_user, user, hashed, hash_secret(address))
        except Exception:
            await self._db(self._give_back, [slot])  # no account made: not counted
            raise
        return await self._db(self._open, user, None)

    async def sign_in(
        self, name: Any, password: Any, address: str = "?", device: str | None = None
    ) -> SignedIn:
        """Check the name and password (throttled); a new session id."""
        if not isinstance(name, str) or not isinstance(password, str):
            raise _wrong()
        key = name_key(names.normalize(name[: 8 * MAX_NAME]))[: 4 * MAX_NAME]
        row, known, wait = await self._db(self._sign_in_row, key, address, device)
        if wait > 0:
            raise RateLimited(wait)
        stored = str(row[2]) if row is not None and row[2] else None
        good = await self._hash(passwords.verify, stored, password[:MAX_PASSWORD])
        if not good or row is None:
            raise _wrong()
        if row[4]:
            raise AccountError(_("this account is suspended"), "suspended")
        user = User(str(row[0]), str(row[1]), float(row[3]))
        if stored is not None and passwords.needs_rehash(stored):
            await self._db(
                self._set_hash, user.id, await self._hash(passwords.hash_password, password)
            )
        await self._db(self._good_guess, key, address, known)
        return await self._db(self._open, user, device if known else None)

    async def sign_out(self, session: str) -> None:
        await self._db(self._end, hash_secret(session))

    async def user_of(self, session: str | None) -> User | None:
        """The user a session cookie belongs to, if it is live and the account usable."""
        if not session or len(session) > 100:
            return None
        return await self._db(self.user_of_hash, hash_secret(session))

    def user_of_hash(self, session_hash: str) -> User | None:
        """``user_of`` by the session's hash (blocking: the store's thread)."""
        with self.store.transaction() as tx:
            row = tx.one(
                "SELECT u.id, u.name, u.created, u.suspended FROM web_sessions s"
                " JOIN web_users u ON u.id = s.user_id"
                " WHERE s.id_hash = ? AND s.expires > ? AND u.deleted = 0",
                (session_hash, self.clock()),
            )
        if row is None or row[3]:
            return None
        return User(str(row[0]), str(row[1]), float(row[2]))

    def ended(self, sessions: Sequence[tuple[str, str]]) -> dict[str, str]:
        """Of these (session hash, account) pairs, the sessions no longer usable and
        why (``ENDED_WORDS``'s keys): the account suspended or deleted, else the
        session ended (signed out, the password changed, expired)."""
        found: dict[str, str] = {}
        owners = dict(sessions)
        hashes = list(owners)
        now = self.clock()
        with self.store.transaction() as tx:
            for start in range(0, len(hashes), 500):
                chunk = hashes[start : start + 500]
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
                    suspended, deleted = states.get(owners[session], (False, True))
                    found[session] = (
                        "deleted" if deleted else "suspended" if suspended else "session-ended"
                    )
        return found

    def usable(self, user_id: str) -> bool:
        """Whether the account may play (neither suspended nor deleted)."""
        return not self.unusable([user_id])

    def unusable(self, user_ids: Sequence[str]) -> set[str]:
        """Of these accounts, those that may no longer play (suspended or deleted)."""
        found: set[str] = set()
        ids = sorted(set(user_ids))
        with self.store.transaction() as tx:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
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

    # -- the account's own changes (a password check, throttled like a sign-in) --

    async def change_password(self, user: User, old: Any, new: Any, address: str) -> SignedIn:
        """A new password: every session of the account ends, this browser gets a new one."""
        new = check_password(new)
        await self._check_password(user, old, address)
        hashed = await self._hash(passwords.hash_password, new)
        await self._db(self._set_hash, user.id, hashed)
        await self._db(self._end_all, user.id)
        return await self._db(self._open, user, None)

    async def delete(self, user: User, password: Any, address: str) -> None:
        """The account goes; its games stay, its name replaced in them (anonymised)."""
        await self._check_password(user, password, address)
        await self._db(self._delete, user.id)

    def claim_seats(self, user: User, seats: list[tuple[str, int, str]]) -> int:
        """Seats this browser holds as a guest (code, seat, token) become the
        account's; how many did. A seat held by another account stays theirs."""
        done = 0
        with self.store.transaction() as tx:
            for code, seat, token in seats[:200]:
                done += tx.run(
                    "UPDATE web_seats SET user_id = ? WHERE code = ? AND seat = ?"
                    " AND kind = 'human' AND token_hash = ? AND user_id IS NULL",
                    (user.id, code, seat, hash_token(token)),
                )
        return done

    def fill_skeletons(self) -> int:
        """Accounts made before names had look-alike keys get theirs (at start)."""
        with self.store.transaction() as tx:
            rows = tx.all(
                "SELECT id, name FROM web_users WHERE name_skeleton IS NULL AND deleted = 0"
            )
            for user_id, name in rows:
                tx.run(
                    "UPDATE web_users SET name_skeleton = ? WHERE id = ?",
                    (names.skeleton(str(name)), user_id),
                )
        return len(rows)

    # -- inside (blocking: run through ``db_run``) ----------------------------

    async def _check_password(self, user: User, password: Any, address: str) -> None:
        key = name_key(user.name)
        row, known, wait = await self._db(self._sign_in_row, key, address, None, user.id)
        if wait > 0:
            raise RateLimited(wait)
        stored = str(row[2]) if row is not None and row[2] else None
        text = password[:MAX_PASSWORD] if isinstance(password, str) else ""
        if not await self._hash(passwords.verify, stored, text):
            raise AccountError(_("that password is not right"), "bad-credentials")
        await self._db(self._good_guess, key, address, known)

    def _sign_in_row(
        self, key: str, address: str, device: str | None, user_id: str | None = None
    ) -> tuple[tuple[Any, ...] | None, bool, float]:
        """The account (by name key, or by id), whether the device is one of its
        own, and the wait before checking a password (0: counted, go on)."""
        now = self.clock()
        with self.store.transaction() as tx:
            if user_id is None:
                row = tx.one(
                    "SELECT id, name, password_hash, created, suspended FROM web_users"
                    " WHERE name_key = ? AND deleted = 0",
                    (key,),
                )
            else:
                row = tx.one(
                    "SELECT id, name, password_hash, created, suspended FROM web_users"
                    " WHERE id = ?",
                    (user_id,),
                )
            known = False
            if row is not None and device:
                known = (
                    tx.one(
                        "SELECT 1 FROM web_devices WHERE user_id = ? AND device_hash = ?"
                        " AND seen > ?",
                        (row[0], hash_secret(device), now - DEVICE_SECONDS),
                    )
                    is not None
                )
            wait = throttle.take(tx, _sign_in_keys(key, address, known), now)
        return row, known, wait

    def _good_guess(self, key: str, address: str, known: bool) -> None:
        """The right password: the pair starts again; the others are not charged."""
        pair, *others = (counted for counted, _policy in _sign_in_keys(key, address, known))
        with self.store.transaction() as tx:
            throttle.clear(tx, pair)
            for counted in others:
                throttle.give_back(tx, counted)

    def _reserve(self, keys: list[tuple[str, throttle.Policy]]) -> float:
        with self.store.transaction() as tx:
            return throttle.take(tx, keys, self.clock())

    def _give_back(self, keys: list[str]) -> None:
        with self.store.transaction() as tx:
            for key in keys:
                throttle.give_back(tx, key)

    def _insert_user(self, user: User, hashed: str, address_hash: str) -> None:
        skeleton = names.skeleton(user.name)
        with self.store.transaction() as tx:
            taken = tx.one(
                "SELECT name_key = ? FROM web_users WHERE deleted = 0"
                " AND (name_key = ? OR name_skeleton = ?)",
                (name_key(user.name), name_key(user.name), skeleton),
            )
            if taken is not None:
                if taken[0]:
                    raise AccountError(_("that user name is taken"), "name-taken")
                raise AccountError(
                    _("That name looks too much like another player's: please choose another."),
                    "name-confusable",
                )
            try:
                tx.run(
                    "INSERT INTO web_users (id, name, name_key, password_hash, created,"
                    " name_skeleton, address_hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        user.id,
                        user.name,
                        name_key(user.name),
                        hashed,
                        user.created,
                        skeleton,
                        address_hash,
                    ),
                )
            except Exception as exc:
                if tx.is_integrity_error(exc):  # the same name at the same moment
                    raise AccountError(_("that user name is taken"), "name-taken") from None
                raise

    def _set_hash(self, user_id: str, hashed: str) -> None:
        with self.store.transaction() as tx:
            tx.run("UPDATE web_users SET password_hash = ? WHERE id = ?", (hashed, user_id))

    def _open(self, user: User, device: str | None) -> SignedIn:
        """A new session; the device remembered (a new token when it was not known)."""
        session = secrets.token_urlsafe(32)
        fresh = None if device else secrets.token_urlsafe(32)
        now = self.clock()
        with self.store.transaction() as tx:
            tx.run("DELETE FROM web_sessions WHERE expires <= ?", (now,))
            tx.run(
                "INSERT INTO web_sessions (id_hash, user_id, created, expires) VALUES (?, ?, ?, ?)",
                (hash_secret(session), user.id, now, now + SESSION_SECONDS),
            )
            tx.run(
                "INSERT INTO web_devices (user_id, device_hash, seen) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id, device_hash) DO UPDATE SET seen = excluded.seen",
                (user.id, hash_secret(device or fresh or ""), now),
            )
            throttle.forget_old(tx, now)
        return SignedIn(user, session, fresh)

    def _end(self, session_hash: str) -> None:
        with self.store.transaction() as tx:
            tx.run("DELETE FROM web_sessions WHERE id_hash = ?", (session_hash,))

    def _end_all(self, user_id: str) -> None:
        with self.store.transaction() as tx:
            tx.run("DELETE FROM web_sessions WHERE user_id = ?", (user_id,))

    def _delete(self, user_id: str) -> None:
        gone = DELETED_NAME  # stored as is; each reader sees it in their language
        with self.store.transaction() as tx:
            tx.run("DELETE FROM web_sessions WHERE user_id = ?", (user_id,))
            tx.run("DELETE FROM web_devices WHERE user_id = ?", (user_id,))
            tx.run(
                "UPDATE web_users SET deleted = 1, password_hash = NULL, name = ?,"
                " name_key = ?, name_skeleton = NULL WHERE id = ?",
                (gone, f"deleted:{user_id}", user_id),
            )
            rename_seats(tx, user_id, gone)


def rename_seats(tx: Tx, user_id: str, name: str) -> None:
    """An account's name in its seats and in its finished games' records (P29)."""
    tx.run("UPDATE web_seats SET name = ? WHERE user_id = ?", (name, user_id))
    for code, seat in tx.all("SELECT code, seat FROM web_seats WHERE user_id = ?", (user_id,)):
        for game, record in tx.all(
            "SELECT game, record FROM web_games WHERE code = ? AND record IS NOT NULL", (code,)
        ):
            tx.run(
                "UPDATE web_games SET record = ? WHERE code = ? AND game = ?",
                (_rename_in_record(str(record), int(seat), name), code, game),
            )


def _rename_in_record(record: str, seat: int, name: str) -> str:
    """A game record with seat ``seat``'s name replaced (records keep names, P29)."""
    try:
        data = json.loads(record)
    except ValueError:
        return record
    given = data.get("names")
    if isinstance(given, list) and 0 <= seat < len(given):
        given[seat] = name
        return json.dumps(data, indent=1, ensure_ascii=False)
    return record


__all__ = [
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "DEVICE_COOKIE",
    "ENDED_WORDS",
    "MIN_PASSWORD",
    "SESSION_COOKIE",
    "AccountError",
    "Accounts",
    "RateLimited",
    "SignedIn",
    "User",
    "check_password",
    "check_user_name",
    "csrf_for",
    "csrf_ok",
    "hash_secret",
    "name_key",
    "rename_seats",
]
