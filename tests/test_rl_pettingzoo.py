"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, and rewards."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

import numpy as np
import pettingzoo
from pettingzoo.test import api_test, seed_test

import passing_game.rl
from passing_game import IllegalMove, Rules
from passing_game.rl.encoding import encode, observation_size
from passing_game.rl.pettingzoo_env import PassingGameAEC, env

CONFIGS: list[dict[str, Any]] = [
    {},
    {"players": 3, "scoring": "pairwise"},
    {"players": 4, "partnerships": True, "draw": "continue"},
    {"players": 4, "passing": "forced", "reward": "margin"},
    {"episode": "match", "target": 30},
    {"episode": "match", "reward": "win", "players": 3, "target": 25},
]

# PettingZoo's api_test warns about dict observations, which it recommends
# for action masks itself (its classic board games use them too).
quiet = pytest.mark.filterwarnings("ignore::UserWarning")


@quiet
@pytest.mark.parametrize("kwargs", CONFIGS, ids=str)
def test_pettingzoo_api_test(kwargs: dict[str, Any]) -> None:
    api_test(env(**kwargs), num_cycles=300)


@quiet
@pytest.mark.parametrize("kwargs", CONFIGS, ids=str)
def test_pettingzoo_seed_test(kwargs: dict[str, Any]) -> None:
    seed_test(lambda: env(**kwargs), num_cycles=300)


def test_registered_with_pettingzoos_registry() -> None:
    assert passing_game.rl.PETTINGZOO_ID in pettingzoo.aec_registry
    made = pettingzoo.make("aec", "passing_game/passing_game-v0", players=4, partnerships=True)
    assert isinstance(made, PassingGameAEC)
    assert made.rules == Rules(players=4, partnerships=True)
    assert made.possible_agents == ["player_0", "player_1", "player_2", "player_3"]


def play_out(e: PassingGameAEC, seed: int) -> dict[str, float]:
    """Random legal play to the end; the rewards each agent collected."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += float(reward)
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


def test_round_rewards_are_the_points_won() -> None:
    e = env(players=3)
    for seed in range(10):
        total = play_out(e, seed)
        result = e.match.results[0] if e.match else None
        assert result is not None
        for seat, agent in enumerate(e.possible_agents):
            assert total[agent] == result.points_by_side()[seat]


def test_margin_rewards_are_zero_sum() -> None:
    e = env(players=4, partnerships=True, reward="margin")
    for seed in range(5):
        total = play_out(e, seed)
        assert sum(total.values()) == pytest.approx(0.0)
        assert total["player_0"] == total["player_2"]


def test_match_rewards_add_up_to_the_scores() -> None:
    e = env(episode="match", target=40)
    total = play_out(e, 3)
    assert e.match is not None and e.match.is_over
    assert len(e.match.results) > 1
    assert [total[a] for a in e.possible_agents] == e.match.scores


def test_win_reward_in_a_match_is_given_once() -> None:
    e = env(episode="match", reward="win", target=30)
    total = play_out(e, 1)
    assert e.match is not None and e.match.winner is not None
    winner = f"player_{e.match.winner}"
    assert total[winner] == 1.0
    assert all(v == -1.0 for a, v in total.items() if a != winner)


def test_observations_are_the_shared_encoding_of_each_view() -> None:
    e = env(players=3)
    e.reset(seed=5)
    assert e.match is not None
    for seat, agent in enumerate(e.possible_agents):
        obs = e.observe(agent)
        assert obs["observation"].shape == (observation_size(Rules(players=3)),)
        assert np.array_equal(obs["observation"], encode(e.match.view(seat)))
        mask = obs["action_mask"]
        assert mask.any() == (agent == e.agent_selection)


def test_illegal_action_raises_and_changes_nothing() -> None:
    e = env()
    e.reset(seed=2)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = e.observe(agent)["observation"].copy()
    with pytest.raises(IllegalMove):
        e.step(illegal)
    assert e.agent_selection == agent
    assert np.array_equal(e.observe(agent)["observation"], before)


def test_continue_draw_keeps_the_same_agent() -> None:
    e = env(draw="continue")
    e.reset(seed=0)
    agent = e.agent_selection
    e.step(56)  # draw
    assert e.agent_selection == agent


def test_render_ansi() -> None:
    e = env(render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert text is not None and "player_0" in text and "train" in text
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        e.close()
