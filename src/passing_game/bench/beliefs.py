"""``passing-game bench --beliefs``: how well the search bots' beliefs about
the hidden hands fit the truth (issue 16).

The search bots guess the hidden tiles from one seat's ``View``
(``bots.sampling.Sampler``: uniform deals weighted by how likely the others'
passes, draws and plays were under an opponent model). A better opponent
model puts more weight on the deals that are true. This bench plays seeded
rounds in which every seat is the same bot and, at every decision of a seat
that has seen another seat act, asks each belief model where each unseen tile
is (``marginals``: the chance of each other hand and of the boneyard) and
scores the true place: the log-likelihood of the true hidden hands, summed
over the unseen tiles, in nats. The exact uniform marginals are the baseline,
so a model that reads the others' moves well scores above 0 against it.

The models measured are ``MODELS``, one line each; a new belief model is a
``Model(label, factory)`` whose factory builds, from a view and a pool size,
anything with ``marginals(rng)`` (and, for the diagnostic, ``effective_size()``).

This module measures; ``beliefs_report`` turns a ``BeliefsResult`` into the
terminal's tables and the Markdown block.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import multiprocessing
import random
import statistics
import time
from collections import deque
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol

from passing_game.bench.suite import Machine, machine, with_load_after
from passing_game.bots import fair_names, is_cheating, make, names
from passing_game.bots.sampling import BONEYARD, Sampler, uniform_marginals
from passing_game.moves import Draw, Pass
from passing_game.round import Round
from passing_game.rules import Rules
from passing_game.views import View

#: Deals weighed per model and position: large, so the marginals are the
#: model's and not the noise of a small pool (the bots weigh 400).
POOL = 4000
#: Pseudo-deals of uniform beliefs added to each pool (add-one smoothing).
PRIOR = 1.0
#: Positions measured by default: a few thousand (issue 16).
POSITIONS = 3000
OPPONENT = "expert"
#: A model is "worse than uniform" at a position below this difference (nats),
#: so that rounding does not count a model equal to uniform as worse.
TIE = 1e-9
#: The normal quantile of a two-sided 95% interval.
Z95 = statistics.NormalDist().inv_cdf(0.975)


class Beliefs(Protocol):
    """What a belief model answers for one view."""

    def marginals(self, rng: random.Random) -> dict[int, list[float]]:
        """Per unseen tile index, its chance of being in each seat's hand
        (seat order, the view's own seat 0), then in the boneyard (last,
        ``BONEYARD``); as ``Sampler.marginals``."""
        ...


#: Builds a model's beliefs from a view and a pool size.
Factory = Callable[[View, int], Beliefs]


@dataclass(frozen=True)
class SamplerModel:
    """The search bots' ``Sampler`` with one opponent model (picklable, for ``--jobs``).

    ``fitted``: the model of play fitted to the expert (``playmodel.FITTED``)
    for the round's format, where there is one (else ``trust`` and ``heavy``).
    """

    trust: float = 0.3
    heavy: float = 0.15
    fitted: bool = False

    def __call__(self, view: View, pool: int) -> Sampler:
        model = "fitted" if self.fitted else None
        return Sampler(view, trust=self.trust, heavy=self.heavy, pool=pool, model=model)


@dataclass(frozen=True)
class Model:
    """A belief model as the bench shows it: a label and its factory.

    With ``--jobs`` above 1 the factory goes to worker processes, so it must
    pickle: a class, a module-level function or a ``SamplerModel``.
    """

    label: str
    build: Factory


#: The models measured, each against the exact uniform beliefs. Add a line to measure another.
MODELS: tuple[Model, ...] = (
    Model("uniform (trust=1, heavy=0)", SamplerModel(trust=1.0, heavy=0.0)),
    Model("default (trust=0.3, heavy=0.15)", SamplerModel()),
    Model("passes and draws only (trust=0.05, heavy=0)", SamplerModel(trust=0.05, heavy=0.0)),
    Model("hard (trust=0.05, heavy=1.0)", SamplerModel(trust=0.05, heavy=1.0)),
    Model("fitted to the expert's play (playmodel.FITTED)", SamplerModel(fitted=True)),
)


class BeliefsError(ValueError):
    """A bad setup of the belief bench (count, players, opponent, models)."""


# -- scoring one position ---------------------------------------------------------


def log_likelihood(marginals: dict[int, list[float]], truth: dict[int, int]) -> float:
    """The log-likelihood (nats) of the true places ``truth`` ({tile index: seat
    or ``BONEYARD``}), summed over the unseen tiles: each tile scored on its own
    (the marginals, not the joint law of the hands).

    >>> round(log_likelihood({3: [0.0, 0.5, 0.5], 9: [0.0, 0.25, 0.75]}, {3: 1, 9: BONEYARD}), 4)
    -0.9808
    """
    return sum(math.log(marginals[tile][place]) for tile, place in truth.items())


def hidden_places(rnd: Round, seat: int) -> dict[int, int]:
    """Where every tile ``seat`` cannot see really is: another seat, or ``BONEYARD``."""
    truth = {t.index: other for other, hand in enumerate(rnd.hands) if other != seat for t in hand}
    truth.update((t.index, BONEYARD) for t in rnd.boneyard)
    return truth


def has_evidence(view: View) -> bool:
    """Whether the seat has seen another seat act (a pass, a draw or a play)."""
    return any(turn.seat != view.seat for turn in view.history)


def saw_pass_or_draw(view: View) -> bool:
    """Whether another seat passed or drew: the soft evidence (R4.4, R4.5)."""
    return any(
        turn.seat != view.seat and isinstance(turn.move, (Pass, Draw)) for turn in view.history
    )


@dataclass(frozen=True)
class Scored:
    """One position: its round, unseen tiles, kind of evidence and every model's score.

    ``uniform`` is the exact uniform log-likelihood; ``scores`` and ``ess``
    follow the models' order (``ess`` is NaN for a model without one).
    """

    round: int
    tiles: int
    passed: bool
    uniform: float
    scores: tuple[float, ...]
    ess: tuple[float, ...]


@dataclass(frozen=True)
class Setup:
    """What every round needs, sent once to each worker."""

    players: int
    opponent: str
    seed: int
    pool: int
    models: tuple[Model, ...]


def score_round(setup: Setup, index: int) -> list[Scored]:
    """Play round ``index`` (seeded: the same positions whichever process plays
    it) and score every position in it with every model."""
    rules = Rules(players=setup.players)
    rnd = Round.new(rules, seed=f"beliefs|{setup.seed}|{index}")
    bots = [make(setup.opponent, seed=f"{setup.seed}|{seat}") for seat in range(setup.players)]
    out = []
    ply = 0
    while not rnd.is_over:
        seat = rnd.to_move
        assert seat is not None
        view = rnd.view(seat)
        if has_evidence(view):
            truth = hidden_places(rnd, seat)
            scores = []
            sizes = []
            for model in setup.models:
                beliefs = model.build(view, setup.pool)
                # the same pool of uniform deals for every model: common random numbers
                rng = random.Random(f"{setup.seed}|{index}|{ply}")
                scores.append(log_likelihood(beliefs.marginals(rng), truth))
                ess = getattr(beliefs, "effective_size", None)
                sizes.append(float(ess()) if callable(ess) else math.nan)
            out.append(
                Scored(
                    index,
                    len(truth),
                    saw_pass_or_draw(view),
                    log_likelihood(uniform_marginals(view), truth),
                    tuple(scores),
                    tuple(sizes),
                )
            )
        rnd.play(bots[seat].choose(view))
        ply += 1
    return out


# -- statistics -------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% interval."""

    mean: float
    low: float
    high: float


