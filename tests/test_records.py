"""Game records: export, load, replay, and refusal of bad records.

Version 2 adds marks (moves a bot made for a person, issue 11) and the
resignation of a two-player match (docs/DECISIONS.md P25, the match ends at
once as R8 ends it); version-1 records still load (tests/data/record-v1-*.json,
written by the version-1 writer).
"""

from __future__ import annotations

import copy
import json
import random
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console

from passing_game import (
    RECORD_VERSION,
    Match,
    Move,
    RecordError,
    Round,
    Rules,
    dump_record,
    load_record,
    match_to_record,
    parse_move,
)
from passing_game.cli import main
from passing_game.i18n import set_language
from passing_game.records import (
    MARK_KINDS,
    READ_VERSIONS,
    RECORD_FORMAT,
    record_marks,
    record_names,
)
from passing_game.terminal.replay import Replayer

#: The rules suites run on both implementations of ``Round``.
pytestmark = pytest.mark.usefixtures("engine")

DATA = Path(__file__).parent / "data"
V1_RECORDS = sorted(DATA.glob("record-v1-*.json"))

Snapshot = tuple[Any, ...]


def snap(match: Match) -> Snapshot:
    rnd = match.round
    return (
        match.round_number,
        rnd.deal,
        rnd.hands,
        rnd.boneyard,
        rnd.train,
        rnd.ends,
        rnd.to_move,
        rnd.history,
        rnd.result,
        tuple(match.scores),
        match.winner,
        tuple(rnd.legal_moves()),
    )


def round_states(rnd: Round) -> list[Snapshot]:
    """Every state of a round, replayed from its deal with its moves."""
    replay = Round.from_deal(rnd.rules, *rnd.deal)
    out = []
    for move in rnd.moves:
        out.append((replay.hands, replay.boneyard, replay.train, replay.to_move))
        replay.play(move)
    out.append((replay.hands, replay.boneyard, replay.train, replay.to_move, replay.result))
    return out


def played(rules: Rules, seed: int, moves: int | None = None) -> tuple[Match, list[Snapshot]]:
    """A match played with random legal moves; every state along the way."""
    match = Match(rules, seed=seed)
    rng = random.Random(seed)
    states = [snap(match)]
    count = 0
    while not match.is_over and (moves is None or count < moves):
        legal = match.legal_moves()
        weights = [1 if str(m) == "pass" else 4 for m in legal]
        match.play(rng.choices(legal, weights)[0])
        states.append(snap(match))
        count += 1
    return match, states


def assert_same_match(a: Match, b: Match) -> None:
    assert a.rules == b.rules
    assert a.seed == b.seed
    assert a.scores == b.scores
    assert a.winner == b.winner
    assert a.is_over == b.is_over
    assert a.results == b.results
    assert len(a.rounds) == len(b.rounds)
    for ra, rb in zip(a.rounds, b.rounds, strict=True):
        assert ra.deal == rb.deal
        assert ra.history == rb.history
        assert round_states(ra) == round_states(rb)
        assert (ra.hands, ra.boneyard, ra.train, ra.ends, ra.to_move, ra.result) == (
            rb.hands,
            rb.boneyard,
            rb.train,
            rb.ends,
            rb.to_move,
            rb.result,
        )
    assert snap(a) == snap(b)


VARIANTS = [
    Rules(players=2, target=60),
    Rules(players=3, scoring="pairwise", leader="rotate", target=60),
    Rules(players=4, draw="continue", leader="winner", target=40),
    Rules(players=4, partnerships=True, passing="forced", target=40),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=repr)
def test_round_trip_finished_match(rules: Rules) -> None:
    for seed in range(3):
        match, states = played(rules, seed)
        assert match.is_over
        text = dump_record(match)
        loaded = load_record(text)
        assert_same_match(match, loaded)
        assert load_record(match_to_record(match)).scores == match.scores
        assert load_record(text.encode()).winner == match.winner
        assert dump_record(loaded) == text
        # every state along the way is reproduced by replaying the record
        replayed = Match(rules, seed=seed)
        record = json.loads(text)
        again = [snap(replayed)]
        for rnd in record["rounds"]:
            for move in rnd["moves"]:
                replayed.play(parse_move(move))
                again.append(snap(replayed))
        assert again == states


