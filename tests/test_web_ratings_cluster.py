"""A rated match across two server processes on one PostgreSQL (issue 13, item 10; P28, P30).

Ana signs up and plays through process A (which leads the table), Ben
through process B (a replica, whose moves are forwarded). The leader rates
the match once; B's frames show the same rating changes, read from the
store; the leaderboard and "My games" agree whichever process is asked.
"""

from __future__ import annotations

from typing import Any

from cluster_helpers import Browser, start, stop

PASSWORD = "correct horse battery"


def progress(frame: dict[str, Any]) -> tuple[int, int]:
    return (frame["round"]["number"], len(frame["round"]["history"]))


def test_a_rated_match_on_two_processes(pg_url: str, tmp_path: Any) -> None:
    a, b = start(pg_url, tmp_path, 2, bot_delay=0.05)
    try:
        ana_web, ben_web = Browser(a), Browser(b)
        ana_web.post("/api/account/signup", {"name": "Ana", "password": PASSWORD})
        ben_web.post("/api/account/signup", {"name": "Ben", "password": PASSWORD})
        ana, ben = ana_web.socket(), ben_web.socket()
        ana.send(
            type="create",
            name="Ana",
            seats=["you", "person"],
            rules={"players": 2, "target": 1},
            rated=True,
        )
        code = ana.until(lambda f: f["type"] == "joined")["table"]
        ben.send(type="join", code=code, name="Ben")
        assert ben.until(lambda f: f["type"] in ("joined", "error"))["type"] == "joined"
        people = {0: ana, 1: ben}
        frame = ana.now(lambda f: f["started"])
        for _ in range(400):
            if frame["over"]:
                break
            if frame["paused"]:
                for seat in frame["waiting"]:
                    people[seat].send(type="continue")
                frame = ana.state(lambda f: not f["paused"] or f["over"])
                continue
            mover = people[frame["round"]["to_move"]]
            seen = progress(frame)
            mine = mover.now(
                lambda f, seen=seen: (
                    progress(f) >= seen and (bool(f["round"]["legal"]) or f["over"] or f["paused"])
                ),
            )
            if mine["round"]["legal"] and not mine["paused"]:
                at = progress(mine)
                mover.act(mine["round"]["legal"][0])
                frame = ana.now(lambda f, at=at: progress(f) > at or f["over"] or f["paused"])
            else:
                frame = ana.now(lambda f: f["over"] or f["paused"])
        # Both processes show the same changes: A rated the match, B read them.
        last_a = ana.now(lambda f: f["over"] and bool(f["ratings"]))
        last_b = ben.now(lambda f: f["over"] and bool(f["ratings"]))
        assert last_a["ratings"] == last_b["ratings"]
        changes = {c["seat"]: c for c in last_a["ratings"]}
        winner = last_a["winner"]
        assert changes[winner]["delta"] > 0 > changes[1 - winner]["delta"]
        board_a = ana_web.get("/api/leaderboard?pool=2")["players"]
        assert board_a == ben_web.get("/api/leaderboard?pool=2")["players"]
        assert [p["rating"] for p in board_a] == sorted(
            (c["after"] for c in changes.values()), reverse=True
        )
        [game] = ben_web.get("/api/account/games")["games"]
        assert game["rating"]["delta"] == changes[1]["delta"] and game["code"] == code
        ana.close()
        ben.close()
    finally:
        stop([a, b])
