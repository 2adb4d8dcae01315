"""A socket lives only as long as its session (issue 22, point 1; P40).

Before, a WebSocket opened while signed in went on acting as the account
after sign-out, after a password change made elsewhere, after deletion and
after ``passing-game admin suspend``: it took the account's seats back
without a token and created rated tables. Now every intent of a signed-in
socket checks its session first, and every socket of a session that ends is
closed with a frame that says why, on every process. In process over a real
SQLite store, and on two real server processes over one PostgreSQL.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from passing_game.web import admin
from passing_game.web.accounts.flows import SESSION_COOKIE, hash_secret
from passing_game.web.accounts.sessions import SWEEP_SECONDS
from passing_game.web.http.app import create_app
from passing_game.web.store import SqliteStore, open_store
from site_helpers import PASSWORD, Site, addressed
from web_helpers import Player, time_limit


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    made = SqliteStore(tmp_path / "sessions.sqlite3")
    yield made
    made.close()


@pytest.fixture
def site(store: SqliteStore) -> Iterator[Site]:
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(90), TestClient(addressed(app)) as client:
        yield Site(client)


def closed_with(player: Player, code: str) -> dict[str, Any]:
    """The socket was told why (``signed_out``) and then closed by the server."""
    frame = player.until(lambda f: f["type"] == "signed_out")
    assert frame["code"] == code and frame["message"], frame
    with pytest.raises(WebSocketDisconnect):
        for _ in range(100):
            player.recv()
    return frame


def rated_table(player: Player) -> dict[str, Any]:
    player.send(type="create", name="x", seats=["you", "person"], rules={"players": 2}, rated=True)
    return player.until(lambda f: f["type"] in ("joined", "error"))


def test_signing_out_closes_every_socket_of_the_session(site: Site) -> None:
    """Issue 22, point 1: a thief holding a copy of the session cookie is thrown out
    when its owner signs out; a socket opened again with it is a guest's."""
    site.sign_up("Ana")
    site.jars["thief"] = dict(site.jars["Ana"])
    with site.socket("Ana") as mine, site.socket("thief") as stolen:
        made = rated_table(stolen)
        assert made["type"] == "joined"  # the stolen session still acts as Ana
        code = made["table"]
        assert site.post("Ana", "/api/account/signout", {}).status_code == 200
        assert closed_with(mine, "session-ended")["message"]
        closed_with(stolen, "session-ended")
    with site.socket("thief") as again:
        assert rated_table(again)["code"] == "signed-out"
        again.send(type="resume", code=code, seat=0)
        assert again.until(lambda f: f["type"] == "error")["code"] == "bad-token"
        again.send(type="quick", players=2, rated=True)
        assert again.until(lambda f: f["type"] == "error")["code"] == "signed-out"


def test_a_password_changed_elsewhere_throws_the_thief_out(site: Site) -> None:
    """Issue 22, point 1: the thief signed in with the password on their own
    machine and took the account's seat back without a token; the owner changes
    the password: the thief's socket closes and cannot come back."""
    site.sign_up("Ana", address="203.0.113.1")
    with site.socket("Ana") as ana:
        code = rated_table(ana)["table"]
    site.addresses["thief"] = "198.51.100.9"
    assert site.sign_in("thief", "Ana").status_code == 200
    with site.socket("thief") as thief:
        thief.send(type="resume", code=code, seat=0)
        assert thief.until(lambda f: f["type"] in ("joined", "error"))["type"] == "joined"
        changed = site.post(
            "Ana", "/api/account/password", {"old": PASSWORD, "new": "a new password here"}
        )
        assert changed.status_code == 200, changed.text
        closed_with(thief, "session-ended")
    with site.socket("thief") as again:
        again.send(type="resume", code=code, seat=0)
        assert again.until(lambda f: f["type"] == "error")["code"] == "bad-token"
    # The owner's own browser goes on with its new session.
    with site.socket("Ana") as ana:
        ana.send(type="resume", code=code, seat=0)
        assert ana.until(lambda f: f["type"] in ("joined", "error"))["type"] == "joined"


def test_deleting_the_account_closes_its_sockets(site: Site) -> None:
    """Issue 22, point 1: after deletion no socket acts as the account."""
    site.sign_up("Ana")
    site.jars["tab"] = dict(site.jars["Ana"])
    with site.socket("tab") as tab:
        tab.send(type="create", name="x", seats=["you", "greedy"], rules={"players": 2})
        tab.until(lambda f: f["type"] == "joined")
        assert site.post("Ana", "/api/account/delete", {"password": PASSWORD}).status_code == 200
        closed_with(tab, "deleted")