@pytest.mark.parametrize("moves", [0, 1, 7, 30, 61])
def test_round_trip_unfinished_match(moves: int) -> None:
    """An unfinished match loads at its last position and plays on exactly as the original."""
    rules = Rules(players=3, leader="winner", target=500)
    match, _ = played(rules, seed=moves, moves=moves)
    assert not match.is_over
    loaded = load_record(dump_record(match))
    assert_same_match(match, loaded)
    rng = random.Random(5)
    for _ in range(200):
        if match.is_over:
            break
        move = rng.choice(match.legal_moves())
        match.play(move)
        loaded.play(move)
        assert snap(match) == snap(loaded)
    assert_same_match(match, loaded)


def test_round_trip_just_after_a_round_ended() -> None:
    match = Match(Rules(players=2), seed=3)
    first = match.round
    while match.round is first:
        match.play(match.legal_moves()[0])
    record = match_to_record(match)
    assert record["rounds"][-1]["moves"] == []
    assert record["rounds"][-1]["result"] is None
    assert_same_match(match, load_record(record))


def test_record_format_fields() -> None:
    """The documented shape: format, version, rules, seed, rounds with deals (D8 locked)."""
    match, _ = played(Rules(players=4, partnerships=True, target=30), seed=2)
    record = match_to_record(match, names=["Ana", "Bo", "Cy", "Di"])
    assert record["format"] == RECORD_FORMAT
    assert record["version"] == RECORD_VERSION == 2
    assert READ_VERSIONS == (1, 2, 3)
    assert record["rules"] == match.rules.to_dict()
    assert record["seed"] == 2
    assert record["scores"] == match.scores and record["winner"] == match.winner
    assert record_names(record) == ["Ana", "Bo", "Cy", "Di"]
    for number, (rnd, data) in enumerate(zip(match.rounds, record["rounds"], strict=True), 1):
        assert data["number"] == number
        assert data["deal"]["hands"] == [[str(t) for t in h] for h in rnd.deal.hands]
        assert data["deal"]["boneyard"] == [str(t) for t in rnd.deal.boneyard]
        assert data["deal"]["leader"] == rnd.deal.leader
        assert data["locked"] == [str(t) for t in rnd.deal.boneyard[-2:]]
        assert data["moves"] == [str(m) for m in rnd.moves]
        assert "marks" not in data  # only rounds with marks have them
    assert "resigned" not in record  # only a resigned match has it
    assert list(record) == [
        "format",
        "version",
        "rules",
        "seed",
        "rounds",
        "scores",
        "winner",
        "names",
    ]
    json.dumps(record)  # plain JSON data


# -- refusals -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    match, _ = played(Rules(players=2, target=60), seed=1)
    assert match.is_over and len(match.rounds) >= 3
    return match_to_record(match)


def refused(record: object) -> str:
    with pytest.raises(RecordError) as info:
        load_record(record)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    return str(info.value)


def edited(record: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(record)


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2", b"\xff\xfe"])
def test_corrupt_json(text: str | bytes) -> None:
    assert "JSON" in refused(text)


@pytest.mark.parametrize("text", ["[]", "3", '"record"', "null"])
def test_not_an_object(text: str) -> None:
    assert "object" in refused(text)


def test_wrong_format(finished: dict[str, Any]) -> None:
    bad = edited(finished)
    bad["format"] = "chess-pgn"
    assert "chess-pgn" in refused(bad)
    del bad["format"]
    assert "not a passing-game record" in refused(bad)


@pytest.mark.parametrize("version", [4, 0, "1", "2", 2.0, None, 99])
def test_unknown_version(finished: dict[str, Any], version: object) -> None:
    bad = edited(finished)
    bad["version"] = version
    message = refused(bad)
    assert "version" in message and f"“{version}”" in message
    assert message.endswith("this program reads versions 1, 2, 3")


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (("rules",), "'rules' is missing"),
        (("rounds",), "'rounds' is missing"),
        (("rounds", 0, "moves"), "round 1: 'moves' is missing"),
        (("rounds", 1, "deal", "hands"), "round 2: 'hands' is missing"),
        (("rounds", 1, "deal", "boneyard"), "round 2: 'boneyard' is missing"),
        (("rounds", 2, "deal", "leader"), "round 3: 'leader' is missing"),
        (("rounds", 1, "deal"), "round 2"),
    ],
)
def test_missing_key(finished: dict[str, Any], path: tuple[Any, ...], message: str) -> None:
    bad = edited(finished)
    target: Any = bad
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    assert message in refused(bad)


