"""A way back into an account whose password is lost, with no e-mail (issue 27, item 4; P57).

At sign-up the person is shown ``CODES`` one-time recovery codes, once; the
store keeps only each code's hash (``store/recovery.py``), salted with the
account's id. ``recover`` takes a name, a code and a new password: counted
against the same kind of limits as a sign-in (a code is worth a password),
it uses the code up, sets the password, ends every session of the account
and opens one in this browser. One answer for an unknown name, a wrong code
and a used one. A moderator can give an account one more code
(``passing-game admin recovery NAME --reason ...``, logged) to pass on to
its person by other means.

>>> code = new_code()
>>> len(code), code.count("-"), clean(code.upper().replace("-", " ")) == clean(code)
(19, 3, True)
>>> clean("not a code") is None
True
"""

from __future__ import annotations

import secrets
from typing import Any

from passing_game.i18n import N_, _
from passing_game.web.accounts import names, throttle
from passing_game.web.accounts.flows import (
    AccountError,
    Accounts,
    RateLimited,
    Runner,
    SignedIn,
    User,
    check_password,
    hash_secret,
    name_key,
)
from passing_game.web.game.errors import SUSPENDED
from passing_game.web.protocol import MAX_NAME
from passing_game.web.store import accounts as users
from passing_game.web.store import recovery as codes_rows

#: The codes a new account is given.
CODES = 8
#: The letters of a code: no 0/o, 1/l/i to misread. 16 of them: 79 bits.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
LENGTH = 16
#: One answer for an unknown name, a wrong code and a used one.
NO_MATCH = N_("That name and recovery code do not match, or the code was used.")


def new_code() -> str:
    """A fresh code, in groups of four (``abcd-efgh-jkmn-pqrs``)."""
    letters = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    return "-".join(letters[i : i + 4] for i in range(0, LENGTH, 4))


def clean(code: Any) -> str | None:
    """A code as typed (any case, spaces or hyphens), or ``None`` if it cannot be one."""
    if not isinstance(code, str) or len(code) > 4 * LENGTH:
        return None
    letters = "".join(c for c in code.lower() if c not in " -")
    return letters if len(letters) == LENGTH and all(c in ALPHABET for c in letters) else None


def code_hash(user_id: str, letters: str) -> str:
    return hash_secret(f"recovery/{user_id}/{letters}")


class Recovery:
    """Recovery codes: issued at sign-up, and used."""

    def __init__(self, accounts: Accounts, db_run: Runner) -> None:
        self.accounts = accounts
        self._db = db_run

    def issue(self, user_id: str) -> list[str]:
        """A new set of codes for the account (the unused old ones stop working)."""
        made = [new_code() for _ in range(CODES)]
        hashes = [code_hash(user_id, str(clean(code))) for code in made]
        with self.accounts.store.transaction() as tx:
            codes_rows.replace_codes(tx, user_id, hashes, self.accounts.clock())
        return made

    async def recover(self, name: Any, code: Any, password: Any, address: str) -> SignedIn:
        """Back in with a code: a new password, every other session ended."""
        password = check_password(password)
        if not isinstance(name, str):
            raise AccountError(_(NO_MATCH), "bad-credentials")
        key = name_key(names.normalize(name[: 8 * MAX_NAME]))[: 4 * MAX_NAME]
        user = await self._db(self._use, key, clean(code), address)
        return await self.accounts.set_password(user, password)

    def _use(self, key: str, letters: str | None, address: str) -> User:
        now = self.accounts.clock()
        limits = [
            (throttle.key_of("recover", key, address), throttle.SIGN_IN_PAIR),
            (throttle.key_of("address", address), throttle.SIGN_IN_ADDRESS),
        ]
        # Counted in a transaction of its own: a refusal below keeps the count.
        with self.accounts.store.transaction() as tx:
            wait = throttle.take(tx, limits, now)
        if wait > 0:
            raise RateLimited(wait)
        with self.accounts.store.transaction() as tx:
            row = users.credentials(tx, key)
            used = False
            if row is not None and not row.suspended and letters is not None:
                used = codes_rows.use_code(tx, row.id, code_hash(row.id, letters), now)
        if row is not None and row.suspended:
            raise AccountError(_(SUSPENDED), "suspended")
        if not used or row is None:
            raise AccountError(_(NO_MATCH), "bad-credentials")
        return User(row.id, row.name, row.created)


__all__ = ["CODES", "NO_MATCH", "Recovery", "clean", "code_hash", "new_code"]
