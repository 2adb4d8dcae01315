"""Solved mini variants (issue 28, item 2): the whole tree of a two-player
round on a small set, an equilibrium by CFR+, best responses, exploitability.

``SolvedGame`` is the game, ``bot_policy`` turns a bot into a policy over
its information sets, ``figures`` measures what docs/SOLVED.md reports
(``passing-game solve``). The tree and its searches are C
(``passing_game._solve``, on the rules of ``_rules.h``); docs/DECISIONS.md P66.
"""

from passing_game.solve.game import (
    Infoset,
    Policy,
    SolvedGame,
    SolveError,
    available,
    infoset_key,
)
from passing_game.solve.policies import bot_policy

__all__ = [
    "Infoset",
    "Policy",
    "SolveError",
    "SolvedGame",
    "available",
    "bot_policy",
    "infoset_key",
]
