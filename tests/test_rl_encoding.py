"""The shared RL encoding: actions both ways, masks, and the observation layout.

Needs numpy (the ``rl`` extra); skipped without it.
"""

from __future__ import annotations

import itertools
import random

import pytest

np = pytest.importorskip("numpy")

from passing_game import Match, Round, Rules, Tile, parse_move  # noqa: E402
from passing_game.bots.kernel import DRAW_CODE, PASS_CODE  # noqa: E402
from passing_game.moves import DRAW, PASS, Play  # noqa: E402
from passing_game.rl import encoding  # noqa: E402
from passing_game.rl.encoding import (  # noqa: E402
    DRAW_ACTION,
    NUM_ACTIONS,
    PASS_ACTION,
    action_mask,
    action_to_move,
    encode,
    encode_information_state,
    information_state_string,
    legal_actions,
    move_to_action,
    observation_layout,
    observation_size,
    split,
)
from passing_game.rl.worlds import sample_round  # noqa: E402

VARIANTS = [
    Rules(players=2),
    Rules(players=3),
    Rules(players=4),
    Rules(players=4, partnerships=True),
    Rules(players=2, draw="continue"),
    Rules(players=3, passing="forced", scoring="pairwise"),
]


def random_states(rules: Rules, rounds: int, seed: int) -> list[Round]:
    """Copies of every position of some rounds of random play."""
    rng = random.Random(seed)
    out = []
    for game in range(rounds):
        rnd = Round.new(rules, seed=seed * 1000 + game)
        out.append(rnd.copy())
        while not rnd.is_over:
            rnd.play(rng.choice(rnd.legal_moves()))
            out.append(rnd.copy())
    return out


# -- actions --------------------------------------------------------------------


def test_action_formula_and_round_trip() -> None:
    for action in range(NUM_ACTIONS):
        assert move_to_action(action_to_move(action)) == action
    for tile in Tile._table.values():
        assert move_to_action(Play(tile, "left")) == tile.index * 2
        assert move_to_action(Play(tile, "right")) == tile.index * 2 + 1
    assert (move_to_action(DRAW), move_to_action(PASS)) == (DRAW_ACTION, PASS_ACTION)
    # The same codes as the compiled kernel and the search bots.
    assert (DRAW_ACTION, PASS_ACTION) == (DRAW_CODE, PASS_CODE)
    assert action_to_move(np.int64(57)) == PASS
    assert action_to_move(np.int32(56)) == DRAW


@pytest.mark.parametrize("bad", [-1, 58, 3.5, "7", None])
def test_bad_actions_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="an action is an integer"):
        action_to_move(bad)  # type: ignore[arg-type]


def test_actions_do_not_depend_on_the_player() -> None:
    rules = Rules(players=3)
    rnd = Round.new(rules, seed=2)
    seat = rnd.to_move
    assert seat is not None
    acts = legal_actions(rnd.view(seat))
    assert move_to_action(parse_move("draw")) in acts
    # The same move has the same id whoever makes it.
    assert move_to_action(parse_move("L1-2")) == Tile(1, 2).index * 2


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_mask_is_the_engines_legal_moves(rules: Rules) -> None:
    for rnd in random_states(rules, rounds=6, seed=1):
        for seat in range(rules.players):
            view = rnd.view(seat)
            mask = action_mask(view)
            assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
            if seat == rnd.to_move:
                expected = sorted(move_to_action(m) for m in rnd.legal_moves())
                assert list(np.flatnonzero(mask)) == expected == legal_actions(view)
                for action in expected:
                    assert rnd.is_legal(action_to_move(action))
            else:
                assert not mask.any()


# -- the observation layout --------------------------------------------------------


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_layout_covers_the_vector(rules: Rules) -> None:
    layout = observation_layout(rules)
    assert [name for name, _, _ in layout] == list(encoding.PART_NAMES)
    assert sum(size for _, size, _ in layout) == observation_size(rules)
    rows = encoding.part_rows(rules)
    assert rows[0][1] == 0
    for (_, start, size, _), (_, nxt, _, _) in itertools.pairwise(rows):
        assert start + size == nxt
    obs = encode(Round.new(rules, seed=0).view(0))
    assert obs.shape == (observation_size(rules),) and obs.dtype == np.float32
    parts = split(obs, rules)
    assert parts["played"].shape == (rules.players, 28)
    assert parts["scores"].shape == (rules.sides,)


@pytest.mark.parametrize(
    "rules",
    [Rules(players=2), Rules(players=3), Rules(players=4, partnerships=True)],
    ids=str,
)
def test_every_part_is_filled_in_some_reachable_state(rules: Rules) -> None:
    """Each part (and each relative seat's entry of the per-seat parts) is non-zero somewhere."""
    seen = np.zeros(observation_size(rules), dtype=np.float32)
    rng = random.Random(3)
    for game in range(4):
        match = Match(Rules(**{**rules.to_dict(), "target": 40}), seed=game)
        while not match.is_over:
            for seat in range(rules.players):
                obs = encode(match.view(seat))
                assert obs.min() >= 0.0 and obs.max() <= 1.0
                seen = np.maximum(seen, obs)
            match.play(rng.choice(match.legal_moves()))
    parts = split(seen, rules)
    empty = [name for name, values in parts.items() if not values.any()]
    assert not empty, f"parts never filled: {empty}"
    for name in ("hand_sizes", "to_move", "leader", "passes", "draws", "scores"):
        assert parts[name].all(), (name, parts[name])
    for name in ("played", "passed_on", "drew_on"):
        assert parts[name].any(axis=1).all(), name
    assert parts["hand"].all() and parts["left_end"].all() and parts["right_end"].all()