def test_missing_result_of_a_finished_round(finished: dict[str, Any]) -> None:
    bad = edited(finished)
    del bad["rounds"][0]["result"]
    message = refused(bad)
    assert "round 1" in message and "result" in message


def test_bad_rules(finished: dict[str, Any]) -> None:
    bad = edited(finished)
    bad["rules"]["players"] = 7
    assert "players" in refused(bad)
    bad = edited(finished)
    bad["rules"]["speed"] = "fast"
    assert "speed" in refused(bad)


def test_empty_rounds(finished: dict[str, Any]) -> None:
    bad = edited(finished)
    bad["rounds"] = []
    assert "rounds" in refused(bad)


def test_bad_tile_in_a_deal(finished: dict[str, Any]) -> None:
    bad = edited(finished)
    bad["rounds"][1]["deal"]["hands"][0][2] = "7-7"
    message = refused(bad)
    assert "round 2" in message and "7-7" in message


def test_duplicate_tile_in_a_deal(finished: dict[str, Any]) -> None:
    bad = edited(finished)
    hand = bad["rounds"][0]["deal"]["hands"][1]
    hand[0] = hand[1]
    message = refused(bad)
    assert "round 1" in message and f"{hand[1]} more than once" in message


def test_locked_tiles_must_match_the_deal(finished: dict[str, Any]) -> None:
    bad = edited(finished)
    bad["rounds"][0]["locked"] = list(reversed(bad["rounds"][0]["locked"]))
    message = refused(bad)
    assert "round 1" in message and "locked" in message


def test_illegal_move(finished: dict[str, Any]) -> None:
    """A move that does not replay is refused, naming the round and the move."""
    bad = edited(finished)
    deal = bad["rounds"][1]["deal"]
    opponent = deal["hands"][1 - deal["leader"]][0]
    bad["rounds"][1]["moves"][0] = "L" + opponent
    message = refused(bad)
    assert "round 2, move 1" in message and "does not hold" in message


def test_unreadable_move(finished: dict[str, Any]) -> None:
    bad = edited(finished)
    bad["rounds"][0]["moves"][2] = "jump"
    message = refused(bad)
    assert "round 1, move 3" in message and "“jump”" in message
    bad["rounds"][0]["moves"][2] = 17
    assert "round 1, move 3" in refused(bad)


def test_move_after_a_round_ended(finished: dict[str, Any]) -> None:
    bad = edited(finished)
    moves = bad["rounds"][0]["moves"]
    moves.append("pass")
    message = refused(bad)
    assert f"round 1, move {len(moves)}" in message and "over" in message


def test_move_after_the_last_round_ended(finished: dict[str, Any]) -> None:
    bad = edited(finished)
    moves = bad["rounds"][-1]["moves"]
    moves.append("pass")
    message = refused(bad)
    assert f"round {len(bad['rounds'])}, move {len(moves)}" in message


def test_round_after_the_match_ended(finished: dict[str, Any]) -> None:
    bad = edited(finished)
    bad["rounds"].append(copy.deepcopy(bad["rounds"][-1]))
    assert f"round {len(bad['rounds'])}" in refused(bad)


def test_moves_missing_so_round_did_not_end(finished: dict[str, Any]) -> None:
    bad = edited(finished)
    bad["rounds"][0]["moves"].pop()
    message = refused(bad)
    assert "round 1" in message


@pytest.mark.parametrize(
    ("field", "value"), [("points", 999), ("winner", 1), ("reason", "domino"), ("pips", [0, 0])]
)
def test_wrong_result(finished: dict[str, Any], field: str, value: object) -> None:
    bad = edited(finished)
    result = bad["rounds"][1]["result"]
    if result[field] == value:
        value = "other"
    result[field] = value
    message = refused(bad)
    assert "round 2" in message and "result" in message


def test_wrong_scores_and_winner(finished: dict[str, Any]) -> None:
    bad = edited(finished)
    bad["scores"] = [s + 1 for s in bad["scores"]]
    assert "scores" in refused(bad)
    bad = edited(finished)
    bad["winner"] = 1 - bad["winner"]
    assert "winner" in refused(bad)


