"""How fast each environment steps for a learner: the loops ``passing-game
bench --rl`` times (``bench.rl``; the command hands this module to it, so the
bench imports no integration).

Each ``*_steps`` function builds an environment and returns one step of a
learner's loop: a random legal action chosen in NumPy, the step, the
observation. A step returns how many environment steps it made and the
seconds spent inside ``env.step`` (0 where that is not split out).
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
import pettingzoo  # type: ignore[import-untyped]

import passing_game.rl  # noqa: F401  (registers both environments)
from passing_game.rl import vector_env
from passing_game.rl.vector_env import VectorPassingGame

#: Whether the batch can be measured (its C extension is built).
AVAILABLE: bool = vector_env.AVAILABLE

Step = Callable[[], tuple[int, float]]


def random_legal(rng: np.random.Generator, masks: npt.NDArray[np.bool_]) -> npt.NDArray[Any]:
    """One random legal action a row: the argmax of 16-bit noise on the legal entries.

    Uniform but for ties of the noise, which go to the lower id (about one
    choice in 65,536 a legal pair); 16-bit noise from ``rng.bytes`` costs
    about half of float32 noise, and a learner's own choice would cost what
    its policy costs, not this.
    """
    rows, ids = masks.shape
    noise = np.frombuffer(rng.bytes(2 * rows * ids), np.uint16).reshape(rows, ids)
    # | 1: a legal entry's noise is never 0, so it beats every illegal one
    actions: npt.NDArray[Any] = np.argmax((noise | 1) * masks.view(np.uint8), axis=1)
    return actions


def vector_steps(
    num_envs: int, players: int, opponents: str | None, clock: Callable[[], float]
) -> Step:
    """The batch (``copy=False``); ``clock`` times the part inside ``env.step``."""
    env = VectorPassingGame(num_envs, players=players, opponents=opponents, copy=False)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    masks = env._mask

    def step() -> tuple[int, float]:
        actions = random_legal(rng, masks)
        t = clock()
        env.step(actions)
        return num_envs, clock() - t

    return step


def single_steps(players: int) -> Step:
    """``PassingGame-v0`` against greedy, one action a step chosen from the info's mask."""
    env = gym.make("passing_game/PassingGame-v0", opponents=("greedy",), players=players)
    rng = np.random.default_rng(0)
    info = env.reset(seed=0)[1]

    def step() -> tuple[int, float]:
        nonlocal info
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            info = env.reset()[1]
        return 1, 0.0

    return step


def aec_steps(players: int) -> Step:
    """PettingZoo AEC in self-play (every seat acts through Python), counting actions."""
    env = pettingzoo.make("aec", "passing_game/passing_game-v0", players=players)
    rng = np.random.default_rng(0)
    env.reset(seed=0)

    def step() -> tuple[int, float]:
        if not env.agents:
            env.reset()
            return 0, 0.0
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            return 0, 0.0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return 1, 0.0

    return step


def memory_per_env(players: int, num_envs: int) -> dict[str, float]:
    """Bytes per game, traced by tracemalloc: the C core alone and the whole env after reset."""
    # One env first, untraced: what the first one imports or caches is not per game.
    VectorPassingGame(1, players=players, copy=False).reset(seed=0)
    tracemalloc.start()
    try:
        env = VectorPassingGame(num_envs, players=players, copy=False)
        env.reset(seed=0)
        whole = tracemalloc.get_traced_memory()[0]
        del env._core
        core = whole - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return {"C state": core / num_envs, "whole env": whole / num_envs}
