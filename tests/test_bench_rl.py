"""``passing-game bench --rl`` (issue 15) on a tiny budget: its rows, ratios,
targets and Markdown block. Nothing is timed against a limit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pytest.importorskip("passing_game._vecenv")

from passing_game.bench import report, rl
from passing_game.bench.suite import Machine
from passing_game.cli import main
from passing_game.rl import speed


def _result(rates: dict[tuple[str, str, int], float]) -> rl.RlResult:
    m = Machine(2, "cpu", "py", "today", "sys", (0.1, 0.1, 0.1), (0.2, 0.2, 0.2))
    result = rl.RlResult("cmd", 0.1, 1, 2, m)
    for (env, opp, n), rate in rates.items():
        result.rows.append(
            rl.RlRow(env, opp, n, rate, rate, rate, 0.5 if env == rl.VECTOR else None)
        )
    return result


def test_targets_follow_from_the_rates() -> None:
    result = _result(
        {
            (rl.SINGLE, rl.GREEDY, 1): 1000.0,
            (rl.VECTOR, rl.GREEDY, 1024): 400_000.0,
            (rl.VECTOR, rl.SELF_PLAY, 1024): 900_000.0,
        }
    )
    assert result.baseline == 1000.0
    (self_play, ratio) = rl.targets(result)
    assert self_play[2:] == ["900,000", "not met"]
    assert ratio[2:] == ["400.00×", "met"]
    row = rl.rows(result)[1]
    assert row[5] == "400.00×" and row[6] == "50%" and row[7] == "800,000"
    assert [t[3] for t in rl.targets(_result({}))] == ["not measured", "not measured"]


def test_markdown_blocks_do_not_overwrite_each_other(tmp_path: Path) -> None:
    path = tmp_path / "PERF.md"
    path.write_text(f"# P\n\n{report.BEGIN}\nold bench\n{report.END}\n\ntail\n", encoding="utf-8")
    rl.write_markdown(path, _result({(rl.SINGLE, rl.GREEDY, 1): 5.0}))
    rl.write_markdown(path, _result({(rl.SINGLE, rl.GREEDY, 1): 7.0}))
    text = path.read_text(encoding="utf-8")
    assert "old bench" in text and "tail" in text
    assert text.count(rl.BEGIN) == 1 and text.count(rl.END) == 1
    assert "| 7 |" in text and "| 5 |" not in text


def test_command_measures_every_environment(tmp_path: Path) -> None:
    path = tmp_path / "PERFORMANCE.md"
    out = CliRunner().invoke(
        main,
        ["bench", "--rl", "--seconds", "0.01", "--repeat", "1", "--markdown", str(path)],
    )
    assert out.exit_code == 0, out.output
    text = path.read_text(encoding="utf-8")
    block = text[text.index(rl.BEGIN) : text.index(rl.END)]
    rows = [line for line in block.splitlines() if line.startswith("| ") and "steps/s" not in line]
    table = [r.split(" | ")[:3] for r in rows if r.split(" | ")[0] != "| target (issue 15)"]
    keys = {(c[0].lstrip("| "), c[1], c[2]) for c in table}
    expected = {(rl.SINGLE, rl.GREEDY, "1"), (rl.AEC, rl.SELF_PLAY, "1")} | {
        (rl.VECTOR, opp, f"{n:,}") for opp in (rl.GREEDY, rl.SELF_PLAY) for n in rl.SIZES
    }
    assert expected <= keys
    assert "bytes per game" in block
    assert "bench --rl --seconds 0.01 --repeat 1" in block


def test_memory_per_env_is_sane() -> None:
    memory = speed.memory_per_env(2, num_envs=64)
    assert 0 < memory["C state"] < memory["whole env"] < 100_000


def test_missing_extension_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(speed, "AVAILABLE", False)
    out = CliRunner().invoke(main, ["bench", "--rl", "--seconds", "0.01", "--repeat", "1"])
    assert out.exit_code != 0 and "passing-game[rl]" in out.output


def test_the_timer_counts_steps_and_the_share_inside() -> None:
    rate, share = rl.timed(lambda: (3, 0.0), 0.01)
    assert rate > 0 and share == 0.0


def test_help_lists_the_option() -> None:
    assert "--rl" in CliRunner().invoke(main, ["bench", "--help"]).output


def test_the_bench_chooses_legal_actions_evenly() -> None:
    """The bench's learner stand-in: always a legal action, each about equally often."""
    rng = np.random.default_rng(3)
    masks = np.zeros((60_000, 58), bool)
    masks[:, [3, 10, 57]] = True
    masks[:1000] = False
    masks[:1000, 41] = True  # one legal move: always it, whatever the noise
    actions = speed.random_legal(rng, masks)
    assert (actions[:1000] == 41).all()
    ids, counts = np.unique(actions[1000:], return_counts=True)
    assert ids.tolist() == [3, 10, 57]
    assert (abs(counts / counts.sum() - 1 / 3) < 0.01).all()
