"""The chat (issue 27, item 1; docs/DECISIONS.md P58): its rules with an injected clock,
its rows on both databases, a table's chat over the socket (presets in each reader's
language, free text for accounts only, the spectators' channel, mutes, reports, a
moderator's mute and delete), a tournament's chat over HTTP, and ``passing-game admin
chat``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from click.testing import CliRunner

from passing_game.cli import main
from passing_game.i18n import _, using_language
from passing_game.web.chat import model, moderation
from passing_game.web.chat.model import ChatError, Message
from passing_game.web.store import SqliteStore, Store
from passing_game.web.store import chat as rows
from site_helpers import Site, either_site
from web_helpers import Player, either_store

# -- the rules, pure ----------------------------------------------------------------


def test_text_is_cleaned_and_limited() -> None:
    assert model.clean_text("  a\u0000b\u200b\n\n c\u202e ") == "ab c"
    assert model.clean_text("x" * model.MAX_TEXT) == "x" * model.MAX_TEXT
    for bad, code in (("", "chat-empty"), (" \t\n", "chat-empty"), (5, "chat-empty")):
        with pytest.raises(ChatError) as refused:
            model.clean_text(bad)
        assert refused.value.code == code
    with pytest.raises(ChatError) as refused:
        model.clean_text("x" * (model.MAX_TEXT + 1))
    assert refused.value.code == "chat-too-long" and "200" in str(refused.value)


def test_a_say_is_a_known_preset_or_an_accounts_text() -> None:
    assert model.check_say("hello", None, False) == ("hello", None)
    assert model.check_say(None, " hi  there ", True) == (None, "hi there")
    cases = [
        (("nope", None, True), "chat-preset"),
        (([1], None, True), "chat-preset"),
        ((None, "hi", False), "chat-signed-out"),
        ((None, None, True), "chat-bad"),
        (("hello", "hi", True), "chat-bad"),
    ]
    for args, code in cases:
        with pytest.raises(ChatError) as refused:
            model.check_say(*args)
        assert refused.value.code == code


def test_the_rate_with_an_injected_clock() -> None:
    now = 1000.0
    sent: list[float] = []
    for i in range(model.RATE_COUNT):
        assert model.rate_ok(sent, now + i)
        sent.append(now + i)
    assert not model.rate_ok(sent, now + model.RATE_COUNT)
    with pytest.raises(ChatError) as refused:
        model.check_rate(sent, now + model.RATE_COUNT)
    assert refused.value.code == "chat-rate"
    # Once the first message leaves the window, one more may go.
    assert model.rate_ok(sent, now + model.RATE_SECONDS + 0.5)


def test_channels_spectators_are_not_read_by_players_until_the_match_is_over() -> None:
    assert model.channel_of(True) == "players" and model.channel_of(False) == "spectators"
    assert model.may_read("players", seated=True, match_over=False)
    assert model.may_read("players", seated=False, match_over=False)
    assert model.may_read("spectators", seated=False, match_over=False)
    assert not model.may_read("spectators", seated=True, match_over=False)
    assert model.may_read("spectators", seated=True, match_over=True)


def test_a_preset_is_worded_in_each_readers_language() -> None:
    for key, english in model.PRESETS.items():
        said = Message(7, "ABCDEF", "players", "g:x", None, "Ana", key, None, 5.0)
        assert model.render(said, "en")["text"] == english
        for lang in ("gl", "hr"):
            with using_language(lang):
                assert model.render(said, lang)["text"] == _(english)
    said = Message(7, "ABCDEF", "players", "g:x", None, "Ana", "rematch", None, 5.0)
    en, gl, hr = (model.render(said, lang)["text"] for lang in ("en", "gl", "hr"))
    assert (en, gl, hr) == ("Rematch", "Revancha", "Revanš")
    free = Message(8, "ABCDEF", "spectators", "g:y", None, "", None, "<b>hi</b>", 6.0)
    shown = model.render(free, "gl", mine=True)
    assert shown["text"] == "<b>hi</b>" and shown["mine"] and shown["name"] != ""
    assert "user_id" not in shown
    keys = [p["key"] for p in model.presets_in("hr")]
    assert keys == list(model.PRESETS)


def test_author_keys_hide_the_account() -> None:
    key = model.author_key("user-123", "")
    assert key.startswith("u:") and "user-123" not in key
    assert key == model.author_key("user-123", "") != model.author_key("user-124", "")
    assert model.author_key(None, "ABC/1") == "g:ABC/1"


def test_a_reports_context_is_the_messages_around_it() -> None:
    msgs = [Message(i, "P", "players", "g:a", None, "A", "hello", None, i) for i in range(1, 20)]
    assert [m.id for m in model.around(msgs, 10)] == list(range(5, 16))
    assert [m.id for m in model.around(msgs, 2)] == list(range(1, 8))
    assert model.around(msgs, 99) == []


# -- the rows, on both databases ------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    yield from either_store(request.param, tmp_path, "chat")


def _msg(place: str, channel: Any, at: float, text: str = "hi", user: str | None = "u1") -> Message:
    return Message(0, place, channel, model.author_key(user, "g"), user, "Ana", None, text, at)


def test_rows_ids_history_deletion_reports_mutes(store: Store) -> None:
    with store.transaction() as tx:
        kept = [rows.add(tx, _msg("ABC", "players", 10.0 + i, f"m{i}")) for i in range(12)]
        spect = rows.add(tx, _msg("ABC", "spectators", 30.0, "watching", None))
        rows.add(tx, _msg("t:T1", "tournament", 31.0))
    assert [m.id for m in kept] == list(range(1, 13)) and spect.id == 13
    with store.transaction() as tx:
        assert [m.text for m in rows.history(tx, "ABC", ["players"], 3)] == ["m9", "m10", "m11"]
        both = rows.history(tx, "ABC", ["players", "spectators"], 50)
        assert len(both) == 13 and both[-1].user_id is None
        assert [m.id for m in rows.history(tx, "ABC", ["players"], 50, after=10)] == [11, 12]
        author = kept[0].author
        assert len(rows.recent_times(tx, author, 15.0)) == 7
        report = rows.add_report(tx, kept[6], "Bo", "u2", 40.0)
        assert rows.add_report(tx, kept[6], "Bo", "u2", 41.0) == report  # once per person
        rows.delete(tx, 7, 42.0)
        assert rows.get(tx, 7) is None and rows.delete(tx, 7, 43.0) is None
        assert 7 not in [m.id for m in rows.history(tx, "ABC", ["players"], 50)]
        assert rows.deleted_since(tx, 41.0) == [(7, "ABC", 42.0)]
        assert rows.deleted_among(tx, "ABC", 0) == [7]
        found = rows.reports(tx, True, 10)
        assert len(found) == 1 and found[0].message is not None and found[0].message.id == 7
        assert [c["id"] for c in found[0].context] == list(range(2, 13))
        assert rows.close_reports(tx, 7, None, 44.0) == 1
        assert rows.reports(tx, True, 10) == [] and len(rows.reports(tx, False, 10)) == 1
        assert rows.muted_until(tx, "u1", 50.0) is None
        rows.mute(tx, "u1", 100.0, "spam", "mod")
        rows.mute(tx, "u1", 200.0, "spam again", "mod")
        assert rows.muted_until(tx, "u1", 150.0) == 200.0
        assert rows.muted_until(tx, "u1", 250.0) is None


# -- a table's chat over the socket ------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Site]:
    yield from either_site(request.param, tmp_path, "chatsite")


@contextmanager
def socket(site: Site, who: str | None, lang: str = "en") -> Iterator[Player]:
    with site.as_(who) as c:
        ws = c.websocket_connect(f"/ws?lang={lang}", headers=site.address(who))
        ws.__enter__()
    try:
        yield Player(ws)
    finally:
        ws.__exit__(None, None, None)


def chat(player: Player, pred: Any = lambda m: True) -> dict[str, Any]:
    """The next chat message frame's message that satisfies ``pred``."""
    frame = player.until(lambda f: f["type"] == "chat" and any(pred(m) for m in f["messages"]))
    return next(m for m in frame["messages"] if pred(m))


