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
    is lost, and when it runs out a bot plays that one move, marked."""
    import time

    db = workdir / "data" / "clock.sqlite3"
    port = free_port()
    server = Server(db, port, workdir)
    try:
        ana = Client(port)
        ana.send(
            type="create",
            name="Ana",
            seats=["you", "greedy"],
            rules={"players": 2},
            clock={"move": 8, "bank": 0},
        )
        joined = ana.until("joined")
        code, token = joined["table"], joined["token"]
        frame = ana.until("state")
        while frame["clock"]["seat"] != 0:
            frame = ana.until("state")
        before = frame
        left_then = before["clock"]["remaining_ms"]
        assert 0 < left_then <= 8000
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
