"""Password hashes: argon2id, computed off the store's thread (issue 22).

argon2id is slow and memory-hard on purpose (argon2-cffi's recommended
parameters: 64 MiB and a few tens of milliseconds a hash). It must never
run on the event loop, nor on the store's worker thread: SQLite has one,
and a table's moves would wait behind every sign-up. ``Hashing`` runs it
in a small pool of its own threads (argon2-cffi releases the GIL while it
hashes), so at most ``workers`` hashes take memory at once however many
people sign in together.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_HASHER = PasswordHasher()
#: Verified against when the name is unknown, so both answers take as long.
DUMMY_HASH = _HASHER.hash(secrets.token_urlsafe(16))

_P = ParamSpec("_P")
_T = TypeVar("_T")


def hash_password(password: str) -> str:
    """The argon2id hash of a checked password (``accounts.check_password``)."""
    return _HASHER.hash(password)


def verify(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (a dummy when ``None``)."""
    try:
        return bool(_HASHER.verify(stored or DUMMY_HASH, password)) and stored is not None
    except (VerificationError, InvalidHashError, UnicodeError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether the hash was made with parameters argon2-cffi no longer recommends."""
    try:
        return bool(_HASHER.check_needs_rehash(stored))
    except InvalidHashError:
        return True


class Hashing:
    """A few threads of their own for argon2 (``run`` as ``AsyncStore.run``)."""

    def __init__(self, workers: int = 2) -> None:
        self._threads = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="argon2")

    async def run(self, fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, functools.partial(fn, *args, **kwargs))

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)


__all__ = ["DUMMY_HASH", "Hashing", "hash_password", "needs_rehash", "verify"]
