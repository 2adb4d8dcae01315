"""One round with every tile known, as integers: the model the rules run on.

``State`` keeps each hand as a 28-bit mask over ``Tile.index``, the open
ends as two numbers (``-1`` on an empty train) and the boneyard as a list of
tile indices with a read position; moves are move codes (``moves.py``).
``apply`` makes a move and pushes an undo record, ``undo`` pops it, so a
search walks a tree in place and allocates nothing but the record.

``PyRound``, the readable reference ``Round``, keeps its position in a
``State``; the search bots search on it; the compiled kernel is tested
against it (tests/test_search_kernel.py). Legal moves come from the one
move generator, ``legality.legal_codes``.

>>> from passing_game import Round, Rules
>>> from passing_game.moves import code_to_move
>>> r = Round.new(Rules(players=2), seed=1)
>>> s = State.from_round(r)
>>> [code_to_move(c) for c in s.legal()] == r.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from passing_game.legality import legal_codes
from passing_game.moves import DRAW_CODE
from passing_game.outcome import ALL_PASS, BLOCK, DOMINO, GOING, REASON_CODES, RoundResult
from passing_game.rules import LOCKED_TILES, Rules
from passing_game.scoring import side_counts, winner_points
from passing_game.tiles import (
    BIT,
    HIGH,
    LOW,
    OTHER,
    PIPS,
    SUIT_MASKS,
    Tile,
    mask_of,
    mask_pips,
    tiles_of,
)

if TYPE_CHECKING:
    from passing_game.views import View


def blocked(hands: Sequence[int], left: int, right: int) -> bool:
    """R6.2: whether no hand fits either open end (once no draw is left)."""
    open_mask = SUIT_MASKS[left] | SUIT_MASKS[right]
    for hand in hands:  # noqa: SIM110 - a plain loop, on the playouts' path, is faster than all()
        if hand & open_mask:
            return False
    return True


class Position(Protocol):
    """What ``State.from_round`` reads: a ``Round`` (which this module cannot import)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]: ...
    @property
    def boneyard(self) -> tuple[Tile, ...]: ...
    @property
    def ends(self) -> tuple[int, int] | None: ...
    @property
    def to_move(self) -> int | None: ...
    @property
    def passes_in_row(self) -> int: ...
    @property
    def result(self) -> RoundResult | None: ...


