"""``passing-game verify RECORD`` and the commitment it checks (issue 26, item 3).

The contract: exit status 0 and a last line starting with ``verified`` for a
record as written; 1 and a last line naming the first thing that does not
hold for a record changed in any way (a seed, a salt, a contribution, the
commitment, a deal, a move, a result, a score); 2 for a file that is not a
record. A record without a commitment (older) verifies its deals (D9: the
seed deals every round) and moves and says it carries none.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("click")

from click.testing import CliRunner

from passing_game import Match, Rules
from passing_game.cli import main
from passing_game.fairness import Fairness, FairnessError, commitment, mixed_seed, moves_digest
from passing_game.records import dump_record, load_record, match_to_record


def finished(seed: int, players: int = 2) -> Match:
    match = Match(Rules(players=players, target=12), seed=seed)
    while not match.is_over:
        moves = match.legal_moves()
        match.play(moves[len(match.round.moves) % len(moves)])
    return match


def fair_record(players: int = 2) -> dict[str, Any]:
    """A finished game dealt from a committed seed with one contribution, as a server
    writes it."""
    fairness = Fairness.new(players).contributed(players - 1, "00ff" * 8)
    match = finished(fairness.seed, players)
    digest = moves_digest([[str(m) for m in r.moves] for r in match.rounds])
    return match_to_record(match, fairness=fairness.to_dict(digest))


def verify(tmp_path: Path, data: Any, raw: bytes | None = None) -> tuple[int, list[str]]:
    path = tmp_path / "game.json"
    path.write_bytes(raw if raw is not None else json.dumps(data).encode())
    done = CliRunner().invoke(main, ["--lang", "en", "verify", str(path)])
    return done.exit_code, done.output.strip().splitlines()


def test_a_record_as_written_verifies(tmp_path: Path) -> None:
    for players in (2, 4):
        data = fair_record(players)
        code, lines = verify(tmp_path, data)
        assert code == 0, lines
        assert lines[-1].startswith("verified") and "1 contribution" in lines[-1]
        assert lines[0] == f"commitment: {data['fairness']['commitment']}"


def test_an_older_record_verifies_its_deals_and_says_it_has_no_commitment(
    tmp_path: Path,
) -> None:
    code, lines = verify(tmp_path, json.loads(dump_record(finished(7))))
    assert code == 0 and lines[-1].startswith("verified")
    assert "no commitment" in lines[-1]


def _set(path: tuple[Any, ...], value: Callable[[Any], Any]) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        place: Any = data
        for key in path[:-1]:
            place = place[key]
        place[path[-1]] = value(place[path[-1]])

    return change


def _other_hex(text: str) -> str:
    return ("1" if text[0] != "1" else "2") + text[1:]


def _swap_first_move(rounds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Another legal first move (the rest of the round then fails, or its digest)."""
    moves = rounds[0]["moves"]
    moves[0] = "draw" if moves[0] != "draw" else "pass"
    return rounds


#: Each kind of change the contract names, and the words that say what no longer holds.
CHANGES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "seed": (_set(("seed",), lambda s: s ^ 1), "seed"),
    "server seed": (_set(("fairness", "server_seed"), _other_hex), "commitment"),
    "salt": (_set(("fairness", "salt"), _other_hex), "commitment"),
    "contribution": (_set(("fairness", "contributions", 1), _other_hex), "seed"),
    "contribution added": (_set(("fairness", "contributions", 0), lambda _c: "ab" * 8), "seed"),
    "commitment": (_set(("fairness", "commitment"), _other_hex), "commitment"),
    "deal": (
        _set(("rounds", 0, "deal", "leader"), lambda leader: 1 - leader),
        "deal is not the one",
    ),
    "move": (_set(("rounds",), _swap_first_move), "round 1"),
    "moves digest": (_set(("fairness", "moves_digest"), _other_hex), "digest"),
    "result": (_set(("rounds", 0, "result", "points"), lambda p: p + 1), "result"),
    "score": (_set(("scores", 0), lambda s: s + 1), "scores"),
    "winner": (_set(("winner",), lambda w: 1 - w), "winner"),
}


@pytest.mark.parametrize("kind", list(CHANGES))
def test_every_kind_of_change_is_caught_and_named(tmp_path: Path, kind: str) -> None:
    data = fair_record()
    changed = copy.deepcopy(data)
    change, words = CHANGES[kind]
    change(changed)
    assert changed != data
    code, lines = verify(tmp_path, changed)
    assert code == 1, lines
    assert lines[-1].startswith("not verified") and words in lines[-1], lines[-1]


