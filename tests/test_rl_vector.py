"""The batched C environment (rl.vector_env) plays the same game as Round, step for step.

With the same seeds and actions, each game of ``VectorPassingGame`` and a
single public ``Round`` dealt by ``Round.new(rules, seed)`` (D9; ``seed`` the
one the game draws, as ``PassingGame-v0`` draws it, ``_match_seed``) agree on
the observation (``encoding.encode``, the single Gymnasium environment's
encoding), the legal-action mask, the rewards (``PassingGameEnv``'s reward
of a round) and the end of the round, in every rules variant.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from passing_game import PASS, Match, Round, Rules
from passing_game.bots.heuristic import WEIGHTS as HEURISTIC_WEIGHTS
from passing_game.dealing import deal_digest
from passing_game.rl import vector_env
from passing_game.rl.encoding import action_mask, action_to_move, encode, move_to_action
from passing_game.rl.gym_env import PassingGameEnv
from passing_game.tiles import mask_of

# CI builds the extension, so there a missing one is a failure, not a skip.
if os.environ.get("CI") and not vector_env.AVAILABLE:
    raise RuntimeError("CI: the C environment passing_game._vecenv was not built")
pytestmark = pytest.mark.skipif(not vector_env.AVAILABLE, reason="_vecenv not built")

VARIANTS = [
    pytest.param({"players": 2}, id="2p"),
    pytest.param({"players": 3}, id="3p"),
    pytest.param({"players": 4}, id="4p"),
    pytest.param({"players": 4, "partnerships": True}, id="partners-D6"),
    pytest.param({"players": 2, "draw": "continue"}, id="draw-continue-D1"),
    pytest.param({"players": 3, "passing": "forced"}, id="forced-D2"),
    pytest.param({"players": 3, "scoring": "pairwise"}, id="pairwise-D4"),
    pytest.param(
        {"players": 4, "partnerships": True, "scoring": "pairwise", "passing": "forced"},
        id="partners-pairwise-forced",
    ),
    pytest.param({"players": 2, "hand_size": 3, "draw": "continue"}, id="hand3-continue"),
    pytest.param({"players": 2, "max_pip": 3}, id="double-three"),
    pytest.param({"players": 4, "partnerships": True, "max_pip": 5}, id="double-five-partners"),
    pytest.param({"players": 3, "max_pip": 4, "passing": "forced"}, id="double-four-forced"),
    pytest.param({"players": 2, "max_pip": 2}, id="double-two"),
]

GAMES = 12


def _match_seed(seed: int) -> int:
    """The seed a self-play game reset with ``seed`` deals its first episode from: the
    first draw of PassingGame-v0's np_random (Gymnasium's seeding) for ``seed``."""
    return int(np.random.default_rng(seed).integers(2**62))


def _seat_value(rules: Rules, kind: str, seat: int, points: tuple[int, ...]) -> float:
    """What the single environment pays ``seat`` for a round (PassingGameEnv._round_value)."""
    single = PassingGameEnv(rules, reward=kind)  # type: ignore[arg-type]
    single.seat = seat
    return single._round_value(points)


def _expected_move(rnd: Round, action: int) -> tuple[int, bool]:
    """The move the single environment makes for ``action``, and whether it was illegal."""
    legal = rnd.legal_moves()
    if action in [move_to_action(m) for m in legal]:
        return action, False
    return move_to_action(PASS if PASS in legal else legal[0]), True


def _check_game(env: vector_env.VectorPassingGame, i: int, rnd: Round, seat: int, obs: Any) -> None:
    # PassingGame-v0's view holds the match's scores: the round's points once it is over
    scores = rnd.result.points_by_side() if rnd.result is not None else None
    view = rnd.view(seat, scores=scores)
    np.testing.assert_array_equal(obs[i], encode(view), err_msg=f"game {i}")
    np.testing.assert_array_equal(
        env.action_masks()[i], action_mask(view).astype(bool), err_msg=f"game {i}"
    )
    hands, pile, to_move, _ = env._core.state(i)
    assert list(hands) == [mask_of(h) for h in rnd.hands]
    assert pile == [t.index for t in rnd.boneyard]
    assert to_move == rnd.to_move


def _play_one_round_each(fields: dict[str, Any], kind: str, illegal_rate: float, seed: int) -> int:
    """Play every game of a batch to its round's end beside single Rounds; returns steps."""
    rules = Rules(**fields)
    env = vector_env.VectorPassingGame(GAMES, rules, reward=kind, illegal_penalty=0.5)  # type: ignore[arg-type]
    seeds = [seed * 100 + i for i in range(GAMES)]
    obs, info = env.reset(seed=seeds)
    rounds = [Round.new(rules, _match_seed(s)) for s in seeds]
    live = [True] * GAMES
    rng = np.random.default_rng(seed)
    steps = 0
    while any(live):
        for i, rnd in enumerate(rounds):
            if live[i]:
                assert info["seat"][i] == rnd.to_move
                _check_game(env, i, rnd, rnd.to_move, obs)
        actions = np.zeros(GAMES, np.int64)
        for i, mask in enumerate(env.action_masks()):
            if rng.random() < illegal_rate:
                actions[i] = rng.integers(-3, 70)
            elif mask.any():
                actions[i] = rng.choice(np.flatnonzero(mask))
        expected = {}
        for i, rnd in enumerate(rounds):
            if live[i]:
                seat = rnd.to_move
                code, illegal = _expected_move(rnd, int(actions[i]))
                rnd.play(action_to_move(code))
                expected[i] = seat, illegal
        obs, reward, terminated, truncated, info = env.step(actions)
        steps += 1
        assert not truncated.any()
        for i, (seat, illegal) in expected.items():
            rnd = rounds[i]
            assert info["illegal_action"][i] == illegal
            penalty = 0.5 if illegal else 0.0
            assert terminated[i] == (rnd.result is not None)
            if rnd.result is None:
                assert reward[i] == -penalty
                continue
            # R7, D4, D6: the points of each side, and every seat's reward from them
            points = rnd.result.points_by_side()
            assert tuple(info["points"][i]) == points
            values = [_seat_value(rules, kind, s, points) for s in range(rules.players)]
            values[seat] -= penalty
            assert list(info["rewards"][i]) == values
            assert reward[i] == values[seat]
            assert info["seat"][i] == seat  # the last mover's view once the round is over
            _check_game(env, i, rnd, seat, obs)
            live[i] = False
    return steps