def history(player: Player) -> dict[str, Any]:
    player.send(type="chat_history")
    return player.until(lambda f: f["type"] == "chat" and f.get("history"))


def error(player: Player) -> dict[str, Any]:
    return player.until(lambda f: f["type"] == "error")


def test_a_table_chat_over_the_socket(site: Site) -> None:
    site.sign_up("Ana", "10.2.0.1")
    site.sign_up("Bob", "10.2.0.2")
    with socket(site, "Ana") as ana, socket(site, "Bob", "gl") as bo, socket(site, None) as cy:
        ana.send(type="create", name="Ana", seats=["you", "person"], rules={"players": 2})
        code = ana.until(lambda f: f["type"] == "joined")["table"]
        bo.send(type="join", code=code, name="Bob")
        bo.until(lambda f: f["type"] == "joined")
        cy.send(type="watch", code=code)
        cy.until(lambda f: f["type"] == "joined")
        # A preset in each reader's language; the sender's own is "mine".
        ana.send(type="say", preset="rematch")
        mine = chat(ana)
        assert mine["text"] == "Rematch" and mine["mine"] and mine["name"] == "Ana"
        in_gl = chat(bo)
        assert in_gl["text"] == "Revancha" and not in_gl["mine"]
        assert chat(cy)["text"] == "Rematch"
        # Free text from an account is text; a guest has presets only.
        bo.send(type="say", text="  <i>ola</i>\u0007  ")
        assert chat(ana, lambda m: m["preset"] is None)["text"] == "<i>ola</i>"
        cy.send(type="say", text="hi")
        assert error(cy)["code"] == "chat-signed-out"
        for bad, why in (
            ({"preset": "nope"}, "chat-preset"),
            ({"text": ""}, "chat-empty"),
            ({"text": "x" * 201}, "chat-too-long"),
            ({}, "chat-bad"),
        ):
            ana.send(type="say", **bad)
            assert error(ana)["code"] == why
        # A spectator's message reaches the spectators, never a player in the game.
        cy.send(type="say", preset="oops")
        assert chat(cy, lambda m: m["preset"] == "oops")["channel"] == "spectators"
        ana.send(type="say", preset="thanks")
        seen = chat(bo, lambda m: m["preset"] == "thanks")
        assert seen["channel"] == "players"
        for player in (ana, bo):
            assert not any(
                m["preset"] == "oops"
                for f in player.frames
                if f["type"] == "chat"
                for m in f["messages"]
            )
            shown = history(player)
            assert {m["channel"] for m in shown["messages"]} == {"players"}
        spectator = history(cy)
        assert {m["channel"] for m in spectator["messages"]} == {"players", "spectators"}
        assert not spectator["write"] and history(ana)["write"]
        # Bo mutes Ana: her messages no longer reach Bo, neither live nor in history.
        bo.send(type="chat_mute", message=mine["id"])
        muted = bo.until(lambda f: f["type"] == "chat_muted")
        assert muted["author"] == mine["author"] and muted["name"] == "Ana"
        ana.send(type="say", text="can you hear me")
        assert chat(cy, lambda m: m["text"] == "can you hear me")
        bo.send(type="say", preset="bye")
        chat(bo, lambda m: m["preset"] == "bye")  # after Ana's, in order
        assert not any(
            m["text"] == "can you hear me"
            for f in bo.frames
            if f["type"] == "chat"
            for m in f["messages"]
        )
        assert all(m["name"] != "Ana" for m in history(bo)["messages"])
        # ...and hears her again once unmuted (her earlier messages come back too).
        bo.send(type="chat_unmute", message=mine["id"])
        assert bo.until(lambda f: f["type"] == "chat_unmuted")["name"] == "Ana"
        assert "can you hear me" in [m["text"] for m in history(bo)["messages"]]
        # A guest may report; the report keeps its context.
        cy.send(type="chat_report", message=seen["id"])
        assert cy.until(lambda f: f["type"] == "chat_reported")["message"] == seen["id"]
        cy.send(type="chat_report", message=seen["id"])  # a guest's second: the same report
        cy.until(lambda f: f["type"] == "chat_reported")
        cy.send(type="chat_report", message=999999)
        assert error(cy)["code"] == "chat-no-message"
        # The moderator's side.
        store = site.client.app.state.lobby.store  # type: ignore[attr-defined]
        found = moderation.reports(store)
        assert len(found) == 1 and found[0].message is not None and found[0].reporter == ""
        assert found[0].message.id == seen["id"] and found[0].place == code
        assert any(c["preset"] == "rematch" for c in found[0].context)
        moderation.delete(store, seen["id"], actor="mod", reason="test")
        assert seen["id"] not in [m["id"] for m in history(cy)["messages"]]
        assert moderation.reports(store) == []
        moderation.mute(store, "Ana", 3600, actor="mod", reason="spam")
        ana.send(type="say", preset="hello")
        refused = error(ana)
        assert refused["code"] == "chat-muted" and "UTC" in refused["message"]
        # The rate: at most RATE_COUNT in RATE_SECONDS, counted in the store.
        for _ in range(model.RATE_COUNT):
            bo.send(type="say", preset="sorry")
        bo.send(type="say", preset="sorry")
        assert error(bo)["code"] == "chat-rate"


