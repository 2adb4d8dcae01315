"""A SIGKILL of the process running a tournament loses no game and no result
(issue 26, item 1; P54): two server processes on one PostgreSQL.

Ana and Ben are in a Swiss of one round; the process that paired them leads
their table. Both play through the other process; a few moves in, the
leader is killed with SIGKILL. The other process takes the table over, the
game goes on from the moves already made, and when it ends the same
process ends the tournament, whose standings are the stored record's.
"""

from __future__ import annotations

import contextlib
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from cluster_helpers import Browser, Person, start, stop
from passing_game import load_record
from web_helpers import Server

PASSWORD = "correct horse battery"


def health(server: Server) -> dict[str, Any]:
    with urllib.request.urlopen(server.url("/healthz"), timeout=5) as response:
        found: dict[str, Any] = json.load(response)
    return found


def progress(frame: dict[str, Any]) -> tuple[int, int]:
    return (frame["round"]["number"], len(frame["round"]["history"]))


def play(people: dict[int, Person], moves: int) -> dict[str, Any]:
    """The people play their own seats for ``moves`` moves or to the end; the last frame
    one of them saw. A refusal while a table changes hands is waited out."""
    watcher = people[0]
    frame = watcher.now(lambda f: f["started"], timeout=30)
    made = 0
    for _ in range(2000):
        if frame["over"] or made >= moves:
            return frame
        if frame["paused"]:
            for seat in frame["waiting"]:
                people[seat].send(type="continue")
            frame = watcher.state(lambda f: not f["paused"] or f["over"], timeout=30)
            continue
        mover = people[frame["round"]["to_move"]]
        seen = progress(frame)
        mine = mover.now(
            lambda f, seen=seen: progress(f) >= seen and (bool(f["round"]["legal"]) or f["over"]),
            timeout=30,
        )
        if mine["round"]["legal"] and not mine["over"]:
            at = progress(mine)
            mover.act(mine["round"]["legal"][0])
            with contextlib.suppress(AssertionError):
                frame = watcher.now(
                    lambda f, at=at: progress(f) > at or f["over"] or f["paused"], timeout=15
                )
                made += 1
                continue
            frame = watcher.now(lambda f: True)
        else:
            frame = watcher.now(lambda f: f["over"] or f["paused"] or bool(f["round"]["legal"]))
    raise AssertionError("the game did not end")


def test_a_sigkill_of_the_process_running_a_tournament_loses_nothing(
    pg_url: str, tmp_path: Path
) -> None:
    a, b = start(pg_url, tmp_path, 2, bot_delay=0.05)
    try:
        ana_web, ben_web = Browser(a), Browser(b)
        ana_web.post("/api/account/signup", {"name": "Ana", "password": PASSWORD})
        ben_web.post("/api/account/signup", {"name": "Ben", "password": PASSWORD})
        settings = {"kind": "swiss", "name": "Kill", "rounds": 1, "clock": "90", "target": 30}
        tid = ana_web.post("/api/tournaments", {**settings, "starts": time.time() + 300})["id"]
        ben_web.post(f"/api/tournaments/{tid}/join", {})
        started = ana_web.post(f"/api/tournaments/{tid}/start", {})
        deadline = time.monotonic() + 20
        while not started["yours"]:
            assert time.monotonic() < deadline, started
            time.sleep(0.3)
            started = ana_web.get(f"/api/tournaments/{tid}")
        code, ana_seat = started["yours"]["code"], started["yours"]["seat"]
        leader, survivor = (a, b) if health(a)["leases"] >= 1 else (b, a)
        assert health(leader)["leases"] >= 1
        ana, ben = ana_web.socket(survivor), ben_web.socket(survivor)
        ana.send(type="resume", code=code, seat=ana_seat)
        ben.send(type="resume", code=code, seat=1 - ana_seat)
        for person in (ana, ben):
            person.until(lambda f: f["type"] == "joined")
        people = {ana_seat: ana, 1 - ana_seat: ben}
        before = play(people, 6)
        made = [m["move"] if isinstance(m, dict) else m for m in before["round"]["history"]]
        assert made and not before["over"]
        leader.kill()
        last = play(people, 10_000)
        assert last["over"]
        deadline = time.monotonic() + 30
        while True:
            seen = Browser(survivor).get(f"/api/tournaments/{tid}")
            if seen["status"] == "finished":
                break
            assert time.monotonic() < deadline, seen
            time.sleep(0.5)
        record = Browser(survivor).get(f"/api/tables/{code}/record")
        match = load_record(record)
        first = [str(m) for m in match.rounds[before["round"]["number"] - 1].moves]
        assert [str(m) for m in made] == [
            str(m) for m in first[: len(made)]
        ]  # nothing said before the kill was lost
        scores = match.scores
        by_seat = {s: name for s, name in enumerate(seen["tables"][0]["seats"])}
        points = {line["name"]: line["points"] for line in seen["standings"]}
        for seat, name in by_seat.items():
            mine, theirs = scores[seat], scores[1 - seat]
            assert points[name] == (2 if mine > theirs else 1 if mine == theirs else 0)
        ana.close()
        ben.close()
    finally:
        stop([a, b])
