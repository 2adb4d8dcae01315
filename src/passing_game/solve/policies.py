"""A bot as a policy over a solved game's information sets.

A bot is a pure function of its seed and its view (bots.base), so it is a
pure policy: at each information set, the move it makes at that set's view.
It is asked only where its own earlier moves lead (``SolvedGame.frontier``):
a set its own policy never reaches cannot change what a best response wins
against it, and asking there would cost searches for nothing. ``random`` is
the uniform policy itself, not one draw of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from passing_game.bots import make
from passing_game.solve.game import Policy, SolvedGame

#: Progress: (sets asked so far, sets found to ask in this round of asking).
Progress = Callable[[int, int], None]


def bot_policy(
    game: SolvedGame,
    name: str,
    *,
    seed: int = 0,
    progress: Progress | None = None,
    options: Mapping[str, Any] | None = None,
) -> tuple[Policy, int]:
    """Bot ``name``'s policy in ``game`` (with ``options``, as ``bots.make``
    takes them) and how many sets it was asked at."""
    if name == "random" and not options:
        return game.uniform(), 0
    bot = make(name, seed=seed, **(options or {}))
    policy = game.uniform()
    for i in range(len(policy)):
        policy[i] = 0.0
    known = bytearray(game.size)
    asked = 0
    for seat in (0, 1):
        while True:
            todo = game.frontier(policy, known, seat)
            if not todo:
                break
            for index in todo:
                view = game.view_at(index)
                action = game.action_of(index, bot.choose(view))
                policy[game.offsets[index] + action] = 1.0
                known[index] = 1
                asked += 1
                if progress is not None:
                    progress(asked, len(todo))
    return policy, asked
