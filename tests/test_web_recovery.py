"""A way back into an account whose password is lost (issue 27, item 4; P57), in
process on SQLite and PostgreSQL.

Sign-up shows eight codes once and the store keeps only their hashes; a code
and a new password bring a second browser back in, end the first browser's
session, make the new password the one that works, and are used up; a
wrong, malformed or used code gets one answer; guessing is slowed down as
for a password; a moderator's code (``passing-game admin recovery``) works
once and is never in the log; a deleted account's codes go with it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from click.testing import CliRunner
from starlette.testclient import TestClient

from passing_game.cli import main
from passing_game.web import admin
from passing_game.web.accounts.recovery import CODES
from passing_game.web.http.app import create_app
from passing_game.web.store import SqliteStore, Store
from site_helpers import PASSWORD, Site, addressed
from web_helpers import blocking, either_store, time_limit

CODE = re.compile(r"[a-z2-9]{4}(-[a-z2-9]{4}){3}")
NEW = "a brand new password"


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    yield from either_store(request.param, tmp_path, "recover")


@pytest.fixture
def site(store: Store) -> Iterator[Site]:
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(120), TestClient(addressed(app)) as client:
        yield Site(client)


def sign_up(site: Site, name: str, address: str) -> list[str]:
    site.jars[name] = {}
    site.addresses[name] = address
    made = site.post(name, "/api/account/signup", {"name": name, "password": PASSWORD})
    assert made.status_code == 200, made.text
    return list(made.json()["recovery_codes"])


def recover(site: Site, who: str, name: str, code: str, password: str = NEW) -> object:
    site.jars.setdefault(who, {})
    return site.post(
        who, "/api/account/recover", {"name": name, "code": code, "password": password}
    )


def stored_hashes(store: Store) -> list[str]:
    with store.transaction() as tx:
        return [str(r[0]) for r in tx.all("SELECT code_hash FROM web_recovery_codes")]


def test_a_code_brings_a_person_back_in_once_with_a_new_password(site: Site, store: Store) -> None:
    codes = sign_up(site, "Ana", "10.1.0.1")
    assert len(codes) == len(set(codes)) == CODES and all(CODE.fullmatch(c) for c in codes)
    kept = stored_hashes(store)
    assert len(kept) == CODES
    for code in codes:  # only hashes are kept: no code, with or without its hyphens
        assert all(code not in h and code.replace("-", "") not in h for h in kept)
    assert site.get("Ana", "/api/account").json()["user"]["name"] == "Ana"

    # Another browser, the password lost: a code typed loosely and a new password.
    typed = codes[3].upper().replace("-", " ")
    back = recover(site, "Ana-phone", "ana", typed)
    assert back.status_code == 200, back.text
    assert back.json()["user"]["name"] == "Ana"
    assert site.get("Ana-phone", "/api/account").json()["user"]["name"] == "Ana"
    assert site.get("Ana", "/api/account").json()["user"] is None  # the old session ended
    assert site.sign_in("Ana", "Ana").status_code == 401  # the old password is gone
    assert site.sign_in("Ana", "Ana", NEW).status_code == 200

    # The same code again, a wrong one, a malformed one: one answer, nothing changes.
    answers = [recover(site, "Bea", "Ana", code) for code in (codes[3], "abcd" * 4, "no")]
    assert {r.status_code for r in answers} == {401}
    assert len({r.json()["error"] for r in answers}) == 1
    assert site.sign_in("Ana", "Ana", NEW).status_code == 200
    # Another code still works.
    assert recover(site, "Ana-tablet", "Ana", codes[0], "yet another password").status_code == 200


def test_guessing_codes_is_slowed_down_and_a_new_password_is_checked(site: Site) -> None:
    codes = sign_up(site, "Cyd", "10.1.0.2")
    site.addresses["Eve"] = "10.1.0.66"
    short = recover(site, "Cyd-2", "Cyd", codes[0], "x")
    assert short.status_code == 400 and short.json()["code"] == "bad-password"
    answers = [recover(site, "Eve", "Cyd", "abcd-efgh-jkmn-pq" + f"{n:02d}") for n in range(30)]
    assert answers[0].status_code == 401
    limited = [r for r in answers if r.status_code == 429]
    assert limited and "Retry-After" in limited[0].headers
    # While it waits even the right code is not tried: nothing is used up.
    assert recover(site, "Eve", "Cyd", codes[1]).status_code == 429
    assert recover(site, "Cyd-2", "Cyd", codes[1]).status_code == 200  # from elsewhere


def test_a_moderators_code_works_once_and_is_not_logged(
    site: Site, store: Store, tmp_path: Path
) -> None:
    sign_up(site, "Dan", "10.1.0.3")
    with pytest.raises(admin.AdminError):
        admin.recovery_code(store, "Dan", actor="mod", reason="")
    with pytest.raises(admin.AdminError):
        admin.recovery_code(store, "Nobody", actor="mod", reason="lost it")
    code = admin.recovery_code(store, "Dan", actor="mod", reason="lost the codes too")
    assert CODE.fullmatch(code)
    assert recover(site, "Dan-2", "Dan", code).status_code == 200
    assert recover(site, "Dan-3", "Dan", code).status_code == 401
    entry = admin.log_entries(store)[0]
    assert entry.action == "recovery" and "Dan" in entry.target and code not in str(entry)
    # Deleting the account takes its codes with it.
    gone = site.post("Dan-2", "/api/account/delete", {"password": NEW})
    assert gone.status_code == 200, gone.text
    with store.transaction() as tx:
        left = tx.all(
            "SELECT 1 FROM web_recovery_codes WHERE user_id IN"
            " (SELECT id FROM web_users WHERE deleted = 1)"
        )
    assert left == []


def test_the_admin_command_prints_a_code(tmp_path: Path) -> None:
    path = tmp_path / "admin.sqlite3"
    made = SqliteStore(path)
    app = create_app(made, bot_delay=0, rate_limit=(1e6, 1e6))
    with TestClient(addressed(app)) as client:
        site = Site(client)
        sign_up(site, "Fay", "10.1.0.4")
        runner = CliRunner()
        args = ["--lang", "en", "admin", "--db", str(path), "recovery", "Fay"]
        refused = runner.invoke(main, args)
        assert refused.exit_code != 0 and "reason" in refused.output
        done = runner.invoke(main, [*args, "--reason", "asked on the forum"])
        assert done.exit_code == 0, done.output
        found = CODE.search(done.output)
        assert found is not None
        assert recover(site, "Fay-2", "Fay", found.group(0)).status_code == 200
    made.close()


def test_one_code_used_at_once_twice_lets_one_in(store: Store) -> None:
    """Two recoveries with the same code at the same moment (two processes, a
    double click): the code's row is used once, so exactly one is let in."""
    import asyncio
    import threading

    from passing_game.web.accounts.flows import AccountError, Accounts
    from passing_game.web.accounts.recovery import Recovery

    accounts = Accounts(store)
    made = blocking(accounts.sign_up("Gil", PASSWORD, "10.1.0.5"))
    code = Recovery(accounts, accounts_run).issue(made.user.id)[0]
    start, results = threading.Barrier(2), []

    def attempt(address: str) -> None:
        start.wait()
        recovery = Recovery(accounts, accounts_run)
        try:
            asyncio.run(recovery.recover("Gil", code, NEW, address))
            results.append("in")
        except AccountError as exc:
            results.append(exc.code)

    threads = [threading.Thread(target=attempt, args=(f"10.1.1.{i}",)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(results) == ["bad-credentials", "in"]


async def accounts_run(fn: Any, *args: Any, **kwargs: Any) -> Any:
    return fn(*args, **kwargs)


def test_a_recovery_throws_out_the_accounts_open_socket(site: Site) -> None:
    """The thief's (or the old device's) socket, still open with the account's old
    session, is told and closed when the account is recovered elsewhere."""
    from starlette.websockets import WebSocketDisconnect

    codes = sign_up(site, "Hal", "10.1.0.6")
    with site.socket("Hal") as old:
        old.send(type="quick", players=2, rated=True)
        old.until(lambda f: f["type"] in ("queue", "joined", "error"))
        assert recover(site, "Hal-2", "Hal", codes[0]).status_code == 200
        frame = old.until(lambda f: f["type"] == "signed_out")
        assert frame["code"] == "session-ended" and frame["message"]
        with pytest.raises(WebSocketDisconnect):
            for _ in range(100):
                old.recv()
