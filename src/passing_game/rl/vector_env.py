"""N games stepped by one call, in C: ``PassingGame-v0`` as a Gymnasium vector environment.

``VectorPassingGame(num_envs, rules, ...)`` holds ``num_envs`` games in the
optional C extension ``passing_game._vecenv`` (the rules of ``_rules.h``,
the code behind ``Round``) and steps them all at once; observations, masks
and rewards are written straight into NumPy arrays.

* **Self-play** (``opponents=None``): every seat is the learner. Each step
  acts for the seat to move in each game; the observation is
  ``passing_game.rl.encoding.encode`` of the next seat to move's view (the
  same layout, float for float), or, once the round is over, of the seat
  that made the last move. ``info["seat"]`` says whose view it is.
* **Against bots** (``opponents=("greedy",)``, one name for every other seat
  or one a seat in seat order, from the bots built in C, ``OPPONENTS``;
  ``greedy`` and ``heuristic`` make the single env's moves, ``random``
  chooses as uniformly but from its own stream, DECISIONS P35): the
  learner plays ``seat`` (``None``: a seat at random each episode) and the
  bots move in C until its turn, as in ``PassingGame-v0`` (same options:
  ``opponent_options`` builds the bots; a round the bots end before the
  learner's first turn is dealt again, or in a match paid with its first
  step). ``gym.make_vec("passing_game/PassingGame-v0", num_envs=N)`` returns
  this class (``make_vector``).
* **Reward**: as ``PassingGame-v0`` computes it (``"margin"``, ``"points"`` or
  ``"win"``), for the seat that made the step's move; ``info["rewards"]``
  holds every seat's (``players`` columns) and ``info["points"]`` the points
  each side won when a round ended (``sides`` columns, 0 otherwise).
* **Illegal actions** are handled as ``PassingGame-v0`` handles them: the
  seat passes instead (or, where passing is not allowed, makes its first
  legal move), is charged ``illegal_penalty`` and ``info["illegal_action"]``
  is True. An array of the wrong shape or dtype raises ``ValueError``.
* **Episodes** are rounds (``episode="round"``) or matches (``"match"``,
  rewarded round by round, ``"win"`` once at its end; the observation's
  ``scores`` part holds the match scores), as in ``PassingGame-v0``; a
  finished game is dealt again on its next step (Gymnasium's next-step
  autoreset: that step ignores its action and returns the new deal with
  reward 0).
* **Seeds**, Gymnasium's convention: ``reset(seed=s)`` gives game ``i``
  the seed ``s + i``, ``reset(seed=[s0, s1, ...])`` one seed a game, and
  game ``i`` then plays, autoresets included, the episodes a
  ``PassingGame-v0`` reset with its seed plays (``gym.make`` or
  ``make_vec``'s ``"sync"`` mode): each game has that env's ``np_random``
  (NumPy's PCG64, run in C) and draws from it what its ``reset`` draws, the
  learner's seat when ``seat=None``, the bots' seeds and the seed of the
  ``Match`` (or round) dealt. ``None`` (or a ``None`` entry) leaves a game's
  generator going on, as an env reset with ``seed=None`` does (a game that
  has none yet starts one from fresh entropy). In self-play nothing but the
  ``Match`` seed is drawn.

>>> env = VectorPassingGame(3, players=2)
>>> obs, info = env.reset(seed=7)
>>> obs.shape, env.action_masks().shape, info["seat"].shape
((3, 198), (3, 58), (3,))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode

from passing_game.bots import HeuristicBot, make
from passing_game.bots.kernel import flags as rule_flags
from passing_game.rl.encoding import NUM_ACTIONS, observation_size
from passing_game.rl.gym_env import GYM_REWARDS, GymReward, PassingGameEnv
from passing_game.rl.rewards import EPISODES, Episode, check_option, make_rules
from passing_game.rules import LEADER_RULES, Rules

try:
    from passing_game import _vecenv  # type: ignore[attr-defined]
except ImportError:  # the optional C extension is not built
    _vecenv = None

#: Whether the C extension behind ``VectorPassingGame`` is built.
AVAILABLE: bool = _vecenv is not None

Array = npt.NDArray[Any]

#: The bots that play inside the batch, in C (``_vecenv.c``; the same moves
#: as their Python classes, tests/test_rl_vector.py).
OPPONENTS: tuple[str, ...] = ("greedy", "heuristic", "random")
#: HeuristicBot's weights in the order _vecenv.c reads them (after the margin).
_HEURISTIC_WEIGHTS = ("pips", "double", "follow", "variety", "block", "shut", "feed")


def _opponents(opponents: Sequence[str] | str | None, players: int) -> tuple[str, ...] | None:
    """The bot of each other seat, in seat order, as PassingGame-v0 reads them (None: self-play)."""
    if opponents is None:
        return None
    names = (opponents,) if isinstance(opponents, str) else tuple(opponents)
    if len(names) == 1:
        names = names * (players - 1)
    if len(names) != players - 1:
        raise ValueError(f"give one opponent for all seats or {players - 1}, got {len(names)}")
    unknown = [name for name in names if name not in OPPONENTS]
    if unknown:
        raise ValueError(
            f"the batch plays against {', '.join(OPPONENTS)} or None (self-play), got {unknown!r}"
        )
    return names


class VectorPassingGame(gym.vector.VectorEnv[Array, Array, Array]):
    """``num_envs`` rounds in C; see the module notes for its options."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        rules: Rules | dict[str, Any] | None = None,
        *,
        opponents: Sequence[str] | str | None = None,
        opponent_options: dict[str, Any] | None = None,
        seat: int | None = 0,
        episode: Episode = "round",
        reward: GymReward = "margin",
        illegal_penalty: float = 1.0,
        copy: bool = True,
        **rule_fields: Any,
    ) -> None:
        if _vecenv is None:
            raise RuntimeError("the C extension passing_game._vecenv is not built")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, got {num_envs!r}")
        check_option("episode", episode, EPISODES)
        check_option("reward", reward, GYM_REWARDS)
        self.rules = make_rules(rules, rule_fields)
        players = self.rules.players
        self.opponents = _opponents(opponents, players)
        self.opponent_options = dict(opponent_options or {})
        # as PassingGame-v0: every bot is built with the options (a bad one fails
        # here); the C bots take the heuristic's margin and weights from it
        bots = {name: make(name, **self.opponent_options) for name in self.opponents or ()}
        heuristic = bots.get("heuristic") or HeuristicBot()
        assert isinstance(heuristic, HeuristicBot)
        weights = (heuristic.margin, *(heuristic.weights[k] for k in _HEURISTIC_WEIGHTS))
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players
        ):
            raise ValueError(f"seat must be None or 0 to {players - 1}, got {seat!r}")
        self.num_envs = num_envs
        self.episode = episode
        self.reward_kind = reward
        self.illegal_penalty = float(illegal_penalty)
        self.copy = copy
        n, size = num_envs, observation_size(self.rules)
        self.single_observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Box(0.0, 1.0, (n, size), np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(n, NUM_ACTIONS))
        self._core = _vecenv.VecCore(
            n,
            self.rules.players,
            self.rules.hand_size,
            rule_flags(self.rules),
            GYM_REWARDS.index(reward),
            self.illegal_penalty,
            bytes(1 + OPPONENTS.index(name) for name in self.opponents or ()),
            -1 if seat is None else seat,
            self.rules.target,
            episode == "match",
            LEADER_RULES.index(self.rules.leader),
            weights,
            self.rules.max_pip,
        )
        self._obs = np.zeros((n, size), np.float32)
        self._mask = np.zeros((n, NUM_ACTIONS), np.bool_)
        self._reward = np.zeros(n, np.float32)
        self._rewards = np.zeros((n, 4), np.float32)
        self._points = np.zeros((n, 4), np.int32)
        self._terminated = np.zeros(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)
        self._seat = np.zeros(n, np.int8)
        self._illegal = np.zeros(n, np.bool_)
        self._core.bind(
            self._obs,
            self._mask,
            self._reward,
            self._rewards,
            self._points,
            self._terminated,
            self._seat,
            self._illegal,
        )
        self._ready = False
        #: Whether each game's generator was ever seeded (else reset starts it from entropy).
        self._seeded = np.zeros(n, np.bool_)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Array, dict[str, Any]]:
        """Deal every game again (module notes, **Seeds**): ``seed`` an int (game ``i``
        gets ``seed + i``), one seed a game, or None; a game given None goes on with
        its generator, as a ``PassingGame-v0`` reset with ``seed=None`` does."""
        n = self.num_envs
        seeds = _seeds(seed, n)
        fresh = [i for i, s in enumerate(seeds) if s is not None or not self._seeded[i]]
        states = np.zeros((len(fresh), 6), np.uint64)
        for row, i in enumerate(fresh):
            # PassingGame-v0's np_random for this seed (Gymnasium's seeding), run on in C
            state = seeding.np_random(seeds[i])[0].bit_generator.state
            pcg, inc = state["state"]["state"], state["state"]["inc"]
            halves = (pcg >> 64, pcg % 2**64, inc >> 64, inc % 2**64)
            states[row] = (*halves, state["has_uint32"], state["uinteger"])
        self._core.seed(np.array(fresh, np.int64), states)
        self._seeded[fresh] = True
        self._core.deal(np.arange(n, dtype=np.int64))
        self._ready = True
        self._terminated[:] = False
        self._reward[:] = 0.0
        self._rewards[:] = 0.0
        self._points[:] = 0
        self._illegal[:] = False
        return self._out(self._obs), self._info()

    def step(self, actions: Any) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        """One move in every game: ``actions`` holds one integer action id per game."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, got dtype {acts.dtype}")
        if acts.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {acts.shape}")
        self._core.step(np.ascontiguousarray(acts, dtype=np.int64))
        return (
            self._out(self._obs),
            self._out(self._reward),
            self._out(self._terminated),
            self._out(self._truncated),
            self._info(),
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the seat each game's observation belongs to, ``(num_envs, 58)``."""
        return self._mask.copy()

    def _out(self, array: Array) -> Array:
        return array.copy() if self.copy else array

    def _info(self) -> dict[str, Any]:
        return {
            "seat": self._out(self._seat),
            "action_mask": self._out(self._mask),
            "illegal_action": self._out(self._illegal),
            "rewards": self._out(self._rewards[:, : self.rules.players]),
            "points": self._out(self._points[:, : self.rules.sides]),
        }


