"""One-time recovery codes (``web_recovery_codes``; ``web/accounts/recovery.py``).

Only each code's hash is kept; a used code keeps its row, marked with when.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx


def replace_codes(tx: Tx, user_id: str, hashes: Sequence[str], now: float) -> None:
    """The account's unused codes are these from now on (the old ones stop working)."""
    tx.run("DELETE FROM web_recovery_codes WHERE user_id = ? AND used IS NULL", (user_id,))
    add_codes(tx, user_id, hashes, now)


def add_codes(tx: Tx, user_id: str, hashes: Sequence[str], now: float) -> None:
    for code_hash in hashes:
        tx.run(
            "INSERT INTO web_recovery_codes (user_id, code_hash, created) VALUES (?, ?, ?)",
            (user_id, code_hash, now),
        )


def use_code(tx: Tx, user_id: str, code_hash: str, now: float) -> bool:
    """Whether the code was the account's and unused (it is used now)."""
    changed = tx.run(
        "UPDATE web_recovery_codes SET used = ?"
        " WHERE user_id = ? AND code_hash = ? AND used IS NULL",
        (now, user_id, code_hash),
    )
    return changed == 1


def unused(tx: Tx, user_id: str) -> int:
    """How many of the account's codes may still be used."""
    row = tx.one(
        "SELECT COUNT(*) FROM web_recovery_codes WHERE user_id = ? AND used IS NULL", (user_id,)
    )
    return int(row[0]) if row else 0


__all__ = ["add_codes", "replace_codes", "unused", "use_code"]
