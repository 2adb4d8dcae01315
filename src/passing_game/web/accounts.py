"""Accounts: a name that lasts, a password, sessions (issue 13, P29).

A person may play as a guest (a name and a seat token in one browser) or
sign up with a user name and a password. Passwords are hashed with
argon2id (argon2-cffi, its recommended parameters) and never stored, sent
or logged in clear; the only rule is a minimum length. Signing in opens a
session: a random id in an HttpOnly, SameSite=Lax cookie (Secure behind
https), of which the store keeps only a hash; every sign-in makes a new id.
Sign-in attempts are counted in the store, per account and per address, so
that the limit holds whichever server process is asked. An unknown name and
a wrong password get the same answer, after the same work.

Requests that change anything need the page's CSRF token (``csrf_token``):
a random value in a cookie of its own, which the page reads from
``/api/account`` (the same-origin policy keeps other sites from reading it)
and sends back in the ``X-CSRF-Token`` header; a request whose header does
not match the cookie is refused.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from passing_game.i18n import _, ngettext
from passing_game.web import frames
from passing_game.web.protocol import MAX_NAME, ProtocolError, clean_name
from passing_game.web.store import Store, StoreError

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
#: Sign-in attempts allowed in ``ATTEMPT_WINDOW`` seconds: per account, per address.
ATTEMPTS_PER_ACCOUNT = 5
ATTEMPTS_PER_ADDRESS = 20
ATTEMPT_WINDOW = 15 * 60.0

SESSION_COOKIE = "pg_session"
CSRF_COOKIE = "pg_csrf"
CSRF_HEADER = "x-csrf-token"

_HASHER = PasswordHasher()
#: Verified against when the name is unknown, so both answers take as long.
_DUMMY_HASH = _HASHER.hash(secrets.token_urlsafe(16))


class AccountError(ProtocolError):
    """A refused account request; ``str(exc)`` is shown to the person."""


class RateLimited(AccountError):
    """Too many sign-in attempts; ``retry_after`` seconds to wait."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, "rate-limit")
        self.retry_after = retry_after


@dataclass(frozen=True)
class User:
    """A signed-in person as the server knows them."""

    id: str
    name: str
    created: float
    suspended: bool = False


