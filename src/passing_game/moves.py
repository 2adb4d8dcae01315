"""Moves and their text notation.

A move is one of three value objects (R4): ``Play(tile, end)``, ``Draw()``
and ``Pass()``. The notation is ``L3-5`` / ``R3-5`` for a play on the left or
right end, ``draw`` and ``pass``; parsing is forgiving about case, brackets
and order of the halves, and ``str`` always writes the canonical form.

>>> parse_move("l5-3"), str(Play(Tile(3, 5), "right"))
(Play(Tile(3, 5), 'left'), 'R3-5')
>>> parse_move("draw") == Draw(), str(Pass())
(True, 'pass')

Where moves are counted or stored by the thousand (the search, the compiled
kernel, the RL actions) each is a *move code*, one numbering for the whole
project: ``tile.index * 2 + end`` for a play (end 0 for the left, 1 for the
right), then ``DRAW_CODE`` and ``PASS_CODE``.

>>> move_to_code(Play(Tile(3, 5), "right")), code_to_move(41), code_to_move(DRAW_CODE)
(41, Play(Tile(3, 5), 'right'), Draw())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from passing_game.errors import ParseError
from passing_game.i18n import _
from passing_game.tiles import TILES, Tile

End = Literal["left", "right"]
ENDS: tuple[End, End] = ("left", "right")


@dataclass(frozen=True, slots=True)
class Play:
    """Lay ``tile`` on the ``end`` of the train (R4.1)."""

    tile: Tile
    end: End = "left"

    def __post_init__(self) -> None:
        if not isinstance(self.tile, Tile):
            raise ParseError(f"Play needs a Tile, got {self.tile!r}")
        if self.end not in ENDS:
            raise ParseError(f"end must be one of left, right, got {self.end!r}")

    def __str__(self) -> str:
        return f"{'L' if self.end == 'left' else 'R'}{self.tile}"

    def __repr__(self) -> str:
        return f"Play({self.tile!r}, {self.end!r})"


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the next tile from the boneyard (R4.3)."""

    def __str__(self) -> str:
        return "draw"

    def __repr__(self) -> str:
        return "Draw()"


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing this turn (R4.4)."""

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


Move = Play | Draw | Pass

DRAW = Draw()
PASS = Pass()

#: One shared ``Play`` per tile and end, indexed by ``Tile.index``: move
#: generation hands these out instead of building new objects.
PLAYS_LEFT: tuple[Play, ...] = tuple(Play(t, "left") for t in TILES)
PLAYS_RIGHT: tuple[Play, ...] = tuple(Play(t, "right") for t in TILES)

#: The move codes besides the plays' ``0 .. 55``, and how many codes there are.
DRAW_CODE = 56
PASS_CODE = 57
NUM_CODES = 58

#: ``CODE_MOVES[code]``: the shared move object of each code.
CODE_MOVES: tuple[Move, ...] = (
    *(PLAYS_RIGHT[code >> 1] if code & 1 else PLAYS_LEFT[code >> 1] for code in range(DRAW_CODE)),
    DRAW,
    PASS,
)


def code_to_move(code: int) -> Move:
    """The move a code (``0 .. 57``) stands for."""
    return CODE_MOVES[code]


def move_to_code(move: Move) -> int:
    """A move's code: ``tile.index * 2 + end`` for a play, ``DRAW_CODE``, ``PASS_CODE``."""
    if isinstance(move, Play):
        return move.tile.index * 2 + ENDS.index(move.end)
    if isinstance(move, Draw):
        return DRAW_CODE
    if isinstance(move, Pass):
        return PASS_CODE
    raise ValueError(f"not a move: {move!r}")


def parse_move(text: str) -> Move:
    """Read a move written in the notation above.

    >>> parse_move(" R [6|6] ")
    Play(Tile(6, 6), 'right')
    >>> parse_move("jump")
    Traceback (most recent call last):
    ...
    passing_game.errors.ParseError: a move is L3-5, R3-5, draw or pass, got “jump”
    """
    if not isinstance(text, str):
        raise ParseError(_("a move is L3-5, R3-5, draw or pass, got “{text}”").format(text=text))
    word = text.strip().lower()
    if word in ("draw", "d"):
        return DRAW
    if word in ("pass", "p"):
        return PASS
    if word[:1] in ("l", "r"):
        try:
            tile = Tile.parse(word[1:])
        except ParseError:
            pass
        else:
            return Play(tile, "left" if word[0] == "l" else "right")
    raise ParseError(_("a move is L3-5, R3-5, draw or pass, got “{text}”").format(text=text))
