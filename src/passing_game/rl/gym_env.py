"""One seat against bots, as a Gymnasium environment: ``passing_game/PassingGame-v0``.

The agent plays seat ``seat`` (default 0; ``None`` picks a seat at random
each episode); the other seats are bots from the ladder
(``passing_game.bots``), ``opponents=("greedy",)`` for all of them or one
name per other seat, in seat order (with partnerships the agent's partner is
one of them). Between two of the agent's turns the bots play on their own.

* **Observation**: the shared observation vector of the agent's view
  (``passing_game.rl.encoding``, a ``Box`` in [0, 1]).
* **Action**: ``Discrete(58)``, the shared action ids. ``action_masks()``
  returns the legal ones as booleans (the method masked-policy trainers such
  as sb3-contrib's MaskablePPO call); ``info["action_mask"]`` holds the same.
* **Reward**, when a round ends: the points the agent's side won in the round
  minus the points the other sides won (with two sides: "my points minus
  theirs", zero-sum), ``reward="points"`` for the side's points alone, or
  ``"win"`` for +1 / -1 / 0. Other steps give 0.
* **Episode**: one round (``episode="round"``, the default) or a whole match
  (``"match"``, rewarded round by round; ``"win"`` is given once, at its end).
* **Info**: ``action_mask``, ``seat``, ``illegal_action`` after a step, and
  ``round_result`` after a step that ended a round (``reason``, ``winner``,
  a side or -1 on a tie for the lowest count, and ``points``).
* **Illegal actions** do not end the episode: the agent passes instead (or,
  where passing is not allowed, makes its first legal move), is charged
  ``illegal_penalty`` (default 1) and ``info["illegal_action"]`` is True.

>>> import gymnasium as gym
>>> import passing_game.rl
>>> env = gym.make("passing_game/PassingGame-v0", opponents=("greedy",))
>>> obs, info = env.reset(seed=3)
>>> obs.shape, int(info["action_mask"].sum()) == len(env.unwrapped.view().legal_moves())
((198,), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from passing_game.bots import Bot, make
from passing_game.match import Match
from passing_game.moves import PASS, Move
from passing_game.rl.encoding import (
    NUM_ACTIONS,
    Observation,
    action_mask,
    action_to_move,
    encode,
    legal_actions,
    move_to_action,
    observation_size,
)
from passing_game.rl.rewards import EPISODES, Episode, check_option, make_rules, match_reward
from passing_game.round import Round
from passing_game.rules import Rules
from passing_game.views import View

GymReward = str  # "margin", "points" or "win"
GYM_REWARDS = ("margin", "points", "win")


class PassingGameEnv(gym.Env[Observation, np.int64]):
    """The single-agent environment; see the module notes for its options."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules | dict[str, Any] | None = None,
        *,
        opponents: Sequence[str] = ("greedy",),
        opponent_options: dict[str, Any] | None = None,
        seat: int | None = 0,
        episode: Episode = "round",
        reward: GymReward = "margin",
        illegal_penalty: float = 1.0,
        render_mode: str | None = None,
        **rule_fields: Any,
    ) -> None:
        self.rules = make_rules(rules, rule_fields)
        n = self.rules.players
        check_option("episode", episode, EPISODES)
        check_option("reward", reward, GYM_REWARDS)
        if render_mode is not None:
            check_option("render_mode", render_mode, ("human", "ansi"))
        if isinstance(opponents, str):
            opponents = (opponents,)
        names = tuple(opponents)
        if len(names) == 1:
            names = names * (n - 1)
        if len(names) != n - 1:
            raise ValueError(f"give one opponent for all seats or {n - 1}, got {len(names)}")
        for name in names:
            make(name, **(opponent_options or {}))  # fail early on a bad name or option
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be None or 0 to {n - 1}, got {seat!r}")
        self.opponent_names = names
        self.opponent_options = dict(opponent_options or {})
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.episode = episode
        self.reward_kind = reward
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (observation_size(self.rules),), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.match: Match | None = None
        self.bots: dict[int, Bot] = {}
        self._carry = 0.0

    # -- episode -------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        draw = self.np_random.integers
        self.seat = (
            self.fixed_seat if self.fixed_seat is not None else int(draw(self.rules.players))
        )
        others = [s for s in range(self.rules.players) if s != self.seat]
        self.bots = {
            s: make(name, seed=int(draw(2**62)), **self.opponent_options)
            for s, name in zip(others, self.opponent_names, strict=True)
        }
        self.match = Match(self.rules, seed=int(draw(2**62)))
        self._play_bots()
        # A round that ended before the agent's first turn (the bots alone
        # blocked it, which is very rare) is no episode of a round: deal again.
        # In a match its points are paid with the agent's first step, unless the
        # match is over already (a tiny target): then it is dealt again too.
        while self._done():
            self.match = Match(self.rules, seed=int(draw(2**62)))
            self._play_bots()
        self._carry = sum(self._round_value(r.points_by_side()) for r in self.match.results)
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        match = self._match()
        if self._done():
            raise RuntimeError("the episode is over; call reset()")
        view = self.view()
        illegal = int(action) not in legal_actions(view) if _is_int(action) else True
        reward, self._carry = self._carry, 0.0
        if illegal:
            reward -= self.illegal_penalty
            move = PASS if PASS in view.legal_moves() else view.legal_moves()[0]
        else:
            move = action_to_move(action)
        before = len(match.results)
        match.play(move)
        self._play_bots()
        for result in match.results[before:]:
            reward += self._round_value(result.points_by_side())
        if self.reward_kind == "win" and self.episode == "match" and match.winner is not None:
            reward += match_reward(self.rules, match.winner, self.seat)
        terminated = self._done()
        info = self._info()
        info["illegal_action"] = illegal
        if len(match.results) > before:
            last = match.results[-1]
            info["round_result"] = {
                "reason": last.reason,
                # -1 for a tie: numbers only, so that a SyncVectorEnv gathers them
                "winner": -1 if last.winner is None else last.winner,
                "points": last.points,
            }
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, False, info

    def _round_value(self, points: tuple[int, ...]) -> float:
        side = self.rules.side_of(self.seat)
        own = points[side]
        others = sum(points) - own
        if self.reward_kind == "points":
            return float(own)
        if self.reward_kind == "margin":
            return float(own - others)
        if self.episode == "match":
            return 0.0
        return 1.0 if own > 0 else -1.0 if others > 0 else 0.0

    def _play_bots(self) -> None:
        """Let the bots move until it is the agent's turn or the episode is over."""
        match = self._match()
        while not self._done():
            seat = match.to_move
            if seat == self.seat or seat is None:
                return
            match.play(self.bots[seat].choose(match.view(seat)))

    def _done(self) -> bool:
        match = self._match()
        if self.episode == "round":
            return bool(match.results)
        return match.is_over

    def _match(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() before using the environment")
        return self.match

    # -- what the agent sees ---------------------------------------------------------

    def _round(self) -> Round:
        match = self._match()
        return match.rounds[0] if self.episode == "round" else match.round

    def view(self) -> View:
        """The agent's ``View`` of the round being played (or just finished)."""
        match = self._match()
        rnd = self._round()
        return rnd.view(self.seat, scores=match.scores, round_number=match.rounds.index(rnd) + 1)

    def _obs(self) -> Observation:
        return encode(self.view())

    def _info(self) -> dict[str, Any]:
        return {"action_mask": action_mask(self.view()), "seat": self.seat}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as 58 booleans (for masked-policy trainers)."""
        return action_mask(self.view()).astype(bool)

    def legal_moves(self) -> list[Move]:
        return self.view().legal_moves()

    def render(self) -> str | None:
        """``"ansi"``: the agent's view as one line of text; ``"human"``: printed."""
        if self.render_mode is None:
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        view = self.view()
        train = " ".join(map(str, view.train)) or "(empty)"
        hand = " ".join(map(str, view.hand))
        moves = " ".join(f"{move_to_action(m)}={m}" for m in view.legal_moves())
        return (
            f"seat {view.seat} | train {train} | hand {hand} | hands {view.hand_sizes} "
            f"| boneyard {view.boneyard_size} | legal {moves}"
        )


def _is_int(action: Any) -> bool:
    try:
        int(action)
    except (TypeError, ValueError):
        return False
    return np.ndim(action) == 0 and float(action) == int(action)
