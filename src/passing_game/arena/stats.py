"""The arena's statistics: intervals, ratings and the sequential test.

Needs the ``arena`` extra (numpy, scipy). The unit of independence is the
*block* (one deal in every seating, see ``schedule``): games inside a block
share a deal, blocks do not. So means and scores get their intervals from
per-block totals (a t interval on the ratio of sums, which for blocks of equal
size is the t interval of the block means), ratings from a bootstrap over
blocks, and the sequential test takes one observation per block. Win rates
use the Wilson interval on the rounds (or matches) themselves.

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
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt
from scipy import stats as sps  # type: ignore[import-untyped]

from passing_game.arena.runner import ArenaConfig, GameOutcome

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


class SprtMonitor:
    """Feeds a ``Sprt`` one observation per deal, in schedule order.

    Call it with every finished game, in any order; it waits until a block
    (a deal in every seating) is complete and all earlier ones have been
    read, then adds the first bot's mean score against the second in that
    block. So where the test stops does not depend on how many workers
    played or in which order they finished. ``last_block`` is the last block
    read: the one the test decided on, once it has.
    """

    def __init__(self, config: ArenaConfig, test: Sprt, a: int = 0, b: int = 1) -> None:
        self.config = config
        self.test = test
        self.a, self.b = a, b
        self.per_block = len(config.seatings)
        self.last_block = -1
        self._waiting: dict[int, list[GameOutcome]] = {}

    def __call__(self, outcome: GameOutcome) -> bool:
        """Take a finished game; True once the test has decided."""
        if self.test.decision is not None:
            return True
        self._waiting.setdefault(outcome.block, []).append(outcome)
        while len(self._waiting.get(self.last_block + 1, ())) == self.per_block:
            games = self._waiting.pop(self.last_block + 1)
            self.last_block += 1
            scores = [s for g in games for s in pair_scores(self.config, g, self.a, self.b)]
            if scores and self.test.add(sum(scores) / len(scores)) is not None:
                return True
        return False


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


# -- the summary of a run --------------------------------------------------


@dataclass
class BotStats:
    """One bot's results over the games counted."""

    label: str
    rounds: int
    points_per_round: Interval
    round_wins: int
    round_win_rate: Interval
    mean_pips: float
    matches: int
    match_wins: int
    match_win_rate: Interval | None
    decisions: int
    seconds_per_decision: float
    #: An outside bot's faults by kind (docs/BOTS.md), each handled by a fallback move.
    faults: dict[str, int] = field(default_factory=dict)


@dataclass
class HeadToHead:
    """Bot ``a`` against bot ``b`` in the games where both played.

    ``score`` counts, per round (per match with matches), 1 when ``a``'s side
    ended with fewer pips than ``b``'s (a higher match score), a half on equal
    counts. ``points_difference`` is ``a``'s points per round minus ``b``'s.
    """

    a: str
    b: str
    comparisons: int
    wins: int
    draws: int
    losses: int
    score: Interval
    elo: Interval
    points_difference: Interval


