"""The arena: duplicate schedule, statistics, determinism, SPRT, command line.

Statistics are checked against known values; the schedule against the
duplicate property (every bot in every seat equally often, the same deals for
every order); the command end to end in a subprocess, Ctrl-C included.
"""

from __future__ import annotations

import csv
import json
import math
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

import pytest

pytest.importorskip("numpy", reason="the arena needs the 'arena' extra")
pytest.importorskip("scipy", reason="the arena needs the 'arena' extra")

from passing_game import Round, Rules
from passing_game.arena import schedule
from passing_game.arena.runner import (
    ArenaConfig,
    ArenaError,
    bot_specs,
    game_specs,
    parse_bot,
    run,
)
from passing_game.arena.stats import (
    Sprt,
    bootstrap_ratings,
    bradley_terry,
    elo_from_score,
    mean_ci,
    ratio_ci,
    score_from_elo,
    wilson,
)
from passing_game.arena.summary import SprtMonitor, summarize
from passing_game.bots import BOTS
from passing_game.moves import Move, Pass, Play
from passing_game.views import View

CLI = [sys.executable, "-m", "passing_game"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    return env


# -- statistics against known cases --------------------------------------


def test_wilson_interval_of_a_fair_coin() -> None:
    iv = wilson(50, 100)
    assert iv.estimate == 0.5
    assert iv.low == pytest.approx(0.4038, abs=1e-4)
    assert iv.high == pytest.approx(0.5962, abs=1e-4)
    # Wilson stays inside [0, 1] and is not degenerate at the edges.
    none = wilson(0, 20)
    assert none.low == 0.0 and 0.15 < none.high < 0.17
    assert math.isnan(wilson(0, 0).estimate)


def test_mean_interval_on_known_data() -> None:
    # mean 3, standard error sqrt(2.5 / 5), t(0.975, 4) = 2.776445: 3 -+ 1.963243
    iv = mean_ci([1, 2, 3, 4, 5])
    assert iv.estimate == 3.0
    assert iv.low == pytest.approx(1.036757, abs=1e-6)
    assert iv.high == pytest.approx(4.963243, abs=1e-6)
    assert mean_ci([7, 7, 7]) == (7.0, 7.0, 7.0)
    assert math.isnan(mean_ci([4]).low)
    # Equal clusters: the ratio estimator is the t interval of cluster means.
    assert ratio_ci([2, 4, 6, 8, 10], [2, 2, 2, 2, 2]) == mean_ci([1, 2, 3, 4, 5])
    unequal = ratio_ci([1, 5, 3, 6], [1, 3, 2, 4])
    assert unequal.estimate == pytest.approx(15 / 10)
    assert unequal.low < 1.5 < unequal.high


def test_elo_scale() -> None:
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)
    assert score_from_elo(elo_from_score(0.3)) == pytest.approx(0.3)
    assert elo_from_score(1.0) == math.inf


def test_bradley_terry_recovers_known_strengths() -> None:
    import numpy as np

    # Strengths 1 : 2 : 4, expected scores as wins out of 1000 games a pair.
    p = np.array([1.0, 2.0, 4.0])
    wins = 1000 * p[:, None] / (p[:, None] + p[None, :])
    np.fill_diagonal(wins, 0.0)
    ratings = bradley_terry(wins, prior=0.0)
    step = 400 * math.log10(2)
    assert ratings.tolist() == pytest.approx([-step, 0.0, step], abs=1e-4)
    # The bootstrap interval holds the estimate and has width.
    blocks = np.stack([wins / 10] * 10)
    for iv in bootstrap_ratings(blocks, resamples=50):
        assert iv.low <= iv.estimate <= iv.high


# -- the duplicate schedule ----------------------------------------------