def name_key(name: str) -> str:
    """What makes two user names the same name: case and width folded.

    >>> name_key("Ana") == name_key("ＡＮＡ")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold()


def hash_secret(value: str) -> str:
    """What the store keeps of a session id: its SHA-256."""
    return hashlib.sha256(value.encode()).hexdigest()


def check_user_name(value: Any) -> str:
    """A user name: a display name of at least ``MIN_USER_NAME`` characters."""
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
    return value


def _wrong() -> AccountError:
    # One answer for an unknown name and a wrong password.
    return AccountError(_("wrong user name or password"), "bad-credentials")


class Accounts:
    """Accounts and sessions in the store. Its methods block (call them in a
    worker thread: ``AsyncStore.run``)."""

    def __init__(self, store: Store, clock: Any = time.time) -> None:
        self.store = store
        self.clock = clock

    # -- sign up, sign in, sign out ------------------------------------------

    def sign_up(self, name: Any, password: Any) -> tuple[User, str]:
        """A new account, signed in: the user and the new session id."""
        name = check_user_name(name)
        password = check_password(password)
        hashed = _HASHER.hash(password)
        user = User(secrets.token_hex(8), name, self.clock())
        try:
            with self.store.transaction() as tx:
                tx.run(
                    "INSERT INTO web_users (id, name, name_key, password_hash, created)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (user.id, name, name_key(name), hashed, user.created),
                )
        except Exception as exc:
            if isinstance(exc, StoreError) or _integrity(self.store, exc):
                raise AccountError(_("that user name is taken"), "name-taken") from None
            raise
        return user, self._open_session(user.id)

    def sign_in(self, name: Any, password: Any, address: str) -> tuple[User, str]:
        """Check the name and password (rate-limited); a new session id."""
        if not isinstance(name, str) or not isinstance(password, str):
            raise _wrong()
        key = name_key(" ".join(name.split()))[: 4 * MAX_NAME]
        self._count_attempt(f"address:{address}", ATTEMPTS_PER_ADDRESS)
        self._count_attempt(f"account:{key}", ATTEMPTS_PER_ACCOUNT)
        with self.store.transaction() as tx:
            row = tx.one(
                "SELECT id, name, password_hash, created, suspended FROM web_users"
                " WHERE name_key = ? AND deleted = 0",
                (key,),
            )
        stored = row[2] if row is not None and row[2] else _DUMMY_HASH
        try:
            _HASHER.verify(stored, password[:MAX_PASSWORD])
            good = row is not None
        except (VerificationError, InvalidHashError):
            good = False
        if not good or row is None:
            raise _wrong()
        if row[4]:
            raise AccountError(_("this account is suspended"), "suspended")
        user = User(str(row[0]), str(row[1]), float(row[3]))
        if _HASHER.check_needs_rehash(stored):
            self._set_hash(user.id, _HASHER.hash(password))
        self._clear_attempts(f"account:{key}")
        return user, self._open_session(user.id)

    def sign_out(self, session: str) -> None:
        with self.store.transaction() as tx:
            tx.run("DELETE FROM web_sessions WHERE id_hash = ?", (hash_secret(session),))

    def user_of(self, session: str | None) -> User | None:
        """The user a session cookie belongs to, if it is live and the account usable."""
        if not session or len(session) > 100:
            return None
        with self.store.transaction() as tx:
            row = tx.one(
                "SELECT u.id, u.name, u.created, u.suspended FROM web_sessions s"
                " JOIN web_users u ON u.id = s.user_id"
                " WHERE s.id_hash = ? AND s.expires > ? AND u.deleted = 0",
                (hash_secret(session), self.clock()),
            )
        if row is None or row[3]:
            return None
        return User(str(row[0]), str(row[1]), float(row[2]))

    # -- the account's own changes -------------------------------------------

    def change_password(self, user: User, old: Any, new: Any, session: str) -> None:
        """A new password; every other session of the account is closed."""
        new = check_password(new)
        self._verify(user, old)
        self._set_hash(user.id, _HASHER.hash(new))
        with self.store.transaction() as tx:
            tx.run(
                "DELETE FROM web_sessions WHERE user_id = ? AND id_hash <> ?",
                (user.id, hash_secret(session)),
            )

    def delete(self, user: User, password: Any) -> None:
        """The account goes; its games stay, its name replaced in them (anonymised)."""
        self._verify(user, password)
        gone = DELETED_NAME  # stored as is; each reader sees it in their language
        with self.store.transaction() as tx:
            tx.run("DELETE FROM web_sessions WHERE user_id = ?", (user.id,))
            tx.run(
                "UPDATE web_users SET deleted = 1, password_hash = NULL, name = ?,"
                " name_key = ? WHERE id = ?",
                (gone, f"deleted:{user.id}", user.id),
            )
            tx.run(
                "UPDATE web_seats SET name = ? WHERE user_id = ?",
                (gone, user.id),
            )
            seats = tx.all("SELECT code, seat FROM web_seats WHERE user_id = ?", (user.id,))
            for code, seat in seats:
                for game, record in tx.all(
                    "SELECT game, record FROM web_games WHERE code = ? AND record IS NOT NULL",
                    (code,),
                ):
                    tx.run(
                        "UPDATE web_games SET record = ? WHERE code = ? AND game = ?",
                        (_rename_in_record(str(record), int(seat), gone), code, game),
                    )

    def claim_seats(self, user: User, seats: list[tuple[str, int, str]]) -> int:
        """Seats this browser holds as a guest (code, seat, token) become the
        account's; how many did. A seat held by another account stays theirs."""
        from passing_game.web.store import hash_token

        done = 0
        with self.store.transaction() as tx:
            for code, seat, token in seats[:200]:
                done += tx.run(
                    "UPDATE web_seats SET user_id = ? WHERE code = ? AND seat = ?"
                    " AND kind = 'human' AND token_hash = ? AND user_id IS NULL",
                    (user.id, code, seat, hash_token(token)),
                )
        return done

    # -- inside --------------------------------------------------------------

    def _verify(self, user: User, password: Any) -> None:
        with self.store.transaction() as tx:
            row = tx.one("SELECT password_hash FROM web_users WHERE id = ?", (user.id,))
        try:
            ok = (
                row is not None
                and isinstance(password, str)
                and bool(row[0])
                and _HASHER.verify(str(row[0]), password[:MAX_PASSWORD])
            )
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok:
            raise AccountError(_("that password is not right"), "bad-credentials")

    def _set_hash(self, user_id: str, hashed: str) -> None:
        with self.store.transaction() as tx:
            tx.run("UPDATE web_users SET password_hash = ? WHERE id = ?", (hashed, user_id))

    def _open_session(self, user_id: str) -> str:
        session = secrets.token_urlsafe(32)
        now = self.clock()
        with self.store.transaction() as tx:
            tx.run("DELETE FROM web_sessions WHERE expires <= ?", (now,))
            tx.run(
                "INSERT INTO web_sessions (id_hash, user_id, created, expires) VALUES (?, ?, ?, ?)",
                (hash_secret(session), user_id, now, now + SESSION_SECONDS),
            )
        return session

    def _count_attempt(self, key: str, most: int) -> None:
        """Count one attempt against ``key``; refuse once ``most`` are used up."""
        now = self.clock()
        stored = hash_secret(key)  # addresses and names are not kept in clear
        with self.store.transaction() as tx:
            row = tx.one("SELECT since, count FROM web_attempts WHERE key = ?", (stored,))
            if row is None or now - float(row[0]) >= ATTEMPT_WINDOW:
                tx.run("DELETE FROM web_attempts WHERE key = ?", (stored,))
                tx.run(
                    "INSERT INTO web_attempts (key, since, count) VALUES (?, ?, 1)",
                    (stored, now),
                )
                return
            if int(row[1]) >= most:
                wait = max(1, int(float(row[0]) + ATTEMPT_WINDOW - now))
                raise RateLimited(
                    ngettext(
                        "too many attempts: try again in {n} second",
                        "too many attempts: try again in {n} seconds",
                        wait,
                    ).format(n=wait),
                    wait,
                )
            tx.run("UPDATE web_attempts SET count = count + 1 WHERE key = ?", (stored,))

    def _clear_attempts(self, key: str) -> None:
        with self.store.transaction() as tx:
            tx.run("DELETE FROM web_attempts WHERE key = ?", (hash_secret(key),))


def _integrity(store: Store, exc: Exception) -> bool:
    checker = getattr(store, "_is_integrity_error", None)
    return bool(checker(exc)) if callable(checker) else False


def _rename_in_record(record: str, seat: int, name: str) -> str:
    """A game record with seat ``seat``'s name replaced (records keep names, P29)."""
    import json

    try:
        data = json.loads(record)
    except ValueError:
        return record
    names = data.get("names")
    if isinstance(names, list) and 0 <= seat < len(names):
        names[seat] = name
        return json.dumps(data, indent=1, ensure_ascii=False)
    return record


def csrf_ok(cookie: str | None, header: str | None) -> bool:
    """Whether a request carries the page's CSRF token (the header matches the cookie)."""
    return bool(cookie) and bool(header) and hmac.compare_digest(str(cookie), str(header))


__all__ = [
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "MIN_PASSWORD",
    "SESSION_COOKIE",
    "AccountError",
    "Accounts",
    "RateLimited",
    "User",
    "check_password",
    "check_user_name",
    "csrf_ok",
    "name_key",
]
