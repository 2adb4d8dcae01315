"""Smaller sets (issue 28, item 1; docs/DECISIONS.md P64): double-two to
double-five with chosen hand sizes, everywhere the rules are.

The default game is the double-six of R1.3 and stays as it was: the
conformance tests (tests/test_vectors.py, tests/test_golden.py) replay it.
"""

from __future__ import annotations

import json
import random

import pytest

from passing_game import Match, Round, Rules, RulesError, dump_record, load_record
from passing_game.bots import is_cheating, make, names
from passing_game.dealing import seeded_deal
from passing_game.errors import RecordError
from passing_game.records import RECORD_VERSION, SMALL_SET_VERSION
from passing_game.round import FAST_AVAILABLE, PyRound
from passing_game.tiles import TILES, Tile, set_tiles

SETS = [2, 3, 4, 5]


@pytest.mark.parametrize("top", SETS)
def test_r1_3_a_smaller_set_holds_each_tile_up_to_its_top_once(top: int) -> None:
    rules = Rules(max_pip=top)
    assert rules.tiles == tuple(t for t in TILES if t.high <= top)
    assert len(rules.tiles) == rules.tile_count == (top + 1) * (top + 2) // 2
    assert rules.tile_mask == sum(1 << t.index for t in rules.tiles)
    # every index is the double-six's, so move codes and notation do not change
    assert [t.index for t in set_tiles(top)] == [t.index for t in rules.tiles]


def test_the_default_game_is_the_double_six() -> None:
    """R1.3, R2.2: the default is unchanged, and its rules read and write as before."""
    rules = Rules()
    assert rules.max_pip == 6 and rules.tiles == TILES and rules.tile_count == 28
    assert (Rules().hand_size, Rules(players=3).hand_size, Rules(players=4).hand_size) == (7, 7, 6)
    assert "max_pip" not in rules.to_dict()
    assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("top", "players", "hand"),
    [(2, 2, 1), (2, 4, 1), (3, 2, 2), (3, 4, 2), (4, 2, 3), (4, 3, 3), (5, 2, 5), (5, 4, 4)],
)
def test_r2_2_default_hands_keep_the_double_sixs_share(top: int, players: int, hand: int) -> None:
    """P64: 7/28 of the set a hand with 2 or 3 players, 6/28 with 4, rounded down."""
    rules = Rules(players=players, max_pip=top)
    assert rules.hand_size == hand
    assert rules.boneyard_size == rules.tile_count - players * hand >= 2  # R2.4
    assert rules.max_draws == rules.boneyard_size - 2


@pytest.mark.parametrize("value", [1, 7, 0, -3, True, "3", 3.0, None])
def test_max_pip_out_of_range_is_refused(value: object) -> None:
    with pytest.raises(RulesError, match="max_pip must be one of 2, 3, 4, 5, 6"):
        Rules(max_pip=value)  # type: ignore[arg-type]


def test_r2_4_a_hand_size_must_leave_the_two_locked_tiles() -> None:
    Rules(max_pip=3, players=2, hand_size=4)  # 10 tiles: 8 in hands, 2 locked
    with pytest.raises(RulesError, match="from 1 to 4 with 2 players"):
        Rules(max_pip=3, players=2, hand_size=5)
    with pytest.raises(RulesError, match="from 1 to 1 with 4 players"):
        Rules(max_pip=2, players=4, hand_size=2)


