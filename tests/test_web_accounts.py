"""Accounts and their security (issue 13, P29), in process over a real SQLite store.

Sign up, sign in, sign out, change and delete; one answer for an unknown
name and a wrong password; the sign-in rate limits; a new session id at
each sign-in; CSRF; cookies' flags; passwords never stored, logged or sent
in clear; names with SQL and HTML kept as text; a signed-in person's seat
taken back on another device; a guest's seats kept when signing up.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from starlette.testclient import TestClient

from passing_game.web.accounts.flows import (
    ATTEMPTS_PER_ACCOUNT,
    CSRF_COOKIE,
    SESSION_COOKIE,
    name_key,
)
from passing_game.web.http.app import create_app
from passing_game.web.store import SqliteStore
from web_helpers import Player, time_limit

PASSWORD = "correct horse battery"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "accounts.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    store = SqliteStore(db)
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(90), TestClient(app) as made:
        yield made
    store.close()


def csrf(client: TestClient) -> str:
    token = client.get("/api/account").json()["csrf"]
    assert client.cookies.get(CSRF_COOKIE) == token
    return str(token)


def post(client: TestClient, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"X-CSRF-Token": token if token is not None else csrf(client)}
    return client.post(path, content=json.dumps(body), headers=headers)


def sign_up(client: TestClient, name: str = "Ana", password: str = PASSWORD) -> Any:
    return post(client, "/api/account/signup", {"name": name, "password": password})


def test_sign_up_sign_in_sign_out(client: TestClient) -> None:
    """Issue 13, accounts: the whole round trip, and what /api/account says."""
    made = sign_up(client)
    assert made.status_code == 200, made.text
    assert made.json()["user"]["name"] == "Ana"
    assert client.get("/api/account").json()["user"]["name"] == "Ana"
    assert post(client, "/api/account/signout", {}).status_code == 200
    assert client.get("/api/account").json()["user"] is None
    back = post(client, "/api/account/signin", {"name": "ana", "password": PASSWORD})
    assert back.status_code == 200 and back.json()["user"]["name"] == "Ana"  # case folded


def test_the_session_cookie_is_httponly_lax_and_changes_at_sign_in(client: TestClient) -> None:
    """Issue 13: HttpOnly, SameSite=Lax; a new session id at every sign-in."""
    made = sign_up(client)
    cookie = made.headers["set-cookie"]
    assert f"{SESSION_COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    first = client.cookies.get(SESSION_COOKIE)
    again = post(client, "/api/account/signin", {"name": "Ana", "password": PASSWORD})
    assert again.status_code == 200
    second = client.cookies.get(SESSION_COOKIE)
    assert first and second and first != second
    # The old id no longer signs anybody in (asked by a client holding only it).
    old = TestClient(client.app, cookies={SESSION_COOKIE: first})
    assert old.get("/api/account").json()["user"] is None
    assert client.get("/api/account").json()["user"]["name"] == "Ana"


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(client: TestClient) -> None:
    """Issue 13, security: nothing tells whether an account exists."""
    sign_up(client)
    post(client, "/api/account/signout", {})
    wrong = post(client, "/api/account/signin", {"name": "Ana", "password": "not the password"})
    unknown = post(client, "/api/account/signin", {"name": "Nobody", "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()


def test_sign_in_attempts_are_limited_per_account(client: TestClient) -> None:
    """Issue 13, security: after the allowed attempts, even the right password
    waits; the answer says for how long."""
    sign_up(client, "Ben")
    post(client, "/api/account/signout", {})
    for _ in range(ATTEMPTS_PER_ACCOUNT):
        answer = post(client, "/api/account/signin", {"name": "Ben", "password": "x" * 12})
        assert answer.status_code == 401
    limited = post(client, "/api/account/signin", {"name": "Ben", "password": PASSWORD})
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) > 0
    # Another account from the same address is not locked by Ben's limit yet.
    sign_up(client, "Cai")
    post(client, "/api/account/signout", {})
    assert (
        post(client, "/api/account/signin", {"name": "Cai", "password": PASSWORD}).status_code
        == 200
    )


def test_sign_in_attempts_are_limited_per_address(client: TestClient) -> None:
    """Issue 13, security: one address trying many names is stopped too."""
    from passing_game.web.accounts.flows import ATTEMPTS_PER_ADDRESS

    codes = [
        post(client, "/api/account/signin", {"name": f"name{i}", "password": "x" * 12}).status_code
        for i in range(ATTEMPTS_PER_ADDRESS + 1)
    ]
    assert codes[:ATTEMPTS_PER_ADDRESS] == [401] * ATTEMPTS_PER_ADDRESS
    assert codes[-1] == 429


def test_a_request_without_the_csrf_token_is_refused(client: TestClient) -> None:
    """Issue 13, security: every change needs the page's token."""
    csrf(client)
    body = json.dumps({"name": "Dee", "password": PASSWORD})
    assert client.post("/api/account/signup", content=body).status_code == 403
    bad = client.post("/api/account/signup", content=body, headers={"X-CSRF-Token": "forged"})
    assert bad.status_code == 403 and bad.json()["code"] == "csrf"
    assert client.get("/api/account").json()["user"] is None


