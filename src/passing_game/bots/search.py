"""A fast perfect-information model of one round, for the search bots.

``State`` is the rules engine's ``Round`` squeezed into integers: each hand is
a 28-bit mask over ``Tile.index``, the open ends are two numbers (``-1`` on an
empty train), the boneyard is a list of tile indices with a read position.
Moves are small integers (``code = tile_index * 2 + end`` for a play, end 0 on
the left and 1 on the right; ``DRAW_CODE`` and ``PASS_CODE``), so the hot
loops of a search allocate nothing but an undo record per move.

The model must agree with ``Round`` move for move: the same legal moves in the
same order, the same ends, the same block and all-pass endings and the same
scores (tests/test_search_kernel.py plays random rounds of every variant
through both and compares every step).

On top of the model sit the pieces the bots share:

* ``playout``: finishes a round with a quick default policy (heaviest
  playable tile; when it cannot play, pass if its side's count is the lowest,
  else draw; pass to end the round when everybody else has passed and its
  side is lowest), optionally with random plays mixed in; ``policy_move``
  is the same policy one move at a time;
* ``Searcher``: a depth-limited alpha-beta search (two sides, or "paranoid"
  one-against-the-rest with more sides) whose leaves are scored by a
  deterministic playout;
* ``utility``: what a finished round is worth to each side.

Speed, for scale: about 35,000 complete playouts a second with two players
and a million apply/undo steps a second on one core, against about 30,000
``Round.play`` calls a second for the rules engine. When the compiled kernel
is built the bots run their searches there instead (``bots.fast``); this
module is the fallback and the reference the kernel is tested against.

>>> from passing_game import Round, Rules
>>> r = Round.new(Rules(players=2), seed=1)
>>> s = State.from_round(r)
>>> [code_to_move(c) for c in s.legal()] == r.legal_moves()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from passing_game.moves import DRAW, PASS, Draw, Move, Pass, Play
from passing_game.rules import LOCKED_TILES, Rules
from passing_game.tiles import TILES, Tile

if TYPE_CHECKING:
    from passing_game.round import Round
    from passing_game.views import View

#: Move codes besides plays (plays are ``0 .. 55``).
DRAW_CODE = 56
PASS_CODE = 57

#: How a round ended, as stored in ``State.reason``.
GOING, DOMINO, BLOCK, ALL_PASS = 0, 1, 2, 3
REASONS = {DOMINO: "domino", BLOCK: "block", ALL_PASS: "all-pass"}

#: Per tile index: low half, high half, pips, bit.
LOW: tuple[int, ...] = tuple(t.low for t in TILES)
HIGH: tuple[int, ...] = tuple(t.high for t in TILES)
PIPS: tuple[int, ...] = tuple(t.pips for t in TILES)
BIT: tuple[int, ...] = tuple(1 << i for i in range(28))
DOUBLE: tuple[bool, ...] = tuple(t.is_double for t in TILES)
#: ``SUIT[n]``: mask of the tiles that show number ``n``.
SUIT: tuple[int, ...] = tuple(sum(1 << t.index for t in TILES if t.has(n)) for n in range(7))
#: ``OTHER[t * 7 + n]``: the half of tile ``t`` opposite ``n`` (``-1`` if it has no ``n``).
OTHER: tuple[int, ...] = tuple((t.other(n) if t.has(n) else -1) for t in TILES for n in range(7))
#: Whether the playout policy passes to end the round (D3) when every other
#: seat has passed and its side is lowest, even though it could play.
PASS_TO_END = True


def mask_of(tiles: Sequence[Tile] | frozenset[Tile]) -> int:
    """The bit mask of some tiles."""
    m = 0
    for t in tiles:
        m |= 1 << t.index
    return m


def bits(mask: int) -> list[int]:
    """Tile indices in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def tiles_of(mask: int) -> list[Tile]:
    return [TILES[i] for i in bits(mask)]


