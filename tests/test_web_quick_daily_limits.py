"""Issue 22, "also measured": one queue place per account, one daily deal per
person, and a daily secret the server always has (P30, P31).

Through the real socket, a real app on an SQLite file (Starlette's
TestClient, as ``test_web_quickplay.py``), and, where several processes are
concerned, real ``passing-game serve`` processes on one PostgreSQL:

- one account in twelve sockets holds one queue place, the others are refused;
- one account in two tabs: the second is refused while the first waits, and
  refused with the table's code while the first plays a quick game there,
  until that game is over (or the seat was left); the same across two
  processes, the two tabs asking at the same moment;
- the day's deal once per person: not again after deleting the account and
  signing up with the same name, nor from a new account at the address it
  was played from; an established account on that address may play;
- the daily secret: the site's own, kept in the store and the same for every
  process, never the empty key, with a warning; the environment's wins.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from starlette.testclient import TestClient

from passing_game.web import daily
from passing_game.web.accounts.flows import SESSION_COOKIE, hash_secret
from passing_game.web.http.app import create_app
from passing_game.web.store import SqliteStore
from test_web_quickplay import PASSWORD, account, joined, queue_rows, socket
from web_helpers import Player, time_limit

#: What the server says when it uses the store's own daily secret.
NO_SECRET_WARNING = f"{daily.SECRET_ENV} is not set"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    made = SqliteStore(tmp_path / "limits.sqlite3")
    yield made
    made.close()


@pytest.fixture
def client(store: SqliteStore, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.delenv(daily.SECRET_ENV, raising=False)
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(120), TestClient(app) as made:
        yield made


@contextmanager
def from_address(client: TestClient, host: str) -> Iterator[None]:
    """Requests and sockets of ``client`` come from ``host`` inside the block."""
    transport: Any = client._transport
    before = transport.client
    transport.client = (host, 50000)
    try:
        yield
    finally:
        transport.client = before


def answer(player: Player) -> dict[str, Any]:
    """The queue's answer to a ``quick`` intent: a ``queue`` frame, or an error."""
    return player.until(lambda f: f["type"] in ("queue", "error", "joined"))


def refused(player: Player, code: str) -> dict[str, Any]:
    frame = answer(player)
    assert frame["type"] == "error" and frame["code"] == code, frame
    assert frame["message"] and frame["message"] != code  # a sentence a person reads
    return frame


def waiting(player: Player, count: int = 1) -> dict[str, Any]:
    frame = answer(player)
    assert frame["type"] == "queue" and frame["waiting"] == count, frame
    return frame


@contextmanager
def sockets(client: TestClient, session: str | None, count: int) -> Iterator[list[Player]]:
    """``count`` sockets of one account (tabs, windows), open together."""
    with ExitStack() as stack:
        yield [Player(stack.enter_context(socket(client, session))) for _ in range(count)]


def game_over(player: Player) -> None:
    player.until(lambda f: f["type"] == "state" and f["over"])


# -- one queue place per account ----------------------------------------------------


def test_one_account_in_twelve_sockets_holds_one_place(
    client: TestClient, store: SqliteStore
) -> None:
    """Issue 22: one queue place per account (12 sockets of one account: waiting 1)."""
    ana = account(client, "Ana")
    with sockets(client, ana, 12) as players:
        for player in players:
            player.send(type="quick", players=2)
        answers = [answer(p) for p in players]
        queued = [a for a in answers if a["type"] == "queue"]
        errors = [a for a in answers if a["type"] == "error"]
        assert len(queued) == 1 and queued[0]["waiting"] == 1, answers
        assert len(errors) == 11 and {e["code"] for e in errors} == {"already-waiting"}
        assert all(e["message"] for e in errors)
        assert len(queue_rows(store)) == 1
        # A stranger comes: one table, the account once and the stranger.
        with socket(client) as ws:
            gus = Player(ws)
            gus.send(type="quick", players=2, name="Gus")
            code = joined(gus)["table"]
            stored = store.load_table(code)
            assert stored is not None
            assert [s.name for s in stored.seats] == ["Ana", "Gus"]
            assert stored.seats[0].user_id is not None and stored.seats[1].user_id is None


