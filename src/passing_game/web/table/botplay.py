"""The bots a web table seats, and where their thinking runs.

A bot's move is a function of its seed and the seat's view alone, so a
worker process that builds its own copy of a table's bot chooses exactly
what the table's own copy would.
"""

from __future__ import annotations

from passing_game import bots as bot_registry
from passing_game.bots import Bot
from passing_game.i18n import N_, _
from passing_game.moves import Move
from passing_game.views import View

#: Bots cheap enough to run on the event loop itself (their time per move:
#: docs/STRENGTH.md).
FAST_BOTS = frozenset({"random", "greedy", "heuristic"})
#: The level of the bot that plays for a person who is away or out of time (P26).
STAND_IN_LEVEL = "medium"


#: What a newcomer calls each level, and how it plays, in a line to choose by
#: (issue 24, item 1; the bots behind them: bots.LEVELS, their strength:
#: docs/STRENGTH.md).
LEVEL_TITLES: dict[str, str] = {
    # TRANSLATORS: the weakest level of the computer, as a newcomer chooses it.
    "easy": N_("Beginner"),
    "medium": N_("Casual"),
    "hard": N_("Strong"),
    "expert": N_("Expert"),
}
LEVEL_ABOUT: dict[str, str] = {
    "easy": N_("Plays its heaviest tile that fits, and draws only when nothing fits."),
    "medium": N_("Keeps its numbers varied and notices what the others pass on."),
    "hard": N_("Imagines a thousand ways the hidden tiles could lie before each move."),
    "expert": N_("Searches the game ahead from all it has seen. Hard to beat."),
}


def level_about(level: str) -> tuple[str, str] | None:
    """What ``level`` is called and how it plays, in the visitor's language."""
    if level not in LEVEL_TITLES:
        return None
    return _(LEVEL_TITLES[level]), _(LEVEL_ABOUT[level])


def bot_choices() -> list[str]:
    """Bot names and levels a table may seat: every one that plays fair (R9)."""
    fair = getattr(bot_registry, "fair_names", None)
    return list(fair() if callable(fair) else bot_registry.names())


def level_choices() -> list[str]:
    """The levels the lobby offers, weakest first; bot names if no levels exist."""
    fair = set(bot_choices())
    levels = [name for name in bot_registry.LEVELS if name in fair]
    return levels or [n for n in ("random", "greedy") if n in fair]


def hint_level() -> str:
    """The adviser behind the hint button: a bot that explains itself if any."""
    for name in ("medium", "heuristic", "easy", "greedy"):
        if name in bot_choices():
            return name
    return bot_choices()[0]


def make_bot(level: str, seed: int, seat: int) -> Bot:
    """A table's bot, seeded by the game's seed and its seat (deterministic)."""
    try:
        return bot_registry.make(level, seed=f"{seed}/{seat}")
    except (ValueError, TypeError):
        return bot_registry.make(level)


_POOLED: dict[tuple[str, int, int], Bot] = {}


def pooled_choose(level: str, seed: int, seat: int, view: View) -> Move:
    """A slow bot's move, in a worker process; the same bot as the table's own.

    A bot's move is a function of its seed and the view alone, so a worker
    that builds its own copy of the bot chooses exactly what the table would.
    """
    key = (level, seed, seat)
    bot = _POOLED.get(key)
    if bot is None:
        if len(_POOLED) > 512:
            _POOLED.clear()
        bot = _POOLED[key] = make_bot(level, seed, seat)
    return bot.choose(view)