@pytest.mark.parametrize(
    ("bots", "players", "partnerships", "orders"),
    [
        (2, 2, False, "rotate"),
        (2, 3, False, "rotate"),
        (2, 4, False, "rotate"),
        (3, 2, False, "rotate"),
        (3, 3, False, "all"),
        (3, 4, False, "rotate"),
        (4, 4, False, "rotate"),
        (5, 4, False, "all"),
        (2, 4, True, "rotate"),
        (3, 4, True, "rotate"),
    ],
)
def test_every_bot_sits_in_every_seat_equally_often(
    bots: int, players: int, partnerships: bool, orders: schedule.Orders
) -> None:
    table = schedule.seatings(bots, players, partnerships=partnerships, orders=orders)
    counts = schedule.seat_counts(table, bots)
    flat = {c for row in counts for c in row}
    assert len(flat) == 1 and flat.pop() > 0, counts
    if partnerships:
        assert all(t[0] == t[2] and t[1] == t[3] and t[0] != t[1] for t in table)
    if bots >= (2 if partnerships else players):
        # Every bot meets every other one.
        met = {frozenset((a, b)) for t in table for a in t for b in t if a != b}
        assert len(met) == bots * (bots - 1) // 2


def test_two_bots_two_seats_is_both_orders() -> None:
    assert schedule.seatings(2, 2) == [(0, 1), (1, 0)]
    assert len(schedule.seatings(4, 4, orders="all")) == 24


def test_every_order_gets_the_same_deals() -> None:
    config = ArenaConfig(tuple(bot_specs(["random", "greedy"])), games=10, seed=5)
    specs = list(game_specs(config))
    assert len(specs) == 10 and config.blocks == 5
    by_block: dict[int, list[Any]] = {}
    for spec in specs:
        by_block.setdefault(spec.block, []).append(spec)
    seeds = set()
    for block, games in by_block.items():
        assert sorted(g.lineup for g in games) == [(0, 1), (1, 0)]
        deals = {Round.new(config.rules, seed=g.deal_seed).deal for g in games}
        assert len(deals) == 1, f"block {block} dealt differently for the two orders"
        seeds.add(games[0].deal_seed)
    assert len(seeds) == 5


def test_rounds_are_rounded_up_to_whole_deals() -> None:
    config = ArenaConfig(tuple(bot_specs(["random", "greedy", "greedy"])), games=7)
    assert len(config.seatings) == 6 and config.blocks == 2 and config.total_games == 12


def test_bot_specs() -> None:
    assert parse_bot("random:seed=3,fast=yes,name=x") == (
        "random",
        (("seed", 3), ("fast", True), ("name", "x")),
    )
    with pytest.raises(ArenaError, match="unknown bot"):
        bot_specs(["random", "nosuchbot"])
    with pytest.raises(ArenaError, match="KEY=VALUE"):
        parse_bot("greedy:oops")


# -- playing ---------------------------------------------------------------


def test_same_seed_same_results_whatever_the_jobs() -> None:
    config = ArenaConfig(
        tuple(bot_specs(["random", "greedy", "random"])), rules=Rules(players=3), games=12, seed=9
    )
    one = run(config, jobs=1)
    again = run(config, jobs=1)
    two = run(config, jobs=2)
    assert not one.interrupted and len(one.outcomes) == 12
    keys = [o.key() for o in one.outcomes]
    assert keys == [o.key() for o in again.outcomes] == [o.key() for o in two.outcomes]
    a = summarize(config, one.outcomes, resamples=100).to_dict()
    b = summarize(config, two.outcomes, resamples=100).to_dict()
    for data in (a, b):
        for bot in data["bots"]:
            bot.pop("seconds_per_decision")
    assert a == b
    other = run(ArenaConfig(config.bots, rules=config.rules, games=12, seed=10), jobs=1)
    assert keys != [o.key() for o in other.outcomes]


def test_matches_give_match_win_rates() -> None:
    config = ArenaConfig(
        tuple(bot_specs(["random", "greedy"])),
        rules=Rules(target=30),
        mode="matches",
        games=6,
        seed=2,
    )
    result = run(config, jobs=1)
    summary = summarize(config, result.outcomes, resamples=50)
    assert [b.matches for b in summary.bots] == [6, 6]
    assert sum(b.match_wins for b in summary.bots) == 6
    assert all(b.match_win_rate is not None for b in summary.bots)
    assert all(b.rounds >= 6 for b in summary.bots)


