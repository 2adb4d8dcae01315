"""Outside bots (docs/BOTS.md, issue 28 item 3): the protocol, the arena's
``cmd:`` bots, the examples in Python and Node, and bad programs handled."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from passing_game.arena import outside
from passing_game.arena.runner import ArenaConfig, ArenaError, bot_specs, run
from passing_game.bots import protocol
from passing_game.moves import Move, Play
from passing_game.round import Round
from passing_game.rules import Rules
from passing_game.tiles import Tile

pytest.importorskip("numpy")
from passing_game.arena.summary import summarize

ROOT = Path(__file__).resolve().parents[1]
BAD = Path(__file__).with_name("outside_bad_bot.py")
PY = f"{sys.executable} "
DECISION_KEYS = {
    "type",
    "id",
    "seat",
    "round",
    "hand",
    "train",
    "ends",
    "boneyard",
    "hand_sizes",
    "leader",
    "scores",
    "history",
    "legal",
    "legal_codes",
}


def _tiles_in(message: dict) -> set[Tile]:
    """Every tile a decision line names, wherever it names one."""
    found = {Tile.parse(t) for t in message["hand"]}
    found |= {Tile(a, b) for a, b in message["train"]}
    for turn in message["history"]:
        if "drawn" in turn:
            found.add(Tile.parse(turn["drawn"]))
        if turn["move"][0] in "LR":
            found.add(Tile.parse(turn["move"][1:]))
    for move in message["legal"]:
        if move[0] in "LR":
            found.add(Tile.parse(move[1:]))
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_decision_lines_hold_no_hidden_tile(players: int) -> None:
    """R9: a decision line names only the seat's own tiles and the train's."""
    rules = Rules(players=players)
    for seed in range(5):
        rnd = Round.new(rules, seed=seed)
        while rnd.to_move is not None:
            for s in range(players):
                line = json.loads(protocol.dumps(protocol.decision(rnd.view(s), 1)))
                assert set(line) == DECISION_KEYS
                mine = set(rnd.hands[s]) | {p.tile for p in rnd.train}
                mine |= {t.drawn for t in rnd.history if t.seat == s and t.drawn is not None}
                assert _tiles_in(line) <= mine
                assert not set(rnd.boneyard) & _tiles_in(line)
            rnd.play(rnd.legal_moves()[-1])


def test_a_decision_carries_the_legal_moves_two_ways() -> None:
    view = Round.new(seed=3).view(Round.new(seed=3).to_move or 0)
    line = protocol.decision(view, 7)
    assert line["legal"] == [str(m) for m in view.legal_moves()]
    assert [protocol.read_move(json.dumps({"code": c}), []) for c in line["legal_codes"]] == list(
        view.legal_moves()
    )


@pytest.mark.parametrize(
    "answer",
    ["not json", "[1, 2]", '{"move": 3}', '{"code": 99}', '{"code": true}', '{"move": "jump"}'],
)
def test_answers_that_are_no_move_are_refused(answer: str) -> None:
    with pytest.raises(protocol.AnswerError):
        protocol.read_move(answer, [])


def test_parse_command_reads_options_then_the_command() -> None:
    argv, options = outside.parse_command("label=x,timeout=0.5,text=yes:node a.js --fast")
    assert argv == ["node", "a.js", "--fast"]
    assert options == {"label": "x", "timeout": 0.5, "text": True}
    # A colon in the command is the command's when no option precedes it.
    assert outside.parse_command("python3 -c 'print(1)' a:b")[0][-1] == "a:b"
    with pytest.raises(outside.OutsideError):
        outside.parse_command("timeout=-1:python3 bot.py")


def _arena(bot: str, other: str = "random", rounds: int = 20, **kw: object) -> tuple:
    specs = bot_specs([bot, other])
    config = ArenaConfig(bots=tuple(specs), games=rounds, seed=5, **kw)  # type: ignore[arg-type]
    result = run(config, jobs=1)
    return config, result, summarize(config, result.outcomes, resamples=50)


def test_python_example_plays_an_arena() -> None:
    bot = f"cmd:label=greedy.py:{PY}{ROOT / 'examples/bots/greedy_bot.py'}"
    config, result, summary = _arena(bot)
    assert len(result.outcomes) == config.total_games == 20
    assert summary.bots[0].label == "greedy.py"
    assert summary.bots[0].faults == {}
    assert summary.bots[0].points_per_round.estimate > summary.bots[1].points_per_round.estimate
    assert not outside._PROGRAMS  # every program ended with the run


def test_python_example_plays_as_the_registry_greedy_does() -> None:
    """The example is ``greedy`` written again: the same games, move for move."""
    bot = f"cmd:label=g:{PY}{ROOT / 'examples/bots/greedy_bot.py'}"
    _, ours, _ = _arena(bot, rounds=10)
    _, theirs, _ = _arena("greedy", rounds=10)
    assert [o.rounds for o in ours.outcomes] == [o.rounds for o in theirs.outcomes]


def test_node_example_plays_an_arena() -> None:
    """The outside bot in another language; .ci/services.sh installs Node."""
    if shutil.which("node") is None:
        if os.environ.get("PASSING_GAME_REQUIRE_SERVICES") == "1":
            pytest.fail("node is not installed (CI: .ci/services.sh installs nodejs)")
        pytest.skip("node is not installed")
    bot = f"cmd:label=greedy.js:node {ROOT / 'examples/bots/greedy_bot.js'}"
    _, result, summary = _arena(bot)
    assert len(result.outcomes) == 20
    assert summary.bots[0].faults == {}
    assert summary.bots[0].decisions > 0


def test_outside_bots_play_matches_too() -> None:
    bot = f"cmd:label=g:{PY}{ROOT / 'examples/bots/greedy_bot.py'}"
    _, result, summary = _arena(bot, rounds=2, mode="matches")
    assert all(o.scores is not None for o in result.outcomes)
    assert summary.bots[0].faults == {}


@pytest.mark.parametrize(
    ("mode", "fault"),
    [("late", "late"), ("nonsense", "nonsense"), ("illegal", "illegal"), ("exit", "died")],
)
def test_a_bad_program_is_handled_and_counted(mode: str, fault: str) -> None:
    """Each game's first decision goes wrong: a fallback move, a count, no lost game."""
    bot = f"cmd:label=bad,timeout=0.3:{PY}{BAD} {mode}"
    config, result, summary = _arena(bot, rounds=4)
    assert len(result.outcomes) == config.total_games == 4
    faults = summary.bots[0].faults
    assert faults[fault] == 4
    if mode in ("late", "exit"):
        assert faults["restarts"] == 4
    else:
        assert "restarts" not in faults
    assert summary.bots[1].faults == {}
    from passing_game.arena import report

    assert report.fault_lines(summary)[0].startswith("bad: ")
    assert report.to_json(summary)["bots"][0]["faults"] == faults


