"""A round's deal: the seeded shuffle that deals it (R2, D9) and the checks a given deal passes.

``Round.new`` and ``Match`` deal from a seed; ``Round.from_deal`` takes an
exact deal from outside (records, puzzles, tests), checked here first.

>>> hands, boneyard, seat = seeded_deal(Rules(), 42)
>>> [len(h) for h in hands], len(boneyard), seat in (0, 1)
([7, 7], 14, True)
>>> checked_deal(Rules(max_pip=2, hand_size=2), [["0-0", "0-1"], ["1-1", "0-0"]], [], 0)
Traceback (most recent call last):
...
ValueError: the deal holds 0-0 more than once
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from operator import attrgetter

from passing_game.errors import ParseError
from passing_game.i18n import _, ngettext
from passing_game.rules import Rules
from passing_game.tiles import Tile

_BY_INDEX = attrgetter("index")


def seeded_deal(
    rules: Rules, seed: int | str, number: int = 1
) -> tuple[list[list[Tile]], list[Tile], int]:
    """Round ``number``'s shuffled deal and random seat for ``seed`` (R2.1-R2.3, D9).

    A pure function of its arguments: a 192-bit BLAKE2b digest of the seed and
    the round number is read as a number and its digits in the factorial base
    drive a Fisher-Yates shuffle, so every deal is equally likely and any
    round of any seeded game can be dealt without the rounds before it.
    Returns the hands (each sorted), the boneyard (next draw first) and a
    seat drawn at random, used where the leader is chosen at random.
    """
    return shuffled_deal(rules, deal_digest(seed, number))


def deal_digest(seed: int | str, number: int) -> bytes:
    """The 192-bit BLAKE2b digest that deals round ``number`` of ``seed`` (P9)."""
    return hashlib.blake2b(f"passing-game|{seed}|{number}".encode(), digest_size=24).digest()


def shuffled_deal(rules: Rules, digest: bytes) -> tuple[list[list[Tile]], list[Tile], int]:
    """``seeded_deal`` from the digest (``rules_deal`` in ``_rules.h`` does the same in C)."""
    x = int.from_bytes(digest, "little")
    tiles = list(rules.tiles)
    for i in range(len(tiles) - 1, 0, -1):
        x, j = divmod(x, i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    size = rules.hand_size
    hands = [sorted(tiles[i * size : (i + 1) * size], key=_BY_INDEX) for i in range(rules.players)]
    return hands, tiles[rules.players * size :], x % rules.players


def check_leader(rules: Rules, leader: object) -> None:
    """Raise ``ValueError`` unless ``leader`` is a seat index of ``rules``."""
    if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < rules.players:
        raise ValueError(
            _(
                "leader must be a seat index from 0 to {last} (seat 1 is index 0), got “{value}”"
            ).format(last=rules.players - 1, value=leader)
        )


def _tile(value: Tile | str, where: str) -> Tile:
    if isinstance(value, Tile):
        return value
    try:
        return Tile.parse(value)
    except ParseError as exc:
        raise ValueError(_("{where}: {reason}").format(where=where, reason=exc)) from None


def checked_deal(
    rules: Rules,
    hands: Sequence[Iterable[Tile | str]],
    boneyard: Iterable[Tile | str],
    leader: int,
) -> tuple[list[list[Tile]], list[Tile]]:
    """The hands (each sorted) and boneyard of a deal given from outside.

    Raises ``ValueError`` saying what is wrong unless the deal holds the
    set's tiles exactly once, with the hand sizes of ``rules``, and
    ``leader`` is a seat.
    """
    if not isinstance(rules, Rules):
        raise ValueError(_("rules must be a Rules value, got “{value}”").format(value=rules))
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise ValueError(_("hands must be a list with one list of tiles per seat"))
    if len(hands) != rules.players:
        raise ValueError(
            ngettext(
                "the deal has {got} hand, the rules need {need}",
                "the deal has {got} hands, the rules need {need}",
                len(hands),
            ).format(got=len(hands), need=rules.players)
        )
    got_hands = []
    for seat, hand in enumerate(hands):
        if isinstance(hand, (str, bytes)):
            raise ValueError(
                _("hand {seat} must be a list of tiles, got “{value}”").format(
                    seat=seat, value=hand
                )
            )
        where = _("hand {seat}").format(seat=seat)
        tiles = [_tile(t, where) for t in hand]
        if len(tiles) != rules.hand_size:
            raise ValueError(
                ngettext(
                    "hand {seat} has {got} tile, the rules deal {need}",
                    "hand {seat} has {got} tiles, the rules deal {need}",
                    len(tiles),
                ).format(seat=seat, got=len(tiles), need=rules.hand_size)
            )
        got_hands.append(sorted(tiles, key=_BY_INDEX))
    if isinstance(boneyard, (str, bytes)):
        raise ValueError(
            _("boneyard must be a list of tiles, got “{value}”").format(value=boneyard)
        )
    where = _("boneyard")
    pile = [_tile(t, where) for t in boneyard]
    everything = [t for hand in got_hands for t in hand] + pile
    seen: set[Tile] = set()
    twice = sorted({t for t in everything if t in seen or seen.add(t)})  # type: ignore[func-returns-value]
    if twice:
        raise ValueError(
            _("the deal holds {tiles} more than once").format(tiles=", ".join(map(str, twice)))
        )
    foreign = sorted(seen - set(rules.tiles))
    if foreign:
        raise ValueError(
            ngettext(
                "the deal holds {tiles}, which is not in the double-{top} set",
                "the deal holds {tiles}, which are not in the double-{top} set",
                len(foreign),
            ).format(tiles=", ".join(map(str, foreign)), top=rules.max_pip)
        )
    missing = sorted(set(rules.tiles) - seen)
    if missing:
        raise ValueError(
            _("the deal is missing {tiles}").format(tiles=", ".join(map(str, missing)))
        )
    check_leader(rules, leader)
    return got_hands, pile
