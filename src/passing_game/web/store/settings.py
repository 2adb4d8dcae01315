"""The site's own settings (``web_settings``): a name and a text each."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx


def setting(tx: Tx, name: str, default: str) -> str | None:
    """The setting's value, ``default`` kept first if it has none (the first
    process to keep one wins; the others read it back)."""
    tx.run(
        "INSERT INTO web_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
        (name, default),
    )
    row = tx.one("SELECT value FROM web_settings WHERE name = ?", (name,))
    return None if row is None or row[0] is None else str(row[0])


__all__ = ["setting"]
