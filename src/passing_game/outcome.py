"""How a round starts and how it ends: its deal, its result, the reason it ended.

These values sit below ``views`` and ``round`` so that both (and the search's
``State``) can name them without importing each other.

>>> REASONS[BLOCK], REASON_CODES["all-pass"] == ALL_PASS
('block', True)
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from passing_game.rules import LOCKED_TILES
from passing_game.tiles import Tile

#: Why a round ended: a hand emptied (R6.1), nobody could move (R6.2) or
#: every seat passed in a row (D3).
Reason = Literal["domino", "block", "all-pass"]

#: The reasons as small integers, for code that keeps a round as integers
#: (the search's ``State``, the compiled kernel); ``GOING`` while it lasts.
GOING, DOMINO, BLOCK, ALL_PASS = 0, 1, 2, 3
REASONS: dict[int, Reason] = {DOMINO: "domino", BLOCK: "block", ALL_PASS: "all-pass"}
REASON_CODES: dict[Reason, int] = {reason: code for code, reason in REASONS.items()}


class Deal(NamedTuple):
    """A round's starting position: hands, boneyard (next draw first), leader."""

    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    leader: int

    @property
    def locked(self) -> tuple[Tile, ...]:
        """The two tiles that can never be drawn (R2.4), revealed after (D8)."""
        return self.boneyard[-LOCKED_TILES:]


class RoundResult(NamedTuple):
    """How a round ended and how it scored (R6, R7).

    ``winner`` is a side (a seat, or a team with partnerships) or ``None``
    on a tie for the lowest count; ``points`` is what the winner scores.
    """

    reason: Reason
    pips: tuple[int, ...]
    winner: int | None
    points: int
    side_pips: tuple[int, ...]
    hands: tuple[tuple[Tile, ...], ...]
    locked: tuple[Tile, ...]

    def points_by_side(self) -> tuple[int, ...]:
        """Points each side adds to its score for this round."""
        return tuple(
            self.points if side == self.winner else 0 for side in range(len(self.side_pips))
        )
