"""The terminal game, driven through its real entry points with scripted input.

The script for a game is worked out in-process first: the same seed gives
the same deals and the same bots (``make_bots``) give the same replies, so
the test knows which tile numbers to type and what the game must end with.
Then ``python -m passing_game play`` (or the installed ``passing-game``)
plays it from stdin, and the test checks what a person would have seen.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from passing_game import Match, Rules, load_record
from passing_game.round import RoundResult
from passing_game.scoring import score
from passing_game.terminal.game import make_bots, opponent_names
from passing_game.terminal.render import ASCII, UNICODE, glyphs_for, hand_lines, train_lines
from passing_game.tiles import Placed, Tile
from passing_game.views import View
from passing_game.words import Seats, scoring_lines, tile_text
from terminal_helpers import ENV, TIMEOUT, first_seed, script_for


def run(
    args: Sequence[str], stdin: str = "", *, script: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run the command line as a user would: ``python -m`` or the console script."""
    if script:
        exe = shutil.which("passing-game") or str(Path(sys.executable).parent / "passing-game")
        cmd = [exe, *args]
    else:
        cmd = [sys.executable, "-m", "passing_game", *args]
    done = subprocess.run(
        cmd, input=stdin, capture_output=True, text=True, timeout=TIMEOUT, env=ENV
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert "\x1b[" not in done.stdout, "colour codes in output that is not a terminal"
    return done


def section(text: str, start: str, end: str) -> str:
    """The part of ``text`` from ``start`` up to the next ``end``."""
    begin = text.index(start)
    return text[begin : text.index(end, begin)]


# -- playing through the real entry point ---------------------------------


def test_play_a_whole_round_by_numbers() -> None:
    """A seeded 3-player round played by tile numbers ends with the full summary."""
    rules = Rules(players=3)
    seed = first_seed(lambda s: script_for(rules, s, rounds=1)[2] > 0)
    lines, match, questions = script_for(rules, seed, rounds=1)
    done = run(
        ["play", "--players", "3", "--bots", "greedy", "--seed", str(seed), "--rounds", "1"],
        "\n".join(lines),
    )
    out = done.stdout
    assert done.returncode == 0, done.stderr
    # Every line typed was accepted: no complaints, and the end question came up.
    assert "I don't understand" not in out and "does not fit" not in out
    assert out.count("Left or right?") == questions > 0
    assert "fits both ends" in out
    result = match.results[0]
    summary = out[out.index("Round 1 is over") :]
    reason = {"domino": "Domino!", "block": "Blocked", "all-pass": "Everyone passed"}
    assert reason[result.reason] in summary
    hands = section(summary, "Hands revealed", "Locked in the boneyard")
    for seat, hand in enumerate(result.hands):
        label = "You:" if seat == 0 else f"greedy (seat {seat + 1}):"
        assert label in hands
        for tile in hand:
            assert tile_text(tile) in hands
        assert f"= {result.pips[seat]} pip" in hands
    locked = " ".join(tile_text(t) for t in result.locked)
    assert f"Locked in the boneyard, never drawn: {locked}" in summary
    if result.winner is None:
        assert "nobody scores" in summary
    else:
        assert f"= {result.points}." in summary
    total = re.search(r"Total\s+(\d+)\s+(\d+)\s+(\d+)", summary)
    assert total is not None
    assert [int(x) for x in total.groups()] == match.scores
    assert "That was the one round you asked for." in out


def test_typos_reprompt_with_help_and_eof_quits_cleanly() -> None:
    """Nonsense, a number past the hand and a tile that does not fit all re-prompt."""
    rules = Rules(players=2)

    def human_turn(seed: int) -> View | None:
        match = Match(rules, seed)
        bots = make_bots(opponent_names(["greedy"], 2, 0), 0, seed)
        while match.round.to_move != 0:
            match.play(bots[1].choose(match.view(1)))
        view = match.view(0)
        if view.ends is None:
            return None
        return view

    def has_misfit(seed: int) -> bool:
        view = human_turn(seed)
        return view is not None and any(
            not (t.has(view.ends[0]) or t.has(view.ends[1]))  # type: ignore[index]
            for t in view.hand
        )

    seed = first_seed(has_misfit)
    view = human_turn(seed)
    assert view is not None and view.ends is not None
    bad = next(
        i + 1 for i, t in enumerate(view.hand) if not (t.has(view.ends[0]) or t.has(view.ends[1]))
    )
    typed = ["xyz", "99", str(bad), "", "h", "?"]
    done = run(["play", "--bots", "greedy", "--seed", str(seed)], "\n".join(typed) + "\n")
    out = done.stdout
    assert done.returncode == 0
    assert "I don't understand “xyz”" in out
    assert "There is no tile 99: your tiles are numbered 1 to 7." in out
    assert f"{tile_text(view.hand[bad - 1])} does not fit" in out
    assert "Hint (" in out
    assert "You can type:" in out
    # The same prompt came back after each line, then end of input stopped the game.
    assert out.count("Your move (") == len(typed) + 1
    assert "Input ended, so the game stops here." in out


def test_eof_mid_game_saves_a_record(tmp_path: Path) -> None:
    """End of input mid-round exits 0 and the record of the moves so far loads."""
    saved = tmp_path / "partial.json"
    rules = Rules(players=4)
    lines, _match, _q = script_for(rules, 5, rounds=1)
    done = run(
        ["play", "--players", "4", "--bots", "greedy", "--seed", "5", "--save", str(saved)],
        "\n".join(lines[:3]) + "\n",
    )
    assert done.returncode == 0
    assert "Input ended" in done.stdout
    assert f"Game record saved to {saved}." in done.stdout
    match = load_record(saved.read_text(encoding="utf-8"))
    assert match.round_number == 1 and not match.round.is_over
    decisions = [line for line in lines[:3] if line not in ("l", "r", "")]
    assert len([t for t in match.round.history if t.seat == 0]) >= len(decisions) > 0


def test_save_replays_to_the_same_scores(tmp_path: Path) -> None:
    """A whole match through the console script: its record replays to its scores."""
    saved = tmp_path / "game.json"
    rules = Rules(players=3, target=40)
    seed = first_seed(
        lambda s: len(script_for(rules, s, bots=("greedy", "random"))[1].results) >= 3
    )
    lines, match, _q = script_for(rules, seed, bots=("greedy", "random"))
    assert match.is_over
    done = run(
        [
            "play",
            "--players",
            "3",
            "--target",
            "40",
            "--seed",
            str(seed),
            "--bots",
            "greedy,random",
            "--save",
            str(saved),
        ],
        "\n".join(lines) + "\n",
        script=True,
    )
    assert done.returncode == 0, done.stderr
    assert "Press Enter to deal round 2" in done.stdout
    winner = "You" if match.winner == 0 else f"(seat {match.winner + 1})"
    assert re.search(rf"{re.escape(winner)} wins? the match", done.stdout)
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["names"] == ["human", "greedy", "random"]
    again = load_record(saved.read_text(encoding="utf-8"))
    assert again.scores == match.scores and again.winner == match.winner
    assert [r.points for r in again.results] == [r.points for r in match.results]

    shown = run(["replay", "--all", str(saved)])
    assert shown.returncode == 0, shown.stderr
    for number in range(1, len(match.results) + 1):
        assert f"Round {number} is over" in shown.stdout
    last_pad = shown.stdout[shown.stdout.rindex("Score pad") :]
    total = re.search(r"Total\s+(\d+)\s+(\d+)\s+(\d+)", last_pad)
    assert total is not None and [int(x) for x in total.groups()] == match.scores
    assert "wins the match" in shown.stdout
    assert "greedy (seat 2) drew" in shown.stdout or "greedy (seat 2) played" in shown.stdout


def test_replay_steps_forward_and_back(tmp_path: Path) -> None:
    rules = Rules()
    match = Match(rules, seed=2)
    for _ in range(4):
        match.play(match.legal_moves()[0])
    from passing_game import dump_record

    saved = tmp_path / "r.json"
    saved.write_text(dump_record(match), encoding="utf-8")
    done = run(["replay", str(saved)], "\n\nb\nzz\nq\n")
    out = done.stdout
    assert done.returncode == 0
    order = re.findall(r"Round 1 · (the deal|move \d+ of 4)", out)
    assert order == ["the deal", "move 1 of 4", "move 2 of 4", "move 1 of 4"]
    assert "Press Enter for the next move, b to go back, q to quit." in out
    assert "Replay stopped." in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not a usable game record: the record is not valid JSON"),
        (None, "cannot read"),
        ("ILLEGAL", "round 1, move 1"),
    ],
)
def test_replay_refuses_a_bad_file(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "bad.json"
    if content == "ILLEGAL":
        from passing_game import dump_record

        match = Match(Rules(), seed=1)
        record = json.loads(dump_record(match))
        # A boneyard tile is in nobody's hand, so playing it is illegal.
        record["rounds"][0]["moves"] = [f"L{match.round.boneyard[0]}"]
        content = json.dumps(record)
    if content is not None:
        path.write_text(content, encoding="utf-8")
    done = run(["replay", "--all", str(path)])
    assert done.returncode == 1
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_rules_prints_the_document() -> None:
    done = run(["rules"])
    assert done.returncode == 0, done.stderr
    assert "The Passing Game" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "5"], "--players"),
        (["--players", "3", "--partnerships"], "partnerships need 4 players"),
        (["--draw", "sometimes"], "--draw"),
        (["--bots", "nosuch"], "unknown bot “nosuch”"),
        (["--players", "2", "--seat", "3"], "seat must be 1 to 2"),
        (["--seat", "0"], "--seat"),
        (["--target", "50", "--target-preset", "seeds"], "not both"),
    ],
)
def test_bad_options_are_usage_errors(args: list[str], message: str) -> None:
    done = run(["play", *args])
    assert done.returncode == 2
    assert "Usage:" in done.stderr and message in done.stderr


