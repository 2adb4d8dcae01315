"""The arena's statistics: intervals, ratings and the sequential test.

Needs the ``arena`` extra (numpy, scipy). The unit of independence is the
*block* (one deal in every seating, see ``schedule``): games inside a block
share a deal, blocks do not. So means and scores get their intervals from
per-block totals (a t interval on the ratio of sums, which for blocks of equal
size is the t interval of the block means), ratings from a bootstrap over
blocks, and the sequential test takes one observation per block. Win rates
use the Wilson interval on the rounds (or matches) themselves. Nothing here
knows the arena's games: ``summary`` reads a run's outcomes and applies these.

>>> round(wilson(50, 100).low, 3), round(wilson(50, 100).high, 3)
(0.404, 0.596)
>>> [round(v, 3) for v in mean_ci([1, 2, 3, 4, 5])]
[3.0, 1.037, 4.963]
>>> round(elo_from_score(0.75), 1)
190.8
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt
from scipy import stats as sps  # type: ignore[import-untyped]

FloatArray = npt.NDArray[np.float64]
NAN = float("nan")
CONFIDENCE = 0.95


class Interval(NamedTuple):
    """An estimate with the low and high ends of its confidence interval."""

    estimate: float
    low: float
    high: float

    def to_list(self) -> list[float | None]:
        """The three numbers, with ``None`` for unknown (NaN) or unbounded ends."""
        return [None if math.isnan(v) or math.isinf(v) else v for v in self]


def mean_ci(values: Iterable[float], confidence: float = CONFIDENCE) -> Interval:
    """The mean with its Student t interval; NaN ends with fewer than two values."""
    data = np.asarray(list(values), dtype=float)
    if data.size == 0:
        return Interval(NAN, NAN, NAN)
    mean = float(data.mean())
    if data.size < 2:
        return Interval(mean, NAN, NAN)
    sem = float(data.std(ddof=1)) / math.sqrt(data.size)
    if sem == 0.0:
        return Interval(mean, mean, mean)
    low, high = sps.t.interval(confidence, data.size - 1, loc=mean, scale=sem)
    return Interval(mean, float(low), float(high))


def ratio_ci(
    numerators: Sequence[float], denominators: Sequence[float], confidence: float = CONFIDENCE
) -> Interval:
    """``sum(numerators) / sum(denominators)`` with a t interval over clusters.

    Each pair is one cluster (a block: its total and its count). The
    variance comes from linearizing the ratio, the usual estimator for
    cluster samples; with equal denominators it is exactly ``mean_ci`` of the
    cluster means.

    >>> ratio_ci([2, 4, 6, 8, 10], [2, 2, 2, 2, 2]) == mean_ci([1, 2, 3, 4, 5])
    True
    """
    num = np.asarray(numerators, dtype=float)
    den = np.asarray(denominators, dtype=float)
    keep = den > 0
    num, den = num[keep], den[keep]
    if num.size == 0:
        return Interval(NAN, NAN, NAN)
    if np.all(den == den[0]):
        return mean_ci(num / den[0], confidence)
    ratio = float(num.sum() / den.sum())
    if num.size < 2:
        return Interval(ratio, NAN, NAN)
    residuals = num - ratio * den
    sem = float(residuals.std(ddof=1)) / (math.sqrt(num.size) * float(den.mean()))
    if sem == 0.0:
        return Interval(ratio, ratio, ratio)
    low, high = sps.t.interval(confidence, num.size - 1, loc=ratio, scale=sem)
    return Interval(ratio, float(low), float(high))


def wilson(successes: int, trials: int, confidence: float = CONFIDENCE) -> Interval:
    """A proportion with its Wilson score interval (scipy's ``binomtest``)."""
    if trials == 0:
        return Interval(NAN, NAN, NAN)
    ci = sps.binomtest(successes, trials).proportion_ci(
        confidence_level=confidence, method="wilson"
    )
    return Interval(successes / trials, float(ci.low), float(ci.high))


def elo_from_score(score: float) -> float:
    """The logistic Elo difference whose expected score is ``score``.

    Scores of 0 and 1 give minus and plus infinity.
    """
    if math.isnan(score):
        return NAN
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_interval(score: Interval) -> Interval:
    """A score interval on the Elo scale (the transform is monotone)."""
    low = max(score.low, 0.0) if not math.isnan(score.low) else NAN
    high = min(score.high, 1.0) if not math.isnan(score.high) else NAN
    return Interval(elo_from_score(score.estimate), elo_from_score(low), elo_from_score(high))


# -- sequential probability ratio test -----------------------------------

Decision = Literal["H0", "H1"]


@dataclass
class Sprt:
    """Sequential test of ``elo <= elo0`` (H0) against ``elo >= elo1`` (H1).

    The defaults are those of chess engine testing (cutechess-cli's
    ``-sprt elo0=0 elo1=5 alpha=0.05 beta=0.05``). Observations are scores in
    ``[0, 1]`` of the first bot against the second, one per block. The
    log-likelihood ratio is the generalized SPRT's normal approximation used
    by engine testing frameworks::

        LLR = N * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

    with ``s0``, ``s1`` the expected scores at ``elo0``, ``elo1``. The
    variance is shrunk toward a fair coin's (1/4) with the weight of one
    observation, so a short streak of identical results cannot decide at
    once. The test stops at the first observation whose LLR leaves
    ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``.
    """

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    scores: list[float] = field(default_factory=list)
    decision: Decision | None = None

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT needs elo0 < elo1, got {self.elo0} and {self.elo1}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 0.5:
                raise ValueError(f"SPRT {name} must be between 0 and 0.5, got {value}")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self) -> float:
        n = len(self.scores)
        if n == 0:
            return 0.0
        data = np.asarray(self.scores, dtype=float)
        mean = float(data.mean())
        variance = (n * float(data.var()) + 0.25) / (n + 1)
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)

    def add(self, score: float) -> Decision | None:
        """Take one observation; the decision once made stays."""
        if self.decision is None:
            self.scores.append(score)
            value = self.llr()
            if value >= self.upper:
                self.decision = "H1"
            elif value <= self.lower:
                self.decision = "H0"
        return self.decision

    def to_dict(self) -> dict[str, Any]:
        return {
            "elo0": self.elo0,
            "elo1": self.elo1,
            "alpha": self.alpha,
            "beta": self.beta,
            "llr": self.llr(),
            "lower": self.lower,
            "upper": self.upper,
            "observations": len(self.scores),
            "decision": self.decision,
        }