def test_relative_seats_and_values() -> None:
    rules = Rules(players=3)
    rnd = Round.from_deal(
        rules,
        [
            ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
            ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"],
            ["2-3", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5"],
        ],
        ["3-6", "4-4", "4-5", "4-6", "5-5", "5-6", "6-6"],
        leader=1,
    )
    for text in ("L1-6", "draw", "R0-6", "pass"):  # seats 1, 2, 0, 1
        rnd.play(parse_move(text))
    p = split(encode(rnd.view(2)), rules)
    # Relative to seat 2: seat 0 is 1 place clockwise, seat 1 is 2 places.
    assert p["played"][2, Tile(1, 6).index] == 1.0
    assert p["played"][1, Tile(0, 6).index] == 1.0
    assert p["drawn"][Tile(3, 6).index] == 1.0 and p["hand"][Tile(3, 6).index] == 1.0
    assert p["draws"][0] == pytest.approx(1 / rules.max_draws)
    assert p["drew_on"][0, 1] == 1.0 and p["drew_on"][0, 6] == 1.0
    assert p["passed_on"][2, 0] == 1.0 and p["passed_on"][2, 1] == 1.0
    assert list(p["hand_sizes"] * 28) == pytest.approx([8, 6, 6])
    assert list(p["to_move"]) == [1.0, 0.0, 0.0]
    assert list(p["leader"]) == [0.0, 0.0, 1.0]
    # Train [1|6][6|0]: ends 1 and 0.
    assert p["left_end"][1] == 1.0 and p["right_end"][0] == 1.0
    assert p["train_position"][Tile(1, 6).index] == pytest.approx(1 / 28)
    assert p["train_position"][Tile(0, 6).index] == pytest.approx(2 / 28)
    assert p["passes_in_row"][0] == pytest.approx(1 / 3)
    # Seat 0 did not see the tile seat 2 drew.
    assert split(encode(rnd.view(0)), rules)["drawn"].sum() == 0


# -- hidden information ---------------------------------------------------------------


def test_observation_ignores_hidden_tiles_explicit() -> None:
    """Two rounds differing only in seat 1's hidden tiles and the boneyard order."""
    rules = Rules(players=2)
    mine = ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"]
    a = Round.from_deal(
        rules,
        [mine, ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"]],
        [
            "2-3",
            "2-4",
            "2-5",
            "2-6",
            "3-3",
            "3-4",
            "3-5",
            "3-6",
            "4-4",
            "4-5",
            "4-6",
            "5-5",
            "5-6",
            "6-6",
        ],
        leader=0,
    )
    b = Round.from_deal(
        rules,
        [mine, ["1-1", "3-6", "4-4", "4-5", "5-5", "5-6", "6-6"]],
        [
            "2-3",
            "2-4",
            "1-2",
            "2-6",
            "3-3",
            "1-4",
            "3-5",
            "1-3",
            "1-5",
            "2-5",
            "4-6",
            "2-2",
            "3-4",
            "1-6",
        ],
        leader=0,
    )
    for text in ("L0-1", "R1-1", "draw", "draw", "pass"):
        for rnd in (a, b):
            rnd.play(parse_move(text))
    assert a.hands[1] != b.hands[1] and a.boneyard != b.boneyard
    assert a.view(0) == b.view(0)
    assert np.array_equal(encode(a.view(0)), encode(b.view(0)))
    assert np.array_equal(encode_information_state(a.view(0)), encode_information_state(b.view(0)))
    assert information_state_string(a.view(0)) == information_state_string(b.view(0))
    # Seat 1's own observation does see its own (different) tiles.
    assert not np.array_equal(encode(a.view(1)), encode(b.view(1)))


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_observation_ignores_hidden_tiles_resampled(rules: Rules) -> None:
    """A round with the hidden tiles dealt again gives every seat the same observation."""
    rng = random.Random(7)
    states = random_states(rules, rounds=3, seed=11)
    for rnd in states[:: max(1, len(states) // 25)]:
        for seat in range(rules.players):
            view = rnd.view(seat)
            other = sample_round(view, rng)
            assert other.view(seat) == view
            assert np.array_equal(encode(other.view(seat)), encode(view))
            assert np.array_equal(
                encode_information_state(other.view(seat)), encode_information_state(view)
            )


def test_resampling_changes_the_hidden_tiles() -> None:
    rnd = Round.new(Rules(players=2), seed=9)
    view = rnd.view(0)
    rng = random.Random(0)
    guesses = {sample_round(view, rng).hands[1] for _ in range(20)}
    assert len(guesses) > 10
    assert all(rnd.hands[0] == sample_round(view, rng).hands[0] for _ in range(5))


def test_information_state_holds_the_whole_history() -> None:
    """Perfect recall: the history rows give back every turn, and own draws' tiles."""
    rules = Rules(players=3)
    rnd = random_states(rules, rounds=1, seed=5)[-1]
    for seat in range(3):
        view = rnd.view(seat)
        tensor = encode_information_state(view)
        assert tensor.shape == (encoding.information_state_size(rules),)
        assert np.array_equal(tensor[: observation_size(rules)], encode(view))
        rows = tensor[observation_size(rules) :].reshape(
            rules.max_round_moves, encoding.history_row_size(rules)
        )
        decoded = []
        for row in rows[: len(view.history)]:
            relative = int(np.argmax(row[:3]))
            action = int(np.argmax(row[3 : 3 + NUM_ACTIONS]))
            drawn = row[3 + NUM_ACTIONS :]
            tile = int(np.argmax(drawn)) if drawn.any() else None
            decoded.append(((relative + seat) % 3, action, tile))
        expected = [
            (t.seat, move_to_action(t.move), None if t.drawn is None else t.drawn.index)
            for t in view.history
        ]
        assert decoded == expected
        assert not rows[len(view.history) :].any()
