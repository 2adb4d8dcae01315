"""OpenSpiel's own ISMCTS bot, playing from a ``View``: ``openspiel-ismcts``.

An adapter between our bot interface (``choose(view) -> Move``) and
``open_spiel.python.algorithms.ismcts.ISMCTSBot``: for each decision it

1. deals the hidden tiles consistently with the view
   (``passing_game.rl.worlds.sample_round``) and rebuilds that round as a
   ``python_passing_game`` state (``openspiel_game.state_from_round``): a
   state with the view's information state, built from the view alone;
2. runs OpenSpiel's ISMCTS on it, unchanged, with OpenSpiel's random-rollout
   evaluator; ISMCTS resamples the hidden tiles for every simulation through
   the state's ``resample_from_infostate``;
3. turns the action id it returns back into a move.

Every random number comes from ``seed`` and the view, so the bot is
deterministic like the others. ``register_bot()`` adds it to the bot
registry (``passing_game.bots.make("openspiel-ismcts")``), so the arena can
seat it: in this process, and in the arena's worker processes too when a
script calls it at its top level. It is not registered by default, since
the registry is also the list of opponents the apps offer people.

>>> from passing_game import Round, Rules
>>> bot = OpenSpielIsmctsBot(seed=1, simulations=20)
>>> r = Round.new(Rules(), seed=4)
>>> r.play(bot.choose(r.view(r.to_move)))
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

from passing_game.bots.base import SeededBot
from passing_game.moves import Move
from passing_game.rl import encoding
from passing_game.rl.openspiel_game import (
    SHORT_NAME,
    PassingGame,
    PassingGameState,
    params_from_rules,
    state_from_round,
)
from passing_game.rl.worlds import sample_round
from passing_game.rules import Rules
from passing_game.views import View

NAME = "openspiel-ismcts"

_GAMES: dict[Rules, PassingGame] = {}


def game_for(rules: Rules) -> PassingGame:
    """The loaded ``python_passing_game`` for ``rules`` (one per rules value)."""
    key = Rules(**params_from_rules(rules))
    game = _GAMES.get(key)
    if game is None:
        game = pyspiel.load_game(SHORT_NAME, params_from_rules(rules))
        _GAMES[key] = game
    return game


class OpenSpielIsmctsBot(SeededBot):
    """OpenSpiel's ISMCTS with ``simulations`` simulations per decision.

    ``uct_c`` is the exploration constant (OpenSpiel's examples use 2 for
    returns of order 1; the points here are larger, hence the default 20),
    ``rollouts`` the random rollouts per leaf, ``final`` how the move is
    picked from the root (``"max_visit"`` or ``"max_value"``).
    """

    name: ClassVar[str] = NAME

    def __init__(
        self,
        seed: int | str = 0,
        simulations: int = 200,
        uct_c: float = 20.0,
        rollouts: int = 1,
        final: str = "max_visit",
    ) -> None:
        super().__init__(seed)
        if isinstance(simulations, bool) or not isinstance(simulations, int) or simulations < 1:
            raise ValueError(
                f"simulations must be a whole number of at least 1, got {simulations!r}"
            )
        if final not in ("max_visit", "max_value"):
            raise ValueError(f"final must be max_visit or max_value, got {final!r}")
        self.simulations = simulations
        self.uct_c = float(uct_c)
        self.rollouts = int(rollouts)
        self.final = final

    def state_for(self, view: View, rng: random.Random) -> PassingGameState:
        """An OpenSpiel state with ``view``'s information state (hidden tiles guessed)."""
        return state_from_round(game_for(view.rules), sample_round(view, rng))

    def choose(self, view: View) -> Move:
        moves = view.legal_moves()
        if not moves:
            raise ValueError(f"it is not seat {view.seat}'s turn (seat {view.to_move} is to move)")
        if len(moves) == 1:
            return moves[0]
        rng = self.rng(view)
        state = self.state_for(view, rng)
        numbers = np.random.RandomState(rng.randrange(2**32))
        final = (
            ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT
            if self.final == "max_visit"
            else ismcts.ISMCTSFinalPolicyType.MAX_VALUE
        )
        bot = ismcts.ISMCTSBot(
            game=state.get_game(),
            evaluator=mcts.RandomRolloutEvaluator(self.rollouts, numbers),
            uct_c=self.uct_c,
            max_simulations=self.simulations,
            random_state=numbers,
            final_policy_type=final,
        )

        def resample(st: Any, player: int) -> Any:
            return st.resample_from_infostate(player, rng.random)

        bot.set_resampler(resample)
        action = int(bot.step(state))
        move = encoding.action_to_move(action)
        if move not in moves:  # pragma: no cover - ISMCTS picks among legal actions
            raise RuntimeError(f"ISMCTS chose the illegal action {action} ({move})")
        return move

    def __repr__(self) -> str:
        return (
            f"OpenSpielIsmctsBot(seed={self.seed!r}, simulations={self.simulations}, "
            f"uct_c={self.uct_c})"
        )


def register_bot() -> None:
    """Add ``openspiel-ismcts`` to the bot registry (``passing_game.bots.make``)."""
    from passing_game import bots

    bots.BOTS.setdefault(NAME, OpenSpielIsmctsBot)


def unregister_bot() -> None:
    """Take ``openspiel-ismcts`` out of the bot registry again."""
    from passing_game import bots

    if bots.BOTS.get(NAME) is OpenSpielIsmctsBot:
        del bots.BOTS[NAME]
