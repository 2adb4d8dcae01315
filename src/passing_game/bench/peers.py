"""The peer engines, one small driver each, random against random.

These run inside the bench's own virtual environment (see ``venv``), where
the pinned peers are installed, never in the project's environment; the
peers are imported inside the drivers only. Each driver plays whole rounds,
choosing uniformly among the legal actions with a seeded ``random.Random``,
and counts every action it applies:

* ``dominoes`` 6.1.0 (PyPI): ``dominoes.Game.new()`` deals a 4-player block
  game with the module-level ``random`` (seeded here); ``game.valid_moves``
  lists ``(domino, left)`` pairs and ``game.make_move(domino, left)`` plays
  one. The engine passes for a seat that cannot play by itself and records
  each pass as ``None`` in ``game.moves``; those count as actions too (as
  our passes do), so ``actions = len(game.moves)``.
* OpenSpiel 2.0.2, ``pyspiel.load_game("python_block_dominoes")`` (2
  players, registered by importing ``open_spiel.python.games``): the deal is
  14 chance actions (``state.chance_outcomes()``), then
  ``state.legal_actions()`` / ``state.apply_action``. Chance actions count
  as actions and are also reported on their own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from importlib import metadata
from typing import Any

from passing_game.bench.common import Sample, timed_rounds

#: Peer name -> the pinned requirement installed into the bench environment.
REQUIREMENTS: dict[str, str] = {
    "dominoes": "dominoes==6.1.0",
    "open_spiel": "open_spiel==2.0.2",
}
#: Peer name -> what it plays, for the report.
DESCRIPTIONS: dict[str, str] = {
    "dominoes": "dominoes 6.1.0 (block game)",
    "open_spiel": "OpenSpiel 2.0.2 (python_block_dominoes)",
}
PLAYERS: dict[str, int] = {"dominoes": 4, "open_spiel": 2}


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "?"


def dominoes_rounds(seconds: float, seed: int = 0) -> Sample:
    """PyPI ``dominoes``: random against random for ``seconds`` of CPU time."""
    import dominoes  # type: ignore[import-not-found, import-untyped, unused-ignore]  # bench only

    new_game: Callable[[], Any] = dominoes.Game.new
    rng = random.Random(seed)
    choice = rng.choice

    def one(deal_seed: int) -> tuple[int, int]:
        random.seed(deal_seed)  # Game.new() shuffles with the module-level random
        game = new_game()
        make_move = game.make_move
        while game.result is None:
            domino, left = choice(game.valid_moves)
            make_move(domino, left)
        return len(game.moves), 0

    rounds, actions, chance, cpu = timed_rounds(one, seconds, seed)
    return Sample(
        "dominoes", PLAYERS["dominoes"], rounds, actions, chance, cpu, _version("dominoes")
    )


def open_spiel_rounds(seconds: float, seed: int = 0) -> Sample:
    """OpenSpiel ``python_block_dominoes``: random against random, chance included."""
    import open_spiel.python.games  # type: ignore[import-untyped]  # noqa: F401  registers the Python games
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(seed)
    choice = rng.choice

    def one(_deal_seed: int) -> tuple[int, int]:
        state = game.new_initial_state()
        actions = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                action = choice(state.chance_outcomes())[0]
                chance += 1
            else:
                action = choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
        return actions, chance

    rounds, actions, chance, cpu = timed_rounds(one, seconds, seed)
    return Sample(
        "open_spiel", PLAYERS["open_spiel"], rounds, actions, chance, cpu, _version("open_spiel")
    )


DRIVERS: dict[str, Callable[[float, int], Sample]] = {
    "dominoes": dominoes_rounds,
    "open_spiel": open_spiel_rounds,
}
