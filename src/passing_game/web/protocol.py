"""What clients may send, checked field by field.

A client sends one JSON object per WebSocket message, an *intent*: it asks
the server to do something and the server decides. ``parse_intent`` accepts
only the shapes below and raises ``ProtocolError`` with a sentence a person
can read for anything else (too long, not JSON, an unknown type, a missing
or extra field, a wrong type, a value out of range). Nothing is changed
before a message has passed these checks.

====================  =================================================
intent                fields besides ``type``
====================  =================================================
``create``            ``name``, ``seats`` (one entry per seat: ``"you"``
                      once, ``"person"``, or a bot level), ``rules``,
                      optional ``clock``, ``rated``, ``public``
``join``              ``code``, ``name``, optional ``seat`` or ``invite``
``watch``             ``code``
``resume``            ``code``, ``seat``, ``token`` (not needed for a
                      signed-in person's own seat)
``play``              ``move`` in move notation (``L3-5``, ``R6-6``)
``draw`` ``pass``     none
``hint`` ``continue`` none
``rematch`` ``sync``  none
``leave`` ``back``    none (leave the table; take the seat back from a stand-in)
``resign``            none (a two-player game)
``invite``            ``seat`` (the creator: a new one-time invitation)
``hand_over``         ``seat``, ``level`` (the creator: a bot takes the seat)
``quick``             ``players`` (2-4), optional ``rated``, ``name`` (quick
                      play: wait to be seated with others, web/quickplay/service.py)
``quick_fill``        none (bots take the seats nobody waits for)
``quick_cancel``      none (stop waiting)
``daily``             none (today's daily deal, web/daily.py)
``contribute``        ``value``: 16 to 64 hexadecimal digits, the browser's
                      random part of the deal (web/game/dealing.py)
====================  =================================================

>>> parse_intent('{"type": "play", "move": "l5-3"}')
Intent(type='play', fields={'move': 'L3-5'})
>>> try:
...     parse_intent('{"type": "fly"}')
... except ProtocolError as refused:
...     print(str(refused).split(":")[0])
The server does not know the request “fly”
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from passing_game.errors import PassingGameError
from passing_game.fairness import CONTRIBUTION
from passing_game.i18n import N_, _, ngettext
from passing_game.moves import Play, parse_move
from passing_game.rules import (
    DRAW_RULES,
    LEADER_RULES,
    PASSING_RULES,
    SCORING_RULES,
    TARGET_PRESETS,
    Rules,
    RulesError,
)
from passing_game.web.accounts import names
from passing_game.web.game.errors import (
    BAD_PART,
    GIVE_A_NAME,
    NOT_A_CHOICE,
    NOT_YOUR_SEAT,
    UNKNOWN_REQUEST,
    UNREADABLE,
)
from passing_game.web.game.errors import ProtocolError as ProtocolError

#: The longest message a client may send, in bytes (UTF-8).
MAX_MESSAGE_BYTES = 4096
#: The longest name, in characters.
MAX_NAME = 24
#: Table codes: six characters that cannot be mistaken for one another.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
_CODE = re.compile(f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")


def random_code() -> str:
    """A table code drawn at random (whether a table has it is the store's to say)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))


_TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


@dataclass(frozen=True)
class Intent:
    """A checked message: its ``type`` and its fields, already normalised."""

    type: str
    fields: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)


# -- field checkers: each returns the normalised value or raises ------------


def _str(value: Any, longest: int = 200) -> str:
    """A text field, or a refusal that names no field (the page never sends a wrong
    one; a person reads that the page should be reloaded, issue 24)."""
    if not isinstance(value, str):
        raise ProtocolError(
            _("Something the page sent is not text: reload the page and try again.")
        )
    if len(value) > longest:
        raise ProtocolError(
            ngettext(
                "Something the page sent is too long: at most {n} character.",
                "Something the page sent is too long: at most {n} characters.",
                longest,
            ).format(n=longest)
        )
    return value


