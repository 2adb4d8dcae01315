"""Tournament standings and pairing, pure (issue 26, item 1; P54)."""

from __future__ import annotations

import itertools

import pytest

from passing_game.web.tournament.model import (
    Entry,
    Event,
    Game,
    TournamentError,
    standings,
)
from passing_game.web.tournament.pairing import arena, seat_order, swiss, tables

PEOPLE = ["ana", "bo", "cy", "di"]


def entries(names: list[str]) -> list[Entry]:
    return [Entry(n, n.title(), joined=i) for i, n in enumerate(names)]


def test_a_small_duplicate_event_ranks_as_computed_by_hand() -> None:
    """Four people, three rounds, every table of a round on the round's deals.

    By hand (margin = own side's points minus the other's):
    round 1, seat 1's cards: ana +71, cy +21 -> ana 2, cy 0; seat 2's: bo -71,
    di -21 -> di 2, bo 0. Round 2 (seats turned), seat 1's: cy -51, di +11 ->
    di 2; seat 2's: ana +51, bo -11 -> ana 2. Round 3, equal margins at both
    tables: 1 each. Matchpoints: ana 5, di 5, bo 1, cy 1, each of 6.
    A bot's seat is compared with nobody.
    """
    event = Event("t1", "duplicate", "Cup", rounds=3, seed=11)
    games = [
        Game("AAAAAA", 1, ("ana", "bo"), points=(101, 30)),
        Game("BBBBBB", 1, ("cy", "di"), points=(101, 80)),
        Game("CCCCCC", 2, ("cy", "ana"), points=(50, 101)),
        Game("DDDDDD", 2, ("di", "bo"), points=(101, 90)),
        Game("EEEEEE", 3, ("ana", "bo"), points=(101, 50)),
        Game("FFFFFF", 3, ("cy", "di"), points=(101, 50)),
        Game("GGGGGG", 3, (None, None), points=(0, 101)),  # bots alone: nobody's
    ]
    table = standings(event, entries(PEOPLE), games)
    got = {s.user_id: (s.points, s.tiebreak, s.rank) for s in table}
    assert got == {
        "ana": (5, 83.3, 1),
        "di": (5, 83.3, 1),
        "bo": (1, 16.7, 3),
        "cy": (1, 16.7, 3),
    }
    assert [s.user_id for s in table] == ["ana", "di", "bo", "cy"]


def test_duplicate_seats_turn_with_the_round() -> None:
    # Over the rounds each person holds every seat of their table's cards.
    assert {seat_order(("a", "b", "c", "d"), n)[0] for n in range(1, 5)} == {"a", "b", "c", "d"}


def test_a_forfeit_loses_whatever_the_scores_say_and_is_counted() -> None:
    event = Event("t", "swiss", "S")
    game = Game("X", 1, ("ana", "bo"), points=(120, 10), forfeited=frozenset({"ana"}))
    lines = {s.user_id: s for s in standings(event, entries(["ana", "bo"]), [game])}
    assert (lines["ana"].points, lines["ana"].forfeits) == (0, 1)
    assert (lines["bo"].points, lines["bo"].forfeits) == (2, 0)
    # In a duplicate, a forfeited margin is below every played one.
    dup = Event("d", "duplicate", "D")
    other = Game("Y", 1, ("cy", "di"), points=(0, 150))
    mp = {s.user_id: s.points for s in standings(dup, entries(PEOPLE), [game, other])}
    assert mp["ana"] == 0 and mp["cy"] == 2


def test_partnership_results_go_to_both_partners() -> None:
    """Four at a table: seats 1+3 against 2+4 (R1.4, D6)."""
    event = Event("t", "arena", "A", size=4)
    game = Game("X", 1, ("ana", "bo", "cy", "di"), points=(101, 70))
    lines = {s.user_id: s.points for s in standings(event, entries(PEOPLE), [game])}
    assert lines == {"ana": 2, "cy": 2, "bo": 0, "di": 0}


def test_an_arena_streak_doubles_points_from_the_third_win() -> None:
    event = Event("t", "arena", "A")
    results = [(101, 0), (101, 0), (101, 0), (50, 50), (101, 0), (0, 101), (101, 0)]
    games = [Game(f"G{i}", i, ("ana", "bo"), started=i, points=p) for i, p in enumerate(results)]
    line = next(s for s in standings(event, entries(["ana", "bo"]), games) if s.user_id == "ana")
    # win 2, win 2, win on a streak 4, a tie on a streak 2, win 2, loss 0, win 2
    assert line.scored == [2, 2, 4, 2, 2, 0, 2]
    assert line.points == 14 and line.wins == 5


def test_a_swiss_never_pairs_two_people_twice_while_it_can_be_helped() -> None:
    """Six people, five rounds: everyone meets everyone once; the better rank wins."""
    event = Event("t", "swiss", "S", rounds=5)
    names = [f"p{i}" for i in range(6)]
    people = entries(names)
    games: list[Game] = []
    for number in range(1, 6):
        lines = standings(event, people, games)
        met = {s.user_id: set(s.met) for s in lines}
        made, bye = swiss([s.user_id for s in lines], 2, met, byes=set())
        assert bye is None
        for a, b in made:
            games.append(Game(f"{number}{a}{b}", number, (a, b), points=(101, 0)))
    pairs = [frozenset(g.seats) for g in games]
    assert len(pairs) == len(set(pairs)) == 15
    final = standings(event, people, games)
    assert sum(s.points for s in final) == 15 * 2
    assert all(s.games == 5 for s in final)


def test_a_swiss_bye_goes_to_the_lowest_without_one_and_scores_a_win() -> None:
    event = Event("t", "swiss", "S")
    made, bye = swiss(["a", "b", "c"], 2, {}, byes={"c"})
    assert (made, bye) == ([("a", "c")], "b")
    lines = {s.user_id: s for s in standings(event, entries(["a", "b"]), [Game("", 1, ("b",))])}
    assert (lines["b"].points, lines["b"].byes, lines["b"].games) == (2, 1, 0)


def test_tables_of_four_avoid_repeated_tablemates() -> None:
    people = [f"p{i}" for i in range(8)]
    first = tables(people, 4, {})
    assert first == [tuple(people[:4]), tuple(people[4:])]
    met: dict[str, set[str]] = {}
    for table in first:
        for a, b in itertools.permutations(table, 2):
            met.setdefault(a, set()).add(b)
    again = tables(people, 4, met)
    repeats = sum(1 for t in again for a, b in itertools.combinations(t, 2) if b in met[a])
    assert repeats == 4  # the fewest: two of each old table at each new one


def test_an_arena_pairs_full_tables_and_avoids_the_last_opponent() -> None:
    assert arena(["a", "b", "c"], 2, {"a": "b", "b": "a"}) == [("a", "c")]
    assert arena(["a"], 2, {}) == []
    assert arena(["a", "b", "c"], 4, {}) == []


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"kind": "knockout"}, "one of arena, swiss, duplicate"),
        ({"size": 3}, "seat 2 people, or 4"),
        ({"rounds": 0}, "1 to 15 rounds"),
        ({"minutes": 1}, "5 to 240 minutes"),
        ({"target": 5}, "10 to 500 points"),
        ({"min_finished": 2.0}, "between 0 and 1"),
    ],
)
def test_settings_a_tournament_cannot_have_are_refused(
    settings: dict[str, object], says: str
) -> None:
    fields = {"id": "t", "kind": "swiss", "name": "S", **settings}
    with pytest.raises(TournamentError, match=says):
        Event(**fields)  # type: ignore[arg-type]
