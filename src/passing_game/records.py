"""Game records: a versioned JSON document that replays a match exactly.

The format is documented in docs/RECORDS.md. A record holds the rules, the
seed, every round's deal (the two locked tiles included, D8), every move in
the notation of ``passing_game.moves`` and every result. Loading replays the
moves through the engine, so a record that does not replay is refused.

Version 2 adds two optional keys: a round's ``marks`` (moves a bot made for a
person: ``"timeout"`` or ``"stand-in"``) and the top-level ``resigned`` (the
seat that resigned, P25). Version-1 records still load.

>>> from passing_game import Match, Rules, dump_record, load_record
>>> m = Match(Rules(target=5), seed=11)
>>> for _ in range(12):
...     _ = m.play(m.legal_moves()[0])
>>> again = load_record(dump_record(m))
>>> again.scores == m.scores, again.round.hands == m.round.hands
(True, True)

>>> m = Match(Rules(players=2), seed=5)
>>> for _ in range(4):
...     _ = m.play(m.legal_moves()[0])
>>> m.resign(0)
>>> data = match_to_record(m, marks={(1, 2): "timeout", (1, 4): "stand-in"})
>>> data["rounds"][0]["marks"], data["resigned"], data["winner"]
({'2': 'timeout', '4': 'stand-in'}, 0, 1)
>>> record_marks(data)
{(1, 2): 'timeout', (1, 4): 'stand-in'}
>>> load_record(data).resigned
0
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from passing_game.errors import PassingGameError, RecordError
from passing_game.i18n import _
from passing_game.match import Match
from passing_game.moves import parse_move
from passing_game.outcome import Deal, RoundResult
from passing_game.round import Round
from passing_game.rules import Rules

RECORD_FORMAT = "passing-game-record"
RECORD_VERSION = 2
#: The version of a record played with a smaller set than the double-six
#: (``Rules.max_pip`` < 6, issue 28): version 2 plus the rules' ``max_pip``,
#: which a version-2 reader would refuse; every other record stays version 2.
SMALL_SET_VERSION = 3
#: The versions ``load_record`` reads; version 1 is read as version 2 without
#: marks and without a resignation.
READ_VERSIONS = (1, 2, 3)
#: What a move's mark says (version 2): a bot made that move for the person
#: whose time ran out (``"timeout"``), or for a person who was away
#: (``"stand-in"``).
MARK_KINDS = ("timeout", "stand-in")

_Marks = Mapping[tuple[int, int], str]


def _result_to_dict(result: RoundResult) -> dict[str, Any]:
    return {
        "reason": result.reason,
        "pips": list(result.pips),
        "winner": result.winner,
        "points": result.points,
    }


def _round_to_dict(number: int, rnd: Round, marks: Mapping[int, str]) -> dict[str, Any]:
    deal = rnd.deal
    record: dict[str, Any] = {
        "number": number,
        "deal": {
            "hands": [[str(t) for t in hand] for hand in deal.hands],
            "boneyard": [str(t) for t in deal.boneyard],
            "leader": deal.leader,
        },
        "locked": [str(t) for t in deal.locked],
        "moves": [str(m) for m in rnd.moves],
    }
    if marks:
        record["marks"] = {str(index): marks[index] for index in sorted(marks)}
    record["result"] = None if rnd.result is None else _result_to_dict(rnd.result)
    return record


def _marks_by_round(match: Match, marks: _Marks | None) -> dict[int, dict[int, str]]:
    """``marks`` checked against ``match`` and grouped by round number."""
    grouped: dict[int, dict[int, str]] = {}
    for key, kind in (marks or {}).items():
        if (
            not isinstance(key, tuple)
            or len(key) != 2
            or not all(type(part) is int for part in key)
        ):
            raise ValueError(f"a mark's key is (round_number, move_index), got {key!r}")
        number, index = key
        if not 1 <= number <= len(match.rounds):
            raise ValueError(
                f"mark {key!r}: there is no round {number} (the match has "
                f"{len(match.rounds)} so far)"
            )
        moves = len(match.rounds[number - 1].moves)
        if not 1 <= index <= moves:
            raise ValueError(f"mark {key!r}: round {number} has no move {index} ({moves} so far)")
        if kind not in MARK_KINDS:
            raise ValueError(f"mark {key!r}: unknown kind {kind!r}; known: {', '.join(MARK_KINDS)}")
        grouped.setdefault(number, {})[index] = kind
    return grouped


def match_to_record(
    match: Match,
    names: Sequence[str] | None = None,
    marks: _Marks | None = None,
    fairness: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The record of ``match`` as plain JSON-ready data.

    ``marks`` maps ``(round_number, move_index)`` (both from 1) to a kind in
    ``MARK_KINDS``; a mark on a move the match does not have, or of an
    unknown kind, raises ``ValueError``. ``fairness`` is written as given
    (``passing_game.fairness.Fairness.to_dict``: the commitment revealed).
    """
    grouped = _marks_by_round(match, marks)
    rules = match.rules.to_dict()
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION if "max_pip" not in rules else SMALL_SET_VERSION,
        "rules": rules,
        "seed": match.seed if match.dealt_from_seed else None,
        "rounds": [
            _round_to_dict(i + 1, r, grouped.get(i + 1, {})) for i, r in enumerate(match.rounds)
        ],
        "scores": list(match.scores),
        "winner": match.winner,
    }
    if match.resigned is not None:
        record["resigned"] = match.resigned
    if names is not None:
        record["names"] = [str(n) for n in names]
    if fairness is not None:
        record["fairness"] = dict(fairness)
    return record


