"""Fitting ``bots.playmodel``'s coefficients to a bot's own play (issue 16).

Plays seeded rounds in which every seat is the same bot (by default the
``expert`` level), records every decision with the hand the seat held then,
and fits the conditional logit of ``playmodel`` by maximum likelihood
(Newton's method on the log-likelihood, with a small ridge penalty that
keeps it finite when a feature separates the choices). The last rounds are
held out: their log-likelihood per decision, against a seat choosing
uniformly among its options, says whether the model describes the play.

    python -m passing_game.bots.fitting --seed 1000 --rounds 1500 --players 2

prints the coefficients (``playmodel.FITTED`` holds the run of
docs/STRENGTH.md). Needs numpy (the ``arena`` extra); the round seeds are
``fit|<seed>|<i>``, apart from the belief bench's.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from passing_game.bots import make
from passing_game.bots.playmodel import FEATURES, option_features, option_key, sides
from passing_game.round import Round
from passing_game.rules import LOCKED_TILES, Rules
from passing_game.tiles import mask_of

#: A recorded decision: the hand then, the ends (``-1``: empty train), the
#: train, whether a draw was allowed, the option chosen, whether a pass would
#: have ended the round, the tiles in the partner's and in the rivals' hands.
Record = tuple[int, int, int, int, bool, tuple[int, int, int], bool, int, int]

#: The ridge penalty on the coefficients (half its value times their squares).
RIDGE = 0.01


def play_rounds(
    rules: Rules, bot: str, seed: int, rounds: int, start: int = 0
) -> list[list[Record]]:
    """Every decision of ``rounds`` seeded rounds of ``bot`` on every seat, per round."""
    out = []
    for i in range(start, start + rounds):
        rnd = Round.new(rules, seed=f"fit|{seed}|{i}")
        bots = [make(bot, seed=f"fit|{seed}|{i}|{s}") for s in range(rules.players)]
        records: list[Record] = []
        while not rnd.is_over:
            seat = rnd.to_move
            assert seat is not None
            view = rnd.view(seat)
            move = bots[seat].choose(view)
            left, right = view.ends if view.ends is not None else (-1, -1)
            train = mask_of(p.tile for p in view.train)
            choice = option_key(move, left, right)
            partner, rivals = sides(rules, seat, list(view.hand_sizes))
            records.append(
                (
                    mask_of(view.hand),
                    left,
                    right,
                    train,
                    view.boneyard_size > LOCKED_TILES,
                    choice,
                    view.passes_in_row >= rules.players - 1,
                    partner,
                    rivals,
                )
            )
            rnd.play(move)
        out.append(records)
    return out


@dataclass
class Design:
    """The decisions as arrays: per option its features, its decision and whether chosen."""

    x: Any  # (options, features)
    group: Any  # (options,) decision index
    chosen: Any  # (options,) 0/1
    decisions: int
    options: Any  # (decisions,) how many options


def design(records: Sequence[Record]) -> Design:
    import numpy as np

    rows: list[list[float]] = []
    group: list[int] = []
    chosen: list[float] = []
    counts: list[int] = []
    for i, record in enumerate(records):
        hand, left, right, train, can_draw, choice, closes, partner, rivals = record
        opts = option_features(hand, left, right, train, can_draw, closes, partner, rivals)
        keys = [k for k, _f in opts]
        if choice not in keys:
            raise ValueError(f"decision {i}: the choice {choice} is not an option")
        for key, f in opts:
            rows.append(f)
            group.append(i)
            chosen.append(1.0 if key == choice else 0.0)
        counts.append(len(opts))
    return Design(np.array(rows), np.array(group), np.array(chosen), len(records), np.array(counts))


def log_likelihood(beta: Any, d: Design) -> tuple[float, Any, Any]:
    """The conditional logit's log-likelihood, gradient and Hessian at ``beta``."""
    import numpy as np

    s = d.x @ beta
    top = np.full(d.decisions, -np.inf)
    np.maximum.at(top, d.group, s)
    e = np.exp(s - top[d.group])
    z = np.zeros(d.decisions)
    np.add.at(z, d.group, e)
    p = e / z[d.group]
    ll = float(np.sum(d.chosen * (s - top[d.group])) - np.sum(np.log(z)))
    k = d.x.shape[1]
    mean = np.zeros((d.decisions, k))
    np.add.at(mean, d.group, p[:, None] * d.x)
    centred = d.x - mean[d.group]
    grad = (d.chosen - p) @ d.x
    hess = -(centred * p[:, None]).T @ centred
    return ll, grad, hess


def fit(d: Design, ridge: float = RIDGE, steps: int = 50) -> Any:
    """Maximum (ridge-penalised) likelihood by Newton's method."""
    import numpy as np

    k = d.x.shape[1]
    beta = np.zeros(k)
    for _ in range(steps):
        _ll, grad, hess = log_likelihood(beta, d)
        grad = grad - ridge * beta
        hess = hess - ridge * np.eye(k)
        step = np.linalg.solve(hess, grad)
        beta = beta - step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return beta


def uniform_log_likelihood(d: Design) -> float:
    """A seat choosing uniformly among its options: the baseline."""
    import numpy as np

    return float(-np.sum(np.log(d.options)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m passing_game.bots.fitting",
        description="Fit the play model of bots.playmodel to a bot's self-play.",
    )
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=1500)
    parser.add_argument("--holdout", type=float, default=0.2, help="share of rounds held out")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--partnerships", action="store_true")
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--data", type=Path, help="cache of the recorded decisions (JSON)")
    args = parser.parse_args(argv)
    rules = Rules(players=args.players, partnerships=args.partnerships)
    started = time.perf_counter()
    games: list[list[Record]]
    if args.data is not None and args.data.exists():
        games = [
            [(*r[:5], tuple(r[5]), *r[6:]) for r in g] for g in json.loads(args.data.read_text())
        ]
    else:
        games = play_rounds(rules, args.bot, args.seed, args.rounds)
        if args.data is not None:
            args.data.write_text(json.dumps(games))
    played = time.perf_counter() - started
    cut = len(games) - max(1, round(len(games) * args.holdout))
    train = design([r for g in games[:cut] for r in g])
    test = design([r for g in games[cut:] for r in g])
    beta = fit(train)
    ll_train = log_likelihood(beta, train)[0]
    ll_test = log_likelihood(beta, test)[0]
    print(
        f"{args.bot}, {args.players} players{' in partnerships' if args.partnerships else ''}:"
        f" {len(games)} rounds (seed {args.seed}, {played:.0f} s),"
        f" {train.decisions} decisions fitted, {test.decisions} held out"
    )
    for name, value in zip(FEATURES, beta, strict=True):
        print(f"  {name:14s} {value:+.4f}")
    print(f"coefficients: ({', '.join(f'{v:.4f}' for v in beta)})")
    for label, d, ll in (("fitted", train, ll_train), ("held out", test, ll_test)):
        base = uniform_log_likelihood(d)
        print(
            f"{label}: log-likelihood per decision {ll / d.decisions:+.4f},"
            f" uniform choice {base / d.decisions:+.4f},"
            f" gain {(ll - base) / d.decisions:+.4f}"
            f" (perplexity {math.exp(-ll / d.decisions):.2f} options)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
