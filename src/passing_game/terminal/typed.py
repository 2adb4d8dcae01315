"""What a person types in the terminal game, read into a move.

``game`` does the talking (it prints, asks and plays); this module only
decides. What a typed line means is a function of the text and the seat's
``View`` (and, for a move the rules refuse, the round's reason), so the keys
can be read and tested without a console or a match.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from passing_game.errors import ParseError
from passing_game.i18n import _
from passing_game.moves import Draw, End, Move, Pass, Play, parse_move
from passing_game.tiles import Tile
from passing_game.views import View
from passing_game.words import needs_end, tile_text

_NUMBER_END = re.compile(r"^(\d+)\s*(l|r|<|>|left|right)?$")
_END_NUMBER = re.compile(r"^(l|r|<|>)\s*(\d+)$")

#: A key that asks for something other than a move; the game answers it.
Command: TypeAlias = Literal["help", "hint", "quit", "board", "scores"]

#: Why a move is illegal now, ``None`` when it is legal (``Round.why_illegal``).
WhyIllegal: TypeAlias = Callable[[Move], str | None]


@dataclass(frozen=True)
class Refusal:
    """The line is no move: say ``text`` and ask again."""

    text: str


@dataclass(frozen=True)
class AskEnd:
    """``tile`` fits both ``ends`` differently: ask which end it goes on (R4.2)."""

    tile: Tile
    ends: tuple[int, int]


#: What a line typed at the move prompt asks for.
Reading: TypeAlias = Move | Command | Refusal | AskEnd


def move_keys(move: Move, view: View) -> str:
    """What to type for ``move``: ``4``, ``4r``, ``d`` or ``p``."""
    if isinstance(move, Play):
        number = view.hand.index(move.tile) + 1
        if needs_end(move.tile, view.ends):
            return f"{number}{'l' if move.end == 'left' else 'r'}"
        return str(number)
    return "d" if isinstance(move, Draw) else "p"


def move_prompt(legal: Sequence[Move], size: int) -> str:
    """The move prompt: the keys open with ``legal`` moves and ``size`` tiles in hand."""
    parts = []
    if any(isinstance(m, Play) for m in legal):
        parts.append(_("1-{n} play").format(n=size) if size > 1 else _("1 play"))
    if any(isinstance(m, Draw) for m in legal):
        parts.append(_("d draw"))
    if any(isinstance(m, Pass) for m in legal):
        parts.append(_("p pass"))
    parts += [_("h hint"), _("? help"), _("q quit")]
    return _("Your move ({choices}): ").format(choices=_(", ").join(parts))


def help_rows() -> list[tuple[str, str]]:
    """The help's table: what to type at the move prompt, and what it does."""
    return [
        ("3", _("play tile 3 of your hand (asks left or right only when it matters)")),
        ("3l, 3r", _("play tile 3 on the left or the right end")),
        ("L3-5", _("moves in notation work too: R3-5, draw, pass")),
        ("d", _("draw a tile from the boneyard (never the last 2, they are locked)")),
        ("p", _("pass your turn")),
        ("h", _("ask the computer for a hint")),
        ("b", _("show the board again")),
        ("s", _("show the score pad")),
        ("q", _("quit (the game is saved if you gave --save)")),
    ]


