"""Luck and skill in a finished game (issue 26, item 2): what the deals gave, what
the decisions cost.

For a game of two sides (2 players, or 4 in partnerships), each side's
**result** is its net points over the game's finished rounds: the points it
scored minus the points the other side scored (R7). It is split in three:

- **luck**: what the same deals were worth when the expert plays every seat
  (``deal_values``): each round replayed from its deal with the ``expert`` in
  every seat, seeded as a table seeds the bot of that seat (``"{seed}/{seat}"``),
  each seat seeing what it saw then (its view, the scores before the round);
- **skill**: minus the points the seat's own decisions cost against the
  expert's choices, from the analysis of that seat (``bots.analysis``; the
  losses are in the same net points, for the seat's side). A seat that made
  the expert's moves loses nothing, so its skill is 0;
- **rest**: what is left, ``result - luck - skill``: the other side's
  decisions, a partner's, and what the hidden tiles did after a choice.

A game the expert played in every seat splits into its luck alone: the
replay makes the same moves, so result and luck are equal, skill and rest 0
(``tests/test_luck.py`` checks it, and a game with a deliberate blunder).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from passing_game.bots import make
from passing_game.bots.analysis import ANALYST, Analysis, seat_seed
from passing_game.match import Match
from passing_game.round import Round


@dataclass(frozen=True)
class Split:
    """One seat's result in net points for its side, and its three parts."""

    seat: int
    side: int
    result: int
    luck: int
    skill: float
    rest: float


def _net(points: Sequence[int], side: int) -> int:
    return points[side] - points[1 - side]


def deal_values(match: Match, seed: str | int, level: str = ANALYST) -> list[tuple[int, ...]]:
    """Each finished round's points by side when ``level`` plays every seat from its deal."""
    rules = match.rules
    if rules.sides != 2:
        raise ValueError("luck and skill are split for games of two sides")
    bots = {seat: make(level, seed=seat_seed(seed, seat)) for seat in range(rules.players)}
    scores = [0] * rules.sides
    worth: list[tuple[int, ...]] = []
    for number, played in enumerate(match.rounds, start=1):
        if played.result is None:
            break  # a round a resignation ended: it has no result to compare
        rnd = Round.from_deal(rules, *played.deal)
        while rnd.result is None:
            seat = rnd.to_move
            assert seat is not None
            view = rnd.view(seat, scores=scores, round_number=number)
            rnd.play(bots[seat].choose(view))
        worth.append(rnd.result.points_by_side())
        for side, points in enumerate(played.result.points_by_side()):
            scores[side] += points
    return worth


def split(
    match: Match, worth: Sequence[tuple[int, ...]], analyses: Mapping[int, Analysis]
) -> list[Split]:
    """Every seat's split (``worth``: ``deal_values``; ``analyses``: by seat, the seats
    analysed; a seat without one has skill 0 and its rest holds it all)."""
    rules = match.rules
    rounds = [r for r in match.rounds if r.result is not None][: len(worth)]
    found = []
    for seat in range(rules.players):
        side = rules.side_of(seat)
        result = sum(_net(r.result.points_by_side(), side) for r in rounds if r.result)
        luck = sum(_net(points, side) for points in worth)
        analysis = analyses.get(seat)
        lost = 0.0
        if analysis is not None:
            lost = sum(e.loss for e in analysis.choices if e.round <= len(rounds))
        skill = -round(lost, 3) if lost else 0.0
        found.append(Split(seat, side, result, luck, skill, round(result - luck - skill, 3)))
    return found


__all__ = ["Split", "deal_values", "split"]
