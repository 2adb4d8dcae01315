"""Your data: every finished game of one's account as JSON lines (issue 27, item 4),
in process on SQLite and PostgreSQL.

Ana plays two games at two tables and starts a third game she leaves under
way; Ben plays one. Ana's export holds her two finished games, one record a
line, each read back by ``load_record`` with the scores the table showed,
in order, across pages of the store (a page of one record here); a game
under way and Ben's game are not in it; nobody signed out gets anything.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")


from passing_game.records import load_record
from passing_game.web.yourdata import export
from site_helpers import Site, either_site
from web_helpers import create


@pytest.fixture(params=["sqlite", "postgresql"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Site]:
    yield from either_site(request.param, tmp_path, "export")


def lines_of(site: Site, who: str | None) -> list[str]:
    got = site.get(who, "/api/account/export")
    assert got.status_code == 200, got.text
    assert got.headers["content-type"].startswith("application/x-ndjson")
    assert "attachment" in got.headers["content-disposition"]
    return got.text.splitlines()


def test_an_export_holds_every_finished_game_of_the_account_and_no_other(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(export, "PAGE", 1)  # every record a page of its own
    site.sign_up("Ana")
    site.sign_up("Ben")
    finished: dict[str, list[int]] = {}
    for table in range(2):
        with site.socket("Ana") as ana:
            code = create(ana, ["you", "random"], target=10)["table"]
            finished[code] = ana.play_out()["scores"]
            if table == 1:
                ana.send(type="rematch")  # a third game, under way: never in the export
                ana.until(lambda f: f["type"] == "state" and f["game"] == 2)
    with site.socket("Ben") as ben:
        bens = create(ben, ["you", "random"], target=10)["table"]
        ben.play_out()

    lines = lines_of(site, "Ana")
    assert len(lines) == 2
    records = [json.loads(line) for line in lines]
    codes = sorted(finished)
    for line, code in zip(lines, codes, strict=True):
        match = load_record(line)  # each line a record as the server wrote it
        assert list(match.scores) == finished[code]
        saved = site.get(None, f"/api/tables/{code}/record?game=1").json()
        assert json.loads(line) == saved
    assert [r["names"][0] for r in records] == ["Ana", "Ana"]
    assert bens not in "".join(lines) and len(lines_of(site, "Ben")) == 1
    signed_out = site.get(None, "/api/account/export")
    assert signed_out.status_code == 401 and signed_out.json()["code"] == "signed-out"