@pytest.mark.parametrize("fields", VARIANTS)
def test_same_game_as_round(fields: dict[str, Any]) -> None:
    """R2-R7 and the variants: observations, masks, rewards and ends agree with Round."""
    assert _play_one_round_each(fields, "margin", 0.0, seed=1) > 0


@pytest.mark.parametrize("fields", VARIANTS)
def test_illegal_actions_as_the_single_env(fields: dict[str, Any]) -> None:
    """An illegal action passes (else the first legal move, D2) and is charged the penalty."""
    _play_one_round_each(fields, "margin", 0.3, seed=2)


@pytest.mark.parametrize("kind", ["margin", "points", "win"])
@pytest.mark.parametrize("fields", [VARIANTS[1], VARIANTS[3]])
def test_reward_kinds(fields: dict[str, Any], kind: str) -> None:
    """Each reward kind pays what PassingGameEnv pays for a round (R7, D6)."""
    _play_one_round_each(fields, kind, 0.05, seed=3)


def _random_run(env: vector_env.VectorPassingGame, seed: int, steps: int) -> list[Any]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = [obs]
    for _ in range(steps):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, reward, terminated, _, info = env.step(actions)
        out += [obs, reward, terminated, info["seat"]]
    return out


@pytest.mark.parametrize("fields", [VARIANTS[0], VARIANTS[3]])
def test_next_step_autoreset_deals_as_round_new(fields: dict[str, Any]) -> None:
    """After a round ends the next step ignores its action and returns Round.new's deal (D9)."""
    env = vector_env.VectorPassingGame(4, **fields)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    seen = 0
    for _ in range(400):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 57 for m in masks])
        before = env._terminated.copy()
        obs, reward, terminated, _, info = env.step(actions)
        for i in np.flatnonzero(before):
            seen += 1
            assert reward[i] == 0.0 and not terminated[i] and not info["illegal_action"][i]
            hands, pile, to_move, seed = env._core.state(int(i))
            rnd = Round.new(env.rules, seed)
            assert list(hands) == [mask_of(h) for h in rnd.hands]
            assert pile == [t.index for t in rnd.boneyard]
            assert to_move == rnd.to_move == info["seat"][i]
            np.testing.assert_array_equal(obs[i], encode(rnd.view(rnd.to_move)))
    assert seen > 0


