"""Rules from keyword options, and what a finished round is worth to a seat.

Shared by the PettingZoo and Gymnasium environments (the OpenSpiel game uses
``"margin"``, its zero-sum returns).

* ``"points"``: the points the seat's side scored in the round (0 unless it
  won the round);
* ``"margin"``: the side's points minus the mean of the other sides' points
  (zero-sum; with two sides, "my points minus theirs");
* ``"win"``: +1 if the seat's side won, -1 if another side won, 0 on a tie
  (for a match episode, given once, when the match ends).

>>> from passing_game import Rules
>>> rules = Rules(players=3)
>>> [round_reward(rules, (0, 14, 0), seat, "points") for seat in range(3)]
[0.0, 14.0, 0.0]
>>> [round_reward(rules, (0, 14, 0), seat, "margin") for seat in range(3)]
[-7.0, 14.0, -7.0]
>>> [round_reward(rules, (0, 14, 0), seat, "win") for seat in range(3)]
[-1.0, 1.0, -1.0]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from passing_game.rules import Rules

RewardKind = Literal["points", "margin", "win"]
REWARD_KINDS: tuple[RewardKind, ...] = ("points", "margin", "win")
Episode = Literal["round", "match"]
EPISODES: tuple[Episode, ...] = ("round", "match")


def make_rules(rules: Rules | Mapping[str, Any] | None, fields: Mapping[str, Any]) -> Rules:
    """``rules`` as given, or built from a mapping or from keyword fields."""
    if isinstance(rules, Rules):
        if fields:
            raise ValueError("give either rules or rules fields, not both")
        return rules
    return Rules.from_dict({**(rules or {}), **fields})


def check_option(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")


def round_reward(
    rules: Rules, points_by_side: tuple[int, ...], seat: int, kind: RewardKind
) -> float:
    """What a round whose sides scored ``points_by_side`` is worth to ``seat``."""
    side = rules.side_of(seat)
    own = points_by_side[side]
    if kind == "points":
        return float(own)
    total = sum(points_by_side)
    if kind == "margin":
        return float(own - (total - own) / (len(points_by_side) - 1))
    if total == 0:
        return 0.0
    return 1.0 if own > 0 else -1.0


def match_reward(rules: Rules, winner: int, seat: int) -> float:
    """``"win"`` at the end of a match: +1 for the winning side, -1 for the others."""
    return 1.0 if rules.side_of(seat) == winner else -1.0
