"""A ladder's JSON document, checked before the site keeps it (pure; P63).

``passing-game arena --ladder --json FILE`` writes the document
(``arena.ladder.document``; docs/STRENGTH.md "The ladder's file"); a
moderator publishes it (``passing-game admin ladder publish FILE``). The
web never imports the arena, so this module reads the format on its own
side, strictly: ``check`` returns the document rebuilt from the fields it
knows, every one checked, or raises ``LadderFileError`` saying what is
wrong, before anything is stored. tests/test_ladder.py feeds it what the
arena writes.

>>> check({"ladder": 2})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
passing_game.web.ladder.model.LadderFileError: this is not a ladder file of version 1 ...
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from passing_game.i18n import _, ngettext
from passing_game.rules import Rules

#: The version of the document this site reads.
FORMAT = 1
#: The kinds of agent (``arena.agents.KINDS``).
KINDS = ("level", "bot", "frozen", "outside")
#: The largest file a moderator may publish, in bytes.
MAX_BYTES = 1024 * 1024
#: The most agents a published ladder may hold.
MAX_AGENTS = 64
#: The longest label, bot text and command kept.
MAX_LABEL, MAX_BOT, MAX_COMMAND = 60, 500, 2000
#: The fault kinds an outside program may have (``arena.outside.FAULTS``).
FAULTS = ("late", "nonsense", "illegal", "died", "restarts")
#: The rules' variants a document may name (``Rules``' fields, as ``Rules.to_dict`` writes them).
RULE_KEYS = tuple(f.name for f in fields(Rules))


class LadderFileError(ValueError):
    """A document the site will not publish; ``str(exc)`` says what is wrong."""


def parse(text: str | bytes) -> dict[str, Any]:
    """Read a ladder file's text and check it (``check``)."""
    if len(text) > MAX_BYTES:
        raise LadderFileError(
            _("the file is larger than {n} KB: not a ladder file").format(n=MAX_BYTES // 1024)
        )
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError) as exc:
        raise LadderFileError(_("the file is not JSON: {error}").format(error=exc)) from None
    return check(data)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _fail(where: str, what: str) -> LadderFileError:
    # TRANSLATORS: where in a ladder file (like "agents[3].net.low") and what is wrong there.
    return LadderFileError(_("{where}: {what}").format(where=where, what=what))


