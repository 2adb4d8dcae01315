"""Friends, presence and challenges over HTTP on three server processes (issue 27,
item 2; P59), one PostgreSQL: what one process writes, the others read.

Ana's socket sits at a table through process 2; Ben, asking process 3, sees her
online at that table. Ben challenges her there; Ana accepts through processes 1
and 2 at once, and one table is made, where both sit as themselves (Ben takes his
seat back without a token, through process 1). A page whose session ended
elsewhere is told so. Bad input gets a sentence and a
code; a POST from another site's page, or without the CSRF token, is refused.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from cluster_helpers import Browser, start, stop
from passing_game.i18n import _, using_language
from passing_game.web.accounts.flows import ENDED_WORDS
from passing_game.web.protocol import TWO_TO_FOUR

PASSWORD = "correct horse battery"


def refused(call: Any) -> tuple[int, dict[str, Any]]:
    try:
        call()
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)
    raise AssertionError("not refused")


def friend(web: Browser, name: str, pred: Any, timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        seen = {f["name"]: f for f in web.get("/api/social")["friends"]}
        if name in seen and pred(seen[name]):
            return seen[name]
        assert time.monotonic() < deadline, seen
        time.sleep(0.3)


def test_presence_and_a_challenge_across_three_processes(pg_url: str, tmp_path: Path) -> None:
    one, two, three = start(pg_url, tmp_path, 3, bot_delay=0.05)
    try:
        ana, ben = Browser(one), Browser(three)
        ana.post("/api/account/signup", {"name": "Ana", "password": PASSWORD})
        ben.post("/api/account/signup", {"name": "Ben", "password": PASSWORD})
        # A guest has no friends panel.
        status, body = refused(lambda: Browser(two).get("/api/social"))
        assert (status, body["code"]) == (401, "signed-out")
        assert ben.post("/api/social/follow", {"name": "ana"})["name"] == "Ana"
        assert friend(ben, "Ana", lambda f: True) == {
            "name": "Ana",
            "online": False,
            "table": None,
            "bot": False,
        }

        # Ana at a table of her own through process 2; Ben asks process 3.
        sock = ana.socket(two)
        sock.send(
            type="create", name="Ana", seats=["you", "easy"], rules={"players": 2, "target": 30}
        )
        code = sock.until(lambda f: f["type"] == "joined")["table"]
        seen = friend(ben, "Ana", lambda f: f["table"] is not None)
        assert seen == {
            "name": "Ana",
            "online": True,
            "table": {"code": code, "players": ["Ana", "Easy bot"], "rated": False},
            "bot": False,
        }
        sock.close()
        friend(ben, "Ana", lambda f: not f["online"])

        # Bad input: a sentence and a code each, nothing changed.
        for body, code_said in (
            ({"name": "Nobody"}, "no-such-account"),
            ({"name": "Ben"}, "yourself"),
            ({"name": "Ana", "seats": ["you", "easy"]}, "bad-settings"),
            (
                {
                    "name": "Ana",
                    "seats": ["you", "person"],
                    "rules": {"players": 2},
                    "clock": "forever",
                },
                "bad-settings",
            ),
        ):
            status, said = refused(lambda body=body: ben.post("/api/social/challenge", body))
            assert said["code"] == code_said and said["error"].endswith("."), said
        # A refusal is worded in the asker's language, also when the store's thread words it.
        galician = urllib.request.Request(
            three.url("/api/social/challenge"),
            data=json.dumps(
                {"name": "Ana", "seats": ["you", "person"], "rules": {"players": 5}}
            ).encode(),
            headers={
                "X-CSRF-Token": ben.get("/api/account")["csrf"],
                "Content-Type": "application/json",
                "Accept-Language": "gl",
            },
            method="POST",
        )
        status, said = refused(lambda: ben.opener.open(galician, timeout=10))
        with using_language("gl"):
            assert said["error"] == _(TWO_TO_FOUR) != TWO_TO_FOUR
        status, said = refused(lambda: ben.post("/api/social/challenges/nope/accept", {}))
        assert (status, said["code"]) == (404, "gone")
        csrf_less = urllib.request.Request(
            three.url("/api/social/follow"), data=b'{"name": "Ana"}', method="POST"
        )
        status, said = refused(lambda: ben.opener.open(csrf_less, timeout=10))
        assert (status, said["code"]) == (403, "csrf")
        foreign = urllib.request.Request(
            three.url("/api/social/follow"),
            data=b'{"name": "Ana"}',
            headers={"Origin": "https://elsewhere.example", "Content-Type": "application/json"},
            method="POST",
        )
        status, said = refused(lambda: ben.opener.open(foreign, timeout=10))
        assert (status, said["code"]) == (403, "cross-site")

        # Ben challenges Ana; she sees it through another process.
        settings = {
            "name": "Ana",
            "rules": {"players": 3, "target": 30},
            "seats": ["person", "you", "easy"],
            "clock": {"move": 20, "bank": 40},
        }
        made = ben.post("/api/social/challenge", settings)["challenge"]
        assert made["status"] == "open" and made["to"] == "Ana"
        ana_two = Browser(two)
        ana_two.jar = ana.jar  # her cookies, through another process
        ana_two.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(ana.jar))
        incoming = ana_two.get("/api/social")["challenges"]
        assert [(c["id"], c["from"], c["incoming"]) for c in incoming] == [
            (made["id"], "Ben", True)
        ]
        with ThreadPoolExecutor(2) as pool:
            answers = list(
                pool.map(
                    lambda web: web.post(f"/api/social/challenges/{made['id']}/accept", {}),
                    (ana, ana_two),
                )
            )
        assert answers[0] == answers[1] and answers[0]["seat"] == 0
        table = answers[0]["code"]
        recent = ben.get("/api/social")["recent"]
        assert [(c["status"], c.get("code"), c.get("seat")) for c in recent] == [
            ("accepted", table, 1)
        ]
        # Both sit as themselves, without a token, on any process.
        ben_sock = ben.socket(one)
        ben_sock.send(type="resume", code=table, seat=1)
        ana_sock = ana.socket(three)
        ana_sock.send(type="resume", code=table, seat=0)
        frame = ben_sock.state(lambda f: f["started"], timeout=30)
        assert frame["table"] == table and frame["you"] == 1
        assert [s["name"] for s in frame["seats"]][:2] == ["Ana", "Ben"]
        assert frame["clock"]["move"] == 20 and frame["target"] == 30
        ana_sock.state(lambda f: f["you"] == 0, timeout=30)
        ben_sock.close()
        ana_sock.close()

        # Ben signs out through process 1; a page of his still holding the old
        # cookie asks process 2 and is told its session ended, not to sign in.
        stale = Browser(two)
        for cookie in ben.jar:
            stale.jar.set_cookie(cookie)
        ben.post("/api/account/signout", {})
        status, said = refused(lambda: stale.get("/api/social"))
        assert (status, said["code"]) == (401, "session-ended")
        assert said["error"] == ENDED_WORDS["session-ended"]
    finally:
        stop([one, two, three])
