"""Tournaments over HTTP and the socket, in process (issue 26, item 1; P54).

Two people sign up, one creates a Swiss tournament, the other joins, both
are seated by the tournament, take their seats by account (no token) and
play the game out; the tournament then ends and ranks them as the stored
record says. Bad input gets a clear refusal and changes nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")

from starlette.testclient import TestClient

from passing_game import load_record
from passing_game.web.http.app import create_app
from passing_game.web.store import Store
from site_helpers import Site, addressed
from web_helpers import either_store, time_limit


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    yield from either_store(request.param, tmp_path, "tourapi")


@pytest.fixture
def site(store: Store) -> Iterator[Site]:
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(240), TestClient(addressed(app)) as client:
        made = Site(client)
        made.app = app  # type: ignore[attr-defined]
        yield made


def wait_for(site: Site, who: str, path: str, pred: object, seconds: float = 30) -> dict:  # type: ignore[type-arg]
    deadline = time.monotonic() + seconds
    while True:
        got = site.get(who, path).json()
        if pred(got):  # type: ignore[operator]
            return got  # type: ignore[no-any-return]
        assert time.monotonic() < deadline, got
        time.sleep(0.2)


def test_two_people_are_paired_play_and_are_ranked_as_the_record_says(site: Site) -> None:
    site.sign_up("Ana", "10.0.0.1")
    site.sign_up("Bob", "10.0.0.2")
    settings = {"kind": "swiss", "name": "Friday cup", "rounds": 1, "clock": "90", "target": 20}
    made = site.post("Ana", "/api/tournaments", settings)
    assert made.status_code == 200, made.text
    tid = made.json()["id"]
    assert made.json()["link"] == f"/tournament/{tid}"
    assert site.get(None, f"/tournament/{tid}").status_code == 200  # the page
    seen = site.get(None, f"/api/tournaments/{tid}").json()
    assert seen["status"] in ("open", "running") and "seed" not in seen["settings"]
    assert "creator" not in seen["settings"]  # an account's id is nobody else's business
    assert [line["name"] for line in seen["standings"]] == ["Ana"]  # the creator is in
    joined = site.post("Bob", f"/api/tournaments/{tid}/join", {})
    assert joined.status_code == 200, joined.text
    ana = wait_for(site, "Ana", f"/api/tournaments/{tid}", lambda s: s["yours"])
    bo = site.get("Bob", f"/api/tournaments/{tid}").json()
    code = ana["yours"]["code"]
    assert bo["yours"]["code"] == code and {ana["yours"]["seat"], bo["yours"]["seat"]} == {0, 1}
    assert site.get(None, f"/api/tournaments/{tid}").json()["yours"] is None
    with site.socket("Ana") as a, site.socket("Bob") as b:
        a.send(type="resume", code=code, seat=ana["yours"]["seat"])
        b.send(type="resume", code=code, seat=bo["yours"]["seat"])
        for player in (a, b):
            player.until(lambda f: f["type"] == "joined")
        first = a.until(lambda f: f["type"] == "state" and f["started"])
        assert first["clock"] is not None  # a tournament's games have clocks
        assert first["tournament"] is True  # the page offers no rematch, only the way back
        # No rematch at a tournament's table, and no hint.
        b.send(type="hint")
        assert b.error()["code"] == "no-hints"
        done = threading.Thread(target=b.play_out)
        done.start()
        last = a.play_out()
        done.join(60)
        assert last["over"]
        a.send(type="rematch")
        assert a.error()["code"] == "tournament-once"
    final = wait_for(site, None, f"/api/tournaments/{tid}", lambda s: s["status"] == "finished")
    app = site.app  # type: ignore[attr-defined]
    record = app.state.lobby.store.game_record(code, 1)
    scores = load_record(record).scores
    lines = {line["name"]: line["points"] for line in final["standings"]}
    seat_of = {"Ana": ana["yours"]["seat"], "Bob": bo["yours"]["seat"]}
    expected = {
        name: 2 if scores[s] > scores[1 - s] else 1 if scores[s] == scores[1 - s] else 0
        for name, s in seat_of.items()
    }
    assert lines == expected
    assert "seed" in final["settings"]  # revealed once it is over


def test_bad_requests_are_refused_and_change_nothing(site: Site) -> None:
    site.sign_up("Cyd", "10.0.0.3")
    signed_out = site.post(None, "/api/tournaments", {"kind": "swiss", "name": "X"})
    assert signed_out.status_code == 401 and signed_out.json()["code"] == "signed-out"
    bad = site.post("Cyd", "/api/tournaments", {"kind": "swiss", "name": "X", "clock": "1"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad-settings"
    assert "clock" in bad.json()["error"]
    with site.as_("Cyd") as c:
        token = c.get("/api/account").json()["csrf"]
        raw = c.post("/api/tournaments", content=b"{not json", headers={"X-CSRF-Token": token})
        no_csrf = c.post("/api/tournaments", content=b"{}")
    assert raw.status_code == 400 and raw.json()["code"] == "bad-request"
    assert no_csrf.status_code == 403
    assert site.get(None, "/api/tournaments/nope").status_code == 404
    missing = site.post("Cyd", "/api/tournaments/nope/join", {})
    assert missing.status_code == 400 and missing.json()["code"] == "refused"
    assert site.post("Cyd", "/api/tournaments/nope/dance", {}).status_code == 404
    assert site.get(None, "/api/tournaments").json()["tournaments"] == []  # private ones unlisted
    # A part of a duplicate's deals that is not one is refused, and nobody joins (P55).
    made = site.post("Cyd", "/api/tournaments", {"kind": "duplicate", "name": "D"})
    assert made.status_code == 200, made.text
    tid = made.json()["id"]
    for part in ("XYZ", 7, "ab" * 40):
        bad_part = site.post(
            "Cyd", "/api/tournaments", {"kind": "swiss", "name": "Y", "contribution": part}
        )
        assert bad_part.status_code == 400 and bad_part.json()["code"] == "bad-part"
        assert "hexadecimal" in bad_part.json()["error"]
    site.sign_up("Dan", "10.0.0.4")
    refused = site.post("Dan", f"/api/tournaments/{tid}/join", {"contribution": "no"})
    assert refused.status_code == 400 and refused.json()["code"] == "bad-part"
    names = [
        line["name"] for line in site.get("Dan", f"/api/tournaments/{tid}").json()["standings"]
    ]
    assert names == ["Cyd"]
