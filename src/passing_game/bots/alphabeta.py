"""Depth-limited alpha-beta search on a ``State``, the pure-Python search.

Two sides search exact minimax; with more sides it is "paranoid" (the
searching side against the rest). Leaves at the depth limit are valued by a
deterministic playout of ``policy``. ``pimc`` searches each guessed deal
with it, unless the compiled kernel runs its depth-one search (``bots.fast``).
"""

from __future__ import annotations

from collections.abc import Sequence

from passing_game.bots.policy import playout_value
from passing_game.bots.utility import utility
from passing_game.moves import DRAW_CODE
from passing_game.outcome import GOING
from passing_game.state import State
from passing_game.tiles import PIPS


class Searcher:
    """Depth-limited alpha-beta on a ``State`` for the side ``side``.

    The searching side maximizes its ``utility``; every other side is taken
    to minimize it ("paranoid" search, exact minimax with two sides). Leaves
    at the depth limit are valued by a deterministic playout. Moves are tried
    in a good order (heavy plays first, then draw, then pass) for cutoffs.
    ``nodes`` counts the states visited.
    """

    def __init__(self, side: int, depth: int = 3, relative: bool = True) -> None:
        self.side = side
        self.depth = depth
        self.relative = relative
        self.nodes = 0

    def root_values(self, state: State, moves: Sequence[int] | None = None) -> dict[int, float]:
        """The exact search value of each root move (no cutoffs between them)."""
        values: dict[int, float] = {}
        for code in state.legal() if moves is None else moves:
            state.apply(code)
            values[code] = self.value(state, self.depth - 1, -1e9, 1e9)
            state.undo()
        return values

    def value(self, state: State, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if state.reason != GOING:
            return utility(state, self.side, self.relative)
        if depth <= 0:
            return playout_value(state, self.side, None, 0.0, self.relative)
        moves = state.legal()
        if len(moves) > 1:
            moves.sort(key=_order_key, reverse=True)
        maximizing = state.side_of(state.to_move) == self.side
        if maximizing:
            best = -1e9
            for code in moves:
                state.apply(code)
                v = self.value(state, depth - 1, alpha, beta)
                state.undo()
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            return best
        best = 1e9
        for code in moves:
            state.apply(code)
            v = self.value(state, depth - 1, alpha, beta)
            state.undo()
            if v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best


def _order_key(code: int) -> int:
    if code < DRAW_CODE:
        return 100 + PIPS[code >> 1]
    return 1 if code == DRAW_CODE else 0
