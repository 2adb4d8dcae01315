"""The ladder on the site (issue 28, item 5; P63), in process on SQLite and PostgreSQL.

A real ladder file, made by a tiny ``passing-game arena --ladder`` run, is
read by the site's checker as written; every way a file can be wrong is
refused with a sentence and nothing stored; a published ladder is in the
store with its line in the moderators' log, ``GET /api/ladder`` answers it
(the newest, the levels in the visitor's language) and 404 before the first;
``passing-game admin ladder publish`` refuses what the service refuses, with
exit status 2, and leaves the database as it was.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("numpy", reason="the ladder's file is made by the arena (extra 'arena')")

from click.testing import CliRunner
from starlette.testclient import TestClient

from passing_game.arena.agents import Agent
from passing_game.arena.ladder import build, document, measure
from passing_game.arena.runner import run
from passing_game.cli import main
from passing_game.web import admin
from passing_game.web.http.app import create_app
from passing_game.web.ladder import model, service
from passing_game.web.store import SqliteStore, Store
from passing_game.web.store import ladder as ladder_rows
from site_helpers import addressed
from web_helpers import either_store, time_limit


@pytest.fixture(scope="module")
def made() -> dict[str, Any]:
    """A ladder file as the arena writes it: four agents, two of them levels."""
    agents = [
        Agent(n, "level" if n in ("easy", "medium") else "bot", n)
        for n in ("random", "easy", "medium", "heuristic")
    ]
    ladder = build(agents, rounds=4, seed=8)
    result = run(ladder.config, jobs=1)
    results = measure(ladder, result.outcomes, seconds=result.seconds)
    data = document(
        ladder,
        results,
        command="passing-game arena --ladder random easy medium heuristic --rounds 4 --seed 8",
        started=1_790_000_000.0,
        finished=1_790_000_060.0,
        jobs=1,
    )
    return json.loads(json.dumps(data, allow_nan=False))


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    yield from either_store(request.param, tmp_path, "ladder")


def test_the_site_reads_what_the_arena_writes(made: dict[str, Any]) -> None:
    checked = model.parse(json.dumps(made))
    assert [a["label"] for a in checked["agents"]] == [a["label"] for a in made["agents"]]
    assert checked["run"]["deals"] == 2 and checked["run"]["players"] == 2
    assert len(checked["pairs"]) == 6
    for agent in checked["agents"]:
        assert (
            agent["net"]
            == made["agents"][[a["label"] for a in made["agents"]].index(agent["label"])]["net"]
        )
    # Unknown fields are not kept: the site stores what it checked.
    extra = copy.deepcopy(made)
    extra["secret"] = "x"
    extra["agents"][0]["note"] = "y"
    kept = model.check(extra)
    assert "secret" not in kept and "note" not in kept["agents"][0]


def _broken(made: dict[str, Any], change: Any) -> dict[str, Any]:
    data = copy.deepcopy(made)
    change(data)
    return data


def test_every_wrong_file_is_refused_with_what_is_wrong(made: dict[str, Any]) -> None:
    cases: list[tuple[Any, str]] = [
        (lambda d: d.update(ladder=2), "not a ladder file of version 1"),
        (lambda d: d["run"].update(interrupted=True), "was interrupted"),
        (lambda d: d["run"].update(deals=1), "at least 2 deals"),
        (lambda d: d["run"].update(players=3), "2 players, or 4 in partnerships"),
        (lambda d: d["run"].update(finished=0.5), "run.finished"),
        (lambda d: d["run"].update(command=""), "run.command: must be a text"),
        (lambda d: d["run"].update(command="x\u0000y"), "must be printable"),
        (lambda d: d["run"]["rules"].update(colour="red"), "unknown rule colour"),
        (lambda d: d["agents"][0].update(kind="wizard"), "agents[0].kind: must be one of"),
        (lambda d: d["agents"][1].update(label=d["agents"][0]["label"]), "used twice"),
        (lambda d: d["agents"][0]["net"].update(low=None), "one end of its interval"),
        (lambda d: d["agents"][0]["net"].update(estimate="high"), "agents[0].net.estimate"),
        (lambda d: d["agents"][0]["round_wins"].update(estimate=1.5, high=1.6), "out of"),
        (lambda d: d["agents"][0]["net"].update(low=1e9, high=2e9), "not inside"),
        (lambda d: d["agents"][0].update(rounds=True), "whole number"),
        (lambda d: d["agents"][0]["faults"].update(exploded=1), "unknown fault"),
        (lambda d: d.update(agents=d["agents"][:1]), "2 to 64 agents"),
        (lambda d: d["pairs"].pop(), "is missing"),
        (lambda d: d["pairs"].append(d["pairs"][0]), "there twice"),
        (lambda d: d["pairs"][0].update(b=d["pairs"][0]["a"]), "with itself"),
        (lambda d: d["pairs"][0].update(a="nobody"), "names no agent"),
        (lambda d: d["pairs"][0].update(wins=d["pairs"][0]["wins"] + 1), "do not add up"),
        (lambda d: d.update(pairs={}), "pairs: must be a list"),
    ]
    for change, message in cases:
        with pytest.raises(model.LadderFileError, match=re.escape(message)):
            model.check(_broken(made, change))
    for text, message in [
        ("not json", "not JSON"),
        ('{"ladder": NaN}', "not JSON"),
        ("[]", "must be an object"),
        ("x" * (model.MAX_BYTES + 1), "larger than"),
        (b"\xff\xfe", "not JSON"),
    ]:
        with pytest.raises(model.LadderFileError, match=message):
            model.parse(text)


def test_publishing_keeps_the_ladder_and_its_reason(store: Store, made: dict[str, Any]) -> None:
    assert service.shown(store) is None
    number, checked = service.publish(
        store, json.dumps(made), actor="mod", reason="the weekly run", now=1_790_000_100.0
    )
    assert number == 1 and checked["agents"][0]["label"] == made["agents"][0]["label"]
    entry = admin.log_entries(store)[0]
    assert (entry.actor, entry.action, entry.reason) == ("mod", "ladder", "the weekly run")
    assert "ladder #1" in entry.target
    shown = service.shown(store)
    assert shown is not None and shown["number"] == 1 and shown["published"] == 1_790_000_100.0
    assert "actor" not in shown and "reason" not in shown
    # A second one is the newest; the first is kept.
    later = copy.deepcopy(made)
    later["run"]["seed"] = 99
    assert service.publish(store, json.dumps(later), actor="mod", reason="again")[0] == 2
    shown = service.shown(store)
    assert shown is not None and shown["number"] == 2 and shown["run"]["seed"] == 99
    with store.transaction() as tx:
        assert ladder_rows.count(tx) == 2


def test_a_refused_publication_changes_nothing(store: Store, made: dict[str, Any]) -> None:
    broken = _broken(made, lambda d: d["pairs"].pop())
    for text, reason, message in [
        (json.dumps(made), "  ", "give a reason"),
        (json.dumps(broken), "why not", "is missing"),
        ("{", "why not", "not JSON"),
    ]:
        with pytest.raises(admin.AdminError, match=message):
            service.publish(store, text, actor="mod", reason=reason)
    with store.transaction() as tx:
        assert ladder_rows.count(tx) == 0
    assert admin.log_entries(store) == []
    assert service.shown(store) is None


def test_the_api_answers_the_newest_ladder_in_the_visitors_language(
    store: Store, made: dict[str, Any]
) -> None:
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(60), TestClient(addressed(app)) as client:
        # Before any is published: the ladder the package ships, said to be that.
        first = client.get("/api/ladder")
        assert first.status_code == 200
        assert first.json() == service.shipped() and first.json()["shipped"] is True
        assert first.json()["published"] is None and len(first.json()["agents"]) >= 8
        page = client.get("/ladder")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        service.publish(store, json.dumps(made), actor="mod", reason="first")
        found = client.get("/api/ladder")
        assert found.status_code == 200 and found.headers["cache-control"] == "no-store"
        data = found.json()
        assert "shipped" not in data and data["number"] == 1
        by_label = {a["label"]: a for a in data["agents"]}
        assert by_label["medium"]["title"] == "Casual" and "about" in by_label["medium"]
        assert "title" not in by_label["random"]
        assert len(data["pairs"]) == 6 and data["run"]["rounds_per_pair"] == 4
        galician = client.get("/api/ladder?lang=gl").json()
        assert {a["label"]: a for a in galician["agents"]}["medium"]["title"] != "Casual"


def test_the_admin_command_publishes_and_refuses(tmp_path: Path, made: dict[str, Any]) -> None:
    path = tmp_path / "site.sqlite3"
    SqliteStore(path).close()
    good = tmp_path / "ladder.json"
    good.write_text(json.dumps(made))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_broken(made, lambda d: d["run"].update(interrupted=True))))
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (model.MAX_BYTES + 1))
    runner = CliRunner()
    base = ["--lang", "en", "admin", "--db", str(path), "ladder"]
    for args, message in [
        (["publish", str(good)], "--reason"),
        (["publish", str(bad), "--reason", "x"], "was interrupted"),
        (["publish", str(tmp_path / "none.json"), "--reason", "x"], "cannot read"),
        (["publish", str(big), "--reason", "x"], "larger than"),
    ]:
        done = runner.invoke(main, [*base, *args])
        assert done.exit_code == 2, (args, done.output)
        assert message in done.output and "Traceback" not in done.output, done.output
    shown = runner.invoke(main, [*base, "show"])
    assert shown.exit_code == 0 and "No ladder has been published yet." in shown.output
    done = runner.invoke(main, [*base, "publish", str(good), "--reason", "the weekly run"])
    assert done.exit_code == 0, done.output
    assert "Ladder 1 is on the site's /ladder page: 4 agents, led by" in done.output
    shown = runner.invoke(main, [*base, "show"])
    assert shown.exit_code == 0 and "the weekly run" in shown.output
    assert made["run"]["command"] in shown.output
    log = runner.invoke(main, ["--lang", "en", "admin", "--db", str(path), "log"])
    assert "ladder: publish" in log.output and "the weekly run" in log.output


def test_the_shipped_ladder_is_a_ladder_the_site_would_publish() -> None:
    """The package's own ladder (docs/STRENGTH.md "Ladder") passes the publish checks,
    ranks every level and the frozen expert, and its intervals hold their estimates."""
    shipped = service.shipped()
    assert shipped is not None
    labels = {a["label"] for a in shipped["agents"]}
    assert {"easy", "medium", "hard", "expert", "random", "expert-5f2ff52"} <= labels
    for agent in shipped["agents"]:
        assert agent["net"]["low"] <= agent["net"]["estimate"] <= agent["net"]["high"]
