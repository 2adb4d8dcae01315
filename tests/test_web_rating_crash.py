"""A crash at the end of a rated game never leaves it unrated (issue 22, point 5; P40).

The record and the rating used to be stored in two transactions: a server
killed between them left a finished game with no rating, for good. Now they
are one transaction (``Store.finish_game`` runs ``ratings.rate_tx`` inside
it): a failure, or a crash, keeps neither, and the next start (or the next
leader) replays the game, finds it over and finishes it again, rated once.

SQLite: a trigger makes the rating's first write fail, as a crash would; a
new server on the same file then rates the game. PostgreSQL: a trigger holds
the leader inside the rating's transaction while the test kills it with
SIGKILL; the other process takes the table over and rates the game once.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("openskill")

from starlette.testclient import TestClient

from passing_game.web.http.app import create_app
from passing_game.web.store import SqliteStore, open_store
from site_helpers import PASSWORD, Site, addressed
from web_helpers import time_limit


def play_rated(site: Site) -> str:
    """Ana and Ben play a rated two-player match to its end (target 1); its code."""
    with site.socket("Ana") as ana, site.socket("Ben") as ben:
        ana.send(
            type="create",
            name="Ana",
            seats=["you", "person"],
            rules={"players": 2, "target": 1},
            rated=True,
        )
        code = str(ana.until(lambda f: f["type"] == "joined")["table"])
        ben.send(type="join", code=code, name="Ben")
        ben.until(lambda f: f["type"] == "joined")
        done: dict[str, Any] = {}
        other = threading.Thread(target=lambda: done.setdefault("ben", ben.play_out()))
        other.start()
        ana.play_out()
        other.join(60)
    return code


def counts(db: Path, code: str) -> tuple[int, int]:
    """(finished games with a record, rating changes) of the table."""
    conn = sqlite3.connect(db)
    try:
        finished = conn.execute(
            "SELECT COUNT(*) FROM web_games WHERE code = ? AND finished = 1 AND record IS NOT NULL",
            (code,),
        ).fetchone()[0]
        rated = conn.execute(
            "SELECT COUNT(*) FROM web_rating_changes WHERE code = ?", (code,)
        ).fetchone()[0]
    finally:
        conn.close()
    return int(finished), int(rated)


def test_a_failure_while_rating_keeps_neither_and_a_restart_rates_the_game(
    tmp_path: Path,
) -> None:
    """Issue 22, point 5 (SQLite): the rating's write fails as a crash would; the
    record was not kept alone; the next start finishes the game and rates it once."""
    db = tmp_path / "crash.sqlite3"
    store = SqliteStore(db)
    with store.transaction() as tx:
        tx.run(
            "CREATE TRIGGER crash BEFORE INSERT ON web_rating_changes"
            " BEGIN SELECT RAISE(ABORT, 'the server died here'); END"
        )
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(120), TestClient(addressed(app)) as client:
        site = Site(client)
        site.sign_up("Ana", address="203.0.113.1")
        site.sign_up("Ben", address="203.0.113.2")
        code = play_rated(site)
    store.close()
    assert counts(db, code) == (0, 0)  # neither the record nor the rating
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER crash")
    conn.commit()
    conn.close()
    again = SqliteStore(db)
    with time_limit(60), TestClient(create_app(again, bot_delay=0)) as client:
        board = client.get("/api/leaderboard?pool=2").json()["players"]
    again.close()
    assert counts(db, code) == (1, 2)
    assert sorted(p["name"] for p in board) == ["Ana", "Ben"]


def keep_playing(person: Any, stop: threading.Event) -> None:
    """Play one person's seat (the first legal move) until the match is over."""
    acted_at = None
    while not stop.is_set():
        try:
            frame = person.recv(timeout=1)
        except TimeoutError:
            continue
        except Exception:  # the socket's server was killed
            return
        if frame.get("type") != "state":
            continue
        if frame["over"]:
            return
        at = (frame["round"]["number"], len(frame["round"]["history"]), frame["paused"])
        if at == acted_at:
            continue
        if frame["paused"] and frame["you"] in frame["waiting"]:
            person.send(type="continue")
            acted_at = at
        elif frame["round"]["legal"] and not frame["paused"]:
            person.act(frame["round"]["legal"][0])
            acted_at = at


