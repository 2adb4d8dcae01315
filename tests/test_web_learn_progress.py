"""The tutorial's progress kept on the account (issue 25: "progress is kept
(account or browser)"): lessons done are the account's on every device, the
browser's earlier ones join it, and bad input changes nothing. SQLite and
PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")

from starlette.testclient import TestClient

from passing_game.learn import LESSONS
from passing_game.web.http.app import create_app
from passing_game.web.store import PostgresStore, SqliteStore, Store
from site_helpers import Site
from web_helpers import PG_URL, pg_schema, time_limit

pytestmark = pytest.mark.web

FIRST, SECOND, THIRD = (lesson.id for lesson in LESSONS[:3])


@pytest.fixture(params=["sqlite", "postgresql"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Site]:
    def serve(store: Store) -> Iterator[Site]:
        app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
        with time_limit(120), TestClient(app) as client:
            yield Site(client)
        store.close()

    if request.param == "sqlite":
        yield from serve(SqliteStore(tmp_path / "learn.sqlite3"))
        return
    with pg_schema("learn") as schema:
        assert PG_URL is not None
        yield from serve(PostgresStore(PG_URL, schema=schema))


def test_a_guest_gets_no_done_list_and_cannot_keep_one(site: Site) -> None:
    assert "done" not in site.get(None, "/api/learn").json()
    refused = site.post(None, "/api/learn/done", {"lessons": [FIRST]})
    assert refused.status_code == 401 and refused.json()["code"] == "signed-out"


def test_lessons_done_are_the_accounts_on_every_device(site: Site) -> None:
    site.sign_up("ana")
    assert site.get("ana", "/api/learn").json()["done"] == []
    kept = site.post("ana", "/api/learn/done", {"lessons": [SECOND, FIRST, SECOND]})
    assert kept.status_code == 200, kept.text
    assert sorted(kept.json()["done"]) == sorted([FIRST, SECOND])
    # Another browser signs in to the same account: the same lessons are done.
    site.jars["phone"] = {}
    assert site.sign_in("phone", "ana").status_code == 200
    assert sorted(site.get("phone", "/api/learn").json()["done"]) == sorted([FIRST, SECOND])
    # What that browser did before (sent by the page on load) joins them, once each.
    site.post("phone", "/api/learn/done", {"lessons": [THIRD, FIRST]})
    assert sorted(site.get("ana", "/api/learn").json()["done"]) == sorted([FIRST, SECOND, THIRD])
    # Another account has done nothing.
    site.sign_up("bruno")
    assert site.get("bruno", "/api/learn").json()["done"] == []


@pytest.mark.parametrize(
    ("body", "code", "status"),
    [
        ({"lessons": "r4-1"}, "bad-lessons", 400),
        ({"lessons": [1, 2]}, "bad-lessons", 400),
        ({"nothing": []}, "bad-lessons", 400),
        ({"lessons": [FIRST, "no-such-lesson"]}, "no-lesson", 404),
        ({"lessons": ["x" * 5000]}, "too-large", 413),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(
    site: Site, body: dict[str, object], code: str, status: int
) -> None:
    site.sign_up("carla")
    got = site.post("carla", "/api/learn/done", body)
    assert got.status_code == status and got.json()["code"] == code, got.text
    assert got.json()["error"]
    assert site.get("carla", "/api/learn").json()["done"] == []


def test_not_json_and_other_sites_are_refused(site: Site) -> None:
    site.sign_up("dora")
    with site.as_("dora") as c:
        token = c.get("/api/account").json()["csrf"]
        bad = c.post("/api/learn/done", content=b"{not json", headers={"X-CSRF-Token": token})
        assert bad.status_code == 400 and bad.json()["code"] == "bad-lessons"
        forged = c.post(
            "/api/learn/done", content=b'{"lessons": []}', headers={"X-CSRF-Token": "x"}
        )
        assert forged.status_code == 403 and forged.json()["code"] == "csrf"
    assert site.get("dora", "/api/learn").json()["done"] == []