def dump_record(
    match: Match,
    names: Sequence[str] | None = None,
    indent: int | None = 1,
    marks: _Marks | None = None,
    fairness: Mapping[str, Any] | None = None,
) -> str:
    """The record of ``match`` as JSON text (``marks``, ``fairness``: as in
    ``match_to_record``)."""
    record = match_to_record(match, names, marks, fairness)
    return json.dumps(record, indent=indent, ensure_ascii=False)


def _need(mapping: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in mapping:
        raise RecordError(_("{where}: '{key}' is missing").format(where=where, key=key))
    value = mapping[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise RecordError(
            _("{where}: '{key}' has the wrong type ({kind})").format(
                where=where, key=key, kind=type(value).__name__
            )
        )
    return value


def _parse_deal(rules: Rules, data: Any, where: str) -> Deal:
    if not isinstance(data, Mapping):
        raise RecordError(_("{where}: 'deal' must be an object").format(where=where))
    hands = _need(data, "hands", list, where)
    boneyard = _need(data, "boneyard", list, where)
    leader = _need(data, "leader", int, where)
    try:
        rnd = Round.from_deal(rules, hands, boneyard, leader)
    except (ValueError, TypeError) as exc:
        raise RecordError(
            _("{where}: bad deal: {reason}").format(where=where, reason=exc)
        ) from None
    return rnd.deal


def _parse_marks(rnd: Mapping[str, Any], moves: int, where: str) -> dict[int, str]:
    """A version-2 round's ``marks``: move index (from 1) to kind."""
    if "marks" not in rnd:
        return {}
    data = _need(rnd, "marks", Mapping, where)
    marks: dict[int, str] = {}
    for key, kind in data.items():
        index = int(key) if isinstance(key, str) and key.isascii() and key.isdigit() else 0
        if str(index) != key or not 1 <= index <= moves:
            raise RecordError(
                _("{where}: 'marks' names move “{index}”, which this round does not have").format(
                    where=where, index=key
                )
            )
        if kind not in MARK_KINDS:
            raise RecordError(
                _("{where}, move {index}: unknown mark “{kind}”; known: {known}").format(
                    where=where, index=index, kind=kind, known=", ".join(MARK_KINDS)
                )
            )
        marks[index] = kind
    return marks


def _parse(source: str | bytes | Mapping[str, Any]) -> Mapping[str, Any]:
    """The record's data in the version-2 form, its format and version checked."""
    parsed: Any = source
    if isinstance(source, (str, bytes)):
        try:
            parsed = json.loads(source)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordError(
                _("the record is not valid JSON: {reason}").format(reason=exc)
            ) from None
    if not isinstance(parsed, Mapping):
        raise RecordError(_("the record must be a JSON object"))
    data: Mapping[str, Any] = parsed
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(
            _("not a passing-game record (format is “{format}”)").format(format=data.get("format"))
        )
    version = data.get("version")
    if type(version) is not int or version not in READ_VERSIONS:
        raise RecordError(
            _("unknown record version “{version}”; this program reads versions {known}").format(
                version=version, known=_(", ").join(str(v) for v in READ_VERSIONS)
            )
        )
    if version == 1:
        data = _from_version_1(data)
    return data


def _from_version_1(data: Mapping[str, Any]) -> dict[str, Any]:
    """Version-1 data in the version-2 form: version 1 has no marks and no
    resignation, so those keys mean nothing there and are dropped, as a
    version-1 reader ignored every unknown key."""
    upgraded = {key: value for key, value in data.items() if key != "resigned"}
    upgraded["version"] = 2
    rounds = data.get("rounds")
    if isinstance(rounds, list):
        upgraded["rounds"] = [
            {key: value for key, value in rnd.items() if key != "marks"}
            if isinstance(rnd, Mapping)
            else rnd
            for rnd in rounds
        ]
    return upgraded


#: The keys a writer always writes, top level and in each round (``complete``).
WRITTEN = ("rules", "seed", "rounds", "scores", "winner")
WRITTEN_IN_A_ROUND = ("number", "deal", "locked", "moves", "result")
#: Records of a match that ends otherwise than at its target, written without a
#: ``winner`` by the web app (docs/RECORDS.md): the daily deal ends after its rounds,
#: a practice game after its one round.
ENDED_APART = ("daily", "practice")


def _complete(data: Mapping[str, Any]) -> None:
    """``RecordError`` naming the first key a writer always writes that is missing
    (``load_record(..., complete=True)``; ``passing-game verify``)."""
    apart = [key for key in ENDED_APART if key in data]
    for key in WRITTEN:
        if key not in data and not (key == "winner" and apart):
            raise RecordError(_("{where}: '{key}' is missing").format(where=_("record"), key=key))
    rules = _need(data, "rules", Mapping, _("record"))
    for key in Rules().to_dict():
        if key not in rules:
            raise RecordError(
                _("{where}: '{key}' is missing").format(where=_("record rules"), key=key)
            )
    for number, rnd in enumerate(_need(data, "rounds", list, _("record")), start=1):
        for key in WRITTEN_IN_A_ROUND:
            if isinstance(rnd, Mapping) and key not in rnd:
                where = _("round {n}").format(n=number)
                raise RecordError(_("{where}: '{key}' is missing").format(where=where, key=key))


def _ended_apart(data: Mapping[str, Any], match: Match) -> None:
    """A record without a ``winner`` that says how its match ended instead
    (``ENDED_APART``) must be what it says: the daily deal's rounds all played, a
    practice game's one round from a deal it holds; and its match not over by the
    target, where the record would have had its winner."""
    rounds = data["rounds"]
    if "daily" in data:
        daily = data["daily"]
        count = daily.get("rounds") if isinstance(daily, Mapping) else None
        holds = count == len(rounds)
    else:
        holds = data["practice"] is True and len(rounds) == 1 and data.get("seed") is None
    finished = all(isinstance(r, Mapping) and r.get("result") is not None for r in rounds)
    if not holds or not finished or match.is_over:
        raise RecordError(
            _("record: it says its match ended after its rounds, and replaying does not agree")
        )


def load_record(source: str | bytes | Mapping[str, Any], *, complete: bool = False) -> Match:
    """Replay a record into a ``Match`` at the record's last position.

    Raises ``RecordError`` naming the round and move for a record that is not
    JSON, not a record, of another version, corrupt, or holds an illegal move.
    Reads versions 1, 2 and 3 (``READ_VERSIONS``). A record with ``resigned`` is
    resigned by that seat after its moves are replayed (P25). A key that a writer
    always writes may be missing (its value is then not checked) unless
    ``complete``, which ``passing-game verify`` asks for: then every one must be
    there (a record without a ``winner`` must say how its match ended instead).
    """
    data = _parse(source)
    if complete:
        _complete(data)
    rules_data = _need(data, "rules", Mapping, _("record"))
    if "max_pip" in rules_data and data.get("version") != SMALL_SET_VERSION:
        raise RecordError(
            _("record rules: 'max_pip' (a smaller set) needs record version {version}").format(
                version=SMALL_SET_VERSION
            )
        )
    try:
        rules = Rules.from_dict(rules_data)
    except PassingGameError as exc:
        raise RecordError(_("record rules: {reason}").format(reason=exc)) from None
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RecordError(_("record: 'seed' must be a whole number or null"))
    rounds = _need(data, "rounds", list, _("record"))
    if not rounds:
        raise RecordError(_("record: 'rounds' is empty"))
    deals = []
    for number, rnd in enumerate(rounds, start=1):
        where = _("round {n}").format(n=number)
        if not isinstance(rnd, Mapping):
            raise RecordError(_("{where}: must be an object").format(where=where))
        if rnd.get("number", number) != number:
            raise RecordError(
                _("{where}: its 'number' is “{number}”").format(
                    where=where, number=rnd.get("number")
                )
            )
        deal = _parse_deal(rules, rnd.get("deal"), where)
        locked = rnd.get("locked")
        if locked is not None and locked != [str(t) for t in deal.locked]:
            raise RecordError(
                _("{where}: 'locked' does not match the last two tiles of the boneyard").format(
                    where=where
                )
            )
        deals.append(deal)
    # A seeded record must deal what its seed deals (D9); a record without a
    # seed (hand-set deals) is replayed from the deals it holds.
    match = Match(rules, seed) if seed is not None else Match(rules, deals=deals)
    for number, rnd in enumerate(rounds, start=1):
        where = _("round {n}").format(n=number)
        if match.round_number != number or match.is_over:
            raise RecordError(
                _("{where}: the match had already ended or moved on before it").format(where=where)
            )
        if match.round.deal != deals[number - 1]:
            raise RecordError(
                _(
                    "{where}: the deal is not the one seed {seed} deals (or the leader is wrong)"
                ).format(where=where, seed=seed)
            )
        moves = _need(rnd, "moves", list, where)
        _parse_marks(rnd, len(moves), where)
        for index, text in enumerate(moves, start=1):
            if match.round_number != number:
                raise RecordError(
                    _("{where}, move {index} (“{text}”): the round was already over").format(
                        where=where, index=index, text=text
                    )
                )
            try:
                match.play(parse_move(text))
            except PassingGameError as exc:
                raise RecordError(
                    _("{where}, move {index} (“{text}”): {reason}").format(
                        where=where, index=index, text=text, reason=exc
                    )
                ) from None
        played = match.rounds[number - 1]
        recorded = rnd.get("result")
        actual = None if played.result is None else _result_to_dict(played.result)
        if recorded != actual:
            raise RecordError(
                _(
                    "{where}: the record says the result is {recorded}, replaying gives {actual}"
                ).format(where=where, recorded=recorded, actual=actual)
            )
    resigned = data.get("resigned")
    if resigned is not None:
        try:
            match.resign(resigned)
        except PassingGameError as exc:
            raise RecordError(
                _("record: 'resigned' is “{value}”: {reason}").format(value=resigned, reason=exc)
            ) from None
    totals: dict[str, object] = {"scores": list(match.scores), "winner": match.winner}
    for key, value in totals.items():
        if key in data and data[key] != value:
            raise RecordError(
                _("record: '{key}' is “{recorded}”, replaying gives “{value}”").format(
                    key=key, recorded=data[key], value=value
                )
            )
    if complete and "winner" not in data:
        _ended_apart(data, match)
    return match


def record_names(source: Mapping[str, Any]) -> list[str] | None:
    """The seat names a record carries, if any."""
    names = source.get("names")
    if isinstance(names, list) and all(isinstance(n, str) for n in names):
        return names
    return None


def record_marks(source: str | bytes | Mapping[str, Any]) -> dict[tuple[int, int], str]:
    """The marks a record carries: ``(round_number, move_index)`` to kind.

    Both numbers count from 1, as in ``match_to_record``. Empty for a record
    without marks, which every version-1 record is. Raises ``RecordError``
    where ``load_record`` would refuse the format, the version, a round or
    its marks; the moves themselves are not replayed.
    """
    data = _parse(source)
    rounds = _need(data, "rounds", list, _("record"))
    marks: dict[tuple[int, int], str] = {}
    for number, rnd in enumerate(rounds, start=1):
        where = _("round {n}").format(n=number)
        if not isinstance(rnd, Mapping):
            raise RecordError(_("{where}: must be an object").format(where=where))
        moves = _need(rnd, "moves", list, where)
        for index, kind in _parse_marks(rnd, len(moves), where).items():
            marks[number, index] = kind
    return marks


__all__ = [
    "ENDED_APART",
    "MARK_KINDS",
    "READ_VERSIONS",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "WRITTEN",
    "WRITTEN_IN_A_ROUND",
    "dump_record",
    "load_record",
    "match_to_record",
    "record_marks",
    "record_names",
]
