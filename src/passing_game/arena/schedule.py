"""Duplicate deals: which bot sits in which seat, game after game.

A *block* is one deal (one seed: the hands, the boneyard order and the
leader) played once in every *seating* of the schedule. Because every bot
plays every seat of the same deal equally often, the luck of the deal cancels
out of the comparison, as in duplicate bridge.

How the bots are spread over the seats:

* ``k`` bots, ``n`` slots (a slot is a seat, or a team with partnerships,
  where both partners are the same bot).
* ``k >= n``: every combination of ``n`` of the bots gets the slots, so with
  more bots than seats each bot meets every other one (``C(k, n)`` groups).
  With ``k < n``: one group of all ``k`` bots, repeated round the table
  (slot ``s`` gets the group's member ``s % k``: two bots at four seats sit
  ``A B A B``).
* Each group is then arranged over its slots in every cyclic rotation
  (``orders="rotate"``, ``g`` arrangements for a group of ``g``) or in every
  permutation (``orders="all"``, ``g!`` arrangements, which also varies who
  sits after whom).

Either way each bot sits in each seat equally often within a block.

>>> seatings(2, 2)
[(0, 1), (1, 0)]
>>> seatings(2, 4)
[(0, 1, 0, 1), (1, 0, 1, 0)]
>>> seatings(3, 2)
[(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
>>> seatings(3, 4, partnerships=True)[:2]
[(0, 1, 0, 1), (1, 0, 1, 0)]
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from typing import Literal

Orders = Literal["rotate", "all"]
ORDERS: tuple[Orders, ...] = ("rotate", "all")


def _arrangements(group: Sequence[int], orders: Orders) -> list[tuple[int, ...]]:
    if orders == "all":
        return list(itertools.permutations(group))
    g = len(group)
    return [tuple(group[(i + r) % g] for i in range(g)) for r in range(g)]


def seatings(
    bots: int,
    players: int,
    *,
    partnerships: bool = False,
    orders: Orders = "rotate",
) -> list[tuple[int, ...]]:
    """Every seating of one block: for each, the bot index at each seat.

    ``bots`` is how many bots take part; ``players`` the seats at the table.
    With ``partnerships`` both partners of a team (seats ``s`` and ``s + 2``)
    are the same bot, so the bots are spread over the two teams.
    """
    if bots < 2:
        raise ValueError(f"the arena needs at least two bots, got {bots}")
    if players < 2:
        raise ValueError(f"the arena needs at least two seats, got {players}")
    if orders not in ORDERS:
        raise ValueError(f"orders must be one of {', '.join(ORDERS)}, got {orders!r}")
    if partnerships and players != 4:
        raise ValueError("partnerships need 4 players")
    slots = 2 if partnerships else players
    if bots >= slots:
        groups = list(itertools.combinations(range(bots), slots))
    else:
        groups = [tuple(range(bots))]
    result: list[tuple[int, ...]] = []
    for group in groups:
        for arrangement in _arrangements(group, orders):
            g = len(arrangement)
            result.append(
                tuple(
                    arrangement[(seat % 2 if partnerships else seat) % g] for seat in range(players)
                )
            )
    return result


def seat_counts(table: Sequence[Sequence[int]], bots: int) -> list[list[int]]:
    """How often each bot sits in each seat over ``table``: ``[bot][seat]``.

    >>> seat_counts(seatings(3, 4), 3)
    [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]
    """
    players = len(table[0]) if table else 0
    counts = [[0] * players for _ in range(bots)]
    for lineup in table:
        for seat, bot in enumerate(lineup):
            counts[bot][seat] += 1
    return counts


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from ``seed`` and labels, the same on every machine.

    Each game's deal and each bot's seed come from the arena's ``--seed`` and
    the game's place in the schedule, never from the order games finish in,
    so results do not depend on how many worker processes play them.

    >>> derive_seed(1, "deal", 0) == derive_seed(1, "deal", 0) != derive_seed(1, "deal", 1)
    True
    """
    text = "|".join(map(str, (seed, *parts)))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def blocks_needed(games: int, per_block: int) -> int:
    """Whole blocks that hold at least ``games`` games (at least one block).

    >>> blocks_needed(20, 2), blocks_needed(21, 2), blocks_needed(1, 6)
    (10, 11, 1)
    """
    return max(1, -(-games // per_block))
