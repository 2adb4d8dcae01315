"""Which moves a seat may make: one function shared by ``Round`` and ``View``.

It needs only what the mover can see (own hand, open ends, boneyard size),
so a view computes exactly the list the full state does.
"""

from __future__ import annotations

from collections.abc import Sequence

from passing_game.moves import DRAW, PASS, PLAYS_LEFT, PLAYS_RIGHT, Move, Play
from passing_game.rules import LOCKED_TILES, Rules
from passing_game.tiles import SUIT_MASKS, Tile


def can_draw(boneyard_size: int) -> bool:
    """R4.3 / R2.4: a draw needs more than the two locked tiles left."""
    return boneyard_size > LOCKED_TILES


def plays(hand: Sequence[Tile], ends: tuple[int, int] | None) -> list[Play]:
    """Every play from ``hand``, one entry per distinct outcome.

    On an empty train each tile is listed once, on the left; where both ends
    show the same number a fitting tile is listed once, on the left. A tile
    that fits two different ends is listed for each.
    """
    if ends is None:
        return [PLAYS_LEFT[t.index] for t in hand]
    left, right = ends
    out: list[Play] = []
    if left == right:
        for t in hand:
            if t.low == left or t.high == left:
                out.append(PLAYS_LEFT[t.index])
        return out
    for t in hand:
        if t.low == left or t.high == left:
            out.append(PLAYS_LEFT[t.index])
        if t.low == right or t.high == right:
            out.append(PLAYS_RIGHT[t.index])
    return out


def legal_moves(
    rules: Rules, hand: Sequence[Tile], ends: tuple[int, int] | None, boneyard_size: int
) -> list[Move]:
    """Plays, then ``Draw`` if allowed, then ``Pass`` if allowed (R4, D1, D2)."""
    moves: list[Move] = list(plays(hand, ends))
    if can_draw(boneyard_size):
        moves.append(DRAW)
    if rules.passing == "free" or not moves:
        moves.append(PASS)
    return moves


def fits(tile: Tile, ends: tuple[int, int] | None) -> bool:
    """Whether ``tile`` can be laid on the train at all."""
    if ends is None:
        return True
    return tile.has(ends[0]) or tile.has(ends[1])


_CACHE_LIMIT = 200_000
_plays_cache: dict[int, tuple[Play, ...]] = {}


def plays_of_mask(hand: int, ends: tuple[int, int] | None) -> tuple[Play, ...]:
    """``plays`` for a hand kept as a bit mask of tile indices (``Round``'s hot path).

    The result depends only on the hand's tiles that fit each end, so it is
    cached on those two masks.
    """
    if ends is None:
        key = hand | (1 << 63)
        left_fit, right_fit = hand, 0
    else:
        left, right = ends
        left_fit = hand & SUIT_MASKS[left]
        right_fit = 0 if left == right else hand & SUIT_MASKS[right]
        key = (left_fit << 28) | right_fit
    found = _plays_cache.get(key)
    if found is not None:
        return found
    out: list[Play] = []
    either = left_fit | right_fit
    while either:
        low = either & -either
        index = low.bit_length() - 1
        if left_fit & low:
            out.append(PLAYS_LEFT[index])
        if right_fit & low:
            out.append(PLAYS_RIGHT[index])
        either ^= low
    if len(_plays_cache) >= _CACHE_LIMIT:
        _plays_cache.clear()
    result = _plays_cache[key] = tuple(out)
    return result
