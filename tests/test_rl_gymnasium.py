"""The Gymnasium single-agent environment: Gymnasium's env checker, rewards, masks."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pyspiel")

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env

import passing_game.rl
from passing_game import Rules
from passing_game.rl.encoding import PASS_ACTION, encode
from passing_game.rl.gym_env import PassingGameEnv

CONFIGS: list[dict[str, Any]] = [
    {},
    {"opponents": ("random",), "reward": "points"},
    {"players": 3, "opponents": ("random", "greedy"), "scoring": "pairwise"},
    {"players": 4, "partnerships": True, "seat": None, "draw": "continue"},
    {"passing": "forced", "reward": "win"},
    {"episode": "match", "target": 30},
    {"episode": "match", "reward": "win", "target": 20},
]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("kwargs", CONFIGS, ids=str)
def test_gymnasium_check_env(kwargs: dict[str, Any]) -> None:
    made = gym.make(passing_game.rl.GYMNASIUM_ID, render_mode="ansi", **kwargs)
    check_env(made.unwrapped)
    made.close()


def test_registered() -> None:
    assert passing_game.rl.GYMNASIUM_ID in gym.registry
    made = gym.make("passing_game/PassingGame-v0", players=3, opponents=("heuristic",))
    assert isinstance(made.unwrapped, PassingGameEnv)
    assert made.unwrapped.rules == Rules(players=3)


def play(env: PassingGameEnv, seed: int, policy: str = "random") -> tuple[float, dict[str, Any]]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total = 0.0
    while True:
        legal = np.flatnonzero(env.action_masks())
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        assert np.array_equal(obs, encode(env.view()))
        action = int(legal[0]) if policy == "first" else int(rng.choice(legal))
        obs, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        assert not truncated
        if terminated:
            return total, info


def test_reward_is_own_points_minus_the_opponents() -> None:
    env = PassingGameEnv(players=3, opponents=("random",))
    for seed in range(8):
        total, _ = play(env, seed)
        assert env.match is not None
        points = env.match.results[0].points_by_side()
        assert total == points[env.seat] - (sum(points) - points[env.seat])


def test_partnership_reward_counts_the_team() -> None:
    env = PassingGameEnv(players=4, partnerships=True, opponents=("greedy",), reward="points")
    for seed in range(5):
        total, _ = play(env, seed)
        assert env.match is not None
        assert total == env.match.results[0].points_by_side()[env.seat % 2]


def test_match_episode_rewards_every_round() -> None:
    env = PassingGameEnv(episode="match", target=40, opponents=("random",))
    total, _ = play(env, 4)
    assert env.match is not None and env.match.is_over
    scores = env.match.scores
    assert total == scores[env.seat] - scores[1 - env.seat]


def test_same_seed_same_episode() -> None:
    a = PassingGameEnv(opponents=("random",), seat=None)
    b = PassingGameEnv(opponents=("random",), seat=None)
    assert play(a, 11)[0] == play(b, 11)[0]
    assert a.match is not None and b.match is not None
    assert a.match.round.history == b.match.round.history


def test_illegal_action_passes_with_a_penalty() -> None:
    env = PassingGameEnv(opponents=("greedy",), illegal_penalty=2.5)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    before = len(env.view().history)
    _, reward, terminated, _, info = env.step(illegal)
    assert info["illegal_action"] is True
    if not terminated:
        assert reward == -2.5
    assert env.match is not None
    turn = env.match.rounds[0].history[before]
    assert turn.seat == env.seat and str(turn.move) == "pass"


def test_legal_action_is_not_flagged() -> None:
    env = PassingGameEnv(opponents=("greedy",))
    env.reset(seed=0)
    _, _, _, _, info = env.step(PASS_ACTION)
    assert info["illegal_action"] is False


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="opponent"):
        PassingGameEnv(players=4, opponents=("greedy", "random"))
    with pytest.raises(ValueError, match="unknown bot"):
        PassingGameEnv(opponents=("nobody",))
    with pytest.raises(ValueError, match="seat"):
        PassingGameEnv(seat=2)
    with pytest.raises(ValueError, match="reward"):
        PassingGameEnv(reward="fun")


def test_action_masks_reach_through_wrappers() -> None:
    made = gym.make("passing_game/PassingGame-v0")
    made.reset(seed=1)
    mask = made.get_wrapper_attr("action_masks")()
    assert mask.dtype == bool and mask.shape == (58,) and mask[PASS_ACTION]


def test_sync_vector_env_gathers_every_info() -> None:
    """N single envs in Gymnasium's SyncVectorEnv play rounds to their ends: every
    info entry is a number (a tie's winner is -1, R7), so the infos gather."""
    env = gym.make_vec(
        "passing_game/PassingGame-v0",
        num_envs=8,
        vectorization_mode="sync",
        opponents=("random",),
    )
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(11)
    ended = ties = 0
    while ended < 200:
        masks = info["action_mask"].astype(bool)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, _, _, _, info = env.step(actions)
        if "round_result" in info:
            done = info["round_result"]["_winner"]
            winners = info["round_result"]["winner"][done]
            assert set(winners.tolist()) <= {-1, 0, 1}
            ties += int((winners == -1).sum())
            ended += int(done.sum())
    assert obs.shape == (8, 198)
    assert ties > 0  # a blocked round with equal counts: no winner