def test_bad_seed(finished: dict[str, Any]) -> None:
    bad = edited(finished)
    bad["seed"] = "abc"
    assert "seed" in refused(bad)


def test_record_error_of_a_tampered_but_valid_looking_move(finished: dict[str, Any]) -> None:
    """Swapping two moves in a round is caught as soon as one does not replay
    (or the result no longer matches)."""
    bad = edited(finished)
    moves = bad["rounds"][0]["moves"]
    index = next(
        i for i in range(len(moves) - 1) if moves[i] != moves[i + 1] and moves[i][0] in "LR"
    )
    moves[index], moves[index + 1] = moves[index + 1], moves[index]
    assert "round 1" in refused(bad)


def test_moves_in_record_are_parseable(finished: dict[str, Any]) -> None:
    for rnd in finished["rounds"]:
        for text in rnd["moves"]:
            move: Move = parse_move(text)
            assert str(move) == text


def test_seeded_record_must_hold_the_seeds_deals(finished: dict[str, Any]) -> None:
    """D9: a valid-looking deal that the seed does not deal is refused, naming the round."""
    bad = edited(finished)
    hands = bad["rounds"][1]["deal"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    message = refused(bad)
    assert "round 2" in message and "seed" in message
    bad = edited(finished)
    deal = bad["rounds"][2]["deal"]
    deal["leader"] = 1 - deal["leader"]
    assert "round 3" in refused(bad)


def test_round_number_and_version_types(finished: dict[str, Any]) -> None:
    bad = edited(finished)
    bad["rounds"][1]["number"] = 5
    assert "round 2" in refused(bad)
    bad = edited(finished)
    bad["version"] = True
    assert "version" in refused(bad)


def test_match_with_given_deals_round_trips_without_seed() -> None:
    source, _ = played(Rules(players=3, target=30), seed=4)
    deals = [r.deal for r in source.rounds]
    match = Match(Rules(players=3, target=30), seed=99, deals=deals)
    rng = random.Random(2)
    for _ in range(40):
        if match.is_over:
            break
        match.play(rng.choice(match.legal_moves()))
    record = match_to_record(match)
    assert record["seed"] is None
    loaded = load_record(record)
    assert [r.deal for r in loaded.rounds] == [r.deal for r in match.rounds]
    assert [r.history for r in loaded.rounds] == [r.history for r in match.rounds]
    assert loaded.scores == match.scores


# -- version 1 still loads ------------------------------------------------------------


def test_v1_fixtures_are_version_1() -> None:
    assert [p.name for p in V1_RECORDS] == [
        "record-v1-finished.json",
        "record-v1-unfinished.json",
    ]
    for path in V1_RECORDS:
        assert json.loads(path.read_text(encoding="utf-8"))["version"] == 1


@pytest.mark.parametrize("path", V1_RECORDS, ids=lambda p: p.name)
def test_v1_record_still_loads(path: Path) -> None:
    """A record written by the version-1 writer loads exactly as before: the same
    match, and writing it again gives the same record as version 2."""
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    loaded = load_record(text)
    assert loaded.scores == data["scores"] and loaded.winner == data["winner"]
    assert loaded.resigned is None
    assert len(loaded.rounds) == len(data["rounds"])
    assert [[str(m) for m in r.moves] for r in loaded.rounds] == [
        r["moves"] for r in data["rounds"]
    ]
    assert record_marks(data) == {} and record_marks(text) == {}
    again = json.loads(dump_record(loaded, names=record_names(data)))
    assert again == {**data, "version": 2}
    # replaying the seed with the recorded moves gives the loaded match
    replayed = Match(Rules.from_dict(data["rules"]), seed=data["seed"])
    for rnd in data["rounds"]:
        for move in rnd["moves"]:
            replayed.play(parse_move(move))
    assert_same_match(replayed, loaded)


def test_v1_fixture_contents() -> None:
    """What the fixtures hold, so a change to them shows."""
    finished = load_record((DATA / "record-v1-finished.json").read_bytes())
    assert finished.is_over and finished.scores == [67, 0] and finished.winner == 0
    assert finished.round_number == 4
    unfinished = load_record((DATA / "record-v1-unfinished.json").read_bytes())
    assert not unfinished.is_over and unfinished.scores == [0, 2]
    assert unfinished.round_number == 2 and len(unfinished.round.moves) == 9


def test_v1_record_has_no_marks_or_resignation() -> None:
    """Version 1 has no marks and no resignation: such keys in a version-1 record
    are ignored, as a version-1 reader ignored every unknown key."""
    data = json.loads((DATA / "record-v1-unfinished.json").read_text(encoding="utf-8"))
    data["resigned"] = 0
    data["rounds"][0]["marks"] = {"1": "timeout", "999": "nonsense"}
    loaded = load_record(data)
    assert loaded.resigned is None and not loaded.is_over
    assert record_marks(data) == {}


# -- marks (version 2) ----------------------------------------------------------------


def some_marks(match: Match, seed: int) -> dict[tuple[int, int], str]:
    rng = random.Random(seed)
    marks = {}
    for number, rnd in enumerate(match.rounds, start=1):
        for index in range(1, len(rnd.moves) + 1):
            if rng.random() < 0.2:
                marks[number, index] = rng.choice(MARK_KINDS)
    return marks


@pytest.mark.parametrize("rules", VARIANTS, ids=repr)
def test_marks_round_trip(rules: Rules) -> None:
    """Issue 11: auto-played and stand-in moves are marked; the marks come back."""
    match, _ = played(rules, seed=4)
    marks = some_marks(match, seed=4)
    assert marks and set(marks.values()) == set(MARK_KINDS)
    text = dump_record(match, marks=marks)
    data = json.loads(text)
    assert data["version"] == 2
    assert record_marks(data) == marks == record_marks(text) == record_marks(text.encode())
    loaded = load_record(text)
    assert_same_match(match, loaded)
    assert dump_record(loaded, marks=record_marks(data)) == text
    for number, rnd in enumerate(data["rounds"], start=1):
        mine = {i: k for (n, i), k in marks.items() if n == number}
        if mine:
            assert rnd["marks"] == {str(i): mine[i] for i in sorted(mine)}
            assert list(rnd) == ["number", "deal", "locked", "moves", "marks", "result"]
        else:
            assert "marks" not in rnd


def test_marks_are_written_in_move_order() -> None:
    match, _ = played(Rules(players=2), seed=8, moves=12)
    record = match_to_record(match, marks={(1, 10): "stand-in", (1, 2): "timeout"})
    assert list(record["rounds"][0]["marks"].items()) == [("2", "timeout"), ("10", "stand-in")]
    assert json.loads(dump_record(match, indent=None, marks={}))["rounds"][0].get("marks") is None


def test_marks_in_an_unfinished_round() -> None:
    match, _ = played(Rules(players=3, target=500), seed=2, moves=5)
    last = (match.round_number, len(match.round.moves))
    loaded = load_record(dump_record(match, marks={last: "timeout"}))
    assert_same_match(match, loaded)


@pytest.mark.parametrize(
    ("marks", "message"),
    [
        ({(1, 0): "timeout"}, "no move 0"),
        ({(1, 99): "timeout"}, "no move 99"),
        ({(9, 1): "timeout"}, "no round 9"),
        ({(0, 1): "timeout"}, "no round 0"),
        ({(1, 1): "afk"}, "unknown kind 'afk'"),
        ({(1, 1): None}, "unknown kind None"),
        ({1: "timeout"}, "(round_number, move_index)"),
        ({(1, "1"): "timeout"}, "(round_number, move_index)"),
        ({(True, 1): "timeout"}, "(round_number, move_index)"),
    ],
)
def test_dumping_a_bad_mark_is_refused(marks: Any, message: str) -> None:
    match, _ = played(Rules(players=2), seed=3, moves=6)
    for write in (match_to_record, dump_record):
        with pytest.raises(ValueError, match=re.escape(message)):
            write(match, marks=marks)


@pytest.fixture(scope="module")
def marked() -> dict[str, Any]:
    match, _ = played(Rules(players=2, target=60), seed=1)
    assert len(match.rounds) >= 3
    return match_to_record(match, marks={(2, 1): "timeout", (2, 3): "stand-in"})


@pytest.mark.parametrize(
    ("marks", "message"),
    [
        (["timeout"], "round 2: 'marks' has the wrong type (list)"),
        ("3", "round 2: 'marks' has the wrong type (str)"),
        ({"0": "timeout"}, "round 2: 'marks' names move “0”, which this round does not have"),
        ({"999": "timeout"}, "round 2: 'marks' names move “999”, which this round does not have"),
        ({"x": "timeout"}, "round 2: 'marks' names move “x”, which this round does not have"),
        ({"01": "timeout"}, "round 2: 'marks' names move “01”, which this round does not have"),
        ({"-1": "timeout"}, "round 2: 'marks' names move “-1”, which this round does not have"),
        ({"1": "afk"}, "round 2, move 1: unknown mark “afk”; known: timeout, stand-in"),
        ({"1": 5}, "round 2, move 1: unknown mark “5”; known: timeout, stand-in"),
        ({"1": None}, "round 2, move 1: unknown mark “None”"),
    ],
)
def test_corrupt_marks_are_refused(marked: dict[str, Any], marks: object, message: str) -> None:
    """A corrupt mark is refused naming the round (and the move) and what is wrong."""
    bad = edited(marked)
    bad["rounds"][1]["marks"] = marks
    assert message in refused(bad)
    with pytest.raises(RecordError, match=re.escape(message)):
        record_marks(bad)


def test_a_mark_past_the_last_move_of_its_round(marked: dict[str, Any]) -> None:
    bad = edited(marked)
    count = len(bad["rounds"][0]["moves"])
    bad["rounds"][0]["marks"] = {str(count): "timeout"}
    assert load_record(bad).scores == marked["scores"]
    bad["rounds"][0]["marks"] = {str(count + 1): "timeout"}
    assert f"round 1: 'marks' names move “{count + 1}”" in refused(bad)


def test_empty_marks_are_accepted(marked: dict[str, Any]) -> None:
    data = edited(marked)
    data["rounds"][0]["marks"] = {}
    assert load_record(data).scores == marked["scores"]
    assert record_marks(data) == {(2, 1): "timeout", (2, 3): "stand-in"}


def test_record_marks_refuses_what_load_record_refuses(marked: dict[str, Any]) -> None:
    for source in ("{", "[]", {**marked, "version": 7}, {**marked, "format": "x"}):
        with pytest.raises(RecordError):
            record_marks(source)  # type: ignore[arg-type]


# -- resignation (version 2, P25) -----------------------------------------------------


def resigned_match(moves: int, seat: int, seed: int = 6) -> Match:
    match, _ = played(Rules(players=2, target=80), seed=seed, moves=moves)
    assert not match.is_over
    match.resign(seat)
    return match


@pytest.mark.parametrize(("moves", "seat"), [(0, 0), (1, 1), (9, 0), (40, 1), (70, 0)])
def test_p25_resignation_round_trip(moves: int, seat: int) -> None:
    """P25, R8: a resigned match is over at once; its record says who resigned and
    loads to the same match, the last round unfinished."""
    match = resigned_match(moves, seat)
    text = dump_record(match, names=["Ana", "Ben"])
    data = json.loads(text)
    assert data["resigned"] == seat and data["winner"] == 1 - seat
    assert list(data)[-3:] == ["winner", "resigned", "names"]
    assert data["rounds"][-1]["result"] is None
    loaded = load_record(text)
    assert_same_match(match, loaded)
    assert loaded.resigned == seat and loaded.winner == 1 - seat and loaded.is_over
    assert loaded.round.result is None and loaded.legal_moves() == []
    assert dump_record(loaded, names=["Ana", "Ben"]) == text
    assert "resigned" in repr(loaded)


def test_p25_resignation_just_after_a_round_ended() -> None:
    match = Match(Rules(players=2, target=500), seed=3)
    first = match.round
    while match.round is first:
        match.play(match.legal_moves()[0])
    match.resign(0)
    data = match_to_record(match)
    assert data["rounds"][-1]["moves"] == [] and data["rounds"][-1]["result"] is None
    assert data["scores"] == match.scores and sum(data["scores"]) > 0
    loaded = load_record(data)
    assert_same_match(match, loaded)
    assert loaded.resigned == 0 and loaded.winner == 1


def test_p25_resignation_with_marks() -> None:
    match = resigned_match(20, 1)
    marks = {(1, 2): "timeout", (match.round_number, 1): "stand-in"}
    if not match.round.moves:
        marks.pop((match.round_number, 1))
    text = dump_record(match, marks=marks)
    assert record_marks(text) == marks
    assert load_record(text).resigned == 1


@pytest.fixture(scope="module")
def resigned() -> dict[str, Any]:
    return match_to_record(resigned_match(15, 1))


#: How a seat index out of range is refused (records count seats from 0).
SEAT_RANGE = "seat must be an index from 0 to 1 (seat 1 is index 0)"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (2, f"record: 'resigned' is “2”: {SEAT_RANGE}, got “2”"),
        (-1, f"record: 'resigned' is “-1”: {SEAT_RANGE}, got “-1”"),
        ("1", f"record: 'resigned' is “1”: {SEAT_RANGE}, got “1”"),
        (True, f"record: 'resigned' is “True”: {SEAT_RANGE}, got “True”"),
        ([1], f"record: 'resigned' is “[1]”: {SEAT_RANGE}"),
    ],
)
def test_corrupt_resigned_is_refused(resigned: dict[str, Any], value: object, message: str) -> None:
    bad = edited(resigned)
    bad["resigned"] = value
    assert message in refused(bad)


