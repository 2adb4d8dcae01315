"""Game records: export, load, replay, and refusal of bad records."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

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
from passing_game.records import RECORD_FORMAT, record_names

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
    assert record["version"] == RECORD_VERSION == 1
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


@pytest.mark.parametrize("version", [2, 0, "1", None, 99])
def test_unknown_version(finished: dict[str, Any], version: object) -> None:
    bad = edited(finished)
    bad["version"] = version
    message = refused(bad)
    assert "version" in message and repr(version) in message


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
    assert "round 1, move 3" in message and "'jump'" in message
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
