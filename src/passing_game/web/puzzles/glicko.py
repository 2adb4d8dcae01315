"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), pure.

Written here rather than taken from PyPI: the ``glicko2`` package installs a
top-level ``tests`` package, which would shadow this project's own.

Every first attempt at a puzzle is one rating period of one game for both
players: the solver against the puzzle (a win when solved) and the puzzle
against the solver (a win when not). **tau is 0.5**, the paper's own value
and the middle of the range it recommends (0.3 to 1.2): each period here is
a single result, so a larger tau (lichess's 0.75) would let one surprising
solve move the volatility, and with it every later change, more than one
result says; 0.5 also reproduces the paper's worked example exactly, which
``tests/test_web_puzzles_model.py`` checks. No time passes between periods
(a deviation does not grow while nobody plays), and a deviation is kept
between ``MIN_DEVIATION`` and ``MAX_DEVIATION``.

>>> player = Glicko(1500, 200, 0.06)
>>> games = [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]
>>> after = update(player, games)
>>> round(after.rating, 1), round(after.deviation, 1), int(after.volatility * 1e5) / 1e5
(1464.1, 151.5, 0.05999)

The paper rounds its steps and prints 1464.06 / 151.52 / 0.05999; unrounded,
the rating is 1464.05 (the test allows the paper's rounding).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Glicko-2's scale: rating points per unit of mu (173.7178 in the paper).
SCALE = 400 / math.log(10)
#: The system constant (see the module's notes).
TAU = 0.5
#: Where the paper stops the volatility's iteration.
EPSILON = 0.000001
#: A new player's rating, deviation and volatility (the paper's defaults).
RATING, DEVIATION, VOLATILITY = 1500.0, 350.0, 0.06
#: The bounds of a deviation: never surer than 45 points, never less sure than a newcomer.
MIN_DEVIATION, MAX_DEVIATION = 45.0, 350.0


@dataclass(frozen=True)
class Glicko:
    """A rating: the number, how sure it is (deviation), how erratic (volatility)."""

    rating: float = RATING
    deviation: float = DEVIATION
    volatility: float = VOLATILITY


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(player: Glicko, opponent: Glicko) -> float:
    """The chance the paper's model gives ``player`` of beating ``opponent``.

    >>> expected(Glicko(1500, 50), Glicko(1500, 50))
    0.5
    """
    return _expected(
        (player.rating - RATING) / SCALE,
        (opponent.rating - RATING) / SCALE,
        opponent.deviation / SCALE,
    )


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def update(
    player: Glicko,
    results: Sequence[tuple[Glicko, float]],
    tau: float = TAU,
    bounded: bool = False,
) -> Glicko:
    """The player's rating after one period: ``results`` are (opponent, score 0..1).

    With no results the paper widens the deviation by the volatility; here no
    time passes without a game, so the rating stays as it was. ``bounded``
    keeps the deviation between ``MIN_DEVIATION`` and ``MAX_DEVIATION``.
    """
    if not results:
        return player
    mu = (player.rating - RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    inverse_v = 0.0
    total = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - RATING) / SCALE
        phi_j = opponent.deviation / SCALE
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        inverse_v += g * g * e * (1 - e)
        total += g * (score - e)
    v = 1 / inverse_v
    delta = v * total
    new_sigma = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * total
    deviation = new_phi * SCALE
    if bounded:
        deviation = min(MAX_DEVIATION, max(MIN_DEVIATION, deviation))
    return Glicko(new_mu * SCALE + RATING, deviation, new_sigma)


def rate_attempt(solver: Glicko, puzzle: Glicko, solved: bool) -> tuple[Glicko, Glicko]:
    """Both new ratings after a first attempt: the solver won if it solved the puzzle.

    Each is computed from the other's rating before the attempt.

    >>> solver, puzzle = rate_attempt(Glicko(), Glicko(1600, 200), True)
    >>> solver.rating > 1500, puzzle.rating < 1600
    (True, True)
    """
    score = 1.0 if solved else 0.0
    return (
        update(solver, [(puzzle, score)], bounded=True),
        update(puzzle, [(solver, 1.0 - score)], bounded=True),
    )


__all__ = [
    "DEVIATION",
    "MAX_DEVIATION",
    "MIN_DEVIATION",
    "RATING",
    "SCALE",
    "TAU",
    "VOLATILITY",
    "Glicko",
    "expected",
    "rate_attempt",
    "update",
]
