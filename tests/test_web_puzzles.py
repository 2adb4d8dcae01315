"""The puzzles' endpoints (issue 25, item 2), in process on SQLite and PostgreSQL.

A guest and an account solve puzzles: a first attempt changes both ratings
once, a second changes nothing; every answer gives each move's value and
why; a view puzzle shows no hidden tile before its answer; the puzzle of
the day is one for everyone; a streak rises and ends at the first wrong
answer, its best kept; bad input gets a JSON error with a code and changes
nothing; two processes rating one puzzle at once lose no update.
"""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")

from starlette.testclient import TestClient

from passing_game.moves import parse_move
from passing_game.puzzles import shipped
from passing_game.web.http.app import create_app
from passing_game.web.http.i18n import PAGE_PLURALS
from passing_game.web.http.texts import PAGE_TEXTS
from passing_game.web.puzzles import service
from passing_game.web.puzzles.model import Catalog
from passing_game.web.puzzles.service import Solver
from passing_game.web.puzzles.shown import puzzle_json
from passing_game.web.puzzles.words import PUZZLE_PLURALS, PUZZLE_TEXTS
from passing_game.web.store import Store
from passing_game.web.store import puzzles as rows
from site_helpers import Site
from web_helpers import either_store, time_limit

PUZZLES = shipped()
BY_ID = {p.id: p for p in PUZZLES}
CATALOG = Catalog(tuple(PUZZLES))
STATIC = Path(__file__).parent.parent / "src" / "passing_game" / "web" / "static"


@pytest.fixture(params=["sqlite", "postgresql"])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    yield from either_store(request.param, tmp_path, "pz")