def read_move(text: str, view: View, why_illegal: WhyIllegal) -> Reading:
    """What ``text``, typed at the move prompt, asks for: a legal move or something else."""
    word = text.strip().lower()
    if not word:
        return Refusal(
            _("Type the number of a tile to play it, d to draw or p to pass (? for help).")
        )
    if word in ("?", "help", _("help")):
        return "help"
    if word in ("h", "hint", _("hint")):
        return "hint"
    if word in ("q", "quit", "exit", _("quit")):
        return "quit"
    if word in ("b", "board", _("board")):
        return "board"
    if word in ("s", "score", "scores", _("scores")):
        return "scores"
    if word in ("d", "draw", _("draw")):
        return checked(Draw(), why_illegal)
    if word in ("p", "pass", _("pass")):
        return checked(Pass(), why_illegal)
    number_end = _NUMBER_END.match(word)
    end_number = _END_NUMBER.match(word)
    if number_end or end_number:
        if number_end:
            number, end = int(number_end.group(1)), number_end.group(2)
        else:
            assert end_number is not None
            number, end = int(end_number.group(2)), end_number.group(1)
        return pick_tile(number, end, view)
    try:
        picked = Tile.parse(text)
    except ParseError:
        pass
    else:
        if picked in view.hand:
            return pick_tile(view.hand.index(picked) + 1, None, view)
        return Refusal(_("You don't hold {tile}.").format(tile=tile_text(picked)))
    try:
        move = parse_move(text)
    except ParseError:
        return Refusal(
            _(
                "I don't understand “{text}”. Type a tile number (1-{n}), d to draw, "
                "p to pass, h for a hint or ? for help."
            ).format(text=text, n=len(view.hand))
        )
    if isinstance(move, Play) and move.tile not in view.hand:
        return Refusal(_("You don't hold {tile}.").format(tile=tile_text(move.tile)))
    reason = why_illegal(move)
    if reason is not None:
        return Refusal(_("Not allowed: {reason}.").format(reason=reason))
    return move


def checked(move: Move, why_illegal: WhyIllegal) -> Move | Refusal:
    """``move`` if legal now, else why not."""
    reason = why_illegal(move)
    if reason is None:
        return move
    if isinstance(move, Draw):
        return Refusal(_("You cannot draw: only the 2 locked tiles are left in the boneyard."))
    return Refusal(_("Not allowed: {reason}.").format(reason=reason))


def pick_tile(number: int, end: str | None, view: View) -> Play | Refusal | AskEnd:
    """Tile ``number`` of the hand (from 1), on ``end`` if one was typed."""
    hand = view.hand
    if not 1 <= number <= len(hand):
        return Refusal(
            _("There is no tile {number}: your tiles are numbered 1 to {n}.").format(
                number=number, n=len(hand)
            )
        )
    tile = hand[number - 1]
    ends = view.ends
    shown = tile_text(tile)
    if ends is None:
        return Play(tile, "left")
    fits_left, fits_right = tile.has(ends[0]), tile.has(ends[1])
    if not (fits_left or fits_right):
        return Refusal(
            _("{tile} does not fit: the open ends show {left} and {right}.").format(
                tile=shown, left=ends[0], right=ends[1]
            )
        )
    if end is not None:
        side: End = "left" if end in ("l", "<", "left") else "right"
        if (side == "left" and not fits_left) or (side == "right" and not fits_right):
            number_shown = ends[0] if side == "left" else ends[1]
            text = (
                _("{tile} does not fit the left end, which shows {number}.")
                if side == "left"
                else _("{tile} does not fit the right end, which shows {number}.")
            )
            return Refusal(text.format(tile=shown, number=number_shown))
        return Play(tile, side)
    if not needs_end(tile, ends):
        return Play(tile, "left" if fits_left else "right")
    return AskEnd(tile, ends)


def both_ends_text(tile: Tile, ends: tuple[int, int]) -> str:
    """What playing ``tile`` on either end would leave, said before asking which."""
    left_after = (tile.other(ends[0]), ends[1])
    right_after = (ends[0], tile.other(ends[1]))
    return _(
        "{tile} fits both ends: on the left the ends become {l1} and {l2}, "
        "on the right {r1} and {r2}."
    ).format(
        tile=tile_text(tile),
        l1=left_after[0],
        l2=left_after[1],
        r1=right_after[0],
        r2=right_after[1],
    )


def read_end(answer: str, tile: Tile) -> Play | Literal["cancel", "quit"] | Refusal:
    """What ``answer`` to "left or right?" asks for: ``tile`` on an end, or something else."""
    answer = answer.lower()
    if answer in ("l", "<", "left", _("left")):
        return Play(tile, "left")
    if answer in ("r", ">", "right", _("right")):
        return Play(tile, "right")
    if answer in ("c", "cancel", _("cancel"), ""):
        return "cancel"
    if answer in ("q", "quit", _("quit")):
        return "quit"
    return Refusal(_("Type l for the left end, r for the right end, or c to choose again."))
