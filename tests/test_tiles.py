"""Tiles of the double-six set (R1.3) and how they are written."""

from __future__ import annotations

import copy
import pickle

import pytest

from passing_game import TILES, ParseError, Placed, Tile
from passing_game.tiles import pip_count


def test_r1_3_the_set_holds_28_distinct_tiles_and_168_pips() -> None:
    assert len(TILES) == 28
    assert len(set(TILES)) == 28
    assert {(t.low, t.high) for t in TILES} == {(a, b) for a in range(7) for b in range(a, 7)}
    assert sum(t.pips for t in TILES) == 168
    assert pip_count(TILES) == 168
    assert all(0 <= t.low <= t.high <= 6 for t in TILES)


def test_r1_3_tiles_listed_in_canonical_order() -> None:
    assert TILES[0] == Tile(0, 0)
    assert TILES[1] == Tile(0, 1)
    assert TILES[-1] == Tile(6, 6)
    assert list(TILES) == sorted(TILES)


def test_tile_is_unordered_value() -> None:
    assert Tile(5, 3) == Tile(3, 5)
    assert hash(Tile(5, 3)) == hash(Tile(3, 5))
    assert Tile(5, 3) != Tile(5, 4)
    assert Tile(3, 5) != (3, 5)
    assert len({Tile(1, 2), Tile(2, 1), Tile(2, 2)}) == 2
    assert {Tile(6, 0): "x"}[Tile(0, 6)] == "x"


@pytest.mark.parametrize("tile", TILES, ids=str)
def test_pips_and_double(tile: Tile) -> None:
    assert tile.pips == tile.low + tile.high
    assert tile.is_double == (tile.low == tile.high)


def test_pips_examples() -> None:
    assert Tile(3, 5).pips == 8
    assert Tile(0, 0).pips == 0
    assert Tile(6, 6).pips == 12
    assert Tile(4, 4).is_double
    assert not Tile(4, 5).is_double


def test_tile_is_immutable() -> None:
    tile = Tile(2, 4)
    with pytest.raises(AttributeError):
        tile.low = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del tile.high
    with pytest.raises(AttributeError):
        tile.extra = 1  # type: ignore[attr-defined]
    assert (tile.low, tile.high) == (2, 4)


def test_copy_and_pickle_keep_identity() -> None:
    tile = Tile(1, 6)
    assert copy.copy(tile) is tile
    assert copy.deepcopy(tile) is tile
    assert pickle.loads(pickle.dumps(tile)) == tile


@pytest.mark.parametrize("tile", TILES, ids=str)
def test_str_parse_round_trip(tile: Tile) -> None:
    text = str(tile)
    assert text == f"{tile.low}-{tile.high}"
    assert Tile.parse(text) == tile
    assert Tile.parse(f"{tile.high}-{tile.low}") == tile


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3-5", Tile(3, 5)),
        ("5-3", Tile(3, 5)),
        ("[3|5]", Tile(3, 5)),
        ("3|5", Tile(3, 5)),
        (" 6 - 6 ", Tile(6, 6)),
        ("0:4", Tile(0, 4)),
        ("2/1", Tile(1, 2)),
    ],
)
def test_parse_accepts_forgiving_forms(text: str, expected: Tile) -> None:
    assert Tile.parse(text) == expected


@pytest.mark.parametrize("text", ["7-1", "3-", "", "abc", "3-5-1", "35x", "-1-3", "3--5", "[3|9]"])
def test_parse_rejects_bad_text(text: str) -> None:
    with pytest.raises(ParseError) as info:
        Tile.parse(text)
    assert f"“{text}”" in str(info.value)  # quoted as a player reads it (S8)
    assert isinstance(info.value, ValueError)


def test_parse_rejects_non_text() -> None:
    with pytest.raises(ParseError):
        Tile.parse(35)  # type: ignore[arg-type]


@pytest.mark.parametrize("halves", [(7, 1), (-1, 3), (3, 9)])
def test_constructor_rejects_out_of_range(halves: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match=r"0\.\.6"):
        Tile(*halves)


@pytest.mark.parametrize("halves", [("3", 5), (None, 2), ("a", "b")])
def test_constructor_rejects_non_integers(halves: tuple[object, object]) -> None:
    with pytest.raises(ValueError):
        Tile(*halves)  # type: ignore[arg-type]


def test_has_and_other() -> None:
    tile = Tile(2, 5)
    assert tile.has(2) and tile.has(5) and not tile.has(3)
    assert tile.other(2) == 5
    assert tile.other(5) == 2
    assert Tile(4, 4).other(4) == 4
    with pytest.raises(ValueError):
        tile.other(3)


def test_placed_keeps_orientation() -> None:
    placed = Placed(6, 2)
    assert (placed.left, placed.right) == (6, 2)
    assert placed.tile == Tile(2, 6)
    assert str(placed) == "[6|2]"
    assert Placed(2, 6) != placed
    assert Placed(2, 6).tile == placed.tile


@pytest.mark.parametrize("halves", [(True, 1), (3.0, 5), (1, False), ("1", 2)])
def test_r1_3_tile_halves_must_be_integers(halves: tuple[object, object]) -> None:
    """R1.3: tiles are pairs of whole numbers 0-6; bools and floats are refused."""
    with pytest.raises(ValueError, match="integers"):
        Tile(*halves)  # type: ignore[arg-type]
