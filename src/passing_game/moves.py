"""Moves and their text notation.

A move is one of three value objects (R4): ``Play(tile, end)``, ``Draw()``
and ``Pass()``. The notation is ``L3-5`` / ``R3-5`` for a play on the left or
right end, ``draw`` and ``pass``; parsing is forgiving about case, brackets
and order of the halves, and ``str`` always writes the canonical form.

>>> parse_move("l5-3"), str(Play(Tile(3, 5), "right"))
(Play(Tile(3, 5), 'left'), 'R3-5')
>>> parse_move("draw") == Draw(), str(Pass())
(True, 'pass')
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


def parse_move(text: str) -> Move:
    """Read a move written in the notation above.

    >>> parse_move(" R [6|6] ")
    Play(Tile(6, 6), 'right')
    >>> parse_move("jump")
    Traceback (most recent call last):
    ...
    passing_game.errors.ParseError: a move is L3-5, R3-5, draw or pass, got 'jump'
    """
    if not isinstance(text, str):
        raise ParseError(_("a move is L3-5, R3-5, draw or pass, got {text!r}").format(text=text))
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
    raise ParseError(_("a move is L3-5, R3-5, draw or pass, got {text!r}").format(text=text))
