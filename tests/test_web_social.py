"""Friends, challenges, blocks and who is online (issue 27, item 2; P59): the rules
without a database (a clock given), then the store on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from passing_game.web.accounts.flows import name_key
from passing_game.web.social import model, service
from passing_game.web.social.model import SocialError, Standing
from passing_game.web.store import Store, leases
from passing_game.web.store import accounts as users
from passing_game.web.store import social as rows
from passing_game.web.store.rows import UserRow
from web_helpers import blocking, either_store

NOW = 1_800_000_000.0
ANA = rows.Account("ana", "Ana")
TWO = {
    "rules": {"players": 2, "target": 50},
    "seats": ["you", "person"],
    "clock": "45",
    "rated": False,
}


def row(status: str = "open", **over: Any) -> rows.ChallengeRow:
    given: dict[str, Any] = {
        "id": "c1",
        "from_id": "ben",
        "to_id": "ana",
        "settings": {"rules": {"players": 3, "target": 50}, "seats": ["person", "you", "easy"]},
        "created": NOW,
        "expires": NOW + model.CHALLENGE_SECONDS,
        "status": status,
        "from_name": "Ben",
        "to_name": "Ana",
        **over,
    }
    return rows.ChallengeRow(**given)


# -- the rules, with a clock given ----------------------------------------------------


def test_a_challenge_expires_at_its_time_and_cannot_be_answered_after() -> None:
    open_one = row()
    assert model.status_at(open_one, NOW + model.CHALLENGE_SECONDS - 1) == "open"
    assert model.status_at(open_one, NOW + model.CHALLENGE_SECONDS) == "expired"
    assert model.answerable(open_one, "ana", NOW + 1, incoming=True) is open_one
    with pytest.raises(SocialError) as late:
        model.answerable(open_one, "ana", NOW + model.CHALLENGE_SECONDS, incoming=True)
    assert late.value.code == "gone"
    # An answered one stays answered, whatever the time.
    assert model.status_at(row("declined"), NOW + 10_000) == "declined"
    shown = model.challenge_json(open_one, "ana", NOW + 100)
    assert shown["expires_in"] == model.CHALLENGE_SECONDS - 100
    assert shown["incoming"] and shown["players"] == 3 and shown["bots"] == ["easy"]


def test_only_the_one_challenged_answers_and_only_the_challenger_cancels() -> None:
    c = row()
    for me, incoming in (("ben", True), ("ana", False), ("cy", True), ("cy", False)):
        with pytest.raises(SocialError) as refused:
            model.answerable(c, me, NOW, incoming=incoming)
        assert refused.value.code == "gone"  # another's challenge is "gone": nothing told
    assert model.answerable(c, "ben", NOW, incoming=False) is c
    accepted = row("accepted", code="ABCDEF")
    assert model.seat_of(accepted, "ana") == 0 and model.seat_of(accepted, "ben") == 1
    assert model.challenge_json(accepted, "ben", NOW)["seat"] == 1


def test_who_may_challenge_whom() -> None:
    with pytest.raises(SocialError) as nobody:
        model.check_target("ben", None, "Zed")
    assert (nobody.value.code, nobody.value.status) == ("no-such-account", 404)
    assert "Zed" in str(nobody.value)
    with pytest.raises(SocialError) as own:
        model.check_target("ana", ANA, "ana")
    assert own.value.code == "yourself"
    model.may_challenge(ANA, Standing())
    # A block, a suspended account and a full inbox answer alike: the block stays unsaid.
    said = set()
    for target, standing in (
        (ANA, Standing(blocked=True)),
        (rows.Account("ana", "Ana", usable=False), Standing()),
        (ANA, Standing(incoming=model.MOST_INCOMING)),
    ):
        with pytest.raises(SocialError) as refused:
            model.may_challenge(target, standing)
        said.add((refused.value.code, str(refused.value)))
    assert said == {("unavailable", "Ana cannot be challenged now.")}
    for standing, code in (
        (Standing(blocking=True), "you-block"),
        (Standing(pending=True), "already-challenged"),
        (Standing(outgoing=model.MOST_OUTGOING), "too-many"),
    ):
        with pytest.raises(SocialError) as refused:
            model.may_challenge(ANA, standing)
        assert refused.value.code == code
    for bad in ("", "   ", 7, None, "x" * 65):
        with pytest.raises(SocialError):
            model.clean_name(bad)


def test_a_challenges_table_is_checked_by_the_lobbys_own_checks() -> None:
    fields = service.table_fields(dict(TWO), "ben")
    assert fields["clock"] == {"move": 45, "bank": 90} and fields["seats"] == ["you", "person"]
    assert fields["about"] == {"players": 2, "target": 50, "partnerships": False}
    for bad, words in (
        ({**TWO, "seats": ["you", "easy"]}, "one seat for the person"),
        ({**TWO, "seats": ["person", "person"]}, "one seat for the person"),
        ({**TWO, "rules": {"players": 5}}, "2, 3 or 4 players"),
        ({**TWO, "clock": "forever"}, "clock"),
        ({**TWO, "rated": "yes"}, "yes-or-no"),
        (
            {**TWO, "rules": {"players": 3}, "seats": ["you", "person", "easy"], "rated": True},
            "no bots",
        ),
    ):
        with pytest.raises(SocialError) as refused:
            service.table_fields(bad, "ben")
        assert refused.value.code == "bad-settings"
        assert words in str(refused.value), str(refused.value)


# -- the store, on both databases ------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    made: Any
    for made in either_store(request.param, tmp_path, "social"):
        with made.transaction() as tx:
            for name in ("Ana", "Ben", "Cy"):
                user = UserRow(id=name.lower(), name=name, password_hash="x", created=1.0)
                users.insert_user(tx, user, name_key(name), name.lower(), "")
        yield made


def test_follow_unfollow_and_a_block_that_ends_the_follow_and_refuses(store: Store) -> None:
    assert service.follow(store, "ben", "ana", NOW) == "Ana"  # names are looked up loosely
    assert service.follow(store, "ben", "Ana", NOW) == "Ana"  # twice is once
    assert service.follow(store, "ben", "Cy", NOW) == "Cy"
    seen = service.state(store, "ben", NOW, alive_since=None, process="p1")
    assert [f["name"] for f in seen["friends"]] == ["Ana", "Cy"]
    for name, code in (("Zed", "no-such-account"), ("Ben", "yourself"), ("", "bad-name")):
        with pytest.raises(SocialError) as refused:
            service.follow(store, "ben", name, NOW)
        assert refused.value.code == code
    # Ana blocks Ben: he follows her no more, may not again, and his challenge is refused
    # as a suspended account's would be.
    made = service.challenge(store, "ben", {**TWO, "name": "Ana"}, NOW)
    assert made["status"] == "open" and not made["incoming"]
    service.block(store, "ana", "Ben", NOW + 1)
    seen = service.state(store, "ben", NOW + 2, alive_since=None, process="p1")
    assert [f["name"] for f in seen["friends"]] == ["Cy"]
    assert seen["challenges"] == []  # the open one was cancelled
    with pytest.raises(SocialError) as follow:
        service.follow(store, "ben", "Ana", NOW + 2)
    assert follow.value.code == "unavailable"
    with pytest.raises(SocialError) as again:
        service.challenge(store, "ben", {**TWO, "name": "Ana"}, NOW + 2)
    assert (again.value.code, str(again.value)) == ("unavailable", "Ana cannot be challenged now.")
    assert service.state(store, "ana", NOW + 2, alive_since=None, process="p1")["blocked"] == [
        "Ben"
    ]
    with pytest.raises(SocialError) as own:
        service.challenge(store, "ana", {**TWO, "name": "Ben"}, NOW + 2)
    assert own.value.code == "you-block"
    service.unblock(store, "ana", "Ben")
    with pytest.raises(SocialError) as twice:
        service.unblock(store, "ana", "Ben")
    assert twice.value.code == "not-blocked"
    assert service.challenge(store, "ben", {**TWO, "name": "Ana"}, NOW + 3)["status"] == "open"


def test_decline_cancel_expiry_and_a_challenge_that_is_gone(store: Store) -> None:
    one = service.challenge(store, "ben", {**TWO, "name": "Ana"}, NOW)
    with pytest.raises(SocialError) as pending:
        service.challenge(store, "ben", {**TWO, "name": "Ana"}, NOW)
    assert pending.value.code == "already-challenged"
    shown = service.state(store, "ana", NOW + 1, alive_since=None, process="p1")
    assert [c["id"] for c in shown["challenges"]] == [one["id"]]
    assert shown["challenges"][0]["incoming"] and shown["challenges"][0]["from"] == "Ben"
    assert service.answer(store, "ana", one["id"], "decline", NOW + 2)["status"] == "declined"
    recent = service.state(store, "ben", NOW + 3, alive_since=None, process="p1")["recent"]
    assert [(c["id"], c["status"]) for c in recent] == [(one["id"], "declined")]
    for action in ("decline", "cancel"):
        with pytest.raises(SocialError) as gone:
            service.answer(store, "ana" if action == "decline" else "ben", one["id"], action, NOW)
        assert gone.value.code == "gone"
    with pytest.raises(SocialError):
        service.accept(store, "ana", one["id"], NOW + 4)
    two = service.challenge(store, "ben", {**TWO, "name": "Cy"}, NOW)
    assert service.answer(store, "ben", two["id"], "cancel", NOW + 1)["status"] == "cancelled"
    three = service.challenge(store, "cy", {**TWO, "name": "Ana"}, NOW)
    late = NOW + model.CHALLENGE_SECONDS + 1
    assert service.state(store, "ana", late, alive_since=None, process="p1")["challenges"] == []
    with pytest.raises(SocialError) as expired:
        service.accept(store, "ana", three["id"], late)
    assert expired.value.code == "gone"
    with pytest.raises(SocialError) as nothing:
        service.accept(store, "ana", "no-such-id", NOW)
    assert nothing.value.code == "gone"


def test_a_deleted_accounts_follows_and_open_challenges_go(store: Store) -> None:
    """Deleting an account (issue 13) takes its follows both ways and its open
    challenges with it; its games stay (as now)."""
    service.follow(store, "ben", "Ana", NOW)
    service.follow(store, "ana", "Ben", NOW)
    service.challenge(store, "ben", {**TWO, "name": "Ana"}, NOW)
    with store.transaction() as tx:
        users.delete_user(tx, "ben", "deleted player", "deleted:ben")
        follows = tx.all("SELECT 1 FROM web_follows WHERE user_id = 'ben' OR other_id = 'ben'")
        assert follows == [] and tx.all("SELECT 1 FROM web_challenges") == []
    seen = service.state(store, "ana", NOW + 1, alive_since=None, process="p1")
    assert seen["friends"] == [] and seen["challenges"] == []


def test_a_double_accept_from_two_threads_makes_one_table(store: Store) -> None:
    body = {
        "name": "Ana",
        "rules": {"players": 3, "target": 30},
        "seats": ["person", "you", "easy"],
        "clock": {"move": 20, "bank": 40},
        "rated": False,
    }
    made = service.challenge(store, "ben", body, NOW)
    start = threading.Barrier(4)
    got: list[Any] = []

    def accept() -> None:
        start.wait()
        try:
            got.append(service.accept(store, "ana", made["id"], NOW + 5))
        except Exception as exc:  # pragma: no cover - shown by the assertion below
            got.append(exc)

    threads = [threading.Thread(target=accept) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(set(got)) == 1, got
    code, seat = got[0]
    assert seat == 0
    with store.transaction() as tx:
        count = tx.one("SELECT COUNT(*) FROM web_tables")
    assert count is not None and count[0] == 1
    table = store.load_table(code)
    assert table is not None
    assert [(s.kind, s.name, s.user_id) for s in table.seats] == [
        ("human", "Ana", "ana"),
        ("human", "Ben", "ben"),
        ("bot", "easy", None),
    ]
    assert table.rules["players"] == 3 and table.rules["target"] == 30
    assert table.clock == {"move": 20, "bank": 40} and not table.rated
    again = service.accept(store, "ana", made["id"], NOW + 6)
    assert again == (code, 0)  # a second tap goes to the same table
    recent = service.state(store, "ben", NOW + 7, alive_since=None, process="p1")["recent"]
    assert recent[0]["status"] == "accepted" and (recent[0]["code"], recent[0]["seat"]) == (code, 1)
    assert json.loads(json.dumps(recent))  # the page's JSON


def test_presence_counts_only_live_processes_and_shows_the_table(store: Store) -> None:
    service.follow(store, "ben", "Ana", NOW)
    service.follow(store, "ben", "Cy", NOW)
    made = service.challenge(store, "cy", {**TWO, "name": "Ana", "rated": True}, NOW)
    code, _seat = service.accept(store, "ana", made["id"], NOW)
    with store.transaction() as tx:
        leases.heartbeat(tx, "live", NOW, 3.0)
        leases.heartbeat(tx, "dead", NOW - 60, 3.0)
        rows.set_online(tx, "live", [("ana", code)], [], NOW)
        rows.set_online(tx, "dead", [("cy", "")], [], NOW - 60)
    seen = service.state(store, "ben", NOW, alive_since=NOW - 10, process="live")["friends"]
    assert seen == [
        {
            "name": "Ana",
            "online": True,
            "table": {"code": code, "players": ["Cy", "Ana"], "rated": True},
            "bot": False,  # a bot account is marked (P62)
        },
        {"name": "Cy", "online": False, "table": None, "bot": False},
    ]
    # One process alone (SQLite): only its own rows count.
    solo = service.state(store, "ben", NOW, alive_since=None, process="dead")["friends"]
    assert [f["online"] for f in solo] == [False, True]
    with store.transaction() as tx:
        rows.set_online(tx, "live", [("ana", "")], [("ana", code)], NOW + 1)
        assert rows.forget_online(tx, dead_before=NOW - 10) == 1  # the dead one's row
    seen = service.state(store, "ben", NOW + 1, alive_since=NOW - 9, process="live")["friends"]
    assert seen[0] == {"name": "Ana", "online": True, "table": None, "bot": False}
    # Whoever blocks you is never shown to you online.
    service.block(store, "ana", "Ben", NOW + 2)
    service.follow(store, "ben", "Cy", NOW)
    names = [
        f["name"]
        for f in service.state(store, "ben", NOW + 2, alive_since=NOW - 9, process="live")[
            "friends"
        ]
    ]
    assert names == ["Cy"]


# -- what a process writes of its sockets ----------------------------------------------


class _Conn:
    def __init__(self, user_id: str | None, code: str | None = None, seat: int | None = None):
        self.user_id, self.seat, self.closed = user_id, seat, False
        self.table = None if code is None else type("T", (), {"code": code})()


def test_a_process_writes_its_sockets_only_when_they_change(store: Store) -> None:
    from passing_game.web.social.online import Online
    from passing_game.web.store import AsyncStore

    writes: list[int] = []
    db = AsyncStore(store)
    real_run = db.run

    async def counted(fn: Any, *args: Any, **kw: Any) -> Any:
        writes.append(1)
        return await real_run(fn, *args, **kw)

    db.run = counted  # type: ignore[method-assign]
    sessions = type("S", (), {"conns": set()})()
    cluster = type("C", (), {"process": "p1", "solo": True})()
    lobby = type("L", (), {"db": db, "sessions": sessions, "cluster": cluster, "closing": False})()
    online = Online(lobby)  # type: ignore[arg-type]

    def seen() -> dict[str, set[str]]:
        with store.transaction() as tx:
            return rows.online(tx, ["ana", "ben"], alive_since=None, process="p1")

    async def steps() -> None:
        ana = _Conn("ana")
        sessions.conns.update({ana, _Conn(None)})  # a guest's socket is nobody's
        assert await online.sync()
        assert seen() == {"ana": {""}}
        assert not await online.sync()  # nothing changed: nothing written
        ana.table, ana.seat = type("T", (), {"code": "ABCDEF"})(), 1
        watching = _Conn("ben", "ABCDEF", None)  # watching: online at no table
        sessions.conns.add(watching)
        assert await online.sync()
        assert seen() == {"ana": {"ABCDEF"}, "ben": {""}}
        sessions.conns.discard(watching)
        ana.closed = True
        assert await online.sync()
        assert seen() == {}
        sessions.conns.add(_Conn("ben"))
        await online.sync()
        await online.close()  # a process that stops takes its rows away
        assert seen() == {}

    blocking(steps())
    assert len(writes) == 5  # four changes and the close; the unchanged check wrote nothing
    db.shutdown()