def test_an_intent_after_the_session_ended_is_refused_at_once(
    site: Site, store: SqliteStore
) -> None:
    """Issue 22, point 1: the session is checked on every intent, not only when the
    socket opened and not only by the sweep: a session ended in the store (by any
    process, or by a moderator's command) refuses the very next intent."""
    site.sign_up("Ana")
    with site.socket("Ana") as ana:
        ana.send(type="sync")  # no table yet: an error, but the socket is the account's
        ana.until(lambda f: f["type"] == "error")
        with store.transaction() as tx:
            session = hash_secret(site.jars["Ana"][SESSION_COOKIE])
            tx.run("DELETE FROM web_sessions WHERE id_hash = ?", (session,))
        ana.send(type="quick", players=2, rated=True)
        frame = ana.until(lambda f: f["type"] in ("signed_out", "queue", "error"))
        assert frame["type"] == "signed_out", frame


def test_a_suspension_closes_the_sockets_and_a_stand_in_takes_the_seat(
    site: Site, store: SqliteStore
) -> None:
    """Issue 22, point 1 and "also measured": ``passing-game admin suspend`` has no
    bus, yet within the sweep the account's sockets close, a stand-in plays its
    seat, and the seat's token no longer takes it back."""
    site.sign_up("Ana")
    with site.socket("Ana") as ana, site.socket(None) as watcher:
        ana.send(type="create", name="x", seats=["you", "greedy"], rules={"players": 2})
        joined = ana.until(lambda f: f["type"] == "joined")
        code, token = joined["table"], joined["token"]
        watcher.send(type="watch", code=code)
        watcher.until(lambda f: f["type"] == "state")
        admin.suspend(store, "Ana", actor="mod", reason="cheating")
        with time_limit(int(SWEEP_SECONDS * 5) + 10):
            closed_with(ana, "suspended")
            stood = watcher.until(
                lambda f: f["type"] == "state" and f["seats"][0]["away"] == "suspended"
            )
        assert stood["seats"][0]["standin"]
    with site.socket(None) as guest:
        guest.send(type="resume", code=code, seat=0, token=token)
        assert guest.until(lambda f: f["type"] == "error")["code"] == "suspended"


# -- two processes on one PostgreSQL ---------------------------------------------------


@pytest.mark.slow
def test_a_session_ended_on_one_process_closes_its_socket_on_the_other(
    pg_url: str, tmp_path: Path
) -> None:
    """Issue 22, point 1, "on every process": Ana's socket is on process B; she signs
    out through process A; B closes the socket. Then a suspension made by the
    moderators' command closes the sockets of a second account on both."""
    from cluster_helpers import Browser, start, stop

    a, b = start(pg_url, tmp_path, 2, bot_delay=0.05)
    try:
        ana_a = Browser(a)
        ana_a.post("/api/account/signup", {"name": "Ana", "password": PASSWORD})
        ana_b = Browser(b)
        ana_b.jar = ana_a.jar  # the same browser, its requests balanced to B
        socket_b = ana_b.socket()
        socket_b.send(type="create", name="x", seats=["you", "greedy"], rules={"players": 2})
        socket_b.until(lambda f: f["type"] == "joined")
        ana_a.post("/api/account/signout", {})
        frame = socket_b.until(lambda f: f["type"] == "signed_out", timeout=SWEEP_SECONDS * 5)
        assert frame["code"] == "session-ended"
        socket_b.close()
        ben = Browser(a)
        ben.post("/api/account/signup", {"name": "Ben", "password": PASSWORD})
        on_a = ben.socket()
        ben_b = Browser(b)
        ben_b.jar = ben.jar
        on_b = ben_b.socket()
        for person in (on_a, on_b):
            person.send(type="sync")
            person.until(lambda f: f["type"] == "error")
        store = open_store(pg_url)
        try:
            admin.suspend(store, "Ben", actor="mod", reason="spam")
        finally:
            store.close()
        for person in (on_a, on_b):
            frame = person.until(lambda f: f["type"] == "signed_out", timeout=SWEEP_SECONDS * 5)
            assert frame["code"] == "suspended"
            person.close()
    finally:
        stop([a, b])


def test_the_socket_frame_is_json_the_page_reads() -> None:
    """The ``signed_out`` frame's words exist in every language (the page shows them)."""
    from passing_game.i18n import LANGUAGES, _, using_language
    from passing_game.web.accounts.flows import ENDED_WORDS

    for language in LANGUAGES:
        with using_language(language):
            for words in ENDED_WORDS.values():
                text = _(words)
                assert text and json.loads(json.dumps(text)) == text
                if language != "en":
                    assert text != words, (language, words)
