"""Kill the server mid-game (SIGKILL), start it again, finish the game.

`passing-game serve` runs as a real process on 127.0.0.1 with an SQLite
file. A person (this test, over a real WebSocket) plays part of a game
against two bots; the server is killed without warning; a new server on the
same file resumes the game; the person takes the seat back with the token
and plays on to the end. The finished record must be exactly the game an
uninterrupted run gives: the same seed, every move once, none lost.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from passing_game import Match, Rules, load_record, parse_move
from passing_game.bots import make
from web_helpers import Server, free_port, progress

SEATS = ["you", "greedy", "random"]


class Client:
    """A person over a real WebSocket, playing the first legal move."""

    def __init__(self, port: int) -> None:
        self._cm = connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10)
        self.ws = self._cm.__enter__()
        self.latest: dict[str, Any] | None = None
        self.acted: tuple[int, ...] = (0,)

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def recv(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=30))
        assert frame["type"] != "error", frame
        if frame["type"] == "state":
            self.latest = frame
        return frame

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            frame = self.recv()
            if frame["type"] == kind:
                return frame

    def play(self, moves: int | None) -> dict[str, Any]:
        """Play the first legal move each turn: ``moves`` times, or to the end."""
        done = 0
        frame = self.latest or self.until("state")
        while True:
            while progress(frame) <= self.acted or not ready(frame):
                frame = self.until("state")
            if frame["over"]:
                return frame
            if frame["paused"] and frame["you"] in frame["waiting"]:
                self.acted = progress(frame)
                self.send(type="continue")
                continue
            if moves is not None and done >= moves:
                return frame
            move = frame["round"]["legal"][0]
            self.acted = progress(frame)
            if move in ("draw", "pass"):
                self.send(type=move)
            else:
                self.send(type="play", move=move)
            done += 1

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


def ready(frame: dict[str, Any]) -> bool:
    return bool(
        frame["over"]
        or frame["round"]["legal"]
        or (frame["paused"] and frame["you"] in frame["waiting"])
    )


def uninterrupted(rules: Rules, seed: int) -> list[str]:
    """The same game with nobody killed: the person plays the first legal move."""
    match = Match(rules, seed)
    bots = {s: make(name, seed=f"{seed}/{s}") for s, name in enumerate(SEATS) if name != "you"}
    moves = []
    while not match.is_over:
        seat = match.round.to_move
        assert seat is not None
        move = match.legal_moves()[0] if seat == 0 else bots[seat].choose(match.view(seat))
        moves.append(str(move))
        match.play(move)
    return moves


@pytest.fixture
def workdir(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path


def test_kill_and_resume(workdir: Path) -> None:
    db = workdir / "data" / "games.sqlite3"
    port = free_port()
    server = Server(db, port, workdir)
    try:
        ana = Client(port)
        ana.send(type="create", name="Ana", seats=SEATS, rules={"players": 3, "target": 150})
        joined = ana.until("joined")
        code, token = joined["table"], joined["token"]
        before = ana.play(moves=6)
        assert not before["over"]
        played_before = sum(1 for _ in before["round"]["history"])
        server.kill()
        with pytest.raises((ConnectionClosed, TimeoutError, OSError)):  # gone with the server
            ana.ws.recv(timeout=5)
    finally:
        if server.proc.poll() is None:
            server.stop()
    assert db.exists()

    server = Server(db, port, workdir)
    try:
        ana = Client(port)
        ana.send(type="resume", code=code, seat=0, token=token)
        assert ana.until("joined")["seat"] == 0
        resumed = ana.until("state")
        # Exactly where it was: the same round, at least the moves seen before.
        assert resumed["round"]["number"] >= before["round"]["number"]
        if resumed["round"]["number"] == before["round"]["number"]:
            assert resumed["round"]["history"][:played_before] == before["round"]["history"]
        last = ana.play(moves=None)
        assert last["over"]
        with urllib.request.urlopen(server.url(f"/api/tables/{code}/record"), timeout=5) as r:
            record = json.load(r)
        ana.close()
    finally:
        server.stop()

    match = load_record(record)
    assert match.is_over and list(match.scores) == last["scores"]
    moves = [m for rnd in record["rounds"] for m in rnd["moves"]]
    assert moves == uninterrupted(Rules.from_dict(record["rules"]), record["seed"])
    assert all(parse_move(m) for m in moves)


def test_a_running_clock_survives_a_kill(workdir: Path) -> None:
    """Issue 11: SIGKILL while a person's clock runs; after the restart the
    clock resumes from the stored deadline (not afresh), nothing acknowledged
    is lost, and when it runs out a bot plays that one move, marked. (Ben
    sits at the table too: alone with bots, Ana's game would be adjourned
    instead, P41.)"""
    import time

    db = workdir / "data" / "clock.sqlite3"
    port = free_port()
    server = Server(db, port, workdir)
    try:
        ana = Client(port)
        ana.send(
            type="create",
            name="Ana",
            seats=["you", "person"],
            rules={"players": 2},
            clock={"move": 15, "bank": 0},
        )
        joined = ana.until("joined")
        code, token = joined["table"], joined["token"]
        ben = Client(port)
        ben.send(type="join", code=code, name="Ben")
        ben.until("joined")
        while True:  # Ben leads if the deal says so: he makes his move at once
            frame = ben.until("state")
            if frame["started"] and frame["clock"]["seat"] == 0:
                break
            if frame["started"] and frame["round"]["legal"]:
                move = frame["round"]["legal"][0]
                if move in ("draw", "pass"):
                    ben.send(type=move)
                else:
                    ben.send(type="play", move=move)
        frame = ana.until("state")
        while not frame["started"] or frame["clock"]["seat"] != 0:
            frame = ana.until("state")
        before = frame
        left_then = before["clock"]["remaining_ms"]
        assert 0 < left_then <= 15000
        server.kill()
        killed_at = time.monotonic()
    finally:
        if server.proc.poll() is None:
            server.stop()
    time.sleep(2.0)
    server = Server(db, port, workdir)
    try:
        ana = Client(port)
        ana.send(type="resume", code=code, seat=0, token=token)
        ana.until("joined")
        resumed = ana.until("state")
        down = time.monotonic() - killed_at
        assert resumed["round"]["history"] == before["round"]["history"]
        assert resumed["clock"]["seat"] == 0
        # The deadline is the stored one: the time the server was down counts.
        assert resumed["clock"]["remaining_ms"] <= left_then - 1000 * down + 500
        # Ana stays idle: the clock runs out and a bot plays her move, marked.
        while True:
            frame = ana.until("state")
            marked = [t for t in frame["round"]["history"] if t.get("auto") == "timeout"]
            if marked:
                break
        assert marked[0]["seat"] == 0
        ana.close()
    finally:
        server.stop()


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux's /proc")
def test_bot_workers_end_with_a_killed_server(workdir: Path) -> None:
    """Issue 23: a server's bot worker processes end when it is killed with
    SIGKILL (no shutdown runs then): they watch their server
    (``web.server.workers.watch_parent``) instead of staying behind as orphans."""
    import time

    port = free_port()
    server = Server(
        workdir / "data" / "workers.sqlite3", port, workdir, extra=("--bot-workers", "2")
    )
    try:
        ana = Client(port)
        ana.send(type="create", name="Ana", seats=["you", "hard"], rules={"players": 2})
        ana.until("joined")
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while not workers:  # the searching bot's first move starts the pool
            assert time.monotonic() < deadline, "no bot worker started"
            frame = ana.until("state")
            if frame["round"]["legal"] and not frame["paused"]:
                ana.send(
                    type="play"
                    if frame["round"]["legal"][0] not in ("draw", "pass")
                    else frame["round"]["legal"][0],
                    move=frame["round"]["legal"][0],
                )
            workers = {
                p
                for p in _children(server.proc.pid)
                if "python"
                in (Path("/proc") / str(p) / "cmdline").read_bytes().decode(errors="replace")
            }
        server.kill()
        deadline = time.monotonic() + 10
        while any(_alive(p) for p in workers):
            assert time.monotonic() < deadline, f"orphaned workers: {sorted(workers)}"
            time.sleep(0.2)
    finally:
        if server.proc.poll() is None:
            server.stop()