class State:
    """One round with every tile known, as integers; see the module notes.

    ``hands[seat]`` is a mask, ``pips``/``sizes`` follow it, ``bone[bpos:]``
    is the boneyard (next draw first), ``reason`` is ``GOING`` until the
    round ends. ``apply`` pushes an undo record, ``undo`` pops it.
    """

    __slots__ = (
        "bone",
        "bpos",
        "draw_continue",
        "forced",
        "hands",
        "left",
        "pairwise",
        "partnerships",
        "passes",
        "pips",
        "players",
        "reason",
        "right",
        "sides",
        "sizes",
        "stack",
        "to_move",
    )

    players: int
    sides: int
    partnerships: bool
    pairwise: bool
    draw_continue: bool
    forced: bool
    hands: list[int]
    pips: list[int]
    sizes: list[int]
    bone: list[int]
    bpos: int
    left: int
    right: int
    to_move: int
    passes: int
    reason: int
    stack: list[tuple[int, int, int, int, int]]

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[int],
        bone: Sequence[int],
        ends: tuple[int, int] | None,
        to_move: int,
        passes: int = 0,
    ) -> None:
        self.players = rules.players
        self.sides = rules.sides
        self.partnerships = rules.partnerships
        self.pairwise = rules.scoring == "pairwise"
        self.draw_continue = rules.draw == "continue"
        self.forced = rules.passing == "forced"
        self.hands = list(hands)
        self.pips = [mask_pips(h) for h in self.hands]
        self.sizes = [h.bit_count() for h in self.hands]
        self.bone = list(bone)
        self.bpos = 0
        if ends is None:
            self.left = self.right = -1
        else:
            self.left, self.right = ends
        self.to_move = to_move
        self.passes = passes
        self.reason = GOING
        self.stack = []

    @classmethod
    def from_round(cls, rnd: Position) -> State:
        """The exact state of a round in progress (or over)."""
        state = cls(
            rnd.rules,
            [mask_of(h) for h in rnd.hands],
            [t.index for t in rnd.boneyard],
            rnd.ends,
            rnd.to_move if rnd.to_move is not None else 0,
            rnd.passes_in_row,
        )
        if rnd.result is not None:
            state.reason = REASON_CODES[rnd.result.reason]
        return state

    @classmethod
    def from_view(cls, view: View, others: Sequence[int], bone: Sequence[int]) -> State:
        """A full state from a view and a guess at the hidden tiles.

        ``others[seat]`` is the mask for each seat (the viewer's own entry is
        ignored and replaced by its real hand); ``bone`` the boneyard order.
        """
        hands = list(others)
        hands[view.seat] = mask_of(view.hand)
        to_move = view.to_move if view.to_move is not None else view.seat
        return cls(view.rules, hands, bone, view.ends, to_move, view.passes_in_row)

    def copy(self) -> State:
        """An independent copy (the undo stack starts empty)."""
        other = object.__new__(State)
        other.players = self.players
        other.sides = self.sides
        other.partnerships = self.partnerships
        other.pairwise = self.pairwise
        other.draw_continue = self.draw_continue
        other.forced = self.forced
        other.hands = self.hands[:]
        other.pips = self.pips[:]
        other.sizes = self.sizes[:]
        other.bone = self.bone
        other.bpos = self.bpos
        other.left = self.left
        other.right = self.right
        other.to_move = self.to_move
        other.passes = self.passes
        other.reason = self.reason
        other.stack = []
        return other

    # -- reading ------------------------------------------------------------

    @property
    def boneyard_size(self) -> int:
        return len(self.bone) - self.bpos

    @property
    def ends(self) -> tuple[int, int] | None:
        return None if self.left < 0 else (self.left, self.right)

    @property
    def is_over(self) -> bool:
        return self.reason != GOING

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def side_pips(self) -> tuple[int, ...]:
        return side_counts(self.pips, self.partnerships)

    # -- moves --------------------------------------------------------------

    def legal(self) -> list[int]:
        """Move codes in ``Round.legal_moves`` order: plays, draw, pass."""
        return legal_codes(
            self.hands[self.to_move],
            self.left,
            self.right,
            len(self.bone) - self.bpos,
            self.forced,
        )

    def apply(self, code: int) -> None:
        """Make a legal move (not checked) and remember how to undo it."""
        s = self.to_move
        self.stack.append((code, self.left, self.right, s, self.passes))
        if code < DRAW_CODE:
            t = code >> 1
            self.hands[s] ^= BIT[t]
            self.pips[s] -= PIPS[t]
            self.sizes[s] -= 1
            left = self.left
            if left < 0:
                self.left = LOW[t]
                self.right = HIGH[t]
            elif code & 1:
                self.right = OTHER[t * 7 + self.right]
            else:
                self.left = OTHER[t * 7 + left]
            self.passes = 0
            if self.sizes[s] == 0:
                self.reason = DOMINO
                return
            self.to_move = (s + 1) % self.players
            if len(self.bone) - self.bpos <= LOCKED_TILES:
                self._check_block()
        elif code == DRAW_CODE:
            t = self.bone[self.bpos]
            self.bpos += 1
            self.hands[s] |= BIT[t]
            self.pips[s] += PIPS[t]
            self.sizes[s] += 1
            self.passes = 0
            if not self.draw_continue:
                self.to_move = (s + 1) % self.players
            if len(self.bone) - self.bpos <= LOCKED_TILES and self.left >= 0:
                self._check_block()
        else:
            self.passes += 1
            if self.passes >= self.players:
                self.reason = ALL_PASS
                return
            self.to_move = (s + 1) % self.players

    def _check_block(self) -> None:
        if blocked(self.hands, self.left, self.right):
            self.reason = BLOCK

    def undo(self) -> None:
        """Take back the last ``apply``."""
        code, left, right, s, passes = self.stack.pop()
        self.reason = GOING
        self.left = left
        self.right = right
        self.to_move = s
        self.passes = passes
        if code < DRAW_CODE:
            t = code >> 1
            self.hands[s] |= BIT[t]
            self.pips[s] += PIPS[t]
            self.sizes[s] += 1
        elif code == DRAW_CODE:
            self.bpos -= 1
            t = self.bone[self.bpos]
            self.hands[s] ^= BIT[t]
            self.pips[s] -= PIPS[t]
            self.sizes[s] -= 1

    # -- scoring ------------------------------------------------------------

    def result(self) -> tuple[int | None, int, tuple[int, ...]]:
        """``(winner side or None, points, side pips)`` as ``scoring.score`` gives."""
        counts = self.side_pips()
        return (*winner_points(counts, self.pairwise), counts)

    def __repr__(self) -> str:
        hands = " / ".join(" ".join(map(str, tiles_of(h))) for h in self.hands)
        return (
            f"<State to_move={self.to_move} ends={self.ends} bone={self.boneyard_size} "
            f"passes={self.passes} reason={self.reason} hands: {hands}>"
        )
