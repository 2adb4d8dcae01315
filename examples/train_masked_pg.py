#!/usr/bin/env python3
"""Train a small agent against ``random`` on the Gymnasium environment.

A masked policy gradient (REINFORCE) in NumPy: a linear softmax policy over
the 58 shared action ids, with the illegal actions masked out, trained on
``passing_game/PassingGame-v0`` (two players, one round per episode, reward
= the agent's points minus the opponent's) against the ``random`` bot. It
writes its learning curve as a PNG and then measures the trained agent
(taking its most likely legal action) against ``random`` on fresh deals,
next to a uniformly random agent and to our ``greedy`` bot on the same deals, and
reports the margin.

    .venv/bin/python examples/train_masked_pg.py                  # a minute or two
    .venv/bin/python examples/train_masked_pg.py --episodes 200   # a smoke test

Needs the ``rl`` and ``arena`` extras (numpy, gymnasium, matplotlib).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import gymnasium as gym
import matplotlib
import numpy as np
import numpy.typing as npt

import passing_game.rl
from passing_game.bots import make
from passing_game.rl.encoding import move_to_action

matplotlib.use("Agg")
import matplotlib.pyplot as plt

Array = npt.NDArray[np.float64]


class MaskedLinearPolicy:
    """``softmax(obs @ W + b)`` over the legal actions only, trained with Adam."""

    def __init__(self, obs_size: int, actions: int, lr: float, rng: np.random.Generator) -> None:
        self.w = rng.normal(0.0, 0.01, (obs_size, actions))
        self.b = np.zeros(actions)
        self.lr = lr
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in (self.w, self.b)]
        self.steps = 0

    def probs(self, obs: Array, mask: npt.NDArray[np.bool_]) -> Array:
        logits = obs @ self.w + self.b
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max()
        e = np.exp(logits)
        return e / e.sum()

    def update(self, grad_w: Array, grad_b: Array) -> None:
        """One Adam step of gradient *ascent*."""
        self.steps += 1
        beta1, beta2, eps = 0.9, 0.999, 1e-8
        for param, grad, (m, v) in zip(
            (self.w, self.b), (grad_w, grad_b), self.moments, strict=True
        ):
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad * grad
            m_hat = m / (1 - beta1**self.steps)
            v_hat = v / (1 - beta2**self.steps)
            param += self.lr * m_hat / (np.sqrt(v_hat) + eps)


Policy = Callable[[Array, npt.NDArray[np.bool_]], int]


def run_episode(
    env: gym.Env, seed: int, choose: Policy
) -> tuple[float, list[tuple[Array, npt.NDArray[np.bool_], int]]]:  # type: ignore[type-arg]
    """One round; the total reward and the agent's (observation, mask, action) steps."""
    obs, info = env.reset(seed=seed)
    steps = []
    total = 0.0
    while True:
        mask = info["action_mask"].astype(bool)
        action = choose(obs.astype(np.float64), mask)
        steps.append((obs.astype(np.float64), mask, action))
        obs, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        if terminated or truncated:
            return total, steps


@dataclass
class Evaluation:
    rounds: int
    mean: float
    low: float
    high: float
    win_rate: float

    def __str__(self) -> str:
        return (
            f"{self.mean:+.2f} points/round (95% CI {self.low:+.2f} .. {self.high:+.2f}), "
            f"rounds won {100 * self.win_rate:.1f}% of {self.rounds}"
        )


