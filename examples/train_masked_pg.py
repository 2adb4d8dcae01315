#!/usr/bin/env python3
"""Train a small agent against ``random`` through Gymnasium's vector API.

A masked policy gradient (REINFORCE) in NumPy: a linear softmax policy over
the 58 shared action ids, with the illegal actions masked out, trained on
``passing_game/PassingGame-v0`` (two players, one round per episode,
reward = the agent's points minus the opponent's) against the ``random``
bot, N games at a time. ``--env vector`` (the default) steps them in C
(``gym.make_vec``'s ``vector_entry_point``, the batch of issue 15);
``--env sync`` steps N single Python environments (``SyncVectorEnv``), the
way this example trained before, with the same learner, so the two runs
differ only in the environment.

At each checkpoint it measures the agent (its most likely legal action)
against ``random`` and against ``greedy`` on fresh deals, off the training
clock, and records training seconds, steps and rounds. It writes the
learning curve by wall-clock time and by steps as a PNG (and the points as
CSV with ``--csv``), prints when the agent first reached +15 points a round
against ``random``, and ends with a larger evaluation beside a uniformly
random agent and our ``greedy`` bot on the same deals.

    .venv/bin/python examples/train_masked_pg.py                        # about a minute
    .venv/bin/python examples/train_masked_pg.py --env sync --episodes 5000
    .venv/bin/python examples/train_masked_pg.py --episodes 200         # a smoke test

Needs the ``rl`` and ``arena`` extras (numpy, gymnasium, matplotlib) and the
C extension ``passing_game._vecenv`` (built with the package) for the
evaluations and ``--env vector``.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import matplotlib
import numpy as np
import numpy.typing as npt

import passing_game.rl
from passing_game.rl.vector_env import VectorPassingGame

matplotlib.use("Agg")
import matplotlib.pyplot as plt

Array = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]
#: Each game's choice from a batch of observations and masks.
Policy = Callable[[Array, Mask], npt.NDArray[np.int64]]

TARGET = 15.0  # points a round against random: the yardstick
FIELDS = ("run", "seconds", "steps", "rounds", "vs_random", "vs_greedy")  # of --csv


class MaskedLinearPolicy:
    """``softmax(obs @ W + b)`` over the legal actions only, trained with Adam."""

    def __init__(self, obs_size: int, actions: int, lr: float, rng: np.random.Generator) -> None:
        self.w = rng.normal(0.0, 0.01, (obs_size, actions)).astype(np.float32)
        self.b = np.zeros(actions, np.float32)
        self.lr = lr
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in (self.w, self.b)]
        self.steps = 0

    def logits(self, obs: Array, mask: Mask) -> Array:
        return np.where(mask, obs @ self.w + self.b, -np.inf).astype(np.float32)

    def probs(self, obs: Array, mask: Mask) -> Array:
        logits = self.logits(obs, mask)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]

    def best(self, obs: Array, mask: Mask) -> npt.NDArray[np.int64]:
        return np.asarray(self.logits(obs, mask).argmax(axis=1), np.int64)

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


def sample(policy: MaskedLinearPolicy, obs: Array, mask: Mask, rng: np.random.Generator) -> Any:
    """One action a game from the policy (the Gumbel-max trick over the legal actions)."""
    noise = rng.gumbel(size=mask.shape).astype(np.float32)
    return (policy.logits(obs, mask) + noise).argmax(axis=1)


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


def evaluate(choose: Policy, opponent: str, rounds: int, seed: int) -> Evaluation:
    """``choose`` in seat 0 for one round on each of ``rounds`` deals (seeds from ``seed``)."""
    env = VectorPassingGame(rounds, players=2, opponents=opponent, seat=0, copy=False)
    obs, _ = env.reset(seed=seed)
    totals = np.zeros(rounds)
    done = np.zeros(rounds, bool)
    while not done.all():
        obs, reward, terminated, _, _ = env.step(choose(obs, env.action_masks()))
        totals += np.where(done, 0.0, reward)
        done |= terminated
    half = 1.96 * totals.std(ddof=1) / math.sqrt(rounds) if rounds > 1 else 0.0
    mean = float(totals.mean())
    return Evaluation(rounds, mean, mean - half, mean + half, float((totals > 0).mean()))


@dataclass
class Checkpoint:
    seconds: float  # of training, evaluations left out
    steps: int  # the agent's moves
    rounds: int  # training rounds finished
    vs_random: float
    vs_greedy: float


def make_env(kind: str, games: int) -> gym.vector.VectorEnv[Any, Any, Any]:
    mode = "vector_entry_point" if kind == "vector" else "sync"
    return gym.make_vec(
        passing_game.rl.GYMNASIUM_ID,
        num_envs=games,
        vectorization_mode=mode,
        opponents=("random",),
    )


class Rollout:
    """The agent's steps not learnt from yet: one row per ``env.step``, a column per game.

    Rewards come only when a round ends, so a step's return is the reward at
    its round's end; a step is learnt from once its round has ended.
    """

    def __init__(self) -> None:
        self.rows: list[tuple[Array, Mask, npt.NDArray[np.int64], Mask, Array, Mask]] = []

    def add(
        self, obs: Array, mask: Mask, actions: Any, live: Mask, reward: Any, ended: Mask
    ) -> None:
        self.rows.append((obs, mask, actions, live, np.asarray(reward, np.float32), ended))

    def take(self) -> tuple[Array, Mask, npt.NDArray[np.int64], Array, Array]:
        """The steps of the rounds that ended: observations, masks, actions, returns,
        and the rewards of those rounds; the other steps stay for later."""
        obs, mask, actions, live, reward, ended = (
            np.stack(part) for part in zip(*self.rows, strict=True)
        )
        returns = np.zeros_like(reward)
        has_end = np.zeros_like(ended)
        ret = np.zeros(reward.shape[1], np.float32)
        seen = np.zeros(reward.shape[1], bool)
        for t in range(len(self.rows) - 1, -1, -1):
            ret = np.where(ended[t], reward[t], ret)
            seen = seen | ended[t]
            returns[t], has_end[t] = ret, seen
        use = live & has_end
        taken = (obs[use], mask[use], actions[use], returns[use], reward[ended])
        waiting = live & ~has_end
        if waiting.any():
            first = int(np.flatnonzero(waiting.any(axis=1))[0])
            self.rows = [
                (*row[:3], waiting[first + k], *row[4:]) for k, row in enumerate(self.rows[first:])
            ]
        else:
            self.rows = []
        return taken


def train(args: argparse.Namespace) -> tuple[MaskedLinearPolicy, list[Checkpoint]]:
    """REINFORCE on finished rounds, a policy update every ``batch`` rounds."""
    rng = np.random.default_rng(args.seed)
    env = make_env(args.env, args.games)
    size = passing_game.rl.observation_size(passing_game.Rules(players=2))
    policy = MaskedLinearPolicy(size, passing_game.rl.NUM_ACTIONS, args.lr, rng)
    checks = iter(np.unique(np.geomspace(args.batch, args.episodes, args.checkpoints).astype(int)))
    checkpoints: list[Checkpoint] = []

    def checkpoint(seconds: float, steps: int, rounds: int) -> None:
        r = evaluate(policy.best, "random", args.check_rounds, 50_000_000 + rounds)
        g = evaluate(policy.best, "greedy", args.check_rounds, 60_000_000 + rounds)
        checkpoints.append(Checkpoint(seconds, steps, rounds, r.mean, g.mean))
        print(
            f"{seconds:8.2f} s {steps:10,d} steps {rounds:9,d} rounds: "
            f"vs random {r.mean:+6.2f}, vs greedy {g.mean:+6.2f}",
            flush=True,
        )

    checkpoint(0.0, 0, 0)
    rollout = Rollout()
    baseline, scale = 0.0, 20.0
    obs, info = env.reset(seed=args.seed * 10_000_000)
    fresh = np.zeros(args.games, bool)  # the step after a round's end only deals again
    steps = rounds = waiting = 0
    next_check = next(checks)
    clock = 0.0
    started = time.perf_counter()
    while rounds < args.episodes:
        mask = info["action_mask"].astype(bool)
        actions = sample(policy, obs, mask, rng)
        live = ~fresh
        obs_before = obs
        obs, reward, terminated, truncated, info = env.step(actions)
        ended = (terminated | truncated) & live
        rollout.add(obs_before, mask, actions, live, reward, ended)
        steps += int(live.sum())
        rounds += int(ended.sum())
        waiting += int(ended.sum())
        fresh = terminated | truncated
        if waiting >= args.batch:
            baseline, scale = update(policy, *rollout.take(), baseline, scale)
            waiting = 0
        if rounds >= next_check:
            clock += time.perf_counter() - started
            checkpoint(clock, steps, rounds)
            next_check = next(checks, args.episodes)
            started = time.perf_counter()
    env.close()
    return policy, checkpoints


def update(
    policy: MaskedLinearPolicy,
    obs: Array,
    mask: Mask,
    actions: npt.NDArray[np.int64],
    returns: Array,
    rewards: Array,
    baseline: float,
    scale: float,
) -> tuple[float, float]:
    """One policy-gradient step on whole rounds; returns the new baseline and scale."""
    g = -policy.probs(obs, mask)
    g[np.arange(len(actions)), actions] += 1.0
    g *= ((returns - baseline) / scale)[:, None]
    rounds = np.float32(len(rewards))
    policy.update((obs.T @ g) / rounds, g.sum(axis=0) / rounds)
    baseline = 0.9 * baseline + 0.1 * float(rewards.mean())
    scale = 0.9 * scale + 0.1 * max(1.0, float(rewards.std()))
    return baseline, scale


def read_csv(path: Path) -> tuple[str, list[Checkpoint]]:
    """The run's label and its checkpoints, as ``--csv`` wrote them."""
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != list(FIELDS):
            raise ValueError(f"its header is {reader.fieldnames}, not {list(FIELDS)}")
        rows, labels = [], set()
        for row in reader:
            labels.add(row["run"])
            rows.append(
                Checkpoint(
                    float(row["seconds"]),
                    int(row["steps"]),
                    int(row["rounds"]),
                    float(row["vs_random"]),
                    float(row["vs_greedy"]),
                )
            )
    if not rows:
        raise ValueError("it has no checkpoints")
    return labels.pop() if len(labels) == 1 else path.stem, rows


