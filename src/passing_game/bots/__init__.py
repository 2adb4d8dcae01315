"""Computer opponents, all behind one registry.

The ladder, weakest first: ``random``, ``greedy``, ``heuristic`` (weighted
rules), ``pimc`` (sampled deals searched with perfect information) and
``ismcts`` (information-set tree search). ``omniscient`` sees every tile; it
is a yardstick for the arena and is refused in games with people
(``fair_names`` leaves it out). Levels for people map to bots and budgets;
their budgets are iteration counts, so a level is deterministic: the same
seed and the same view give the same move.

>>> from passing_game.bots import fair_names, make, names
>>> make("greedy").name, "random" in names(), "omniscient" in fair_names()
('greedy', True, False)
>>> make("expert").name
'ismcts'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from passing_game.bots.base import Bot, Explainer, SeededBot, view_key
from passing_game.bots.heuristic import HeuristicBot
from passing_game.bots.ismcts import DEFAULT_ITERATIONS, IsmctsBot
from passing_game.bots.omniscient import CheatingBotError, OmniscientBot
from passing_game.bots.pimc import PimcBot
from passing_game.bots.simple import GreedyBot, RandomBot

#: Bot names and the factories that build them.
BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "pimc": PimcBot,
    "ismcts": IsmctsBot,
    "omniscient": OmniscientBot,
}

#: Difficulty levels for people, mapped to a bot name and its options.
#: Budgets are counts, not seconds, so a level is deterministic. Each answers
#: within its limit (median, one core: ``hard`` 0.3 s, ``expert`` 1 s) on the
#: compiled kernel (``bots.fast``); docs/STRENGTH.md has the times, and why a
#: larger ISMCTS budget was not worth it. Without the kernel the pure-Python
#: search gets the budgets that fit those limits.
LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("greedy", {}),
    "medium": ("heuristic", {}),
    "hard": ("pimc", {"worlds": 1000}),
    "expert": ("ismcts", {"iterations": DEFAULT_ITERATIONS}),
}


def names() -> list[str]:
    """Every name ``make`` accepts: bots, then levels."""
    return [*BOTS, *LEVELS]


def is_cheating(name: str) -> bool:
    """Whether the bot (or level) ``name`` sees hidden tiles."""
    bot_name = LEVELS[name][0] if name in LEVELS else name
    if bot_name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(names())}")
    return bool(getattr(BOTS[bot_name], "cheats", False))


def fair_names() -> list[str]:
    """The names allowed in games with people: every bot and level that does not cheat."""
    return [name for name in names() if not is_cheating(name)]


def make(name: str, **options: Any) -> Bot:
    """Build a bot by bot name or level name, e.g. ``make("greedy", seed=3)``."""
    if name in LEVELS:
        bot_name, defaults = LEVELS[name]
        try:
            return BOTS[bot_name](**{**defaults, **options})
        except TypeError as exc:
            raise ValueError(f"bad options for level {name!r}: {exc}") from None
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
    "CheatingBotError",
    "Explainer",
    "GreedyBot",
    "HeuristicBot",
    "IsmctsBot",
    "OmniscientBot",
    "PimcBot",
    "RandomBot",
    "SeededBot",
    "fair_names",
    "is_cheating",
    "make",
    "names",
    "view_key",
]
