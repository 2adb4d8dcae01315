"""The exact value of a round with every tile known: alpha-beta to the round's end.

A puzzle's answer has to be proved, not estimated, so this searches every
line of play to the end of the round (R6.1, R6.2 and D3 bound every round)
on the engine's own ``State.apply`` / ``undo``. It plays only games of two
sides (two players, or four in partnerships, D6), where the round is
zero-sum and a perfect-information search is exact minimax.

A value is what the puzzle file calls it: the points of this round for the
side to move: its points if it wins, minus the other side's if they win,
0 on a tie (R7, D4, D6, D11), read from the engine's ``State.result``.

Speed comes from a transposition table keyed on the whole position (every
hand, the boneyard's read position, the open ends taken as an unordered
pair, the seat to move and the passes in a row), its best move tried first,
the pass that ends the round (D3) valued before anything else, and
null-window searches after the first move (principal variation search).

Seat 0 holds only ``6-6`` and leads: playing it wins the round by a
domino (R6.1) and scores seat 1's one pip.

>>> from passing_game import Round, Rules
>>> from passing_game.moves import move_to_code, parse_move
>>> rest = [t for t in TILES if t not in (Tile(6, 6), Tile(0, 1))]
>>> r = Round.from_deal(Rules(players=2, hand_size=1), [["6-6"], ["0-1"]], rest, 0)
>>> Solver().values(State.from_round(r), [move_to_code(parse_move("L6-6"))])
{54: 1}
"""

from __future__ import annotations

from collections.abc import Iterable

from passing_game.moves import DRAW_CODE, PASS_CODE
from passing_game.outcome import GOING
from passing_game.rules import LOCKED_TILES
from passing_game.state import State
from passing_game.tiles import PIPS, TILES, Tile  # noqa: F401 - Tile, TILES: the doctest

#: Larger than any round's points (the whole set holds 168 pips, R1.3).
INFINITY = 1_000

#: Move ordering: plays heaviest first, then the draw, then the pass.
_ORDER = [100 + PIPS[code >> 1] for code in range(DRAW_CODE)] + [1, 0]


class SearchLimit(Exception):
    """The search stopped early: it reached its limit of positions, or its caller gave up."""


def round_points(state: State, side: int) -> int:
    """A finished round's points for ``side``: won, minus the other side's, 0 on a tie."""
    winner, points, _counts = state.result()
    if winner is None:
        return 0
    return points if winner == side else -points