def test_partnerships_round_explains_team_counts() -> None:
    rules = Rules(players=4, partnerships=True)
    lines, match, _q = script_for(rules, 8, seat=1, rounds=1)
    done = run(
        [
            "play",
            "--partnerships",
            "--seat",
            "2",
            "--bots",
            "greedy",
            "--seed",
            "8",
            "--rounds",
            "1",
        ],
        "\n".join(lines) + "\n",
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "You play seat 2, partnered with greedy (seat 4)" in out
    result = match.results[0]
    assert (
        f"Your team (seats 2+4): {result.pips[1]} + {result.pips[3]} = {result.side_pips[1]}" in out
    )
    assert f"Team 1+3: {result.pips[0]} + {result.pips[2]} = {result.side_pips[0]}" in out


# -- drawing, checked in-process ------------------------------------------


def test_train_draws_doubles_crosswise_and_marks_the_ends() -> None:
    """R5.1: a double stands across the line; the open ends sit at both sides."""
    train = [Placed(5, 3), Placed(3, 3), Placed(3, 6)]
    lines = [line.plain for line in train_lines(train, (5, 6), UNICODE)]
    assert lines == [
        "           ┌─┐",
        "           │3│",
        "  5 ◀ [5|3]├─┤[3|6] ▶ 6",
        "           │3│",
        "           └─┘",
    ]
    flat = [line.plain for line in train_lines([Placed(1, 2)], (1, 2), ASCII)]
    assert flat == ["  1 < [1|2] > 2"]


def test_long_train_wraps_within_the_width() -> None:
    tiles = [Placed(a, b) for a, b in zip(range(6), range(1, 7), strict=True)] * 4
    lines = [line.plain for line in train_lines(tiles, (0, 6), UNICODE, width=40)]
    assert all(len(line) <= 40 for line in lines)
    assert lines[0].startswith("  0 ◀") and lines[-1].endswith("▶ 6")
    assert "".join(lines).count("[") == len(tiles)


def test_hand_is_numbered_with_fitting_ends() -> None:
    hand = [Tile(0, 1), Tile(1, 5), Tile(2, 2), Tile(3, 5)]
    numbers, tiles, fits = (line.plain for line in hand_lines(hand, (1, 5), UNICODE))
    assert numbers.split() == ["1", "2", "3", "4"]
    assert tiles.split() == ["[0|1]", "[1|5]", "[2|2]", "[3|5]"]
    # Each tile has a 7-column cell after a 2-space indent; its mark sits in it.
    marks = [fits[2 + 7 * i : 2 + 7 * (i + 1)].strip() for i in range(len(hand))]
    assert marks == ["◀", "◀▶", "", "▶"]


def test_glyphs_fall_back_to_ascii() -> None:
    assert glyphs_for("utf-8") is UNICODE
    assert glyphs_for("ascii") is ASCII


def _result(rules: Rules, pips: tuple[int, ...]) -> RoundResult:
    s = score(rules, pips)
    return RoundResult("block", pips, s.winner, s.points, s.side_pips, ((),) * len(pips), ())


def test_scoring_is_explained_per_variant() -> None:
    """The worked examples of RULES.md, as the round summary words them (R7, D4, D6)."""
    three = Rules(players=3)
    seats = Seats(three, ("greedy", "human", "greedy"), human=1)
    text = " ".join(scoring_lines(_result(three, (4, 10, 15)), seats, minus=ASCII.minus))
    assert "greedy (seat 1) has the lowest count (4)" in text
    assert "10 + 15 - 4 = 21" in text
    pairwise = Rules(players=3, scoring="pairwise")
    seats = Seats(pairwise, ("human", "greedy", "greedy"), human=0)
    text = " ".join(scoring_lines(_result(pairwise, (4, 10, 15)), seats, minus=ASCII.minus))
    assert "You have the lowest count (4)" in text
    assert "(10 - 4) + (15 - 4) = 17. You score 17." in text
    teams = Rules(players=4, partnerships=True)
    seats = Seats(teams, ("human", "a", "b", "c"), human=0)
    text = " ".join(scoring_lines(_result(teams, (3, 9, 8, 2)), seats, minus=ASCII.minus))
    assert "nobody scores" in text
    text = " ".join(scoring_lines(_result(teams, (3, 9, 8, 4)), seats, minus=ASCII.minus))
    assert "13 - 11 = 2" in text and "Your team (seats 1+3) scores 2" in text
