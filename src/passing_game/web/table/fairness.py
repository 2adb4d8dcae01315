"""A table game's commitment (issue 26, item 3; the scheme is ``passing_game.fairness``).

Every game of a friends' table and of quick play is dealt from a seed the
server committed to: its ``Fairness`` (a secret seed and a salt) is drawn when
the game is made, kept with the game in the store (``web_games.fairness``, so
every process shows the same), and the match's seed is its ``seed``. Every
frame, a seat's or a spectator's, carries the ``commitment`` from the start;
once the game is over a frame also carries the digest of its moves, and the
record reveals everything (``revealed``) for ``passing-game verify`` and the
replay page to check. A daily deal (the same deal for everyone, from the
day's key) and a practice round (a deal taken from another game) have none.

At a rated table and a tournament's (not a duplicate's) the deal also waits
for each person's browser to add a contribution (``game/dealing.py``):
while it waits, the stored secrets carry ``WAITS`` (when the wait ends;
``null`` until every seat is taken), which the record never shows.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from passing_game.fairness import Fairness, FairnessError, check, check_moves, moves_digest
from passing_game.i18n import N_
from passing_game.match import Match
from passing_game.web.game.events import Contribute, Deal, OpenDeal
from passing_game.web.game.model import Dealing

log = logging.getLogger("passing_game.web")


#: The stored secrets' key while the deal waits for contributions (P51).
WAITS = "deal_waits_until"


def stored(fairness: Fairness | None, dealing: Dealing | None = None) -> str | None:
    """As the store keeps it (``web_games.fairness``), with the deal's wait if any."""
    if fairness is None:
        return None
    data = fairness.to_dict()
    if dealing is not None:
        data[WAITS] = dealing.until
    return json.dumps(data)


def awaiting(fairness: Fairness) -> str:
    """A new game's secrets whose deal waits for the people's contributions."""
    return json.dumps({**fairness.to_dict(), WAITS: None})


def dealing_of(text: str | None, fairness: Fairness | None) -> Dealing | None:
    """A stored game's wait for contributions (``None``: it is dealt)."""
    if text is None or fairness is None:
        return None
    until = json.loads(text).get(WAITS, False)
    if until is False:
        return None
    given = tuple(c is not None for c in fairness.contributions)
    return Dealing(None if until is None else float(until), given)


def loaded(text: str | None, players: int) -> Fairness | None:
    """A stored game's secrets (``None``: it has none, or they do not read)."""
    if text is None:
        return None
    try:
        return Fairness.from_dict(json.loads(text), players)
    except (ValueError, FairnessError):
        log.error("a game's stored commitment does not read; the game is shown without it")
        return None


def digest(match: Match) -> str:
    """The digest of every move of the match so far (``passing_game.fairness``)."""
    return moves_digest([[str(m) for m in r.moves] for r in match.rounds])


def after(
    fairness: Fairness | None,
    waiting: Dealing | None,
    effect: Contribute | OpenDeal | Deal,
) -> tuple[Fairness, Dealing | None, int, str]:
    """A waiting deal after a contribution, the wait's start or the deal
    (``game/dealing.py``): its secrets, its wait (``None``: dealt), the game's
    seed and what the store keeps."""
    assert fairness is not None and waiting is not None
    if isinstance(effect, Deal):
        return fairness, None, fairness.seed, fairness.to_json()
    if isinstance(effect, Contribute):
        fairness = fairness.contributed(effect.seat, effect.value)
        waiting = replace(waiting, given=tuple(c is not None for c in fairness.contributions))
    else:
        waiting = replace(waiting, until=effect.until)
    # The seed stays the server's alone until the deal: no hand is dealt before.
    return fairness, waiting, fairness.seed, str(stored(fairness, waiting))


def revealed(fairness: Fairness | None, match: Match) -> dict[str, Any] | None:
    """What the record says of the commitment: everything, with the moves' digest."""
    return None if fairness is None else fairness.to_dict(digest(match))


def frame_fields(
    fairness: Fairness | None,
    match: Match,
    dealing: Dealing | None = None,
    viewer: int | None = None,
    now: float = 0.0,
) -> dict[str, Any]:
    """The commitment every viewer sees, the moves' digest once the game is over, and
    while the deal waits, until when and whether the viewer's browser is to give."""
    if fairness is None:
        return {"commitment": None, "dealing": None}
    fields: dict[str, Any] = {"commitment": fairness.commitment, "dealing": None}
    if dealing is not None:
        fields["dealing"] = {
            "left_ms": None
            if dealing.until is None
            else max(0, round((dealing.until - now) * 1000)),
            "give": viewer is not None and not dealing.given[viewer],
            "given": sum(dealing.given),
        }
    if match.is_over:
        fields["moves_digest"] = digest(match)
    return fields


def checked(data: Mapping[str, Any], players: int, finished: bool = False) -> dict[str, Any] | None:
    """What the replay page says of a record's commitment (``None``: it has none): the
    record has replayed already (every deal from its seed, every move), so what is left
    is the commitment, the seed and the moves' digest (which a ``finished`` game's
    record always carries)."""
    if "fairness" not in data:
        return None
    try:
        problem = check(data, players) or check_moves(data, finished=finished)
    except FairnessError as exc:
        problem = str(exc)
    shown = data["fairness"]
    plain = {k: shown.get(k) for k in ("commitment", "server_seed", "salt", "contributions")}
    return {**plain, "verified": problem is None, "problem": problem}


#: What the page says of the commitment (``static/fairness.js``; page text key -> English).
FAIRNESS_TEXTS: dict[str, str] = {
    "Deal commitment": N_("Deal commitment"),
    "Moves digest": N_("Moves digest"),
    "The server committed to this game's deals before they were dealt; the record reveals its seed, so anyone can check them (passing-game verify).": N_(  # noqa: E501
        "The server committed to this game's deals before they were dealt; the record"
        " reveals its seed, so anyone can check them (passing-game verify)."
    ),
    "This record carries no commitment: it was written before games had one.": N_(
        "This record carries no commitment: it was written before games had one."
    ),
    "Verified: the commitment shown before the deal matches the seed revealed, the seed deals every round, and every move is the table's.": N_(  # noqa: E501
        "Verified: the commitment shown before the deal matches the seed revealed, the"
        " seed deals every round, and every move is the table's."
    ),
    "Not verified: {reason}": N_("Not verified: {reason}"),
    "This browser checked the commitment too.": N_("This browser checked the commitment too."),
    "This browser finds another commitment: the record was changed.": N_(
        "This browser finds another commitment: the record was changed."
    ),
    # The people's parts of a deal (game/dealing.py).
    "Your browser's part": N_("Your browser's part"),
    "This browser's random part of the deal: the record shows it after the game.": N_(
        "This browser's random part of the deal: the record shows it after the game."
    ),
    "Parts of the deal": N_("Parts of the deal"),
    "Your tiles come with the deal.": N_("Your tiles come with the deal."),
    "not given": N_("not given"),
    "This browser's own part is in the seed.": N_("This browser's own part is in the seed."),
}


__all__ = [
    "FAIRNESS_TEXTS",
    "WAITS",
    "after",
    "awaiting",
    "checked",
    "dealing_of",
    "digest",
    "frame_fields",
    "loaded",
    "revealed",
    "stored",
]