class Solver:
    """Exact minimax values of two-sided rounds with every tile known.

    One solver keeps its transposition table between calls while the
    positions share their future: the same rules and the same tiles still
    to be drawn, in the same order (the rest of one boneyard). A position
    with another boneyard clears the table first. ``max_nodes`` bounds the
    positions one call may visit (``SearchLimit``), so a caller can skip
    positions too large to solve in a fixed budget, deterministically.
    """

    def __init__(self, max_nodes: int | None = None, table_size: int = 1_500_000) -> None:
        self.max_nodes = max_nodes
        self.table_size = table_size
        self.nodes = 0
        #: ``nodes`` may not pass this, over any number of calls (``budget``).
        self.cap: int | None = None
        self._limit = 0
        self._table: dict[int, tuple[int, int, int]] = {}
        self._future: tuple[int, ...] | None = None
        self._variant: tuple[int, bool, bool, bool] | None = None
        self._state: State | None = None
        self._sides: tuple[int, ...] = ()
        self._last = 0

    # -- the public calls -----------------------------------------------------

    def budget(self, nodes: int | None) -> None:
        """Allow the calls from now on ``nodes`` positions in all (``None``: no limit)."""
        self.cap = None if nodes is None else self.nodes + nodes

    def values(self, state: State, moves: Iterable[int] | None = None) -> dict[int, int]:
        """The exact value of each legal move (or of ``moves``) for the side to move.

        ``state`` must be a round in progress; it is left as it was.
        """
        self._start(state)
        return {code: self._child(code) for code in (state.legal() if moves is None else moves)}

    def value(self, state: State) -> int:
        """The exact value of the position for the side to move."""
        self._start(state)
        return self._value(-INFINITY, INFINITY)

    def line(self, state: State, first: int) -> list[int]:
        """``first``, then the moves of perfect play to the round's end.

        At each turn the first best move in the engine's order (``State.legal``)
        is taken, so the line is a fixed function of the position.
        """
        moves = [first]
        state.apply(first)
        try:
            while state.reason == GOING:
                found = self.values(state)
                best = max(found.values())
                code = next(c for c, v in found.items() if v == best)
                moves.append(code)
                state.apply(code)
        finally:
            for _ in moves:
                state.undo()
        return moves

    # -- the search -----------------------------------------------------------

    def _start(self, state: State) -> None:
        if state.sides != 2:
            raise ValueError(
                f"the solver plays games of two sides (two players, or four in "
                f"partnerships), got {state.players} players"
            )
        if state.reason != GOING:
            raise ValueError("the round is over: no move to value")
        variant = (state.players, state.partnerships, state.draw_continue, state.forced)
        future = tuple(state.bone[state.bpos : len(state.bone) - LOCKED_TILES])
        if variant != self._variant or self._future is None:
            self._table.clear()
            self._future = future
        elif self._future[len(self._future) - len(future) :] == future:
            pass  # a later point of the same boneyard
        elif future[len(future) - len(self._future) :] == self._future:
            self._future = future  # an earlier point: the table's positions are its future
        else:
            self._table.clear()
            self._future = future
        self._variant = variant
        self._state = state
        self._sides = tuple(state.side_of(seat) for seat in range(state.players))
        self._last = state.players - 1
        limits = [self.nodes + self.max_nodes] if self.max_nodes is not None else []
        if self.cap is not None:
            limits.append(max(self.cap, self.nodes + 1))
        self._limit = min(limits) if limits else -1

    def _child(self, code: int) -> int:
        """The value of ``code`` for the side that makes it (full window)."""
        state = self._state
        assert state is not None
        me = self._sides[state.to_move]
        state.apply(code)
        try:
            if state.reason != GOING:
                return round_points(state, me)
            if self._sides[state.to_move] == me:
                return self._value(-INFINITY, INFINITY)
            return -self._value(-INFINITY, INFINITY)
        finally:
            state.undo()

    def _value(self, alpha: int, beta: int) -> int:
        """Negamax with a transposition table: the value for the side to move.

        Fail-soft: a result at or below ``alpha`` is an upper bound, one at or
        above ``beta`` a lower bound, anything between exact.
        """
        self.nodes += 1
        if self.nodes == self._limit:
            raise SearchLimit(f"the search's limit of positions ({self._limit}) is reached")
        s = self._state
        assert s is not None
        left, right = s.left, s.right
        flip = left > right
        if flip:
            left, right = right, left
        key = (
            (len(s.bone) - s.bpos)
            | (left + 1) << 5
            | (right + 1) << 8
            | s.to_move << 11
            | s.passes << 13
        )
        shift = 16
        for hand in s.hands:
            key |= hand << shift
            shift += 28
        table = self._table
        entry = table.get(key)
        hint = -1
        if entry is not None:
            low, high, hint = entry
            if low == high or low >= beta:
                return low
            if high <= alpha:
                return high
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
            if flip and hint < DRAW_CODE:
                hint ^= 1
        else:
            low, high = -INFINITY, INFINITY
        alpha0, beta0 = alpha, beta
        sides = self._sides
        me = sides[s.to_move]
        moves = s.legal()
        best = -INFINITY
        best_move = moves[0]
        if s.passes == self._last and moves[-1] == PASS_CODE:
            # D3: this pass ends the round, so its value is known at once.
            moves.pop()
            best = round_points(s, me)
            best_move = PASS_CODE
            if best > alpha:
                alpha = best
            if alpha >= beta or not moves:
                self._store(key, best, alpha0, beta0, low, high, best_move, flip)
                return best
        moves.sort(key=_ORDER.__getitem__, reverse=True)
        if hint >= 0 and moves[0] != hint and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        searched = False
        value = self._value
        for code in moves:
            s.apply(code)
            if s.reason != GOING:
                v = round_points(s, me)
            elif sides[s.to_move] == me:
                if searched:
                    v = value(alpha, alpha + 1)
                    if alpha < v < beta:
                        v = value(v, beta)
                else:
                    v = value(alpha, beta)
            elif searched:
                v = -value(-alpha - 1, -alpha)
                if alpha < v < beta:
                    v = -value(-beta, -v)
            else:
                v = -value(-beta, -alpha)
            s.undo()
            if v > best:
                best = v
                best_move = code
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
            searched = True
        self._store(key, best, alpha0, beta0, low, high, best_move, flip)
        return best

    def _store(
        self,
        key: int,
        best: int,
        alpha: int,
        beta: int,
        low: int,
        high: int,
        move: int,
        flip: bool,
    ) -> None:
        """Remember what the search proved about this position: a bound or the value."""
        if best <= alpha:
            high = best
        elif best >= beta:
            low = best
        else:
            low = high = best
        if len(self._table) >= self.table_size:
            self._table.clear()
        self._table[key] = (low, high, move ^ 1 if flip and move < DRAW_CODE else move)
