"""``passing-game bench --beliefs`` (issue 16) on tiny budgets: the marginals
of the sampler, the scores, the statistics, the command and its Markdown
blocks. Nothing is timed."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from passing_game.bench import beliefs, beliefs_report
from passing_game.bots import make
from passing_game.bots.sampling import BONEYARD, Sampler, uniform_marginals
from passing_game.cli import main
from passing_game.round import Round
from passing_game.rules import Rules
from passing_game.views import View

TRUSTING = beliefs.SamplerModel(trust=0.05, heavy=0.0)


def positions(opponent: str, players: int, rounds: int) -> list[tuple[View, dict[int, int]]]:
    """Every position with evidence in a few seeded rounds, with the true places."""
    out = []
    bots = [make(opponent, seed=seat) for seat in range(players)]
    for index in range(rounds):
        rnd = Round.new(Rules(players=players), seed=f"test|{index}")
        while not rnd.is_over:
            seat = rnd.to_move
            assert seat is not None
            view = rnd.view(seat)
            if beliefs.has_evidence(view):
                out.append((view, beliefs.hidden_places(rnd, seat)))
            rnd.play(bots[seat].choose(view))
    return out


@pytest.mark.parametrize(("opponent", "players"), [("greedy", 2), ("heuristic", 3), ("greedy", 4)])
def test_marginals_are_distributions_that_fill_each_hand(opponent: str, players: int) -> None:
    found = positions(opponent, players, 2)
    assert found
    for number, (view, truth) in enumerate(found[::3]):
        for sampler in (
            Sampler(view, trust=0.05, heavy=1.0, pool=120),
            Sampler(view, pool=120),
            Sampler(view, trust=1.0, heavy=0.0),
        ):
            m = sampler.marginals(random.Random(number))
            assert sorted(m) == sorted(truth)  # every unseen tile, nothing else
            for probs in m.values():
                assert len(probs) == players + 1
                assert math.isclose(sum(probs), 1.0, abs_tol=1e-9)
                assert probs[view.seat] == 0.0
                # add-one smoothing: every place that can hold a tile keeps a chance
                assert all(p > 0 for s, p in enumerate(probs[:-1]) if s != view.seat)
                assert probs[BONEYARD] > 0
            # each hand's expected number of unseen tiles is its size, as in every deal
            for seat, size in enumerate(view.hand_sizes):
                expected = 0 if seat == view.seat else size
                assert math.isclose(sum(p[seat] for p in m.values()), expected, abs_tol=1e-9)
            assert math.isclose(sum(p[BONEYARD] for p in m.values()), view.boneyard_size)


def test_marginals_follow_the_weighted_pool() -> None:
    # With no smoothing, a place's chance is its share of the pool's weight.
    view, _truth = next((v, t) for v, t in positions("greedy", 2, 1) if beliefs.saw_pass_or_draw(v))
    sampler = Sampler(view, trust=0.05, heavy=0.0, pool=300)
    m = sampler.marginals(random.Random(5), prior=0.0)
    weights = [sampler.weight(hands) for hands, _bone in sampler._deals]
    other = 1 - view.seat
    for tile, probs in m.items():
        inside = sum(
            w
            for (hands, _b), w in zip(sampler._deals, weights, strict=True)
            if hands[other] >> tile & 1
        )
        assert math.isclose(probs[other], inside / sum(weights), rel_tol=1e-9, abs_tol=1e-12)


def test_uniform_scores_are_the_exact_uniform_likelihood() -> None:
    for view, truth in positions("greedy", 3, 1):
        exact = uniform_marginals(view)
        assert Sampler(view, trust=1.0, heavy=0.0).marginals(random.Random(0)) == exact
        unseen = len(truth)
        sizes = [n for s, n in enumerate(view.hand_sizes) if s != view.seat]
        closed = sum(n * math.log(n / unseen) for n in [*sizes, view.boneyard_size] if n)
        assert math.isclose(beliefs.log_likelihood(exact, truth), closed, rel_tol=1e-12)
    setup = beliefs.Setup(2, "greedy", 0, 50, beliefs.MODELS)
    scored = beliefs.score_round(setup, 0)
    assert scored
    uniform = [m.label for m in beliefs.MODELS].index("uniform (trust=1, heavy=0)")
    assert all(p.scores[uniform] == p.uniform for p in scored)


def test_a_trusting_model_gains_where_greedy_drew_or_passed() -> None:
    # Greedy draws (or passes) only when no tile fits, so believing it gains.
    setup = beliefs.Setup(2, "greedy", 3, 300, (beliefs.Model("trusting", TRUSTING),))
    after = [p for index in range(4) for p in beliefs.score_round(setup, index) if p.passed]
    assert len(after) >= 36
    gains = [p.scores[0] - p.uniform for p in after]
    assert sum(gains) / len(gains) > 0.3
    assert beliefs.clustered_mean(gains, [1.0] * len(gains), [p.round for p in after]).low > 0


def test_clustered_mean_counts_rounds_not_positions() -> None:
    e = beliefs.clustered_mean([1.0, 1.0, 3.0, 3.0], [1, 1, 1, 1], [0, 0, 1, 1])
    assert e.mean == 2.0
    # two clusters of totals 2 and 6 around 2 per position: se = sqrt(2 * 8) / 4 = 1
    assert math.isclose(e.high - e.mean, beliefs.Z95)
    per_tile = beliefs.clustered_mean([2.0, 4.0], [4, 4], [0, 1])
    assert per_tile.mean == 0.75
    assert math.isnan(beliefs.clustered_mean([1.0, 2.0], [1, 1], [7, 7]).low)


def test_summaries_and_the_markdown_block(tmp_path: Path) -> None:
    result = beliefs.run_beliefs_bench(positions=12, opponent="greedy", pool=40, seed=1)
    assert len(result.positions) == 12 and result.rounds >= 1
    summary = {s.label: s for s in result.summaries()}
    assert summary["uniform (trust=1, heavy=0)"].gain.mean == 0.0
    assert summary["uniform (trust=1, heavy=0)"].worse == 0.0
    assert set(summary) == {m.label for m in beliefs.MODELS}
    path = tmp_path / "STRENGTH.md"
    begin, end, _pattern = beliefs_report.markers("greedy", 2)
    path.write_text(f"# S\n\n{begin}\nold\n{end}\n\ntail\n", encoding="utf-8")
    beliefs_report.write_markdown(path, result)
    text = path.read_text(encoding="utf-8")
    assert "old" not in text and "tail" in text and text.count(begin) == 1
    assert "| hard (trust=0.05, heavy=1.0) |" in text


def test_jobs_do_not_change_the_figures() -> None:
    one = beliefs.run_beliefs_bench(positions=15, opponent="greedy", pool=30, jobs=1)
    two = beliefs.run_beliefs_bench(positions=15, opponent="greedy", pool=30, jobs=2)
    assert one.positions == two.positions


def test_command_writes_one_block_per_opponent(tmp_path: Path) -> None:
    path = tmp_path / "STRENGTH.md"
    runner = CliRunner()
    for opponent in ("greedy", "random", "greedy"):
        args = ["--beliefs", "--positions", "8", "--pool", "30", "--opponent", opponent]
        out = runner.invoke(main, ["bench", *args, "--markdown", str(path)])
        assert out.exit_code == 0, out.output
        assert "gain / position" in out.output
    text = path.read_text(encoding="utf-8")
    for opponent in ("greedy", "random"):
        begin, end, _pattern = beliefs_report.markers(opponent, 2)
        assert text.count(begin) == 1 and text.count(end) == 1
    assert "bench --beliefs --positions 8 --players 2 --opponent greedy --seed 0 --pool 30" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--beliefs", "--positions", "0"], "0 is not in the range x>=1"),
        (["--beliefs", "--opponent", "nobody"], "unknown opponent 'nobody'"),
        (["--beliefs", "--opponent", "omniscient"], "cannot play from a view"),
        (["--beliefs", "--players", "5"], "5 is not in the range 2<=x<=4"),
        (["--positions", "10"], "--positions go with --beliefs"),
        (["--beliefs", "--rl"], "leave out --rl"),
    ],
)
def test_bad_options_give_a_clear_error(args: list[str], message: str) -> None:
    out = CliRunner().invoke(main, ["bench", *args])
    assert out.exit_code != 0
    assert message in out.output
    assert "Traceback" not in out.output
    assert out.exception is None or isinstance(out.exception, SystemExit)


def test_bad_setups_are_refused_before_playing() -> None:
    with pytest.raises(beliefs.BeliefsError, match="positions"):
        beliefs.run_beliefs_bench(positions=0)
    with pytest.raises(beliefs.BeliefsError, match="distinct labels"):
        beliefs.run_beliefs_bench(
            positions=1, models=[beliefs.Model("a", TRUSTING), beliefs.Model("a", TRUSTING)]
        )