def test_a_line_for_another_decision_is_not_taken_for_the_answer() -> None:
    _, result, summary = _arena(f"cmd:label=chatty:{PY}{BAD} chatty", rounds=4)
    assert len(result.outcomes) == 4 and summary.bots[0].faults == {}


def test_a_program_that_cannot_start_fails_before_any_game() -> None:
    with pytest.raises(ArenaError, match="cannot start"):
        bot_specs(["cmd:/nonexistent/bot", "random"])
    with pytest.raises(ArenaError, match="hello"):
        bot_specs([f"cmd:{PY}{BAD} garbage-hello", "random"])


def test_the_program_is_sent_its_view_and_the_games_frame(tmp_path: Path) -> None:
    """start, decisions, round_end, game_end and quit; one process for the whole run."""
    log = tmp_path / "lines.jsonl"
    _arena(f"cmd:label=rec:{PY}{BAD} record {log}", rounds=4)
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    kinds = [x["type"] for x in lines]
    assert kinds.count("start") == 4 and kinds.count("game_end") == 4
    # The first quit ends the check made before the run; the run is one process.
    assert kinds[0] == kinds[-1] == "quit" and kinds.count("quit") == 2
    for line in lines:
        if line["type"] == "decision":
            assert set(line) == DECISION_KEYS
        if line["type"] == "start":
            assert line["protocol"] == protocol.VERSION and line["names"][line["seat"]] == "rec"


def test_a_program_may_ask_for_the_text(tmp_path: Path) -> None:
    log = tmp_path / "lines.jsonl"
    _arena(f"cmd:label=rec,text=yes:{PY}{BAD} record {log}", rounds=2)
    decisions = [json.loads(x) for x in log.read_text().splitlines() if '"decision"' in x]
    assert decisions and all("Legal moves:" in d["text"] for d in decisions)


def _legal(*moves: Move) -> list[Move]:
    return list(moves)


def test_loose_words_in_an_answer_are_read() -> None:
    legal = _legal(Play(Tile(3, 5), "left"))
    assert protocol.read_move('{"move": "play [3|5]"}', legal) == Play(Tile(3, 5), "left")


def test_the_scripted_model_plays_a_whole_arena_in_loose_words() -> None:
    """Item 6: a "model" reading only the text, answering in words, never refused."""
    bot = f"cmd:label=model:{PY}{ROOT / 'examples/bots/scripted_model.py'}"
    config, result, summary = _arena(bot, rounds=20)
    assert len(result.outcomes) == config.total_games
    assert summary.bots[0].faults == {}
    assert summary.bots[0].points_per_round.estimate > summary.bots[1].points_per_round.estimate


def test_four_players_with_partners_start_one_program_per_seat_held(tmp_path: Path) -> None:
    """With partnerships one bot holds two seats: a program for each, both kept the run."""
    log = tmp_path / "lines.jsonl"
    rules = Rules(players=4, partnerships=True)
    config, _, _ = _arena(f"cmd:label=rec:{PY}{BAD} record {log}", rounds=4, rules=rules)
    kinds = [json.loads(x)["type"] for x in log.read_text().splitlines()]
    assert kinds.count("quit") == 3  # the check's, then one per seat held
    assert kinds.count("start") == kinds.count("game_end") == 2 * config.total_games


def test_the_cli_plays_an_outside_bot_given_with_bot(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from passing_game.cli import main

    out = tmp_path / "run.json"
    bad = f"cmd:label=bad:{PY}{BAD} illegal"
    args = ["arena", "random", "--bot", bad, "-r", "4", "-j", "1", "--move-timeout", "2"]
    done = CliRunner().invoke(main, [*args, "-o", str(out), "--raw"])
    assert done.exit_code == 0, done.output
    assert "bad: 4 illegal moves; each bad answer was replaced by the first legal move" in (
        done.output
    )
    data = json.loads(out.read_text())
    assert data["bots"][1]["faults"] == {"illegal": 4}
    assert sum(g["faults"][g["lineup"].index(1)].get("illegal", 0) for g in data["games"]) == 4
    assert data["config"]["bots"][1]["options"]["timeout"] == 2.0


def test_the_cli_refuses_a_program_that_does_not_start() -> None:
    from click.testing import CliRunner

    from passing_game.cli import main

    done = CliRunner().invoke(main, ["arena", "random", "--bot", "cmd:/nonexistent/bot"])
    assert done.exit_code == 2 and "cannot start" in done.output
    done = CliRunner().invoke(main, ["arena", "random", "greedy", "--move-timeout", "0"])
    assert done.exit_code == 2