@pytest.mark.parametrize("seed", [0, 1, 9, 10, 12345, 2**62 - 1, 2**63, 2**64 - 1])
def test_c_digest_is_the_deal_digest(seed: int) -> None:
    """The BLAKE2b digest of a seed in C equals dealing.deal_digest, which deals (D9)."""
    assert vector_env._vecenv.digest(seed) == deal_digest(seed, 1)


def test_c_digest_many_seeds() -> None:
    """D9 over a thousand random seeds below 2**62, the range step() draws from."""
    for seed in np.random.default_rng(0).integers(2**62, size=1000):
        assert vector_env._vecenv.digest(int(seed)) == deal_digest(int(seed), 1)


def test_same_seed_same_run() -> None:
    """Seeding makes runs repeatable, autoresets included (D9)."""
    first = _random_run(vector_env.VectorPassingGame(3, players=3), 9, 150)
    second = _random_run(vector_env.VectorPassingGame(3, players=3), 9, 150)
    for a, b in zip(first, second, strict=True):
        np.testing.assert_array_equal(a, b)


def test_an_int_seed_deals_seed_plus_i() -> None:
    """reset(seed=s) gives game i the seed s + i, Gymnasium's convention (D9)."""
    env = vector_env.VectorPassingGame(3, players=4)
    obs, _ = env.reset(seed=40)
    for i in range(3):
        rnd = Round.new(env.rules, _match_seed(40 + i))
        assert env._core.state(i)[3] == _match_seed(40 + i)
        np.testing.assert_array_equal(obs[i], encode(rnd.view(rnd.to_move)))


def test_bad_input_is_refused() -> None:
    """Wrong shapes and dtypes raise ValueError; nothing is stepped."""
    env = vector_env.VectorPassingGame(2, players=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2, np.int64))
    env.reset(seed=1)
    before = env._obs.copy()
    with pytest.raises(ValueError, match="integers"):
        env.step(np.zeros(2, np.float32))
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((2, 1), np.int64))
    np.testing.assert_array_equal(env._obs, before)
    with pytest.raises(ValueError, match="seeds"):
        env.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="plays against greedy, heuristic, random"):
        vector_env.VectorPassingGame(2, opponents=("expert",))
    with pytest.raises(ValueError, match="one opponent for all seats"):
        vector_env.VectorPassingGame(2, players=4, opponents=("greedy", "greedy"))
    with pytest.raises(ValueError, match="seat"):
        vector_env.VectorPassingGame(2, players=2, opponents="greedy", seat=2)
    with pytest.raises(ValueError, match="num_envs"):
        vector_env.VectorPassingGame(0)
    with pytest.raises(ValueError, match="reward"):
        vector_env.VectorPassingGame(2, reward="score")  # type: ignore[arg-type]


def test_core_never_writes_outside_its_arrays() -> None:
    """The C core checks every array's size itself, whatever the wrapper passes."""
    core = vector_env._vecenv.VecCore(2, 2, 7, 0, 0, 1.0)
    small = np.zeros(5, np.float32)
    arrays = [
        np.zeros((2, 198), np.float32),
        np.zeros((2, 58), np.bool_),
        np.zeros(2, np.float32),
        np.zeros((2, 4), np.float32),
        np.zeros((2, 4), np.int32),
        np.zeros(2, np.bool_),
        np.zeros(2, np.int8),
        np.zeros(2, np.bool_),
    ]
    for k in range(len(arrays)):
        bad = list(arrays)
        bad[k] = small
        with pytest.raises(ValueError, match="expected"):
            core.bind(*bad)
    with pytest.raises(RuntimeError, match="bind"):
        core.step(np.zeros(2, np.int64))
    core.bind(*arrays)
    with pytest.raises(ValueError, match="expected"):
        core.step(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="not a game"):
        core.deal(np.array([2], np.int64))
    with pytest.raises(ValueError, match="not a game"):
        core.seed(np.array([-1], np.int64), np.zeros(6, np.uint64))
    with pytest.raises(ValueError, match="int64"):
        core.deal(np.array([0], np.int32))
    with pytest.raises(ValueError, match="expected"):
        core.seed(np.array([0], np.int64), np.zeros(5, np.uint64))
    with pytest.raises(RuntimeError, match="never dealt"):
        core.step(np.zeros(2, np.int64))


