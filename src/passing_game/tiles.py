"""Domino tiles of the double-six set (R1.3).

Tiles are interned: there are exactly 28 ``Tile`` objects, so equality is
identity, hashing is cheap and a tile can be used as a dict key or set member.

>>> Tile(5, 3) == Tile(3, 5)
True
>>> Tile(3, 5).pips, Tile(4, 4).is_double
(8, True)
>>> str(Tile(5, 3)), Tile.parse("5-3")
('3-5', Tile(3, 5))
>>> len(TILES), sum(t.pips for t in TILES)
(28, 168)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, ClassVar, NamedTuple

from passing_game.errors import ParseError
from passing_game.i18n import _

MAX_PIP = 6

_TILE_TEXT = re.compile(r"^\s*\[?\s*([0-6])\s*[-|:/ ]\s*([0-6])\s*\]?\s*$")


class Tile:
    """One domino, ``low`` <= ``high``; ``Tile(a, b)`` accepts either order."""

    __slots__ = ("high", "index", "low")
    _table: ClassVar[dict[tuple[int, int], Tile]] = {}
    low: int
    high: int
    index: int

    def __new__(cls, a: int, b: int) -> Tile:
        if type(a) is int and type(b) is int:
            tile = cls._table.get((a, b))
            if tile is not None:
                return tile
        if (
            not (isinstance(a, int) and isinstance(b, int))
            or isinstance(a, bool)
            or isinstance(b, bool)
        ):
            raise ValueError(f"tile halves must be integers 0..{MAX_PIP}, got {a!r} and {b!r}")
        raise ValueError(f"tile halves must be 0..{MAX_PIP}, got {a} and {b}")

    @classmethod
    def _build_table(cls) -> None:
        index = 0
        for low in range(MAX_PIP + 1):
            for high in range(low, MAX_PIP + 1):
                tile = object.__new__(cls)
                object.__setattr__(tile, "low", low)
                object.__setattr__(tile, "high", high)
                object.__setattr__(tile, "index", index)
                cls._table[(low, high)] = tile
                cls._table[(high, low)] = tile
                index += 1

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Tile is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.low, self.high))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: object) -> Tile:
        return self

    @property
    def pips(self) -> int:
        """The tile's pip value, ``a + b`` (R1.3)."""
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    def has(self, number: int) -> bool:
        """Whether either half shows ``number``."""
        return self.low == number or self.high == number

    def other(self, number: int) -> int:
        """The half opposite the one showing ``number`` (which it must show)."""
        if self.low == number:
            return self.high
        if self.high == number:
            return self.low
        raise ValueError(f"{self} has no {number}")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read ``"3-5"`` (also ``"5-3"``, ``"[3|5]"``, ``"3|5"``).

        >>> Tile.parse("[6|2]")
        Tile(2, 6)
        """
        if not isinstance(text, str):
            raise ParseError(_("a tile is written like 3-5, got “{text}”").format(text=text))
        match = _TILE_TEXT.match(text)
        if match is None:
            raise ParseError(
                _("a tile is written like 3-5 (two numbers 0-6), got “{text}”").format(text=text)
            )
        return cls(int(match.group(1)), int(match.group(2)))

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Tile({self.low}, {self.high})"

    def __lt__(self, other: Tile) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other


Tile._build_table()

#: The 28 tiles of the double-six set, in a fixed order (0-0, 0-1, ..., 6-6).
TILES: tuple[Tile, ...] = tuple(sorted({t for t in Tile._table.values()}))


# Per-tile tables by ``Tile.index``, for code that keeps tiles as indices and
# hands as bit masks (rounds, the search's ``State``, the bots).

#: The low half, the high half and the pips of each tile.
LOW: tuple[int, ...] = tuple(t.low for t in TILES)
HIGH: tuple[int, ...] = tuple(t.high for t in TILES)
PIPS: tuple[int, ...] = tuple(t.pips for t in TILES)
#: Each tile's bit in a hand mask, and whether it is a double.
BIT: tuple[int, ...] = tuple(1 << t.index for t in TILES)
DOUBLE: tuple[bool, ...] = tuple(t.is_double for t in TILES)
#: ``SUIT_MASKS[n]``: the set of tiles showing ``n``, as a bit mask of indices.
SUIT_MASKS: tuple[int, ...] = tuple(
    sum(1 << t.index for t in TILES if t.has(n)) for n in range(MAX_PIP + 1)
)
#: ``OTHER[index * 7 + n]``: the half of a tile opposite ``n`` (``-1`` if it has no ``n``).
OTHER: tuple[int, ...] = tuple(
    (t.other(n) if t.has(n) else -1) for t in TILES for n in range(MAX_PIP + 1)
)


#: The smallest set the rules allow (double-two; issue 28's mini variants).
MIN_PIP = 2


def set_tiles(max_pip: int = MAX_PIP) -> tuple[Tile, ...]:
    """The tiles of the double-``max_pip`` set, in ``TILES`` order.

    A smaller set keeps every tile's index in the double-six set, so move
    codes, hand masks and notation mean the same in every variant.

    >>> [str(t) for t in set_tiles(2)]
    ['0-0', '0-1', '0-2', '1-1', '1-2', '2-2']
    >>> len(set_tiles(3)), len(set_tiles(6)) == len(TILES)
    (10, True)
    """
    return _SETS[max_pip] if max_pip in _SETS else tuple(t for t in TILES if t.high <= max_pip)


_SETS = {top: tuple(t for t in TILES if t.high <= top) for top in range(MIN_PIP, MAX_PIP + 1)}
#: ``SET_MASKS[max_pip]``: the double-``max_pip`` set as a bit mask of indices.
SET_MASKS: dict[int, int] = {top: sum(1 << t.index for t in _SETS[top]) for top in _SETS}


def mask_of(tiles: Iterable[Tile]) -> int:
    """Tiles as a bit mask of their indices (how rounds keep hands)."""
    mask = 0
    for t in tiles:
        mask |= 1 << t.index
    return mask


def bits(mask: int) -> list[int]:
    """The tile indices in a bit mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def tiles_of(mask: int) -> tuple[Tile, ...]:
    """The tiles of a bit mask, in index order."""
    return tuple(map(TILES.__getitem__, bits(mask)))


