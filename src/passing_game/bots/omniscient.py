"""``omniscient``: a yardstick that sees every tile. It cheats.

It runs the same tree search as ``ismcts``, with the same options, on the
true state (every hand and the boneyard's order) instead of guesses: the
difference between the two measures what the hidden tiles are worth. It is the
upper bound the fair bots are measured against in the arena, never an
opponent for people: ``choose(view)`` refuses, because a view does not hold
what it needs; the arena calls ``choose_with_state(round)`` instead, and
``passing_game.bots.fair_names()`` leaves it out.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

from passing_game.bots.explain import Advice
from passing_game.bots.fast import round_worlds
from passing_game.bots.ismcts import IsmctsBot, advice_from_root, search_tree
from passing_game.errors import PassingGameError
from passing_game.moves import Move
from passing_game.state import State
from passing_game.views import View

if TYPE_CHECKING:
    from passing_game.round import Round


class CheatingBotError(PassingGameError):
    """A cheating bot was asked to play from a view (or in a human game)."""


class OmniscientBot(IsmctsBot):
    """Perfect-information MCTS on the true state; needs the ``Round``."""

    name: ClassVar[str] = "omniscient"
    cheats: ClassVar[bool] = True

    def __init__(self, seed: int | str = 0, sees_boneyard: bool = True, **options: Any) -> None:
        super().__init__(seed, **options)
        if not isinstance(sees_boneyard, bool):
            raise ValueError(f"sees_boneyard must be true or false, got {sees_boneyard!r}")
        #: False makes the second yardstick: every hand seen, the boneyard's
        #: order treated as chance (reshuffled for every iteration).
        self.sees_boneyard = sees_boneyard

    def choose(self, view: View) -> Move:
        raise CheatingBotError(
            "the omniscient bot sees every hand: it cannot play from a view; "
            "call choose_with_state(round) (the arena does), and never seat it "
            "in a game with people"
        )

    def explain(self, view: View) -> tuple[Move, str]:
        self.choose(view)
        raise AssertionError("unreachable")  # pragma: no cover

    def advise_with_state(self, rnd: Round) -> Advice:
        seat = rnd.to_move
        if seat is None:
            raise ValueError("the round is over")
        moves = rnd.legal_moves()
        if len(moves) == 1:
            return Advice(moves[0])
        rng = self.rng(rnd.view(seat))
        if self.use_kernel:
            return self.kernel_advice(round_worlds(rnd, self.sees_boneyard), rng, moves, rnd.rules)
        truth = State.from_round(rnd)

        def determinize(r: random.Random) -> State:
            state = truth.copy()
            if not self.sees_boneyard:
                state.bone = sorted(state.bone)  # the true order must not leak
                r.shuffle(state.bone)
            return state

        root, done = search_tree(
            determinize,
            seat,
            rng,
            self.iterations,
            self.seconds,
            self.exploration,
            self.eps,
            opponent_policy=self.opponent_policy,
            weights=self.weights,
            opponent_weights=self.opponent_weights,
            opponent_model=self.opponent_coefficients(rnd.rules),
            playout_model=self.playout_coefficients(rnd.rules),
        )
        return advice_from_root(root, done, moves)

    def choose_with_state(self, rnd: Round) -> Move:
        """The move for the seat to move in ``rnd``, seeing every tile."""
        return self.advise_with_state(rnd).move
