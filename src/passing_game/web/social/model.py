"""Friends, challenges and blocks as rules, without a database (issue 27, item 2; P59).

Who may follow or challenge whom, when a challenge is over, what a
challenge says of its table, and the answers' words. The store's rows come
in (``store/social.py``), the clock is given (``now``); nothing here reads
either by itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from passing_game.i18n import N_, _, ngettext
from passing_game.web.protocol import YES_OR_NO
from passing_game.web.store.social import Account, ChallengeRow

#: How long a challenge waits for its answer.
CHALLENGE_SECONDS = 600.0
#: The most challenges one account has waiting for an answer at once.
MOST_OUTGOING = 5
#: The most challenges one account may have waiting for it (more: "cannot be challenged now").
MOST_INCOMING = 20
#: How long a challenge answered (or expired) is still reported to both pages.
RECENT_SECONDS = 120.0
#: The longest name looked up.
LONGEST_NAME = 64

SIGN_IN = N_("Sign in to follow people and challenge them.")
BAD_NAME = N_("Type the name of an account.")
NO_ACCOUNT = N_("There is no account named {name}.")
YOURSELF = N_("That is your own account.")
# The same answer for a block, a suspended account and one with too many challenges
# waiting: the challenger learns no more of a block than that (P59).
CANNOT_CHALLENGE = N_("{name} cannot be challenged now.")
CANNOT_FOLLOW = N_("{name} cannot be followed now.")
YOU_BLOCK = N_("You block {name}: unblock the account first.")
ALREADY = N_("You have challenged {name} already: wait for the answer or cancel it.")
GONE = N_("This challenge is over: it was answered, cancelled, or it expired.")
ONE_PERSON = N_("A challenge has one seat for the person challenged; bots sit in the others.")
NOT_BLOCKED = N_("You do not block {name}.")
# A bot that never answers must not hold its table for ever (P62).
BOT_CLOCK = N_("A game with a bot account has a clock: choose one.")


class SocialError(Exception):
    """A refusal: its sentence (a msgid, worded when raised), code and HTTP status."""

    def __init__(self, message: str, code: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def refuse(msgid: str, code: str, status: int = 400, **names: Any) -> SocialError:
    """A ``SocialError`` worded in the current language."""
    return SocialError(_(msgid).format(**names), code, status)


def too_many(n: int) -> SocialError:
    return SocialError(
        ngettext(
            "You have {n} challenge waiting for an answer: cancel it first.",
            "You have {n} challenges waiting for an answer: cancel one first.",
            n,
        ).format(n=n),
        "too-many",
    )


def clean_name(value: object) -> str:
    """A name as typed, trimmed; ``SocialError`` if it is no name."""
    if not isinstance(value, str) or not value.strip() or len(value) > LONGEST_NAME:
        raise refuse(BAD_NAME, "bad-name")
    return value.strip()


def check_target(me: str, target: Account | None, name: str) -> Account:
    """The account a name names, unless it names none or the asker's own."""
    if target is None:
        raise refuse(NO_ACCOUNT, "no-such-account", 404, name=name)
    if target.id == me:
        raise refuse(YOURSELF, "yourself")
    return target


@dataclass(frozen=True)
class Standing:
    """What stands between a challenger and the account challenged."""

    #: The account challenged blocks the challenger.
    blocked: bool = False
    #: The challenger blocks the account challenged.
    blocking: bool = False
    #: The challenger has an open challenge to that account already.
    pending: bool = False
    #: The challenger's open challenges, and the other account's incoming ones.
    outgoing: int = 0
    incoming: int = 0


def may_challenge(target: Account, standing: Standing) -> None:
    """Refuse a challenge the rules do not allow (the names are the target's)."""
    if standing.blocking:
        raise refuse(YOU_BLOCK, "you-block", name=target.name)
    if standing.blocked or not target.usable or standing.incoming >= MOST_INCOMING:
        raise refuse(CANNOT_CHALLENGE, "unavailable", name=target.name)
    if standing.pending:
        raise refuse(ALREADY, "already-challenged", name=target.name)
    if standing.outgoing >= MOST_OUTGOING:
        raise too_many(standing.outgoing)


def may_follow(target: Account, *, blocked: bool) -> None:
    if blocked:
        raise refuse(CANNOT_FOLLOW, "unavailable", name=target.name)


def create_fields(body: Mapping[str, Any]) -> dict[str, Any]:
    """A challenge's table as the page sends it, shaped as a create intent's fields
    (checked by the lobby's own checks, ``lobby.table_choices``); the challenger
    sits at ``"you"``, the account challenged at the one ``"person"``."""
    seats = body.get("seats")
    if not isinstance(seats, list) or seats.count("person") != 1:
        raise refuse(ONE_PERSON, "bad-settings")
    rated = body.get("rated", False)
    if not isinstance(rated, bool):
        raise refuse(YES_OR_NO, "bad-settings")
    return {"rules": body.get("rules"), "seats": seats, "clock": body.get("clock"), "rated": rated}


def status_at(row: ChallengeRow, now: float) -> str:
    """``"open"``, ``"expired"`` (open past its time), or the answer given."""
    if row.status == "open" and now >= row.expires:
        return "expired"
    return row.status


def answerable(row: ChallengeRow | None, me: str, now: float, *, incoming: bool) -> ChallengeRow:
    """The challenge, if ``me`` may still answer it (``incoming``: as the account
    challenged; else cancel it as its challenger). Another's challenge is "gone" too."""
    side = None if row is None else (row.to_id if incoming else row.from_id)
    if row is None or side != me or status_at(row, now) != "open":
        raise refuse(GONE, "gone", 404)
    return row


def seat_of(row: ChallengeRow, user_id: str) -> int:
    """The seat ``user_id`` has at the challenge's table."""
    seats = list(row.settings["seats"])
    return seats.index("you" if user_id == row.from_id else "person")


def challenge_json(row: ChallengeRow, me: str, now: float) -> dict[str, Any]:
    """A challenge as the page of ``me`` (its challenger or the account challenged) sees it."""
    settings = row.settings
    rules = settings.get("about") or settings.get("rules") or {}
    seats = list(settings.get("seats") or ())
    status = status_at(row, now)
    out: dict[str, Any] = {
        "id": row.id,
        "incoming": row.to_id == me,
        "from": row.from_name,
        "to": row.to_name,
        "status": status,
        "expires_in": max(0, round(row.expires - now)),
        "players": int(rules.get("players", len(seats))),
        "target": rules.get("target"),
        "partnerships": bool(rules.get("partnerships")),
        "clock": settings.get("clock"),
        "rated": bool(settings.get("rated")),
        "bots": [s for s in seats if s not in ("you", "person")],
    }
    if status == "accepted" and row.code:
        out["code"] = row.code
        out["seat"] = seat_of(row, me)
    return out


__all__ = [
    "CHALLENGE_SECONDS",
    "MOST_INCOMING",
    "MOST_OUTGOING",
    "RECENT_SECONDS",
    "SocialError",
    "Standing",
    "answerable",
    "challenge_json",
    "check_target",
    "clean_name",
    "create_fields",
    "may_challenge",
    "may_follow",
    "refuse",
    "seat_of",
    "status_at",
    "too_many",
]
