"""What each move is worth to a seat that sees only its own view.

A view puzzle values each legal move over *every* deal of the tiles the
seat has not seen (R9) to the other hands and the boneyard that agrees with
everything the view shows, each deal equally likely, each solved with open
hands by ``solver.Solver``. Enumerating them all (not sampling) is what
makes the answer a proof; the generator picks positions late enough that
there are at most a few thousand.

Two details keep the count small and exact:

- the two locked tiles at the bottom of the boneyard are never drawn
  (R2.4), so their order changes nothing: a deal here is a set of two locked
  tiles, every deal standing for its two orders, the same weight for all;
- a deal must agree with the history. With free passing (D2) any hidden
  hands agree with the moves made, but not with the round still going: from
  the moment no tile can be drawn, after every move the round would have
  ended had no hand fitted an open end (R6.2). Then no tile can be drawn
  either, so each seat's hand back then was its hand now plus the tiles it
  has laid since, and each such moment is checked with ``state.blocked``.
  With forced passing a pass also says the passer could not play
  (``legality.legal_codes``); that is checked the same way.

>>> from passing_game import Round, Rules
>>> r = Round.new(Rules(players=4, partnerships=True), seed=3)
>>> count_deals(r.view(r.to_move)) == factorial(22) // (factorial(6) ** 3 * factorial(2))
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations, permutations
from math import factorial

from passing_game.legality import legal_codes
from passing_game.moves import PASS_CODE, Draw, Pass, Play
from passing_game.puzzles.solver import Solver
from passing_game.rules import LOCKED_TILES
from passing_game.state import State, blocked
from passing_game.tiles import BIT, ends_after, mask_of
from passing_game.views import View


@dataclass(frozen=True)
class Check:
    """One moment the history says something about the hidden hands.

    At that moment the open ends were ``ends``; each seat held its hand of
    now plus ``laid_since[seat]`` (a mask). The round went on, so some hand
    fitted an end (R6.2); with ``passer`` set, that seat passed there and,
    with forced passing (D2), had no other move.
    """

    ends: tuple[int, int]
    boneyard_size: int
    laid_since: tuple[int, ...]
    passer: int | None


@dataclass(frozen=True)
class ViewValues:
    """Each move's value summed over the consistent deals, and where it was best.

    ``totals[code]`` is an exact integer; the mean is ``totals[code] / deals``.
    ``best_everywhere`` holds the moves that were best in every single deal.
    """

    totals: dict[int, int]
    deals: int
    best_everywhere: frozenset[int]

    def mean(self, code: int) -> float:
        return self.totals[code] / self.deals


def checks(view: View) -> list[Check]:
    """The moments of ``view.history`` that constrain the hidden hands (see above)."""
    players = view.rules.players
    boneyard = view.rules.boneyard_size
    ends: tuple[int, int] | None = None
    moments: list[tuple[tuple[int, int] | None, int, int, int | None]] = []
    plays: list[tuple[int, int, int]] = []  # (turn index, seat, tile bit) of each play
    for i, turn in enumerate(view.history):
        passer = turn.seat if isinstance(turn.move, Pass) else None
        moments.append((ends, boneyard, i, passer))
        move = turn.move
        if isinstance(move, Play):
            placed = turn.placed
            assert placed is not None
            ends = ends_after(ends, placed, move.end)
            plays.append((i, turn.seat, BIT[move.tile.index]))
        elif isinstance(move, Draw):
            boneyard -= 1
    moments.append((ends, boneyard, len(view.history), None))
    found: list[Check] = []
    for at_ends, size, index, passer in moments:
        if at_ends is None or size > LOCKED_TILES:
            continue
        since = [0] * players
        for i, seat, bit in plays:
            if i >= index:
                since[seat] |= bit
        found.append(Check(at_ends, size, tuple(since), passer))
    return found


def consistent(hands: list[int], found: list[Check], forced: bool) -> bool:
    """Whether hidden ``hands`` (one mask per seat, now) agree with every check."""
    for check in found:
        then = [hand | since for hand, since in zip(hands, check.laid_since, strict=True)]
        left, right = check.ends
        if blocked(then, left, right):
            return False
        if forced and check.passer is not None:
            codes = legal_codes(then[check.passer], left, right, check.boneyard_size, True)
            if codes != [PASS_CODE]:
                return False
    return True


def count_deals(view: View) -> int:
    """How many deals ``deals`` walks through before the checks (see above)."""
    unseen = len(view.unseen)
    count = factorial(unseen) // factorial(LOCKED_TILES)
    for seat, size in enumerate(view.hand_sizes):
        if seat != view.seat:
            count //= factorial(size)
    return count


def _hidden(view: View) -> tuple[list[int], list[int]]:
    unseen = sorted(t.index for t in view.unseen)
    seats = [seat for seat in range(view.rules.players) if seat != view.seat]
    return unseen, seats


def deals(view: View, rng: random.Random | None = None) -> Iterator[State]:
    """Every deal of the unseen tiles consistent with ``view``, as a full ``State``."""
    for block in _blocks(view, rng):
        yield from block


def _blocks(view: View, rng: random.Random | None) -> Iterator[list[State]]:
    """The consistent deals, one list for each order of the boneyard.

    Boneyard orders come first, hands inside them, so deals that share what
    is still to be drawn follow each other (and share the solver's table).
    With ``rng`` the orders come shuffled (the same deals, another order),
    so that the sums over the first blocks already say something.
    """
    unseen, seats = _hidden(view)
    drawable = view.boneyard_size - LOCKED_TILES
    found = checks(view)
    forced = view.rules.passing == "forced"
    sizes = [view.hand_sizes[seat] for seat in seats]
    own = mask_of(view.hand)
    orders = list(permutations(unseen, drawable))
    if rng is not None:
        rng.shuffle(orders)
    for order in orders:
        rest = [t for t in unseen if t not in order]
        lockings = list(combinations(rest, LOCKED_TILES))
        if rng is not None:
            rng.shuffle(lockings)
        for locked in lockings:
            left = [t for t in rest if t not in locked]
            bone = [*order, *locked]
            block = []
            for split in _splits(left, sizes):
                hands = [own] * view.rules.players
                for seat, mask in zip(seats, split, strict=True):
                    hands[seat] = mask
                if consistent(hands, found, forced):
                    block.append(State.from_view(view, hands, bone))
            yield block


def _splits(tiles: list[int], sizes: list[int]) -> Iterator[list[int]]:
    """Every way to deal ``tiles`` into hands of ``sizes``, as masks."""
    if len(sizes) == 1:
        yield [mask_of_indices(tiles)]
        return
    for chosen in combinations(tiles, sizes[0]):
        rest = [t for t in tiles if t not in chosen]
        for more in _splits(rest, sizes[1:]):
            yield [mask_of_indices(chosen), *more]


def mask_of_indices(indices: tuple[int, ...] | list[int]) -> int:
    mask = 0
    for t in indices:
        mask |= BIT[t]
    return mask


def view_values(
    view: View,
    solver: Solver | None = None,
    rng: random.Random | None = None,
    keep_going: Callable[[dict[int, int], int], bool] | None = None,
) -> ViewValues | None:
    """Each legal move of ``view`` valued over every consistent deal (see above).

    The deals' order (``rng``) changes nothing in the result. ``keep_going``
    is asked, after each block of deals, with the totals so far and their
    count; when it says no, the valuation stops and returns ``None`` (the
    generator gives up early on positions that cannot qualify).
    """
    if view.to_move != view.seat:
        raise ValueError(f"it is not seat {view.seat}'s turn")
    solver = solver or Solver()
    codes: list[int] | None = None
    totals: dict[int, int] = {}
    everywhere: set[int] = set()
    count = 0
    for block in _blocks(view, rng):
        for state in block:
            if codes is None:
                codes = state.legal()
                totals = dict.fromkeys(codes, 0)
                everywhere = set(codes)
            found = solver.values(state, codes)
            best = max(found.values())
            for code, value in found.items():
                totals[code] += value
                if value != best:
                    everywhere.discard(code)
            count += 1
        if keep_going is not None and count and not keep_going(totals, count):
            return None
    if count == 0:
        raise ValueError("no deal of the unseen tiles agrees with the view")
    return ViewValues(totals, count, frozenset(everywhere))
