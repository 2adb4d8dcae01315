"""The ``expert`` level of issue 16: the fitted model of play where there is
one (2 players; 4 in partnerships), the tuned model elsewhere, and opponents
in the tree that follow the playout policy half of the time."""

from __future__ import annotations

import pytest

from passing_game import Round, Rules
from passing_game.bots import FROZEN, LEVELS, kernel, make
from passing_game.bots.playmodel import FITTED, fitted_for
from passing_game.bots.sampling import TUNED, tuned_model

pytestmark = pytest.mark.skipif(not kernel.AVAILABLE, reason="compiled kernel not built")


def test_the_tuned_model_is_for_two_players_only() -> None:
    two = Round.new(Rules(players=2), seed=1).view(0)
    partners = Round.new(Rules(players=4, partnerships=True), seed=1).view(0)
    assert tuned_model(two, 0.3, 0.15) == TUNED[(2, False)] == (0.05, 1.0)
    assert tuned_model(partners, 0.3, 0.15) == (0.3, 0.15)
    assert FROZEN["expert-5f2ff52"][1]["model"] is None


def test_the_expert_level_reads_with_the_fitted_model_and_half_policy_opponents() -> None:
    name, options = LEVELS["expert"]
    assert name == "ismcts"
    assert options["model"] == "fitted" and options["opponent_policy"] == 0.5
    two = Round.new(Rules(players=2), seed=1).view(0)
    assert make("expert").sampler(two).reader is not None  # type: ignore[attr-defined]


def test_with_four_players_in_partnerships_the_expert_reads_with_its_own_fit() -> None:
    """Partnerships (D6) have their own fit; 3 players and 4 without partners
    have none and search as the frozen expert but for ``opponent_policy``."""
    partners = Round.new(Rules(players=4, partnerships=True), seed=1).view(0)
    assert fitted_for(Rules(players=4, partnerships=True)) == FITTED[(4, True)]
    assert make("expert").sampler(partners).reader is not None  # type: ignore[attr-defined]
    rules = Rules(players=4)
    assert fitted_for(rules) is None
    old = dict(FROZEN["expert-5f2ff52"][1])
    old["opponent_policy"] = 0.5
    for seed in range(6):
        rnd = Round.new(rules, seed=seed)
        for _ in range(3):
            rnd.play(rnd.legal_moves()[0])
        view = rnd.view(rnd.to_move)
        assert make("expert", seed=seed).choose(view) == make("ismcts", seed=seed, **old).choose(
            view
        )
