"""Ratings, the leaderboards and "My games" (issue 13, items 3 and 5; P30), in process.

Two accounts play a rated two-player match over the real WebSocket protocol:
both ratings change (the winner's up, the loser's down), the last frame shows
the change, the leaderboard ranks them, and each one's history lists the
match with its rating change and its replay link. A player who leaves or
resigns loses; a game is rated once however often its end is handled; the
standings of teams and of players who left; a game taken out of the ratings.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("openskill")

from starlette.testclient import TestClient

from passing_game.rules import Rules
from passing_game.web import admin
from passing_game.web.accounts.flows import Accounts
from passing_game.web.history import games_of
from passing_game.web.http.app import create_app
from passing_game.web.ratings import service as ratings
from passing_game.web.ratings.service import (
    MU,
    SIGMA,
    Outcome,
    display,
    outcome_of,
    rate_game,
    replay,
)
from passing_game.web.store import SeatRow, SqliteStore, Store
from site_helpers import PASSWORD, Site
from web_helpers import Player, blocking, either_store, time_limit


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    made = SqliteStore(tmp_path / "ratings.sqlite3")
    yield made
    made.close()


@pytest.fixture
def app_and_site(store: SqliteStore) -> Iterator[tuple[Any, Site]]:
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(120), TestClient(app) as client:
        yield app, Site(client)


@pytest.fixture
def site(app_and_site: tuple[Any, Site]) -> Site:
    return app_and_site[1]


def rated_table(ana: Player, ben: Player, **rules: Any) -> str:
    ana.send(
        type="create",
        name="Ana",
        seats=["you", "person"],
        rules={"players": 2, "target": 1, **rules},
        rated=True,
    )
    code = str(ana.until(lambda f: f["type"] == "joined")["table"])
    ben.send(type="join", code=code, name="Ben")
    ben.until(lambda f: f["type"] == "joined")
    return code


def each_moves_once(ana: Player, ben: Player) -> None:
    """Each person makes one move of their own (a game in which a person never
    moved is not rated, issue 22)."""
    people = [ana, ben]
    first = ana.until(lambda f: f["type"] == "state" and f["started"])
    mover = first["round"]["to_move"]
    for seat in (mover, 1 - mover):
        frame = people[seat].my_turn()
        people[seat].act(frame["round"]["legal"][0])


def play_both(ana: Player, ben: Player) -> tuple[dict[str, Any], dict[str, Any]]:
    """Both people play their own seats to the end of the match; their last frames."""
    found: dict[str, dict[str, Any]] = {}
    other = threading.Thread(target=lambda: found.setdefault("ben", ben.play_out()))
    other.start()
    found["ana"] = ana.play_out()
    other.join(60)
    assert "ben" in found
    return found["ana"], found["ben"]


def by_seat(frame: dict[str, Any]) -> dict[int, dict[str, Any]]:
    assert frame["over"] and frame["ratings"], frame.get("ratings")
    return {item["seat"]: item for item in frame["ratings"]}


def stored_rating(store: Store, user: str, pool: str = "2") -> tuple[float, float, int]:
    with store.transaction() as tx:
        row = tx.one(
            "SELECT mu, sigma, games FROM web_ratings WHERE user_id = ? AND pool = ?", (user, pool)
        )
    assert row is not None
    return float(row[0]), float(row[1]), int(row[2])


# -- a rated match, end to end in process -----------------------------------------------


def test_a_rated_match_changes_both_ratings_and_is_in_both_histories(
    site: Site, store: SqliteStore
) -> None:
    """Issue 13, "Done when": two accounts play a rated two-player match; the
    winner's rating goes up, the loser's down, both see it in the last frame;
    the leaderboard ranks them; "My games" lists the match for each."""
    ids = {name: site.sign_up(name) for name in ("Ana", "Ben")}
    with site.socket("Ana") as ana, site.socket("Ben") as ben:
        code = rated_table(ana, ben)
        last_ana, last_ben = play_both(ana, ben)
    assert last_ana["ratings"] == last_ben["ratings"]
    changes = by_seat(last_ana)
    winner = last_ana["winner"]
    assert changes[winner]["delta"] > 0 and changes[1 - winner]["delta"] < 0
    for seat, name in enumerate(("Ana", "Ben")):
        change = changes[seat]
        assert change["before"] == display(MU, SIGMA) == 1000
        assert change["after"] == change["before"] + change["delta"]
        mu, sigma, games = stored_rating(store, ids[name])
        assert games == 1 and display(mu, sigma) == change["after"]
    # The leaderboard, best first.
    board = site.get(None, "/api/leaderboard?pool=2").json()
    names = ["Ana", "Ben"]
    assert [p["name"] for p in board["players"]] == [names[winner], names[1 - winner]]
    assert [p["rating"] for p in board["players"]] == [
        changes[winner]["after"],
        changes[1 - winner]["after"],
    ]
    assert site.get(None, "/api/leaderboard?pool=5").status_code == 400
    assert site.get(None, "/api/leaderboard?pool=3").json()["players"] == []
    # "My games": date, players, result, rating change, the replay's link.
    for seat, name in enumerate(names):
        games = site.get(name, "/api/account/games").json()["games"]
        assert len(games) == 1
        game = games[0]
        assert game["code"] == code and game["game"] == 1 and game["over"] and game["rated"]
        assert [p["name"] for p in game["players"]] == names
        assert [p["you"] for p in game["players"]] == [seat == 0, seat == 1]
        assert game["result"]["won"] == (seat == winner)
        assert game["result"]["place"] == (1 if seat == winner else 2)
        assert game["rating"]["delta"] == changes[seat]["delta"]
        assert game["link"] == f"/replay/{code}/1"
        assert isinstance(game["date"], float)
        tables = site.get(name, "/api/account/tables").json()["tables"]
        assert tables == [{"code": code, "seat": seat, "over": True}]
    # Only a signed-in person has a history.
    assert site.get(None, "/api/account/games").status_code == 401
    assert site.get(None, "/api/account/tables").json()["code"] == "signed-out"


def test_a_player_who_leaves_loses_the_match(site: Site, store: SqliteStore) -> None:
    """Issue 13: Ben leaves after his first move; a stand-in plays his seat to the
    end, and whoever scores more, Ben loses for the ratings and Ana wins."""
    site.sign_up("Ana")
    site.sign_up("Ben")
    with site.socket("Ana") as ana, site.socket("Ben") as ben:
        rated_table(ana, ben)
        each_moves_once(ana, ben)
        ben.send(type="leave")
        ben.until(lambda f: f["type"] == "left")
        last = ana.play_out()
    changes = by_seat(last)
    assert changes[1]["delta"] < 0 < changes[0]["delta"]


def test_resigning_loses_the_match(site: Site) -> None:
    site.sign_up("Ana")
    site.sign_up("Ben")
    with site.socket("Ana") as ana, site.socket("Ben") as ben:
        rated_table(ana, ben, target=200)
        each_moves_once(ana, ben)
        ana.send(type="resign")
        last = ana.until(lambda f: f["type"] == "state" and f["over"])
    changes = by_seat(last)
    assert changes[0]["delta"] < 0 < changes[1]["delta"]


def test_a_game_is_rated_once_and_shown_after_a_reload(
    app_and_site: tuple[Any, Site], store: SqliteStore
) -> None:
    """Idempotent: the table's end handled again (a restart, a new leader) changes
    nothing. A table loaded again from the store shows the changes it did not make."""
    app, site = app_and_site
    ids = {name: site.sign_up(name) for name in ("Ana", "Ben")}
    with site.socket("Ana") as ana, site.socket("Ben") as ben:
        code = rated_table(ana, ben)
        last, _ = play_both(ana, ben)
    before = {name: stored_rating(store, user) for name, user in ids.items()}
    lobby = app.state.lobby
    table = lobby.tables[code]
    site.client.portal.call(table.finish)  # type: ignore[union-attr]
    site.client.portal.call(table.finish)  # type: ignore[union-attr]
    assert {name: stored_rating(store, user) for name, user in ids.items()} == before
    with store.transaction() as tx:
        assert tx.one("SELECT COUNT(*) FROM web_rating_changes")[0] == 2  # type: ignore[index]
    # The table leaves memory; a spectator loads it again and sees the changes.
    del lobby.tables[code]
    with site.socket(None) as watcher:
        watcher.send(type="watch", code=code)
        seen = watcher.until(lambda f: f["type"] == "state" and bool(f.get("ratings")))
    assert seen["ratings"] == last["ratings"]


def test_an_unrated_table_shows_no_ratings(site: Site) -> None:
    site.sign_up("Ana")
    with site.socket("Ana") as ana:
        ana.send(type="create", name="Ana", seats=["you", "random"], rules={"target": 1})
        ana.until(lambda f: f["type"] == "joined")
        last = ana.play_out()
    assert last["over"] and last["ratings"] is None
    games = site.get("Ana", "/api/account/games").json()["games"]
    assert len(games) == 1 and not games[0]["rated"] and games[0]["rating"] is None
    assert games[0]["players"][0]["name"] == "Ana"


# -- the standings and the pools ---------------------------------------------------------


def rows(*specs: tuple[str, str | None]) -> list[SeatRow]:
    return [
        SeatRow(seat, "human", name, away=away, user_id=name)
        for seat, (name, away) in enumerate(specs)
    ]


def test_standings_rank_by_score_and_put_leavers_last() -> None:
    three = Rules(players=3)
    plain = outcome_of(three, rows(("a", None), ("b", None), ("c", None)), 2, [30, 10, 101])
    assert plain.ranks == (2, 3, 1) and plain.pool == "3"
    # The match's winner left: last. The others keep their order.
    left = outcome_of(three, rows(("a", None), ("b", None), ("c", "left")), 2, [30, 10, 101])
    assert left.ranks == (1, 2, 3) and left.left == frozenset({2})
    # Two leavers tie last; a resignation counts as leaving.
    both = outcome_of(three, rows(("a", "left"), ("b", None), ("c", "left")), 1, [5, 101, 0])
    assert both.ranks == (2, 1, 2)
    two = outcome_of(Rules(players=2), rows(("a", None), ("b", None)), 1, [0, 0], resigned=0)
    assert two.ranks == (2, 1) and two.left == frozenset({0})
    # A seat handed to a bot for good: its person left.
    handed = [SeatRow(0, "human", "a", user_id="a"), SeatRow(1, "bot", "easy", user_id="b")]
    assert outcome_of(Rules(players=2), handed, 1, [0, 61]).ranks == (1, 2)
    teams = outcome_of(
        Rules(players=4, partnerships=True),
        rows(("a", None), ("b", None), ("c", None), ("d", None)),
        1,
        [20, 61],
    )
    assert teams.pool == "4-teams" and teams.sides == ((0, 2), (1, 3)) and teams.ranks == (2, 1)


def make_users(store: Store, *names: str) -> list[str]:
    accounts = Accounts(store)
    return [
        blocking(accounts.sign_up(name, PASSWORD, f"10.0.0.{i}")).user.id
        for i, name in enumerate(names)
    ]


def test_teams_rate_as_teams_and_a_leavers_partner_keeps_their_rating(
    store: SqliteStore,
) -> None:
    a, b, c, d = make_users(store, "Ann", "Bob", "Cat", "Dan")
    # Team 0 (Ann, Cat) won on score, but Cat left: Ann keeps her rating, Cat loses,
    # Bob and Dan win.
    outcome = outcome_of(
        Rules(players=4, partnerships=True),
        [
            SeatRow(0, "human", "Ann", user_id=a),
            SeatRow(1, "human", "Bob", user_id=b),
            SeatRow(2, "human", "Cat", away="left", user_id=c),
            SeatRow(3, "human", "Dan", user_id=d),
        ],
        0,
        [61, 10],
    )
    made = {change.user_id: change for change in rate_game(store, "TEAMS1", 1, outcome)}
    assert made[a].delta == 0 and made[a].mu_after == MU
    assert made[c].delta < 0 < made[b].delta and made[d].delta > 0
    assert stored_rating(store, a, "4-teams") == (MU, SIGMA, 1)
    assert {p["name"] for p in ratings.leaderboard(store, "4-teams")} == {
        "Ann",
        "Bob",
        "Cat",
        "Dan",
    }


@pytest.fixture(params=["sqlite", "postgresql"])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    yield from either_store(request.param, tmp_path, "r")


def two_player(first: str, second: str, winner: int = 0) -> Outcome:
    return outcome_of(
        Rules(players=2),
        [SeatRow(0, "human", "x", user_id=first), SeatRow(1, "human", "y", user_id=second)],
        winner,
        [101, 50] if winner == 0 else [50, 101],
    )


def test_rating_a_game_twice_or_at_once_changes_it_once(any_store: Store) -> None:
    """The primary key of web_rating_changes: a game rated again, even by two
    threads at the same moment, changes the ratings once."""
    a, b = make_users(any_store, "Ann", "Bob")
    outcome = two_player(a, b)
    results: list[Any] = []
    threads = [
        threading.Thread(target=lambda: results.append(rate_game(any_store, "TWICE1", 1, outcome)))
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results[0] == results[1]
    again = rate_game(any_store, "TWICE1", 1, outcome)
    assert again == results[0]
    for change in again:
        assert stored_rating(any_store, change.user_id) == (
            change.mu_after,
            change.sigma_after,
            1,
        )


def test_unrating_replays_the_remaining_games(any_store: Store) -> None:
    """A game taken out: its changes are marked, each player's rating replayed
    from the others in order; the history says so; it cannot be taken out twice."""
    a, b = make_users(any_store, "Ann", "Bob")
    first = rate_game(any_store, "GAMEA1", 1, two_player(a, b, 0), now=1000.0)
    second = rate_game(any_store, "GAMEA1", 2, two_player(a, b, 1), now=2000.0)
    names = admin.unrate(any_store, "GAMEA1", 1, actor="mod", reason="a cheat")
    assert sorted(names) == ["Ann", "Bob"]
    for user in (a, b):
        step = next(c for c in second if c.user_id == user)
        expected = replay([(step.mu_before, step.sigma_before, step.mu_after, step.sigma_after)])
        got = stored_rating(any_store, user)
        assert got[2] == 1 and got[0] == pytest.approx(expected[0])
        assert got[1] == pytest.approx(expected[1])
    assert all(c.removed for c in ratings.changes_of(any_store, "GAMEA1", 1))
    assert first  # rated before
    with pytest.raises(admin.AdminError, match="already out"):
        admin.unrate(any_store, "GAMEA1", 1, actor="mod", reason="again")
    with pytest.raises(admin.AdminError, match="not rated"):
        admin.unrate(any_store, "GAMEA1", 3, actor="mod", reason="none")
    # Out of the ratings for good: finishing it again does not rate it again.
    rate_game(any_store, "GAMEA1", 1, two_player(a, b, 0))
    assert stored_rating(any_store, a)[2] == 1
    [entry] = admin.log_entries(any_store)
    assert (entry.actor, entry.action, entry.target, entry.reason) == (
        "mod",
        "unrate",
        "GAMEA1/1",
        "a cheat",
    )


def test_suspended_and_deleted_accounts_leave_the_leaderboard(
    site: Site, store: SqliteStore
) -> None:
    a, b = site.sign_up("Ana"), site.sign_up("Ben")
    rate_game(store, "BOARD1", 1, two_player(a, b))
    board = [p["name"] for p in site.get(None, "/api/leaderboard").json()["players"]]
    assert board == ["Ana", "Ben"]
    admin.suspend(store, "Ana", actor="mod", reason="spam")
    assert [p["name"] for p in site.get(None, "/api/leaderboard").json()["players"]] == ["Ben"]
    admin.restore(store, "Ana", actor="mod", reason="appeal")
    assert len(site.get(None, "/api/leaderboard").json()["players"]) == 2
    deleted = site.post("Ben", "/api/account/delete", {"password": PASSWORD})
    assert deleted.status_code == 200
    assert [p["name"] for p in site.get(None, "/api/leaderboard").json()["players"]] == ["Ana"]


def test_history_names_accounts_by_their_current_name(site: Site, store: SqliteStore) -> None:
    """A renamed account's games show the new name; a deleted one's "Deleted player"."""
    ids = {name: site.sign_up(name) for name in ("Ana", "Ben")}
    with site.socket("Ana") as ana, site.socket("Ben") as ben:
        rated_table(ana, ben)
        play_both(ana, ben)
    admin.rename(store, "Ben", "Benedict", actor="mod", reason="asked")
    [game] = games_of(store, ids["Ana"])
    assert [p["name"] for p in game["players"]] == ["Ana", "Benedict"]
    record = json.loads(store.game_record(game["code"], 1) or "{}")
    assert record["names"] == ["Ana", "Benedict"]


def test_a_guests_seat_is_the_accounts_at_once_in_a_table_in_memory(site: Site) -> None:
    """The seats a guest's browser holds become the account's at sign-up, also
    for a table its server holds in memory (it reads its seats again): the same
    person signed in elsewhere takes the seat back at once."""
    with site.socket(None) as guest:
        guest.send(type="create", name="Ivy", seats=["you", "greedy"], rules={"players": 2})
        joined = guest.until(lambda f: f["type"] == "joined")
        guest.next_state()
    site.jars["Ivy"] = {}
    seats = [{"code": joined["table"], "seat": 0, "token": joined["token"]}]
    made = site.post(
        "Ivy", "/api/account/signup", {"name": "Ivy", "password": PASSWORD, "seats": seats}
    )
    assert made.json()["seats"] == 1
    with site.socket("Ivy") as again:
        again.send(type="resume", code=joined["table"], seat=0)
        answer = again.until(lambda f: f["type"] in ("joined", "error"))
    assert answer["type"] == "joined" and answer["seat"] == 0
    tables = site.get("Ivy", "/api/account/tables").json()["tables"]
    assert tables == [{"code": joined["table"], "seat": 0, "over": False}]


def test_every_text_the_account_script_uses_is_in_the_catalog(site: Site) -> None:
    """static/account.js words everything through t()/nt(), from the page's catalog."""
    import re

    script = (
        Path(__file__).parent.parent / "src" / "passing_game" / "web" / "static" / "account.js"
    ).read_text()
    got = site.get(None, "/api/i18n").json()
    plain = set(re.findall(r'(?<![\w.])t\("((?:[^"\\]|\\.)*)"', script))
    counted = set(re.findall(r'(?<![\w.])nt\("((?:[^"\\]|\\.)*)"', script))
    assert len(plain) > 40 and counted
    assert plain <= set(got["texts"]), plain - set(got["texts"])
    assert counted <= set(got["plurals"]), counted - set(got["plurals"])