@pytest.mark.parametrize("top", SETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_r2_1_a_seeded_deal_uses_the_set_once(top: int, players: int) -> None:
    rules = Rules(players=players, max_pip=top)
    for seed in range(20):
        hands, boneyard, seat = seeded_deal(rules, seed)
        dealt = [t for h in hands for t in h] + boneyard
        assert sorted(dealt) == sorted(rules.tiles)
        assert all(len(h) == rules.hand_size for h in hands)
        assert len(boneyard) == rules.boneyard_size and 0 <= seat < players


def test_d9_the_double_six_deals_as_before() -> None:
    """D9: the seed gives the same deal as before the smaller sets (the default is untouched)."""
    hands, boneyard, seat = seeded_deal(Rules(), 42)
    assert [str(t) for t in hands[0]] == [str(t) for t in Round.new(Rules(), seed=42).deal.hands[0]]
    assert len(boneyard) == 14 and seat in (0, 1)


@pytest.mark.skipif(not FAST_AVAILABLE, reason="the C FastRound is not built")
@pytest.mark.parametrize("top", SETS)
@pytest.mark.parametrize(
    "fields",
    [
        {"players": 2},
        {"players": 3, "draw": "continue"},
        {"players": 4, "partnerships": True},
        {"players": 2, "passing": "forced", "scoring": "pairwise"},
    ],
    ids=["2p", "3p-continue-D1", "partners-D6", "forced-D2"],
)
def test_c_and_python_rounds_agree_on_smaller_sets(top: int, fields: dict[str, object]) -> None:
    """R2-R7, D1-D6: the C round deals and plays as the reference on every set."""
    from passing_game.round import FastRound

    rules = Rules(max_pip=top, **fields)  # type: ignore[arg-type]
    for seed in range(40):
        slow, fast = PyRound.new(rules, seed), FastRound.new(rules, seed)
        assert slow.deal == fast.deal
        rng = random.Random(seed)
        while not slow.is_over:
            legal = slow.legal_moves()
            assert legal == fast.legal_moves()
            move = rng.choice(legal)
            slow.play(move)
            fast.play(move)
        assert slow.result == fast.result and slow.history == fast.history


def test_from_deal_refuses_a_tile_outside_the_set() -> None:
    rules = Rules(max_pip=2)
    with pytest.raises(ValueError, match="the deal holds 3-3, which is not in the double-2 set"):
        Round.from_deal(rules, [["0-0"], ["3-3"]], ["0-1", "0-2", "1-1", "1-2"], leader=0)
    with pytest.raises(ValueError, match="the deal is missing 2-2"):
        Round.from_deal(rules, [["0-0"], ["1-1"]], ["0-1", "0-2", "1-2"], leader=0)


def test_r6_2_a_block_on_the_double_two() -> None:
    """R6.2 on a small set: no hand fits and only the two locked tiles remain."""
    rules = Rules(max_pip=2, hand_size=2)
    rnd = Round.from_deal(rules, [["0-0", "1-1"], ["2-2", "1-2"]], ["0-1", "0-2"], leader=0)
    rnd.play(next(m for m in rnd.legal_moves() if str(m) == "L0-0"))
    assert rnd.result is not None and rnd.result.reason == "block"
    assert rnd.result.pips == (2, 7) and rnd.result.winner == 0 and rnd.result.points == 5


@pytest.mark.parametrize("top", [2, 4])
def test_a_smaller_sets_record_is_version_3_and_replays(top: int) -> None:
    """RECORDS.md: a smaller set's record carries ``max_pip`` as version 3."""
    match = Match(Rules(max_pip=top, target=10), seed=3)
    rng = random.Random(1)
    while match.winner is None:
        match.play(rng.choice(match.legal_moves()))
    data = json.loads(dump_record(match))
    assert data["version"] == SMALL_SET_VERSION and data["rules"]["max_pip"] == top
    again = load_record(data)
    assert again.rules == match.rules and again.scores == match.scores
    # a version-2 record (the default set) is written exactly as before
    assert json.loads(dump_record(Match(Rules(), seed=3)))["version"] == RECORD_VERSION == 2


def test_a_version_2_record_with_max_pip_is_refused() -> None:
    match = Match(Rules(max_pip=3), seed=3)
    data = json.loads(dump_record(match))
    data["version"] = 2
    with pytest.raises(RecordError, match=r"'max_pip' \(a smaller set\) needs record version 3"):
        load_record(data)


@pytest.mark.parametrize("top", [2, 3])
def test_r9_the_unseen_tiles_are_the_sets(top: int) -> None:
    """R9.2: what a seat has not seen is drawn from the set in play, nothing else."""
    rules = Rules(max_pip=top)
    rnd = Round.new(rules, seed=5)
    view = rnd.view(0)
    assert view.unseen == frozenset(rules.tiles) - frozenset(view.hand)
    assert Tile(6, 6) not in view.unseen


@pytest.mark.parametrize("top", [3, 4])
def test_every_fair_bot_plays_legal_rounds_on_a_smaller_set(top: int) -> None:
    """Every bot of the registry sees only its view and moves legally on a smaller set."""
    rules = Rules(max_pip=top)
    for name in [n for n in names() if not is_cheating(n)]:
        bots = [make(name, seed=1), make("random", seed=2)]
        rnd = Round.new(rules, seed=11)
        while not rnd.is_over:
            seat = rnd.to_move
            assert seat is not None
            move = bots[seat].choose(rnd.view(seat))
            assert rnd.is_legal(move), (name, move)
            rnd.play(move)


def test_the_arena_plays_a_smaller_set_from_the_command_line(tmp_path: object) -> None:
    """``--set`` and ``--hand-size`` reach the rules; bad values are usage errors."""
    from pathlib import Path

    from click.testing import CliRunner

    from passing_game.cli import main

    out = Path(str(tmp_path)) / "arena.json"
    runner = CliRunner()
    args = ["arena", "random", "greedy", "--rounds", "6", "--set", "3", "--jobs", "1"]
    done = runner.invoke(main, [*args, "--out", str(out), "--no-progress"])
    assert done.exit_code == 0, done.output
    assert "double-3, 2 tiles a hand" in done.output
    rules = json.loads(out.read_text())["config"]["rules"]
    assert rules["max_pip"] == 3 and rules["hand_size"] == 2
    for bad, message in [
        (["--set", "7"], "is not in the range 2<=x<=6"),
        (["--set", "2", "--hand-size", "3"], "hand_size must be a whole number from 1 to 2"),
    ]:
        done = runner.invoke(main, ["arena", "random", "greedy", *bad])
        assert done.exit_code == 2 and message in done.output, (bad, done.output)
