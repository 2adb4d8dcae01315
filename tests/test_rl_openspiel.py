"""The OpenSpiel game: OpenSpiel's random simulation test, chance nodes, tensors,
resampling for ISMCTS, and OpenSpiel's ISMCTS bot in our arena."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import passing_game.rl  # noqa: E402
from passing_game import Round, Rules  # noqa: E402
from passing_game.bots import make  # noqa: E402
from passing_game.rl.encoding import (  # noqa: E402
    DRAW_ACTION,
    encode,
    encode_information_state,
    information_state_string,
    move_to_action,
)
from passing_game.rl.openspiel_bot import OpenSpielIsmctsBot  # noqa: E402
from passing_game.rl.openspiel_game import PassingGameState, state_from_round  # noqa: E402

PARAMS: list[dict[str, Any]] = [
    {},
    {"players": 3},
    {"players": 4, "partnerships": True},
    {"players": 4, "draw": "continue", "passing": "forced", "scoring": "pairwise"},
    {"players": 2, "draw": "continue"},
    {"max_pip": 2},
    {"players": 4, "partnerships": True, "max_pip": 4, "hand_size": 2},
    {"max_pip": 3, "hand_size": 3},
]


@pytest.mark.parametrize("params", PARAMS, ids=str)
def test_openspiel_random_sim_test(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_passing_game", params)
    pyspiel.random_sim_test(game, num_sims=8, serialize=True, verbose=False)


def test_registered_with_parameters() -> None:
    assert "openspiel" in passing_game.rl.REGISTERED
    game = pyspiel.load_game("python_passing_game(players=4,partnerships=True)")
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 58
    assert game.rules == Rules(players=4, partnerships=True)
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_passing_game(players=5)")


def play_to(state: PassingGameState, rng: random.Random, stop: Any) -> PassingGameState:
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert sum(probs) == pytest.approx(1.0)
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_deal_and_draws_are_chance_nodes() -> None:
    game = pyspiel.load_game("python_passing_game")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 28
    for _ in range(14):
        state.apply_action(state.chance_outcomes()[0][0])
    assert [o for o, _ in state.chance_outcomes()] == [0, 1]  # the leader
    state.apply_action(0)
    assert state.current_player() == 0
    assert state.round is not None and len(state.round.hands[0]) == 7
    state.apply_action(DRAW_ACTION)
    # The draw waits for chance: any of the 14 tiles left, equally likely.
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 14 and all(p == pytest.approx(1 / 14) for _, p in outcomes)
    tile = outcomes[5][0]
    state.apply_action(tile)
    assert state.round.history[-1].drawn.index == tile
    assert state.current_player() == 1
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, tile).startswith("draw ")


def test_states_agree_with_the_engine_and_the_encoding() -> None:
    rng = random.Random(4)
    for params in PARAMS:
        game = pyspiel.load_game("python_passing_game", params)
        for _ in range(4):
            state = play_to(game.new_initial_state(), rng, lambda s: rng.random() < 0.03)
            rnd = state.round
            if rnd is None:
                continue
            for player in range(game.num_players()):
                view = rnd.view(player)
                assert np.array_equal(
                    np.asarray(state.observation_tensor(player), np.float32), encode(view)
                )
                if not state.p.pending_draw:  # else it also shows the draw chosen
                    assert np.array_equal(
                        np.asarray(state.information_state_tensor(player), np.float32),
                        encode_information_state(view),
                    )
            if not state.is_terminal() and not state.is_chance_node():
                assert state.legal_actions() == sorted(move_to_action(m) for m in rnd.legal_moves())
        final = play_to(game.new_initial_state(), rng, lambda s: False)
        assert sum(final.returns()) == pytest.approx(0.0)
        assert final.round is not None and final.round.result is not None


def test_returns_follow_the_scoring() -> None:
    game = pyspiel.load_game("python_passing_game")
    rng = random.Random(0)
    for _ in range(10):
        state = play_to(game.new_initial_state(), rng, lambda s: False)
        result = state.round.result
        points = result.points_by_side()
        assert state.returns() == [points[0] - points[1], points[1] - points[0]]


def test_state_from_round_replays_a_round_exactly() -> None:
    rules = Rules(players=3)
    rnd = Round.new(rules, seed=8)
    rng = random.Random(2)
    for _ in range(15):
        if rnd.is_over:
            break
        rnd.play(rng.choice(rnd.legal_moves()))
    game = pyspiel.load_game("python_passing_game", {"players": 3})
    state = state_from_round(game, rnd)
    assert state.round is not None
    assert state.round.history == rnd.history
    assert state.round.hands == rnd.hands
    for player in range(3):
        assert state.information_state_string(player) == information_state_string(rnd.view(player))


def test_resample_from_infostate_keeps_the_information_state() -> None:
    rng = random.Random(6)
    for params in PARAMS[:4]:
        game = pyspiel.load_game("python_passing_game", params)
        for _ in range(3):
            state = play_to(
                game.new_initial_state(),
                rng,
                lambda s: not s.is_chance_node() and rng.random() < 0.08,
            )
            if state.is_terminal():
                continue
            player = state.current_player()
            others = set()
            for k in range(8):
                new = state.resample_from_infostate(player, lambda k=k: k / 8)
                assert new.information_state_string(player) == state.information_state_string(
                    player
                )
                assert new.information_state_tensor(player) == state.information_state_tensor(
                    player
                )
                assert new.legal_actions() == state.legal_actions()
                others.add(str(new))
            assert len(others) > 1  # the hidden tiles did change


def test_resample_during_the_deal_and_at_a_pending_draw() -> None:
    game = pyspiel.load_game("python_passing_game")
    state = game.new_initial_state()
    for action in [3, 9, 12, 20, 27, 0, 1, 5]:
        state.apply_action(action)
    new = state.resample_from_infostate(0, lambda: 0.25)
    assert new.information_state_string(0) == state.information_state_string(0)
    state = play_to(game.new_initial_state(), random.Random(1), lambda s: s.round is not None)
    state.apply_action(DRAW_ACTION)
    assert state.is_chance_node()
    for player in range(2):
        new = state.resample_from_infostate(player, lambda: 0.5)
        assert new.is_chance_node()
        assert new.information_state_string(player) == state.information_state_string(player)


def test_openspiels_own_ismcts_bot_plays_it() -> None:
    game = pyspiel.load_game("python_passing_game")
    numbers = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(1, numbers),
        uct_c=20.0,
        max_simulations=15,
        random_state=numbers,
    )
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, _ = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(outcomes))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(0.0)


def test_ismcts_adapter_plays_in_the_arena_against_our_bots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from passing_game.arena.runner import ArenaConfig, bot_specs, run
    from passing_game.bots import BOTS

    assert "openspiel-ismcts" not in BOTS  # not offered unless asked for
    monkeypatch.setitem(BOTS, "openspiel-ismcts", OpenSpielIsmctsBot)
    bot = make("openspiel-ismcts", seed=1, simulations=10)
    assert isinstance(bot, OpenSpielIsmctsBot)
    config = ArenaConfig(
        tuple(bot_specs(["openspiel-ismcts:simulations=10", "greedy"])), games=2, seed=5
    )
    result = run(config, jobs=1)
    assert len(result.outcomes) == 2
    assert all(o.decisions[o.lineup.index(0)] > 0 for o in result.outcomes)


def test_ismcts_adapter_is_deterministic_and_uses_the_view_only() -> None:
    rnd = Round.new(Rules(players=3), seed=12)
    rng = random.Random(0)
    for _ in range(5):
        rnd.play(rng.choice(rnd.legal_moves()))
    seat = rnd.to_move
    assert seat is not None
    view = rnd.view(seat)
    a = OpenSpielIsmctsBot(seed=4, simulations=12).choose(view)
    b = OpenSpielIsmctsBot(seed=4, simulations=12).choose(view)
    assert a == b and a in view.legal_moves()


def test_a_chosen_draw_is_public_before_its_tile_is_dealt() -> None:
    game = pyspiel.load_game("python_passing_game")
    state = play_to(game.new_initial_state(), random.Random(2), lambda s: s.round is not None)
    before = [state.information_state_tensor(p) for p in range(2)]
    strings = [state.information_state_string(p) for p in range(2)]
    drawer = state.current_player()
    state.apply_action(DRAW_ACTION)
    for p in range(2):
        assert state.information_state_tensor(p) != before[p]
        assert state.information_state_string(p) != strings[p]
        assert state.information_state_string(p).endswith(f"seat {drawer} draws")