@pytest.fixture
def site(any_store: Store) -> Iterator[Site]:
    app = create_app(any_store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(120), TestClient(app) as client:
        yield Site(client)


def right_and_wrong(puzzle_id: str) -> tuple[str, str]:
    puzzle = BY_ID[puzzle_id]
    answer = str(puzzle.answer[0])
    return answer, next(str(m) for m, _v in puzzle.values if m not in puzzle.answer)


def test_a_first_attempt_rates_both_once_and_says_why(site: Site, any_store: Store) -> None:
    got = site.get("ana", "/api/puzzles/next")
    assert got.status_code == 200 and "pg_solver" in got.headers.get("set-cookie", "")
    body = got.json()
    puzzle = body["puzzle"]
    assert body["you"]["rating"] == 1500 and body["tried"] is None
    assert len(puzzle["legal"]) >= 3
    right, wrong = right_and_wrong(puzzle["id"])
    solved = site.post("ana", f"/api/puzzles/{puzzle['id']}/solve", {"move": wrong}).json()
    assert solved["correct"] is False and solved["rated"] is True
    assert solved["answer"] == [str(m) for m in BY_ID[puzzle["id"]].answer]
    assert {row["move"] for row in solved["values"]} == set(puzzle["legal"])
    mine = next(row for row in solved["values"] if row["move"] == wrong)
    assert mine["loss"] >= 3 and "against the best" in mine["text"]
    assert solved["solver"]["after"] < solved["solver"]["before"] == 1500
    assert solved["puzzle_rating"]["after"] > solved["puzzle_rating"]["before"]
    assert solved["you"]["rating"] == solved["solver"]["after"]
    # Again, rightly this time: judged, nothing rated.
    again = site.post("ana", f"/api/puzzles/{puzzle['id']}/solve", {"move": right}).json()
    assert again["correct"] is True and again["rated"] is False
    assert again["solver"]["before"] == again["solver"]["after"] == solved["solver"]["after"]
    with any_store.transaction() as tx:
        row = rows.puzzle_row(tx, puzzle["id"])
    assert row is not None and (row.plays, row.solved) == (1, 0)
    # Another browser sees the puzzle's new rating; its own rating is new.
    other = site.get("ben", f"/api/puzzles/{puzzle['id']}").json()
    assert other["puzzle"]["rating"] == solved["puzzle_rating"]["after"]
    assert other["you"]["rating"] == 1500
    assert site.get("ana", f"/api/puzzles/{puzzle['id']}").json()["tried"] == {
        "correct": False,
        "move": wrong,
    }
    # The next puzzle is never one tried.
    assert site.get("ana", "/api/puzzles/next").json()["puzzle"]["id"] != puzzle["id"]


def test_an_account_keeps_its_rating_on_any_device(site: Site) -> None:
    site.sign_up("carla")
    puzzle = site.get("carla", "/api/puzzles/next").json()["puzzle"]
    right, _wrong = right_and_wrong(puzzle["id"])
    solved = site.post("carla", f"/api/puzzles/{puzzle['id']}/solve", {"move": right}).json()
    assert solved["correct"] and solved["solver"]["after"] > 1500
    site.jars["carla"].pop("pg_solver", None)  # another browser, the same session
    assert (
        site.get("carla", "/api/puzzles/daily").json()["you"]["rating"] == solved["solver"]["after"]
    )


def test_a_view_puzzle_shows_no_hidden_tile_before_its_answer(site: Site) -> None:
    """R9: before the answer a view puzzle's JSON holds the seat's view and nothing else."""
    checked = 0
    for puzzle in [p for p in PUZZLES if p.kind == "view"][:40]:
        text = site.get("dan", f"/api/puzzles/{puzzle.id}").text
        view = puzzle.view()
        seen = {str(t) for t in view.hand} | {str(p.tile) for p in view.train}
        seen |= {str(turn.drawn) for turn in view.history if turn.drawn is not None}
        found = set(re.findall(r'"([0-6]-[0-6])"', text))
        assert found <= seen, (puzzle.id, found - seen)
        shown_json = json.loads(text)["puzzle"]
        assert shown_json["hands"] is None and shown_json["boneyard_tiles"] is None
        # Neither as [a|b] in the log: only the seat's own draws are named.
        for tile in re.findall(r"\[([0-6])\|([0-6])\]", text):
            assert "-".join(sorted(tile)) in seen, (puzzle.id, tile)
        checked += 1
    assert checked == 40
    # After the answer, the deal is revealed.
    puzzle = next(p for p in PUZZLES if p.kind == "view")
    solved = site.post("dan", f"/api/puzzles/{puzzle.id}/solve", {"move": str(puzzle.answer[0])})
    reveal = solved.json()["reveal"]
    assert reveal["hands"] == [[str(t) for t in h] for h in puzzle.position().hands]


def test_an_open_puzzle_shows_every_hand_and_the_boneyard_order(site: Site) -> None:
    puzzle = next(p for p in PUZZLES if p.kind == "open")
    shown = site.get(None, f"/api/puzzles/{puzzle.id}").json()["puzzle"]
    rnd = puzzle.position()
    assert shown["hands"] == [[str(t) for t in h] for h in rnd.hands]
    assert shown["boneyard_tiles"] == [str(t) for t in rnd.boneyard]
    assert shown == puzzle_json(puzzle) | {"rating": shown["rating"], "settling": shown["settling"]}


def test_the_puzzle_of_the_day_is_the_same_for_everyone(site: Site) -> None:
    one = site.get("eve", "/api/puzzles/daily").json()
    two = site.get("fay", "/api/puzzles/daily").json()
    assert one["puzzle"]["id"] == two["puzzle"]["id"] and one["day"] == two["day"]


def test_a_streak_rises_and_ends_at_a_wrong_answer(site: Site) -> None:
    assert site.get("gus", "/api/puzzles/streak").json()["puzzle"] is None
    started = site.post("gus", "/api/puzzles/streak", {}).json()
    puzzle = started["puzzle"]
    seen = [puzzle["id"]]
    ratings = [puzzle["rating"]]
    for run in (1, 2):
        right, _ = right_and_wrong(puzzle["id"])
        solved = site.post("gus", f"/api/puzzles/{puzzle['id']}/solve", {"move": right}).json()
        assert solved["streak"]["run"] == run and not solved["streak"]["over"]
        # A reload finds the streak where it was.
        again = site.get("gus", "/api/puzzles/streak").json()
        assert again["puzzle"]["id"] == solved["streak"]["next"]
        puzzle = again["puzzle"]
        seen.append(puzzle["id"])
        ratings.append(puzzle["rating"])
    assert len(set(seen)) == 3
    _, wrong = right_and_wrong(puzzle["id"])
    ended = site.post("gus", f"/api/puzzles/{puzzle['id']}/solve", {"move": wrong}).json()
    assert ended["streak"] == {"run": 2, "best": 2, "over": True, "next": None}
    you = site.get("gus", "/api/puzzles/streak").json()
    assert you["puzzle"] is None and you["you"]["streak"]["best"] == 2
    # A new streak starts at 0 and keeps the best.
    assert site.post("gus", "/api/puzzles/streak", {}).json()["you"]["streak"]["best"] == 2


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"not json", 400, "bad-json"),
        (b'{"move": 5}', 400, "bad-request"),
        (b"[1, 2]", 400, "bad-request"),
        (b'{"move": "L9-9"}', 400, "bad-move"),
        (b'{"move": "' + b"x" * 400 + b'"}', 413, "too-large"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(
    site: Site, any_store: Store, body: bytes, status: int, code: str
) -> None:
    puzzle = PUZZLES[0]
    with site.as_("hal") as c:
        token = c.get("/api/account").json()["csrf"]
        got = c.post(
            f"/api/puzzles/{puzzle.id}/solve", content=body, headers={"X-CSRF-Token": token}
        )
    assert got.status_code == status and got.json()["code"] == code and got.json()["error"]
    with any_store.transaction() as tx:
        assert rows.puzzle_row(tx, puzzle.id) is None


def test_unknown_puzzles_illegal_moves_and_other_sites_are_refused(site: Site) -> None:
    assert site.get(None, "/api/puzzles/nope").json()["code"] == "no-puzzle"
    assert site.get(None, "/api/puzzles/" + "x" * 100).status_code == 404
    assert site.post("ivy", "/api/puzzles/nope/solve", {"move": "pass"}).status_code == 404
    puzzle = PUZZLES[0]
    illegal = next(
        f"L{a}-{b}"
        for a in range(7)
        for b in range(a, 7)
        if parse_move(f"L{a}-{b}") not in dict(puzzle.values)
    )
    got = site.post("ivy", f"/api/puzzles/{puzzle.id}/solve", {"move": illegal})
    assert got.status_code == 400 and got.json()["code"] == "illegal"
    assert sorted(got.json()["legal"]) == sorted(str(m) for m, _v in puzzle.values)
    with site.as_("ivy") as c:
        no_token = c.post(f"/api/puzzles/{puzzle.id}/solve", json={"move": "pass"})
        cross = c.post(
            f"/api/puzzles/{puzzle.id}/solve",
            json={"move": "pass"},
            headers={"Origin": "https://evil.example", "X-CSRF-Token": "x"},
        )
        streak = c.post("/api/puzzles/streak", json={})
    assert no_token.status_code == 403 and no_token.json()["code"] == "csrf"
    assert cross.status_code == 403 and cross.json()["code"] == "cross-site"
    assert streak.status_code == 403
    assert site.get("ivy", f"/api/puzzles/{puzzle.id}").json()["tried"] is None


def test_many_solvers_at_once_lose_no_update(any_store: Store) -> None:
    """Threads on one store (on PostgreSQL each its own connection, as processes are):
    every first attempt at one puzzle counts once, and one solver's double submit once."""
    puzzle = next(p for p in PUZZLES if p.kind == "open")
    errors: list[BaseException] = []

    def attempt(key: str) -> None:
        try:
            service.solve(
                any_store,
                CATALOG,
                Solver(key),
                puzzle,
                puzzle.answer[0],
                1.0,
                random.Random(0),
            )
        except BaseException as exc:
            errors.append(exc)

    keys = [f"g:{i}" for i in range(8)] + ["g:0"]
    threads = [threading.Thread(target=attempt, args=(k,)) for k in keys]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    with any_store.transaction() as tx:
        row = rows.puzzle_row(tx, puzzle.id)
        first = rows.solver(tx, "g:0")
    assert row is not None and (row.plays, row.solved) == (8, 8)
    assert first is not None and first.plays == 1
    assert row.rating < puzzle.rating - 50  # eight solves moved it eight times


def test_every_text_the_page_uses_is_in_the_catalog() -> None:
    assert set(PUZZLE_TEXTS) <= set(PAGE_TEXTS) and set(PUZZLE_PLURALS) <= set(PAGE_PLURALS)
    script = (STATIC / "puzzles.js").read_text()
    used = set(re.findall(r'\bn?t\("((?:[^"\\]|\\.)*)"', script))
    missing = {key for key in used if key not in PAGE_TEXTS and key not in PAGE_PLURALS}
    assert not missing, sorted(missing)


def test_the_page_is_served(site: Site) -> None:
    for path in ("/puzzles", "/puzzles/daily", "/puzzles/streak", f"/puzzles/{PUZZLES[0].id}"):
        got = site.get(None, path)
        assert got.status_code == 200 and "app.js" in got.text
