"""A finished game's record, replayed for the page, and the seat an analysis is for.

The work on a record (``parse_record``, ``replay_data``, ``asked``) can be
long for a large one: the endpoints (``web/review/api.py``) run it in worker
threads, never on the event loop. None of it reads the request or the
store; a refusal is a ``Refused``, which the endpoint answers with.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from passing_game import words
from passing_game.bots import analysis
from passing_game.errors import PassingGameError
from passing_game.i18n import _, current_language, ngettext
from passing_game.match import Match
from passing_game.moves import Play
from passing_game.records import load_record, match_to_record, record_marks, record_names
from passing_game.steps import build_steps
from passing_game.web.game.errors import UNREADABLE
from passing_game.web.protocol import MAX_NAME, shown
from passing_game.web.table import fairness as fair
from passing_game.web.table import frames

#: The largest record file the page may open.
MAX_RECORD_BYTES = 256 * 1024
#: The most decisions one analysis searches (its time: docs/PERFORMANCE.md).
MAX_DECISIONS = 600


def record_hash(match: Match, marks: Mapping[tuple[int, int], str]) -> str:
    """What identifies an analysis: the canonical record (names left out) and the method."""
    canonical = json.dumps(
        match_to_record(match, marks=marks), sort_keys=True, separators=(",", ":")
    )
    text = f"{analysis.METHOD}|{analysis.engine()}|{canonical}"
    return hashlib.sha256(text.encode()).hexdigest()


def display_names(data: Mapping[str, Any], players: int) -> tuple[str, ...] | None:
    """The record's seat names, cut to a display name's length, if there is one per seat."""
    try:
        names = record_names(data)
    except Exception:
        return None
    if not names or len(names) != players:
        return None
    return tuple(shown(name, MAX_NAME) or "?" for name in names)


def replay_data(data: Mapping[str, Any], match: Match) -> dict[str, Any]:
    """Every step of a finished game for the page, worded in the current language."""
    rules = match.rules
    names = display_names(data, rules.players)
    seats = words.Seats(rules, names)
    marks = record_marks(data)
    steps = []
    # A record that ends after its rounds (a daily deal, a practice round) holds no
    # winner, so load_record's engine dealt one round more: it is not the record's.
    recorded = data.get("rounds")
    rounds = len(recorded) if isinstance(recorded, list) else len(match.rounds)
    for step in build_steps(match):
        if step.number > rounds:
            break
        rnd = step.state
        item: dict[str, Any] = {
            "round": step.number,
            "index": step.index,
            "total": step.total,
            "train": [[p.left, p.right] for p in rnd.train],
            "ends": list(rnd.ends) if rnd.ends is not None else None,
            "hands": [frames.tiles(hand) for hand in rnd.hands],
            "pips": [sum(t.pips for t in hand) for hand in rnd.hands],
            "boneyard": len(rnd.boneyard),
            "to_move": rnd.to_move,
            "scores": list(step.scores),
            "finished": len(step.results),
            "turn": None,
            # The deal: who leads. A move: what it was, every tile named (an open replay).
            "line": words.leader_text(seats, rnd.leader),
        }
        turn = step.turn
        if turn is not None:
            auto = marks.get((step.number, step.index))
            led = len(rnd.train) == 1 and isinstance(turn.move, Play)
            line = words.describe_turn(turn, seats, led=led, show_drawn=True)
            public = words.describe_turn(turn.public(), seats, led=led)
            if auto in frames.PLAYED_BY_WORDS:
                extra = _(frames.PLAYED_BY_WORDS[auto])
                line, public = f"{line} {extra}", f"{public} {extra}"
            item["turn"] = frames.turn_data(turn, auto)
            item["line"] = line
            item["line_public"] = public
        if rnd.result is not None and step.index == step.total:
            item["summary"] = frames.summary(rnd.result, step.number, seats, rnd.train)
        steps.append(item)
    results = match.results
    return {
        "language": current_language(),
        "hash": record_hash(match, marks),
        "rules": rules.to_dict(),
        "players": rules.players,
        "target": rules.target,
        "names": [seats.short(s) for s in range(rules.players)],
        "labels": [seats.label(s) for s in range(rules.players)],
        "sides": frames.side_names(seats, rules.sides),
        "side_of": [rules.side_of(s) for s in range(rules.players)],
        "steps": steps,
        "pad": [
            {
                "round": i + 1,
                "points": list(r.points_by_side()),
                "reason": r.reason,
                "reason_word": words.reason_word(r.reason),
                "winner": r.winner,
            }
            for i, r in enumerate(results)
        ],
        "scores": list(match.scores),
        "winner": match.winner,
        "resigned": match.resigned,
        # The commitment to the deals, checked (issue 26; a record without one: null).
        "fairness": fair.checked(data, rules.players, finished=match.is_over),
        "over": match.is_over,
        "ending": words.match_ending(match, seats),
        "thresholds": {"mistake": analysis.MISTAKE, "blunder": analysis.BLUNDER},
    }


class Refused(Exception):
    """A request this module answers with an error: ``status``, ``message``, ``code``."""

    def __init__(self, status: int, message: str, code: str, retry_after: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.retry_after = retry_after


def not_found() -> Refused:
    # No such table, or its game goes on (its record would show every hand): one answer.
    return Refused(
        404,
        _(
            "There is no finished game to replay: check the table code,"
            " or wait until the game is over."
        ),
        "not-found",
    )


def decode(raw: bytes) -> Any:
    r"""An uploaded body's JSON data; ``ValueError``, as for text that is not JSON, for
    one nested past the recursion limit, not UTF-8, holding lone surrogates (no answer
    could quote them: UTF-8 has none) or a number of thousands of digits.

    >>> decode(b'["\\ud800"]')
    Traceback (most recent call last):
    ValueError: it holds text that is not valid UTF-8
    """
    try:
        data = json.loads(raw)
        json.dumps(data, ensure_ascii=False).encode()
    except RecursionError:
        raise ValueError(_("it nests too deeply")) from None
    except UnicodeError:  # not UTF-8 when decoded, a lone surrogate when encoded
        raise ValueError(_("it holds text that is not valid UTF-8")) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # int() past sys.get_int_max_str_digits()
        raise ValueError(_("it holds a number too long to read")) from None
    return data


def parse_record(source: bytes | Mapping[str, Any]) -> tuple[Mapping[str, Any], Match]:
    """An uploaded record's data and its match, if it is a finished game's record
    (long for a large record: called off the event loop)."""
    try:
        data = decode(source) if isinstance(source, bytes) else source
        if not isinstance(data, Mapping):
            raise PassingGameError(_("it holds something other than a game"))
        match = load_record(data)
    except (ValueError, RecursionError) as exc:  # RecordError, decode's refusals
        # Quoted back cut short, unprintable characters replaced (the record's text).
        reason = shown(str(exc), 200)
        message = _("This file is not a usable game record: {reason}.").format(reason=reason)
        raise Refused(400, message, "record") from None
    if not match.is_over:
        raise Refused(
            400,
            _("This record's game is not over: only finished games are replayed and analysed."),
            "not-over",
        )
    return data, match


def seat_of(value: Any, players: int) -> int:
    """The seat a request names: an index from 0, as everywhere in the protocol (P27)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise Refused(
            400,
            _("This game has no such seat: its seats are 1 to {n}.").format(n=players),
            "bad-seat",
        )
    return value