def test_resigned_must_agree_with_the_winner(resigned: dict[str, Any]) -> None:
    """The resignation is made after the moves; then 'winner' is checked as always."""
    bad = edited(resigned)
    bad["resigned"] = 0
    assert "record: 'winner' is “0”, replaying gives “1”" in refused(bad)
    bad = edited(resigned)
    del bad["resigned"]
    assert "record: 'winner' is “0”, replaying gives “None”" in refused(bad)
    fine = edited(resigned)
    del fine["winner"]
    assert load_record(fine).winner == 0


def test_resigned_null_means_no_resignation(resigned: dict[str, Any]) -> None:
    data = edited(resigned)
    data["resigned"] = None
    data["winner"] = None
    loaded = load_record(data)
    assert loaded.resigned is None and not loaded.is_over


def test_resigning_a_finished_match_is_refused(finished: dict[str, Any]) -> None:
    """R8: a match that a side has already won cannot be resigned as well."""
    bad = edited(finished)
    bad["version"] = 2
    bad["resigned"] = 1 - bad["winner"]
    assert f"record: 'resigned' is “{bad['resigned']}”: the match is over" in refused(bad)


@pytest.mark.parametrize("players", [3, 4])
def test_resigned_with_more_than_two_players_is_refused(players: int) -> None:
    """P25: only a two-player match can be resigned."""
    match, _ = played(Rules(players=players, target=300), seed=1, moves=10)
    data = match_to_record(match)
    data["resigned"] = 0
    data["winner"] = 1
    assert "record: 'resigned' is “0”: resigning is only for two-player games" in refused(data)