def shown(value: Any, longest: int = 20) -> str:
    """A client's text, safe to quote back in an error: at most ``longest``
    characters, anything unprintable (controls, lone surrogates that UTF-8
    cannot carry) replaced by U+FFFD.

    >>> shown("ab\\ud800\\u0000c")
    'ab\ufffd\ufffdc'
    """
    text = str(value)[:longest]
    return "".join(ch if ch.isprintable() else "\N{REPLACEMENT CHARACTER}" for ch in text)


def clean_name(value: Any) -> str:
    """A display name: normalized, 1-24 characters, never a look-alike of a bot
    or of the site's own names, nor invisible (``names.check``, issue 22).

    >>> clean_name("  Ana\\u0000  <b>Lu</b> ")
    'Ana <b>Lu</b>'
    >>> try:
    ...     clean_name("Hard bot")
    ... except ProtocolError as refused:
    ...     print(refused.code)
    name-reserved
    """
    text = _str(value, 200)
    try:
        text = names.check(text)
    except names.NameRefused as exc:
        # A name with nothing in it is a bad request like any other missing field.
        raise ProtocolError(
            str(exc), "bad-request" if exc.code == "bad-name" else exc.code
        ) from None
    if not text:
        raise ProtocolError(_(GIVE_A_NAME))
    if len(text) > MAX_NAME:
        raise ProtocolError(
            ngettext(
                "A name has at most {n} character.", "A name has at most {n} characters.", MAX_NAME
            ).format(n=MAX_NAME)
        )
    return text


def clean_code(value: Any) -> str:
    """A table code, upper-cased; spaces and dashes people type are ignored."""
    text = _str(value, 40).upper().replace(" ", "").replace("-", "")
    if not _CODE.match(text):
        raise ProtocolError(
            ngettext(
                "A table code is {n} letter or digit, like {example}.",
                "A table code is {n} letters and digits, like {example}.",
                CODE_LENGTH,
            ).format(n=CODE_LENGTH, example="K7M2QX"),
            "bad-code",
        )
    return text


def _seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise ProtocolError(_("That seat does not exist: a table has seats 1 to 4."))
    return value


def _token(value: Any) -> str:
    text = _str(value, 64)
    if not _TOKEN.match(text):
        raise ProtocolError(_(NOT_YOUR_SEAT), "bad-token")
    return text


def _move(value: Any) -> str:
    text = _str(value, 20)
    try:
        move = parse_move(text)
    except PassingGameError:
        raise ProtocolError(
            _("That move could not be read: choose a tile from your hand and an end of the train.")
        ) from None
    if not isinstance(move, Play):
        raise ProtocolError(_("Drawing and passing have buttons of their own: use Draw or Pass."))
    return str(move)


