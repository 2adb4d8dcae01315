"""Game records: a versioned JSON document that replays a match exactly.

The format is documented in docs/RECORDS.md. A record holds the rules, the
seed, every round's deal (the two locked tiles included, D8), every move in
the notation of ``passing_game.moves`` and every result. Loading replays the
moves through the engine, so a record that does not replay is refused.

>>> from passing_game import Match, Rules, dump_record, load_record
>>> m = Match(Rules(target=5), seed=11)
>>> for _ in range(12):
...     _ = m.play(m.legal_moves()[0])
>>> again = load_record(dump_record(m))
>>> again.scores == m.scores, again.round.hands == m.round.hands
(True, True)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from passing_game.errors import PassingGameError, RecordError
from passing_game.i18n import _
from passing_game.match import Match
from passing_game.moves import parse_move
from passing_game.round import Deal, Round, RoundResult
from passing_game.rules import Rules

RECORD_FORMAT = "passing-game-record"
RECORD_VERSION = 1


def _result_to_dict(result: RoundResult) -> dict[str, Any]:
    return {
        "reason": result.reason,
        "pips": list(result.pips),
        "winner": result.winner,
        "points": result.points,
    }


def _round_to_dict(number: int, rnd: Round) -> dict[str, Any]:
    deal = rnd.deal
    return {
        "number": number,
        "deal": {
            "hands": [[str(t) for t in hand] for hand in deal.hands],
            "boneyard": [str(t) for t in deal.boneyard],
            "leader": deal.leader,
        },
        "locked": [str(t) for t in deal.locked],
        "moves": [str(m) for m in rnd.moves],
        "result": None if rnd.result is None else _result_to_dict(rnd.result),
    }


def match_to_record(match: Match, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of ``match`` as plain JSON-ready data."""
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": match.rules.to_dict(),
        "seed": match.seed if match.dealt_from_seed else None,
        "rounds": [_round_to_dict(i + 1, r) for i, r in enumerate(match.rounds)],
        "scores": list(match.scores),
        "winner": match.winner,
    }
    if names is not None:
        record["names"] = [str(n) for n in names]
    return record


def dump_record(match: Match, names: Sequence[str] | None = None, indent: int | None = 1) -> str:
    """The record of ``match`` as JSON text."""
    return json.dumps(match_to_record(match, names), indent=indent, ensure_ascii=False)


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


def load_record(source: str | bytes | Mapping[str, Any]) -> Match:
    """Replay a record into a ``Match`` at the record's last position.

    Raises ``RecordError`` naming the round and move for a record that is not
    JSON, not a record, of another version, corrupt, or holds an illegal move.
    """
    if isinstance(source, (str, bytes)):
        try:
            data = json.loads(source)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordError(
                _("the record is not valid JSON: {reason}").format(reason=exc)
            ) from None
    else:
        data = source
    if not isinstance(data, Mapping):
        raise RecordError(_("the record must be a JSON object"))
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(
            _("not a passing-game record (format is {format!r})").format(format=data.get("format"))
        )
    version = data.get("version")
    if type(version) is not int or version != RECORD_VERSION:
        raise RecordError(
            _("unknown record version {version!r}; this program reads version {known}").format(
                version=version, known=RECORD_VERSION
            )
        )
    rules_data = _need(data, "rules", Mapping, _("record"))
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
                _("{where}: its 'number' is {number!r}").format(
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
        for index, text in enumerate(moves, start=1):
            if match.round_number != number:
                raise RecordError(
                    _("{where}, move {index} ({text!r}): the round was already over").format(
                        where=where, index=index, text=text
                    )
                )
            try:
                match.play(parse_move(text))
            except PassingGameError as exc:
                raise RecordError(
                    _("{where}, move {index} ({text!r}): {reason}").format(
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
    totals: dict[str, object] = {"scores": list(match.scores), "winner": match.winner}
    for key, value in totals.items():
        if key in data and data[key] != value:
            raise RecordError(
                _("record: '{key}' is {recorded!r}, replaying gives {value!r}").format(
                    key=key, recorded=data[key], value=value
                )
            )
    return match


def record_names(source: Mapping[str, Any]) -> list[str] | None:
    """The seat names a record carries, if any."""
    names = source.get("names")
    if isinstance(names, list) and all(isinstance(n, str) for n in names):
        return names
    return None


__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "dump_record",
    "load_record",
    "match_to_record",
    "record_names",
]