def test_make_vec_self_play_is_the_batch() -> None:
    """gym.make_vec with opponents=None returns the C batch with the single env's options."""
    env = gym.make_vec(
        "passing_game/PassingGame-v0",
        num_envs=5,
        vectorization_mode="vector_entry_point",
        opponents=None,
        players=3,
        passing="forced",
        reward="points",
    )
    assert isinstance(env, vector_env.VectorPassingGame)
    assert env.rules == Rules(players=3, passing="forced") and env.reward_kind == "points"
    obs, _ = env.reset(seed=4)
    assert obs.shape == (5, env.single_observation_space.shape[0])
    assert env.action_masks().shape == (5, 58)
    with pytest.raises(ValueError, match="episode must be one of"):
        gym.make_vec(
            "passing_game/PassingGame-v0",
            num_envs=2,
            vectorization_mode="vector_entry_point",
            opponents=None,
            episode="season",
        )


def test_make_vec_against_greedy_is_the_batch() -> None:
    """make_vec's default opponents (greedy, as PassingGame-v0's) play in C."""
    env = gym.make_vec(
        "passing_game/PassingGame-v0", num_envs=2, vectorization_mode="vector_entry_point"
    )
    assert isinstance(env, vector_env.VectorPassingGame)
    assert env.opponents == ("greedy",)
    env = gym.make_vec(
        "passing_game/PassingGame-v0",
        num_envs=2,
        vectorization_mode="vector_entry_point",
        players=3,
        opponents=("heuristic", "greedy"),
    )
    assert isinstance(env, vector_env.VectorPassingGame)
    assert env.opponents == ("heuristic", "greedy")


def test_make_vec_with_other_bots_is_still_the_single_envs() -> None:
    """Bots not in C give N PassingGameEnvs, as make_vec gave before."""
    env = gym.make_vec(
        "passing_game/PassingGame-v0",
        num_envs=2,
        vectorization_mode="vector_entry_point",
        opponents=("expert",),
    )
    assert isinstance(env, gym.vector.SyncVectorEnv)
    obs, _ = env.reset(seed=1)
    assert obs.shape == (2, 198)


MATCH_VARIANTS = [
    pytest.param({"players": 2}, "margin", id="2p-margin"),
    pytest.param({"players": 3, "leader": "rotate"}, "points", id="3p-rotate-points-D5"),
    pytest.param(
        {"players": 4, "partnerships": True, "leader": "winner"}, "win", id="partners-winner-win-D5"
    ),
    pytest.param(
        {"players": 4, "leader": "winner", "scoring": "pairwise", "passing": "forced"},
        "margin",
        id="4p-winner-pairwise-forced",
    ),
    pytest.param({"players": 2, "target": 20, "draw": "continue"}, "win", id="2p-target20-win"),
]


# The bots C plays move for move; ``random`` chooses from its own stream (below).
SAME_MOVES = ("greedy", "heuristic")


def test_every_bot_in_c_is_tested() -> None:
    assert set(vector_env.OPPONENTS) == {*SAME_MOVES, "random"}


@pytest.mark.parametrize("bot", SAME_MOVES)
@pytest.mark.parametrize("fields", VARIANTS)
def test_against_bots_same_as_single_env(fields: dict[str, Any], bot: str) -> None:
    """Against a bot in C each game plays as PassingGame-v0 with the same deal and actions."""
    _against_bot(Rules(**fields), (bot,), "round", "margin")


@pytest.mark.parametrize("fields", [VARIANTS[1], VARIANTS[2], VARIANTS[3]])
def test_against_mixed_bots_same_as_single_env(fields: dict[str, Any]) -> None:
    """One bot a seat, in seat order around the learner, as PassingGame-v0 seats them."""
    rules = Rules(**fields)
    bots = tuple(SAME_MOVES[k % 2] for k in range(rules.players - 1))
    _against_bot(rules, bots, "round", "margin")
    _against_bot(rules, bots[::-1], "match", "points")


