"""The agents' ladder (issue 28, item 5; P63): who plays, the pairing, the statistics, the command.

A tiny ladder of fast agents (``random``, ``greedy`` and the Python example
program, which plays as ``greedy`` does) stands for the long one: every pair
must meet on each deal from both seats (the schedule's duplicate property,
and two agents that play alike must come out exactly even), and every
interval must be the arena's own (``summary.summarize``, ``stats.ratio_ci``
over deals), checked against a computation by hand. The command is run end
to end; bad input is refused with a usage error before any game; Ctrl-C
reports what was finished.
"""

from __future__ import annotations

import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the ladder needs the 'arena' extra")
pytest.importorskip("scipy", reason="the ladder needs the 'arena' extra")

from passing_game import Round, Rules
from passing_game.arena import agents as ladder_agents
from passing_game.arena.agents import SAME_AS, Agent, LadderError, gather, read_file
from passing_game.arena.ladder import build, document, field_net, measure
from passing_game.arena.runner import game_specs, run
from passing_game.arena.stats import mean_ci
from passing_game.arena.summary import summarize
from passing_game.bots import FROZEN, LEVELS, fair_names, is_cheating, kernel, make
from passing_game.views import View

ROOT = Path(__file__).parent.parent
CLI = [sys.executable, "-m", "passing_game"]
#: The Python example program, which plays as ``greedy`` does (docs/BOTS.md).
PY_BOT = f"cmd:label=greedy.py:{sys.executable} examples/bots/greedy_bot.py"


