"""Rules values: defaults, derived numbers (R2.2, R2.3, R8.1, D10) and validation."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from passing_game import TARGET_PRESETS, Rules, RulesError


def test_defaults_are_the_decisions_of_record() -> None:
    rules = Rules()
    assert rules.players == 2
    assert rules.partnerships is False
    assert rules.draw == "ends-turn"  # D1
    assert rules.passing == "free"  # D2
    assert rules.scoring == "literal"  # D4
    assert rules.leader == "random"  # D5


@pytest.mark.parametrize(
    ("players", "partnerships", "hand_size", "boneyard", "max_draws", "target"),
    [
        (2, False, 7, 14, 12, 101),
        (3, False, 7, 7, 5, 101),
        (4, False, 6, 4, 2, 61),
        (4, True, 6, 4, 2, 61),
    ],
)
def test_r2_2_r2_3_r8_1_d10_derived_numbers(
    players: int, partnerships: bool, hand_size: int, boneyard: int, max_draws: int, target: int
) -> None:
    """R2.2 hand size, R2.3 boneyard, worked example for draws, R8.1/D10 target."""
    rules = Rules(players=players, partnerships=partnerships)
    assert rules.hand_size == hand_size
    assert rules.boneyard_size == boneyard
    assert rules.max_draws == max_draws
    assert rules.target == target


def test_r1_4_sides() -> None:
    assert Rules(players=3).sides == 3
    assert [Rules(players=3).side_of(s) for s in range(3)] == [0, 1, 2]
    team = Rules(players=4, partnerships=True)
    assert team.sides == 2
    assert [team.side_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_explicit_target_and_hand_size_are_kept() -> None:
    rules = Rules(players=3, target=50, hand_size=3)
    assert rules.target == 50
    assert rules.hand_size == 3
    assert rules.boneyard_size == 19
    assert rules.max_draws == 17


def test_d10_seeds_preset_is_the_default() -> None:
    for players, partnerships in [(2, False), (3, False), (4, False), (4, True)]:
        preset = Rules.with_target_preset("seeds", players=players, partnerships=partnerships)
        assert preset == Rules(players=players, partnerships=partnerships)


@pytest.mark.parametrize(
    ("players", "partnerships", "target"),
    [(2, False, 101), (3, False, 61), (4, False, 61), (4, True, 101)],
)
def test_d10_alternate_preset(players: int, partnerships: bool, target: int) -> None:
    """D10: the other write-up gives 101 for two players or partnerships, 61 for 3 or 4."""
    rules = Rules.with_target_preset("alternate", players=players, partnerships=partnerships)
    assert rules.target == target
    assert rules.players == players
    assert rules.partnerships == partnerships


def test_d10_presets_listed() -> None:
    assert set(TARGET_PRESETS) == {"seeds", "alternate"}


def test_d10_unknown_preset_names_the_choices() -> None:
    with pytest.raises(ValueError) as info:
        Rules.with_target_preset("nonsense", players=2)
    message = str(info.value)
    assert "preset" in message and "seeds" in message and "alternate" in message


BAD: list[tuple[dict[str, Any], str, list[str]]] = [
    ({"players": 5}, "players", ["2", "3", "4"]),
    ({"players": 1}, "players", ["2", "3", "4"]),
    ({"players": "2"}, "players", ["2", "3", "4"]),
    ({"players": True}, "players", ["2", "3", "4"]),
    ({"players": 2.0}, "players", ["2", "3", "4"]),
    ({"partnerships": "yes"}, "partnerships", ["False", "True"]),
    ({"partnerships": 1}, "partnerships", ["False", "True"]),
    ({"players": 3, "partnerships": True}, "partnerships", ["4"]),
    ({"players": 2, "partnerships": True}, "partnerships", ["4"]),
    ({"draw": "sometimes"}, "draw", ["ends-turn", "continue"]),
    ({"passing": "never"}, "passing", ["free", "forced"]),
    ({"scoring": "double"}, "scoring", ["literal", "pairwise"]),
    ({"leader": "oldest"}, "leader", ["random", "rotate", "winner"]),
    ({"target": 0}, "target", ["at least 1"]),
    ({"target": -5}, "target", ["at least 1"]),
    ({"target": "101"}, "target", ["at least 1"]),
    ({"target": True}, "target", ["at least 1"]),
    ({"target": 10.5}, "target", ["at least 1"]),
    ({"hand_size": 0}, "hand_size", ["1", "13"]),
    ({"hand_size": 14}, "hand_size", ["1", "13"]),
    ({"players": 3, "hand_size": 9}, "hand_size", ["1", "8"]),
    ({"players": 4, "hand_size": 7}, "hand_size", ["1", "6"]),
    ({"hand_size": "7"}, "hand_size", ["1", "13"]),
]


@pytest.mark.parametrize(("fields", "name", "allowed"), BAD, ids=[repr(b[0]) for b in BAD])
def test_bad_values_raise_value_error_naming_field_and_allowed(
    fields: dict[str, Any], name: str, allowed: list[str]
) -> None:
    with pytest.raises(ValueError) as info:
        Rules(**fields)
    assert isinstance(info.value, RulesError)
    message = str(info.value)
    assert name in message
    for value in allowed:
        assert value in message, (value, message)


def test_bad_value_message_shows_the_bad_value() -> None:
    with pytest.raises(ValueError, match="“sometimes”"):
        Rules(draw="sometimes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="got “5”"):
        Rules(players=5)


@pytest.mark.parametrize(
    "fields",
    [
        {"players": p, "partnerships": pt, "draw": d, "passing": pa, "scoring": s, "leader": le}
        for p in (2, 3, 4)
        for pt in ((False, True) if p == 4 else (False,))
        for d in ("ends-turn", "continue")
        for pa in ("free", "forced")
        for s in ("literal", "pairwise")
        for le in ("random", "rotate", "winner")
    ][::7],
)
def test_every_variant_is_accepted(fields: dict[str, Any]) -> None:
    rules = Rules(**fields)
    for key, value in fields.items():
        assert getattr(rules, key) == value


def test_rules_are_frozen_and_hashable() -> None:
    rules = Rules(players=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.players = 4  # type: ignore[misc]
    assert hash(rules) == hash(Rules(players=3))
    assert rules == Rules(players=3, target=101, hand_size=7)
    assert rules != Rules(players=3, target=100)


def test_dict_round_trip() -> None:
    rules = Rules(players=4, partnerships=True, draw="continue", scoring="pairwise", target=77)
    data = rules.to_dict()
    assert data["target"] == 77 and data["hand_size"] == 6
    assert Rules.from_dict(data) == rules


def test_from_dict_refuses_unknown_fields() -> None:
    with pytest.raises(ValueError, match="colour"):
        Rules.from_dict({"players": 2, "colour": "red"})
    with pytest.raises(ValueError):
        Rules.from_dict(["players", 2])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="players"):
        Rules.from_dict({"players": 9})
