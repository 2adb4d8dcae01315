"""The summary of an arena run: each bot's results, each pair's, the ratings.

Split from ``stats`` so that module holds only the statistics, which know
nothing of games; this one reads a run's outcomes (``runner.GameOutcome``)
block by block and hands the numbers to ``stats``. ``SprtMonitor`` is here
too: it feeds the sequential test (``stats.Sprt``) from finished games.

Needs the ``arena`` extra (numpy, and scipy through ``stats``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from passing_game.arena.runner import ArenaConfig, GameOutcome
from passing_game.arena.stats import (
    NAN,
    Interval,
    Sprt,
    bootstrap_ratings,
    elo_interval,
    ratio_ci,
    wilson,
)


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
