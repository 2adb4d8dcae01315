"""Computer opponents, all behind one registry.

>>> from passing_game.bots import make, names
>>> make("greedy").name, "random" in names()
('greedy', True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from passing_game.bots.base import Bot, SeededBot, view_key
from passing_game.bots.simple import GreedyBot, RandomBot

#: Bot names and the factories that build them.
BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}

#: Difficulty levels for people, mapped to a bot name and its options.
LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("random", {}),
    "medium": ("greedy", {}),
}


def names() -> list[str]:
    """Every name ``make`` accepts: bots, then levels."""
    return [*BOTS, *LEVELS]


def make(name: str, **options: Any) -> Bot:
    """Build a bot by bot name or level name, e.g. ``make("greedy", seed=3)``."""
    if name in LEVELS:
        bot_name, defaults = LEVELS[name]
        return BOTS[bot_name](**{**defaults, **options})
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(names())}")
    try:
        return BOTS[name](**options)
    except TypeError as exc:
        raise ValueError(f"bad options for bot {name!r}: {exc}") from None


__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "SeededBot",
    "make",
    "names",
    "view_key",
]
