"""A bot account on three server processes, one PostgreSQL (issue 28, item 4; P62).

The bot's socket, the person's and the table's leader are on different
processes: Robo accepts Ana's challenge through process 1 (which leads the
table from then on), then its socket moves to process 2 (the old one is told
it was replaced) while Ana plays through process 3. Robo answers with
garbage, a huge line and a wrong decision number, then lets its clock run out
once (a move is made for it, marked), then goes away mid-game: a stand-in
plays its seat (its clock ran out twice, or the offline grace passed), and
Robo comes back through process 3, is sent the game's start again and takes
its seat back. The game ends with every
process alive, its record marking the moves made for the bot. Quick play
seats a seeking bot of process 2 with a person of process 3 who chose bots.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from cluster_helpers import Browser, Person, connect, start, stop
from web_helpers import Server

PASSWORD = "correct horse battery"
#: A short clock, so that one late answer runs it out.
CLOCK = {"move": 3, "bank": 0}


class BotClient:
    """A bot's socket over a real WebSocket, with its token in the header."""

    def __init__(self, server: Server, token: str) -> None:
        self._cm = connect(
            f"ws://127.0.0.1:{server.port}/bot",
            open_timeout=10,
            additional_headers={"Authorization": f"Bearer {token}"},
        )
        self.ws = self._cm.__enter__()
        self.send(type="hello", protocol=1, name="cluster bot")
        self.welcome = self.until(lambda m: m["type"] == "welcome")

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        line: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        return line

    def until(self, pred: Any, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, "the expected line never came"
            line = self.recv(left)
            if pred(line):
                return line

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


def is_decision(line: dict[str, Any]) -> bool:
    return line["type"] == "decision"


def person_moves(ana: Person, until: Any, timeout: float = 120) -> dict[str, Any]:
    """Ana plays her turns (first legal move) until a frame satisfies ``until``."""
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "the game did not get there"
        frame = ana.state(timeout=deadline - time.monotonic())
        if until(frame):
            return frame
        if frame["paused"] and frame["you"] in frame["waiting"]:
            ana.send(type="continue")
        elif frame["round"]["legal"]:
            ana.act(frame["round"]["legal"][0])


def stand_in_moved(frame: dict[str, Any] | None) -> bool:
    """Whether a stand-in plays the bot's seat and has made a move of this round."""
    if frame is None or not frame["seats"][1]["standin"]:
        return False
    return any(t.get("auto") == "stand-in" for t in frame["round"]["history"])


def in_thread(work: Any) -> tuple[threading.Thread, list[Any]]:
    done: list[Any] = []
    thread = threading.Thread(target=lambda: done.append(work()), daemon=True)
    thread.start()
    return thread, done


@pytest.fixture
def three(pg_url: str, tmp_path: Path) -> Any:
    servers = start(pg_url, tmp_path, 3, bot_delay=0.05, extra=("--offline-grace", "4"))
    yield servers
    stop(servers)


def healthy(server: Server) -> bool:
    with urllib.request.urlopen(server.url("/healthz"), timeout=10) as response:
        return bool(json.load(response)["ok"])


def test_a_bot_plays_across_three_processes_through_bad_answers_a_timeout_and_a_disconnect(
    three: list[Server],
) -> None:
    one, two, three_ = three
    ana = Browser(one)
    ana.post("/api/account/signup", {"name": "Ana", "password": PASSWORD})
    token = ana.post("/api/bots", {"name": "Robo"})["token"]
    robo = BotClient(one, token)
    settings = {"rules": {"players": 2, "target": 150}, "seats": ["you", "person"]}
    ana.post("/api/social/challenge", {"name": "Robo", **settings, "clock": CLOCK})
    offered = robo.until(lambda m: m["type"] == "challenge")
    robo.send(type="accept", challenge=offered["id"])
    code = robo.until(lambda m: m["type"] == "challenge_over")["table"]
    robo.until(lambda m: m["type"] == "start")

    # The bot's socket moves to process 2; process 1 still leads the table.
    moved = BotClient(two, token)
    assert robo.until(lambda m: m["type"] == "closed")["code"] == "replaced"
    robo.close()
    assert moved.until(lambda m: m["type"] == "start")["table"] == code
    sock = ana.socket(three_)  # Ana plays through process 3, all along
    sock.send(type="resume", code=code, seat=0)
    ana_thread, final = in_thread(lambda: person_moves(sock, lambda f: f["over"], 300))

    # Garbage, a huge line and a wrong decision number: errors, the table goes on.
    decision = moved.until(is_decision, timeout=60)
    for text in ("{{", "y" * 50_000, json.dumps({"table": code, "id": 999, "move": "draw"})):
        moved.ws.send(text)
        assert moved.until(lambda m: m["type"] == "error")["code"] in ("bad-line", "stale")
    # No answer: the clock runs out, a move is made for the bot, the next decision comes.
    late = moved.until(is_decision, timeout=30)
    assert late["id"] > decision["id"]  # the settled decision counted
    moved.send(table=code, id=decision["id"], move=decision["legal"][0])
    assert moved.until(lambda m: m["type"] == "error")["code"] == "stale"
    moved.send(table=code, id=late["id"], move=late["legal"][0])

    # Gone mid-game: a stand-in plays the bot's seat (offline, or out of time twice).
    moved.close()
    deadline = time.monotonic() + 60
    while not stand_in_moved(sock.latest):
        assert time.monotonic() < deadline and not (sock.latest and sock.latest["over"])
        time.sleep(0.1)
    # Back through process 3: the game's start again, and the seat taken back.
    back = BotClient(three_, token)
    assert code in back.welcome["tables"] or back.until(lambda m: m["type"] == "start")
    answered = 0
    while (line := back.recv(timeout=120))["type"] != "game_end":
        if is_decision(line):
            back.send(table=code, id=line["id"], move=line["legal"][-1])
            answered += 1
    ana_thread.join(60)
    assert final and final[0]["over"] and answered >= 1
    assert not final[0]["seats"][1]["standin"]  # the bot played its own seat at the end
    record = ana.get(f"/api/tables/{code}/record?game=1")
    marks = json.dumps([r.get("marks") for r in record["rounds"]])
    assert "timeout" in marks and "stand-in" in marks
    assert all(server.proc.poll() is None and healthy(server) for server in three)
    back.close()
    sock.close()


def test_quick_play_seats_a_bot_of_one_process_with_a_person_of_another(
    three: list[Server],
) -> None:
    one, two, three_ = three
    ana = Browser(one)
    ana.post("/api/account/signup", {"name": "Ana", "password": PASSWORD})
    token = ana.post("/api/bots", {"name": "Robo"})["token"]
    robo = BotClient(two, token)
    robo.send(type="seek", players=2, rated=False)
    assert robo.until(lambda m: m["type"] == "seeking")["players"] == 2
    cyd = Browser(three_)
    cyd.post("/api/account/signup", {"name": "Cyd", "password": PASSWORD})
    sock = cyd.socket()
    sock.send(type="quick", players=2, bots=True)
    joined = sock.until(lambda f: f["type"] == "joined", timeout=30)
    start_line = robo.until(lambda m: m["type"] == "start")
    assert start_line["table"] == joined["table"] and sorted(start_line["names"]) == ["Cyd", "Robo"]
    robo.close()
    sock.close()
