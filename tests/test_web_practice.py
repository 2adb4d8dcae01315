"""Practice from a replay's position over HTTP and the socket, in process (issue 25,
item 3; web/practice/api.py), on SQLite and PostgreSQL.

- ``POST /api/practice`` makes a practice table from a table's finished game or
  an uploaded record: the person's seat, bots at the others, the moves made so
  far; the person resumes it with the token and plays the round to its end;
- the practice table is never rated, offers no rematch, is in nobody's
  history, and its record replays as one round;
- the table never sends the person another seat's hidden tiles (R9.2), dealt
  again or as they were, until the round's summary reveals them;
- bad input gets a JSON error with a code and changes nothing;
- the practice table survives a new process on the same database (a restart).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")

from starlette.testclient import TestClient

from passing_game import load_record
from passing_game.web.http.addresses import AddressLimits
from passing_game.web.http.app import create_app
from passing_game.web.practice import api as practice_api
from passing_game.web.practice import model
from passing_game.web.store import Store
from web_helpers import TILE_TEXT, Player, create, either_store, time_limit


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """Both databases (PostgreSQL when PASSING_GAME_TEST_PG_URL names one)."""
    yield from either_store(request.param, tmp_path, "practice")


def client_for(store: Store) -> TestClient:
    return TestClient(create_app(store, bot_delay=0, rate_limit=(1e6, 1e6)))


def csrf(client: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": client.get("/api/account").json()["csrf"]}


def finished(client: TestClient, seats: list[str], **rules: Any) -> str:
    with client.websocket_connect("/ws") as ws:
        ana = Player(ws)
        code = create(ana, seats, **rules)["table"]
        assert ana.play_out()["over"]
    return str(code)


def going_on_step(steps: list[dict[str, Any]], seat: int, least: int = 3) -> int:
    """A step in a round that goes on, a few moves in, with ``seat`` to move."""
    for i, step in enumerate(steps):
        if step["index"] >= least and "summary" not in step and step["to_move"] == seat:
            return i
    raise AssertionError("no such step")


def named_tiles(data: Any) -> set[str]:
    return {
        f"{min(int(a), int(b))}-{max(int(a), int(b))}"
        for a, b in TILE_TEXT.findall(json.dumps(data))
    }


def play_practice(client: TestClient, made: dict[str, Any]) -> tuple[Player, dict[str, Any]]:
    """Resume the practice seat with its token and play the round out."""
    with client.websocket_connect("/ws") as ws:
        me = Player(ws)
        me.send(type="resume", code=made["code"], seat=made["seat"], token=made["token"])
        me.until(lambda f: f["type"] == "joined")
        last = me.play_out()
    return me, last


def check_no_leak(me: Player) -> int:
    """R9.2: before the round is over, a frame names only the person's own hand and the
    train (every tile they drew is in one or the other)."""
    checked = 0
    for frame in me.frames:
        if frame["type"] != "state" or frame["over"] or frame.get("summary"):
            continue
        seen = set(frame["round"]["hand"]) | {
            f"{min(a, b)}-{max(a, b)}" for a, b in frame["round"]["train"]
        }
        assert named_tiles(frame) <= seen, named_tiles(frame) - seen
        checked += 1
    return checked


@pytest.mark.parametrize("hidden", ["redeal", "real"])
def test_play_on_from_a_stored_replay(store: Store, hidden: str) -> None:
    with time_limit(180), client_for(store) as client:
        code = finished(client, ["you", "random"], target=15)
        data = client.get(f"/api/replay/{code}/1").json()
        step = going_on_step(data["steps"], 0)
        shown = data["steps"][step]
        body = {"code": code, "game": 1, "step": step, "seat": 0, "level": "easy",
                "hidden": hidden, "name": "Ana"}  # fmt: skip
        got = client.post("/api/practice", json=body, headers=csrf(client))
        assert got.status_code == 201, got.text
        made = got.json()
        assert made["seat"] == 0 and made["link"] == f"/t/{made['code']}"
        assert made["hidden"] == hidden and made["level"] == "easy"

        # The table's first frame is the replay's position as seat 1 saw it.
        with client.websocket_connect("/ws") as ws:
            me = Player(ws)
            me.send(type="resume", code=made["code"], seat=0, token=made["token"])
            me.until(lambda f: f["type"] == "joined")
            first = me.next_state()
        assert first["practice"] is True and first["ratings"] is None
        assert first["round"]["hand"] == shown["hands"][0]
        assert first["round"]["train"] == shown["train"]
        assert [s["tiles"] for s in first["seats"]] == [len(h) for h in shown["hands"]]
        assert first["round"]["boneyard"] == shown["boneyard"]
        assert len(first["round"]["history"]) == shown["index"]
        assert [s["kind"] for s in first["seats"]] == ["human", "bot"]
        # Alone with bots, the person is not marked a guest: there is nobody to tell.
        assert [s["guest"] for s in first["seats"]] == [False, False]

        me, last = play_practice(client, made)
        assert last["over"] and last["practice"] and last["summary"]
        assert "practice round is over" in last["status"]
        assert len(last["pad"]) == 1
        assert check_no_leak(me) >= 1

        # No rematch, in nobody's history, and a record that replays one round.
        with client.websocket_connect("/ws") as ws:
            again = Player(ws)
            again.send(type="resume", code=made["code"], seat=0, token=made["token"])
            again.until(lambda f: f["type"] == "joined")
            again.send(type="rematch")
            assert again.error()["code"] == "practice-once"
        record = client.get(f"/api/tables/{made['code']}/record?game=1").json()
        assert record["practice"] is True and "winner" not in record
        assert len(record["rounds"]) == 1 and record["seed"] is None
        # The lobby's "Your games" marks it as practice.
        status = client.get(f"/api/tables/status?codes={made['code']},{code}").json()["tables"]
        assert [t["practice"] for t in status] == [True, False]
        replay = client.get(f"/api/replay/{made['code']}/1").json()
        assert {s["round"] for s in replay["steps"]} == {1}
        assert replay["steps"][shown["index"]]["hands"][0] == shown["hands"][0]
        if hidden == "real":
            assert replay["steps"][shown["index"]]["hands"] == shown["hands"]
        with store.transaction() as tx:
            row = tx.one("SELECT rated, origin FROM web_tables WHERE code = ?", (made["code"],))
            seat = tx.one(
                "SELECT user_id FROM web_seats WHERE code = ? AND seat = 0", (made["code"],)
            )
            changes = tx.one(
                "SELECT COUNT(*) FROM web_rating_changes WHERE code = ?", (made["code"],)
            )
        assert row is not None and not row[0] and row[1] == "practice"
        assert seat is not None and seat[0] is None and changes == (0,)


def test_a_redeal_is_never_sent_and_differs(store: Store) -> None:
    """Dealt again: the frames hold none of the new hidden tiles, and the stored deal
    is not the real one (it is, for some seed of the server's random draws)."""
    with time_limit(180), client_for(store) as client:
        code = finished(client, ["you", "random", "random"], target=10)
        data = client.get(f"/api/replay/{code}/1").json()
        step = going_on_step(data["steps"], 1)
        real = data["steps"][step]["hands"]
        differ = 0
        for _attempt in range(3):
            body = {"code": code, "game": 1, "step": step, "seat": 1, "level": "medium",
                    "hidden": "redeal"}  # fmt: skip
            made = client.post("/api/practice", json=body, headers=csrf(client)).json()
            with store.transaction() as tx:
                deal_text = tx.one(
                    "SELECT deal FROM web_games WHERE code = ? AND game = 1", (made["code"],)
                )
            assert deal_text is not None
            stored = json.loads(deal_text[0])
            with client.websocket_connect("/ws") as ws:
                me = Player(ws)
                me.send(type="resume", code=made["code"], seat=1, token=made["token"])
                me.until(lambda f: f["type"] == "joined")
                first = me.next_state()
                me.send(type="tracker")
                me.until(lambda f: f["type"] == "tracker")
            assert first["round"]["hand"] == real[1]
            check_no_leak(me)
            rules = load_record(client.get(f"/api/tables/{code}/record?game=1").text).rules
            deal = model.parse_deal(rules, json.dumps(stored))
            position = model.position(rules, deal, [])
            differ += [list(map(str, h)) for h in position.hands] != data["steps"][
                step - data["steps"][step]["index"]
            ]["hands"]
        assert differ >= 1


def test_an_uploaded_record_and_a_restart(store: Store, tmp_path: Path) -> None:
    with time_limit(180):
        with client_for(store) as client:
            code = finished(client, ["you", "random"], target=10)
            text = client.get(f"/api/tables/{code}/record?game=1").text
            data = client.post(
                "/api/replay",
                content=text,
                headers={**csrf(client), "Content-Type": "application/json"},
            ).json()
            step = going_on_step(data["steps"], 1)
            body = {"record": json.loads(text), "step": step, "seat": 1, "level": "hard",
                    "hidden": "real"}  # fmt: skip
            got = client.post("/api/practice", json=body, headers=csrf(client))
            assert got.status_code == 201, got.text
            made = got.json()
        # Another process on the same database (a restart): the table is in the store.
        with client_for(store) as client:
            _me, last = play_practice(client, made)
            assert last["over"] and last["practice"]


def test_bad_input_is_refused_with_a_code_and_changes_nothing(store: Store) -> None:
    with time_limit(180), client_for(store) as client:
        code = finished(client, ["you", "random"], target=10)
        with client.websocket_connect("/ws") as ws:
            live = create(Player(ws), ["you", "random"])["table"]
        data = client.get(f"/api/replay/{code}/1").json()
        steps = data["steps"]
        over = next(i for i, s in enumerate(steps) if "summary" in s)
        good = {"code": code, "game": 1, "step": 2, "seat": 0, "level": "easy", "hidden": "real"}
        headers = csrf(client)
        client.app.state.practice_limits = AddressLimits(1e6, 1e6)  # type: ignore[attr-defined]

        def count() -> int:
            with store.transaction() as tx:
                row = tx.one("SELECT COUNT(*) FROM web_tables")
            assert row is not None
            return int(row[0])

        before = count()
        cases: list[tuple[Any, int, str]] = [
            ("not json", 400, "bad-request"),
            ([1, 2], 400, "bad-request"),
            ({**good, "code": "ZZZZZZ"}, 404, "not-found"),
            ({**good, "code": live}, 404, "not-found"),
            ({**good, "code": "no!"}, 400, "bad-code"),
            ({**good, "game": 0}, 400, "bad-game"),
            ({**good, "game": 2}, 404, "not-found"),
            ({**good, "step": len(steps)}, 400, "bad-step"),
            ({**good, "step": -1}, 400, "bad-step"),
            ({**good, "step": "2"}, 400, "bad-step"),
            ({**good, "step": over}, 400, "round-over"),
            ({**good, "seat": 2}, 400, "bad-seat"),
            ({**good, "seat": True}, 400, "bad-seat"),
            ({**good, "level": "grandmaster"}, 400, "bad-level"),
            ({**good, "level": None}, 400, "bad-level"),
            ({**good, "hidden": "peek"}, 400, "bad-hidden"),
            ({**good, "name": "Hard bot"}, 400, "name-reserved"),
            (
                {
                    **{k: v for k, v in good.items() if k not in ("code", "game")},
                    "record": {"x": 1},
                },
                400,
                "record",
            ),
            (
                {**{k: v for k, v in good.items() if k not in ("code", "game")}, "record": 7},
                400,
                "record",
            ),
        ]
        for body, status, code_expected in cases:
            text = body if isinstance(body, str) else json.dumps(body)
            got = client.post(
                "/api/practice",
                content=text,
                headers={**headers, "Content-Type": "application/json"},
            )
            assert got.status_code == status, (body, got.text)
            answer = got.json()
            assert answer["code"] == code_expected and answer["error"], (body, answer)
        # Without the page's token: refused before anything is read.
        assert client.post("/api/practice", json=good).status_code == 403
        assert count() == before
        assert client.post("/api/practice", json=good, headers=headers).status_code == 201
        assert count() == before + 1
        # An address makes PRACTICE_REQUESTS' burst of them, then waits.
        client.app.state.practice_limits = AddressLimits(*practice_api.PRACTICE_REQUESTS)  # type: ignore[attr-defined]
        answers = [
            client.post("/api/practice", json={**good, "level": "x"}, headers=headers)
            for _ in range(12)
        ]
        assert answers[0].json()["code"] == "bad-level"
        assert answers[-1].status_code == 429 and answers[-1].json()["code"] == "rate-limit"
        assert answers[-1].headers["retry-after"]
