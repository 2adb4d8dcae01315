"""Whom each account does not want to hear from (``web_ignores``; issue 27).

One row per (account, other account): ``"mute"`` hides the other's chat
messages from this account alone (``web/chat/``); ``"block"`` does that and
also refuses the other's challenges (``web/social/``). A block outranks a
mute: setting a mute where a block stands keeps the block.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx

Kind = Literal["mute", "block"]
KINDS: tuple[Kind, ...] = ("mute", "block")


def ignore(tx: Tx, user_id: str, other_id: str, kind: Kind, now: float) -> None:
    """``user_id`` mutes or blocks ``other_id`` (a block is never lowered to a mute)."""
    if kind not in KINDS:
        raise ValueError(f"not a kind of ignoring: {kind!r}")
    row = tx.one(
        "SELECT kind FROM web_ignores WHERE user_id = ? AND other_id = ?", (user_id, other_id)
    )
    if row is None:
        tx.run(
            "INSERT INTO web_ignores (user_id, other_id, kind, created) VALUES (?, ?, ?, ?)",
            (user_id, other_id, kind, now),
        )
    elif row[0] != "block" and kind == "block":
        tx.run(
            "UPDATE web_ignores SET kind = ?, created = ? WHERE user_id = ? AND other_id = ?",
            (kind, now, user_id, other_id),
        )


def unignore(tx: Tx, user_id: str, other_id: str, kind: Kind) -> bool:
    """Lift a mute or a block; whether there was one of that kind."""
    return (
        tx.run(
            "DELETE FROM web_ignores WHERE user_id = ? AND other_id = ? AND kind = ?",
            (user_id, other_id, kind),
        )
        == 1
    )


def ignored_by(tx: Tx, user_id: str) -> dict[str, Kind]:
    """Every account ``user_id`` mutes or blocks -> which."""
    rows = tx.all("SELECT other_id, kind FROM web_ignores WHERE user_id = ?", (user_id,))
    return {str(other): "block" if kind == "block" else "mute" for other, kind in rows}


def blocks(tx: Tx, user_id: str, other_id: str) -> bool:
    """Whether ``user_id`` blocks ``other_id``."""
    row = tx.one(
        "SELECT 1 FROM web_ignores WHERE user_id = ? AND other_id = ? AND kind = 'block'",
        (user_id, other_id),
    )
    return row is not None


__all__ = ["KINDS", "Kind", "blocks", "ignore", "ignored_by", "unignore"]
