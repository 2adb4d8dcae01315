"""The outside bots' protocol: JSON lines, one seat's view in, a move out.

docs/BOTS.md is the protocol's description; this module writes the lines
the arena sends and reads the answers it gets, and the few lines the web
site adds around them (``site_*``, ``read_bot_line``: a bot account on the
site's WebSocket, docs/BOTS.md "On the site"). It sits with the bots, below
the arena and the web, which both speak it. Only the standard library: a
program in any language speaks it. Every decision line is built from a
``View`` alone (R9), so it cannot hold another seat's tiles or the
boneyard's order: there is no path from a view to them.

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
    passing_game.bots.protocol.AnswerError: the program speaks protocol 2, this side 1
    """
    message = _object(line)
    if message.get("type") != "hello":
        raise AnswerError(f"the first line must be a hello, got {line.strip()[:80]!r}")
    if message.get("protocol") != VERSION:
        raise AnswerError(
            f"the program speaks protocol {message.get('protocol')}, this side {VERSION}"
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
    return move_of(_object(line), legal)


def move_of(message: dict[str, Any], legal: list[Move]) -> Move:
    """``read_move`` of a line already read as a JSON object."""
    from passing_game.bots.text import MoveTextError, parse_loose
    from passing_game.moves import NUM_CODES, code_to_move

    if "code" in message:
        code = message["code"]
        if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code < NUM_CODES:
            raise AnswerError(f"a move code is a whole number 0-{NUM_CODES - 1}, got {code!r}")
        return code_to_move(code)
    text = message.get("move")
    if not isinstance(text, str):
        raise AnswerError(f"an answer holds a move or a code, got {_shown(message)}")
    if len(text) > MAX_MOVE_TEXT:
        raise AnswerError(f"a move is at most {MAX_MOVE_TEXT} characters")
    try:
        return parse_move(text)
    except ValueError:
        pass
    try:
        return parse_loose(text, legal)
    except MoveTextError as exc:
        raise AnswerError(str(exc)) from None


def _shown(message: object) -> str:
    return repr(dumps(message) if isinstance(message, dict) else message)[:80]


#: The longest move text read (loose words included).
MAX_MOVE_TEXT = 200

# -- on the site (docs/BOTS.md, "On the site") -----------------------------------------
#
# A bot account plays on the site over one WebSocket: the same lines as above,
# each game's carrying ``table`` (its table's code) both ways, and a few lines of
# the site's own: offers of challenges and rematches, seeking quick play, errors.

#: The most bytes one line a bot sends the site may have.
MAX_BOT_LINE = 4096
#: The longest table code or challenge id a bot's line may name.
MAX_NAME_FIELD = 40
#: What a bot's line may be, besides its hello and its answers (their ``type``).
BOT_LINES = ("accept", "decline", "seek", "seek_off", "rematch", "resign")


def on_table(message: dict[str, Any], code: str) -> dict[str, Any]:
    """A game's line as the site sends it: the protocol's line, with its table.

    >>> on_table(game_end((101, 40), 0), "ABCDEF")["table"]
    'ABCDEF'
    """
    return {**message, "table": code}


def welcome(name: str, owner: str, games: list[str]) -> dict[str, Any]:
    """The site's answer to a bot's hello: its account, its owner, the tables it plays."""
    return {"type": "welcome", "protocol": VERSION, "name": name, "owner": owner, "tables": games}


def site_error(code: str, message: str, **where: Any) -> dict[str, Any]:
    """Something a bot sent was refused (``where``: its ``table``, ``id``, ``challenge``);
    what it sent changed nothing."""
    return {"type": "error", "code": code, "message": message, **where}


def answer(code: str, ident: int, move: Move) -> dict[str, Any]:
    """A bot's answer to the site: the move for a table's decision ``ident``."""
    return {"table": code, "id": ident, "move": str(move)}


def read_bot_line(line: str | bytes) -> tuple[str, dict[str, Any]]:
    """What a bot's line on the site is: ``(kind, message)``, ``kind`` one of
    ``hello``, ``answer`` (a move for a table), or ``BOT_LINES``; ``AnswerError``
    says what is wrong with anything else. The move of an answer is read later,
    against its decision (``move_of``).

    >>> read_bot_line('{"table": "ABCDEF", "id": 3, "move": "draw"}')[0]
    'answer'
    >>> read_bot_line('{"type": "seek", "players": 2}')[1]["rated"]
    False
    >>> read_bot_line('{"type": "seek", "players": 5}')
    Traceback (most recent call last):
    ...
    passing_game.bots.protocol.AnswerError: players is 2, 3 or 4, got 5
    """
    if len(line) > MAX_BOT_LINE:
        raise AnswerError(f"a line is at most {MAX_BOT_LINE} bytes, this one has {len(line)}")
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            raise AnswerError("a line is UTF-8 text") from None
    try:
        message = _object(line)
    except RecursionError:
        raise AnswerError("not JSON: nested too deep") from None
    kind = message.get("type")
    if kind == "hello":
        return "hello", read_hello(line)
    if kind is None or kind == "move":
        if "move" not in message and "code" not in message:
            raise AnswerError(f"a line has a type, or is an answer with a move; got {_shown(line)}")
        ident = message.get("id")
        if ident is not None and (not isinstance(ident, int) or isinstance(ident, bool)):
            raise AnswerError(f"id is a whole number, got {ident!r}")
        _name(message, "table", required=False)
        return "answer", message
    if kind not in BOT_LINES:
        known = ", ".join(("hello", *BOT_LINES))
        raise AnswerError(f"no line has the type {str(kind)[:20]!r}: the types are {known}")
    if kind in ("accept", "decline"):
        _name(message, "challenge")
    elif kind in ("rematch", "resign"):
        _name(message, "table")
    elif kind == "seek":
        players = message.get("players")
        if players not in (2, 3, 4) or isinstance(players, bool):
            raise AnswerError(f"players is 2, 3 or 4, got {players!r}"[:80])
        rated = message.setdefault("rated", False)
        if not isinstance(rated, bool):
            raise AnswerError(f"rated is true or false, got {rated!r}"[:80])
    return str(kind), message


def _name(message: dict[str, Any], key: str, *, required: bool = True) -> None:
    value = message.get(key)
    if value is None and not required:
        return
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME_FIELD:
        raise AnswerError(
            f"{key} is a text of 1 to {MAX_NAME_FIELD} characters, got {value!r}"[:120]
        )
