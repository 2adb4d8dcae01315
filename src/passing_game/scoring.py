"""Scoring a finished round (R7, D4, D6, D11).

>>> from passing_game.rules import Rules
>>> score(Rules(players=3), [4, 10, 15])
Score(winner=0, points=21, side_pips=(4, 10, 15))
>>> score(Rules(players=3, scoring="pairwise"), [4, 10, 15]).points
17
>>> score(Rules(players=4, partnerships=True), [3, 9, 8, 4])
Score(winner=0, points=2, side_pips=(11, 13))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from passing_game.rules import Rules


class Score(NamedTuple):
    """Who won a round and what they scored; ``winner`` is a side or ``None``."""

    winner: int | None
    points: int
    side_pips: tuple[int, ...]


def side_pips(rules: Rules, pips: Sequence[int]) -> tuple[int, ...]:
    """Each side's count: a seat's own, or the sum of both partners' (D6)."""
    return side_counts(pips, rules.partnerships)


def side_counts(pips: Sequence[int], partnerships: bool) -> tuple[int, ...]:
    """``side_pips`` for code that keeps the rules as flags (the search's ``State``)."""
    if not partnerships:
        return tuple(pips)
    return (pips[0] + pips[2], pips[1] + pips[3])


def score(rules: Rules, pips: Sequence[int]) -> Score:
    """Score a round from every seat's pips left in hand."""
    counts = side_pips(rules, pips)
    return Score(*winner_points(counts, rules.scoring == "pairwise"), counts)


def winner_points(counts: Sequence[int], pairwise: bool) -> tuple[int | None, int]:
    """The winning side and its points, from each side's count.

    The side with the lowest count wins (R7.2); a tie for the lowest count
    scores nothing (R7.3, D11). The winner scores the others' total minus its
    own (``literal``, D4) or the sum of each difference (``pairwise``).
    """
    low = min(counts)
    if counts.count(low) > 1:
        return None, 0
    others = sum(counts) - low
    return counts.index(low), others - low * (len(counts) - 1 if pairwise else 1)
