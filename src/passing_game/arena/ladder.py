"""The agents' ladder: every pair of agents on the same duplicate deals, measured.

A ladder is an arena run (``runner``) of all its agents with two seats (or
two teams of four players): the schedule (``schedule.seatings``) then
holds every pair of agents in both orders, and each block's deal is the
same for all of them, so every pair plays each deal from both seats. Its
statistics are the arena's (``summary.summarize``, ``stats.ratio_ci``, over
complete blocks): an agent's net points a round against the field (its
side's points minus its opponent's, over all its rounds) and its points
won a round, each with a t interval over deals, and every pair's net
points a round with its interval. ``document`` is the JSON the web site
publishes (docs/STRENGTH.md "Ladder"; DECISIONS.md P63).

Needs the ``arena`` extra (numpy, scipy), as ``stats`` does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from passing_game import __version__
from passing_game.arena.agents import Agent, LadderError
from passing_game.arena.runner import ArenaConfig, ArenaError, GameOutcome, bot_specs
from passing_game.arena.schedule import blocks_needed, seatings
from passing_game.arena.stats import Interval, ratio_ci
from passing_game.arena.summary import Summary, bot_sides, complete_blocks, summarize
from passing_game.rules import Rules

#: The version of the ladder's JSON document (``document``; web/ladder/model.py reads it).
FORMAT = 1
#: Rounds a pair plays on one deal: once from each seat (side).
ROUNDS_PER_DEAL = 2


@dataclass(frozen=True)
class Ladder:
    """A ladder's agents and the arena run that measures them."""

    agents: tuple[Agent, ...]
    config: ArenaConfig
    #: Rounds each pair was asked to play (the run rounds it up to whole deals).
    rounds_asked: int

    @property
    def deals(self) -> int:
        return self.config.blocks

    @property
    def rounds_per_pair(self) -> int:
        return self.deals * ROUNDS_PER_DEAL


def check_rules(rules: Rules) -> None:
    """The ladder plays agents in pairs: two seats, or two teams of two."""
    if rules.players == 2 or (rules.players == 4 and rules.partnerships):
        return
    raise LadderError(
        "the ladder plays agents in pairs: 2 players, or 4 in partnerships (--partnerships)"
    )


def build(
    agents: Sequence[Agent],
    *,
    rules: Rules | None = None,
    rounds: int,
    seed: int = 0,
    timeout: float | None = None,
) -> Ladder:
    """The ladder's arena run: ``rounds`` per pair, rounded up to whole deals.

    Every agent's bot is built (an outside program started) once here, so a
    bad one is refused before any game.

    >>> from passing_game.arena.agents import Agent
    >>> ladder = build([Agent(n, "bot", n) for n in ("random", "greedy", "heuristic")], rounds=3)
    >>> ladder.deals, ladder.rounds_per_pair, ladder.config.total_games
    (2, 4, 12)
    """
    rules = rules or Rules()
    check_rules(rules)
    if rounds < 1:
        raise LadderError(f"each pair plays at least 1 round, got {rounds}")
    try:
        specs = bot_specs([a.text for a in agents], timeout=timeout)
    except ArenaError as exc:
        raise LadderError(str(exc)) from None
    for agent, spec in zip(agents, specs, strict=True):
        if spec.label != agent.label:
            raise LadderError(f"the agent {agent.label} is named twice: each agent plays once")
    per_deal = len(seatings(len(specs), rules.players, partnerships=rules.partnerships))
    try:
        config = ArenaConfig(
            bots=tuple(specs),
            rules=rules,
            mode="rounds",
            games=blocks_needed(rounds, ROUNDS_PER_DEAL) * per_deal,
            seed=seed,
        )
    except ArenaError as exc:
        raise LadderError(str(exc)) from None
    return Ladder(tuple(agents), config, rounds)


@dataclass(frozen=True)
class AgentResult:
    """One agent against the field: every round it played, against every other agent."""

    agent: Agent
    rounds: int
    #: Its side's points minus its opponent's, a round (t interval over deals).
    net: Interval
    #: Its side's points a round (``summary.BotStats.points_per_round``).
    points: Interval
    round_wins: Interval
    seconds_per_move: float
    faults: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class PairResult:
    """Agent ``a`` against agent ``b`` (``summary.HeadToHead``)."""

    a: str
    b: str
    rounds: int
    #: ``a``'s points minus ``b``'s, a round (``HeadToHead.points_difference``).
    net: Interval
    #: Per round, 1 when ``a`` ended with fewer pips, a half on equal counts.
    score: Interval
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class Results:
    """A ladder's measurements, agents best first (by net points against the field)."""

    agents: list[AgentResult]
    pairs: list[PairResult]
    summary: Summary