class _Peeker:
    """A cheating test bot: wants the full round, plays its first legal move."""

    name: ClassVar[str] = "peeker"
    cheats: ClassVar[bool] = True
    seen: ClassVar[list[int]] = []

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: View) -> Move:
        raise AssertionError("a cheating bot is asked with choose_with_state")

    def choose_with_state(self, state: Round) -> Move:
        _Peeker.seen.append(len(state.boneyard))
        return state.legal_moves()[0]


class _Cheat:
    """A bot that plays a tile it does not hold."""

    name: ClassVar[str] = "cheat"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: View) -> Move:
        missing = sorted(view.unseen)
        return Play(missing[0]) if missing else Pass()


def test_cheating_bots_get_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "peeker", _Peeker)
    _Peeker.seen.clear()
    config = ArenaConfig(tuple(bot_specs(["peeker", "greedy"])), games=2, seed=1)
    result = run(config, jobs=1)
    assert len(result.outcomes) == 2 and _Peeker.seen


def test_an_illegal_move_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "cheat", _Cheat)
    config = ArenaConfig(tuple(bot_specs(["cheat", "greedy"])), games=2, seed=1)
    with pytest.raises(ArenaError, match=r"bot cheat .* illegal move"):
        run(config, jobs=1)


# -- the sequential test ---------------------------------------------------


def test_sprt_decides_on_a_lopsided_stream() -> None:
    rng = random.Random(1)
    test = Sprt()
    for _ in range(5000):
        if test.add(1.0 if rng.random() < 0.75 else 0.0) is not None:
            break
    assert test.decision == "H1" and len(test.scores) < 500
    worse = Sprt()
    for _ in range(5000):
        if worse.add(1.0 if rng.random() < 0.3 else 0.0) is not None:
            break
    assert worse.decision == "H0"


def test_sprt_does_not_decide_on_a_balanced_stream() -> None:
    test = Sprt()
    for i in range(300):
        test.add([1.0, 0.0, 0.5, 0.5][i % 4])
    assert test.decision is None
    assert test.lower < test.llr() < test.upper
    # A short streak of wins is not enough either.
    streak = Sprt()
    for _ in range(3):
        streak.add(1.0)
    assert streak.decision is None


def test_sprt_stops_the_same_way_whatever_the_jobs() -> None:
    config = ArenaConfig(tuple(bot_specs(["greedy", "random"])), games=2000, seed=4)
    stops = []
    for jobs in (1, 2):
        test = Sprt(elo0=0, elo1=50)
        monitor = SprtMonitor(config, test)
        result = run(config, jobs=jobs, on_game=monitor)
        assert result.stopped_early and test.decision == "H1"
        summary = summarize(config, result.outcomes, last_block=monitor.last_block, sprt=test)
        stops.append((monitor.last_block, summary.blocks_counted, round(test.llr(), 9)))
    assert stops[0] == stops[1]
    assert stops[0][1] == stops[0][0] + 1 < config.blocks


# -- the command line ------------------------------------------------------