def test_another_game_on_the_same_deals_is_caught_by_the_moves_digest(
    tmp_path: Path,
) -> None:
    """A record made up afresh on the committed seed, every move legal and every result
    and score consistent, is still not the game the table showed the digest of."""
    fairness = Fairness.new(2)
    played = finished(fairness.seed)
    digest = moves_digest([[str(m) for m in r.moves] for r in played.rounds])
    other = Match(Rules(players=2, target=12), seed=fairness.seed)
    while not other.is_over:
        other.play(other.legal_moves()[0])
    made_up = match_to_record(other, fairness=fairness.to_dict(digest))
    assert made_up["rounds"] != match_to_record(played)["rounds"]
    code, lines = verify(tmp_path, made_up)
    assert code == 1 and "digest" in lines[-1], lines


@pytest.mark.parametrize(
    "raw",
    [b"not json at all", b"[1, 2, 3]", b'{"rules": {}}', b'{"format": "something-else"}', b""],
)
def test_a_file_that_is_not_a_record_is_refused_with_status_2(tmp_path: Path, raw: bytes) -> None:
    code, lines = verify(tmp_path, None, raw)
    assert code == 2 and "is not a game record" in lines[-1]


def test_a_missing_file_is_status_2(tmp_path: Path) -> None:
    done = CliRunner().invoke(main, ["--lang", "en", "verify", str(tmp_path / "none.json")])
    assert done.exit_code == 2 and "cannot read" in done.output


def test_a_malformed_fairness_is_named(tmp_path: Path) -> None:
    for field, value in (("server_seed", "xyz"), ("salt", 5), ("contributions", [None])):
        data = fair_record()
        data["fairness"][field] = value
        code, lines = verify(tmp_path, data)
        assert code == 1 and field in lines[-1], lines


def test_the_seed_mixes_every_contribution_in_seat_order() -> None:
    server, salt = "0" * 64, "1" * 32
    assert commitment(server, salt) != commitment(server, "2" * 32)
    one = mixed_seed(server, ["a" * 16, None])
    assert one != mixed_seed(server, [None, "a" * 16]) != mixed_seed(server, [None, None])
    assert one == Fairness(server, salt, ("a" * 16, None)).seed < 2**63
    with pytest.raises(FairnessError):
        Fairness.new(2).contributed(0, "not hex")
    with pytest.raises(FairnessError):
        Fairness.new(2).contributed(2, "ab" * 8)


# -- what the writer always writes (the contract: a record changed in any way) -----


def _delete(*path: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        place: Any = data
        for key in path[:-1]:
            place = place[key]
        del place[path[-1]]

    return change


#: Each key a server always writes, deleted, and the words that name it.
DELETIONS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "scores": (_delete("scores"), "'scores' is missing"),
    "winner": (_delete("winner"), "'winner' is missing"),
    "a round's result": (_delete("rounds", 0, "result"), "round 1: 'result' is missing"),
    "a round's locked tiles": (_delete("rounds", 0, "locked"), "'locked' is missing"),
    "a rule": (_delete("rules", "target"), "'target' is missing"),
    "the seed": (_delete("seed"), "seed"),
    "the moves' digest": (_delete("fairness", "moves_digest"), "digest is missing"),
}


@pytest.mark.parametrize("kind", list(DELETIONS))
def test_a_key_the_server_always_writes_deleted_is_not_verified(tmp_path: Path, kind: str) -> None:
    data = fair_record()
    change, words = DELETIONS[kind]
    change(data)
    code, lines = verify(tmp_path, data)
    assert code == 1, lines
    assert lines[-1].startswith("not verified") and words in lines[-1], lines[-1]


def test_scores_and_winner_deleted_together_are_not_verified(tmp_path: Path) -> None:
    """Loading alone checks the scores only when they are there (an older or hand-made
    record may leave them out); verify asks for everything a writer writes."""
    for data in (fair_record(), json.loads(dump_record(finished(7)))):
        del data["scores"], data["winner"]
        code, lines = verify(tmp_path, data)
        assert code == 1 and "'scores' is missing" in lines[-1], lines