@pytest.mark.parametrize("bot", SAME_MOVES)
@pytest.mark.parametrize(("fields", "kind"), MATCH_VARIANTS)
def test_match_against_bots_same_as_single_env(fields: dict[str, Any], kind: str, bot: str) -> None:
    """episode="match": rounds until the target (R8), leaders by D5, paid round by round."""
    _against_bot(Rules(**fields), (bot,), "match", kind)


@pytest.mark.parametrize("fields", [VARIANTS[0], VARIANTS[3]])
def test_heuristic_options_as_the_single_env(fields: dict[str, Any]) -> None:
    """opponent_options reach the heuristic in C as they reach HeuristicBot."""
    options = {"margin": 0.6, "weights": {"block": 9.0, "feed": 1.0, "pips": 0.5}}
    _against_bot(Rules(**fields), ("heuristic",), "round", "margin", options)
    with pytest.raises(ValueError, match="bad options"):
        vector_env.VectorPassingGame(1, opponents="greedy", opponent_options={"margin": 0.5})


def test_every_heuristic_weight_reaches_c() -> None:
    """The C heuristic reads each of HeuristicBot's weights (a new one must be added there)."""
    assert set(vector_env._HEURISTIC_WEIGHTS) == set(HEURISTIC_WEIGHTS)


def _against_bot(
    rules: Rules,
    bots: tuple[str, ...],
    episode: str,
    kind: str,
    options: dict[str, Any] | None = None,
) -> None:
    games = 4 * rules.players
    # the same options, by the same names, for both environments
    same: dict[str, Any] = {
        "opponents": bots,
        "opponent_options": options,
        "episode": episode,
        "reward": kind,
    }
    singles = []
    for i in range(games):
        single = PassingGameEnv(rules, seat=i % rules.players, **same)
        singles.append((single, *single.reset(seed=i)))
    envs = [
        vector_env.VectorPassingGame(1, rules, seat=i % rules.players, **same) for i in range(games)
    ]
    rng = np.random.default_rng(games)
    for i, env in enumerate(envs):
        single, obs, info = singles[i]
        vobs, vinfo = env.reset(seed=[i])  # the seed the single env was reset with
        while True:
            np.testing.assert_array_equal(vobs[0], obs)
            np.testing.assert_array_equal(env.action_masks()[0], single.action_masks())
            assert vinfo["seat"][0] == single.seat
            mask = single.action_masks()
            legal = rng.random() < 0.9
            action = int(rng.choice(np.flatnonzero(mask))) if legal else int(rng.integers(58))
            obs, reward, terminated, _, info = single.step(action)
            vobs, vreward, vterminated, _, vinfo = env.step(np.array([action]))
            assert vreward[0] == reward and vterminated[0] == terminated
            assert vinfo["illegal_action"][0] == info["illegal_action"]
            if terminated:
                np.testing.assert_array_equal(vobs[0], obs)
                assert not env.action_masks().any()
                break


class _Dice:
    """The C random opponent's stream (DECISIONS P35): splitmix64 from the
    first 8 bytes of the episode's deal digest, one draw a choice."""

    def __init__(self, digest: bytes) -> None:
        self.state = int.from_bytes(digest[:8], "little")

    def below(self, k: int) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) % 2**64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        return (z ^ (z >> 31)) % k


