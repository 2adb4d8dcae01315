"""Quick play, public tables and the daily deal (issue 13, items 4 and 8), in process.

A real app on an SQLite file through Starlette's TestClient:

- two people asking for a two-player game are seated together, in the
  order they came, each with a seat token;
- a lone person gets bots after asking for them; a rated wait filled with
  bots becomes a casual game; a guest cannot wait for a rated game;
- cancelling, and closing the connection, leave the queue;
- the public tables: listed while they wait for players or play, newest
  first; private and finished ones are not;
- the daily deal: the same deal for two accounts, one attempt per account
  (asking again gives the same table back), the game ends after its
  rounds, and the day's table ranks the attempts (P31).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from starlette.testclient import TestClient

from passing_game import Match
from passing_game.records import load_record
from passing_game.web.accounts.flows import SESSION_COOKIE
from passing_game.web.daily import DAILY_ROUNDS, daily_rules, daily_seed, today
from passing_game.web.http.app import create_app
from passing_game.web.quickplay import service as quickplay
from passing_game.web.store import SqliteStore
from web_helpers import Player, time_limit

PASSWORD = "correct horse battery"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    made = SqliteStore(tmp_path / "quick.sqlite3")
    yield made
    made.close()


@pytest.fixture
def client(store: SqliteStore) -> Iterator[TestClient]:
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(120), TestClient(app) as made:
        yield made


def queue_rows(store: SqliteStore) -> list[tuple[Any, ...]]:
    with store.transaction() as tx:
        return tx.all("SELECT ticket, players, rated, name, code, seat FROM web_queue")


def wait_for(check: Any, limit: float = 10.0) -> None:
    deadline = time.monotonic() + limit
    while not check():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.02)


def account(client: TestClient, name: str) -> str:
    """A new account; its session cookie (the client's cookie jar is left empty)."""
    client.cookies.clear()
    token = client.get("/api/account").json()["csrf"]
    made = client.post(
        "/api/account/signup",
        content=json.dumps({"name": name, "password": PASSWORD}),
        headers={"X-CSRF-Token": token},
    )
    assert made.status_code == 200, made.text
    session = str(client.cookies.get(SESSION_COOKIE))
    client.cookies.clear()
    return session


def socket(client: TestClient, session: str | None = None) -> Any:
    headers = {"cookie": f"{SESSION_COOKIE}={session}"} if session else {}
    return client.websocket_connect("/ws", headers=headers)


def joined(player: Player) -> dict[str, Any]:
    frame = player.until(lambda f: f["type"] in ("joined", "error"))
    assert frame["type"] == "joined", frame
    return frame


def test_two_people_asking_for_two_players_are_seated_together(
    client: TestClient, store: SqliteStore
) -> None:
    with socket(client) as ws_a, socket(client) as ws_b:
        ana, ben = Player(ws_a), Player(ws_b)
        ana.send(type="quick", players=2, name="Ana")
        waiting = ana.until(lambda f: f["type"] == "queue")
        assert waiting["players"] == 2 and waiting["waiting"] == 1 and not waiting["rated"]
        assert waiting["fill_after"] == quickplay.FILL_AFTER
        assert 0 < waiting["fill_in_ms"] <= quickplay.FILL_AFTER * 1000
        assert abs(waiting["since"] - time.time()) < 5
        ben.send(type="quick", players=2, name="Ben")
        a, b = joined(ana), joined(ben)
        assert a["table"] == b["table"]
        assert (a["seat"], b["seat"]) == (0, 1)  # in the order they came
        assert a["token"] and b["token"] and a["token"] != b["token"]
        frame = ben.next_state()
        assert frame["started"] and [s["kind"] for s in frame["seats"]] == ["human", "human"]
        assert [s["name"] for s in frame["seats"]] == ["Ana", "Ben"]
        assert frame["clock"] is not None  # strangers' table: nobody waits forever
        stored = store.load_table(a["table"])
        assert stored is not None and stored.origin == "quick" and stored.public
        assert not stored.rated
    # The seat tokens are real: Ana takes her seat back with hers.
    with socket(client) as ws:
        again = Player(ws)
        again.send(type="resume", code=a["table"], seat=0, token=a["token"])
        assert joined(again)["seat"] == 0
    wait_for(lambda: queue_rows(store) == [])  # seated tickets are forgotten in the background


def test_people_waiting_for_another_game_are_not_seated_together(client: TestClient) -> None:
    with socket(client) as ws_a, socket(client) as ws_b, socket(client) as ws_c:
        ana, ben, cai = Player(ws_a), Player(ws_b), Player(ws_c)
        ana.send(type="quick", players=3, name="Ana")
        assert ana.until(lambda f: f["type"] == "queue")["waiting"] == 1
        ben.send(type="quick", players=2, name="Ben")
        assert ben.until(lambda f: f["type"] == "queue")["waiting"] == 1
        cai.send(type="quick", players=3, name="Cai")
        assert cai.until(lambda f: f["type"] == "queue")["waiting"] == 2
        # Ana hears that a second person waits for her game (the poll).
        assert ana.until(lambda f: f["type"] == "queue")["waiting"] == 2


def test_a_lone_person_gets_bots_after_asking(client: TestClient, store: SqliteStore) -> None:
    with socket(client) as ws:
        ana = Player(ws)
        ana.send(type="quick_fill")
        assert ana.error()["code"] == "not-waiting"
        ana.send(type="quick", players=3, name="Ana")
        ana.until(lambda f: f["type"] == "queue")
        ana.send(type="quick_fill")
        seat = joined(ana)
        assert seat["seat"] == 0 and seat["token"]
        frame = ana.next_state()
        assert [s["kind"] for s in frame["seats"]] == ["human", "bot", "bot"]
        assert frame["clock"] is None  # nobody else to wait for
        # The bots play: the game goes on until Ana's turn or beyond.
        last = ana.play_out()
        assert last["over"]
        stored = store.load_table(seat["table"])
        assert stored is not None and not stored.rated and stored.origin == "quick"
    wait_for(lambda: queue_rows(store) == [])


def test_filling_takes_the_others_waiting_for_the_same_casual_game(client: TestClient) -> None:
    with socket(client) as ws_a, socket(client) as ws_b:
        ana, ben = Player(ws_a), Player(ws_b)
        ana.send(type="quick", players=4, name="Ana")
        ana.until(lambda f: f["type"] == "queue")
        ben.send(type="quick", players=4, name="Ben")
        ben.until(lambda f: f["type"] == "queue")
        ben.send(type="quick_fill")
        a, b = joined(ana), joined(ben)
        assert a["table"] == b["table"] and (a["seat"], b["seat"]) == (0, 1)
        frame = ben.next_state()
        assert [s["kind"] for s in frame["seats"]] == ["human", "human", "bot", "bot"]


def test_rated_quick_play_is_for_signed_in_people(client: TestClient, store: SqliteStore) -> None:
    with socket(client) as ws:
        guest = Player(ws)
        guest.send(type="quick", players=2, rated=True, name="Guest")
        assert guest.error()["code"] == "signed-out"
        guest.send(type="quick", players=2)
        assert guest.error()["code"] == "bad-request"  # a guest gives a name
        guest.send(type="quick", players=5, name="Guest")
        assert guest.error()["code"] == "bad-request"
    kim, lee, max_ = (account(client, n) for n in ("Kim", "Lee", "Max"))
    with socket(client, kim) as ws_k, socket(client, lee) as ws_l, socket(client, max_) as ws_m:
        k, lu, m = Player(ws_k), Player(ws_l), Player(ws_m)
        k.send(type="quick", players=2, rated=True, name="ignored")
        assert k.until(lambda f: f["type"] == "queue")["rated"] is True
        m.send(type="quick", players=2, rated=False)
        m.until(lambda f: f["type"] == "queue")
        lu.send(type="quick", players=2, rated=True)
        a, b = joined(k), joined(lu)
        assert a["table"] == b["table"]
        frame = lu.next_state()
        assert [s["name"] for s in frame["seats"]] == ["Kim", "Lee"]  # the accounts' names
        stored = store.load_table(a["table"])
        assert stored is not None and stored.rated
        assert [s.user_id for s in stored.seats] == [s.user_id for s in stored.seats if s.user_id]
        # Max waits for a casual game; he was not taken into the rated one. (The
        # seated tickets are forgotten in the background once their people sit.)
        wait_for(lambda: [r[3] for r in queue_rows(store)] == ["Max"])
        # A rated wait filled with bots is a casual game of the asker alone (Max:
        # Kim plays at a quick table, so may not wait again, issue 22).
        m.send(type="quick", players=3, rated=True)
        m.until(lambda f: f["type"] == "queue" and f["rated"])
        m.send(type="quick_fill")
        alone = joined(m)
        done = store.load_table(alone["table"])
        assert done is not None and not done.rated
        assert [s.kind for s in done.seats] == ["human", "bot", "bot"]


def test_cancel_leaves_the_queue(client: TestClient, store: SqliteStore) -> None:
    with socket(client) as ws_a, socket(client) as ws_b:
        ana, ben = Player(ws_a), Player(ws_b)
        ana.send(type="quick", players=2, name="Ana")
        ana.until(lambda f: f["type"] == "queue")
        assert len(queue_rows(store)) == 1
        ana.send(type="quick_cancel")
        assert ana.until(lambda f: f["type"] in ("queue_left", "joined"))["type"] == "queue_left"
        assert queue_rows(store) == []
        ben.send(type="quick", players=2, name="Ben")
        assert ben.until(lambda f: f["type"] == "queue")["waiting"] == 1  # alone
        ana.send(type="quick_cancel")  # not waiting: said so, nothing else
        assert ana.until(lambda f: f["type"] == "queue_left")
        # Asking again while waiting replaces the wait (one per connection).
        ben.send(type="quick", players=3, name="Ben")
        assert ben.until(lambda f: f["type"] == "queue")["players"] == 3
        assert [(r[1], r[3]) for r in queue_rows(store)] == [(3, "Ben")]


def test_a_closed_connection_leaves_the_queue(client: TestClient, store: SqliteStore) -> None:
    with socket(client) as ws:
        ana = Player(ws)
        ana.send(type="quick", players=2, name="Ana")
        ana.until(lambda f: f["type"] == "queue")
    wait_for(lambda: queue_rows(store) == [])
    with socket(client) as ws:
        ben = Player(ws)
        ben.send(type="quick", players=2, name="Ben")
        assert ben.until(lambda f: f["type"] == "queue")["waiting"] == 1


def test_a_row_whose_process_went_silent_is_never_matched(
    client: TestClient, store: SqliteStore
) -> None:
    """A waiting row not refreshed for STALE_SECONDS (its process died) is dropped."""
    old = time.time() - quickplay.STALE_SECONDS - 1
    with store.transaction() as tx:
        tx.run(
            "INSERT INTO web_queue (ticket, players, rated, user_id, name, token_hash, since,"
            " seen) VALUES ('ghost', 2, 0, NULL, 'Ghost', 'x', ?, ?)",
            (old, old),
        )
    with socket(client) as ws:
        ben = Player(ws)
        ben.send(type="quick", players=2, name="Ben")
        assert ben.until(lambda f: f["type"] == "queue")["waiting"] == 1
        assert [r[3] for r in queue_rows(store)] == ["Ben"]


def public(client: TestClient) -> list[dict[str, Any]]:
    answer = client.get("/api/tables/public")
    assert answer.status_code == 200
    assert answer.headers["cache-control"] == "no-store"
    return list(answer.json()["tables"])


def test_public_tables(client: TestClient, store: SqliteStore) -> None:
    assert public(client) == []
    with socket(client) as ws_a, socket(client) as ws_b, socket(client) as ws_c:
        ana, ben, cai = Player(ws_a), Player(ws_b), Player(ws_c)
        ana.send(
            type="create",
            name="Ana",
            seats=["you", "person", "easy"],
            rules={"players": 3, "target": 50},
            public=True,
        )
        listed = joined(ana)["table"]
        ben.send(type="create", name="Ben", seats=["you", "person"], rules={"players": 2})
        private = joined(ben)["table"]
        found = public(client)
        assert [t["code"] for t in found] == [listed]
        entry = found[0]
        assert entry["players"] == 3 and entry["seats"] == 3 and entry["taken"] == 2
        assert entry["status"] == "waiting" and entry["rules"]["target"] == 50
        assert entry["rated"] is False and entry["origin"] == "friends"
        assert abs(entry["created"] - time.time()) < 30
        assert private not in {t["code"] for t in found}
        # Somebody joins from the list: the table plays, and is still listed (to watch).
        cai.send(type="join", code=listed, name="Cai")
        joined(cai)
        found = public(client)
        assert found[0]["code"] == listed and found[0]["status"] == "playing"
        # A quick table is public, newest first.
        cai.send(type="quick", players=2, name="Cai")
        cai.until(lambda f: f["type"] == "queue")
        cai.send(type="quick_fill")
        quick = joined(cai)["table"]
        found = public(client)
        assert [t["code"] for t in found] == [quick, listed]
        assert found[0]["origin"] == "quick"
        # A finished game is not listed (Cai plays it out: a fresh view of his frames).
        Player(ws_c).play_out()
        assert [t["code"] for t in public(client)] == [listed]


def test_at_most_fifty_public_tables_newest_first(client: TestClient, store: SqliteStore) -> None:
    from passing_game.web.store import NewTable, SeatRow

    for i in range(55):
        store.create_table(
            NewTable(
                f"PUB{i:03d}".replace("0", "A").replace("1", "B"),
                {"players": 2},
                i,
                (SeatRow(0, "human", "Ana"), SeatRow(1, "open", "")),
                created=1000.0 + i,
                public=True,
            )
        )
    found = public(client)
    assert len(found) == quickplay.PUBLIC_LIMIT
    assert [t["created"] for t in found] == sorted((t["created"] for t in found), reverse=True)
    assert found[0]["created"] == 1054.0


# -- the daily deal ----------------------------------------------------------------


def play_daily(
    client: TestClient, session: str, choose: Any
) -> tuple[dict[str, Any], tuple[list[str], dict[str, Any]]]:
    """An account plays today's deal to its end: its joined frame, its first
    hand and its last frame."""
    with socket(client, session) as ws:
        person = Player(ws)
        person.send(type="daily")
        seat = joined(person)
        first = person.next_state()
        last = person.play_out(choose)
        return seat, (first["round"]["hand"], last)


def test_the_daily_deal(client: TestClient, store: SqliteStore) -> None:
    with socket(client) as ws:
        guest = Player(ws)
        guest.send(type="daily")
        assert guest.error()["code"] == "signed-out"
    ana, ben = account(client, "Ana"), account(client, "Ben")
    with store.transaction() as tx:  # not new (one address here: issue 22's newcomer rule)
        tx.run("UPDATE web_users SET created = created - 2 * 86400")
    day, secret = today(), client.app.state.lobby.daily_secret
    a_seat, (a_hand, a_last) = play_daily(client, ana, lambda f: f["round"]["legal"][0])
    b_seat, (b_hand, b_last) = play_daily(client, ben, lambda f: f["round"]["legal"][-1])
    assert a_seat["table"] != b_seat["table"] and a_seat["seat"] == b_seat["seat"] == 0
    # The same deal for everybody: the day's seed, the same first hand.
    a_table, b_table = store.load_table(a_seat["table"]), store.load_table(b_seat["table"])
    assert a_table is not None and b_table is not None
    assert a_table.seed == b_table.seed == daily_seed(day, secret)
    assert a_hand == b_hand
    assert a_table.origin == "daily" and [s.level for s in a_table.seats] == [None, "hard"]
    # The game ends after its rounds, whatever the scores.
    for last in (a_last, b_last):
        assert last["over"] and last["daily"] == {"rounds": DAILY_ROUNDS}
        assert len(last["pad"]) == DAILY_ROUNDS
        assert max(last["scores"]) < daily_rules().target
    # Every round dealt the same for both (D9): the records' deals agree.
    records = [json.loads(str(store.game_record(t.code, 1))) for t in (a_table, b_table)]
    assert [r["deal"] for r in records[0]["rounds"]] == [r["deal"] for r in records[1]["rounds"]]
    assert records[0]["daily"] == {"rounds": DAILY_ROUNDS} and "winner" not in records[0]
    replayed = load_record(records[0])  # the plain engine replays the record
    assert replayed.scores == a_last["scores"]
    assert Match(daily_rules(), daily_seed(day, secret)).round.deal == replayed.rounds[0].deal
    # One attempt per account: asking again gives the same table back.
    with socket(client, ana) as ws:
        again = Player(ws)
        again.send(type="daily")
        back = joined(again)
        assert back["table"] == a_seat["table"] and back["seat"] == 0 and "token" not in back
        assert again.next_state()["over"]
        again.send(type="rematch")
        assert again.error()["code"] == "daily-once"
    with store.transaction() as tx:
        assert tx.one("SELECT COUNT(*) FROM web_daily WHERE day = ?", (day,)) == (2,)
    # The day's table ranks them by net (their points minus the bot's).
    client.cookies.set(SESSION_COOKIE, ana)
    board = client.get("/api/daily").json()
    client.cookies.clear()
    assert board["day"] == day and board["today"] and board["rounds"] == DAILY_ROUNDS
    assert board["playing"] == 0 and board["level"] == "hard"
    entries = board["entries"]
    assert sorted(e["name"] for e in entries) == ["Ana", "Ben"]
    nets = {e["name"]: e["net"] for e in entries}
    assert nets["Ana"] == a_last["scores"][0] - a_last["scores"][1]
    assert nets["Ben"] == b_last["scores"][0] - b_last["scores"][1]
    assert [e["net"] for e in entries] == sorted(nets.values(), reverse=True)
    assert entries[0]["rank"] == 1
    if nets["Ana"] == nets["Ben"] and entries[0]["points"] == entries[1]["points"]:
        assert entries[1]["rank"] == 1 and entries[0]["percent"] == 50.0
    else:
        assert entries[1]["rank"] == 2
        assert (entries[0]["percent"], entries[1]["percent"]) in ((100.0, 0.0), (50.0, 50.0))
    assert board["you"] == {
        "code": a_seat["table"],
        "finished": True,
        "rank": next(e["rank"] for e in entries if e["name"] == "Ana"),
    }
    assert [e["you"] for e in entries] == [e["name"] == "Ana" for e in entries]
    # The same by its date; nobody's own attempt without a session.
    by_day = client.get(f"/api/daily/{day}").json()
    assert by_day["entries"] == [{**e, "you": False} for e in entries] and by_day["you"] is None
    assert client.get("/api/daily/2026-02-30").status_code == 400
    assert client.get("/api/daily/9999-01-01").status_code == 404
    assert client.get("/api/daily/2000-01-01").json()["entries"] == []


def test_an_attempt_under_way_is_counted_not_ranked(client: TestClient) -> None:
    cai = account(client, "Cai")
    with socket(client, cai) as ws:
        person = Player(ws)
        person.send(type="daily")
        joined(person)
        board = client.get("/api/daily").json()
        assert board["entries"] == [] and board["playing"] == 1


def test_daily_ranking_shares_ranks_and_counts_matchpoints(store: SqliteStore) -> None:
    """Equal results share a rank; matchpoints: one for each attempt beaten, half a tie."""
    from passing_game.web import daily

    now = time.time()
    results = {"Ana": (30, 10), "Ben": (20, 0), "Cai": (5, 40), "Dee": (25, 5)}
    with store.transaction() as tx:
        for i, (name, (mine, bot)) in enumerate(results.items()):
            tx.run(
                "INSERT INTO web_users (id, name, name_key, password_hash, created)"
                " VALUES (?, ?, ?, NULL, ?)",
                (f"u{i}", name, name.lower(), now),
            )
            code = f"DAY{i}AA".replace("0", "Q").replace("1", "R")
            code = code.replace("2", "S").replace("3", "T")
            from passing_game.web.store import NewTable, SeatRow
            from passing_game.web.store import tables as table_rows

            table_rows.insert_table(
                tx,
                NewTable(
                    code,
                    daily_rules().to_dict(),
                    1,
                    (SeatRow(0, "human", name), SeatRow(1, "bot", "hard", "hard")),
                    origin="daily",
                ),
            )
            tx.run(
                "UPDATE web_games SET finished = 1, record = ? WHERE code = ?",
                (json.dumps({"scores": [mine, bot]}), code),
            )
            tx.run(
                "INSERT INTO web_daily (day, user_id, code, started) VALUES (?, ?, ?, ?)",
                ("2026-01-01", f"u{i}", code, now + i),
            )
    board = daily.standings(store, "2026-01-01", "u3")
    shown = [(e["name"], e["net"], e["rank"], e["percent"]) for e in board["entries"]]
    # Ana 20 then Ben 20 (fewer points) then Dee 20 (more points than Ben, less than Ana).
    assert shown == [
        ("Ana", 20, 1, 66.7),
        ("Dee", 20, 2, 66.7),
        ("Ben", 20, 3, 66.7),
        ("Cai", -35, 4, 0.0),
    ]
    assert board["you"] == {"code": "DAYTAA", "finished": True, "rank": 2}


def test_the_page_loads_quickplay_as_a_module(client: TestClient) -> None:
    page = client.get("/").text
    assert '<link rel="modulepreload" href="/static/quickplay.js">' in page
    script = client.get("/static/quickplay.js")
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")


def test_every_text_quickplay_js_uses_is_in_the_catalog(client: TestClient) -> None:
    import re

    got = client.get("/api/i18n").json()
    static = Path(quickplay.__file__).parent.parent / "static"
    script = (static / "quickplay.js").read_text()
    plain = set(re.findall(r'(?<![\w.])t\("((?:[^"\\]|\\.)*)"', script))
    counted = set(re.findall(r'(?<![\w.])nt\("((?:[^"\\]|\\.)*)"', script))
    assert plain and counted
    assert plain <= set(got["texts"]), plain - set(got["texts"])
    assert counted <= set(got["plurals"]), counted - set(got["plurals"])
    # User text only through textContent.
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script