@dataclass(frozen=True)
class Asked:
    """The seat of a finished game an analysis is asked for, and what finding it needs."""

    data: Mapping[str, Any]
    match: Match
    seat: int
    key: str  # record_hash
    total: int  # the seat's decisions that are not forced


def asked(data: Mapping[str, Any], match: Match, seat_value: Any) -> Asked:
    """The seat ``seat_value`` names of a finished game, its decisions counted
    (refused past ``MAX_DECISIONS``)."""
    seat = seat_of(seat_value, match.rules.players)
    marks = record_marks(data)
    total = sum(1 for t in analysis.decisions(match, seat, marks) if not t.forced)
    if total > MAX_DECISIONS:
        raise Refused(
            413,
            ngettext(
                "This game is too long to analyse here (at most {most} decision; it has {n}).",
                "This game is too long to analyse here (at most {most} decisions; it has {n}).",
                MAX_DECISIONS,
            ).format(n=total, most=MAX_DECISIONS),
            "too-long",
        )
    return Asked(data, match, seat, record_hash(match, marks), total)


def analysis_message(raw: bytes) -> Asked | dict[str, Any]:
    """What ``POST /api/analysis`` asks for: the game, when the body holds its record;
    else the body, whose ``code`` and ``game`` name a table's game."""
    try:
        body = decode(raw)
    except ValueError as exc:
        message = _(
            "The server could not read what the page sent ({reason}):"
            " reload the page and try again."
        )
        raise Refused(400, message.format(reason=shown(str(exc), 200)), "bad-request") from None
    if not isinstance(body, dict):
        raise Refused(400, _(UNREADABLE), "bad-request")
    if "record" not in body:
        return body
    record = body["record"]
    # Not an object: parse_record refuses it as any file that is not a game record.
    return asked(*parse_record(record), body.get("seat"))


def stored_record(text: str) -> tuple[Any, Match]:
    """A stored game's record (finished: the store gives no other) and its match."""
    data = json.loads(text)
    return data, load_record(data)


__all__ = [
    "MAX_DECISIONS",
    "MAX_RECORD_BYTES",
    "Asked",
    "Refused",
    "analysis_message",
    "asked",
    "decode",
    "display_names",
    "not_found",
    "parse_record",
    "record_hash",
    "replay_data",
    "seat_of",
    "stored_record",
]
