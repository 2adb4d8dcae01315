"""The solver's exploitability against OpenSpiel's own (issue 28, item 2).

OpenSpiel's ``exploitability`` walks the registered game
(``python_passing_game`` with ``max_pip`` and ``hand_size``, the engine's own
``Round`` under every state) and its best responses; the C tree and its best
response must find the same numbers, within 1e-6, for the CFR+ policy and a
bot's. OpenSpiel's walk of the Python game takes about a minute a policy on
the double-two with two tiles a hand, three on the double-two with one.
"""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import exploitability  # noqa: E402

import passing_game.rl  # noqa: E402,F401  (registers the game)
from passing_game import Rules  # noqa: E402
from passing_game.solve import Policy, SolvedGame, available, bot_policy  # noqa: E402

pytestmark = pytest.mark.skipif(not available(), reason="the C solver is not built")


class FromSolved(os_policy.Policy):  # type: ignore[misc]
    """A solved game's policy as OpenSpiel asks for it: by the state's view."""

    def __init__(self, game: Any, solved: SolvedGame, policy: Policy) -> None:
        super().__init__(game, [0, 1])
        self.solved, self.policy = solved, policy

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        view = state.view(state.current_player())
        index = self.solved.find(view)
        assert index >= 0, view
        codes = self.solved.infoset(index).codes
        return dict(zip(codes, self.solved.probabilities(self.policy, index), strict=True))


def check(max_pip: int, hand_size: int, policies: list[str]) -> None:
    solved = SolvedGame(Rules(max_pip=max_pip, hand_size=hand_size))
    solved.run(50)  # an equilibrium far enough from exact that both sides must agree on its errors
    game = pyspiel.load_game("python_passing_game", {"max_pip": max_pip, "hand_size": hand_size})
    for name in policies:
        policy = solved.average() if name == "cfr+" else bot_policy(solved, name)[0]
        ours = solved.exploitability(policy)
        theirs = exploitability.exploitability(game, FromSolved(game, solved, policy))
        assert ours == pytest.approx(theirs, abs=1e-6), name
        assert ours > 1e-4, name  # a real number to agree on, not zero and zero


def test_openspiel_agrees_on_the_double_two_with_two_tiles() -> None:
    check(2, 2, ["cfr+", "greedy"])


@pytest.mark.slow
def test_openspiel_agrees_on_the_double_two_with_one_tile() -> None:
    check(2, 1, ["cfr+"])
