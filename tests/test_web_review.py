"""Replay and analysis over HTTP, in process (issue 13, items 6 and 7; web/review/api.py).

- a table's finished game comes as steps replayed by the engine; a game
  that goes on, and a table that does not exist, get the same 404 and
  never a tile;
- a downloaded record can be opened (an upload, checked by ``load_record``);
  bad files get a clear error, and so do records of unfinished games;
- the analysis runs in the analyst's workers with its progress readable,
  is kept per record and seat (a second request is a cache hit, also for
  another server process on the same database), and a row left by a dead
  process is taken over.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")

from starlette.testclient import TestClient

from analysis_helpers import BLUNDER_SEED, expert_record
from passing_game import Match, Rules, load_record
from passing_game.bots import analysis as an
from passing_game.records import dump_record
from passing_game.web.http.app import create_app
from passing_game.web.review import analyses
from passing_game.web.review import api as review
from passing_game.web.store import SqliteStore, Store
from web_helpers import TILE_TEXT, Player, create, either_store, time_limit


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    opened = SqliteStore(str(tmp_path / "review.sqlite3"))
    yield opened
    opened.close()


@pytest.fixture
def analyst() -> Iterator[review.Analyst]:
    """An analyst that searches in its own threads (quick to start); restored after."""
    mine = review.Analyst(workers=0)
    old = review.set_analyst(mine)
    yield mine
    review.set_analyst(old)
    mine.close()


def client_for(store: SqliteStore) -> TestClient:
    return TestClient(create_app(store, bot_delay=0, rate_limit=(1e6, 1e6)))


def csrf(client: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": client.get("/api/account").json()["csrf"]}


def tables(client: TestClient) -> tuple[str, str]:
    """A finished game (against a bot, to 10 points) and a game that goes on."""
    with client.websocket_connect("/ws") as ws:
        ana = Player(ws)
        done = create(ana, ["you", "random"], target=10)["table"]
        assert ana.play_out()["over"]
    with client.websocket_connect("/ws") as ws:
        live = create(Player(ws), ["you", "random"])["table"]
    return done, live


def wait_done(client: TestClient, key: str, seat: int, limit: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        got = client.get(f"/api/analysis/{key}/{seat}")
        assert got.status_code == 200, got.text
        if got.json()["status"] == "done":
            return dict(got.json())
        time.sleep(0.1)
    raise AssertionError("the analysis never finished")


def test_a_finished_games_steps_and_a_live_games_refusal(store: SqliteStore) -> None:
    with time_limit(120), client_for(store) as client:
        done, live = tables(client)
        record = client.get(f"/api/tables/{done}/record?game=1").text
        match = load_record(record)
        got = client.get(f"/api/replay/{done}/1")
        assert got.status_code == 200 and got.headers["cache-control"] == "no-store"
        data = got.json()
        assert data["code"] == done and data["game"] == 1 and data["over"]
        steps = data["steps"]
        assert len(steps) == sum(len(r.moves) + 1 for r in match.rounds)
        # The engine's positions: the first deal, and the last step's scores.
        first = match.rounds[0]
        assert steps[0]["hands"] == [[str(t) for t in hand] for hand in first.deal.hands]
        assert steps[0]["turn"] is None and steps[0]["line"].endswith("leads.")
        assert steps[-1]["scores"] == data["scores"] == match.scores
        assert steps[-1]["finished"] == len(data["pad"]) == len(match.results)
        assert data["winner"] == match.winner and "wins the match" in data["ending"]
        moves = [s["turn"]["move"] for s in steps if s["turn"]]
        assert moves == [str(m) for r in match.rounds for m in r.moves]
        # Every round's last step holds its result, every hand revealed.
        ends = [s for s in steps if "summary" in s]
        assert len(ends) == len(match.results)
        assert all(s["index"] == s["total"] for s in ends)
        # A draw: the open line names the tile, the public one does not.
        draws = [s for s in steps if s["turn"] and s["turn"]["move"] == "draw"]
        for s in draws:
            assert TILE_TEXT.search(s["line"]) and not TILE_TEXT.search(s["line_public"])

        # A game that goes on, a table that does not exist, a game that does not:
        # one answer, and not a single tile in it.
        answers = [
            client.get(f"/api/replay/{live}/1"),
            client.get("/api/replay/ZZZZZZ/1"),
            client.get(f"/api/replay/{done}/2"),
        ]
        assert {a.status_code for a in answers} == {404}
        assert len({a.text for a in answers}) == 1
        assert not TILE_TEXT.search(answers[0].text)
        refused = client.post(
            "/api/analysis", json={"code": live, "game": 1, "seat": 0}, headers=csrf(client)
        )
        assert refused.status_code == 404 and refused.text == answers[0].text
        assert client.get(f"/api/replay/{done}/0").status_code == 400
        assert client.get("/api/replay/NOT-A-CODE!/1").status_code in (400, 404)


def test_the_page_is_served_for_replay_links(store: SqliteStore) -> None:
    with client_for(store) as client:
        for path in ("/replay", "/replay/ABC234/1?seat=1&step=3"):
            page = client.get(path)
            assert page.status_code == 200 and "/static/replay.js" in page.text
            assert "script-src 'self'" in page.headers["content-security-policy"]


def test_an_uploaded_record_and_bad_files(store: SqliteStore) -> None:
    text = expert_record(3, target=20)
    with client_for(store) as client:
        token = csrf(client)
        got = client.post("/api/replay", content=text.encode(), headers=token)
        assert got.status_code == 200, got.text
        data = got.json()
        assert data["code"] is None and data["names"] == ["Expert A", "Expert B"]
        assert data["hash"] == review.record_hash(load_record(text), {})

        def refused(body: bytes, status: int = 400) -> str:
            answer = client.post("/api/replay", content=body, headers=token)
            assert answer.status_code == status, answer.text
            return str(answer.json()["error"])

        assert "not a usable game record" in refused(b"{not json")
        assert "not a usable game record" in refused(b"\xff\xfe\x00garbage")
        assert "not a usable game record" in refused(b"[1, 2]")
        chess = json.dumps({**json.loads(text), "format": "chess"}).encode()
        assert "not a passing-game record" in refused(chess)
        cheat = json.loads(text)
        cheat["rounds"][0]["moves"][0] = (
            "L6-6" if cheat["rounds"][0]["moves"][0] != "L6-6" else "pass"
        )
        assert "round 1, move 1" in refused(json.dumps(cheat).encode())
        going = Match(Rules(players=2), seed=9)
        going.play(going.legal_moves()[0])
        assert "not over" in refused(dump_record(going).encode())
        huge = b" " * (review.MAX_RECORD_BYTES + 1)
        assert "too large" in refused(huge, 413)
        # Without the page's CSRF token nothing is read.
        assert client.post("/api/replay", content=text.encode()).status_code == 403
        # Names are shown as text, cut to a display name's length.
        odd = json.loads(text)
        odd["names"] = ["<script>alert(1)</script>" * 3, "Ben"]
        named = client.post("/api/replay", content=json.dumps(odd).encode(), headers=token)
        assert (
            named.json()["names"][0].startswith("<script>") and len(named.json()["names"][0]) <= 24
        )


def test_the_analysis_runs_shows_progress_and_is_cached(
    store: SqliteStore, analyst: review.Analyst
) -> None:
    text = expert_record(BLUNDER_SEED, target=30, keep_heaviest=True)
    record = json.loads(text)
    with time_limit(180), client_for(store) as client:
        token = csrf(client)
        assert client.post("/api/analysis", json={"record": record, "seat": 0}).status_code == 403
        started = client.post("/api/analysis", json={"record": record, "seat": 0}, headers=token)
        assert started.status_code == 202, started.text
        body = started.json()
        key = body["hash"]
        assert body["status"] == "running" and body["done"] == 0 and body["total"] > 0
        again = client.post("/api/analysis", json={"record": record, "seat": 0}, headers=token)
        assert again.json()["status"] in ("running", "done")
        result = wait_done(client, key, 0)
        assert analyst.started == 1  # the second request joined the first
        a = result["analysis"]
        assert a["blunders"] >= 1 and a["decisions"] == len(a["evaluations"]) - sum(
            1 for e in a["evaluations"] if e["auto"]
        )
        assert len(a["costliest"]) == 3 and all(c["text"] for c in a["costliest"])
        assert a["costliest"][0]["mark"] == "blunder"
        assert a["costliest"][0]["played_words"].startswith(("play [", "draw", "pass", "lead"))
        assert a["thresholds"] == {"mistake": an.MISTAKE, "blunder": an.BLUNDER}
        # The same numbers as the analysis module gives.
        direct = an.analyse(load_record(text), 0, seed=an.record_seed(record))
        assert a["blunders"] == direct.count("blunder")
        assert a["total_loss"] == round(direct.total_loss, 1)
        # Luck and skill (issue 26, item 2; P53): the seat's net points in three parts
        # that add up, skill the analysis's own losses (a blunder made it negative).
        split = a["luck"]
        assert split["skill"] == -round(direct.total_loss, 3) < 0
        assert split["result"] == pytest.approx(split["luck"] + split["skill"] + split["rest"])
        replayed = load_record(text)
        net = sum(
            r.result.points_by_side()[0] - r.result.points_by_side()[1]
            for r in replayed.rounds
            if r.result is not None
        )
        assert split["result"] == net
        # A cache hit: answered at once, nothing run.
        hit = client.post("/api/analysis", json={"record": record, "seat": 0}, headers=token)
        assert hit.status_code == 200 and hit.json()["status"] == "done"
        assert analyst.started == 1
        # In another language, the same analysis in other words.
        galician = client.get(f"/api/analysis/{key}/0?lang=gl").json()["analysis"]
        assert galician["costliest"][0]["text"] != a["costliest"][0]["text"]
        assert galician["blunders"] == a["blunders"]

    # Another server process on the same database finds it done.
    other = review.Analyst(workers=0)
    old = review.set_analyst(other)
    try:
        with client_for(store) as client:
            hit = client.post(
                "/api/analysis", json={"record": record, "seat": 0}, headers=csrf(client)
            )
            assert hit.json()["status"] == "done" and other.started == 0
            assert client.get(f"/api/analysis/{'0' * 64}/0").status_code == 404
            assert client.get(f"/api/analysis/{key}/9").status_code == 404
            bad_seat = client.post(
                "/api/analysis", json={"record": record, "seat": 2}, headers=csrf(client)
            )
            assert bad_seat.status_code == 400
    finally:
        review.set_analyst(old)
        other.close()


def test_a_stored_games_analysis_in_worker_processes(store: SqliteStore) -> None:
    """The searches run in a spawned worker process; the table's game is read from the store."""
    mine = review.Analyst(workers=1)
    old = review.set_analyst(mine)
    try:
        with time_limit(180), client_for(store) as client:
            done, _live = tables(client)
            started = client.post(
                "/api/analysis", json={"code": done, "game": 1, "seat": 0}, headers=csrf(client)
            )
            assert started.status_code in (200, 202), started.text
            result = wait_done(client, started.json()["hash"], 0)
            assert mine._pool is not None  # the searches went to the process pool
            record = client.get(f"/api/tables/{done}/record?game=1").text
            direct = an.analyse(
                load_record(record), 0, seed=an.record_seed(json.loads(record)), marks={}
            )
            assert result["analysis"]["agreed"] == direct.agreed
            # Luck and skill: the expert's play of every deal also ran in the worker,
            # and gave what it gives here.
            from passing_game.web.review.analyses import luck_and_skill

            seed = an.record_seed(json.loads(record))
            here = luck_and_skill(load_record(record), 0, direct, seed)
            assert result["analysis"]["luck"] == here
            assert result["hash"] == client.get(f"/api/replay/{done}/1").json()["hash"]
    finally:
        review.set_analyst(old)
        mine.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """Both databases (PostgreSQL when PASSING_GAME_TEST_PG_URL names one)."""
    yield from either_store(request.param, tmp_path, "t")