def clustered_mean(
    values: Sequence[float], weights: Sequence[float], clusters: Sequence[int]
) -> Estimate:
    """``sum(values) / sum(weights)`` with a 95% interval that takes rounds, not
    positions, as the independent units: the positions of one round share a
    deal and a history, so they are not independent draws.

    The interval is the normal one with the cluster-robust (ratio estimator)
    standard error over the clusters' totals.

    >>> e = clustered_mean([1.0, 3.0, 2.0, 2.0], [1, 1, 1, 1], [0, 0, 1, 1])
    >>> e.mean, e.low == e.high == 2.0
    (2.0, True)
    """
    total = sum(weights)
    if not values or total <= 0:
        return Estimate(math.nan, math.nan, math.nan)
    mean = sum(values) / total
    sums: dict[int, list[float]] = {}
    for value, weight, cluster in zip(values, weights, clusters, strict=True):
        pair = sums.setdefault(cluster, [0.0, 0.0])
        pair[0] += value
        pair[1] += weight
    k = len(sums)
    if k < 2:
        return Estimate(mean, math.nan, math.nan)
    spread = sum((v - mean * w) ** 2 for v, w in sums.values())
    se = math.sqrt(k / (k - 1) * spread) / total
    return Estimate(mean, mean - Z95 * se, mean + Z95 * se)


@dataclass(frozen=True)
class Summary:
    """One model over all positions: scores, its gain over uniform, the pool's health."""

    label: str
    positions: int
    per_position: float
    per_tile: float
    gain: Estimate
    gain_per_tile: Estimate
    worse: float
    ess: float


