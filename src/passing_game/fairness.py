"""Deals anyone can check (issue 26, item 3): a commitment to the seed before the deal.

Before a game's first deal the server draws a secret ``server_seed`` and a
``salt`` and shows every seat and spectator the ``commitment``, the SHA-256
of both. Where a game asks for them (rated games, tournaments), each
person's browser adds a random ``contribution`` of its own, and the match's
seed (D9: every deal follows from it) is the SHA-256 of the server seed and
every contribution, in seat order, cut to 63 bits: the server cannot choose
the deal alone, and nobody can know it before the last contribution. After
the game the record reveals all of it under ``"fairness"`` (docs/RECORDS.md),
with the digest of the moves that the table showed at the end, and
``check`` recomputes the commitment, the seed and the digest; the record's
own loading (``load_record``) recomputes every deal from the seed and every
move, result and score.

>>> f = Fairness("ab" * 32, "cd" * 16, (None, "0123456789abcdef"))
>>> f.commitment == commitment("ab" * 32, "cd" * 16) and len(f.commitment) == 64
True
>>> 0 <= f.seed < 2**63 and f.seed != Fairness("ab" * 32, "cd" * 16, (None, None)).seed
True
>>> Fairness.from_dict({"scheme": SCHEME, "server_seed": "xyz"}, players=2)
Traceback (most recent call last):
...
passing_game.fairness.FairnessError: fairness: 'server_seed' must be 64 hexadecimal digits
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from passing_game.errors import PassingGameError
from passing_game.i18n import _, ngettext

#: Names how the commitment and the seed are computed; a change to either changes it.
SCHEME = "sha256-1"
#: A contribution: 16 to 64 hexadecimal digits (8 to 32 random bytes).
CONTRIBUTION = re.compile(r"[0-9a-f]{16,64}")
_SEED = re.compile(r"[0-9a-f]{64}")
_SALT = re.compile(r"[0-9a-f]{32}")


class FairnessError(PassingGameError):
    """A record's ``fairness`` that is not well formed, or a contribution that is not one."""


def commitment(server_seed: str, salt: str) -> str:
    """What everyone sees before the deal: SHA-256 of the server's seed and the salt."""
    return hashlib.sha256(f"passing-game/commit/{server_seed}/{salt}".encode()).hexdigest()


def mixed_seed(server_seed: str, contributions: Sequence[str | None]) -> int:
    """The match's seed: SHA-256 of the server's seed and each seat's contribution
    (``-`` for none), the first 63 bits."""
    text = "passing-game/seed/" + server_seed + "".join("/" + (c or "-") for c in contributions)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def moves_digest(rounds: Sequence[Sequence[str]]) -> str:
    """SHA-256 of every round's moves in notation (the table shows it when the game ends)."""
    text = json.dumps([list(moves) for moves in rounds], separators=(",", ":"))
    return hashlib.sha256(f"passing-game/moves/{text}".encode()).hexdigest()


@dataclass(frozen=True)
class Fairness:
    """One game's secret seed, its salt and the seats' contributions (``None``: none)."""

    server_seed: str
    salt: str
    contributions: tuple[str | None, ...]

    @classmethod
    def new(cls, players: int) -> Fairness:
        """A fresh secret seed and salt, no contribution yet."""
        return cls(secrets.token_hex(32), secrets.token_hex(16), (None,) * players)

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed, self.salt)

    @property
    def seed(self) -> int:
        return mixed_seed(self.server_seed, self.contributions)

    def contributed(self, seat: int, value: object) -> Fairness:
        """This with ``seat``'s contribution (``FairnessError`` for one that is not)."""
        if not isinstance(value, str) or not CONTRIBUTION.fullmatch(value):
            raise FairnessError(_("a contribution is 16 to 64 lowercase hexadecimal digits"))
        if not 0 <= seat < len(self.contributions):
            raise FairnessError(_("there is no seat {n}").format(n=seat + 1))
        given = list(self.contributions)
        given[seat] = value
        return replace(self, contributions=tuple(given))

    def to_json(self) -> str:
        """As a store keeps it (``from_dict`` reads it back)."""
        return json.dumps(self.to_dict())

    def to_dict(self, digest: str | None = None) -> dict[str, Any]:
        """The record's ``fairness`` (``digest``: the moves', once the game is over)."""
        data: dict[str, Any] = {
            "scheme": SCHEME,
            "commitment": self.commitment,
            "server_seed": self.server_seed,
            "salt": self.salt,
            "contributions": list(self.contributions),
        }
        if digest is not None:
            data["moves_digest"] = digest
        return data

    @classmethod
    def from_dict(cls, data: object, players: int) -> Fairness:
        """A record's ``fairness`` read and checked for form (not yet against the game)."""
        if not isinstance(data, Mapping):
            raise FairnessError(_("fairness: must be an object"))
        if data.get("scheme") != SCHEME:
            raise FairnessError(
                _("fairness: unknown scheme {scheme}; known: {known}").format(
                    scheme=json.dumps(data.get("scheme")), known=SCHEME
                )
            )
        seed, salt = data.get("server_seed"), data.get("salt")
        if not isinstance(seed, str) or not _SEED.fullmatch(seed):
            raise FairnessError(_("fairness: 'server_seed' must be 64 hexadecimal digits"))
        if not isinstance(salt, str) or not _SALT.fullmatch(salt):
            raise FairnessError(_("fairness: 'salt' must be 32 hexadecimal digits"))
        given = data.get("contributions")
        if not isinstance(given, list) or len(given) != players:
            raise FairnessError(
                ngettext(
                    "fairness: 'contributions' must list {n} seat",
                    "fairness: 'contributions' must list {n} seats",
                    players,
                ).format(n=players)
            )
        for value in given:
            if value is not None and (
                not isinstance(value, str) or not CONTRIBUTION.fullmatch(value)
            ):
                raise FairnessError(
                    _("fairness: a contribution is null or 16 to 64 hexadecimal digits")
                )
        return cls(seed, salt, tuple(given))


def check(data: Mapping[str, Any], players: int) -> str | None:
    """The first thing about a record's ``fairness`` that does not hold against the
    record's seed (the commitment, then the seed), or ``None``; ``FairnessError`` for a
    ``fairness`` that is not well formed."""
    fairness = Fairness.from_dict(data.get("fairness"), players)
    if data["fairness"].get("commitment") != fairness.commitment:
        return _("the commitment is not the SHA-256 of the server seed and the salt")
    if data.get("seed") != fairness.seed:
        return _("the seed is not the one the server seed and the contributions give")
    return None


def check_moves(data: Mapping[str, Any], *, finished: bool = False) -> str | None:
    """Whether the record's moves are those of its ``moves_digest``. A game under way
    may have none yet; a ``finished`` game's record as written always has it."""
    digest = data["fairness"].get("moves_digest")
    if digest is None:
        if finished:
            return _("the moves' digest is missing: a finished game's record always carries it")
        return None
    rounds = [r.get("moves", []) for r in data.get("rounds", []) if isinstance(r, Mapping)]
    if digest != moves_digest(rounds):
        return _("the moves are not the ones whose digest the table showed")
    return None


__all__ = [
    "CONTRIBUTION",
    "SCHEME",
    "Fairness",
    "FairnessError",
    "check",
    "check_moves",
    "commitment",
    "mixed_seed",
    "moves_digest",
]