@pytest.mark.parametrize("fields", VARIANTS)
def test_random_opponent_is_uniform_over_the_legal_moves(fields: dict[str, Any]) -> None:
    """``random`` in C picks uniformly among Round.legal_moves() from its own stream:
    each game equals a Round where a model of that stream moves for the bots."""
    rules = Rules(**fields)
    games = 16 * rules.players * 28 // rules.tile_count  # a smaller set's rounds are shorter
    env = vector_env.VectorPassingGame(games, rules, opponents="random", seat=None)
    obs, info = env.reset(seed=7000)
    rng = np.random.default_rng(games)
    chosen: list[tuple[int, int]] = []  # (choice, number of legal moves) of every bot move
    rounds: list[Round | None] = []
    dices: list[_Dice] = []
    for i in range(games):
        seed = env._core.state(i)[3]  # the seed drawn, or the next (bots ended it first)
        rnd, dice = Round.new(rules, seed), _Dice(deal_digest(seed, 1))
        seat = int(info["seat"][i])
        while rnd.result is None and rnd.to_move != seat:
            legal = rnd.legal_moves()
            chosen.append((dice.below(len(legal)), len(legal)))
            rnd.play(legal[chosen[-1][0]])
        assert rnd.result is None
        rounds.append(rnd)
        dices.append(dice)
    while any(rnd is not None for rnd in rounds):
        actions = np.zeros(games, np.int64)
        for i, rnd in enumerate(rounds):
            if rnd is not None:
                view = rnd.view(int(info["seat"][i]))
                np.testing.assert_array_equal(obs[i], encode(view), err_msg=f"game {i}")
                np.testing.assert_array_equal(env.action_masks()[i], action_mask(view).astype(bool))
                actions[i] = rng.choice(np.flatnonzero(action_mask(view)))
        obs, reward, terminated, _, info = env.step(actions)
        for i, rnd in enumerate(rounds):
            if rnd is None:
                continue
            seat = rnd.to_move
            rnd.play(action_to_move(int(actions[i])))
            while rnd.result is None and rnd.to_move != seat:
                legal = rnd.legal_moves()
                chosen.append((dices[i].below(len(legal)), len(legal)))
                rnd.play(legal[chosen[-1][0]])
            assert terminated[i] == (rnd.result is not None), f"game {i}"
            if rnd.result is None:
                assert reward[i] == 0
            else:
                points = rnd.result.points_by_side()
                assert tuple(info["points"][i]) == points
                assert reward[i] == _seat_value(rules, "margin", seat, points)
                rounds[i] = None
    # the stream's choices spread evenly: a choice's place among its k moves is
    # uniform on (0, 1), mean 1/2, standard deviation about 0.29 / sqrt(n)
    places = [(c + 0.5) / k for c, k in chosen]
    assert len(places) > 100
    assert abs(np.mean(places) - 0.5) < 4 * 0.29 / np.sqrt(len(places))


def test_against_greedy_at_a_random_seat() -> None:
    """seat=None: the learner's seat is drawn each round and its view is returned."""
    env = vector_env.VectorPassingGame(40, players=3, opponents="greedy", seat=None)
    obs, info = env.reset(seed=3)
    seats = set(info["seat"].tolist())
    assert seats == {0, 1, 2}
    for i in range(40):
        hands, _, to_move, _ = env._core.state(i)
        assert to_move == info["seat"][i]
        assert obs[i][:28].sum() == bin(hands[to_move]).count("1")


