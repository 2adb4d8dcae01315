"""Tournaments in the store, on SQLite and PostgreSQL (issue 26, item 1; P54).

Every game here is a real match played to its end by bots through the
engine, from the seed the stored table was given, and kept as the server
keeps it (``Store.finish_game``); the standings are then checked against a
replay of the stored records.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from passing_game import Match, Rules, load_record
from passing_game.bots import make
from passing_game.fairness import Fairness
from passing_game.records import dump_record
from passing_game.web.store import Store
from passing_game.web.tournament import director, parts
from passing_game.web.tournament.model import TournamentError
from tournament_helpers import NOW, new_event, play_out
from web_helpers import either_store


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    yield from either_store(request.param, tmp_path, "tour")


def test_a_swiss_pairs_round_by_round_and_its_standings_replay(store: Store) -> None:
    """Five people, three rounds: two tables and a bye a round, nobody twice at one
    table, and points that a replay of the stored records gives again."""
    tid = new_event(store, "swiss", rounds=3, clock="20")
    people = [f"u-{n}" for n in ("ana", "bo", "cy", "di", "ed")]
    for i, who in enumerate(people):
        assert director.join(store, tid, who, who[2:].title(), NOW + i)
    assert director.advance(store, tid, NOW) == []  # not started yet
    pairs: list[frozenset[str]] = []
    for number in (1, 2, 3):
        made = director.advance(store, tid, NOW + 60 + number)
        assert len(made) == 2, number
        assert director.advance(store, tid, NOW + 61 + number) == []  # being played
        seen = director.state(store, tid, "u-ana", NOW)
        assert seen["round"] == number and seen["status"] == "running"
        assert "seed" not in seen["settings"]  # secret while it runs
        for code in made:
            table = store.load_table(code)
            assert table is not None and table.origin == director.ORIGIN
            assert table.clock == {"move": 20, "bank": 40}
            users = [s.user_id for s in table.seats]
            assert all(s.kind == "human" for s in table.seats) and None not in users
            pairs.append(frozenset(u for u in users if u is not None))
            play_out(store, code)
        byes = [t for t in seen["tables"] if t.get("bye") and t["round"] == number]
        assert len(byes) == 1
    assert len(set(pairs)) == len(pairs) == 6
    assert director.advance(store, tid, NOW + 100) == []
    final = director.state(store, tid, None, NOW + 100)
    assert final["status"] == "finished" and "seed" in final["settings"]
    # The replay: each record's scores, read again through the engine.
    replayed: dict[str, int] = dict.fromkeys([n[2:].title() for n in people], 0)
    for table in final["tables"]:
        if table.get("bye"):
            replayed[table["seats"][0]] += 2
            continue
        match = load_record(store.game_record(table["code"], 1) or "")
        a, b = table["seats"]
        if match.scores[0] == match.scores[1]:
            replayed[a] += 1
            replayed[b] += 1
        else:
            replayed[a if match.scores[0] > match.scores[1] else b] += 2
    assert {line["name"]: line["points"] for line in final["standings"]} == replayed
    assert sum(line["byes"] for line in final["standings"]) == 3
    with pytest.raises(TournamentError, match="over"):
        director.join(store, tid, "u-fay", "Fay", NOW + 200)


def test_a_duplicate_round_deals_the_same_cards_at_every_table(store: Store) -> None:
    """Every table of a round has one seed and one commitment; a short table gets a bot."""
    tid = new_event(store, "duplicate", rounds=2)
    for i, who in enumerate(["u-a", "u-b", "u-c", "u-d", "u-e"]):
        director.join(store, tid, who, who, NOW + i)
    made = director.advance(store, tid, NOW + 60)
    assert len(made) == 3
    tables = [store.load_table(code) for code in made]
    assert len({t.seed for t in tables if t is not None}) == 1
    secrets = {t.fairness for t in tables if t is not None}
    assert len(secrets) == 1 and None not in secrets
    shared = json.loads(secrets.pop() or "")
    # One deal for the round: no person's part is mixed into it (P51, P54).
    assert shared["contributions"] == [None, None] and "deal_waits_until" not in shared
    kinds = sorted(tuple(s.kind for s in t.seats) for t in tables if t is not None)
    assert kinds == [("human", "bot"), ("human", "human"), ("human", "human")]
    for code in made:
        play_out(store, code)
    second = director.advance(store, tid, NOW + 61)
    seeds = {t.seed for t in (store.load_table(c) for c in second) if t is not None}
    assert len(seeds) == 1 and seeds != {tables[0].seed if tables[0] else 0}
    fair = parts.round_fairness(director.event(store, tid), 1)
    assert isinstance(fair, Fairness) and fair.seed == (tables[0].seed if tables[0] else 0)


def test_a_duplicates_deals_mix_every_persons_part_and_check_out_at_its_end(
    store: Store,
) -> None:
    """P55: the round's server seed is the tournament's committed secret with every
    person's part; at the end the page reveals them and recomputes it; a part or a
    commitment changed does not hold."""
    tid = new_event(store, "duplicate", rounds=1)
    event = director.event(store, tid)
    opening = director.state(store, tid, None, NOW)
    assert opening["fairness"] == {"commitment": parts.commitment(event)}
    assert len(opening["fairness"]["commitment"]) == 64 and "secret" not in opening["settings"]
    given = {"u-a": "aa" * 8, "u-b": "bb" * 8, "u-c": None, "u-d": "dd" * 8}
    for i, (who, part) in enumerate(given.items()):
        director.join(store, tid, who, who, NOW + i, part)
    director.join(store, tid, "u-a", "u-a", NOW + 5, "ee" * 8)  # in already: the first part stays
    made = director.advance(store, tid, NOW + 60)
    mixed = ["aa" * 8, "bb" * 8, "dd" * 8]
    expected = parts.round_fairness(event, 1, mixed)
    assert parts.round_fairness(event, 1, ["aa" * 8, "bb" * 8, "de" * 8]).seed != expected.seed
    for code in made:
        table = store.load_table(code)
        assert table is not None and table.seed == expected.seed
        fair = Fairness.from_dict(json.loads(table.fairness or ""), 2)
        assert fair == expected  # one deal at every table, no per-table part (P51)
        match = Match(Rules.from_dict(table.rules), table.seed)
        bots = [make("greedy", seed=f"{code}/{s}") for s in range(2)]
        while not match.is_over:
            seat = match.to_move
            assert seat is not None
            match.play(bots[seat].choose(match.view(seat)))
        store.finish_game(code, 1, dump_record(match, fairness=fair.to_dict()))
    assert director.advance(store, tid, NOW + 61) == []
    over = director.state(store, tid, None, NOW + 62)
    shown = over["fairness"]
    assert over["status"] == "finished" and shown["verified"] is True and shown["problem"] is None
    assert shown["secret"] == event.secret == over["settings"]["secret"]
    assert shown["rounds"] == [{"number": 1, "parts": mixed}]
    # What a changed part, or a commitment other than the one shown, says.
    changed = parts.check(event, shown["commitment"], {1: (["aa" * 8], expected.server_seed)})
    assert changed is not None and "Round 1" in changed
    other = parts.check(event, "0" * 64, {1: (mixed, expected.server_seed)})
    assert other is not None and "commitment" in other


def test_an_arena_pairs_whoever_is_free_and_stops_at_its_end(store: Store) -> None:
    tid = new_event(store, "arena", minutes=5)
    for i, who in enumerate(["u-a", "u-b", "u-c"]):
        director.join(store, tid, who, who, NOW + i)
    first = director.advance(store, tid, NOW + 60)
    assert len(first) == 1  # two play, one waits
    made = store.load_table(first[0])
    # An arena's deal waits for its people's parts (P51; web/game/dealing.py).
    assert made is not None and json.loads(made.fairness or "")["deal_waits_until"] is None
    director.set_entry(store, tid, "u-c", withdrawn=False, paused=True)
    play_out(store, first[0])
    again = director.advance(store, tid, NOW + 70)
    assert len(again) == 1  # the same two again: the third is paused
    director.set_entry(store, tid, "u-c", withdrawn=False, paused=False)
    play_out(store, again[0])
    third = director.advance(store, tid, NOW + 80)
    table = store.load_table(third[0])
    assert table is not None and "u-c" in {s.user_id for s in table.seats}
    play_out(store, third[0])
    assert director.advance(store, tid, NOW + 60 + 5 * 60) == []
    assert director.state(store, tid, None, NOW + 400)["status"] == "finished"


def test_two_processes_advancing_at_once_seat_everyone_once(store: Store) -> None:
    """Pairing holds the tournaments' lock: eight calls at once make two tables."""
    tid = new_event(store, "swiss", rounds=1)
    for i in range(4):
        director.join(store, tid, f"u-{i}", f"P{i}", NOW + i)
    with ThreadPoolExecutor(8) as pool:
        made = list(pool.map(lambda _: director.advance(store, tid, NOW + 60), range(8)))
    assert sorted(len(m) for m in made) == [0] * 7 + [2]


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("swiss", "object of named values"),
        ({"kind": "swiss"}, "name of 1 to 60"),
        ({"kind": "swiss", "name": "S", "colour": "red"}, "Unknown setting: colour"),
        ({"kind": "swiss", "name": "S", "rounds": "3"}, "rounds has the wrong type"),
        ({"kind": "swiss", "name": "S", "rated": 1}, "rated has the wrong type"),
        ({"kind": "swiss", "name": "S", "clock": "5"}, "clock is one of 20, 45, 90"),
        ({"kind": "swiss", "name": "S", "starts": NOW + 90 * 86400}, "within 30 days"),
        ({"kind": "ko", "name": "S"}, "one of arena, swiss, duplicate"),
    ],
)
def test_bad_settings_are_refused_with_what_is_wrong(given: object, says: str) -> None:
    with pytest.raises(TournamentError, match=says):
        director.parse_settings(given, creator="u", now=NOW)