def plot(runs: list[tuple[str, list[Checkpoint]]], out: Path, yardsticks: dict[str, float]) -> None:
    """Points a round against random and greedy, by training seconds and by steps."""
    fig, (by_time, by_steps) = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
    for ax, axis, xlabel in (
        (by_time, "seconds", "training seconds, one core (log scale)"),
        (by_steps, "steps", "the agent's steps (log scale)"),
    ):
        for k, (label, checkpoints) in enumerate(runs):
            # the untrained start sits at 0 on the axis's left edge
            xs = [max(getattr(c, axis), 1e-3 if axis == "seconds" else 1) for c in checkpoints]
            style = "-" if k == 0 else "--"
            for field, marker, color in (("vs_random", "o", "C0"), ("vs_greedy", "s", "C1")):
                ax.plot(
                    xs,
                    [getattr(c, field) for c in checkpoints],
                    marker + style,
                    color=color,
                    label=f"{label}: {field.replace('_', ' ')}",
                    markersize=3,
                    alpha=1 if k == 0 else 0.7,
                )
        ax.axhline(TARGET, color="grey", linestyle="--", linewidth=0.8)
        for name, value in yardsticks.items():
            ax.axhline(value, color="green", linestyle=":", label=name)
        ax.axhline(0.0, color="black", linewidth=0.5)
        ax.set_xscale("log")
        ax.set_xlabel(xlabel)
    by_time.set_ylabel("points won minus lost, per round")
    by_steps.legend(loc="lower right", fontsize=8)
    fig.suptitle("Masked policy gradient trained against random, The Passing Game (2 players)")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", choices=("vector", "sync"), default="vector")
    parser.add_argument("--games", type=int, default=None, help="games at once (256; sync 16)")
    parser.add_argument("--episodes", type=int, default=300_000, help="training rounds")
    parser.add_argument("--batch", type=int, default=32, help="rounds per policy update")
    parser.add_argument("--lr", type=float, default=0.02, help="Adam step size")
    parser.add_argument("--eval", type=int, default=4000, help="rounds in the final evaluation")
    parser.add_argument("--checkpoints", type=int, default=20, help="evaluations during training")
    parser.add_argument("--check-rounds", type=int, default=1000, help="rounds a checkpoint")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--out", type=Path, default=Path("train_masked_pg.png"), help="PNG to write"
    )
    parser.add_argument("--csv", type=Path, default=None, help="the checkpoints as CSV")
    parser.add_argument(
        "--compare",
        type=Path,
        action="append",
        default=[],
        metavar="CSV",
        help="draw another run's checkpoints (its --csv) beside this one's, dashed",
    )
    parser.add_argument(
        "--min-margin",
        type=float,
        default=None,
        help="exit with status 1 unless the margin's lower 95%% bound reaches this",
    )
    args = parser.parse_args(argv)
    if args.games is None:
        args.games = 256 if args.env == "vector" else 16
    for name in ("games", "episodes", "batch", "eval", "check_rounds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")

    others = []
    for path in args.compare:
        try:
            others.append(read_csv(path))
        except (OSError, KeyError, ValueError, TypeError) as error:
            parser.error(f"--compare {path}: not a checkpoint CSV of this example ({error})")

    policy, checkpoints = train(args)
    seconds = checkpoints[-1].seconds
    reached = next((c for c in checkpoints if c.vs_random >= TARGET), None)

    dice = np.random.default_rng(args.seed + 1)

    def uniform(obs: Array, mask: Mask) -> npt.NDArray[np.int64]:
        return np.asarray((dice.random(mask.shape) * mask).argmax(axis=1), np.int64)

    final = evaluate(policy.best, "random", args.eval, 900_000_000)
    chance = evaluate(uniform, "random", args.eval, 900_000_000)
    versus_greedy = evaluate(policy.best, "greedy", args.eval, 910_000_000)
    label = f"{args.env} env, {args.games} games"
    if args.csv is not None:
        with args.csv.open("w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(FIELDS)
            for c in checkpoints:
                writer.writerow(
                    [label, f"{c.seconds:.4f}", c.steps, c.rounds, c.vs_random, c.vs_greedy]
                )
    plot([(label, checkpoints), *others], args.out, {"uniform agent vs random": chance.mean})

    print(f"trained {checkpoints[-1].rounds:,} rounds in {seconds:.1f} s ({label})")
    print(f"learning curve: {args.out}")
    if reached is None:
        print(f"did not reach {TARGET:+.0f} points a round against random")
    else:
        print(
            f"first at {TARGET:+.0f} or more against random: {reached.seconds:.2f} s, "
            f"{reached.steps:,} steps, {reached.rounds:,} rounds"
        )
    print(f"trained agent vs random: {final}")
    print(f"uniform agent vs random: {chance}")
    print(f"trained agent vs greedy: {versus_greedy}")
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
