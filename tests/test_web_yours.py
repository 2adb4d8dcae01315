"""Your games first (issue 24, item 2): how the tables a visitor holds a seat
at stand, from the store (``GET /api/tables/status``), for any process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")

from starlette.testclient import TestClient

from passing_game.web.http.app import create_app
from passing_game.web.store import SqliteStore
from passing_game.web.yours import MOST_CODES
from web_helpers import Player, time_limit


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = SqliteStore(tmp_path / "tables.sqlite3")
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(60), TestClient(app) as made:
        yield made
    store.close()


def test_a_table_you_sit_at_says_whose_turn_it_is(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        ana = Player(ws)
        ana.send(type="create", name="Ana", seats=["you", "greedy"], rules={"players": 2})
        code = ana.until(lambda f: f["type"] == "joined")["table"]
        frame = ana.until(lambda f: f["type"] == "state" and bool(f["round"]["legal"]))
        found = client.get(f"/api/tables/status?codes={code},ZZZZZZ").json()["tables"]
    assert [t["code"] for t in found] == [code], "a code that names no table is left out"
    (table,) = found
    assert table["started"] and not table["over"]
    assert table["to_move"] == 0 == frame["round"]["to_move"]
    assert table["adjourned"] is None and table["link"] == f"/t/{code}"
    assert table["practice"] is False  # a practice round from a replay says so
    assert table["names"] == [s["name"] for s in frame["seats"]]
    # What anyone watching sees, and nothing more: no hand, no tile at all.
    assert set(table) == {
        "code",
        "started",
        "over",
        "to_move",
        "adjourned",
        "names",
        "scores",
        "round",
        "link",
        "practice",
        "bots",  # which seats are bot accounts (P62), as the seats show
    }
    assert table["bots"] == [False, False]


def test_bad_codes_are_refused_with_a_reason(client: TestClient) -> None:
    bad = client.get("/api/tables/status?codes=ABC,<script>")
    assert bad.status_code == 400 and bad.json()["code"] == "bad-code"
    many = ",".join(f"AAAAA{c}" for c in "ABCDEFGHJKMNPQRSTUVWXYZ2"[: MOST_CODES + 1])
    too_many = client.get(f"/api/tables/status?codes={many}")
    assert too_many.status_code == 400 and too_many.json()["code"] == "too-many"
    assert client.get("/api/tables/status").json() == {"tables": []}