# -- Bradley-Terry ratings -------------------------------------------------


def bradley_terry(wins: FloatArray, prior: float = 1.0, tol: float = 1e-10) -> FloatArray:
    """Bradley-Terry strengths fitted by Hunter's MM algorithm, on the Elo scale.

    ``wins[..., i, j]`` is the score of ``i`` against ``j`` (a draw counts a
    half to each); leading axes are independent problems, fitted together.
    ``prior`` adds that many drawn games between every pair, which keeps the
    fit finite when a bot won or lost everything. Ratings are
    ``400 * log10(strength)``, shifted to average 0.

    >>> w = np.array([[0.0, 3.0], [1.0, 0.0]])
    >>> [round(float(r), 1) for r in bradley_terry(w, prior=0.0)]
    [95.4, -95.4]
    """
    w = np.asarray(wins, dtype=float)
    k = w.shape[-1]
    off = 1.0 - np.eye(k)
    w = w + off * (prior / 2.0)
    games = w + np.swapaxes(w, -1, -2)
    won = w.sum(axis=-1)
    p = np.ones(w.shape[:-1])
    for _ in range(100_000):
        denom = (games / (p[..., :, None] + p[..., None, :])).sum(axis=-1)
        new = won / np.where(denom > 0, denom, 1.0)
        new = np.where(new > 0, new, 1e-300)
        new = new / np.exp(np.log(new).mean(axis=-1, keepdims=True))
        change = float(np.max(np.abs(np.log(new) - np.log(p))))
        p = new
        if change < tol:
            break
    ratings: FloatArray = 400.0 * np.log10(p)
    centred: FloatArray = ratings - ratings.mean(axis=-1, keepdims=True)
    return centred


def bootstrap_ratings(
    block_wins: FloatArray,
    *,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = CONFIDENCE,
    prior: float = 1.0,
) -> list[Interval]:
    """Ratings with percentile intervals from resampling blocks.

    ``block_wins[b, i, j]`` is block ``b``'s score of ``i`` against ``j``.
    """
    blocks, k = block_wins.shape[0], block_wins.shape[-1]
    estimate = bradley_terry(block_wins.sum(axis=0), prior)
    if blocks < 2:
        return [Interval(float(e), NAN, NAN) for e in estimate]
    rng = np.random.default_rng(seed)
    flat = block_wins.reshape(blocks, k * k)
    samples: list[FloatArray] = []
    chunk = 100
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        counts = rng.multinomial(blocks, np.full(blocks, 1.0 / blocks), size=size)
        samples.append(bradley_terry((counts @ flat).reshape(size, k, k), prior))
    boot = np.concatenate(samples)
    tail = (1.0 - confidence) / 2.0 * 100.0
    low = np.percentile(boot, tail, axis=0)
    high = np.percentile(boot, 100.0 - tail, axis=0)
    return [
        Interval(float(e), float(lo), float(hi))
        for e, lo, hi in zip(estimate, low, high, strict=True)
    ]
