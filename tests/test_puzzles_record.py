"""The puzzle line (the file's contract, docs/PUZZLES.md), ``prove``, and the command.

A line round-trips exactly; a bad one is refused with a message that says
what is wrong; ``prove`` finds every kind of claim that does not hold; the
``passing-game puzzles`` commands write the same file whatever the number of
processes, and answer bad input in words.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from passing_game.bots import make
from passing_game.cli import main
from passing_game.moves import parse_move
from passing_game.puzzles import Puzzle, PuzzleError, parse_lines, prove, shipped
from passing_game.puzzles.files import shipped_text
from passing_game.puzzles.record import FIELDS


@pytest.fixture(scope="module")
def lines() -> list[str]:
    return shipped_text().splitlines()


def first(lines: list[str], kind: str, players: int) -> dict[str, Any]:
    for line in lines:
        data = json.loads(line)
        if data["kind"] == kind and data["rules"]["players"] == players:
            return data
    raise AssertionError(f"no {kind} puzzle for {players} players")


def test_a_line_round_trips_exactly(lines: list[str]) -> None:
    for line in lines[::50]:
        puzzle = Puzzle.from_json(line)
        assert puzzle.to_json() == line
        assert Puzzle.from_json(puzzle.to_json()) == puzzle
        written = list(json.loads(line))
        assert written == [f for f in FIELDS if f in written]  # the contract's order
        assert set(FIELDS) - set(written) == ({"proof"} if puzzle.kind == "open" else set())


def test_the_fields_read_as_the_contract_says(lines: list[str]) -> None:
    data = first(lines, "view", 4)
    puzzle = Puzzle.from_dict(data)
    assert puzzle.rules.to_dict() == data["rules"] and puzzle.rules.partnerships
    assert [str(t) for t in puzzle.boneyard] == data["boneyard"]
    assert puzzle.proof == data["proof"] in ("every-deal", "average")
    rnd = puzzle.position()
    assert rnd.to_move == puzzle.to_move == data["to_move"]
    assert [str(m) for m in rnd.legal_moves()] == list(data["values"])
    assert puzzle.value_of(parse_move(data["answer"][0])) == max(data["values"].values())
    assert puzzle.view().hand == rnd.hands[puzzle.to_move]
    assert "proof" not in first(lines, "open", 2)


def mutate(data: dict[str, Any], **changes: Any) -> str:
    out = json.loads(json.dumps(data))
    for key, value in changes.items():
        if value is DROP:
            del out[key]
        else:
            out[key] = value
    return json.dumps(out)


DROP = object()


def bad_lines(data: dict[str, Any], view: dict[str, Any]) -> list[tuple[str, str]]:
    """(line, what the error must say) for one fault each."""
    legal = list(data["values"])
    history = data["history"]
    wrong_seat = (data["to_move"] + 1) % data["rules"]["players"]
    return [
        ("not json", "not JSON"),
        ("[1, 2]", "a puzzle is a JSON object, got list"),
        (mutate(data, values=DROP), "missing field(s) values"),
        (mutate(data, extra=1), "unknown field(s) extra"),
        (mutate(data, kind="closed"), "kind must be open or view, got 'closed'"),
        (mutate(view, proof=DROP), "a view puzzle's proof is every-deal or average, got None"),
        (mutate(data, proof="average"), "only view puzzles have a proof field"),
        (mutate(data, rules={"players": 3}), "puzzles are for two sides"),
        (
            mutate(data, rules={"players": 2, "colour": "red"}),
            "rules: unknown rules field(s) colour",
        ),
        (mutate(data, hands=[["7-7", *data["hands"][0][1:]], data["hands"][1]]), "hands[0][0]"),
        (mutate(data, hands=data["hands"][:1]), "the deal: the deal has 1 hand"),
        (mutate(data, history=[*history[:-1], "L6-6", history[-1]]), "is illegal"),
        (mutate(data, history=["l" + history[0][1:].lower(), *history[1:]]), "write 'l"),
        (mutate(data, to_move=wrong_seat), f"to_move is {wrong_seat}, but after the history"),
        (mutate(data, values=dict(list(data["values"].items())[1:])), "values must list every"),
        (mutate(data, values={**data["values"], legal[0]: "ten"}), "must be a number"),
        (mutate(data, answer=["R6-6" if "R6-6" not in legal else "L0-0"]), "answer must be legal"),
        (mutate(data, answer=[]), "answer must be legal moves from values, got none"),
        (mutate(data, themes=["luck"]), "themes are distinct names from block"),
        (mutate(data, rating=True), "rating must be a whole number, got true"),
        (mutate(data, leader="north"), "leader must be a whole number"),
    ]


def test_a_bad_line_is_refused_saying_what_is_wrong(lines: list[str]) -> None:
    data, view = first(lines, "open", 2), first(lines, "view", 2)
    for line, said in bad_lines(data, view):
        with pytest.raises(PuzzleError) as caught:
            Puzzle.from_json(line)
        assert isinstance(caught.value, ValueError)
        assert said in str(caught.value), (said, str(caught.value))


def test_parse_lines_names_the_line(lines: list[str]) -> None:
    with pytest.raises(PuzzleError, match=r"^line 3: not JSON"):
        parse_lines([lines[0], "", "{"])
    with pytest.raises(PuzzleError, match=r"^line 2: puzzle .* appears twice"):
        parse_lines([lines[0], lines[0]])
    assert len(parse_lines(["", lines[0], "  "])) == 1


def test_a_shipped_puzzle_proves_and_each_false_claim_is_found(lines: list[str]) -> None:
    greedy = make("greedy").choose
    for kind, players in (("open", 4), ("view", 2)):
        puzzle = Puzzle.from_dict(first(lines, kind, players))
        assert prove(puzzle, greedy).ok
        move, value = puzzle.values[0]
        close = replace(puzzle, values=((move, value + 1e-7), *puzzle.values[1:]))
        assert prove(close).ok  # within the contract's 1e-6
        off = replace(puzzle, values=((move, value + 0.5), *puzzle.values[1:]))
        assert prove(off).problems[0].startswith(f"value of {move} is ")
        other = next(m for m, _ in puzzle.values if m not in puzzle.answer)
        wrong = prove(replace(puzzle, answer=(other,)))
        assert wrong.problems == (
            f"the best moves are {', '.join(sorted(map(str, puzzle.answer)))}"
            f", the file says {other}",
        )
        themes = () if puzzle.themes else ("block",)
        assert "the themes are" in prove(replace(puzzle, themes=themes)).problems[0]
        assert prove(replace(puzzle, id="x")).problems == (
            f"the id of this content is {puzzle.id}",
        )
        answers = puzzle.answer[0]
        assert prove(puzzle, lambda view, move=answers: move).problems == (
            "the greedy bot finds the answer",
        )
    view = Puzzle.from_dict(first(lines, "view", 4))
    flipped = "average" if view.proof == "every-deal" else "every-deal"
    assert prove(replace(view, proof=flipped)).problems == (
        f"the proof is {view.proof}, the file says {flipped}",
    )


# -- the command -------------------------------------------------------------


def run(*args: str) -> Any:
    return CliRunner().invoke(main, ["puzzles", *args])


def test_generate_writes_puzzles_that_prove_and_the_same_file_on_one_or_two_processes(
    tmp_path: Path,
) -> None:
    files = []
    for jobs in ("1", "2"):
        out = tmp_path / f"p{jobs}.jsonl"
        done = run(
            "generate",
            "--seed",
            "7",
            "--count",
            "3",
            "--kinds",
            "open",
            "--players",
            "4",
            "--jobs",
            jobs,
            "--out",
            str(out),
        )
        assert done.exit_code == 0, done.output
        assert f"wrote 3 puzzles to {out}" in done.output
        files.append(out.read_text())
    assert files[0] == files[1]
    puzzles = parse_lines(files[0].splitlines())
    assert {(p.kind, p.rules.players) for p in puzzles} == {("open", 4)}
    done = run("prove", str(tmp_path / "p1.jsonl"))
    assert done.exit_code == 0 and "proved 3 of 3 puzzles" in done.output


def test_bad_input_is_answered_in_words(tmp_path: Path) -> None:
    done = run("generate", "--count", "0", "--out", str(tmp_path / "x.jsonl"))
    assert done.exit_code == 2 and "Invalid value for '--count'" in done.output
    done = run("generate", "--out", str(tmp_path / "missing" / "x.jsonl"))
    assert done.exit_code == 1 and "does not exist" in done.output
    done = run("generate", "--seed", "x", "--out", str(tmp_path / "x.jsonl"))
    assert done.exit_code == 2 and "'x' is not a valid integer" in done.output
    done = run("prove", str(tmp_path / "nothing.jsonl"))
    assert done.exit_code == 2 and "does not exist" in done.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text(shipped_text().splitlines()[0] + "\n{\n")
    done = run("prove", str(bad))
    assert done.exit_code == 1 and "line 2: not JSON" in done.output


def test_prove_exits_1_and_says_which_puzzle_fails(tmp_path: Path) -> None:
    puzzle = shipped()[0]
    move, value = puzzle.values[0]
    tampered = replace(puzzle, values=((move, value + 2), *puzzle.values[1:]))
    path = tmp_path / "tampered.jsonl"
    path.write_text(tampered.to_json() + "\n" + shipped()[1].to_json() + "\n")
    done = run("prove", str(path))
    assert done.exit_code == 1
    assert f"{puzzle.id}: value of {move} is {value!r}, the file says {value + 2!r}" in done.output
    assert "proved 1 of 2 puzzles" in done.output


def test_prove_a_sample_of_the_shipped_file() -> None:
    done = run("prove", "--sample", "4", "--seed", "2")
    assert done.exit_code == 0 and "proved 4 of 4 puzzles" in done.output
