"""One puzzle as a value, and as the line of JSON the puzzle file holds.

The file is a contract that other tools read (docs/PUZZLES.md), so reading
a line checks all of it that can be checked without a search: the rules,
the deal, that the history replays through the engine to the seat that is
to move, and that ``values`` lists exactly that seat's legal moves. Whether
the values and the answer are right is ``proof.prove``'s question. A bad
line raises ``PuzzleError`` saying what is wrong with it.

>>> Puzzle.from_json('{"id": "x", "kind": "open", "rules": {"players": 2}}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
passing_game.puzzles.record.PuzzleError: puzzle x: missing field(s) answer, boneyard, hands, ...
>>> Puzzle.from_json('{"id": "x"')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
passing_game.puzzles.record.PuzzleError: not JSON: Expecting ',' delimiter: ...
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from passing_game.errors import PassingGameError
from passing_game.moves import Move, parse_move
from passing_game.round import Round
from passing_game.rules import Rules
from passing_game.tiles import Tile
from passing_game.views import View

Kind = Literal["open", "view"]
ProofKind = Literal["every-deal", "average"]
KINDS: tuple[Kind, ...] = ("open", "view")
PROOFS: tuple[ProofKind, ...] = ("every-deal", "average")
#: The themes a puzzle may be tagged with (docs/PUZZLES.md says how each is decided).
THEMES = (
    "block",
    "domino-out",
    "pass-that-wins",
    "draw-that-loses",
    "count-the-tiles",
    "partnership",
)
#: The fields of a line, in the order ``to_json`` writes them.
FIELDS = (
    "id",
    "kind",
    "proof",
    "rules",
    "hands",
    "boneyard",
    "leader",
    "history",
    "to_move",
    "answer",
    "values",
    "themes",
    "rating",
)


class PuzzleError(PassingGameError):
    """A puzzle line (or value) that is not a puzzle; the message says why."""


@dataclass(frozen=True)
class Puzzle:
    """A position, the best moves from it and what every legal move is worth.

    ``hands`` and ``boneyard`` are the round's deal (the boneyard next draw
    first); ``history`` the moves from the deal to the puzzle; ``values``
    each legal move's value, in the engine's order, for the side to move.
    ``proof`` is set for view puzzles only.
    """

    id: str
    kind: Kind
    rules: Rules
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    leader: int
    history: tuple[Move, ...]
    to_move: int
    answer: tuple[Move, ...]
    values: tuple[tuple[Move, float], ...]
    themes: tuple[str, ...]
    rating: int
    proof: ProofKind | None = None

    def __post_init__(self) -> None:
        _check(self)

    # -- reading --------------------------------------------------------------

    def value_of(self, move: Move) -> float:
        """The value of one legal move (``KeyError`` for a move not listed)."""
        for listed, value in self.values:
            if listed == move:
                return value
        raise KeyError(str(move))

    def position(self) -> Round:
        """The round at the puzzle: the deal with ``history`` played."""
        return replay(self.rules, self.hands, self.boneyard, self.leader, self.history, self.id)

    def view(self) -> View:
        """What the seat to move sees: all a view puzzle shows."""
        return self.position().view(self.to_move)

    # -- JSON -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "kind": self.kind}
        if self.proof is not None:
            data["proof"] = self.proof
        data.update(
            rules=self.rules.to_dict(),
            hands=[[str(t) for t in hand] for hand in self.hands],
            boneyard=[str(t) for t in self.boneyard],
            leader=self.leader,
            history=[str(m) for m in self.history],
            to_move=self.to_move,
            answer=[str(m) for m in self.answer],
            values={str(m): float(v) for m, v in self.values},
            themes=list(self.themes),
            rating=self.rating,
        )
        return data

    def to_json(self) -> str:
        """One line of JSON (no newline), the fields in the order of ``FIELDS``."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_json(cls, line: str) -> Puzzle:
        """Read one line of the puzzle file, or raise ``PuzzleError`` saying why not."""
        try:
            data = json.loads(line)
        except (json.JSONDecodeError, TypeError) as exc:
            raise PuzzleError(f"not JSON: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Puzzle:
        if not isinstance(data, Mapping):
            raise PuzzleError(f"a puzzle is a JSON object, got {type(data).__name__}")
        name = data.get("id")
        where = f"puzzle {name}" if isinstance(name, str) and name else "puzzle"
        unknown = sorted(set(data) - set(FIELDS))
        if unknown:
            raise PuzzleError(f"{where}: unknown field(s) {', '.join(map(str, unknown))}")
        missing = sorted(set(FIELDS) - {"proof"} - set(data))
        if missing:
            raise PuzzleError(f"{where}: missing field(s) {', '.join(missing)}")
        rules_data = _need(data, "rules", Mapping)
        try:
            rules = Rules.from_dict(rules_data)
        except ValueError as exc:
            raise PuzzleError(f"{where}: rules: {exc}") from None
        values = _need(data, "values", Mapping)
        return cls(
            id=_need(data, "id", str),
            kind=_need(data, "kind", str),
            rules=rules,
            hands=tuple(_tiles(h, f"hands[{i}]", where) for i, h in enumerate(_lists(data))),
            boneyard=_tiles(_need(data, "boneyard", list), "boneyard", where),
            leader=_need(data, "leader", int),
            history=_moves(_need(data, "history", list), "history", where),
            to_move=_need(data, "to_move", int),
            answer=_moves(_need(data, "answer", list), "answer", where),
            values=tuple(
                (_move(k, "values", where), _number(v, k, where)) for k, v in values.items()
            ),
            themes=tuple(_need(data, "themes", list)),
            rating=_need(data, "rating", int),
            proof=data.get("proof"),
        )


def replay(
    rules: Rules,
    hands: Sequence[Sequence[Tile]],
    boneyard: Sequence[Tile],
    leader: int,
    history: Sequence[Move],
    name: str = "puzzle",
) -> Round:
    """The deal with ``history`` played through the engine, or ``PuzzleError`` saying where not."""
    try:
        rnd = Round.from_deal(rules, hands, boneyard, leader)
    except ValueError as exc:
        raise PuzzleError(f"{name}: the deal: {exc}") from None
    for i, move in enumerate(history):
        if rnd.is_over:
            raise PuzzleError(f"{name}: history[{i}] ({move}) comes after the round is over")
        reason = rnd.why_illegal(move)
        if reason is not None:
            raise PuzzleError(f"{name}: history[{i}] ({move}) is illegal: {reason}")
        rnd.play(move)
    if rnd.is_over:
        raise PuzzleError(f"{name}: the round is over after the history: nothing to solve")
    return rnd


def _check(p: Puzzle) -> None:
    """Everything about a puzzle that needs no search (see the module's notes)."""
    where = f"puzzle {p.id}" if p.id else "puzzle"
    if not isinstance(p.id, str) or not p.id:
        raise PuzzleError("puzzle: id must be a non-empty string")
    if p.kind not in KINDS:
        raise PuzzleError(f"{where}: kind must be open or view, got {p.kind!r}")
    if p.kind == "view" and p.proof not in PROOFS:
        raise PuzzleError(
            f"{where}: a view puzzle's proof is every-deal or average, got {p.proof!r}"
        )
    if p.kind == "open" and p.proof is not None:
        raise PuzzleError(f"{where}: only view puzzles have a proof field, got {p.proof!r}")
    if p.rules.sides != 2:
        raise PuzzleError(
            f"{where}: puzzles are for two sides (2 players, or 4 in partnerships), "
            f"got {p.rules.players} players without partnerships"
        )
    for field, number in (("leader", p.leader), ("to_move", p.to_move), ("rating", p.rating)):
        if isinstance(number, bool) or not isinstance(number, int):
            raise PuzzleError(f"{where}: {field} must be a whole number, got {number!r}")
    rnd = p.position()
    if p.to_move != rnd.to_move:
        raise PuzzleError(
            f"{where}: to_move is {p.to_move}, but after the history seat {rnd.to_move} is to move"
        )
    legal = [str(m) for m in rnd.legal_moves()]
    listed = [str(m) for m, _ in p.values]
    if sorted(listed) != sorted(legal) or len(set(listed)) != len(listed):
        raise PuzzleError(
            f"{where}: values must list every legal move once ({', '.join(legal)}), "
            f"got {', '.join(listed) or 'none'}"
        )
    if not p.answer or any(str(m) not in legal for m in p.answer):
        shown = ", ".join(map(str, p.answer)) or "none"
        raise PuzzleError(f"{where}: answer must be legal moves from values, got {shown}")
    for value in (v for _, v in p.values):
        if not isinstance(value, float) or not math.isfinite(value):
            raise PuzzleError(f"{where}: values must be finite numbers, got {value!r}")
    bad = [t for t in p.themes if t not in THEMES]
    if bad or len(set(p.themes)) != len(p.themes):
        raise PuzzleError(
            f"{where}: themes are distinct names from {', '.join(THEMES)}, got {list(p.themes)}"
        )


def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        name = data.get("id")
        where = f"puzzle {name}" if isinstance(name, str) and name else "puzzle"
        wanted = {str: "a string", int: "a whole number", list: "a list"}.get(
            kind if isinstance(kind, type) else object, "an object"
        )
        raise PuzzleError(f"{where}: {key} must be {wanted}, got {json.dumps(value)}")
    return value


def _lists(data: Mapping[str, Any]) -> list[Any]:
    hands: list[Any] = _need(data, "hands", list)
    for i, hand in enumerate(hands):
        if not isinstance(hand, list):
            raise PuzzleError(f"puzzle {data.get('id')}: hands[{i}] must be a list of tiles")
    return hands


def _tiles(items: list[Any], field: str, where: str) -> tuple[Tile, ...]:
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise PuzzleError(f"{where}: {field}[{i}] must be a tile like 3-5, got {item!r}")
        try:
            out.append(Tile.parse(item))
        except ValueError as exc:
            raise PuzzleError(f"{where}: {field}[{i}]: {exc}") from None
    return tuple(out)


def _move(item: Any, field: str, where: str) -> Move:
    try:
        move = parse_move(item)
    except ValueError as exc:
        raise PuzzleError(f"{where}: {field}: {exc}") from None
    if str(move) != item:
        raise PuzzleError(f"{where}: {field}: write {item!r} as {str(move)!r}")
    return move


def _moves(items: list[Any], field: str, where: str) -> tuple[Move, ...]:
    return tuple(_move(item, f"{field}[{i}]", where) for i, item in enumerate(items))


def _number(value: Any, key: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PuzzleError(f"{where}: values[{key!r}] must be a number, got {json.dumps(value)}")
    return float(value)