def evaluate(env: gym.Env, choose: Policy, episodes: int, first_seed: int) -> Evaluation:  # type: ignore[type-arg]
    rewards = np.array(
        [run_episode(env, first_seed + i, choose)[0] for i in range(episodes)], dtype=float
    )
    half = 1.96 * rewards.std(ddof=1) / math.sqrt(len(rewards)) if len(rewards) > 1 else 0.0
    mean = float(rewards.mean())
    return Evaluation(len(rewards), mean, mean - half, mean + half, float((rewards > 0).mean()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=5000, help="training rounds")
    parser.add_argument("--batch", type=int, default=32, help="rounds per policy update")
    parser.add_argument("--lr", type=float, default=0.02, help="Adam step size")
    parser.add_argument("--eval", type=int, default=2000, help="rounds in the final evaluation")
    parser.add_argument("--checkpoints", type=int, default=12, help="evaluations during training")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--out", type=Path, default=Path("train_masked_pg.png"), help="PNG to write"
    )
    parser.add_argument(
        "--min-margin",
        type=float,
        default=None,
        help="exit with status 1 unless the margin's lower 95%% bound reaches this",
    )
    args = parser.parse_args(argv)

    env = gym.make(passing_game.rl.GYMNASIUM_ID, opponents=("random",)).unwrapped
    rng = np.random.default_rng(args.seed)
    size = env.observation_space.shape[0]
    policy = MaskedLinearPolicy(size, passing_game.rl.NUM_ACTIONS, args.lr, rng)

    def sample(obs: Array, mask: npt.NDArray[np.bool_]) -> int:
        return int(rng.choice(len(mask), p=policy.probs(obs, mask)))

    def best(obs: Array, mask: npt.NDArray[np.bool_]) -> int:
        return int(np.argmax(np.where(mask, obs @ policy.w + policy.b, -np.inf)))

    def uniform(obs: Array, mask: npt.NDArray[np.bool_]) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    start = time.perf_counter()
    train_returns: list[float] = []
    curve: list[tuple[int, float]] = []
    check_every = max(args.batch, args.episodes // max(1, args.checkpoints))
    check_rounds = max(50, min(300, args.eval // 4))
    baseline, scale = 0.0, 20.0
    batch: list[tuple[float, list[tuple[Array, npt.NDArray[np.bool_], int]]]] = []
    untrained = evaluate(env, best, check_rounds, 50_000_000)
    curve.append((0, untrained.mean))
    print(f"episode {0:6d}: untrained agent vs random {untrained}", flush=True)
    for episode in range(1, args.episodes + 1):
        total, steps = run_episode(env, args.seed * 10_000_000 + episode, sample)
        train_returns.append(total)
        batch.append((total, steps))
        if len(batch) == args.batch:
            grad_w = np.zeros_like(policy.w)
            grad_b = np.zeros_like(policy.b)
            for ret, episode_steps in batch:
                advantage = (ret - baseline) / scale
                for obs, mask, action in episode_steps:
                    g = -policy.probs(obs, mask)
                    g[action] += 1.0
                    grad_w += advantage * np.outer(obs, g)
                    grad_b += advantage * g
            policy.update(grad_w / len(batch), grad_b / len(batch))
            returns = np.array([r for r, _ in batch])
            baseline = 0.9 * baseline + 0.1 * float(returns.mean())
            scale = 0.9 * scale + 0.1 * max(1.0, float(returns.std()))
            batch = []
        if episode % check_every == 0 or episode == args.episodes:
            result = evaluate(env, best, check_rounds, 50_000_000 + episode * 1000)
            curve.append((episode, result.mean))
            print(f"episode {episode:6d}: trained agent vs random {result}", flush=True)
    seconds = time.perf_counter() - start

    final = evaluate(env, best, args.eval, 900_000_000)
    chance = evaluate(env, uniform, args.eval, 900_000_000)
    # A yardstick: our `greedy` bot in the agent's seat, on the same deals.
    greedy_bot = make("greedy", seed=args.seed)

    def greedy(obs: Array, mask: npt.NDArray[np.bool_]) -> int:
        return move_to_action(greedy_bot.choose(env.view()))

    yardstick = evaluate(env, greedy, args.eval, 900_000_000)

    window = max(1, min(200, len(train_returns) // 40))
    fig, ax = plt.subplots(figsize=(8, 4.5))
    if train_returns:
        smooth = np.convolve(train_returns, np.ones(window) / window, mode="valid")
        ax.plot(
            np.arange(window, len(train_returns) + 1),
            smooth,
            label=f"sampling policy while training (mean of {window} rounds)",
        )
    xs, ys = zip(*curve, strict=True)
    ax.plot(xs, ys, "o-", label=f"most likely action, {check_rounds} fresh rounds")
    ax.axhline(chance.mean, color="grey", linestyle="--", label="uniformly random agent")
    ax.axhline(yardstick.mean, color="green", linestyle=":", label="greedy bot in the agent's seat")
    ax.axhline(0.0, color="black", linewidth=0.5)
    ax.set_xlabel("training rounds (episodes)")
    ax.set_ylabel("points won minus points lost, per round")
    ax.set_title("Masked policy gradient vs random, The Passing Game (2 players)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=100)
    plt.close(fig)

    print(f"trained {args.episodes} rounds in {seconds:.1f} s; learning curve: {args.out}")
    print(f"trained agent vs random: {final}")
    print(f"uniform agent vs random: {chance}")
    print(f"greedy bot vs random:    {yardstick}")
    margin = final.mean - chance.mean
    print(
        f"win margin over random: {final.mean:+.2f} points/round "
        f"({margin:+.2f} more than a uniformly random agent on the same deals)"
    )
    beats = final.low > 0.0
    print("the trained agent beats random" if beats else "not shown to beat random yet")
    if args.min_margin is not None and final.low < args.min_margin:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