@pytest.fixture(autouse=True)
def at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ladder file's commands run from the repository's root, as the docs say."""
    monkeypatch.chdir(ROOT)


def tiny() -> list[Agent]:
    return [
        Agent("random", "bot", "random"),
        Agent("greedy", "bot", "greedy"),
        Agent("greedy.py", "outside", PY_BOT),
    ]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    return env


# -- who plays -------------------------------------------------------------


def test_the_registry_agents_are_every_fair_level_bot_and_frozen_expert_once() -> None:
    agents, notes = ladder_agents.registry_agents()
    labels = [a.label for a in agents]
    assert "omniscient" not in labels and not any(is_cheating(a.text) for a in agents)
    for name in (*LEVELS, "random", "pimc"):
        assert name in labels
    for name in FROZEN:
        assert name in labels or any(note.startswith(name) for note in notes)
    # Every fair name is on the ladder, or is played move for move by an agent that is.
    for name in fair_names():
        assert name in labels or SAME_AS[name] in labels or not kernel.AVAILABLE, name
    assert {a.kind for a in agents} >= {"level", "bot"}
    assert dict((a.label, a.kind) for a in agents)["hard"] == "level"


def _views(seed: int, count: int) -> list[View]:
    """Positions from rounds played at random, seen by the seat to move."""
    rng = random.Random(seed)
    views: list[View] = []
    while len(views) < count:
        round_ = Round.new(Rules(), seed=rng.randrange(1 << 30))
        while round_.to_move is not None and len(views) < count:
            view = round_.view(round_.to_move)
            legal = view.legal_moves()
            if len(legal) > 1 and rng.random() < 0.3:
                views.append(view)
            round_.play(rng.choice(legal))
    return views


@pytest.mark.parametrize(("left_out", "kept"), sorted(SAME_AS.items()))
def test_a_bot_left_out_plays_as_the_agent_kept(left_out: str, kept: str) -> None:
    """SAME_AS is a claim: the bot and the agent choose the same move, seed for seed."""
    if kept in FROZEN and not kernel.AVAILABLE:
        pytest.skip("the frozen expert needs the compiled kernel")
    count = 4 if make(kept).name == "ismcts" else 40
    for i, view in enumerate(_views(7, count)):
        assert make(left_out, seed=i).choose(view) == make(kept, seed=i).choose(view), (i, view)


def test_a_bot_that_sees_hidden_tiles_is_no_agent() -> None:
    for text in ("omniscient", "omniscient:iterations=50,sees_boneyard=false"):
        with pytest.raises(LadderError, match="yardstick, not an agent"):
            gather([text, "greedy"], [], None, file_given=False)
        with pytest.raises(LadderError, match="yardstick"):
            gather([], [text], None, file_given=False)


def test_the_repository_ladder_file() -> None:
    found, notes = read_file(ladder_agents.LADDER_FILE)
    labels = [a.label for a in found]
    assert labels[0] == "greedy.py" and "scripted model" in labels
    assert ("greedy.js" in labels) == (shutil.which("node") is not None)
    assert all(a.kind == "outside" and a.text.startswith("cmd:label=") for a in found)
    model = next(a for a in found if a.label == "scripted model")
    assert "text=yes" in model.text
    assert model.to_dict()["program"] == "python3 examples/bots/scripted_model.py"
    assert len(notes) == ("greedy.js" not in labels)


def test_ladder_file_refusals(tmp_path: Path) -> None:
    cases = {
        "[[agent]]\nlabel = 'a'\ncmd = \n": "not a TOML file",
        "[[agent]]\nlabel = 'a'\ncmd = 'x'\ncolour = 'red'\n": "unknown key 'colour'",
        "[agents]\n": "unknown key 'agents'",
        "[[agent]]\nlabel = 'a:b'\ncmd = 'x'\n": "'label' must be",
        "[[agent]]\nlabel = 'a'\n": "'cmd' must be the program's command line",
        "[[agent]]\nlabel = 'a'\ncmd = 'x'\ntimeout = -1\n": "'timeout' must be seconds",
        "[[agent]]\nlabel = 'a'\ncmd = 'x'\ntext = 'yes'\n": "'text' must be true or false",
        "[[agent]]\nlabel = 'a'\ncmd = \"'unclosed\"\n": "cannot read the command",
        "[[agent]]\nlabel = 'a'\ncmd = 'x'\n[[agent]]\nlabel = 'a'\ncmd = 'y'\n": "used twice",
    }
    for number, (text, message) in enumerate(cases.items()):
        path = tmp_path / f"bad{number}.toml"
        path.write_text(text)
        with pytest.raises(LadderError, match=message):
            read_file(path)
    with pytest.raises(LadderError, match="cannot read the ladder file"):
        read_file(tmp_path / "none.toml")
    # An optional program that is not installed is left out, with a note.
    path = tmp_path / "optional.toml"
    path.write_text(
        "[[agent]]\nlabel = 'ghost'\ncmd = 'no-such-program-here --x'\noptional = true\n"
        "[[agent]]\nlabel = 'py'\ncmd = 'python3 examples/bots/greedy_bot.py'\ntimeout = 2\n"
    )
    found, notes = read_file(path)
    assert [a.label for a in found] == ["py"] and "timeout=2.0" in found[0].text
    assert notes == ["ghost left out: no-such-program-here is not installed here"]


def test_what_a_run_gathers() -> None:
    # Named agents: those, and no file unless one is given.
    agents, notes = gather(
        ["random", "pimc:worlds=20"], [PY_BOT], ladder_agents.LADDER_FILE, file_given=False
    )
    assert [(a.label, a.kind) for a in agents] == [
        ("random", "bot"),
        ("pimc:worlds=20", "bot"),
        ("greedy.py", "outside"),
    ]
    assert notes == []
    # None named: the registry's, and the repository's file.
    agents, _notes = gather([], [], ladder_agents.LADDER_FILE, file_given=False)
    labels = [a.label for a in agents]
    assert "expert" in labels and "greedy.py" in labels and "scripted model" in labels
    with pytest.raises(LadderError, match="named twice"):
        gather(["greedy", "greedy"], [], None, file_given=False)
    with pytest.raises(LadderError, match="at least two"):
        gather(["greedy"], [], None, file_given=False)
    _agents, notes = gather([], [], Path("no/such/ladder.toml"), file_given=False)
    assert any("no ladder file at no/such/ladder.toml" in n for n in notes)


# -- the pairing -----------------------------------------------------------


def test_every_pair_meets_on_the_same_deals_from_both_seats() -> None:
    ladder = build(tiny(), rounds=5, seed=11)  # 5 rounds a pair: rounded up to 3 deals
    assert ladder.deals == 3 and ladder.rounds_per_pair == 6
    specs = list(game_specs(ladder.config))
    assert len(specs) == 3 * 6  # three deals, three pairs, each in both seatings
    by_block: dict[int, list[tuple[int, ...]]] = {}
    deal_of: dict[int, set[int]] = {}
    for spec in specs:
        by_block.setdefault(spec.block, []).append(spec.lineup)
        deal_of.setdefault(spec.block, set()).add(spec.deal_seed)
    for block, lineups in by_block.items():
        assert len(deal_of[block]) == 1  # one deal for every game of the block
        assert Counter(lineups) == Counter([(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)])
    assert len(set().union(*deal_of.values())) == 3  # and another deal in each block
    # The same seed deals the same hands, boneyard and leader in both seats' games.
    for block in by_block:
        (seed,) = deal_of[block]
        first, again = Round.new(Rules(), seed=seed), Round.new(Rules(), seed=seed)
        assert first.hands == again.hands and first.boneyard == again.boneyard


def test_two_agents_that_play_alike_come_out_exactly_even() -> None:
    """greedy and the Python program choose alike: on the same deal from both seats
    their rounds mirror each other, so every deal nets exactly zero. A deal that
    differed between the seats would not."""
    ladder = build(tiny(), rounds=8, seed=5)
    result = run(ladder.config, jobs=1)
    results = measure(ladder, result.outcomes, seconds=result.seconds)
    pair = next(p for p in results.pairs if {p.a, p.b} == {"greedy", "greedy.py"})
    assert pair.rounds == 8
    assert (pair.net.estimate, pair.net.low, pair.net.high) == (0.0, 0.0, 0.0)
    assert pair.wins == pair.losses  # each deal won once from each seat, or drawn twice
    faults = {r.agent.label: r.faults for r in results.agents}
    assert faults["greedy.py"] == {}


def test_the_intervals_are_the_arenas_own() -> None:
    ladder = build(tiny(), rounds=10, seed=2)
    result = run(ladder.config, jobs=2)
    results = measure(ladder, result.outcomes, seconds=result.seconds)
    summary = summarize(ladder.config, result.outcomes, seconds=result.seconds)
    stats = {b.label: b for b in summary.bots}
    for r in results.agents:
        assert r.points == stats[r.agent.label].points_per_round
        assert r.round_wins == stats[r.agent.label].round_win_rate
        assert r.rounds == 2 * 10  # two opponents, ten rounds each
    for p, h in zip(results.pairs, summary.head_to_head, strict=True):
        assert (p.a, p.b, p.net, p.score) == (h.a, h.b, h.points_difference, h.score)
    # Net against the field by hand: per deal, the mean over the agent's rounds of its
    # side's points minus its opponent's; the t interval over the deals' means.
    index = {spec.label: i for i, spec in enumerate(ladder.config.bots)}
    for r in results.agents:
        me = index[r.agent.label]
        per_deal: dict[int, list[int]] = {}
        for game in result.outcomes:
            if me in game.lineup:
                seat = game.lineup.index(me)
                points = game.rounds[0].points
                per_deal.setdefault(game.block, []).append(points[seat] - points[1 - seat])
        expected = mean_ci([sum(v) / len(v) for _b, v in sorted(per_deal.items())])
        assert r.net.estimate == pytest.approx(expected.estimate)
        assert r.net.low == pytest.approx(expected.low)
        assert r.net.high == pytest.approx(expected.high)
    # Every point one agent gains, another loses: the nets of equal fields sum to zero.
    assert sum(r.net.estimate for r in results.agents) == pytest.approx(0.0, abs=1e-9)
    # Best first.
    nets = [r.net.estimate for r in results.agents]
    assert nets == sorted(nets, reverse=True)
    assert results.agents[-1].agent.label == "random"
    assert all(math.isnan(iv.estimate) for iv in field_net(ladder.config, []))


def test_four_players_in_partnerships_pair_teams() -> None:
    rules = Rules(players=4, partnerships=True)
    ladder = build(tiny(), rules=rules, rounds=2, seed=1)
    lineups = [s.lineup for s in game_specs(ladder.config)]
    assert len(lineups) == 6
    for lineup in lineups:
        assert lineup[0] == lineup[2] and lineup[1] == lineup[3] and lineup[0] != lineup[1]
    result = run(ladder.config, jobs=1)
    results = measure(ladder, result.outcomes)
    pair = next(p for p in results.pairs if {p.a, p.b} == {"greedy", "greedy.py"})
    assert pair.net.estimate == 0.0
    for bad in (Rules(players=3), Rules(players=4)):
        with pytest.raises(LadderError, match="in pairs"):
            build(tiny(), rules=bad, rounds=2)


def test_the_document_holds_what_the_site_shows() -> None:
    ladder = build(tiny(), rounds=4, seed=9)
    result = run(ladder.config, jobs=1)
    results = measure(ladder, result.outcomes, seconds=result.seconds)
    data = document(
        ladder, results, command="passing-game arena --ladder", started=1.0, finished=2.0, jobs=1
    )
    text = json.dumps(data, allow_nan=False)
    again = json.loads(text)
    assert again["ladder"] == 1 and again["run"]["deals"] == 2
    assert [a["label"] for a in again["agents"]] == [r.agent.label for r in results.agents]
    program = next(a for a in again["agents"] if a["label"] == "greedy.py")["program"]
    assert program.endswith("examples/bots/greedy_bot.py")
    assert len(again["pairs"]) == 3


# -- the command -------------------------------------------------------------


def test_the_command_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    done = subprocess.run(
        [
            *CLI,
            "arena",
            "--ladder",
            "random",
            "greedy",
            "--bot",
            PY_BOT,
            "--rounds",
            "4",
            "--jobs",
            "2",
            "--seed",
            "4",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=180,
        env=_env(),
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "Against the field" in done.stdout and "Pairwise" in done.stdout
    assert "Playing 12 rounds: 3 agents, 3 pairs × 4 rounds" in done.stderr
    data = json.loads(out.read_text())
    assert data["run"]["command"].startswith("passing-game arena --ladder --bot ")
    assert "--rounds 4 --seed 4 --jobs 2 random greedy" in data["run"]["command"]
    assert data["run"]["interrupted"] is False and data["run"]["rounds_per_pair"] == 4
    assert {a["label"] for a in data["agents"]} == {"random", "greedy", "greedy.py"}
    for agent in data["agents"]:
        net = agent["net"]
        assert net["low"] <= net["estimate"] <= net["high"]


def test_the_command_refuses_bad_input(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from passing_game.cli import main

    (tmp_path / "bad.toml").write_text("[[agent]]\nlabel = 'x'\n")
    runner = CliRunner()
    for args, message in [
        (["--ladder", "random", "greedy", "--matches", "4"], "--matches is not an option of"),
        (["--ladder", "random", "greedy", "--sprt"], "--sprt is not an option of --ladder"),
        (["--ladder", "random", "greedy", "--out", "x.json"], "--out is not an option"),
        (["--ladder", "random", "greedy", "--players", "3"], "in pairs"),
        (["--ladder", "random", "greedy", "--players", "4"], "--partnerships"),
        (["--ladder", "random", "greedy", "--json", "x.csv"], "must end in .json"),
        (["--ladder", "random", "omniscient"], "not an agent of the ladder"),
        (["--ladder", "random", "nosuchbot"], "unknown bot"),
        (["--ladder", "random"], "at least two agents"),
        (["--ladder", "random", "greedy", "--rounds", "0"], "--rounds"),
        (["--ladder", "--ladder-file", str(tmp_path / "none.toml")], "cannot read"),
        (["--ladder", "--ladder-file", str(tmp_path / "bad.toml")], "'cmd' must be"),
        (["--ladder", "random", "cmd:label=x:no-such-program-here"], "cannot start"),
        (["random", "greedy", "--json", "x.json"], "--json goes with --ladder"),
        (["random", "greedy", "--ladder-file", "x.toml"], "--ladder-file goes with --ladder"),
    ]:
        done = runner.invoke(main, ["arena", *args])
        assert done.exit_code == 2, (args, done.output)
        assert message in done.output, (args, done.output)
        assert "Traceback" not in done.output
    assert not Path("x.json").exists() and not Path("x.csv").exists()


def test_an_unwritable_json_file_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from passing_game.cli import main

    target = tmp_path / "no" / "such" / "folder" / "ladder.json"
    done = CliRunner().invoke(
        main,
        [
            "arena",
            "--ladder",
            "random",
            "greedy",
            "--rounds",
            "2",
            "--jobs",
            "1",
            "--json",
            str(target),
        ],
    )
    assert done.exit_code == 1, done.output
    assert "cannot write" in done.output and "Traceback" not in done.output


def _as_at_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@pytest.mark.slow  # a process interrupted mid-run
def test_ctrl_c_reports_the_deals_finished_and_marks_the_file(tmp_path: Path) -> None:
    out = tmp_path / "partial.json"
    proc = subprocess.Popen(
        [
            *CLI,
            "arena",
            "--ladder",
            "random",
            "greedy",
            "heuristic",
            "--rounds",
            "100000",
            "--jobs",
            "2",
            "--json",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        cwd=ROOT,
        preexec_fn=_as_at_a_terminal,
        start_new_session=True,
    )
    try:
        assert proc.stderr is not None
        header = proc.stderr.readline()
        assert header.startswith("Playing"), header
        time.sleep(8.0)  # a few deals, even on a busy machine (the workers start first)
        proc.send_signal(signal.SIGINT)
        out_text, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in out_text + err
    assert "Interrupted" in out_text and "Against the field" in out_text
    data = json.loads(out.read_text())
    assert data["run"]["interrupted"] is True and data["run"]["deals"] >= 1
    assert "will not publish it" in err