def _seeds(seed: int | Sequence[int | None] | None, n: int) -> list[int | None]:
    """One seed a game as Gymnasium's vector envs give them: ``s + i`` for an int."""
    if seed is None:
        return [None] * n
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        seeds: list[Any] = [int(seed) + i for i in range(n)]
    elif isinstance(seed, (str, bytes)) or not isinstance(seed, Sequence | np.ndarray):
        raise ValueError(f"seed must be an int, one seed a game or None, got {seed!r}")
    else:
        seeds = list(seed)
        if len(seeds) != n:
            raise ValueError(f"give one seed or {n} seeds, got {len(seeds)}")
    for s in seeds:
        if s is not None and (isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0):
            raise ValueError(f"a seed is a whole number from 0 or None, got {s!r}")
    return [None if s is None else int(s) for s in seeds]


def make_vector(
    num_envs: int, opponents: Sequence[str] | str | None = ("greedy",), **options: Any
) -> gym.vector.VectorEnv[Any, Any, Any]:
    """``gym.make_vec("passing_game/PassingGame-v0", num_envs=N, ...)``: the batch in C.

    Self-play (``opponents=None``) and the bots of ``OPPONENTS`` give
    ``VectorPassingGame``. What the batch does not play (the search bots,
    rendering) gives Gymnasium's
    ``SyncVectorEnv`` of ``PassingGameEnv``s, as ``make_vec`` gave before.
    """
    names = (opponents,) if isinstance(opponents, str) else opponents
    in_c = names is None or all(name in OPPONENTS for name in names)
    single_only = {"render_mode"} & options.keys()
    if in_c and not single_only:
        return VectorPassingGame(num_envs, opponents=opponents, **options)
    if opponents is None:
        raise ValueError(
            "self-play (opponents=None) runs in the batch only, which has no render_mode"
        )
    return gym.vector.SyncVectorEnv(
        [lambda: PassingGameEnv(opponents=opponents, **options) for _ in range(num_envs)]
    )