_PIPS_OF_BYTE = [
    [
        sum(TILES[8 * chunk + b].pips for b in range(8) if byte >> b & 1 and 8 * chunk + b < 28)
        for byte in range(256)
    ]
    for chunk in range(4)
]


def mask_pips(mask: int) -> int:
    """The pips of the tiles in a bit mask (R7.1), a byte at a time."""
    p = _PIPS_OF_BYTE
    return p[0][mask & 255] + p[1][mask >> 8 & 255] + p[2][mask >> 16 & 255] + p[3][mask >> 24]


class Placed(NamedTuple):
    """A tile as it lies in the train: ``left`` half faces the left end.

    >>> Placed(2, 6).tile, str(Placed(6, 2))
    (Tile(2, 6), '[6|2]')
    """

    left: int
    right: int

    @property
    def tile(self) -> Tile:
        return Tile(self.left, self.right)

    def __str__(self) -> str:
        return f"[{self.left}|{self.right}]"


def ends_after(ends: tuple[int, int] | None, placed: Placed, end: str) -> tuple[int, int]:
    """The open ends once a tile lies as ``placed`` on ``end`` of a train whose
    ends were ``ends`` (``None``: empty) (R4.1, R5.2).

    >>> ends_after(None, Placed(3, 5), "left"), ends_after((3, 5), Placed(5, 6), "right")
    ((3, 5), (3, 6))
    """
    if ends is None:
        return (placed.left, placed.right)
    return (placed.left, ends[1]) if end == "left" else (ends[0], placed.right)


def pip_count(tiles: Iterable[Tile]) -> int:
    """Sum of pips of some tiles (R7.1)."""
    return sum(t.pips for t in tiles)
