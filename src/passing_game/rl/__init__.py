"""Reinforcement-learning interfaces: PettingZoo, Gymnasium and OpenSpiel.

Needs the extra ``passing-game[rl]`` (numpy, gymnasium, pettingzoo,
open_spiel). Importing this package registers:

* the Gymnasium environment ``passing_game/PassingGame-v0`` (one seat
  against bots, ``passing_game.rl.gym_env``); ``gym.make_vec`` with
  ``opponents=None`` gives N self-play games stepped in C
  (``passing_game.rl.vector_env``);
* the PettingZoo AEC environment ``passing_game/passing_game-v0`` in
  PettingZoo's registry (``pettingzoo.make("aec", ...)``,
  ``passing_game.rl.pettingzoo_env``);
* the OpenSpiel game ``python_passing_game`` (``pyspiel.load_game``,
  ``passing_game.rl.openspiel_game``).

OpenSpiel's ISMCTS bot plays in our arena through an adapter,
``passing_game.rl.openspiel_bot``; ``openspiel_bot.register_bot()`` adds it
to the bot registry as ``openspiel-ismcts`` (only on request: the registry
is also what the apps offer people, and this bot is slow and heavy).

All three share one encoding of actions and observations,
``passing_game.rl.encoding``; docs/RESEARCH.md documents it.

>>> import passing_game.rl
>>> sorted(passing_game.rl.REGISTERED)
['gymnasium', 'openspiel', 'pettingzoo']
"""

from __future__ import annotations

from passing_game.rl.encoding import (
    DRAW_ACTION,
    NUM_ACTIONS,
    PASS_ACTION,
    action_mask,
    action_to_move,
    encode,
    encode_information_state,
    legal_actions,
    move_to_action,
    observation_layout,
    observation_size,
)

GYMNASIUM_ID = "passing_game/PassingGame-v0"
PETTINGZOO_ID = "passing_game/passing_game-v0"
OPENSPIEL_NAME = "python_passing_game"

#: The frameworks this import registered the game with.
REGISTERED: set[str] = set()


def _register() -> None:
    """Register with every framework that is installed (all three with the extra)."""
    try:
        import gymnasium
    except ImportError:  # pragma: no cover - the rl extra brings it
        pass
    else:
        if GYMNASIUM_ID not in gymnasium.registry:
            gymnasium.register(
                id=GYMNASIUM_ID,
                entry_point="passing_game.rl.gym_env:PassingGameEnv",
                vector_entry_point="passing_game.rl.vector_env:make_vector",
            )
        REGISTERED.add("gymnasium")
    try:
        import pettingzoo  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover
        pass
    else:
        if PETTINGZOO_ID not in pettingzoo.aec_registry:
            pettingzoo.register(
                "aec", PETTINGZOO_ID, entry_point="passing_game.rl.pettingzoo_env:env"
            )
        REGISTERED.add("pettingzoo")
    try:
        from passing_game.rl import openspiel_game  # noqa: F401  (registers with pyspiel)
    except ImportError:  # pragma: no cover
        pass
    else:
        REGISTERED.add("openspiel")


_register()

__all__ = [
    "DRAW_ACTION",
    "GYMNASIUM_ID",
    "NUM_ACTIONS",
    "OPENSPIEL_NAME",
    "PASS_ACTION",
    "PETTINGZOO_ID",
    "REGISTERED",
    "action_mask",
    "action_to_move",
    "encode",
    "encode_information_state",
    "legal_actions",
    "move_to_action",
    "observation_layout",
    "observation_size",
]
