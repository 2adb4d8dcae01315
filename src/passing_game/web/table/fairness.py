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
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from passing_game.fairness import Fairness, FairnessError, check, check_moves, moves_digest
from passing_game.i18n import N_
from passing_game.match import Match

log = logging.getLogger("passing_game.web")


def stored(fairness: Fairness | None) -> str | None:
    """As the store keeps it (``web_games.fairness``)."""
    return None if fairness is None else fairness.to_json()


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


def revealed(fairness: Fairness | None, match: Match) -> dict[str, Any] | None:
    """What the record says of the commitment: everything, with the moves' digest."""
    return None if fairness is None else fairness.to_dict(digest(match))


def frame_fields(fairness: Fairness | None, match: Match) -> dict[str, Any]:
    """The commitment every viewer sees, and the moves' digest once the game is over."""
    if fairness is None:
        return {"commitment": None}
    fields: dict[str, Any] = {"commitment": fairness.commitment}
    if match.is_over:
        fields["moves_digest"] = digest(match)
    return fields


def checked(data: Mapping[str, Any], players: int) -> dict[str, Any] | None:
    """What the replay page says of a record's commitment (``None``: it has none): the
    record has replayed already (every deal from its seed, every move), so what is left
    is the commitment, the seed and the moves' digest."""
    if "fairness" not in data:
        return None
    try:
        problem = check(data, players) or check_moves(data)
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
}


__all__ = ["FAIRNESS_TEXTS", "checked", "digest", "frame_fields", "loaded", "revealed", "stored"]
