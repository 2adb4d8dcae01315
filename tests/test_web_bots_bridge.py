"""``passing-game bot connect``: a program in any language plays on the site (issue 28,
item 4; docs/BOTS.md "On the site"; P62), against a real server process.

The example bots (Python, and Node when it is installed) accept Ana's challenge
and play whole games through the bridge; a program that answers nonsense or
too late gets the arena's treatment (its first legal move, the fault counted
and said) and the table goes on; a token that is not one, a missing token and
a command that says no hello end the bridge with a clear message and its exit
status; ``--accept none`` declines.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cluster_helpers import Browser, Person
from web_helpers import Server, free_port, service_missing

ROOT = Path(__file__).parent.parent
PASSWORD = "correct horse battery"
GREEDY_PY = f"cmd:{sys.executable} {ROOT / 'examples/bots/greedy_bot.py'}"
GREEDY_JS = f"cmd:node {ROOT / 'examples/bots/greedy_bot.js'}"
BAD = f"{sys.executable} {ROOT / 'tests/outside_bad_bot.py'}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    work = tmp_path_factory.mktemp("bridge")
    running = Server(work / "bridge.sqlite3", free_port(), work, bot_delay=0.05)
    yield running
    running.stop()


class Bridge:
    """``passing-game bot connect`` in a subprocess, its token in a file."""

    def __init__(self, server: Server, folder: Path, token: str, program: str, *extra: str):
        self.token_file = folder / f"token-{time.monotonic_ns()}"
        self.token_file.write_text(token + "\n")
        self.token_file.chmod(0o600)
        self.log = folder / f"bridge-{time.monotonic_ns()}.log"
        argv = [sys.executable, "-m", "passing_game", "--lang", "en", "bot", "connect"]
        argv += [server.url(""), program, "--token-file", str(self.token_file), *extra]
        assert token not in " ".join(argv)  # never on the command line
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(argv, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)

    def said(self) -> str:
        return self.log.read_text()

    def wait_for(self, text: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.said():
            assert self.proc.poll() is None or text in self.said(), self.said()
            assert time.monotonic() < deadline, self.said()
            time.sleep(0.1)

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        return self.said()


def owner(server: Server, name: str) -> Browser:
    person = Browser(server)
    person.post("/api/account/signup", {"name": name, "password": PASSWORD})
    return person


def challenge_and_play(person: Browser, bot: str, rules: dict[str, Any]) -> dict[str, Any]:
    """``person`` challenges ``bot``, then plays the table it makes (first legal moves)."""
    body = {"name": bot, "rules": rules, "seats": ["you", "person"], "clock": "20"}
    made = person.post("/api/social/challenge", body)["challenge"]
    deadline = time.monotonic() + 30
    while True:
        recent = [c for c in person.get("/api/social")["recent"] if c["id"] == made["id"]]
        if recent and recent[0].get("code"):
            break
        assert time.monotonic() < deadline, recent
        time.sleep(0.3)
    sock: Person = person.socket()
    sock.send(type="resume", code=recent[0]["code"], seat=recent[0]["seat"])
    try:
        while True:
            frame = sock.state(timeout=60)
            if frame["over"]:
                return frame
            if frame["paused"] and frame["you"] in frame["waiting"]:
                sock.send(type="continue")
            elif frame["round"]["legal"]:
                sock.act(frame["round"]["legal"][0])
    finally:
        sock.close()


@pytest.mark.parametrize("program", [GREEDY_PY, GREEDY_JS], ids=["python", "node"])
def test_an_example_bot_plays_a_whole_game_through_the_bridge(
    server: Server, tmp_path: Path, program: str
) -> None:
    if program == GREEDY_JS and shutil.which("node") is None:
        service_missing("Node is not installed")
    name = "Greedy " + ("py" if program == GREEDY_PY else "js")
    ana = owner(server, f"Ana {name[-2:]}")
    token = ana.post("/api/bots", {"name": name})["token"]
    bridge = Bridge(server, tmp_path, token, program, "--once")
    try:
        bridge.wait_for("connected as")
        last = challenge_and_play(ana, name, {"players": 2, "target": 40})
        bridge.wait_for("game over at table")
    finally:
        said = bridge.stop()
    assert last["over"] and last["seats"][1]["bot_account"]
    assert f"challenge from Ana {name[-2:]}: accepted" in said
    assert "replaced by the first legal move" not in said  # it answered every decision
    assert token not in said


def test_a_program_that_answers_nonsense_or_late_does_not_harm_the_table(
    server: Server, tmp_path: Path
) -> None:
    ana = owner(server, "Ana bad")
    for mode, fault in (("nonsense", "1 answer that was no move"), ("late", "1 late answer")):
        name = f"Bad {mode}"
        token = ana.post("/api/bots", {"name": name})["token"]
        bridge = Bridge(server, tmp_path, token, f"cmd:timeout=1:{BAD} {mode}", "--once")
        try:
            bridge.wait_for("connected as")
            last = challenge_and_play(ana, name, {"players": 2, "target": 20})
            bridge.wait_for("game over at table")
        finally:
            said = bridge.stop()
        assert last["over"], mode
        assert fault in said and "replaced by the first legal move" in said, said


def test_the_bridge_ends_with_a_clear_message_when_it_cannot_play(
    server: Server, tmp_path: Path
) -> None:
    ana = owner(server, "Ana refused")
    token = ana.post("/api/bots", {"name": "Refused bot"})["token"]
    wrong = Bridge(server, tmp_path, token + "x", GREEDY_PY)
    assert wrong.proc.wait(timeout=60) == 3
    assert "the site refused the bot" in wrong.said()
    env = {k: v for k, v in os.environ.items() if k != "PASSING_GAME_BOT_TOKEN"}
    none = subprocess.run(
        [sys.executable, "-m", "passing_game", "bot", "connect", server.url(""), GREEDY_PY],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert none.returncode == 2 and "PASSING_GAME_BOT_TOKEN" in none.stderr
    silent = Bridge(server, tmp_path, token, f"cmd:{BAD} garbage-hello")
    assert silent.proc.wait(timeout=60) == 2 and "hello" in silent.said()


def test_the_bridge_declines_by_its_rules(server: Server, tmp_path: Path) -> None:
    ana = owner(server, "Ana declined")
    token = ana.post("/api/bots", {"name": "Shy bot"})["token"]
    bridge = Bridge(server, tmp_path, token, GREEDY_PY, "--accept", "none", "--once")
    try:
        bridge.wait_for("connected as")
        body = {"name": "Shy bot", "rules": {"players": 2}, "seats": ["you", "person"]}
        ana.post("/api/social/challenge", {**body, "clock": "20"})
        deadline = time.monotonic() + 30
        while True:
            recent = ana.get("/api/social")["recent"]
            if recent and recent[0]["status"] == "declined":
                break
            assert time.monotonic() < deadline, json.dumps(recent)
            time.sleep(0.3)
        assert "declined (challenges are not accepted)" in bridge.said()
    finally:
        bridge.stop()