def test_one_account_in_two_tabs(client: TestClient, store: SqliteStore) -> None:
    """Issue 22: one queue place per account (two tabs: refused while the first
    waits, refused with the table's code while it plays, until the game is over)."""
    ana = account(client, "Ana")
    with sockets(client, ana, 2) as (first, second), socket(client) as ws:
        gus = Player(ws)
        first.send(type="quick", players=2)
        waiting(first)
        second.send(type="quick", players=2)
        refused(second, "already-waiting")
        second.send(type="quick", players=3)  # any game: one place
        refused(second, "already-waiting")
        gus.send(type="quick", players=2, name="Gus")
        code = joined(first)["table"]
        assert joined(gus)["table"] == code
        second.send(type="quick", players=2)
        playing = refused(second, "already-playing")
        assert code in playing["message"]  # the person can go back there
        # A guest is counted per connection, as before.
        with socket(client) as ws_2:
            other = Player(ws_2)
            other.send(type="quick", players=4, name="Ana")
            waiting(other)
        # The game ends (Ana resigns in the first tab): the second may play.
        first.send(type="resign")
        game_over(first)
        second.send(type="quick", players=2)
        waiting(second)


def test_a_seat_left_does_not_hold_the_account(client: TestClient) -> None:
    """Issue 22: one queue place per account (a quick seat the person left does
    not count: a stand-in plays it)."""
    ana = account(client, "Ana")
    with sockets(client, ana, 2) as (first, second), socket(client) as ws:
        gus = Player(ws)
        first.send(type="quick", players=2)
        waiting(first)
        gus.send(type="quick", players=2, name="Gus")
        code = joined(first)["table"]
        second.send(type="quick", players=2)
        assert code in refused(second, "already-playing")["message"]
        first.send(type="leave")
        assert first.until(lambda f: f["type"] == "left")["table"] == code
        second.send(type="quick", players=2)
        waiting(second)


def test_a_wait_dropped_as_stale_comes_back_only_if_the_account_has_no_other(
    client: TestClient, store: SqliteStore
) -> None:
    """Issue 22: one queue place per account (a row dropped as stale, its process
    stalled, is entered again by the poll: refused if another tab waits meanwhile)."""
    quick = client.app.state.lobby.quick
    quick.poll_every = 3600.0  # the poll waits until the test lets it run
    ana = account(client, "Ana")
    with sockets(client, ana, 2) as (first, second):
        first.send(type="quick", players=2)
        waiting(first)
        with store.transaction() as tx:  # as another process does with a stale row
            tx.run("DELETE FROM web_queue")
        second.send(type="quick", players=2)
        waiting(second)

        async def poll_now() -> None:
            assert quick._poller is not None
            quick._poller.cancel()
            quick.poll_every, quick._poller = 0.05, None
            quick._ensure_poller()

        client.portal.call(poll_now)
        refused(first, "already-waiting")
        first.until(lambda f: f["type"] == "queue_left")
        assert [r[3] for r in queue_rows(store)] == ["Ana"] and len(quick.waiters) == 1


# -- one queue place per account, across two processes -------------------------------