@pytest.mark.slow
def test_a_leader_killed_inside_the_rating_is_replaced_and_the_game_rated_once(
    pg_url: str, tmp_path: Path
) -> None:
    """Issue 22, point 5 (PostgreSQL, two processes): the leader is SIGKILLed while
    it holds the finishing transaction open; the other process takes the table
    over, finishes the game again and rates it exactly once."""
    from cluster_helpers import Browser, start, stop

    schema = pg_url.split("schema=", 1)[1]
    a, b = start(pg_url, tmp_path, 2, bot_delay=0.05)
    store = open_store(pg_url)
    stopping = threading.Event()
    try:
        with store.transaction() as tx:
            # The first rating write sleeps (once): the leader dies right there.
            tx.run("CREATE TABLE crash_once (armed INTEGER)")
            tx.run("INSERT INTO crash_once VALUES (1)")
            tx.run(
                f"""CREATE FUNCTION "{schema}".hold() RETURNS trigger AS $$
                BEGIN
                  IF EXISTS (SELECT 1 FROM crash_once) THEN
                    DELETE FROM crash_once;
                    PERFORM pg_sleep(30);
                  END IF;
                  RETURN NEW;
                END $$ LANGUAGE plpgsql"""
            )
            tx.run(
                "CREATE TRIGGER hold BEFORE INSERT ON web_rating_changes"
                f' FOR EACH ROW EXECUTE FUNCTION "{schema}".hold()'
            )
        ana_web, ben_web = Browser(a), Browser(b)
        ana_web.post("/api/account/signup", {"name": "Ana", "password": PASSWORD})
        ben_web.post("/api/account/signup", {"name": "Ben", "password": PASSWORD})
        ana, ben = ana_web.socket(), ben_web.socket()
        ana.send(
            type="create",
            name="Ana",
            seats=["you", "person"],
            rules={"players": 2, "target": 1},
            rated=True,
        )
        code = ana.until(lambda f: f["type"] == "joined")["table"]  # A leads it
        ben.send(type="join", code=code, name="Ben")
        ben.until(lambda f: f["type"] == "joined")
        players = [threading.Thread(target=keep_playing, args=(p, stopping)) for p in (ana, ben)]
        for thread in players:
            thread.start()
        deadline = time.monotonic() + 120
        while True:  # until the leader sleeps inside the finishing transaction
            with store.transaction() as tx:
                inside = tx.one(
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE state = 'active'"
                    " AND position('INSERT INTO web_rating_changes' in query) = 1"
                )
            if inside is not None and inside[0] > 0:
                break
            assert time.monotonic() < deadline, "the match never reached its rating"
            time.sleep(0.05)
        a.kill()  # SIGKILL, inside the finishing transaction
        with store.transaction() as tx:
            # Its connection dies with it (as its machine would), and the trap is off.
            tx.one(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE state = 'active'"
                " AND position('INSERT INTO web_rating_changes' in query) = 1"
            )
        with store.transaction() as tx:
            tx.run("DELETE FROM crash_once")
        with store.transaction() as tx:
            assert tx.one("SELECT COUNT(*) FROM web_rating_changes WHERE code = ?", (code,)) == (0,)
        players[1].join(90)  # Ben's process takes the table over and ends the match
        assert not players[1].is_alive()
        last = ben.now(lambda f: f["over"] and bool(f.get("ratings")), timeout=60)
        assert {c["seat"] for c in last["ratings"]} == {0, 1}
        with store.transaction() as tx:
            assert tx.one("SELECT COUNT(*) FROM web_rating_changes WHERE code = ?", (code,)) == (2,)
            row = tx.one("SELECT finished, rating FROM web_games WHERE code = ?", (code,))
        assert row == (1, "rated")
        assert json.loads(json.dumps(last["ratings"])) == last["ratings"]
        ben.close()
    finally:
        stopping.set()
        store.close()
        stop([a, b])
