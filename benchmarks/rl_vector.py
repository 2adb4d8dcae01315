"""Steps a second of the batched C environment against the single Gymnasium one (issue 15).

A one-off measurement until ``passing-game bench --rl`` exists: random legal
actions chosen in NumPy, the observation included, one process. Prints one
line per configuration; the figures go to docs/PERFORMANCE.md when the issue
lands (docs/ISSUE15_STATUS.md until then).

    .venv/bin/python benchmarks/rl_vector.py [--seconds 3] [--players 2]
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np
import pettingzoo  # type: ignore[import-untyped]

import passing_game.rl  # noqa: F401  (registers PassingGame-v0)
from passing_game.rl.vector_env import VectorPassingGame


def random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One random legal action a row: the argmax of uniform noise on the legal entries."""
    noise = rng.random(masks.shape, dtype=np.float32)
    return np.argmax(np.where(masks, noise, -1.0), axis=1)


def vector(
    n: int, players: int, seconds: float, opponents: str | None = None
) -> tuple[float, float]:
    """(steps a second, share of the time spent inside env.step)."""
    env = VectorPassingGame(n, players=players, opponents=opponents, copy=False)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    masks = env._mask
    steps = 0
    in_step = 0.0
    start = time.perf_counter()
    while (now := time.perf_counter()) - start < seconds:
        actions = random_legal(rng, masks)
        t = time.perf_counter()
        env.step(actions)
        in_step += time.perf_counter() - t
        steps += n
    return steps / (now - start), in_step / (now - start)


def single(players: int, seconds: float) -> float:
    env = gym.make("passing_game/PassingGame-v0", opponents=("greedy",), players=players)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while (now := time.perf_counter()) - start < seconds:
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        _, _, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            _, info = env.reset()
    return steps / (now - start)


def aec(players: int, seconds: float) -> float:
    """PettingZoo AEC in self-play (every seat acts through Python), counting actions."""
    env = pettingzoo.make("aec", "passing_game/passing_game-v0", players=players)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while (now := time.perf_counter()) - start < seconds:
        if not env.agents:
            env.reset()
            continue
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    base = single(args.players, args.seconds)
    print(f"single PassingGame-v0 vs greedy, players={args.players}: {base:,.0f} steps/s")
    print(f"PettingZoo AEC self-play: {aec(args.players, args.seconds):,.0f} steps/s")
    for opponents in (None, "greedy", "heuristic"):
        mode = "self-play" if opponents is None else f"vs {opponents}"
        for n in (1, 64, 1024, 4096):
            rate, share = vector(n, args.players, args.seconds, opponents)
            print(
                f"vector {mode} N={n}: {rate:,.0f} steps/s ({rate / base:,.0f}x single), "
                f"{share:.0%} of the time in env.step"
            )


if __name__ == "__main__":
    main()
