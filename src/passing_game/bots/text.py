"""A seat's view as text a language model reads, and its loose answers read back.

A model is told its position in a few plain lines (``view_text``) and
answers in words; ``parse_loose`` turns "play 3-5 on the left", "[3|5]
left", "Draw." or a move code into a move. Both use the project's one
notation (``moves``, ``Tile.parse``, ``words.tile_text``): a tile is
``[3|5]`` or ``3-5`` here as everywhere. The text is English on purpose:
it is read by a program, not shown to a person, so it is not translated.

>>> from passing_game.moves import Play
>>> from passing_game.tiles import Tile
>>> legal = [Play(Tile(3, 5), "left"), Play(Tile(3, 5), "right")]
>>> parse_loose("Play 3-5 on the LEFT!", legal), parse_loose("[5|3]  right", legal)
(Play(Tile(3, 5), 'left'), Play(Tile(3, 5), 'right'))
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from passing_game.errors import ParseError
from passing_game.moves import DRAW, NUM_CODES, PASS, Move, Play, code_to_move, parse_move
from passing_game.tiles import Tile
from passing_game.views import View
from passing_game.words import tile_text


class MoveTextError(ParseError):
    """Words that name no move, or more than one: the message says which."""


def view_text(view: View) -> str:
    """The seat's view in a few lines: hand, ends, counts, history, legal moves.

    Everything in it comes from the view (R9): the others' draws show no tile.

    >>> from passing_game.round import Round
    >>> print(view_text(Round.new(seed=1).view(1)))  # doctest: +ELLIPSIS
    You are seat 2 of 2. It is your turn.
    Your hand: [0|1] [0|4] [1|1] [1|6] [2|5] [4|5] [4|6].
    The train is empty: your tile starts it.
    Tiles in hand: seat 1 has 7. Boneyard: 14 tiles.
    Legal moves: play [0|1], play [0|4], play [1|1], ..., draw, pass.
    Answer with one move, e.g. "play [x|y] on the left", "draw" or "pass".
    """
    seats = view.rules.players
    turn = "It is your turn." if view.is_my_turn else "It is not your turn."
    lines = [f"You are seat {view.seat + 1} of {seats}. {turn}"]
    if view.scores is not None:
        scores = ", ".join(str(s) for s in view.scores)
        lines.append(f"Round {view.round_number}; match scores by side: {scores}.")
    lines.append("Your hand: " + (" ".join(tile_text(t) for t in view.hand) or "(empty)") + ".")
    if view.ends is None:
        lines.append("The train is empty: your tile starts it.")
    else:
        train = " ".join(str(p) for p in view.train)
        lines.append(f"Train: {train}. Left end {view.ends[0]}, right end {view.ends[1]}.")
    others = ", ".join(
        f"seat {s + 1} has {n}" for s, n in enumerate(view.hand_sizes) if s != view.seat
    )
    lines.append(f"Tiles in hand: {others}. Boneyard: {view.boneyard_size} tiles.")
    recent = view.history[-seats * 2 :]
    if recent:
        said = "; ".join(f"seat {t.seat + 1} {_said(t.move)}" for t in recent)
        lines.append(f"Last moves: {said}.")
    legal = view.legal_moves()
    if legal:
        # On an empty train both ends are one: a play names no end (R4.1).
        options = ", ".join(_said(m, view.ends is not None) for m in legal)
        lines.append(f"Legal moves: {options}.")
        lines.append('Answer with one move, e.g. "play [x|y] on the left", "draw" or "pass".')
    return "\n".join(lines)


def _said(move: Move, end: bool = True) -> str:
    if isinstance(move, Play):
        return f"play {tile_text(move.tile)}" + (f" on the {move.end}" if end else "")
    return str(move)


_TILE = re.compile(r"\[?\s*(\d+)\s*[-|/:]\s*(\d+)\s*\]?")
_WORDS = re.compile(r"[a-z]+")


def parse_loose(text: str, legal: Sequence[Move] = ()) -> Move:
    """Read a move from loose words; ``legal`` settles an end left unsaid.

    Accepts the notation (``L3-5``, ``draw``), a move code (``41``), and
    words around a tile (``play 3-5 on the left``, ``[3|5] left``), case and
    spacing loose. A tile with no end is played where ``legal`` allows it,
    if only one end (or an empty train, where both are one) does. Refuses
    with ``MoveTextError`` saying what was wrong.

    >>> parse_loose(" 57 "), parse_loose("I will DRAW.")
    (Pass(), Draw())
    >>> parse_loose("3-5")
    Traceback (most recent call last):
    ...
    passing_game.bots.text.MoveTextError: say which end for [3|5]: left or right
    >>> parse_loose("draw or pass")
    Traceback (most recent call last):
    ...
    passing_game.bots.text.MoveTextError: more than one move in “draw or pass”
    """
    if not isinstance(text, str):
        raise MoveTextError(f"a move is text, got {text!r}")
    cleaned = text.strip().strip(".!?\"'`").strip()
    if not cleaned:
        raise MoveTextError("no move in an empty answer")
    if cleaned.isdigit():
        code = int(cleaned)
        if code >= NUM_CODES:
            raise MoveTextError(f"a move code is 0-{NUM_CODES - 1}, got {code}")
        return code_to_move(code)
    try:
        return parse_move(cleaned)
    except ParseError:
        pass
    lowered = cleaned.lower()
    tiles = _TILE.findall(lowered)
    words = set(_WORDS.findall(_TILE.sub(" ", lowered)))
    kinds = len(tiles) + ("draw" in words) + ("pass" in words)
    if kinds == 0:
        raise MoveTextError(f"no tile, draw or pass in “{text}”")
    if kinds > 1:
        raise MoveTextError(f"more than one move in “{text}”")
    if not tiles:
        return DRAW if "draw" in words else PASS
    try:
        tile = Tile.parse(f"{tiles[0][0]}-{tiles[0][1]}")
    except ParseError:
        raise MoveTextError(f"no such tile in “{text}”: the numbers are 0-6") from None
    ends = [e for e in ("left", "right") if e in words or e[0] in words]
    if len(ends) == 2:
        raise MoveTextError(f"both ends named in “{text}”: say left or right")
    if ends:
        return Play(tile, "left" if ends[0] == "left" else "right")
    fits = [m for m in legal if isinstance(m, Play) and m.tile is tile]
    if len(fits) == 1:
        return fits[0]
    if not fits and legal:
        raise MoveTextError(f"{tile_text(tile)} is not a legal play now")
    raise MoveTextError(f"say which end for {tile_text(tile)}: left or right")
