"""What one seat may know (R9), as an immutable value built from copies.

A ``View`` holds no reference to the ``Round`` it came from, so no attribute
path leads from a view to another seat's tiles or to the boneyard's order.
Bots and clients are given views, never rounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from passing_game import legality
from passing_game.moves import Draw, Move, Play
from passing_game.outcome import RoundResult
from passing_game.rules import Rules
from passing_game.tiles import Placed, Tile, mask_of


class Turn(NamedTuple):
    """One action in a round's history.

    ``drawn`` is the tile a draw took, set only for the drawer (R9.2);
    ``placed`` is how a play's tile was laid, so nobody has to replay the
    history to know which half faces which way.
    """

    seat: int
    move: Move
    drawn: Tile | None = None
    placed: Placed | None = None

    def public(self) -> Turn:
        """This turn as the other seats see it: a draw shows no tile (R9.2)."""
        return Turn(self.seat, self.move) if self.drawn is not None else self

    def __str__(self) -> str:
        extra = f" ({self.drawn})" if self.drawn is not None else ""
        return f"{self.seat}: {self.move}{extra}"


@dataclass(frozen=True, slots=True)
class View:
    """One seat's knowledge of a round (R9).

    ``history`` is the public history, with this seat's own draws showing the
    tile it took. ``scores`` and ``round_number`` are set when the round is
    part of a ``Match``. ``result`` (every hand revealed) is set only once the
    round is over.
    """

    rules: Rules
    seat: int
    hand: tuple[Tile, ...]
    train: tuple[Placed, ...]
    ends: tuple[int, int] | None
    hand_sizes: tuple[int, ...]
    boneyard_size: int
    history: tuple[Turn, ...]
    to_move: int | None
    leader: int
    scores: tuple[int, ...] | None = None
    round_number: int | None = None
    result: RoundResult | None = None

    @property
    def is_my_turn(self) -> bool:
        return self.to_move == self.seat

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def legal_moves(self) -> list[Move]:
        """The moves open to this seat, or ``[]`` when it is not its turn.

        The same list as ``Round.legal_moves``, from the same generator; ``in``
        on it is a complete legality check.
        """
        if self.to_move != self.seat:
            return []
        return legality.legal_moves(
            mask_of(self.hand), self.ends, self.boneyard_size, self.rules.passing == "forced"
        )

    @property
    def can_draw(self) -> bool:
        return legality.can_draw(self.boneyard_size)

    @property
    def passes_in_row(self) -> int:
        """Passes since the last play or draw; ``players`` of them end the round (D3)."""
        count = 0
        for turn in reversed(self.history):
            if isinstance(turn.move, (Play, Draw)):
                break
            count += 1
        return count

    @property
    def played(self) -> frozenset[Tile]:
        """Tiles on the train."""
        return frozenset(p.tile for p in self.train)

    @property
    def unseen(self) -> frozenset[Tile]:
        """Tiles this seat has not seen: other hands and the boneyard."""
        return frozenset(self.rules.tiles) - self.played - frozenset(self.hand)

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat)