def test_a_withdrawn_person_is_not_paired_and_a_stranger_cannot_withdraw(store: Store) -> None:
    tid = new_event(store, "swiss", rounds=2)
    for i in range(3):
        director.join(store, tid, f"u-{i}", f"P{i}", NOW + i)
    director.set_entry(store, tid, "u-2", withdrawn=True, paused=False)
    made = director.advance(store, tid, NOW + 60)
    assert len(made) == 1
    seen = director.state(store, tid, "u-2", NOW + 60)
    assert not seen["joined"] and not any(t.get("bye") for t in seen["tables"])
    with pytest.raises(TournamentError, match="not in this tournament"):
        director.set_entry(store, tid, "u-9", withdrawn=True, paused=False)
    with pytest.raises(TournamentError, match="no such tournament"):
        director.join(store, "nope", "u-1", "P1", NOW)


def test_its_creator_starts_it_early_and_nobody_else(store: Store) -> None:
    tid = new_event(store, "swiss", rounds=1)  # starts at NOW + 60
    for i in range(2):
        director.join(store, tid, f"u-{i}", f"P{i}", NOW + i)
    assert director.advance(store, tid, NOW + 10) == []
    with pytest.raises(TournamentError, match="Only the tournament's creator"):
        director.start_now(store, tid, "u-1", NOW + 10)
    director.start_now(store, tid, "u-ana", NOW + 10)
    assert director.event(store, tid).starts == NOW + 10
    assert len(director.advance(store, tid, NOW + 11)) == 1
    with pytest.raises(TournamentError, match="started already"):
        director.start_now(store, tid, "u-ana", NOW + 12)


