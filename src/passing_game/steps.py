"""Stepping through a match record, move by move.

Every round is rebuilt from its recorded deal and its recorded moves are
played again through the engine, so a step shows what the engine computes,
not what the file claims. The terminal replayer and the web's replay page
both walk these steps.
"""

from __future__ import annotations

from dataclasses import dataclass

from passing_game.match import Match
from passing_game.round import Round, RoundResult
from passing_game.views import Turn


@dataclass(frozen=True)
class Step:
    """The position after ``index`` moves of round ``number`` (0: the deal)."""

    number: int
    index: int
    total: int
    state: Round
    turn: Turn | None
    #: Every side's score once this step is made (a round's last move scores it).
    scores: tuple[int, ...]
    #: Every round result up to and including this step.
    results: tuple[RoundResult, ...]


def build_steps(match: Match) -> list[Step]:
    """Re-run every round of ``match`` from its deal, one step per move."""
    rules = match.rules
    scores = [0] * rules.sides
    results: list[RoundResult] = []
    steps: list[Step] = []
    for number, played in enumerate(match.rounds, start=1):
        rnd = Round.from_deal(rules, *played.deal)
        moves = played.moves
        steps.append(Step(number, 0, len(moves), rnd.copy(), None, tuple(scores), tuple(results)))
        for index, move in enumerate(moves, start=1):
            rnd.play(move)
            if rnd.result is not None:
                results.append(rnd.result)
                if rnd.result.winner is not None:
                    scores[rnd.result.winner] += rnd.result.points
            steps.append(
                Step(
                    number,
                    index,
                    len(moves),
                    rnd.copy(),
                    rnd.history[-1],
                    tuple(scores),
                    tuple(results),
                )
            )
    return steps
