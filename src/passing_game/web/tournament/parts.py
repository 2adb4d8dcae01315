"""A duplicate tournament's deals, which nobody chooses alone (issue 26, item 3; P55).

Every table of a duplicate round plays the same deal, so the parts a
table's browsers give (``web/game/dealing.py``) cannot go into it: they
would make the tables differ. The parts are given at the tournament's
level instead. The tournament's secret (``Event.secret``, drawn when it is
made) is committed on its page from the start (``commitment``); each
person's browser sends a random part with its join; each round's server
seed is SHA-256 of the secret, the round's number and the parts of
everyone in when the round is made, sorted (``round_fairness``), and its
tables' commitment and deal follow from that seed as any table's do (P51).
Once the tournament is over its page reveals the secret and each round's
parts, and ``check`` recomputes every round's seed from them.

>>> from passing_game.web.tournament.model import Event
>>> e = Event(id="t", name="T", kind="duplicate", secret="ab" * 32)
>>> one = round_fairness(e, 1, ["00" * 8])
>>> one.server_seed != round_fairness(e, 1, ["11" * 8]).server_seed
True
>>> check(e, commitment(e), {1: (["00" * 8], one.server_seed)}) is None
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from passing_game.fairness import Fairness
from passing_game.fairness import commitment as committed
from passing_game.i18n import _
from passing_game.web.tournament.model import Event


def _salt(secret: str) -> str:
    return hashlib.sha256(f"passing-game/duplicate-salt/{secret}".encode()).hexdigest()[:32]


def commitment(event: Event) -> str | None:
    """What the tournament's page shows from the start (``None``: made before
    tournaments had one): SHA-256 of its secret and salt, as a table's (P51)."""
    return committed(event.secret, _salt(event.secret)) if event.secret else None


def round_fairness(event: Event, number: int, parts: Sequence[str] = ()) -> Fairness:
    """A duplicate round's secret seed and salt, the same at every table of the
    round (one commitment, the same deals): from the tournament's secret and the
    parts of everyone in (a tournament made before secrets: from its seed alone)."""
    if event.secret:
        base = f"passing-game/duplicate/{event.secret}/{number}"
        base += "".join(f"/{p}" for p in sorted(parts))
    else:
        base = f"passing-game/duplicate/{event.seed}/{number}"
    server_seed = hashlib.sha256(base.encode()).hexdigest()
    salt = hashlib.sha256((base + "/salt").encode()).hexdigest()[:32]
    return Fairness(server_seed, salt, (None,) * event.size)


def check(
    event: Event, shown: str | None, rounds: Mapping[int, tuple[Sequence[str], str]]
) -> str | None:
    """What does not hold (``None``: it all does) of a finished duplicate: the
    commitment ``shown`` from the start against the secret revealed, then each
    round's server seed (as its tables' records reveal it) against the one its
    parts give. ``rounds``: number -> (its parts, its tables' server seed)."""
    if not event.secret:
        return _("This tournament was made before tournaments had a commitment.")
    if commitment(event) != shown:
        return _("The tournament's secret does not give the commitment shown before it began.")
    for number, (given, seed) in sorted(rounds.items()):
        if round_fairness(event, number, given).server_seed != seed:
            return _("Round {n}'s deals do not follow from the secret and the parts.").format(
                n=number
            )
    return None


def shown(
    event: Event, finished: bool, tables: Sequence[tuple[int, Sequence[str], str | None]]
) -> dict[str, Any]:
    """What the page says of it: the commitment from the start; once it is over
    the secret, each round's parts, and whether it all holds (``check``).
    ``tables``: each finished table's round, parts and revealed server seed."""
    found: dict[str, Any] = {"commitment": commitment(event)}
    if not finished or event.kind != "duplicate" or not event.secret:
        return found
    rounds: dict[int, tuple[Sequence[str], str]] = {}
    for number, given, seed in tables:
        before = rounds.get(number)
        if before is not None and before[1] != seed:
            seed = ""  # two tables of one round dealt apart: it cannot hold
        rounds[number] = (given, seed or "")
    problem = check(event, found["commitment"], rounds)
    found.update(
        secret=event.secret,
        rounds=[{"number": n, "parts": list(g)} for n, (g, _s) in sorted(rounds.items())],
        verified=problem is None,
        problem=problem,
    )
    return found


__all__ = ["check", "commitment", "round_fairness", "shown"]
