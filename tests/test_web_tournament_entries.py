"""Who takes part in a tournament, in the store, on SQLite and PostgreSQL (issue 26,
item 1; P54, P65).

- computer players as entrants: paired with people, never with bots alone,
  seated as the table's bots of their level, ranked as anyone, and their
  tables never rated;
- a person who joins late is paired from the next round (Swiss) or the next
  pairing (arena), never into a round already made;
- four a table in partnerships: the tables of a Swiss round, a short one filled
  with bots, and standings that a replay of the stored records gives again,
  partners scoring alike.

Every game is a real match played out by bots from the stored table's seed and
kept as the server keeps it (``tournament_helpers.play_out``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from passing_game.web.store import Store
from passing_game.web.tournament import director
from passing_game.web.tournament.model import TournamentError
from tournament_helpers import NOW, new_event, play_out, replayed_points
from web_helpers import either_store


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    yield from either_store(request.param, tmp_path, "tentry")


def seated(store: Store, code: str) -> list[tuple[str, str | None, str | None]]:
    """Each seat of a stored table: its kind, its bot's level, its account."""
    table = store.load_table(code)
    assert table is not None
    return [(s.kind, s.level, s.user_id) for s in table.seats]


def test_computer_players_are_paired_with_people_and_ranked_as_anyone(store: Store) -> None:
    """Three people and two easy bots in a rated Swiss of two rounds: two tables a
    round and the lowest ranked bot sitting out (no bye: a bot needs no free win),
    no table of bots alone, each bot at the table as a bot of its level, its tables
    unrated, and standings a replay of the records gives."""
    tid = new_event(store, "swiss", rounds=2, rated=True, bots=2, bot_level="easy")
    for i, who in enumerate(["u-ana", "u-bo", "u-cy"]):
        director.join(store, tid, who, who[2:].title(), NOW + i)
    opening = director.state(store, tid, None, NOW)
    bots = [line["name"] for line in opening["standings"] if line["bot"]]
    assert bots == ["Easy bot A", "Easy bot B"]  # entrants from the start, named as tables do
    for number in (1, 2):
        made = director.advance(store, tid, NOW + 60 + number)
        assert len(made) == 2, number
        for code in made:
            seats = seated(store, code)
            people = [u for kind, _level, u in seats if kind == "human"]
            assert people, f"a table of bots alone: {seats}"
            for kind, level, user in seats:
                assert kind == "human" or (level == "easy" and user is None)
            table = store.load_table(code)
            assert table is not None and table.rated == (len(people) == 2)
            play_out(store, code)
    assert director.advance(store, tid, NOW + 70) == []
    final = director.state(store, tid, None, NOW + 70)
    assert final["status"] == "finished"
    lines = {line["name"]: line for line in final["standings"]}
    assert {name for name, line in lines.items() if line["bot"]} == set(bots)
    assert sum(line["games"] for line in lines.values() if line["bot"]) == 2  # one a round
    assert all(line["games"] == 2 for line in lines.values() if not line["bot"])
    assert {name: line["points"] for name, line in lines.items()} == replayed_points(store, final)
    assert sum(line["byes"] for line in final["standings"]) == 0


def test_only_bots_left_end_a_swiss_and_bots_alone_never_start_one(store: Store) -> None:
    tid = new_event(store, "swiss", rounds=3, bots=3, bot_level="easy")
    assert director.advance(store, tid, NOW + 61) == []  # three bots, no person: it waits
    director.join(store, tid, "u-ana", "Ana", NOW)
    made = director.advance(store, tid, NOW + 62)
    # One person and three bots: one table (Ana and the best ranked bot), the others sit out.
    assert len(made) == 1 and [k for k, _l, _u in seated(store, made[0])] == ["human", "bot"]
    play_out(store, made[0])
    director.set_entry(store, tid, "u-ana", withdrawn=True, paused=False)
    assert director.advance(store, tid, NOW + 63) == []
    assert director.state(store, tid, None, NOW + 63)["status"] == "finished"


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ({"bots": 9}, "0 to 8 computer players"),
        ({"bots": 1, "bot_level": "god"}, "easy, medium, hard, expert"),
        ({"bots": "2"}, "bots has the wrong type"),
    ],
)
def test_bad_bot_settings_are_refused(given: dict[str, object], says: str) -> None:
    with pytest.raises(TournamentError, match=says):
        director.parse_settings({"kind": "arena", "name": "A", **given}, creator="u", now=NOW)