def summarise(label: str, index: int, positions: Sequence[Scored]) -> Summary:
    """Model ``index``'s figures over ``positions``, its gains against the exact uniform score."""
    scores = [p.scores[index] for p in positions]
    gains = [s - p.uniform for s, p in zip(scores, positions, strict=True)]
    tiles = [p.tiles for p in positions]
    rounds = [p.round for p in positions]
    sizes = [p.ess[index] for p in positions]
    n = len(positions)
    return Summary(
        label,
        n,
        sum(scores) / n if n else math.nan,
        sum(scores) / sum(tiles) if n else math.nan,
        clustered_mean(gains, [1.0] * n, rounds),
        clustered_mean(gains, tiles, rounds),
        sum(g < -TIE for g in gains) / n if n else math.nan,
        statistics.fmean(sizes) if n else math.nan,
    )


# -- the run ----------------------------------------------------------------------


@dataclass
class BeliefsResult:
    """Every scored position of one run, and how it was made."""

    command: str
    players: int
    opponent: str
    seed: int
    pool: int
    jobs: int
    machine: Machine
    labels: tuple[str, ...]
    positions: list[Scored] = field(default_factory=list)
    rounds: int = 0
    seconds: float = 0.0

    def summaries(self, positions: Sequence[Scored] | None = None) -> list[Summary]:
        """Every model over ``positions`` (default: all)."""
        chosen = self.positions if positions is None else positions
        return [summarise(label, i, chosen) for i, label in enumerate(self.labels)]

    def uniform(self) -> tuple[float, float]:
        """The exact uniform beliefs' score: (per position, per tile)."""
        total = sum(p.uniform for p in self.positions)
        tiles = sum(p.tiles for p in self.positions)
        return (total / len(self.positions), total / tiles) if tiles else (math.nan, math.nan)


def check(positions: int, players: int, opponent: str, pool: int, models: Sequence[Model]) -> None:
    """Refuse a bad setup with a sentence, before any round is played."""
    if isinstance(positions, bool) or not isinstance(positions, int) or positions < 1:
        raise BeliefsError(f"positions must be a whole number >= 1, got {positions!r}")
    if players not in (2, 3, 4):
        raise BeliefsError(f"players must be 2, 3 or 4, got {players!r}")
    if opponent not in names():
        raise BeliefsError(f"unknown opponent {opponent!r}; choose from {', '.join(fair_names())}")
    if is_cheating(opponent):
        raise BeliefsError(
            f"opponent {opponent!r} sees every hand and cannot play from a view;"
            f" choose from {', '.join(fair_names())}"
        )
    if isinstance(pool, bool) or not isinstance(pool, int) or pool < 1:
        raise BeliefsError(f"pool must be a whole number >= 1, got {pool!r}")
    labels = [m.label for m in models]
    if not labels or len(set(labels)) != len(labels):
        raise BeliefsError(f"models need distinct labels, got {labels!r}")


def _context() -> multiprocessing.context.BaseContext:
    # As the arena's runner: never fork a process that may run threads.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _rounds(setup: Setup, jobs: int) -> Generator[list[Scored], None, None]:
    """Every round's positions, in round order, played on ``jobs`` processes."""
    if jobs <= 1:
        for index in itertools.count():
            yield score_round(setup, index)
        return
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=_context())
    pending: deque[Future[list[Scored]]] = deque()
    numbers = itertools.count()
    try:
        while True:
            while len(pending) < 2 * jobs:
                pending.append(pool.submit(score_round, setup, next(numbers)))
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def run_beliefs_bench(
    *,
    positions: int = POSITIONS,
    players: int = 2,
    opponent: str = OPPONENT,
    seed: int = 0,
    pool: int = POOL,
    jobs: int = 1,
    models: Sequence[Model] = MODELS,
    command: str = "passing-game bench --beliefs",
    log: Callable[[str], None] = lambda _text: None,
) -> BeliefsResult:
    """Play rounds until ``positions`` positions are scored; the first ones in
    round order are kept, so the result does not depend on ``jobs``."""
    check(positions, players, opponent, pool, models)
    setup = Setup(players, opponent, seed, pool, tuple(models))
    before = machine()
    result = BeliefsResult(
        command, players, opponent, seed, pool, max(1, jobs), before, tuple(m.label for m in models)
    )
    start = time.perf_counter()
    step = max(1, positions // 10)
    with contextlib.closing(_rounds(setup, jobs)) as rounds:
        for scored in rounds:
            result.rounds += 1
            shown = len(result.positions) // step
            result.positions.extend(scored[: positions - len(result.positions)])
            if len(result.positions) // step > shown:
                log(
                    f"{len(result.positions):,}/{positions:,} positions,"
                    f" {result.rounds:,} rounds, {time.perf_counter() - start:.0f} s"
                )
            if len(result.positions) >= positions:
                break
    result.seconds = time.perf_counter() - start
    result.machine = with_load_after(before)
    return result
