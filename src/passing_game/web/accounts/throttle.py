"""Slowing down guessing without locking anybody out (issue 22, P40).

A **policy** says how many attempts a key may make at once and how long
each attempt after those must wait: ``free`` attempts without waiting, then
a wait that doubles from ``base`` up to ``cap`` seconds after the previous
attempt, the count starting again after ``reset`` seconds of quiet. It is
pure arithmetic on (count, last attempt, now), tested with any clock.

A **key** is what is counted: an account and an address together, an
account from anywhere, an address for any account, an address making
accounts. Keys are stored hashed (``web_attempts``), so the store holds no
name or address in clear.

``take`` counts one attempt against several keys at once, atomically on
both databases and across server processes: each key's row is inserted if
missing, then locked by a no-op update (in one order, so that two requests
never deadlock), read (``store.attempts.lock_attempts``), and only if every
key may go on are all of them counted; otherwise nothing is counted and
the longest wait is returned. Two processes taking the same key at once
therefore take turns at its row: a burst of guesses is checked exactly
``free`` times, never more.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

from passing_game.i18n import ngettext
from passing_game.web.store import Tx, attempts


@dataclass(frozen=True)
class Policy:
    """How often a key may try: ``free`` at once, then waits doubling from ``base``
    to ``cap`` seconds; forgotten after ``reset`` seconds without an attempt.

    >>> p = Policy(free=2, base=60, cap=300, reset=3600)
    >>> [p.wait(n, last=0.0, now=0.0) for n in range(5)]
    [0.0, 0.0, 60.0, 120.0, 240.0]
    >>> p.wait(6, last=0.0, now=100.0), p.wait(6, last=0.0, now=3600.0)
    (200.0, 0.0)
    """

    free: int
    base: float
    cap: float
    reset: float

    def delay(self, count: int) -> float:
        """The wait after the ``count``-th attempt before the next one (0 while free)."""
        if count < self.free:
            return 0.0
        return float(min(self.cap, self.base * 2 ** min(64, count - self.free)))

    def wait(self, count: int, last: float, now: float) -> float:
        """Seconds before the next attempt of a key that made ``count``, the last at ``last``."""
        if count <= 0 or now - last >= self.reset:
            return 0.0
        return max(0.0, last + self.delay(count) - now)

    def counted(self, count: int, last: float, now: float) -> int:
        """The count once one more attempt is made now."""
        return 1 if count <= 0 or now - last >= self.reset else count + 1


#: A wrong password for one account from one address (the guesser's own pair).
SIGN_IN_PAIR = Policy(free=5, base=60.0, cap=900.0, reset=3600.0)
#: One account from every address (many machines guessing); the account's
#: known devices are not held by it.
SIGN_IN_ACCOUNT = Policy(free=20, base=60.0, cap=900.0, reset=3600.0)
#: One address for every account (one machine trying many accounts).
SIGN_IN_ADDRESS = Policy(free=30, base=60.0, cap=900.0, reset=3600.0)
#: Accounts made from one address: five at once (a family, a classroom), then a
#: wait from ten minutes up to a day.
SIGN_UP_ADDRESS = Policy(free=5, base=600.0, cap=86400.0, reset=86400.0)


def key_of(kind: str, *parts: str) -> str:
    """The stored key: a hash, so that the store keeps no name or address in clear.

    >>> key_of("pair", "ana", "10.0.0.1") == key_of("pair", "ana", "10.0.0.1")
    True
    >>> key_of("pair", "ana", "10.0.0.1") != key_of("account", "ana", "10.0.0.1")
    True
    """
    text = "\x1f".join((kind, *parts))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def take(tx: Tx, keys: Sequence[tuple[str, Policy]], now: float) -> float:
    """Count one attempt against every key, or none: 0 when it may go on, else
    the seconds to wait (the longest of the keys')."""
    chosen = sorted(dict(keys).items())
    rows = {key: attempts.lock_attempts(tx, key, now) for key, _policy in chosen}
    wait = max((p.wait(rows[k][0], rows[k][1], now) for k, p in chosen), default=0.0)
    if wait > 0:
        return wait
    for key, policy in chosen:
        count, last, since = rows[key]
        counted = policy.counted(count, last, now)
        attempts.set_attempts(tx, key, counted, now, now if counted == 1 else since)
    return 0.0


def give_back(tx: Tx, key: str) -> None:
    """An attempt that turned out right is not counted against ``key``."""
    attempts.give_back(tx, key)


def clear(tx: Tx, key: str) -> None:
    """``key`` starts again from nothing (the right password for its own pair)."""
    attempts.clear(tx, key)


def forget_old(tx: Tx, now: float, older_than: float = 86400.0 * 2) -> None:
    """Rows quiet for longer than every policy's reset are of no use."""
    attempts.forget_before(tx, now - older_than)


def minutes(wait: float) -> int:
    """A wait as people are told it: whole minutes, at least one.

    >>> minutes(1), minutes(60), minutes(61)
    (1, 1, 2)
    """
    return max(1, math.ceil(wait / 60))


def wait_sentence(wait: float) -> str:
    """ "too many attempts: try again in N minutes", counted in the reader's language."""
    n = minutes(wait)
    return ngettext(
        "Too many attempts: try again in {n} minute.",
        "Too many attempts: try again in {n} minutes.",
        n,
    ).format(n=n)


__all__ = [
    "SIGN_IN_ACCOUNT",
    "SIGN_IN_ADDRESS",
    "SIGN_IN_PAIR",
    "SIGN_UP_ADDRESS",
    "Policy",
    "clear",
    "forget_old",
    "give_back",
    "key_of",
    "minutes",
    "take",
    "wait_sentence",
]
