"""Accounts: a name that lasts, a password, sessions (issues 13 and 22; P29, P40).

A person may play as a guest (a name and a seat token in one browser) or
sign up with a user name and a password. Passwords are hashed with
argon2id (``passwords``, in threads of their own) and never stored, sent
or logged in clear; the only rule is a length. Signing in opens a session:
a random id in an HttpOnly, SameSite=Lax cookie (Secure behind https), of
which the store keeps only a hash; every sign-in and every password change
makes a new id, and the page's CSRF token is derived from it
(``csrf_for``), so that it changes with the session too.

Guessing is slowed, never made a lockout (``throttle``, P40), with counts in
the store. An unknown name and a wrong password get the same answer, after
the same work. A bot account (P62) has no password: it never signs in.

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
from passing_game.web.accounts import names, passwords, throttle
from passing_game.web.game.errors import SUSPENDED
from passing_game.web.protocol import MAX_NAME, ProtocolError, clean_name
from passing_game.web.store import Store, Tx, hash_token
from passing_game.web.store import accounts as users
from passing_game.web.store import bots as bot_rows
from passing_game.web.store.rows import UserRow
from passing_game.web.table import frames

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
    "suspended": SUSPENDED,
    "deleted": N_("This account was deleted."),
}


#: Refusals this module sends from more than one place (each worded once).
NAME_TAKEN = N_("That user name is taken.")


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
                "A user name has at least {n} character.",
                "A user name has at least {n} characters.",
                MIN_USER_NAME,
            ).format(n=MIN_USER_NAME),
            "bad-name",
        )
    return name


def check_password(value: Any) -> str:
    if not isinstance(value, str):
        raise AccountError(_("Please give a password."), "bad-password")
    if len(value) < MIN_PASSWORD:
        raise AccountError(
            ngettext(
                "A password has at least {n} character.",
                "A password has at least {n} characters.",
                MIN_PASSWORD,
            ).format(n=MIN_PASSWORD),
            "bad-password",
        )
    if len(value) > MAX_PASSWORD:
        raise AccountError(
            ngettext(
                "A password has at most {n} character.",
                "A password has at most {n} characters.",
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
    return AccountError(_("Wrong user name or password."), "bad-credentials")


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
        stored = row.password_hash if row is not None else None
        good = await self._hash(passwords.verify, stored, password[:MAX_PASSWORD])
        if not good or row is None:
            raise _wrong()
        if row.suspended:
            raise AccountError(_(ENDED_WORDS["suspended"]), "suspended")
        user = User(row.id, row.name, row.created)
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
            row = users.session_user(tx, session_hash, self.clock())
        if row is None or row.suspended:
            return None
        return User(row.id, row.name, row.created)

    def ended(self, sessions: Sequence[tuple[str, str]]) -> dict[str, str]:
        """Of these (session hash, account) pairs, the sessions no longer usable and
        why (``ENDED_WORDS``'s keys): the account suspended or deleted, else the
        session ended (signed out, the password changed, expired)."""
        now = self.clock()
        with self.store.transaction() as tx:
            gone = users.ended_sessions(tx, dict(sessions), now)
        return {
            session: "deleted" if deleted else "suspended" if suspended else "session-ended"
            for session, (suspended, deleted) in gone.items()
        }

    def usable(self, user_id: str) -> bool:
        """Whether the account may play (neither suspended nor deleted)."""
        return not self.unusable([user_id])

    def unusable(self, user_ids: Sequence[str]) -> set[str]:
        """Of these accounts, those that may no longer play (suspended or deleted)."""
        with self.store.transaction() as tx:
            return users.unusable(tx, user_ids)

    # -- the account's own changes (a password check, throttled like a sign-in) --

    async def change_password(self, user: User, old: Any, new: Any, address: str) -> SignedIn:
        """A new password: every session of the account ends, this browser gets a new one."""
        new = check_password(new)
        await self._check_password(user, old, address)
        return await self.set_password(user, new)

    async def set_password(self, user: User, new: Any) -> SignedIn:
        """``new`` (checked) is the password: every session ends, this browser gets one."""
        hashed = await self._hash(passwords.hash_password, check_password(new))
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
                done += users.claim_seat(tx, user.id, code, seat, hash_token(token))
        return done

    def fill_skeletons(self) -> int:
        """Accounts made before names had look-alike keys get theirs (at start)."""
        with self.store.transaction() as tx:
            rows = users.without_skeleton(tx)
            for user_id, name in rows:
                users.set_skeleton(tx, user_id, names.skeleton(name))
        return len(rows)

    # -- inside (blocking: run through ``db_run``) ----------------------------

    async def _check_password(self, user: User, password: Any, address: str) -> None:
        key = name_key(user.name)
        row, known, wait = await self._db(self._sign_in_row, key, address, None, user.id)
        if wait > 0:
            raise RateLimited(wait)
        stored = row.password_hash if row is not None else None
        text = password[:MAX_PASSWORD] if isinstance(password, str) else ""
        if not await self._hash(passwords.verify, stored, text):
            raise AccountError(_("That password is not right."), "bad-credentials")
        await self._db(self._good_guess, key, address, known)

    def _sign_in_row(
        self, key: str, address: str, device: str | None, user_id: str | None = None
    ) -> tuple[UserRow | None, bool, float]:
        """The account (by name key, or by id), whether the device is one of its
        own, and the wait before checking a password (0: counted, go on)."""
        now = self.clock()
        with self.store.transaction() as tx:
            if user_id is None:
                row = users.credentials(tx, key)
            else:
                row = users.credentials_of(tx, user_id)
            known = False
            if row is not None and device:
                known = users.known_device(tx, row.id, hash_secret(device), now - DEVICE_SECONDS)
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
        with self.store.transaction() as tx:
            insert_account(tx, user, hashed, address_hash)

    def _set_hash(self, user_id: str, hashed: str) -> None:
        with self.store.transaction() as tx:
            users.set_password_hash(tx, user_id, hashed)

    def _open(self, user: User, device: str | None) -> SignedIn:
        """A new session; the device remembered (a new token when it was not known)."""
        session = secrets.token_urlsafe(32)
        fresh = None if device else secrets.token_urlsafe(32)
        now = self.clock()
        with self.store.transaction() as tx:
            users.open_session(
                tx,
                hash_secret(session),
                user.id,
                hash_secret(device or fresh or ""),
                now,
                now + SESSION_SECONDS,
            )
            throttle.forget_old(tx, now)
        return SignedIn(user, session, fresh)

    def _end(self, session_hash: str) -> None:
        with self.store.transaction() as tx:
            users.end_session(tx, session_hash)

    def _end_all(self, user_id: str) -> None:
        with self.store.transaction() as tx:
            users.end_sessions_of(tx, user_id)

    def _delete(self, user_id: str) -> None:
        gone = DELETED_NAME  # stored as is; each reader sees it in their language
        with self.store.transaction() as tx:
            for gone_id in [user_id, *bot_rows.owned(tx, user_id)]:  # its bots go too (P62)
                users.delete_user(tx, gone_id, gone, f"deleted:{gone_id}")
                rename_seats(tx, gone_id, gone)


def insert_account(tx: Tx, user: User, hashed: str | None, address_hash: str) -> None:
    """A new account, its name checked against the live ones' (``hashed``: ``None`` for a bot)."""
    skeleton = names.skeleton(user.name)
    clash = users.name_clash(tx, name_key(user.name), skeleton)
    if clash == "taken":
        raise AccountError(_(NAME_TAKEN), "name-taken")
    if clash is not None:
        raise AccountError(
            _("That name looks too much like another player's: please choose another."),
            "name-confusable",
        )
    row = UserRow(user.id, user.name, user.created, password_hash=hashed)
    try:
        users.insert_user(tx, row, name_key(user.name), skeleton, address_hash)
    except Exception as exc:
        if tx.is_integrity_error(exc):  # the same name at the same moment
            raise AccountError(_(NAME_TAKEN), "name-taken") from None
        raise


def rename_seats(tx: Tx, user_id: str, name: str) -> None:
    """An account's name in its seats and in its finished games' records (P29)."""
    for code, seat in users.rename_in_seats(tx, user_id, name):
        for game, record in users.records_at(tx, code):
            users.set_record(tx, code, game, _rename_in_record(record, seat, name))


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
    "insert_account",
    "name_key",
    "rename_seats",
]