@dataclass
class Summary:
    """Everything the report shows, for the games counted."""

    config: dict[str, Any]
    mode: str
    games_finished: int
    games_counted: int
    blocks_counted: int
    interrupted: bool
    stopped_early: bool
    seconds: float
    bots: list[BotStats]
    head_to_head: list[HeadToHead]
    ratings: list[tuple[str, Interval]]
    sprt: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        def clean(value: Any) -> Any:
            if isinstance(value, Interval):
                return dict(zip(("estimate", "low", "high"), value.to_list(), strict=True))
            if isinstance(value, float):
                return None if math.isnan(value) or math.isinf(value) else value
            if isinstance(value, dict):
                return {k: clean(v) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return [clean(v) for v in value]
            return value

        data = {
            "config": self.config,
            "mode": self.mode,
            "games_finished": self.games_finished,
            "games_counted": self.games_counted,
            "blocks_counted": self.blocks_counted,
            "interrupted": self.interrupted,
            "stopped_early": self.stopped_early,
            "seconds": self.seconds,
            "bots": [asdict(b) for b in self.bots],
            "head_to_head": [asdict(h) for h in self.head_to_head],
            "ratings": [{"label": label, "elo": elo} for label, elo in self.ratings],
            "sprt": self.sprt,
        }
        result = clean(data)
        assert isinstance(result, dict)
        return result


def bot_sides(config: ArenaConfig, lineup: Sequence[int]) -> dict[int, tuple[int, ...]]:
    """For each bot in ``lineup``, the sides (seats or teams) it plays."""
    sides: dict[int, set[int]] = {}
    for seat, bot in enumerate(lineup):
        sides.setdefault(bot, set()).add(config.rules.side_of(seat))
    return {bot: tuple(sorted(s)) for bot, s in sides.items()}


def _compare(a: float, b: float) -> float:
    return 1.0 if a > b else 0.0 if a < b else 0.5


def complete_blocks(config: ArenaConfig, outcomes: Iterable[GameOutcome]) -> set[int]:
    """Blocks all of whose games finished."""
    per_block = len(config.seatings)
    counts: dict[int, int] = {}
    for o in outcomes:
        counts[o.block] = counts.get(o.block, 0) + 1
    return {b for b, c in counts.items() if c == per_block}


def pair_scores(config: ArenaConfig, outcome: GameOutcome, a: int, b: int) -> list[float]:
    """Bot ``a``'s scores against ``b`` in one game: one per round, or one per match.

    In a round, the side with fewer pips left beats the other (with two
    players that is the round's winner); in a match, the higher match score.
    Equal counts are a draw (a half). A bot playing several sides counts its
    best one. Empty when the two did not both play.
    """
    sides = bot_sides(config, outcome.lineup)
    if a not in sides or b not in sides:
        return []
    if outcome.scores is not None:
        best_a = max(outcome.scores[s] for s in sides[a])
        best_b = max(outcome.scores[s] for s in sides[b])
        return [_compare(best_a, best_b)]
    # Fewer pips is better, so b's count comes first.
    return [
        _compare(min(r.pips[s] for s in sides[b]), min(r.pips[s] for s in sides[a]))
        for r in outcome.rounds
    ]


def summarize(
    config: ArenaConfig,
    outcomes: Sequence[GameOutcome],
    *,
    interrupted: bool = False,
    stopped_early: bool = False,
    seconds: float = 0.0,
    last_block: int | None = None,
    sprt: Sprt | None = None,
    resamples: int = 1000,
) -> Summary:
    """The statistics of a run over its complete blocks.

    Games of blocks left incomplete (by Ctrl-C) are left out, so every bot
    counted has played each counted deal in every seat. ``last_block``
    leaves out later blocks too (the sequential test decided there).
    """
    k = len(config.bots)
    keep = complete_blocks(config, outcomes)
    if last_block is not None:
        keep = {b for b in keep if b <= last_block}
    games = [o for o in outcomes if o.block in keep]
    blocks = sorted(keep)
    where = {b: i for i, b in enumerate(blocks)}
    nb = len(blocks)

    points = np.zeros((nb, k))
    rounds = np.zeros((nb, k))
    wins = np.zeros(k, dtype=int)
    pips_sum = np.zeros(k)
    pips_n = np.zeros(k)
    matches = np.zeros(k, dtype=int)
    match_wins = np.zeros(k, dtype=int)
    decisions = np.zeros(k, dtype=int)
    think = np.zeros(k)
    faults: list[dict[str, int]] = [{} for _ in range(k)]
    pair_score = np.zeros((nb, k, k))
    pair_n = np.zeros((nb, k, k))
    pair_points = np.zeros((nb, k, k))
    pair_rounds = np.zeros((nb, k, k))
    outcome_counts = np.zeros((k, k, 3), dtype=int)  # wins, draws, losses

    for o in games:
        i = where[o.block]
        sides = bot_sides(config, o.lineup)
        for seat, bot in enumerate(o.lineup):
            decisions[bot] += o.decisions[seat]
            think[bot] += o.seconds[seat]
            for kind, n in o.faults[seat] if o.faults else ():
                faults[bot][kind] = faults[bot].get(kind, 0) + n
        got: dict[int, list[int]] = {bot: [] for bot in sides}
        for r in o.rounds:
            for bot, ss in sides.items():
                p = sum(r.points[s] for s in ss)
                got[bot].append(p)
                points[i, bot] += p
                rounds[i, bot] += 1
                wins[bot] += r.winner in ss
                pips_sum[bot] += sum(r.pips[s] for s in ss) / len(ss)
                pips_n[bot] += 1
        if o.scores is not None:
            for bot, ss in sides.items():
                matches[bot] += 1
                match_wins[bot] += o.match_winner in ss
        for a in sides:
            for b in sides:
                if a == b:
                    continue
                units = pair_scores(config, o, a, b)
                pair_score[i, a, b] += sum(units)
                pair_n[i, a, b] += len(units)
                pair_points[i, a, b] += sum(x - y for x, y in zip(got[a], got[b], strict=True))
                pair_rounds[i, a, b] += len(got[a])
                for u in units:
                    outcome_counts[a, b, 0 if u == 1.0 else 1 if u == 0.5 else 2] += 1

    is_match = config.mode == "matches"
    bots = []
    for b, spec in enumerate(config.bots):
        played = int(rounds[:, b].sum())
        bots.append(
            BotStats(
                label=spec.label,
                rounds=played,
                points_per_round=ratio_ci(points[:, b].tolist(), rounds[:, b].tolist()),
                round_wins=int(wins[b]),
                round_win_rate=wilson(int(wins[b]), played),
                mean_pips=float(pips_sum[b] / pips_n[b]) if pips_n[b] else NAN,
                matches=int(matches[b]),
                match_wins=int(match_wins[b]),
                match_win_rate=wilson(int(match_wins[b]), int(matches[b])) if is_match else None,
                decisions=int(decisions[b]),
                seconds_per_decision=float(think[b] / decisions[b]) if decisions[b] else NAN,
                faults=faults[b],
            )
        )

    pairs = []
    for a in range(k):
        for b in range(a + 1, k):
            raw = ratio_ci(pair_score[:, a, b].tolist(), pair_n[:, a, b].tolist())
            score = Interval(raw.estimate, max(raw.low, 0.0), min(raw.high, 1.0))
            w, d, lo = (int(x) for x in outcome_counts[a, b])
            if score.low == score.high and w + d + lo:
                # Every deal scored alike (a clean sweep): a zero-width t
                # interval says nothing, so fall back on Wilson's.
                score = wilson(w + d // 2, w + d + lo)._replace(estimate=score.estimate)
            pairs.append(
                HeadToHead(
                    a=config.bots[a].label,
                    b=config.bots[b].label,
                    comparisons=w + d + lo,
                    wins=w,
                    draws=d,
                    losses=lo,
                    score=score,
                    elo=elo_interval(score),
                    points_difference=ratio_ci(
                        pair_points[:, a, b].tolist(), pair_rounds[:, a, b].tolist()
                    ),
                )
            )

    ratings: list[tuple[str, Interval]] = []
    if nb:
        intervals = bootstrap_ratings(pair_score, resamples=resamples, seed=config.seed)
        ratings = [(spec.label, iv) for spec, iv in zip(config.bots, intervals, strict=True)]

    return Summary(
        config=config.to_dict(),
        mode=config.mode,
        games_finished=len(outcomes),
        games_counted=len(games),
        blocks_counted=nb,
        interrupted=interrupted,
        stopped_early=stopped_early,
        seconds=seconds,
        bots=bots,
        head_to_head=pairs,
        ratings=ratings,
        sprt=sprt.to_dict() if sprt is not None else None,
    )