def test_a_tournament_may_ask_for_a_share_of_games_finished(store: Store) -> None:
    """Issue 26, item 4: below the minimum, refused; no counted game yet, in (P54)."""
    from passing_game.web.store import NewTable, SeatRow

    match = Match(Rules(players=2, target=10), seed=3)
    while not match.is_over:
        match.play(match.legal_moves()[0])
    last = max(
        (number, index)
        for number, rnd in enumerate(match.rounds, start=1)
        for index, turn in enumerate(rnd.history, start=1)
        if turn.seat == 0
    )
    seats = (SeatRow(0, "human", "Lea", user_id="u-left"), SeatRow(1, "bot", "easy", "easy"))
    store.create_table(NewTable("LEFT22", {"players": 2, "target": 10}, 3, seats, created=NOW))
    store.finish_game("LEFT22", 1, dump_record(match, marks={last: "stand-in"}))
    tid = new_event(store, "swiss", min_finished=0.5)
    with pytest.raises(TournamentError, match="asks for 50 %, you have 0 %"):
        director.join(store, tid, "u-left", "Lea", NOW)
    assert director.join(store, tid, "u-new", "Neo", NOW)
    assert [e["name"] for e in director.state(store, tid, None, NOW)["standings"]] == ["Neo"]


def test_an_account_has_at_most_three_open_and_a_deserted_one_is_called_off(
    store: Store,
) -> None:
    """Bad input never costs the site: the poll reads only what is due, an account
    keeps at most MOST_OPEN tournaments open, one nobody came to ends (P54)."""
    ids = [new_event(store, "swiss") for _ in range(director.MOST_OPEN)]
    with pytest.raises(TournamentError, match="3 tournaments that are not over"):
        new_event(store, "swiss")
    public = director.parse_settings(
        {"kind": "swiss", "name": "Weekly", "starts": NOW + 60}, creator="admin:mod",
        now=NOW, public=True,
    )  # fmt: skip
    director.create(store, public, NOW)  # a moderator's are not counted
    assert director.due(store, NOW) == []  # none has started: nothing to pair
    assert sorted(director.due(store, NOW + 60)) == sorted([*ids, public.id])
    director.join(store, ids[0], "u-ana", "Ana", NOW)
    assert director.advance(store, ids[0], NOW + 3600) == []  # alone: it waits
    later = NOW + 60 + director.CALLED_OFF_AFTER + 1
    assert director.advance(store, ids[0], later) == []
    assert director.state(store, ids[0], None, later)["status"] == "finished"
    assert ids[0] not in director.due(store, later)
    new_event(store, "swiss")  # room for another