def test_a_late_joiner_is_paired_from_the_next_swiss_round(store: Store) -> None:
    tid = new_event(store, "swiss", rounds=2)
    for i, who in enumerate(["u-ana", "u-bo"]):
        director.join(store, tid, who, who[2:].title(), NOW + i)
    first = director.advance(store, tid, NOW + 61)
    assert len(first) == 1
    assert director.join(store, tid, "u-cy", "Cy", NOW + 62)  # after round 1 was made
    assert director.advance(store, tid, NOW + 63) == []  # round 1 is played: Cy waits
    during = director.state(store, tid, "u-cy", NOW + 63)
    assert during["joined"] and during["yours"] is None
    cy = next(line for line in during["standings"] if line["name"] == "Cy")
    assert cy["games"] == 0 and cy["points"] == 0 and cy["byes"] == 0
    assert all("Cy" not in t["seats"] for t in during["tables"])
    play_out(store, first[0])
    second = director.advance(store, tid, NOW + 64)
    assert len(second) == 1
    after = director.state(store, tid, "u-cy", NOW + 64)
    round_two = [t for t in after["tables"] if t["round"] == 2]
    assert any("Cy" in t["seats"] for t in round_two)  # at the table or the bye: counted
    play_out(store, second[0])
    director.advance(store, tid, NOW + 65)
    final = director.state(store, tid, None, NOW + 65)
    assert final["status"] == "finished"
    points = {line["name"]: line["points"] for line in final["standings"]}
    assert points == replayed_points(store, final)


def test_a_late_joiner_is_paired_at_the_arenas_next_pairing(store: Store) -> None:
    tid = new_event(store, "arena", minutes=30)
    for i, who in enumerate(["u-ana", "u-bo"]):
        director.join(store, tid, who, who[2:].title(), NOW + i)
    first = director.advance(store, tid, NOW + 61)
    assert len(first) == 1
    director.join(store, tid, "u-cy", "Cy", NOW + 62)
    assert director.advance(store, tid, NOW + 63) == []  # alone while the others play
    played = play_out(store, first[0])
    again = director.advance(store, tid, NOW + 64)
    assert len(again) == 1
    users = [u for _k, _l, u in seated(store, again[0])]
    assert "u-cy" in users  # paired as soon as someone was free
    before = [u for _k, _l, u in seated(store, first[0])]
    winner = before[played.scores.index(max(played.scores))]
    assert played.scores[0] == played.scores[1] or winner in users  # the best ranked first


def test_four_a_table_in_partnerships_through_the_store(store: Store) -> None:
    """Six people, four a table in two partnerships (seats 1 and 3 against 2 and 4),
    two Swiss rounds: a full table and a short one filled with bots each round, the
    tables' rules in partnerships, partners scoring alike, and standings that a
    replay of the stored records gives again (R8: a side's points)."""
    tid = new_event(store, "swiss", rounds=2, size=4, target=20)
    people = ["u-ana", "u-bo", "u-cy", "u-di", "u-ed", "u-fay"]
    for i, who in enumerate(people):
        director.join(store, tid, who, who[2:].title(), NOW + i)
    for number in (1, 2):
        made = director.advance(store, tid, NOW + 60 + number)
        assert len(made) == 2, number
        kinds = sorted(tuple(k for k, _l, _u in seated(store, c)) for c in made)
        assert kinds == [("human", "human", "bot", "bot"), ("human",) * 4]
        for code in made:
            table = store.load_table(code)
            assert table is not None and table.rules["partnerships"] is True
            assert table.rules["players"] == 4
            match = play_out(store, code)
            assert len(match.scores) == 2  # one score a side
    director.advance(store, tid, NOW + 70)
    final = director.state(store, tid, None, NOW + 70)
    assert final["status"] == "finished"
    points = {line["name"]: line["points"] for line in final["standings"]}
    assert points == replayed_points(store, final)
    lines = {line["name"]: line for line in final["standings"]}
    assert all(line["games"] == 2 for line in lines.values())  # everyone plays every round
    for table in final["tables"]:
        for seat in (0, 1):  # partners (seats 1 and 3, 2 and 4) scored the game alike
            pair = [table["seats"][seat], table["seats"][seat + 2]]
            if None not in pair:
                a, b = (lines[name]["scored"][table["round"] - 1] for name in pair)
                assert a == b, (table, pair)