def test_a_player_watching_the_own_table_reads_as_a_player(site: Site) -> None:
    site.sign_up("Ana", "10.4.0.1")
    with socket(site, "Ana") as ana, socket(site, "Ana") as again, socket(site, None) as cy:
        ana.send(type="create", name="Ana", seats=["you", "person"], rules={"players": 2})
        code = ana.until(lambda f: f["type"] == "joined")["table"]
        for watcher in (again, cy):
            watcher.send(type="watch", code=code)
            watcher.until(lambda f: f["type"] == "joined")
        cy.send(type="say", preset="oops")
        chat(cy)
        again.send(type="say", preset="hello")  # written in the players' channel
        assert chat(cy, lambda m: m["preset"] == "hello")["channel"] == "players"
        assert chat(again, lambda m: m["preset"] == "hello")["mine"]
        frames = [f for f in again.frames if f["type"] == "chat"]
        assert not any(m["preset"] == "oops" for f in frames for m in f["messages"])
        assert [m["preset"] for m in history(again)["messages"]] == ["hello"]


def test_players_read_the_spectators_once_the_match_is_over(site: Site) -> None:
    with socket(site, None) as ana, socket(site, None) as cy:
        ana.send(type="create", name="Ana", seats=["you", "random"], rules={"players": 2})
        code = ana.until(lambda f: f["type"] == "joined")["table"]
        cy.send(type="watch", code=code)
        cy.until(lambda f: f["type"] == "joined")
        cy.send(type="say", preset="good-game")
        chat(cy)
        assert history(ana)["messages"] == []
        ana.send(type="resign")
        ana.until(lambda f: f["type"] == "state" and f["over"])
        assert [m["preset"] for m in history(ana)["messages"]] == ["good-game"]