def test_threads_step_their_own_batches() -> None:
    """step() runs without the GIL; batches stepped in threads give the sequential runs."""
    expected = [_random_run(vector_env.VectorPassingGame(64, players=4), s, 60) for s in (1, 2)]
    got: dict[int, list[Any]] = {}

    def run(seed: int) -> None:
        got[seed] = _random_run(vector_env.VectorPassingGame(64, players=4), seed, 60)

    threads = [threading.Thread(target=run, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for want, seed in zip(expected, (1, 2), strict=True):
        for a, b in zip(want, got[seed], strict=True):
            np.testing.assert_array_equal(a, b)


def test_one_batch_shared_by_threads_refuses_instead_of_racing() -> None:
    """While one thread steps a batch, another's calls on it raise RuntimeError, never crash."""
    env = vector_env.VectorPassingGame(4096, players=2, copy=False)
    env.reset(seed=0)
    errors: list[BaseException] = []

    def hammer() -> None:
        for _ in range(30):
            try:
                env.step(np.full(4096, 57))
                env._core.state(0)
            except RuntimeError as exc:
                errors.append(exc)

    threads = [threading.Thread(target=hammer) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all("another thread" in str(e) for e in errors)
    env.step(np.full(4096, 57))  # usable afterwards


@pytest.mark.parametrize(("fields", "kind"), MATCH_VARIANTS)
def test_match_self_play_same_as_match(fields: dict[str, Any], kind: str) -> None:
    """Self-play matches play as passing_game.Match with the seed drawn and moves (R8, D5)."""
    rules = Rules(**fields)
    games = 4
    env = vector_env.VectorPassingGame(games, rules, episode="match", reward=kind)  # type: ignore[arg-type]
    obs, info = env.reset(seed=[50 + i for i in range(games)])
    matches = [Match(rules, seed=_match_seed(50 + i)) for i in range(games)]
    live = [True] * games
    rng = np.random.default_rng(7)
    while any(live):
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in env.action_masks()]
        )
        seats = {}
        for i, match in enumerate(matches):
            if live[i]:
                seat = match.to_move
                assert seat is not None and info["seat"][i] == seat
                np.testing.assert_array_equal(obs[i], encode(match.view(seat)))
                np.testing.assert_array_equal(
                    env.action_masks()[i], action_mask(match.view(seat)).astype(bool)
                )
                before = len(match.results)
                match.play(action_to_move(int(actions[i])))
                seats[i] = seat, match.results[before:]
        obs, reward, terminated, _, info = env.step(actions)
        for i, (seat, ended) in seats.items():
            match = matches[i]
            assert terminated[i] == match.is_over
            values = [0.0] * rules.players
            for result in ended:
                points = result.points_by_side()
                for s in range(rules.players):
                    values[s] += 0.0 if kind == "win" else _seat_value(rules, kind, s, points)
            if match.is_over and kind == "win":
                assert match.winner is not None
                for s in range(rules.players):
                    values[s] += 1.0 if rules.side_of(s) == match.winner else -1.0
            assert list(info["rewards"][i]) == values and reward[i] == values[seat]
            if match.is_over:
                np.testing.assert_array_equal(obs[i], encode(match.view(seat)))
                live[i] = False


# -- seeding: the batch, make_vec's SyncVectorEnv and N gym.make envs agree ----------------

ID = "passing_game/PassingGame-v0"

THREE_WAYS = [
    pytest.param({}, id="2p-greedy"),
    pytest.param(
        {"players": 3, "opponents": ("heuristic", "greedy"), "seat": None}, id="3p-mixed-seat-None"
    ),
    pytest.param(
        {"players": 4, "partnerships": True, "opponents": ("heuristic",), "seat": 2},
        id="partners-heuristic",
    ),
    pytest.param(
        {"players": 2, "episode": "match", "target": 20, "reward": "win", "seat": None},
        id="2p-match-win",
    ),
    # one tile a hand: a bot that leads ends the round at once, so reset deals again
    pytest.param({"players": 3, "hand_size": 1, "seat": None}, id="hand1-dealt-again"),
    pytest.param(
        {"players": 3, "hand_size": 1, "episode": "match", "target": 60, "seat": None},
        id="hand1-match",
    ),
]


class _Singles:
    """N ``gym.make`` envs stepped as one batch, with Gymnasium's next-step autoreset."""

    def __init__(self, num_envs: int, **options: Any) -> None:
        self.envs = [gym.make(ID, **options) for _ in range(num_envs)]
        self.done = [False] * num_envs

    def reset(self, seed: list[int | None]) -> tuple[Any, dict[str, Any]]:
        self.done = [False] * len(self.envs)
        pairs = [env.reset(seed=s) for env, s in zip(self.envs, seed, strict=True)]
        return np.stack([o for o, _ in pairs]), _gather([i for _, i in pairs])

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        rows = []
        for k, env in enumerate(self.envs):
            if self.done[k]:  # the step after the end deals again and ignores the action
                obs, info = env.reset()
                rows.append((obs, 0.0, False, False, info))
            else:
                rows.append(env.step(int(actions[k])))
            self.done[k] = bool(rows[-1][2] or rows[-1][3])
        obs, reward, terminated, truncated, infos = zip(*rows, strict=True)
        return (
            np.stack(obs),
            np.array(reward, np.float64),
            np.array(terminated),
            np.array(truncated),
            _gather(list(infos)),
        )


def _gather(infos: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "action_mask": np.stack([i["action_mask"] for i in infos]).astype(bool),
        "seat": np.array([i["seat"] for i in infos]),
        "illegal_action": np.array([i.get("illegal_action", False) for i in infos]),
    }


def _actions(masks: Any, t: int) -> Any:
    """A legal action a game, chosen deterministically from its mask (any where none is legal)."""
    out = np.zeros(len(masks), np.int64)
    for k, mask in enumerate(masks):
        legal = np.flatnonzero(mask)
        if legal.size:
            out[k] = legal[(7 * t + 3 * k) % legal.size]
    return out


def _same(got: tuple[Any, ...], want: tuple[Any, ...], what: str) -> None:
    """Two batches' (obs, info) or (obs, reward, terminated, truncated, info) are equal."""
    *arrays, info = got
    *expected, want_info = want
    for a, b in zip(arrays, expected, strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b), err_msg=what)
    np.testing.assert_array_equal(
        np.asarray(info["action_mask"]).astype(bool), want_info["action_mask"], err_msg=what
    )
    np.testing.assert_array_equal(info["seat"], want_info["seat"], err_msg=what)
    if "illegal_action" in info:
        illegal = info["illegal_action"]
        if "_illegal_action" in info:  # a SyncVectorEnv: False where no step reported it
            illegal = illegal & info["_illegal_action"]
        np.testing.assert_array_equal(illegal, want_info["illegal_action"], err_msg=what)


