"""Training the learned playout policy by self-play (bots.training, issue 16): tiny budgets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from passing_game.bots import kernel, make, training
from passing_game.bots.policy import FEATURES, LEARNED_WEIGHTS, check_weights

if os.environ.get("CI") and not kernel.AVAILABLE:
    raise RuntimeError("CI: the compiled kernel passing_game._kernel was not built")
pytestmark = pytest.mark.skipif(not kernel.AVAILABLE, reason="compiled kernel not built")


def test_a_policy_against_itself_scores_nothing() -> None:
    """Duplicate deals, no random plays: the same policy on both sides nets 0 (R7)."""
    assert training.fitness(LEARNED_WEIGHTS, LEARNED_WEIGHTS, 200, 1, eps=0.0) == 0.0


def test_training_moves_away_from_the_heaviest_tile_and_beats_it() -> None:
    curve = training.train(seed=3, generations=3, population=8, deals=300)
    assert [g.number for g in curve] == [1, 2, 3]
    assert all(len(g.weights) == len(FEATURES) for g in curve)
    assert curve[-1].weights != training.HEAVIEST
    assert curve[-1].vs_heaviest > 0  # measured on other deals than it trained on


def test_the_shipped_weights_beat_the_heaviest_tile() -> None:
    """What the playouts gain: the learned policy against the old one, both formats."""
    assert training.fitness(LEARNED_WEIGHTS, None, 2000, 99) > 2.0


def test_command_writes_its_curve_and_refuses_bad_budgets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "curve.csv"
    assert (
        training.main(
            ["--generations", "2", "--population", "4", "--deals", "50", "--csv", str(out)]
        )
        == 0
    )
    rows = out.read_text().splitlines()
    assert rows[0].split(",") == ["generation", "vs_champion", "vs_heaviest", *FEATURES]
    assert len(rows) == 3
    assert "LEARNED_WEIGHTS = (" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        training.main(["--deals", "0"])


def test_weights_options_are_checked() -> None:
    assert check_weights("learned") == LEARNED_WEIGHTS
    assert check_weights("heaviest") is None
    for bad in ((1.0,), (1, 2, 3, 4, float("nan")), "sharp", (True, 0, 0, 0, 0)):
        with pytest.raises(ValueError, match="weights"):
            make("ismcts", weights=bad)