def test_progress_is_shared_and_a_dead_processs_row_is_taken_over(any_store: Store) -> None:
    """Two server processes on one database: one runs the analysis, the other sees
    it run; once the first is gone (its row stale), the second takes it over."""
    store = any_store
    one, two = review.Analyst(workers=0), review.Analyst(workers=0)
    try:
        assert one.claim(store, "k" * 64, 0, 10) == ("mine", {})
        kind, state = two.claim(store, "k" * 64, 0, 10)
        assert kind == "running" and state["total"] == 10  # the other process sees it run
        with store.transaction() as tx:  # its process died long ago
            tx.run(
                "UPDATE web_analyses SET created = ?", (time.time() - 10 * review.STALE_SECONDS,)
            )
        assert two.claim(store, "k" * 64, 0, 10) == ("mine", {})
        assert one.claim(store, "k" * 64, 0, 10)[0] == "running"
    finally:
        one.close()
        two.close()


def test_too_many_analyses_at_once_are_refused(
    store: SqliteStore, analyst: review.Analyst, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analyses, "MAX_JOBS", 0)
    record = json.loads(expert_record(3, target=10))
    with client_for(store) as client:
        busy = client.post(
            "/api/analysis", json={"record": record, "seat": 0}, headers=csrf(client)
        )
        assert busy.status_code == 503 and "busy" in busy.json()["error"]
        assert analyst.started == 0