# -- a tournament's chat over HTTP ----------------------------------------------------


def test_a_tournament_chat(site: Site) -> None:
    site.sign_up("Ana", "10.3.0.1")
    site.sign_up("Bob", "10.3.0.2")
    made = site.post("Ana", "/api/tournaments", {"kind": "arena", "name": "Cup", "minutes": 30})
    assert made.status_code == 200, made.text
    id = made.json()["id"]
    joined = site.post("Ana", f"/api/tournaments/{id}/join", {})
    assert joined.status_code == 200, joined.text
    said = site.post("Ana", f"/api/chat/t/{id}", {"preset": "rematch"})
    assert said.status_code == 200, said.text
    outsider = site.post("Bob", f"/api/chat/t/{id}", {"preset": "hello"})
    assert outsider.status_code == 403 and outsider.json()["code"] == "chat-not-entrant"
    anon = site.post(None, f"/api/chat/t/{id}", {"preset": "hello"})
    assert anon.status_code == 401
    assert site.post("Ana", "/api/chat/t/NOPE", {"preset": "hello"}).status_code == 404
    bad = site.post("Ana", f"/api/chat/t/{id}", {"preset": "nope"})
    assert bad.status_code == 400 and bad.json()["code"] == "chat-preset"
    text = site.post("Ana", f"/api/chat/t/{id}", {"text": "first!"}).json()["message"]
    with site.as_(None) as c:
        read = c.get(f"/api/chat/t/{id}?after=0", headers={"Accept-Language": "gl"}).json()
    assert [m["preset"] for m in read["messages"]] == ["rematch", None]
    assert read["messages"][0]["text"] == "Revancha" and not read["write"]
    assert site.get("Ana", f"/api/chat/t/{id}").json()["write"]
    later = site.get(None, f"/api/chat/t/{id}?after={read['last']}").json()
    assert later["messages"] == [] and later["last"] == read["last"]
    # Bo mutes Ana from the page, and reports her message.
    assert site.post("Bob", f"/api/chat/{text['id']}/mute", {}).status_code == 200
    assert site.get("Bob", f"/api/chat/t/{id}").json()["messages"] == []
    assert site.post("Bob", f"/api/chat/{text['id']}/unmute", {}).status_code == 200
    assert len(site.get("Bob", f"/api/chat/t/{id}").json()["messages"]) == 2
    assert site.post("Bob", f"/api/chat/{text['id']}/mute", {}).status_code == 200
    assert site.post("Bob", f"/api/chat/{text['id']}/report", {}).status_code == 200
    assert site.post("Bob", "/api/chat/99999/report", {}).status_code == 404
    store = site.client.app.state.lobby.store  # type: ignore[attr-defined]
    moderation.delete(store, text["id"], actor="mod", reason="test")
    first = read["messages"][0]["id"]
    again = site.get(None, f"/api/chat/t/{id}?after={read['last']}&from={first}").json()
    assert again["deleted"] == [text["id"]]


