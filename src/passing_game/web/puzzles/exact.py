"""Exact values for the blunders an analysis found: puzzles from your own games (issue 25).

The analysis marks a blunder by its estimate (the expert's pooled searches,
``bots.analysis``). Where the seat's view leaves few deals of the tiles it
cannot see (``MAX_DEALS``, the generator's bound) and every one of them
solves within ``NODES`` positions, the position is valued as the shipped view
puzzles are (``puzzles.derive``: each legal move over every consistent deal,
each deal solved with open hands). That runs once, when the analysis is
made, in the analysis's worker processes, and is kept with it
(``web_analyses``, under ``"exact"``, by replay step); ``mine`` reads it.
Elsewhere a puzzle keeps the analysis's estimates and says so.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from concurrent.futures import Executor, Future
from typing import Any

from passing_game.bots.analysis import Analysis, Evaluation
from passing_game.match import Match
from passing_game.moves import code_to_move, parse_move
from passing_game.puzzles import SearchLimit, Solver, count_deals, derive
from passing_game.round import Round
from passing_game.rules import Rules

log = logging.getLogger("passing_game.web")

#: The most deals of the unseen tiles valued exactly, by player count (as the generator).
MAX_DEALS = {2: 1_000, 4: 1_500}
#: The positions one blunder's valuation may visit (about a second or two here).
NODES = 200_000
#: The blunders of one analysis valued exactly, its first ones.
MOST = 6


def blunders(result: Analysis) -> list[Evaluation]:
    """The seat's own choices the analysis marked as blunders (no bot's move, no forced one)."""
    return [e for e in result.choices if e.mark == "blunder"]


def position(match: Match, evaluation: Evaluation) -> Round:
    """The round just before the evaluated move (``index`` counts its round's moves from 1)."""
    played = match.rounds[evaluation.round - 1]
    rnd = Round.from_deal(match.rules, *played.deal)
    for move in played.moves[: evaluation.index - 1]:
        rnd.play(move)
    return rnd


def small_enough(rnd: Round) -> bool:
    """Whether the seat to move sees few enough deals to value them all."""
    seat = rnd.to_move
    if seat is None or rnd.rules.sides != 2:
        return False
    return count_deals(rnd.view(seat)) <= MAX_DEALS.get(rnd.rules.players, 0)


def value_position(
    rules: Mapping[str, Any],
    hands: list[list[str]],
    boneyard: list[str],
    leader: int,
    moves: list[str],
) -> dict[str, Any] | None:
    """Every legal move's exact value over every deal the view allows, or ``None`` past
    the budget. Plain arguments and answer: it runs in a worker process."""
    rnd = Round.from_deal(Rules.from_dict(dict(rules)), hands, boneyard, leader)
    for text in moves:
        rnd.play(parse_move(text))
    if not small_enough(rnd):
        return None
    solver = Solver()
    solver.budget(NODES)
    try:
        derived = derive("view", rnd, solver)
    except SearchLimit:
        return None
    return {
        "values": {str(code_to_move(c)): derived.value(c) for c in derived.totals},
        "answer": [str(code_to_move(c)) for c in derived.answer],
        "proof": derived.proof,
        "themes": list(derived.themes),
        "deals": derived.deals,
    }


def exact_values(
    match: Match, result: Analysis, executor: Executor | None = None
) -> dict[str, dict[str, Any]]:
    """The exact values of ``result``'s first ``MOST`` blunders that are small enough,
    by replay step (as text: JSON's keys)."""
    pending: dict[str, Future[dict[str, Any] | None] | dict[str, Any] | None] = {}
    for e in blunders(result)[:MOST]:
        if not small_enough(position(match, e)):
            continue
        played = match.rounds[e.round - 1]
        args = (
            match.rules.to_dict(),
            [[str(t) for t in hand] for hand in played.deal.hands],
            [str(t) for t in played.deal.boneyard],
            played.deal.leader,
            [str(m) for m in played.moves[: e.index - 1]],
        )
        if executor is not None:
            pending[str(e.step)] = executor.submit(value_position, *args)
            continue
        try:
            pending[str(e.step)] = value_position(*args)
        except Exception:  # as below: the puzzle is lost, not the analysis
            log.exception("an exact valuation failed")
    found: dict[str, dict[str, Any]] = {}
    for step, got in pending.items():
        try:
            value = got.result() if isinstance(got, Future) else got
        except Exception:  # a valuation that fails costs its puzzle, never the analysis
            log.exception("an exact valuation failed")
            continue
        if value is not None:
            found[step] = value
    return found


__all__ = ["MAX_DEALS", "MOST", "NODES", "blunders", "exact_values", "position", "value_position"]
