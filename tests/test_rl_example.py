"""examples/train_masked_pg.py runs with a tiny budget and writes its learning curve."""

from __future__ import annotations

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


def test_training_example_runs_and_writes_its_png(tmp_path: Path) -> None:
    out = tmp_path / "curve.png"
    done = subprocess.run(
        [
            sys.executable,
            str(EXAMPLE),
            "--episodes",
            "200",
            "--eval",
            "200",
            "--checkpoints",
            "2",
            "--out",
            str(out),
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