def _object(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise _fail(where, _("must be an object"))
    return value


def _text(value: Any, where: str, longest: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(where, _("must be a text"))
    if len(value) > longest or not value.isprintable():
        raise _fail(
            where,
            ngettext(
                "must be printable, at most {n} character",
                "must be printable, at most {n} characters",
                longest,
            ).format(n=longest),
        )
    return value


def _whole(value: Any, where: str, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise _fail(where, _("must be a whole number of at least {n}").format(n=least))
    return value


def _number(value: Any, where: str, *, optional: bool = False) -> float | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _fail(where, _("must be a number"))
    return float(value)


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, _("must be true or false"))
    return value


def _interval(
    value: Any, where: str, low: float | None = None, high: float | None = None
) -> dict[str, float | None]:
    """``{estimate, low, high}``: a number and its interval's ends (null: unknown).

    ``low`` and ``high`` bound the estimate; for a share (``high`` given: a
    Wilson interval, a clipped score) they bound the ends too, while a t
    interval of points may reach past what a round can score.
    """
    found = _object(value, where)
    estimate = _number(found.get("estimate"), f"{where}.estimate")
    assert estimate is not None
    ends = [_number(found.get(k), f"{where}.{k}", optional=True) for k in ("low", "high")]
    lo, hi = ends
    if (lo is None) != (hi is None):
        raise _fail(where, _("has one end of its interval and not the other"))
    if lo is not None and hi is not None and not lo - 1e-9 <= estimate <= hi + 1e-9:
        raise _fail(where, _("its estimate is not inside its interval"))
    for v in (estimate, lo, hi) if high is not None else (estimate,):
        if v is not None and (
            (low is not None and v < low - 1e-9) or (high is not None and v > high + 1e-9)
        ):
            raise _fail(where, _("is out of its range"))
    return {"estimate": estimate, "low": lo, "high": hi}


def _run(value: Any) -> dict[str, Any]:
    run = _object(value, "run")
    rules = _object(run.get("rules"), "run.rules")
    unknown = sorted(set(rules) - set(RULE_KEYS))
    if unknown:
        raise _fail("run.rules", _("unknown rule {name}").format(name=unknown[0]))
    kept_rules: dict[str, Any] = {}
    for key in RULE_KEYS:
        item = rules.get(key)
        if item is None:
            continue
        if isinstance(item, (bool, int)):
            kept_rules[key] = item
        else:
            kept_rules[key] = _text(item, f"run.rules.{key}", 40)
    players = _whole(run.get("players"), "run.players", 2)
    partnerships = _flag(run.get("partnerships"), "run.partnerships")
    if not (players == 2 or (players == 4 and partnerships)):
        raise _fail("run.players", _("a ladder is played by 2 players, or 4 in partnerships"))
    if _flag(run.get("interrupted"), "run.interrupted"):
        raise LadderFileError(
            _("this ladder run was interrupted: publish a run that went to its end")
        )
    deals = _whole(run.get("deals"), "run.deals")
    if deals < 2:
        raise _fail("run.deals", _("a ladder needs at least 2 deals played, for its intervals"))
    started = _number(run.get("started"), "run.started")
    finished = _number(run.get("finished"), "run.finished")
    assert started is not None and finished is not None
    if not 0 < started <= finished:
        raise _fail("run.finished", _("must come after run.started"))
    return {
        "command": _text(run.get("command"), "run.command", MAX_COMMAND),
        "started": started,
        "finished": finished,
        "seconds": _number(run.get("seconds"), "run.seconds"),
        "jobs": _whole(run.get("jobs"), "run.jobs", 1),
        "version": _text(run.get("version"), "run.version", 40),
        "rules": kept_rules,
        "players": players,
        "partnerships": partnerships,
        "seed": _whole(run.get("seed"), "run.seed"),
        "rounds_per_pair": _whole(run.get("rounds_per_pair"), "run.rounds_per_pair", 1),
        "deals": deals,
    }


def _agent(value: Any, where: str) -> dict[str, Any]:
    agent = _object(value, where)
    kind = agent.get("kind")
    if kind not in KINDS:
        raise _fail(f"{where}.kind", _("must be one of {kinds}").format(kinds=", ".join(KINDS)))
    faults = _object(agent.get("faults", {}), f"{where}.faults")
    for name in faults:
        if name not in FAULTS:
            raise _fail(f"{where}.faults", _("unknown fault {name}").format(name=str(name)[:20]))
    ms = _number(agent.get("ms_per_move"), f"{where}.ms_per_move", optional=True)
    program = agent.get("program")
    if program is not None or kind == "outside":
        program = _text(program, f"{where}.program", MAX_BOT)
    return {
        "program": program,
        "label": _text(agent.get("label"), f"{where}.label", MAX_LABEL),
        "kind": kind,
        "bot": _text(agent.get("bot"), f"{where}.bot", MAX_BOT),
        "rounds": _whole(agent.get("rounds"), f"{where}.rounds", 1),
        "net": _interval(agent.get("net"), f"{where}.net"),
        "points": _interval(agent.get("points"), f"{where}.points", low=0.0),
        "round_wins": _interval(agent.get("round_wins"), f"{where}.round_wins", 0.0, 1.0),
        "ms_per_move": ms,
        "faults": {k: _whole(faults[k], f"{where}.faults.{k}") for k in FAULTS if k in faults},
    }


def _pair(value: Any, where: str, labels: set[str]) -> dict[str, Any]:
    pair = _object(value, where)
    a = _text(pair.get("a"), f"{where}.a", MAX_LABEL)
    b = _text(pair.get("b"), f"{where}.b", MAX_LABEL)
    for name, label in (("a", a), ("b", b)):
        if label not in labels:
            raise _fail(f"{where}.{name}", _("names no agent of the ladder"))
    if a == b:
        raise _fail(where, _("pairs an agent with itself"))
    counts = [_whole(pair.get(k), f"{where}.{k}") for k in ("wins", "draws", "losses")]
    rounds = _whole(pair.get("rounds"), f"{where}.rounds", 1)
    if sum(counts) != rounds:
        raise _fail(where, _("its wins, draws and losses do not add up to its rounds"))
    return {
        "a": a,
        "b": b,
        "rounds": rounds,
        "net": _interval(pair.get("net"), f"{where}.net"),
        "score": _interval(pair.get("score"), f"{where}.score", 0.0, 1.0),
        "wins": counts[0],
        "draws": counts[1],
        "losses": counts[2],
    }


def check(data: Any) -> dict[str, Any]:
    """The document as the site keeps it, every field checked; else ``LadderFileError``.

    Every pair of agents must be there exactly once: a ladder is complete.
    Agents are kept best first, by their net points against the field.
    """
    top = _object(data, _("the file"))
    if top.get("ladder") != FORMAT:
        raise LadderFileError(
            _('this is not a ladder file of version {format} (its "ladder" is {found})').format(
                format=FORMAT, found=json.dumps(top.get("ladder"))[:20]
            )
        )
    run = _run(top.get("run"))
    listed = top.get("agents")
    if not isinstance(listed, list) or not 2 <= len(listed) <= MAX_AGENTS:
        raise _fail(
            "agents",
            ngettext("must list 2 to {n} agent", "must list 2 to {n} agents", MAX_AGENTS).format(
                n=MAX_AGENTS
            ),
        )
    agents = [_agent(item, f"agents[{i}]") for i, item in enumerate(listed)]
    labels = [a["label"] for a in agents]
    for label in labels:
        if labels.count(label) > 1:
            raise _fail("agents", _("the label {label} is used twice").format(label=label))
    pairs_in = top.get("pairs")
    if not isinstance(pairs_in, list):
        raise _fail("pairs", _("must be a list"))
    pairs = [_pair(item, f"pairs[{i}]", set(labels)) for i, item in enumerate(pairs_in)]
    seen: set[frozenset[str]] = set()
    for i, pair in enumerate(pairs):
        key = frozenset((pair["a"], pair["b"]))
        if key in seen:
            raise _fail(f"pairs[{i}]", _("this pair is there twice"))
        seen.add(key)
    expected = len(labels) * (len(labels) - 1) // 2
    if len(seen) != expected:
        missing = next(
            (a, b)
            for i, a in enumerate(labels)
            for b in labels[i + 1 :]
            if frozenset((a, b)) not in seen
        )
        raise _fail(
            "pairs", _("the pair {a} and {b} is missing").format(a=missing[0], b=missing[1])
        )
    agents.sort(key=lambda a: (-a["net"]["estimate"], a["label"]))
    return {"ladder": FORMAT, "run": run, "agents": agents, "pairs": pairs}


__all__ = ["FORMAT", "KINDS", "MAX_BYTES", "LadderFileError", "check", "parse"]
