"""The outside bots' protocol: JSON lines, one seat's view in, a move out.

docs/BOTS.md is the protocol's description; this module writes the lines
the arena sends and reads the answers it gets. Only the standard library:
a program in any language speaks it, and the arena stays free of anything
heavier. Every decision line is built from a ``View`` alone (R9), so it
cannot hold another seat's tiles or the boneyard's order: there is no path
from a view to them.

>>> from passing_game.round import Round
>>> view = Round.new(seed=1).view(0)
>>> line = decision(view, 1)
>>> sorted(line)[:4], line["type"], line["boneyard"]
(['boneyard', 'ends', 'hand', 'hand_sizes'], 'decision', 14)
"""

from __future__ import annotations

import json
from typing import Any

from passing_game.moves import Move, move_to_code, parse_move
from passing_game.rules import Rules
from passing_game.views import Turn, View

#: The protocol's version: a program says which it speaks in its ``hello``.
VERSION = 1


class AnswerError(ValueError):
    """An answer that is not a move: not JSON, not an object, no move in it."""


def dumps(message: dict[str, Any]) -> str:
    """One message as one line of compact JSON (no newline inside)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _turn(turn: Turn) -> dict[str, Any]:
    item: dict[str, Any] = {"seat": turn.seat, "move": str(turn.move)}
    if turn.drawn is not None:
        item["drawn"] = str(turn.drawn)
    if turn.placed is not None:
        item["placed"] = [turn.placed.left, turn.placed.right]
    return item


def start(rules: Rules, seat: int, names: list[str], game: int) -> dict[str, Any]:
    """The game's start: the rules, the program's seat, who sits where."""
    return {
        "type": "start",
        "protocol": VERSION,
        "game": game,
        "seat": seat,
        "players": rules.players,
        "names": names,
        "rules": rules.to_dict(),
    }


def decision(view: View, ident: int, *, text: str | None = None) -> dict[str, Any]:
    """A decision line: what ``view`` holds, and the legal moves two ways.

    ``history`` is the view's history: the seat's own draws show the tile
    taken, the others' do not (R9.2). ``text`` is the view written for a
    language model (``bots.text.view_text``), sent when the program asked.
    """
    legal = view.legal_moves()
    message: dict[str, Any] = {
        "type": "decision",
        "id": ident,
        "seat": view.seat,
        "round": view.round_number,
        "hand": [str(t) for t in view.hand],
        "train": [[p.left, p.right] for p in view.train],
        "ends": None if view.ends is None else list(view.ends),
        "boneyard": view.boneyard_size,
        "hand_sizes": list(view.hand_sizes),
        "leader": view.leader,
        "scores": None if view.scores is None else list(view.scores),
        "history": [_turn(t) for t in view.history],
        "legal": [str(m) for m in legal],
        "legal_codes": [move_to_code(m) for m in legal],
    }
    if text is not None:
        message["text"] = text
    return message


def round_end(
    points: tuple[int, ...], pips: tuple[int, ...], winner: int | None, reason: str
) -> dict[str, Any]:
    """A round's end: points and pips per side, the winning side, why it ended."""
    return {
        "type": "round_end",
        "points": list(points),
        "pips": list(pips),
        "winner": winner,
        "reason": reason,
    }


def game_end(scores: tuple[int, ...] | None, winner: int | None) -> dict[str, Any]:
    """The game's end: the match's scores and winner (``None`` for a single round)."""
    return {
        "type": "game_end",
        "scores": None if scores is None else list(scores),
        "winner": winner,
    }


QUIT: dict[str, Any] = {"type": "quit"}


def read_hello(line: str) -> dict[str, Any]:
    """The program's first line: ``{"type": "hello", "protocol": 1, "name": ...}``.

    >>> read_hello('{"type": "hello", "protocol": 1, "name": "g"}')["name"]
    'g'
    >>> read_hello('{"type": "hello", "protocol": 2}')
    Traceback (most recent call last):
    ...
    passing_game.arena.protocol.AnswerError: the program speaks protocol 2, the arena 1
    """
    message = _object(line)
    if message.get("type") != "hello":
        raise AnswerError(f"the first line must be a hello, got {line.strip()[:80]!r}")
    if message.get("protocol") != VERSION:
        raise AnswerError(
            f"the program speaks protocol {message.get('protocol')}, the arena {VERSION}"
        )
    return message


def _object(line: str) -> dict[str, Any]:
    try:
        message = json.loads(line)
    except ValueError:
        raise AnswerError(f"not JSON: {line.strip()[:80]!r}") from None
    if not isinstance(message, dict):
        raise AnswerError(f"not a JSON object: {line.strip()[:80]!r}")
    return message


def read_move(line: str, legal: list[Move]) -> Move:
    """The move an answer names: ``{"move": "L3-5"}`` or ``{"code": 41}``.

    ``move`` may be loose words too (``"play 3-5 on the left"``, read by
    ``bots.text.parse_loose``). An answer that is no move raises
    ``AnswerError``; one that is a move but not a legal one is returned, for
    the caller to refuse (it counts as illegal, not as nonsense).

    >>> from passing_game.moves import DRAW, PASS
    >>> read_move('{"move": "draw"}', [DRAW, PASS]), read_move('{"code": 57}', [DRAW, PASS])
    (Draw(), Pass())
    """
    from passing_game.bots.text import MoveTextError, parse_loose
    from passing_game.moves import NUM_CODES, code_to_move

    message = _object(line)
    if "code" in message:
        code = message["code"]
        if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code < NUM_CODES:
            raise AnswerError(f"a move code is a whole number 0-{NUM_CODES - 1}, got {code!r}")
        return code_to_move(code)
    text = message.get("move")
    if not isinstance(text, str):
        raise AnswerError(f"an answer holds a move or a code, got {line.strip()[:80]!r}")
    try:
        return parse_move(text)
    except ValueError:
        pass
    try:
        return parse_loose(text, legal)
    except MoveTextError as exc:
        raise AnswerError(str(exc)) from None