@pytest.fixture
def pg_servers(pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from cluster_helpers import start, stop

    monkeypatch.delenv(daily.SECRET_ENV, raising=False)
    running = start(pg_url, tmp_path, 2, bot_delay=0.05)
    try:
        yield running
    finally:
        stop(running)


def at_once(people: list[Any], message: dict[str, Any]) -> None:
    """Each person sends ``message`` at the same moment (a barrier, one thread each)."""
    barrier = threading.Barrier(len(people))

    def go(person: Any) -> None:
        barrier.wait(timeout=10)
        person.send(**message)

    threads = [threading.Thread(target=go, args=(p,)) for p in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)


def pg_answer(person: Any) -> dict[str, Any]:
    frame: dict[str, Any] = person.until(lambda f: f["type"] in ("queue", "error", "joined"))
    return frame


@pytest.mark.slow
def test_one_account_on_two_processes_holds_one_place(pg_servers: Any, pg_url: str) -> None:
    """Issue 22: one queue place per account, two tabs on two processes of one
    PostgreSQL asking at the same moment (the check is under the queue's lock)."""
    from cluster_helpers import Browser, Person

    a, b = pg_servers
    web = Browser(a)
    web.post("/api/account/signup", {"name": "Ana", "password": PASSWORD})
    tabs = [web.socket(a), web.socket(b)]
    gus = Person(b.port)
    try:
        at_once(tabs, {"type": "quick", "players": 2})
        answers = [pg_answer(t) for t in tabs]
        kinds = sorted(f["type"] for f in answers)
        assert kinds == ["error", "queue"], answers
        waits = next(i for i, f in enumerate(answers) if f["type"] == "queue")
        assert answers[waits]["waiting"] == 1
        assert answers[1 - waits]["code"] == "already-waiting"
        first, second = tabs[waits], tabs[1 - waits]
        gus.send(type="quick", players=2, name="Gus")
        code = pg_answer(first)["table"]
        assert pg_answer(gus)["table"] == code
        second.send(type="quick", players=2)
        frame = pg_answer(second)
        assert frame["type"] == "error" and frame["code"] == "already-playing", frame
        assert code in frame["message"]
        first.now(lambda f: f["started"])
        first.send(type="resign")
        first.state(lambda f: f["over"])
        second.send(type="quick", players=2)
        frame = pg_answer(second)
        assert frame["type"] == "queue" and frame["waiting"] == 1, frame
    finally:
        for person in (*tabs, gus):
            person.close()


# -- one daily deal per person and day -----------------------------------------------


def as_account(client: TestClient, session: str, path: str, body: dict[str, Any]) -> Any:
    """A POST of a signed-in page (its session cookie and CSRF token)."""
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, session)
    token = client.get("/api/account").json()["csrf"]
    done = client.post(path, content=json.dumps(body), headers={"X-CSRF-Token": token})
    client.cookies.clear()
    return done


def ask_daily(client: TestClient, session: str) -> dict[str, Any]:
    """The answer to ``{"type": "daily"}``: ``joined`` or an error."""
    with socket(client, session) as ws:
        person = Player(ws)
        person.send(type="daily")
        return person.until(lambda f: f["type"] in ("joined", "error"))


def test_the_daily_deal_once_per_person(client: TestClient, store: SqliteStore) -> None:
    """Issue 22: one daily deal per person and day, however often they re-register
    (the same name again; a new account at the same address; an old one may)."""
    with from_address(client, "10.0.0.1"):
        ana = account(client, "Ana")
        first = ask_daily(client, ana)
        assert first["type"] == "joined", first
        gone = as_account(client, ana, "/api/account/delete", {"password": PASSWORD})
        assert gone.status_code == 200, gone.text
    # Signed up again with the same name (from elsewhere): no second try.
    with from_address(client, "10.0.0.9"):
        again = account(client, "Ana")
        frame = ask_daily(client, again)
        assert frame["type"] == "error" and frame["code"] == "daily-once", frame
        assert frame["message"]
    # A new account from another address plays.
    with from_address(client, "10.0.0.2"):
        ben = account(client, "Ben")
        assert ask_daily(client, ben)["type"] == "joined"
    with from_address(client, "10.0.0.1"):
        # A new account from where the deal was played today: refused.
        cai = account(client, "Cai")
        frame = ask_daily(client, cai)
        assert frame["type"] == "error" and frame["code"] == "daily-once", frame
        # An account older than a day on that address (a family): it may play.
        dee = account(client, "Dee")
        with store.transaction() as tx:
            tx.run(
                "UPDATE web_users SET created = ? WHERE name = 'Dee'",
                (time.time() - 2 * daily.NEW_ACCOUNT_SECONDS,),
            )
        assert ask_daily(client, dee)["type"] == "joined"
    with store.transaction() as tx:
        rows = tx.all(
            "SELECT name_hash, address_hash FROM web_daily WHERE day = ? ORDER BY started",
            (daily.today(),),
        )
    assert [r[1] for r in rows] == [hash_secret(h) for h in ("10.0.0.1", "10.0.0.2", "10.0.0.1")]
    assert rows[0][0] == hash_secret("ana") and len({r[0] for r in rows}) == 3


# -- the daily deal's secret --------------------------------------------------------


def daily_seed_of(client: TestClient, store: SqliteStore, name: str) -> int:
    """The seed of the daily table a new account of ``name`` gets today."""
    frame = ask_daily(client, account(client, name))
    assert frame["type"] == "joined", frame
    stored = store.load_table(frame["table"])
    assert stored is not None
    return stored.seed