# -- the replay shows marks and the resignation ---------------------------------------


def replay_text(match: Match, marks: dict[tuple[int, int], str]) -> str:
    out = StringIO()
    console = Console(file=out, width=80, color_system=None, force_terminal=False)
    Replayer(match, ["Ana", "Ben"], console=console, marks=marks).run_all()
    return out.getvalue()


def test_replay_shows_marks_and_resignation() -> None:
    match = resigned_match(6, 1, seed=5)
    text = replay_text(match, {(1, 2): "timeout", (1, 4): "stand-in"})
    lines = text.splitlines()
    timeout = [line for line in lines if "(auto-played: time ran out)" in line]
    stand_in = [line for line in lines if "(played by a stand-in)" in line]
    assert len(timeout) == 1 and len(stand_in) == 1
    assert timeout[0].startswith("Ben (seat 2) ") and stand_in[0].startswith("Ben (seat 2) ")
    assert "Ben (seat 2) resigned; Ana (seat 1) wins the match. Scores:" in text
    assert "resigned" not in replay_text(Match(Rules(players=2), seed=5), {})


def test_replay_command_shows_marks(tmp_path: Path) -> None:
    """`passing-game replay FILE` reads the marks from the record."""
    match = resigned_match(6, 0, seed=5)
    path = tmp_path / "game.json"
    path.write_text(dump_record(match, marks={(1, 3): "timeout"}), encoding="utf-8")
    try:
        done = CliRunner().invoke(
            main, ["--lang", "en", "replay", "--all", str(path)], env={"COLUMNS": "80"}
        )
    finally:
        set_language("en")
    assert done.exit_code == 0, done.output
    assert done.output.count("(auto-played: time ran out)") == 1
    assert "Seat 1 resigned; Seat 2 wins the match." in done.output
