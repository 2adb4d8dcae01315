"""examples/train_masked_pg.py runs with a tiny budget and writes its learning curve."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

#: Slow (make check leaves it out): the training example runs whole.
pytestmark = pytest.mark.slow

pytest.importorskip("gymnasium")
pytest.importorskip("pyspiel")
pytest.importorskip("matplotlib")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_masked_pg.py"


@pytest.mark.parametrize("env", ["vector", "sync"])
def test_training_example_runs_and_writes_its_png(tmp_path: Path, env: str) -> None:
    """Through the C batch and through N single envs: the same learner, its curve and CSV."""
    pytest.importorskip("passing_game._vecenv")
    out, table = tmp_path / "curve.png", tmp_path / "curve.csv"
    done = subprocess.run(
        [
            sys.executable,
            str(EXAMPLE),
            "--env",
            env,
            "--episodes",
            "300",
            "--eval",
            "200",
            "--checkpoints",
            "3",
            "--check-rounds",
            "100",
            "--out",
            str(out),
            "--csv",
            str(table),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "win margin over random:" in done.stdout
    assert "trained agent vs random:" in done.stdout
    rows = list(csv.DictReader(table.open(newline="")))
    assert rows[0]["run"] == f"{env} env, {256 if env == 'vector' else 16} games"
    last = rows[-1]
    assert int(last["rounds"]) >= 300 and int(last["steps"]) > int(last["rounds"])


def test_bad_budget_is_refused() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--episodes", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "--episodes must be at least 1" in done.stderr