def test_passwords_are_never_stored_or_logged_in_clear(
    client: TestClient, db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 13, security: the store holds an argon2id hash; no log line holds
    the password; a short password is refused."""
    caplog.set_level(logging.DEBUG)
    short = post(client, "/api/account/signup", {"name": "Eve", "password": "short"})
    assert short.status_code == 400 and "10" in short.json()["error"]
    assert sign_up(client, "Eve").status_code == 200
    conn = sqlite3.connect(db)
    stored = conn.execute("SELECT password_hash FROM web_users").fetchone()[0]
    dump = "\n".join(conn.iterdump())
    conn.close()
    assert stored.startswith("$argon2id$") and PASSWORD not in dump
    assert PASSWORD not in caplog.text


def test_names_with_sql_and_html_are_kept_as_text(client: TestClient) -> None:
    """Issue 13, security: a name is data, stored and shown as given."""
    name = "<b>x</b>'; DROP--"
    made = sign_up(client, name)
    assert made.status_code == 200, made.text
    assert client.get("/api/account").json()["user"]["name"] == name
    assert name_key(name) == name_key(name.upper().lower())


def test_a_taken_name_is_refused_whatever_its_case(client: TestClient) -> None:
    sign_up(client, "Fran")
    post(client, "/api/account/signout", {})
    again = sign_up(client, "FRAN")
    assert again.status_code == 400 and again.json()["code"] == "name-taken"


def test_change_password_and_delete(client: TestClient) -> None:
    """Issue 13: a new password works and the old does not; deleting needs the
    password, signs out and frees nothing of the games (they stay, anonymised)."""
    sign_up(client, "Gus")
    wrong = post(client, "/api/account/password", {"old": "nope nope nope", "new": "b" * 12})
    assert wrong.status_code == 401
    assert (
        post(client, "/api/account/password", {"old": PASSWORD, "new": "b" * 12}).status_code == 200
    )
    post(client, "/api/account/signout", {})
    assert (
        post(client, "/api/account/signin", {"name": "Gus", "password": PASSWORD}).status_code
        == 401
    )
    assert (
        post(client, "/api/account/signin", {"name": "Gus", "password": "b" * 12}).status_code
        == 200
    )
    assert post(client, "/api/account/delete", {"password": "wrong wrong"}).status_code == 401
    assert post(client, "/api/account/delete", {"password": "b" * 12}).status_code == 200
    assert client.get("/api/account").json()["user"] is None
    gone = post(client, "/api/account/signin", {"name": "Gus", "password": "b" * 12})
    assert gone.status_code == 401


def connect(client: TestClient) -> Any:
    return client.websocket_connect("/ws")


def test_a_signed_in_seat_is_taken_back_on_another_device(client: TestClient) -> None:
    """Issue 13: a signed-in person's seat belongs to the account: a second
    browser (another cookie jar) signed in as them resumes it without a token;
    somebody else cannot."""
    sign_up(client, "Hal")
    with connect(client) as ws:
        hal = Player(ws)
        hal.send(type="create", name="ignored", seats=["you", "greedy"], rules={"players": 2})
        code = hal.until(lambda f: f["type"] == "joined")["table"]
        first = hal.next_state()
        assert first["seats"][0]["name"] == "Hal"  # the account's name
    other = TestClient(client.app)
    with other:
        post(other, "/api/account/signin", {"name": "Hal", "password": PASSWORD})
        with other.websocket_connect("/ws") as ws2:
            again = Player(ws2)
            again.send(type="resume", code=code, seat=0)
            joined = again.until(lambda f: f["type"] in ("joined", "error"))
            assert joined["type"] == "joined" and joined["seat"] == 0
        stranger = TestClient(client.app)
        with stranger, stranger.websocket_connect("/ws") as ws3:
            nobody = Player(ws3)
            nobody.send(type="resume", code=code, seat=0)
            assert nobody.until(lambda f: f["type"] == "error")["code"] == "bad-token"


def test_a_guest_who_signs_up_keeps_the_games_of_that_browser(client: TestClient) -> None:
    """Issue 13: the seats a browser holds as a guest become the new account's."""
    with connect(client) as ws:
        ivy = Player(ws)
        ivy.send(type="create", name="Ivy", seats=["you", "greedy"], rules={"players": 2})
        joined = ivy.until(lambda f: f["type"] == "joined")
    seats = [{"code": joined["table"], "seat": 0, "token": joined["token"]}]
    bogus = [{"code": joined["table"], "seat": 1, "token": "x" * 32}, {"code": 7}]
    made = post(
        client, "/api/account/signup", {"name": "Ivy", "password": PASSWORD, "seats": seats + bogus}
    )
    assert made.status_code == 200 and made.json()["seats"] == 1
    other = TestClient(client.app)
    with other:
        post(other, "/api/account/signin", {"name": "Ivy", "password": PASSWORD})
        with other.websocket_connect("/ws") as ws2:
            again = Player(ws2)
            again.send(type="resume", code=joined["table"], seat=0)
            assert again.until(lambda f: f["type"] in ("joined", "error"))["type"] == "joined"


def test_a_rated_table_is_for_signed_in_people(client: TestClient) -> None:
    """Issue 13, ratings: a guest cannot create or join a rated table; bots
    cannot sit at one."""
    with connect(client) as ws:
        guest = Player(ws)
        guest.send(type="create", name="Jo", seats=["you", "person"], rules={}, rated=True)
        assert guest.until(lambda f: f["type"] == "error")["code"] == "signed-out"
    sign_up(client, "Kim")
    with connect(client) as ws:
        kim = Player(ws)
        kim.send(type="create", name="Kim", seats=["you", "greedy"], rules={}, rated=True)
        assert kim.until(lambda f: f["type"] == "error")["code"] == "rated-bots"
        kim.send(type="create", name="Kim", seats=["you", "person"], rules={}, rated=True)
        code = kim.until(lambda f: f["type"] == "joined")["table"]
    guest_client = TestClient(client.app)
    with guest_client, guest_client.websocket_connect("/ws") as ws2:
        lee = Player(ws2)
        lee.send(type="join", code=code, name="Lee")
        assert lee.until(lambda f: f["type"] == "error")["code"] == "signed-out"
