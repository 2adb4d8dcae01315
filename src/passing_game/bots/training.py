"""Training the learned playout policy by self-play (issue 16).

The policy (``bots.policy.learned_play``) scores each play by ``FEATURES``
with one weight each. Its weights are trained by the cross-entropy method on
the compiled kernel's ``duel``: every generation draws candidate weights
around the current mean, plays each against the *champion* (the previous
generation's mean: self-play) on duplicate deals, with 2 players and with 4
in partnerships, and moves the mean to the best quarter. Fitness is points a
round against the champion; the learning curve is each generation's mean
measured against the fixed heaviest-tile policy on other deals.

    python -m passing_game.bots.training --seed 1 --csv curve.csv

prints the weights; ``LEARNED_WEIGHTS`` in ``bots.policy`` holds the run of
docs/STRENGTH.md. Needs the compiled kernel; numbers in docs, not here.
"""

from __future__ import annotations

import argparse
import csv
import random
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from passing_game.bots import kernel
from passing_game.bots.policy import FEATURES
from passing_game.rules import Rules

#: The formats trained on: the two-sided games ``kernel.duel`` plays.
FORMATS = (Rules(players=2), Rules(players=4, partnerships=True))
#: The heaviest-tile policy written as weights (doubles first on equal pips).
HEAVIEST = (1.0, 0.04, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class Generation:
    number: int
    weights: tuple[float, ...]  # the mean after this generation
    vs_champion: float  # the elite's mean fitness, points a round
    vs_heaviest: float  # the new mean against the heaviest-tile policy, points a round


def fitness(
    weights: Sequence[float] | None,
    opponent: Sequence[float] | None,
    deals: int,
    seed: int,
    eps: float = 0.1,
) -> float:
    """Points a round of ``weights`` against ``opponent``, over both formats."""
    a = None if weights is None else tuple(weights)
    b = None if opponent is None else tuple(opponent)
    total = 0.0
    for k, rules in enumerate(FORMATS):
        total += kernel.duel(rules, a, b, eps, deals, seed * 7 + k) / (2 * deals)
    return total / len(FORMATS)


def train(
    seed: int, generations: int = 30, population: int = 24, deals: int = 1500
) -> list[Generation]:
    """The cross-entropy method by self-play; one ``Generation`` a step."""
    rng = random.Random(seed)
    mean = list(HEAVIEST)
    spread = [0.5] * len(FEATURES)
    elite_count = max(2, population // 4)
    out: list[Generation] = []
    for number in range(1, generations + 1):
        champion = tuple(mean)
        candidates = [
            tuple(rng.gauss(m, s) for m, s in zip(mean, spread, strict=True))
            for _ in range(population)
        ]
        # the same deals for every candidate of a generation (common random numbers)
        scored = sorted(
            ((fitness(c, champion, deals, seed * 1000 + number), c) for c in candidates),
            reverse=True,
        )
        elite = [c for _f, c in scored[:elite_count]]
        for i in range(len(FEATURES)):
            column = [c[i] for c in elite]
            mean[i] = statistics.fmean(column)
            spread[i] = max(0.02, statistics.pstdev(column))
        yardstick = fitness(mean, None, deals, 10**6 + seed * 1000 + number)
        out.append(
            Generation(
                number,
                tuple(round(w, 4) for w in mean),
                statistics.fmean(f for f, _c in scored[:elite_count]),
                yardstick,
            )
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--generations", type=int, default=30)
    parser.add_argument("--population", type=int, default=24)
    parser.add_argument("--deals", type=int, default=1500, help="duplicate deals a duel")
    parser.add_argument("--csv", type=Path, default=None, help="the learning curve as CSV")
    args = parser.parse_args(argv)
    for name in ("generations", "population", "deals"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if not kernel.AVAILABLE:
        parser.error("the compiled kernel passing_game._kernel is not built")
    curve = train(args.seed, args.generations, args.population, args.deals)
    for g in curve:
        print(
            f"generation {g.number:3d}: vs champion {g.vs_champion:+.3f}, "
            f"vs heaviest {g.vs_heaviest:+.3f} points a round, weights {g.weights}",
            flush=True,
        )
    if args.csv is not None:
        with args.csv.open("w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["generation", "vs_champion", "vs_heaviest", *FEATURES])
            for g in curve:
                writer.writerow(
                    [g.number, f"{g.vs_champion:.4f}", f"{g.vs_heaviest:.4f}", *g.weights]
                )
    print(f"LEARNED_WEIGHTS = {curve[-1].weights}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