def field_net(config: ArenaConfig, outcomes: Sequence[GameOutcome]) -> list[Interval]:
    """Each bot's net points a round against the others, over complete blocks.

    Per round, its side's points minus the mean of its opponents' (in a
    ladder, its one opponent); the interval is ``stats.ratio_ci`` over the
    blocks' totals, the arena's interval for points a round.
    """
    blocks = sorted(complete_blocks(config, outcomes))
    where = {b: i for i, b in enumerate(blocks)}
    k = len(config.bots)
    net = np.zeros((len(blocks), k))
    rounds = np.zeros((len(blocks), k))
    for outcome in outcomes:
        if outcome.block not in where:
            continue
        i = where[outcome.block]
        sides = bot_sides(config, outcome.lineup)
        for played in outcome.rounds:
            got = {bot: sum(played.points[s] for s in ss) for bot, ss in sides.items()}
            for bot, points in got.items():
                others = [p for other, p in got.items() if other != bot]
                net[i, bot] += points - sum(others) / len(others)
                rounds[i, bot] += 1
    return [ratio_ci(net[:, b].tolist(), rounds[:, b].tolist()) for b in range(k)]


def _rank_key(result: AgentResult) -> tuple[float, str]:
    estimate = result.net.estimate
    return (-estimate if not math.isnan(estimate) else math.inf, result.agent.label)


def measure(
    ladder: Ladder,
    outcomes: Sequence[GameOutcome],
    *,
    interrupted: bool = False,
    seconds: float = 0.0,
) -> Results:
    """The ladder's statistics from the games played (complete deals only)."""
    config = ladder.config
    summary = summarize(config, outcomes, interrupted=interrupted, seconds=seconds)
    nets = field_net(config, outcomes)
    agents = [
        AgentResult(
            agent=agent,
            rounds=stats.rounds,
            net=net,
            points=stats.points_per_round,
            round_wins=stats.round_win_rate,
            seconds_per_move=stats.seconds_per_decision,
            faults=dict(stats.faults),
        )
        for agent, stats, net in zip(ladder.agents, summary.bots, nets, strict=True)
    ]
    pairs = [
        PairResult(
            a=h.a,
            b=h.b,
            rounds=h.comparisons,
            net=h.points_difference,
            score=h.score,
            wins=h.wins,
            draws=h.draws,
            losses=h.losses,
        )
        for h in summary.head_to_head
    ]
    return Results(sorted(agents, key=_rank_key), pairs, summary)


def interval(value: Interval) -> dict[str, float | None]:
    """An interval as the document writes it: unknown (NaN) ends are ``null``."""
    return dict(zip(("estimate", "low", "high"), value.to_list(), strict=True))


def _number(value: float) -> float | None:
    return None if math.isnan(value) or math.isinf(value) else value


def document(
    ladder: Ladder,
    results: Results,
    *,
    command: str,
    started: float,
    finished: float,
    jobs: int,
) -> dict[str, Any]:
    """The ladder's JSON document: what ``--json`` writes and the site publishes.

    ``started`` and ``finished`` are Unix times (seconds). The format is
    docs/STRENGTH.md's "The ladder's file"; ``web/ladder/model.py`` checks it.
    """
    config = ladder.config
    summary = results.summary
    return {
        "ladder": FORMAT,
        "run": {
            "command": command,
            "started": started,
            "finished": finished,
            "seconds": summary.seconds,
            "jobs": jobs,
            "version": __version__,
            "rules": config.rules.to_dict(),
            "players": config.rules.players,
            "partnerships": config.rules.partnerships,
            "seed": config.seed,
            "rounds_asked": ladder.rounds_asked,
            "rounds_per_pair": ladder.rounds_per_pair,
            "deals": summary.blocks_counted,
            "deals_planned": ladder.deals,
            "interrupted": summary.interrupted,
        },
        "agents": [
            {
                **r.agent.to_dict(),
                "rounds": r.rounds,
                "net": interval(r.net),
                "points": interval(r.points),
                "round_wins": interval(r.round_wins),
                "ms_per_move": _number(r.seconds_per_move * 1000.0),
                "faults": r.faults,
            }
            for r in results.agents
        ],
        "pairs": [
            {
                "a": p.a,
                "b": p.b,
                "rounds": p.rounds,
                "net": interval(p.net),
                "score": interval(p.score),
                "wins": p.wins,
                "draws": p.draws,
                "losses": p.losses,
            }
            for p in results.pairs
        ],
    }


__all__ = [
    "FORMAT",
    "AgentResult",
    "Ladder",
    "LadderError",
    "PairResult",
    "Results",
    "build",
    "check_rules",
    "document",
    "field_net",
    "interval",
    "measure",
]