def mask_pips(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += PIPS[low.bit_length() - 1]
        mask ^= low
    return total


def move_to_code(move: Move) -> int:
    if isinstance(move, Play):
        return move.tile.index * 2 + (0 if move.end == "left" else 1)
    if isinstance(move, Draw):
        return DRAW_CODE
    if isinstance(move, Pass):
        return PASS_CODE
    raise ValueError(f"not a move: {move!r}")


_CODE_MOVES: tuple[Move, ...] = (
    *(Play(TILES[c >> 1], "right" if c & 1 else "left") for c in range(56)),
    DRAW,
    PASS,
)


def code_to_move(code: int) -> Move:
    return _CODE_MOVES[code]


# Lazily filled caches for the playout policy: for a mask of playable tiles,
# the heaviest tile (doubles first on equal pips) and the tile list.
_HEAVIEST: dict[int, int] = {}
_BITS: dict[int, tuple[int, ...]] = {}


def _heaviest(mask: int) -> int:
    best = -1
    key = -1
    for t in bits(mask):
        k = PIPS[t] * 2 + DOUBLE[t]
        if k > key:
            key = k
            best = t
    _HEAVIEST[mask] = best
    return best


def _bits_tuple(mask: int) -> tuple[int, ...]:
    out = tuple(bits(mask))
    _BITS[mask] = out
    return out


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
    def from_round(cls, rnd: Round) -> State:
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
            state.reason = {"domino": DOMINO, "block": BLOCK, "all-pass": ALL_PASS}[
                rnd.result.reason
            ]
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

    def side_pips(self) -> list[int]:
        p = self.pips
        if self.partnerships:
            return [p[0] + p[2], p[1] + p[3]]
        return p[:]

    # -- moves --------------------------------------------------------------

    def legal(self) -> list[int]:
        """Move codes in ``Round.legal_moves`` order: plays, draw, pass."""
        h = self.hands[self.to_move]
        out: list[int] = []
        left = self.left
        if left < 0:
            m = h
            while m:
                low = m & -m
                out.append((low.bit_length() - 1) << 1)
                m ^= low
        else:
            right = self.right
            ml = h & SUIT[left]
            if left == right:
                m = ml
                while m:
                    low = m & -m
                    out.append((low.bit_length() - 1) << 1)
                    m ^= low
            else:
                mr = h & SUIT[right]
                m = ml | mr
                while m:
                    low = m & -m
                    t2 = (low.bit_length() - 1) << 1
                    if ml & low:
                        out.append(t2)
                    if mr & low:
                        out.append(t2 + 1)
                    m ^= low
        if len(self.bone) - self.bpos > LOCKED_TILES:
            out.append(DRAW_CODE)
        if not self.forced or not out:
            out.append(PASS_CODE)
        return out

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
        open_mask = SUIT[self.left] | SUIT[self.right]
        for h in self.hands:
            if h & open_mask:
                return
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

    def result(self) -> tuple[int | None, int, list[int]]:
        """``(winner side or None, points, side pips)`` as ``scoring.score`` gives."""
        counts = self.side_pips()
        low = min(counts)
        if counts.count(low) > 1:
            return None, 0, counts
        winner = counts.index(low)
        if self.pairwise:
            points = sum(counts) - low * len(counts)
        else:
            points = sum(counts) - 2 * low
        return winner, points, counts

    def __repr__(self) -> str:
        hands = " / ".join(" ".join(map(str, tiles_of(h))) for h in self.hands)
        return (
            f"<State to_move={self.to_move} ends={self.ends} bone={self.boneyard_size} "
            f"passes={self.passes} reason={self.reason} hands: {hands}>"
        )


def utility(state: State, side: int, relative: bool = True) -> float:
    """What the finished round is worth to ``side``, in points.

    With two sides: its points minus the other side's (so ``pips_other -
    pips_own``, the zero-sum margin). With more sides and ``relative``: its
    points minus the mean of the others' points; otherwise its own points.
    """
    winner, points, counts = state.result()
    sides = len(counts)
    if sides == 2:
        return float(counts[1 - side] - counts[side])
    mine = points if winner == side else 0
    if not relative:
        return float(mine)
    others = points - mine if winner is not None else 0
    return mine - others / (sides - 1)


def utilities(state: State, relative: bool = True) -> list[float]:
    """``utility`` for every side."""
    winner, points, counts = state.result()
    sides = len(counts)
    if sides == 2:
        d = float(counts[1] - counts[0])
        return [d, -d]
    out = []
    for side in range(sides):
        mine = points if winner == side else 0
        if relative:
            others = points - mine if winner is not None else 0
            out.append(mine - others / (sides - 1))
        else:
            out.append(float(mine))
    return out


# -- the default policy ---------------------------------------------------------


def policy_move(state: State, rng: random.Random | None = None, eps: float = 0.0) -> int:
    """The playout policy's move (see ``playout``), without making it."""
    s = state.to_move
    h = state.hands[s]
    left = state.left
    if left < 0:
        ml = h
        mr = 0
    else:
        ml = h & SUIT[left]
        mr = h & SUIT[state.right] if state.right != left else 0
    m = ml | mr
    if (
        m
        and PASS_TO_END
        and state.passes == state.players - 1
        and not state.forced
        and _lowest(state, s)
    ):
        return PASS_CODE
    if m:
        if rng is not None and eps > 0.0 and rng.random() < eps:
            tiles = _BITS.get(m) or _bits_tuple(m)
            t = tiles[int(rng.random() * len(tiles))]
        else:
            t = _HEAVIEST.get(m, -1)
            if t < 0:
                t = _heaviest(m)
        if ml >> t & 1:
            return t << 1
        return (t << 1) | 1
    if len(state.bone) - state.bpos > LOCKED_TILES and (state.forced or not _lowest(state, s)):
        return DRAW_CODE
    return PASS_CODE


def _lowest(state: State, seat: int) -> bool:
    """Whether ``seat``'s side has strictly the lowest count now."""
    return _side_lowest(state.pips, seat, state.players, state.partnerships)


def _side_lowest(pips: list[int], seat: int, players: int, partnerships: bool) -> bool:
    """Whether ``seat``'s side has strictly the lowest count in ``pips`` (R7.2, D6)."""
    if partnerships:
        return pips[seat] + pips[(seat + 2) % 4] < pips[(seat + 1) % 4] + pips[(seat + 3) % 4]
    mine = pips[seat]
    return all(not (i != seat and pips[i] <= mine) for i in range(players))


def playout(state: State, rng: random.Random | None = None, eps: float = 0.0) -> None:
    """Play ``state`` to the end with the default policy (no undo records).

    The policy lays its heaviest playable tile (doubles first on equal pips;
    with probability ``eps`` a random playable tile instead), except that
    when every other seat has passed since the last play or draw and its
    side's count is strictly the lowest it passes, ending the round (D3).
    When it cannot play it passes if its side's count is strictly the
    lowest, else draws if it may, else passes. Under forced passing it never
    passes while it can play or draw. The state is changed in place; copy it
    first to keep it.
    """
    hands = state.hands
    pips = state.pips
    sizes = state.sizes
    bone = state.bone
    bpos = state.bpos
    nb = len(bone)
    players = state.players
    partnerships = state.partnerships
    draw_continue = state.draw_continue
    forced = state.forced
    left = state.left
    right = state.right
    s = state.to_move
    passes = state.passes
    reason = state.reason
    rand = rng.random if rng is not None and eps > 0.0 else None
    heaviest = _HEAVIEST
    end_pass = PASS_TO_END and not forced
    while reason == GOING:
        h = hands[s]
        if left < 0:
            ml = h
            mr = 0
        else:
            ml = h & SUIT[left]
            mr = h & SUIT[right] if right != left else 0
        m = ml | mr
        # everybody else passed: end the round if this side is lowest (D3)
        if (
            m
            and passes == players - 1
            and end_pass
            and _side_lowest(pips, s, players, partnerships)
        ):
            passes += 1
            reason = ALL_PASS
            break
        if m:
            if rand is not None and rand() < eps:
                tiles = _BITS.get(m) or _bits_tuple(m)
                t = tiles[int(rand() * len(tiles))]
            else:
                t = heaviest.get(m, -1)
                if t < 0:
                    t = _heaviest(m)
            hands[s] = h ^ BIT[t]
            pips[s] -= PIPS[t]
            sizes[s] -= 1
            if left < 0:
                left = LOW[t]
                right = HIGH[t]
            elif ml >> t & 1:
                left = OTHER[t * 7 + left]
            else:
                right = OTHER[t * 7 + right]
            passes = 0
            if sizes[s] == 0:
                reason = DOMINO
                break
            s = (s + 1) % players
            if nb - bpos <= LOCKED_TILES:
                open_mask = SUIT[left] | SUIT[right]
                for hh in hands:
                    if hh & open_mask:
                        break
                else:
                    reason = BLOCK
            continue
        # cannot play: pass when lowest, else draw when allowed
        lowest = _side_lowest(pips, s, players, partnerships)
        can_draw = nb - bpos > LOCKED_TILES
        if can_draw and (forced or not lowest):
            t = bone[bpos]
            bpos += 1
            hands[s] = h | BIT[t]
            pips[s] += PIPS[t]
            sizes[s] += 1
            passes = 0
            if not draw_continue:
                s = (s + 1) % players
            if nb - bpos <= LOCKED_TILES and left >= 0:
                open_mask = SUIT[left] | SUIT[right]
                for hh in hands:
                    if hh & open_mask:
                        break
                else:
                    reason = BLOCK
            continue
        passes += 1
        if passes >= players:
            reason = ALL_PASS
            break
        s = (s + 1) % players
    state.bpos = bpos
    state.left = left
    state.right = right
    state.to_move = s
    state.passes = passes
    state.reason = reason


def playout_value(
    state: State,
    side: int,
    rng: random.Random | None = None,
    eps: float = 0.0,
    relative: bool = True,
) -> float:
    """``utility`` for ``side`` after a playout from a copy of ``state``."""
    if state.reason != GOING:
        return utility(state, side, relative)
    sim = state.copy()
    playout(sim, rng, eps)
    return utility(sim, side, relative)


# -- alpha-beta -----------------------------------------------------------------


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
