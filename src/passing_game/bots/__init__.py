"""Computer opponents, all behind one registry.

The ladder, weakest first: ``random``, ``greedy``, ``heuristic`` (weighted
rules), ``pimc`` (sampled deals searched with perfect information) and
``ismcts`` (information-set tree search). ``omniscient`` sees every tile; it
is a yardstick for the arena and is refused in games with people
(``fair_names`` leaves it out). Levels for people map to bots and budgets;
their budgets are iteration counts, so a level is deterministic: the same
seed and the same view give the same move. ``FROZEN`` keeps past levels
reachable by name with every option pinned (``expert-5f2ff52``), as rungs
for the arena that later changes of the defaults cannot move; they are not
offered to people either.

>>> from passing_game.bots import fair_names, make, names
>>> make("greedy").name, "random" in names(), "omniscient" in fair_names()
('greedy', True, False)
>>> make("expert").name, "expert-5f2ff52" in fair_names()
('ismcts', False)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from passing_game.bots import kernel
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
    "expert": (
        "ismcts",
        {
            "iterations": DEFAULT_ITERATIONS,
            "model": "fitted",
            "opponent_policy": 0.5,
            "playout_model": "tuned",
            # Four searches summed (P71); without the kernel one search at the
            # pure-Python budget, as four would not fit in the second.
            "trees": 4 if kernel.AVAILABLE else 1,
        },
    ),
}

#: Frozen bots, yardsticks for the arena: a past level under a name that says
#: which commit it played at, every option of its bot pinned to the value it
#: had then, so that a changed default cannot change its moves. An option
#: added to the bot later must be pinned here at the value that plays as
#: before (tests/test_expert_frozen.py checks that every option is pinned,
#: and replays moves recorded at that commit). ``make`` accepts only ``seed``
#: for them; ``fair_names`` leaves them out, so people are not offered them
#: (docs/DECISIONS.md P36).
FROZEN: dict[str, tuple[str, dict[str, Any]]] = {
    # The ``expert`` level of commit 5f2ff52 (issue 16): ISMCTS at 20,000
    # iterations with the sampler's opponent model of then, the heaviest-tile
    # policy in playouts and for opponents in the tree (``weights=None``,
    # ``opponent_weights=None``, the only one then), on the compiled
    # kernel only (its moves are the kernel's; the pure-Python search draws
    # other random numbers, so without the kernel ``make`` refuses it).
    "expert-5f2ff52": (
        "ismcts",
        {
            "iterations": 20000,
            "seconds": None,
            "exploration": 0.7,
            "eps": 0.1,
            "trust": 0.3,
            "heavy": 0.15,
            "opponent_policy": 1.0,
            "engine": "c",
            "pool": 400,
            "weights": None,
            "model": None,
            "opponent_weights": None,
            "opponent_model": None,
            "playout_model": None,
            "worlds": 0,
            "opponent_split": 0,
            "disguise": 0.0,
            "belief": 1.0,
            "trees": 1,
        },
    ),
    # The ``expert`` level of commit 562b7ae (issue 16's, P39): the same search
    # with the fitted model of play reading the others' moves, opponents in
    # the tree following the heaviest-tile policy half of the time, and the
    # heaviest-tile playouts (``playout_model=None``), before issue 28 gave the
    # playouts the model of play (P67).
    "expert-562b7ae": (
        "ismcts",
        {
            "iterations": 20000,
            "seconds": None,
            "exploration": 0.7,
            "eps": 0.1,
            "trust": 0.3,
            "heavy": 0.15,
            "opponent_policy": 0.5,
            "engine": "c",
            "pool": 400,
            "weights": None,
            "model": "fitted",
            "opponent_weights": None,
            "opponent_model": None,
            "playout_model": None,
            "worlds": 0,
            "opponent_split": 0,
            "disguise": 0.0,
            "belief": 1.0,
            "trees": 1,
        },
    ),  # The ``expert`` level of commit f3f7ee4 (issue 28, P67): one search, the
    # playouts following the fitted model of play (``playout_model="tuned"``),
    # the last level before it became an ensemble of four searches (P71).
    "expert-f3f7ee4": (
        "ismcts",
        {
            "iterations": 20000,
            "seconds": None,
            "exploration": 0.7,
            "eps": 0.1,
            "trust": 0.3,
            "heavy": 0.15,
            "opponent_policy": 0.5,
            "engine": "c",
            "pool": 400,
            "weights": None,
            "model": "fitted",
            "opponent_weights": None,
            "opponent_model": None,
            "playout_model": "tuned",
            "worlds": 0,
            "opponent_split": 0,
            "disguise": 0.0,
            "belief": 1.0,
            "trees": 1,
        },
    ),
}


def names() -> list[str]:
    """Every name ``make`` accepts: bots, levels, then frozen bots."""
    return [*BOTS, *LEVELS, *FROZEN]


def is_cheating(name: str) -> bool:
    """Whether the bot (level, frozen bot) ``name`` sees hidden tiles."""
    bot_name = _spec(name)[1]
    return bool(getattr(BOTS[bot_name], "cheats", False))


def fair_names() -> list[str]:
    """The names offered in games with people: bots and levels that do not cheat.

    Frozen bots are left out too: they are the arena's yardsticks, not
    opponents to choose.
    """
    return [name for name in names() if name not in FROZEN and not is_cheating(name)]


def _spec(name: str) -> tuple[str, str, dict[str, Any]]:
    """What ``name`` is (bot, level or frozen bot), its bot's name and its options."""
    if name in FROZEN:
        return "frozen bot", *FROZEN[name]
    if name in LEVELS:
        return "level", *LEVELS[name]
    if name in BOTS:
        return "bot", name, {}
    raise ValueError(f"unknown bot {name!r}; choose from {', '.join(names())}")


def _option_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "yes"):
        return True
    if lowered in ("false", "no"):
        return False
    if lowered == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(text: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """A bot name with options, ``NAME`` or ``NAME:KEY=VALUE,KEY=VALUE``, as the
    command lines take them (values: true/yes, false/no, none, numbers, else text).

    >>> parse_spec("ismcts:seconds=0.5,model=fitted,playout_model=none")
    ('ismcts', (('seconds', 0.5), ('model', 'fitted'), ('playout_model', None)))
    """
    name, _, rest = text.partition(":")
    name = name.strip()
    if not name:
        raise ValueError(f"bot {text!r} has no name")
    options: list[tuple[str, Any]] = []
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"bot option {part!r} in {text!r} is not KEY=VALUE")
        options.append((key.strip(), _option_value(value.strip())))
    return name, tuple(options)


def make(name: str, **options: Any) -> Bot:
    """Build a bot by bot, level or frozen name, e.g. ``make("greedy", seed=3)``.

    A level's options may be overridden; a frozen bot takes only ``seed``,
    since any other option would make it another bot.
    """
    kind, bot_name, pinned = _spec(name)
    if kind == "frozen bot" and set(options) - {"seed"}:
        given = ", ".join(sorted(set(options) - {"seed"}))
        raise ValueError(f"{name!r} is frozen: it takes only seed, got {given}")
    try:
        return BOTS[bot_name](**{**pinned, **options})
    except TypeError as exc:
        raise ValueError(f"bad options for {kind} {name!r}: {exc}") from None


__all__ = [
    "BOTS",
    "FROZEN",
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
    "parse_spec",
    "view_key",
]
