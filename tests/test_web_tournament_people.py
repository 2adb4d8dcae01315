"""A tournament's games as people play them, on two server processes and one
PostgreSQL (issue 26, item 1; P54, P65).

- A person who goes away from their tournament game (the socket closed, the
  offline grace over) is stood in for, also alone with a bot, which would
  adjourn a friends' table: the game is played out, the person forfeits it, and
  the tournament's standings and table say so; the record marks the stand-in's
  moves.
- A rated tournament's game changes both people's ratings, as the leaderboard on
  either process shows.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from cluster_helpers import Browser, Person, start, stop
from passing_game import load_record
from passing_game.records import record_marks
from tournament_helpers import play_own

PASSWORD = "correct horse battery"


def sign_up(browser: Browser, name: str) -> None:
    browser.post("/api/account/signup", {"name": name, "password": PASSWORD})


def begin(creator: Browser, others: list[Browser], settings: dict[str, Any]) -> str:
    """The creator makes the tournament, the others join, the creator starts it."""
    tid: str = creator.post("/api/tournaments", {**settings, "starts": time.time() + 300})["id"]
    for other in others:
        other.post(f"/api/tournaments/{tid}/join", {})
    creator.post(f"/api/tournaments/{tid}/start", {})
    return tid


def seat_of(browser: Browser, tid: str) -> dict[str, Any]:
    """The person's game, once the tournament has made it."""
    deadline = time.monotonic() + 20
    while True:
        seen = browser.get(f"/api/tournaments/{tid}")
        if seen["yours"]:
            found: dict[str, Any] = seen["yours"]
            return found
        assert time.monotonic() < deadline, seen
        time.sleep(0.3)


def sit(browser: Browser, yours: dict[str, Any], part: str, server: Any = None) -> Person:
    """At the table by account, the browser's part of the deal given (P51)."""
    person = browser.socket(server)
    person.send(type="resume", code=yours["code"], seat=yours["seat"])
    person.until(lambda f: f["type"] == "joined")
    person.send(type="contribute", value=part)
    return person


def finished(browser: Browser, tid: str, seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        seen: dict[str, Any] = browser.get(f"/api/tournaments/{tid}")
        if seen["status"] == "finished":
            return seen
        assert time.monotonic() < deadline, seen
        time.sleep(0.5)


def test_a_person_gone_from_a_tournament_game_is_stood_in_for_and_forfeits(
    pg_url: str, tmp_path: Path
) -> None:
    a, b = start(pg_url, tmp_path, 2, bot_delay=0.05, extra=("--offline-grace", "2"))
    try:
        ana_web, ben_web = Browser(a), Browser(b)
        sign_up(ana_web, "Ana")
        sign_up(ben_web, "Ben")
        settings = {"kind": "swiss", "name": "Leavers", "rounds": 1, "clock": "90",
                    "target": 30, "bots": 2, "bot_level": "easy"}  # fmt: skip
        tid = begin(ana_web, [ben_web], settings)
        ana_at, ben_at = seat_of(ana_web, tid), seat_of(ben_web, tid)
        assert ana_at["code"] != ben_at["code"]  # each with a bot: bots never meet alone
        ana = sit(ana_web, ana_at, "ab" * 8)
        ben = sit(ben_web, ben_at, "cd" * 8, a)
        dealt = ben.now(lambda f: f["started"] and f["dealing"] is None)
        assert dealt["alone"] is False  # a tournament's table is played out (P65)
        ben.close()  # gone: after the offline grace a stand-in plays Ben's seat
        last = play_own(ana, ana_at["seat"])
        ana.close()
        assert last["over"]
        final = finished(ana_web, tid)
        lines = {line["name"]: line for line in final["standings"]}
        assert lines["Ben"]["forfeits"] == 1 and lines["Ben"]["points"] == 0
        assert lines["Ben"]["games"] == 1 and lines["Ben"]["wins"] == 0
        [table] = [t for t in final["tables"] if "Ben" in t["seats"]]
        assert table["finished"] and table["forfeited"] == ["Ben"]
        bot = next(name for name in table["seats"] if name != "Ben")
        assert lines[bot]["bot"] and lines[bot]["points"] == 2  # the bot wins by forfeit
        record = ben_web.get(f"/api/tables/{ben_at['code']}/record")
        assert load_record(record).is_over
        marks = record_marks(record)
        assert "stand-in" in marks.values()  # the record says who played Ben's moves
        # Ana's game counts as its scores say, on either process.
        scores = load_record(ana_web.get(f"/api/tables/{ana_at['code']}/record")).scores
        mine, theirs = scores[ana_at["seat"]], scores[1 - ana_at["seat"]]
        assert lines["Ana"]["points"] == (2 if mine > theirs else 1 if mine == theirs else 0)
        assert lines["Ana"]["forfeits"] == 0
        here, there = (Browser(s).get(f"/api/tournaments/{tid}")["standings"] for s in (a, b))
        assert here == there  # the same standings on either process
    finally:
        stop([a, b])


def test_a_rated_tournaments_game_changes_the_ratings(pg_url: str, tmp_path: Path) -> None:
    a, b = start(pg_url, tmp_path, 2, bot_delay=0.05)
    try:
        ana_web, ben_web = Browser(a), Browser(b)
        sign_up(ana_web, "Ana")
        sign_up(ben_web, "Ben")
        assert ana_web.get("/api/leaderboard?pool=2")["players"] == []
        settings = {"kind": "swiss", "name": "Rated", "rounds": 1, "clock": "90",
                    "target": 20, "rated": True}  # fmt: skip
        tid = begin(ana_web, [ben_web], settings)
        ana_at, ben_at = seat_of(ana_web, tid), seat_of(ben_web, tid)
        assert ana_at["code"] == ben_at["code"]
        ana = sit(ana_web, ana_at, "ab" * 8)
        ben = sit(ben_web, ben_at, "cd" * 8, a)
        ends: dict[str, dict[str, Any]] = {}
        other = threading.Thread(target=lambda: ends.update(ben=play_own(ben, ben_at["seat"])))
        other.start()
        ends["ana"] = play_own(ana, ana_at["seat"])
        other.join(120)
        last = ana.now(lambda f: f["over"] and bool(f["ratings"]))
        changes = {c["seat"]: c for c in last["ratings"]}
        assert set(changes) == {0, 1}
        scores = last["scores"]
        if scores[0] != scores[1]:
            winner = scores.index(max(scores))
            assert changes[winner]["delta"] > 0 > changes[1 - winner]["delta"]
        ana.close()
        ben.close()
        board = ben_web.get("/api/leaderboard?pool=2")["players"]
        assert board == ana_web.get("/api/leaderboard?pool=2")["players"]
        assert sorted(p["rating"] for p in board) == sorted(c["after"] for c in changes.values())
        final = finished(ana_web, tid)
        assert final["settings"]["rated"] is True and len(final["tables"]) == 1
    finally:
        stop([a, b])