def test_another_game_on_the_same_seed_without_its_digest_is_not_verified(
    tmp_path: Path,
) -> None:
    """A made-up game on the committed seed, its digest deleted so that no digest can
    disagree: a finished game's record always carries one (P51)."""
    fairness = Fairness.new(2)
    other = Match(Rules(players=2, target=12), seed=fairness.seed)
    while not other.is_over:
        other.play(other.legal_moves()[0])
    made_up = match_to_record(other, fairness=fairness.to_dict())
    assert "moves_digest" not in made_up["fairness"]
    code, lines = verify(tmp_path, made_up)
    assert code == 1 and "digest is missing" in lines[-1], lines


def test_a_game_under_way_may_have_no_digest_yet(tmp_path: Path) -> None:
    fairness = Fairness.new(2)
    match = Match(Rules(players=2, target=12), seed=fairness.seed)
    for _ in range(3):
        match.play(match.legal_moves()[0])
    code, lines = verify(tmp_path, match_to_record(match, fairness=fairness.to_dict()))
    assert code == 0 and lines[-1].startswith("verified"), lines


def test_a_record_whose_commitment_was_deleted_says_the_deal_is_not_proven(
    tmp_path: Path,
) -> None:
    """Without a signature a record stripped of ``fairness`` cannot be told from an
    older one: verify says plainly that nothing proves its deals, and the commitment
    the table showed (``--commitment``) catches it."""
    data = fair_record()
    shown = data["fairness"]["commitment"]
    stripped = copy.deepcopy(data)
    del stripped["fairness"]
    code, lines = verify(tmp_path, stripped)
    assert code == 0 and lines[-1].startswith("verified")
    assert "no commitment" in lines[-1] and "nothing proves" in lines[-1]
    path = tmp_path / "given.json"
    for record, given, status, words in (
        (stripped, shown, 1, "carries no commitment, and the table showed one"),
        (data, shown, 0, "verified: the commitment"),
        (data, _other_hex(shown), 1, "not the one the table showed"),
        (data, shown.upper(), 0, "verified: the commitment"),
        (data, shown[:12] + "…", 0, "verified: the commitment"),  # as the table shows it
        (data, _other_hex(shown)[:12], 1, "not the one the table showed"),
    ):
        path.write_text(json.dumps(record))
        done = CliRunner().invoke(
            main, ["--lang", "en", "verify", "--commitment", given, str(path)]
        )
        assert done.exit_code == status, done.output
        assert words in done.output.strip().splitlines()[-1], done.output
    for wrong in ("xyz", shown[:11]):
        bad = CliRunner().invoke(main, ["--lang", "en", "verify", "--commitment", wrong, str(path)])
        assert bad.exit_code == 2 and "12 to 64 hexadecimal digits" in bad.output


def test_a_daily_deals_and_a_practice_games_records_verify_without_a_winner(
    tmp_path: Path,
) -> None:
    """The web app writes these two without ``winner`` (their match ends after its
    rounds, not at the target); what they say of their end is checked instead."""
    pytest.importorskip("starlette")
    from passing_game.web.daily import DAILY_ROUNDS, RoundsMatch, daily_record, daily_rules
    from passing_game.web.practice.model import practice_match, practice_record

    daily = RoundsMatch(daily_rules(), seed=21)
    practice = practice_match(Rules(players=2), 5, None)
    for match in (daily, practice):
        while not match.is_over:
            match.play(match.legal_moves()[0])
    day = json.loads(daily_record(dump_record(daily)))
    drill = json.loads(practice_record(dump_record(practice)))
    assert "winner" not in day and day["daily"] == {"rounds": DAILY_ROUNDS}
    for data in (day, drill):
        code, lines = verify(tmp_path, data)
        assert code == 0 and lines[-1].startswith("verified"), lines
        no_scores = copy.deepcopy(data)
        del no_scores["scores"]
        code, lines = verify(tmp_path, no_scores)
        assert code == 1 and "'scores' is missing" in lines[-1], lines
    short = copy.deepcopy(day)
    short["rounds"].pop()
    del short["scores"]
    short["scores"] = list(load_record(short).scores)  # consistent but for its end
    code, lines = verify(tmp_path, short)
    assert code == 1 and "ended after its rounds" in lines[-1], lines
    # A finished game's record passed off as a daily deal's, its winner deleted.
    normal = json.loads(dump_record(finished(7)))
    del normal["winner"]
    normal["daily"] = {"rounds": len(normal["rounds"])}
    code, lines = verify(tmp_path, normal)
    assert code == 1 and "ended after its rounds" in lines[-1], lines