def _choice(value: Any, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ProtocolError(_(NOT_A_CHOICE).format(choices=", ".join(allowed)))
    return value


def parse_rules(value: Any) -> Rules:
    """The rules a creator asked for: every variant of RULES.md, nothing else."""
    if not isinstance(value, Mapping):
        raise ProtocolError(
            _("The table's rules could not be read: reload the page and try again.")
        )
    known = {
        "players",
        "partnerships",
        "draw",
        "passing",
        "scoring",
        "leader",
        "target",
        "target_preset",
    }
    extra = sorted(set(value) - known)
    if extra:
        raise ProtocolError(
            _(
                "The table's rules hold something unknown ({name}): reload the page and try again."
            ).format(name=", ".join(shown(e) for e in extra[:3]))
        )
    players = value.get("players", 2)
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise ProtocolError(_(TWO_TO_FOUR))
    partnerships = value.get("partnerships", False)
    if not isinstance(partnerships, bool):
        raise ProtocolError(_(YES_OR_NO))
    if partnerships and players != 4:
        raise ProtocolError(_("Partnerships need 4 players."))
    fields: dict[str, Any] = {
        "players": players,
        "partnerships": partnerships,
        "draw": _choice(value.get("draw", "ends-turn"), DRAW_RULES),
        "passing": _choice(value.get("passing", "free"), PASSING_RULES),
        "scoring": _choice(value.get("scoring", "literal"), SCORING_RULES),
        "leader": _choice(value.get("leader", "random"), LEADER_RULES),
    }
    target = value.get("target")
    preset = value.get("target_preset")
    if target is not None and preset is not None:
        raise ProtocolError(_("Give a target or a target preset, not both."))
    if target is not None and (
        isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 10000
    ):
        raise ProtocolError(_("The target score is a whole number from 1 to 10000."))
    try:
        if preset is not None:
            return Rules.with_target_preset(_choice(preset, tuple(TARGET_PRESETS)), **fields)
        return Rules(target=target, **fields)  # type: ignore[arg-type]
    except RulesError as exc:
        raise ProtocolError(str(exc)) from None


def parse_seats(value: Any, players: int, levels: tuple[str, ...]) -> tuple[str, ...]:
    """One entry per seat: ``"you"`` exactly once, ``"person"`` or a bot level."""
    if not isinstance(value, list) or len(value) != players:
        raise ProtocolError(
            ngettext(
                "Say who sits in each seat: this table has {n} seat.",
                "Say who sits in each seat: this table has {n} seats.",
                players,
            ).format(n=players)
        )
    allowed = ("you", "person", *levels)
    seats = tuple(_choice(v, allowed) for v in value)
    if seats.count("you") != 1:
        raise ProtocolError(_("Exactly one seat must be yours."))
    return seats


#: Refusals this module words in more than one place (each written once).
YES_OR_NO = N_("A yes-or-no choice was neither: reload the page and try again.")
TWO_TO_FOUR = N_("A table has 2, 3 or 4 players.")


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ProtocolError(_(YES_OR_NO))
    return value


def _players(value: Any) -> int:
    if isinstance(value, bool) or value not in (2, 3, 4):
        raise ProtocolError(_(TWO_TO_FOUR))
    return int(value)


def _level(value: Any) -> str:
    return _str(value, 40)


def _contribution(value: Any) -> str:
    """A browser's random part of a deal (``passing_game.fairness.CONTRIBUTION``)."""
    if not isinstance(value, str) or not CONTRIBUTION.fullmatch(value):
        raise ProtocolError(_(BAD_PART))
    return value


#: The clocks the lobby offers: seconds a move, and the time bank each seat
#: starts a game with (docs/DECISIONS.md P26).
CLOCK_PRESETS: dict[str, dict[str, float]] = {
    "20": {"move": 20, "bank": 40},
    "45": {"move": 45, "bank": 90},
    "90": {"move": 90, "bank": 180},
}
#: The range of a clock given as numbers (tests and tournaments use short ones).
CLOCK_MOVE_RANGE = (2, 3600)
CLOCK_BANK_RANGE = (0, 3600)


def parse_clock(value: Any) -> dict[str, float] | None:
    """A table's clock: ``None`` or ``"none"``, a preset, or ``{"move": s, "bank": s}``.

    >>> parse_clock("45")
    {'move': 45, 'bank': 90}
    >>> parse_clock({"move": 5, "bank": 0})
    {'move': 5, 'bank': 0}
    """
    if value is None or value == "none":
        return None
    if isinstance(value, str) and value in CLOCK_PRESETS:
        return dict(CLOCK_PRESETS[value])
    if not isinstance(value, Mapping) or set(value) != {"move", "bank"}:
        raise ProtocolError(
            _("The clock could not be read: choose no clock or one of {choices}.").format(
                choices=", ".join(CLOCK_PRESETS)
            )
        )
    clock: dict[str, float] = {}
    for key, (low, high), said in (
        ("move", CLOCK_MOVE_RANGE, N_("A clock's time per move is {low} to {high} seconds.")),
        ("bank", CLOCK_BANK_RANGE, N_("A clock's time bank is {low} to {high} seconds.")),
    ):
        number = value[key]
        if (
            isinstance(number, bool)
            or not isinstance(number, (int, float))
            or not low <= number <= high
        ):
            raise ProtocolError(_(said).format(low=low, high=high))
        clock[key] = number
    return clock


def _message_id(value: Any) -> int:
    """A chat message's id (``web/chat/``)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**62:
        raise ProtocolError(_("That message is not there any more."), "chat-no-message")
    return value


Checker = Callable[[Any], Any]
#: One intent type's required and optional fields with their checkers.
Schema = tuple[dict[str, Checker], dict[str, Checker]]

#: Every intent type: its required and optional fields with their checkers
#: (what this process does with each, and where it goes: ``intents.ROUTES``).
SCHEMA: dict[str, Schema] = {
    "create": (
        {"name": clean_name, "seats": lambda v: v, "rules": lambda v: v},
        {"clock": lambda v: v, "rated": _flag, "public": _flag},
    ),
    "join": ({"code": clean_code, "name": clean_name}, {"seat": _seat, "invite": _token}),
    "watch": ({"code": clean_code}, {}),
    "resume": ({"code": clean_code, "seat": _seat}, {"token": _token}),
    "play": ({"move": _move}, {}),
    "draw": ({}, {}),
    "pass": ({}, {}),
    "hint": ({}, {}),
    "tracker": ({}, {}),
    "continue": ({}, {}),
    "rematch": ({}, {}),
    "sync": ({}, {}),
    "leave": ({}, {}),
    "back": ({}, {}),
    "resign": ({}, {}),
    "invite": ({"seat": _seat}, {}),
    "hand_over": ({"seat": _seat, "level": _level}, {}),
    "quick": ({"players": _players}, {"rated": _flag, "name": clean_name, "bots": _flag}),
    "quick_fill": ({}, {}),
    "quick_cancel": ({}, {}),
    "daily": ({}, {}),
    "contribute": ({"value": _contribution}, {}),
    # The chat (web/chat/): a preset's key or a text, checked by chat/model.py.
    "say": ({}, {"preset": lambda v: v, "text": lambda v: v}),
    "chat_history": ({}, {}),
    "chat_mute": ({"message": _message_id}, {}),
    "chat_unmute": ({"message": _message_id}, {}),
    "chat_report": ({"message": _message_id}, {}),
}


def parse_intent(text: str | bytes) -> Intent:
    """Check one message from a client; ``ProtocolError`` says what is wrong."""
    if isinstance(text, bytes):
        raise ProtocolError(_(UNREADABLE))
    if (
        len(text) > MAX_MESSAGE_BYTES
        or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES
    ):
        raise ProtocolError(
            ngettext(
                "The page sent too much at once: at most {n} byte.",
                "The page sent too much at once: at most {n} bytes.",
                MAX_MESSAGE_BYTES,
            ).format(n=MAX_MESSAGE_BYTES),
            "too-long",
        )
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError(_(UNREADABLE)) from None
    if not isinstance(data, dict):
        raise ProtocolError(_(UNREADABLE))
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in SCHEMA:
        kind_shown = shown(kind) if isinstance(kind, str) and len(kind) <= 20 else "?"
        raise ProtocolError(_(UNKNOWN_REQUEST).format(type=kind_shown))
    required, optional = SCHEMA[kind]
    extra = sorted(set(data) - {"type"} - set(required) - set(optional))
    if extra:
        names = ", ".join(shown(e) for e in extra[:3])
        raise ProtocolError(
            _(
                "The page sent something the server does not expect ({name}):"
                " reload the page and try again."
            ).format(name=names)
        )
    fields: dict[str, Any] = {}
    for name, check in required.items():
        if name not in data:
            raise ProtocolError(
                _("The page left something out ({name}): reload the page and try again.").format(
                    name=name
                )
            )
        fields[name] = check(data[name])
    for name, check in optional.items():
        if name in data and data[name] is not None:
            fields[name] = check(data[name])
    return Intent(kind, fields)


class RateLimit:
    """A token bucket: ``rate`` messages a second, bursts of ``burst``.

    >>> limit = RateLimit(rate=1, burst=2, clock=lambda: 0.0)
    >>> limit.allow(), limit.allow(), limit.allow()
    (True, True, False)
    """

    def __init__(
        self, rate: float = 10.0, burst: float = 30.0, clock: Callable[[], float] | None = None
    ) -> None:
        import time

        self.rate = rate
        self.burst = burst
        self._clock = clock or time.monotonic
        self._tokens = burst
        self._last = self._clock()

    def retry_after(self) -> float:
        """Seconds until the next message is allowed (0 if one is now)."""
        return max(0.0, (1 - self._tokens) / self.rate)

    def allow(self) -> bool:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False