@pytest.mark.slow  # a whole tournament through the command
def test_cli_end_to_end(tmp_path: Path) -> None:
    out_json, out_csv, png = tmp_path / "x.json", tmp_path / "x.csv", tmp_path / "x.png"
    done = subprocess.run(
        [
            *CLI,
            "arena",
            "random",
            "greedy",
            "--rounds",
            "20",
            "--jobs",
            "2",
            "--seed",
            "1",
            "--out",
            str(out_json),
            "--out",
            str(out_csv),
            "--plot",
            str(png),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=_env(),
    )
    assert done.returncode == 0, done.stderr
    assert "Per bot" in done.stdout and "greedy" in done.stdout
    data = json.loads(out_json.read_text())
    assert data["games_counted"] == 20 and data["config"]["seed"] == 1
    bots = {b["label"]: b for b in data["bots"]}
    assert bots["random"]["rounds"] == bots["greedy"]["rounds"] == 20
    greedy, rand = bots["greedy"], bots["random"]
    assert greedy["points_per_round"]["estimate"] > rand["points_per_round"]["estimate"]
    assert greedy["round_win_rate"]["estimate"] > 0.5
    low, high = greedy["round_win_rate"]["low"], greedy["round_win_rate"]["high"]
    assert 0 <= low <= greedy["round_win_rate"]["estimate"] <= high <= 1
    assert data["head_to_head"][0]["score"]["estimate"] < 0.5  # random against greedy
    ratings = {r["label"]: r["elo"]["estimate"] for r in data["ratings"]}
    assert ratings["greedy"] > ratings["random"]
    with out_csv.open() as f:
        rows = list(csv.DictReader(f))
    assert [r["bot"] for r in rows] == ["random", "greedy"]
    assert float(rows[1]["points_per_round"]) == pytest.approx(
        greedy["points_per_round"]["estimate"], rel=1e-5
    )
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 2000


def _as_at_a_terminal() -> None:
    """In the child before it starts: Ctrl-C as a terminal delivers it. A shell
    that starts a job in the background (``make test &``) ignores SIGINT in it,
    and every child inherits that, so the arena would never see the signal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@pytest.mark.slow  # a process interrupted mid-run
def test_cli_stops_on_ctrl_c_with_a_partial_report() -> None:
    proc = subprocess.Popen(
        [*CLI, "arena", "random", "greedy", "--rounds", "1000000", "--jobs", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        preexec_fn=_as_at_a_terminal,
        start_new_session=True,  # its workers too can be ended if it hangs
    )
    try:
        assert proc.stderr is not None
        header = proc.stderr.readline()
        assert header.startswith("Playing"), header
        time.sleep(2.0)
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate(timeout=10)
            said = f"stdout:\n{out}\nstderr:\n{err}"
            raise AssertionError(f"no exit 30 s after Ctrl-C; {said}") from None
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in out + err, err
    assert "Interrupted" in out and "Per bot" in out, out
    counted = Counter(line.split()[1] for line in out.splitlines() if line.startswith("│ "))
    assert counted["random"] >= 1 and counted["greedy"] >= 1


def test_cli_refuses_bad_input() -> None:
    from click.testing import CliRunner

    from passing_game.cli import main

    runner = CliRunner()
    for args, message in [
        (["random", "nosuchbot"], "unknown bot"),
        (["random"], "at least two bots"),
        (["random", "greedy", "--out", "x.txt"], ".json or .csv"),
        (["random", "greedy", "--rounds", "5", "--matches", "5"], "not both"),
        (["random", "greedy", "-n", "2", "--partnerships"], "partnerships need 4 players"),
        (["random", "greedy", "--target", "10", "--target-preset", "seeds"], "not both"),
        (["random", "greedy", "--sprt", "--elo1", "-1"], "elo0 < elo1"),
    ]:
        done = runner.invoke(main, ["arena", *args])
        assert done.exit_code == 2, (args, done.output)
        assert message in done.output, (args, done.output)


def test_cli_names_the_missing_extra() -> None:
    code = (
        "import sys; sys.modules['scipy'] = None\n"
        "from passing_game.cli import main\n"
        "main(['arena', 'random', 'greedy'])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env())
    assert done.returncode == 1
    assert "passing-game[arena]" in done.stderr and "Traceback" not in done.stderr


def test_the_core_does_not_import_the_arena_extra() -> None:
    code = (
        "import sys\n"
        "import passing_game, passing_game.bots, passing_game.cli\n"
        "import passing_game.arena.schedule, passing_game.arena.runner\n"
        "heavy = [m for m in ('numpy', 'scipy', 'matplotlib') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