def _three_ways(num_envs: int, options: dict[str, Any]) -> tuple[Any, Any, _Singles]:
    vector = gym.make_vec(ID, num_envs, vectorization_mode="vector_entry_point", **options)
    sync = gym.make_vec(ID, num_envs, vectorization_mode="sync", **options)
    assert isinstance(vector, vector_env.VectorPassingGame)
    assert isinstance(sync, gym.vector.SyncVectorEnv)
    return vector, sync, _Singles(num_envs, **options)


def _run_alike(
    envs: tuple[Any, Any, _Singles], seed: Any, singles_seed: list[int | None], steps: int
) -> int:
    """Reset the three with the same seeds and step them with the same actions; every
    observation, reward, end, mask and seat must agree. Returns the autoresets seen."""
    vector, sync, singles = envs
    want = singles.reset(singles_seed)
    _same(vector.reset(seed=seed), want, "vector reset")
    _same(sync.reset(seed=seed), want, "sync reset")
    autoresets = 0
    ended = np.zeros(len(singles.envs), bool)
    for t in range(steps):
        actions = _actions(want[-1]["action_mask"], t)
        want = singles.step(actions)
        _same(vector.step(actions), want, f"vector step {t}")
        _same(sync.step(actions), want, f"sync step {t}")
        autoresets += int(ended.sum())
        ended = want[2] | want[3]
    return autoresets


@pytest.mark.parametrize("options", THREE_WAYS)
def test_make_vec_modes_and_single_envs_deal_alike(options: dict[str, Any]) -> None:
    """reset(seed=s): game i of the C batch plays what the SyncVectorEnv's env i and a
    gym.make env reset with seed s + i play (Gymnasium's convention), autoresets included."""
    envs = _three_ways(3, options)
    assert _run_alike(envs, 21, [21, 22, 23], 150) > 2
    # seeded again later (the generators start over), and unseeded: each game goes on
    # with its own generator, as a Gymnasium env reset with seed=None does
    assert _run_alike(envs, 5, [5, 6, 7], 40) >= 0
    _run_alike(envs, None, [None, None, None], 60)


@pytest.mark.parametrize("options", [THREE_WAYS[0], THREE_WAYS[1]])
def test_a_list_of_seeds_gives_one_seed_a_game(options: dict[str, Any]) -> None:
    """reset(seed=[...]): one seed a game; a None entry leaves that game's generator
    going on (or starts one from fresh entropy), as SyncVectorEnv does."""
    envs = _three_ways(3, options)
    assert _run_alike(envs, [1000, 7, 2**40], [1000, 7, 2**40], 80) > 0
    _run_alike(envs, [3, None, 99], [3, None, 99], 80)
    vector = envs[0]
    a, _ = vector.reset(seed=[40, 41, 42])
    b, _ = vector.reset(seed=40)
    np.testing.assert_array_equal(a, b)


def test_unseeded_batches_differ_and_bad_seeds_are_refused() -> None:
    first, _ = vector_env.VectorPassingGame(8, opponents="greedy").reset()
    second, _ = vector_env.VectorPassingGame(8, opponents="greedy").reset()
    assert not np.array_equal(first, second)
    env = vector_env.VectorPassingGame(2)
    for bad in ([1, -1], -3, [1, 2.5], [1, "x"]):
        with pytest.raises(ValueError, match="seed"):
            env.reset(seed=bad)  # type: ignore[arg-type]
