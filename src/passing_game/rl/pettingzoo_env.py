"""The Passing Game as a PettingZoo AEC environment: ``passing_game/passing_game-v0``.

Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers). The agent to act
is the seat to move; with ``draw="continue"`` (D1) the same agent may act
several times in a row. Each agent observes ``{"observation", "action_mask"}``:
the shared observation vector of its own view and the 58-entry mask of its
legal actions (all zeros when it is not its turn). An illegal action raises
``IllegalMove`` and changes nothing.

Options:

* rules: ``rules=Rules(...)`` or the fields as keywords (``players=4,
  partnerships=True``, ...);
* ``episode="round"`` (default): one round per episode; ``"match"``: rounds
  until a side reaches the target (R8), the agents staying alive in between;
* ``reward="points"`` (default): each round, every agent is rewarded with the
  points its side won in that round; ``"margin"``: those points minus the
  mean of the other sides' (zero-sum); ``"win"``: +1 / -1 for the winning
  and losing sides, per round, or once at the end of a match episode.

>>> import pettingzoo
>>> import passing_game.rl
>>> env = pettingzoo.make("aec", "passing_game/passing_game-v0", players=3)
>>> env.reset(seed=1)
>>> env.agent_selection, env.observation_space("player_0")["observation"].shape
('player_2', (246,))
"""

from __future__ import annotations

import random
import secrets
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from passing_game.errors import IllegalMove
from passing_game.match import Match
from passing_game.rl.encoding import (
    NUM_ACTIONS,
    action_mask,
    action_to_move,
    encode,
    legal_actions,
    observation_size,
)
from passing_game.rl.rewards import (
    EPISODES,
    REWARD_KINDS,
    Episode,
    RewardKind,
    check_option,
    make_rules,
    match_reward,
    round_reward,
)
from passing_game.round import Round
from passing_game.rules import Rules
from passing_game.views import View


class PassingGameAEC(AECEnv):  # type: ignore[misc]
    """The AEC environment; see the module notes for its options."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "passing_game_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | dict[str, Any] | None = None,
        *,
        episode: Episode = "round",
        reward: RewardKind = "points",
        render_mode: str | None = None,
        **rule_fields: Any,
    ) -> None:
        super().__init__()
        self.rules = make_rules(rules, rule_fields)
        check_option("episode", episode, EPISODES)
        check_option("reward", reward, REWARD_KINDS)
        if render_mode is not None:
            check_option("render_mode", render_mode, ("human", "ansi"))
        self.episode = episode
        self.reward_kind = reward
        self.render_mode = render_mode
        n = self.rules.players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        size = observation_size(self.rules)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self._seeds = random.Random(secrets.randbits(64))
        self.match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- episode -----------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.match = Match(self.rules, seed=self._seeds.randrange(2**63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.match is not None
        seat = self.match.to_move
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def _match(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() before using the environment")
        return self.match

    def _round(self) -> Round:
        """The round being played (in a round episode, also once it is over)."""
        match = self._match()
        return match.rounds[0] if self.episode == "round" else match.round

    def view(self, agent: str) -> View:
        """What ``agent`` may know now (its seat's ``View``, with the match scores)."""
        match = self._match()
        rnd = self._round()
        return rnd.view(
            self.possible_agents.index(agent),
            scores=match.scores,
            round_number=match.rounds.index(rnd) + 1,
        )

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        view = self.view(agent)
        return {"observation": encode(view), "action_mask": action_mask(view)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self._match()
        move = action_to_move(action)
        if int(action) not in legal_actions(self.view(agent)):
            raise IllegalMove(f"action {int(action)} ({move}) is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        rounds_before = len(match.results)
        match.play(move)
        if len(match.results) > rounds_before:
            self._round_ended()
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def _round_ended(self) -> None:
        match = self._match()
        result = match.results[-1]
        points = result.points_by_side()
        done = self.episode == "round" or match.is_over
        for seat, agent in enumerate(self.possible_agents):
            if self.reward_kind != "win" or self.episode == "round":
                self.rewards[agent] += round_reward(self.rules, points, seat, self.reward_kind)
            elif match.winner is not None:
                self.rewards[agent] += match_reward(self.rules, match.winner, seat)
            self.infos[agent] = {
                "round": len(match.results),
                "reason": result.reason,
                "winner": result.winner,
                "points": result.points,
                "scores": tuple(match.scores),
            }
        if done:
            self.terminations = dict.fromkeys(self.agents, True)

    # -- display -----------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        match = self._match()
        rnd = self._round()
        train = " ".join(map(str, rnd.train)) or "(empty)"
        lines = [f"round {match.round_number}, scores {match.scores}", f"train: {train}"]
        for seat, hand in enumerate(rnd.hands):
            lines.append(f"player_{seat}: {' '.join(map(str, hand))}")
        if rnd.result is not None:
            lines.append(f"over: {rnd.result.reason}, winner {rnd.result.winner}")
        return "\n".join(lines)

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> PassingGameAEC:
    """The AEC environment (PettingZoo's conventional ``env()`` entry point)."""
    return PassingGameAEC(**kwargs)


raw_env = env
