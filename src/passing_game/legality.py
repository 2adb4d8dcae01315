"""Which moves a seat may make: the one move generator (R4, D1, D2).

It needs only what the mover can see (own hand as a bit mask, open ends,
boneyard size), so a ``View`` computes exactly the list the full ``Round``
does, and the search's ``State`` the same list as move codes.

The list has one entry per distinct outcome: on an empty train every tile is
listed once, on the left, and where both ends show the same number a fitting
tile is listed once, on the left. There the list is an ``EitherEnd``, which
keeps that order and length and still answers ``in`` completely: such a play
is legal on the right too.

>>> from passing_game.tiles import Tile, mask_of
>>> hand = mask_of([Tile(3, 5), Tile(0, 0)])
>>> moves = legal_moves(hand, (3, 3), boneyard_size=4, forced=False)
>>> [str(m) for m in moves], Play(Tile(3, 5), "right") in moves
(['L3-5', 'draw', 'pass'], True)
"""

from __future__ import annotations

from passing_game.moves import CODE_MOVES, DRAW_CODE, PASS_CODE, PLAYS_LEFT, Move, Play
from passing_game.rules import LOCKED_TILES
from passing_game.tiles import SUIT_MASKS


def can_draw(boneyard_size: int) -> bool:
    """R4.3 / R2.4: a draw needs more than the two locked tiles left."""
    return boneyard_size > LOCKED_TILES


_CACHE_LIMIT = 200_000
_plays_cache: dict[int, tuple[int, ...]] = {}


def play_codes(hand: int, left: int, right: int) -> tuple[int, ...]:
    """The codes of every play from ``hand`` onto ends ``left`` and ``right``.

    ``left`` is ``-1`` on an empty train. Plays come by tile index, a tile
    fitting both (different) ends on the left first. The result depends only
    on the hand's tiles that fit each end, so it is cached on those masks.
    """
    if left < 0:
        left_fit, right_fit = hand, 0
        key = hand | 1 << 56
    else:
        left_fit = hand & SUIT_MASKS[left]
        right_fit = 0 if left == right else hand & SUIT_MASKS[right]
        key = left_fit << 28 | right_fit
    found = _plays_cache.get(key)
    if found is not None:
        return found
    out: list[int] = []
    either = left_fit | right_fit
    while either:
        low = either & -either
        code = (low.bit_length() - 1) * 2
        if left_fit & low:
            out.append(code)
        if right_fit & low:
            out.append(code + 1)
        either ^= low
    if len(_plays_cache) >= _CACHE_LIMIT:
        _plays_cache.clear()
    result = _plays_cache[key] = tuple(out)
    return result


def legal_codes(hand: int, left: int, right: int, boneyard_size: int, forced: bool) -> list[int]:
    """Plays, then draw if allowed (R4.3), then pass if allowed (D1, D2), as codes."""
    codes = list(play_codes(hand, left, right))
    if boneyard_size > LOCKED_TILES:
        codes.append(DRAW_CODE)
    if not forced or not codes:
        codes.append(PASS_CODE)
    return codes


def allows(codes: list[int], code: int, left: int, right: int) -> bool:
    """Whether ``code`` is legal, given the ``legal_codes`` of the position.

    A play on the right where it has the outcome of the left one (an empty
    train, both ends alike: ``left == right``) is listed on the left only,
    yet legal (P2); this is the codes' form of ``EitherEnd``'s ``in``.
    """
    if code in codes:
        return True
    return code < DRAW_CODE and code & 1 == 1 and left == right and code - 1 in codes


class EitherEnd(list[Move]):
    """Legal moves where a play has the same outcome on either end.

    On an empty train, or where both ends show one number, a play is listed
    on the left only; ``in`` accepts it on the right too, as ``play`` does.
    (Where the ends differ every legal play is listed, and a plain ``list``
    answers ``in`` completely.)
    """

    __slots__ = ()

    def __contains__(self, move: object) -> bool:
        if list.__contains__(self, move):
            return True
        return (
            isinstance(move, Play)
            and move.end == "right"
            and list.__contains__(self, PLAYS_LEFT[move.tile.index])
        )


def legal_moves(
    hand: int, ends: tuple[int, int] | None, boneyard_size: int, forced: bool
) -> list[Move]:
    """``legal_codes`` as moves, for ``Round.legal_moves`` and ``View.legal_moves``.

    ``move in`` the list is a complete legality check (an ``EitherEnd`` where
    a play fits either end alike).
    """
    left, right = (-1, -1) if ends is None else ends
    moves = map(CODE_MOVES.__getitem__, legal_codes(hand, left, right, boneyard_size, forced))
    return EitherEnd(moves) if left == right else list(moves)
