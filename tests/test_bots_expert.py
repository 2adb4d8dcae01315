"""The ``expert`` level of issue 16: the tuned opponent model with 2 players only."""

from __future__ import annotations

import pytest

from passing_game import Round, Rules
from passing_game.bots import FROZEN, LEVELS, kernel, make
from passing_game.bots.sampling import TUNED, tuned_model

pytestmark = pytest.mark.skipif(not kernel.AVAILABLE, reason="compiled kernel not built")


def test_the_tuned_model_is_for_two_players_only() -> None:
    two = Round.new(Rules(players=2), seed=1).view(0)
    partners = Round.new(Rules(players=4, partnerships=True), seed=1).view(0)
    assert tuned_model(two, 0.3, 0.15) == TUNED[(2, False)] == (0.05, 1.0)
    assert tuned_model(partners, 0.3, 0.15) == (0.3, 0.15)
    assert LEVELS["expert"][1]["model"] == "tuned"
    assert FROZEN["expert-5f2ff52"][1]["model"] is None


def test_with_four_players_the_expert_still_plays_as_5f2ff52() -> None:
    """Partnerships (D6) keep the soft model: the same moves as the frozen expert."""
    rules = Rules(players=4, partnerships=True)
    for seed in range(6):
        rnd = Round.new(rules, seed=seed)
        for _ in range(3):
            rnd.play(rnd.legal_moves()[0])
        view = rnd.view(rnd.to_move)
        assert make("expert", seed=seed).choose(view) == make("expert-5f2ff52", seed=seed).choose(
            view
        )


def test_a_bad_model_is_refused() -> None:
    with pytest.raises(ValueError, match="model"):
        make("ismcts", model="sharp")