def test_without_the_environment_the_site_keeps_its_own_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 22: the daily deal's secret (none in the environment: the store's own,
    the same after a restart, never the empty key, and a warning says so)."""
    monkeypatch.delenv(daily.SECRET_ENV, raising=False)
    caplog.set_level(logging.WARNING, logger="passing_game.web")
    path = tmp_path / "secret.sqlite3"
    secrets_seen = []
    for name in ("Ana", "Ben"):  # one server, then another on the same database
        store = SqliteStore(path)
        try:
            with time_limit(120), TestClient(create_app(store, bot_delay=0)) as client:
                secret = client.app.state.lobby.daily_secret
                secrets_seen.append(secret)
                with from_address(client, f"10.0.1.{len(secrets_seen)}"):
                    seed = daily_seed_of(client, store, name)
                assert seed == daily.daily_seed(daily.today(), secret)
                assert seed != daily.daily_seed(daily.today(), "")
                with store.transaction() as tx:
                    kept = tx.all("SELECT name, value FROM web_settings")
                assert kept == [(daily.SECRET_SETTING, secret)]
        finally:
            store.close()
    assert secrets_seen[0] == secrets_seen[1] and len(secrets_seen[0]) == 64
    warned = [r for r in caplog.records if NO_SECRET_WARNING in r.getMessage()]
    assert len(warned) == 2 and all(r.levelno == logging.WARNING for r in warned)
    assert secrets_seen[0] not in caplog.text  # never logged


def test_the_environments_secret_wins(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 22: the daily deal's secret (the environment's, when set, wins)."""
    monkeypatch.setenv(daily.SECRET_ENV, "the site's chosen secret")
    caplog.set_level(logging.WARNING, logger="passing_game.web")
    with time_limit(120), TestClient(create_app(store, bot_delay=0)) as client:
        assert client.app.state.lobby.daily_secret == "the site's chosen secret"
        seed = daily_seed_of(client, store, "Ana")
    assert seed == daily.daily_seed(daily.today(), "the site's chosen secret")
    with store.transaction() as tx:
        assert tx.all("SELECT name FROM web_settings") == []
    assert NO_SECRET_WARNING not in caplog.text
    # An empty variable is no secret: the store's own is used.
    monkeypatch.setenv(daily.SECRET_ENV, "")
    assert daily.site_secret(store) not in ("", "the site's chosen secret")


@pytest.mark.slow
def test_processes_on_one_database_share_the_stored_secret(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22: the daily deal's secret (two stores made at once and two server
    processes on one PostgreSQL agree on the store's own; never the empty key)."""
    from cluster_helpers import Browser, start, stop
    from passing_game.web.store import open_store

    monkeypatch.delenv(daily.SECRET_ENV, raising=False)
    stores = [open_store(pg_url) for _ in range(2)]
    found: list[str] = []
    barrier = threading.Barrier(2)

    def read(store: Any) -> None:
        barrier.wait(timeout=10)
        found.append(daily.site_secret(store, {}))

    try:
        threads = [threading.Thread(target=read, args=(s,)) for s in stores]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=20)
        assert len(found) == 2 and found[0] == found[1] and found[0]
        servers = start(pg_url, tmp_path, 2, bot_delay=0.05)
        try:
            codes = []
            for server, name in zip(servers, ("Ana", "Ben"), strict=True):
                web = Browser(server)
                web.post("/api/account/signup", {"name": name, "password": PASSWORD})
                with stores[0].transaction() as tx:  # both from 127.0.0.1: Ben is no newcomer
                    tx.run(
                        "UPDATE web_users SET created = ? WHERE name = 'Ben'",
                        (time.time() - 2 * daily.NEW_ACCOUNT_SECONDS,),
                    )
                person = web.socket(server)
                try:
                    person.send(type="daily")
                    frame = person.until(lambda f: f["type"] in ("joined", "error"))
                    assert frame["type"] == "joined", frame
                    codes.append(frame["table"])
                finally:
                    person.close()
        finally:
            stop(servers)
        seeds = []
        for code in codes:
            stored = stores[0].load_table(code)
            assert stored is not None
            seeds.append(stored.seed)
        assert seeds[0] == seeds[1] == daily.daily_seed(daily.today(), found[0])
        assert seeds[0] != daily.daily_seed(daily.today(), "")
        for server in servers:
            log = server.log_path.read_text()
            assert NO_SECRET_WARNING in log, log
            assert found[0] not in log
    finally:
        for store in stores:
            store.close()