# -- passing-game admin chat ----------------------------------------------------------


def test_the_admin_chat_commands(tmp_path: Path) -> None:
    path = tmp_path / "admin.sqlite3"
    store = SqliteStore(path)
    with store.transaction() as tx:
        tx.run(
            "INSERT INTO web_users (id, name, name_key, created) VALUES (?, ?, ?, ?)",
            ("u1", "Ana", "ana", 1.0),
        )
        first = rows.add(tx, _msg("ABCDEF", "players", 10.0, "rude words"))
        rows.add(tx, _msg("ABCDEF", "players", 11.0, "more"))
        rows.add_report(tx, first, "Bo", "u2", 12.0)
    store.close()
    run = CliRunner().invoke
    db = ["admin", "--db", f"sqlite:///{path}", "--actor", "mod", "chat"]
    shown = run(main, [*db, "reports"])
    assert shown.exit_code == 0, shown.output
    assert "Report 1" in shown.output and "> #1" in shown.output and "rude words" in shown.output
    assert "more" in shown.output
    no_reason = run(main, [*db, "delete", "1"])
    assert no_reason.exit_code != 0
    done = run(main, [*db, "delete", "1", "--reason", "insults"])
    assert done.exit_code == 0, done.output
    assert run(main, [*db, "delete", "1", "--reason", "again"]).exit_code == 2
    assert "No open reports" in run(main, [*db, "reports"]).output
    assert run(main, [*db, "mute", "Ana", "--for", "soon", "--reason", "x"]).exit_code == 2
    assert run(main, [*db, "mute", "Nobody", "--for", "2h", "--reason", "x"]).exit_code == 2
    muted = run(main, [*db, "mute", "Ana", "--for", "2h", "--reason", "spam"])
    assert muted.exit_code == 0, muted.output
    assert run(main, [*db, "close", "1", "--reason", "x"]).exit_code == 2  # closed already
    logged = run(main, ["admin", "--db", f"sqlite:///{path}", "log"])
    assert "insults" in logged.output and "spam" in logged.output
    store = SqliteStore(path)
    with store.transaction() as tx:
        assert rows.muted_until(tx, "u1", 0.0) is not None
        assert rows.get(tx, 1) is None
        context = json.loads(tx.one("SELECT context FROM web_chat_reports")[0])  # type: ignore[index]
        assert [c["id"] for c in context] == [1, 2]
    store.close()
    assert moderation.parse_duration("1d12h") == 1.5 * 86400
