"""Bot accounts on the site (issue 28, item 4; docs/BOTS.md "On the site"; P62):
the rules without a database, then the store, the API and the bot socket in
process, on SQLite and PostgreSQL.

A person makes a bot account (its token shown once, kept as a hash), the bot
connects with the token and nothing else, is challenged, accepts and plays a
whole game through the protocol's lines (each decision from its seat's view
only, R9), while everything wrong it sends gets an error line and changes
nothing. A rated game with a bot rates everyone in the bots' pool; quick
play seats bots only with people who chose them; suspending the owner stops
the bot.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import WebSocketDenialResponse

from passing_game.arena.bridge import Accepting, BridgeError, read_token, site_address
from passing_game.bots import protocol
from passing_game.bots.protocol import AnswerError
from passing_game.match import Match
from passing_game.moves import parse_move
from passing_game.web import admin
from passing_game.web.botapi.model import TOKEN_PREFIX, bearer, decision_id, new_token
from passing_game.web.quickplay.matching import A_BOT, MEETS_BOTS, PEOPLE_ONLY, choose
from passing_game.web.server.logs import redact
from passing_game.web.store.rows import Ticket, UserRow
from site_helpers import Site, either_site
from test_web_leak import truth
from web_helpers import TILE_TEXT, Player

CLOCK = {"move": 60, "bank": 0}


# -- the rules, without a database ----------------------------------------------------------


def test_a_token_is_random_and_read_only_from_a_bearer_header() -> None:
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50 and all(t.startswith(TOKEN_PREFIX) for t in tokens)
    token = tokens.pop()
    assert bearer(f"Bearer {token}") == token and bearer(f"bearer   {token}") == token
    for header in (
        None,
        "",
        token,
        f"Basic {token}",
        "Bearer ",
        "Bearer a b",
        "Bearer " + "x" * 200,
    ):
        assert bearer(header) is None, header


def test_a_decision_counts_the_seats_own_moves_in_the_game() -> None:
    match = Match(seed=11)
    seen: dict[int, int] = {0: 0, 1: 0}
    for _ in range(60):
        if match.is_over:
            break
        seat = match.to_move
        assert seat is not None
        assert decision_id(match, seat) == seen[seat] + 1  # counted from 1, per seat
        seen[seat] += 1
        match.play(match.legal_moves()[0])


def test_each_bad_line_of_a_bot_is_refused_with_what_is_wrong() -> None:
    refused = {
        "{not json": "not JSON",
        "[1, 2]": "not a JSON object",
        '{"type": "fly"}': "no line has the type",
        '{"type": "accept"}': "challenge is a text",
        '{"type": "seek", "players": 5}': "players is 2, 3 or 4",
        '{"type": "seek", "players": 2, "rated": "yes"}': "rated is true or false",
        '{"table": "ABCDEF"}': "an answer with a move",
        '{"table": "ABCDEF", "id": "7", "move": "draw"}': "id is a whole number",
        '{"type": "hello", "protocol": 2}': "speaks protocol 2",
        "x" * 5000: "at most 4096 bytes",
        "[" * 3000 + "]" * 3000: "at most 4096 bytes",
        "[" * 2000 + "]" * 2000: "nested too deep",
        b"\xff\xfe": "UTF-8",
    }
    for line, said in refused.items():
        with pytest.raises(AnswerError) as exc:
            protocol.read_bot_line(line)
        assert said in str(exc.value), (line[:30], str(exc.value))
    kind, message = protocol.read_bot_line('{"table": "ABCDEF", "id": 4, "code": 56}')
    assert kind == "answer" and protocol.move_of(message, []) == parse_move("draw")


def _waiting(ticket: str, user: str, since: float, bots: int) -> Ticket:
    return Ticket(ticket, 2, False, user, user, "h", since, bots)


def test_quick_play_seats_a_bot_only_with_people_who_chose_to_meet_bots() -> None:
    bot = _waiting("r", "robo", 1.0, A_BOT)
    ben = _waiting("b", "ben", 2.0, PEOPLE_ONLY)
    cy = _waiting("c", "cy", 3.0, MEETS_BOTS)
    other_bot = _waiting("s", "sim", 4.0, A_BOT)
    assert choose([bot, ben], 2, False) is None  # Ben did not choose bots
    assert [t.ticket for t in choose([bot, ben, cy], 2, False) or []] == ["r", "c"]
    assert choose([bot, other_bot], 2, False) is None  # never bots alone
    # The oldest waits for people only: people first, a bot-friendly person included.
    assert [t.ticket for t in choose([ben, cy, bot], 2, False) or []] == ["b", "c"]
    # Asking for the site's bots never seats a bot account.
    assert [t.ticket for t in choose([bot, ben], 2, False, asker="b") or []] == ["b"]


def test_the_bridge_reads_its_rules_its_address_and_its_token(tmp_path: Path) -> None:
    rules = Accepting(mode="rated", players=frozenset({2}), most=1)
    assert rules.refusal({"from": "Ana", "players": 2, "rated": True}, 0) is None
    assert rules.refusal({"from": "Ana", "players": 2, "rated": False}, 0) == "rated games only"
    assert rules.refusal({"from": "Ana", "players": 3, "rated": True}, 0) is not None
    assert rules.refusal({"from": "Ana", "players": 2, "rated": True}, 1) is not None
    assert Accepting(mode="none").refusal({"players": 2}, 0) is not None
    assert site_address("http://127.0.0.1:8000/") == "ws://127.0.0.1:8000/bot"
    with pytest.raises(BridgeError):
        site_address("ftp://example.com")
    warned: list[str] = []
    with pytest.raises(BridgeError) as none:
        read_token({}, None, warned.append)
    assert "PASSING_GAME_BOT_TOKEN" in str(none.value)
    assert read_token({"PASSING_GAME_BOT_TOKEN": " pgbot_x \n"}, None, warned.append) == "pgbot_x"
    file = tmp_path / "bot.token"
    file.write_text("pgbot_y\n")
    file.chmod(0o644)
    assert read_token({}, str(file), warned.append) == "pgbot_y"
    assert warned and "chmod 600" in warned[0]  # readable by others: said
    file.write_text("pgbot z")
    with pytest.raises(BridgeError):
        read_token({}, str(file), warned.append)


# -- in process, on both databases -----------------------------------------------------------


#: The bot sockets open in the current test (closed at its end, or the app never stops).
OPEN: list[Bot] = []


@pytest.fixture(params=["sqlite", "postgresql"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Site]:
    for made in either_site(request.param, tmp_path, "bots", seconds=240):
        try:
            yield made
        finally:
            while OPEN:
                OPEN.pop().close()


class Bot:
    """A bot's socket in process, keeping every line it got."""

    def __init__(self, site: Site, token: str, **headers: str) -> None:
        site.client.cookies.clear()
        self._cm = site.client.websocket_connect(
            "/bot", headers={"Authorization": f"Bearer {token}", **headers}
        )
        self.ws = self._cm.__enter__()
        OPEN.append(self)
        self.lines: list[dict[str, Any]] = []

    def send(self, **message: Any) -> None:
        self.ws.send_text(json.dumps(message))

    def raw(self, text: str) -> None:
        self.ws.send_text(text)

    def recv(self) -> dict[str, Any]:
        line: dict[str, Any] = self.ws.receive_json()
        self.lines.append(line)
        return line

    def until(self, pred: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
        for _ in range(limit):
            line = self.recv()
            if pred(line):
                return line
        raise AssertionError("the expected line never came")

    def error(self, code: str) -> dict[str, Any]:
        line = self.until(lambda m: m["type"] in ("error", "closed"))
        assert line["code"] == code, line
        return line

    def hello(self) -> dict[str, Any]:
        self.send(type="hello", protocol=1, name="test bot")
        return self.until(lambda m: m["type"] == "welcome")

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._cm.__exit__(None, None, None)


def make_bot(site: Site, owner: str, name: str) -> str:
    made = site.post(owner, "/api/bots", {"name": name})
    assert made.status_code == 201, made.text
    assert made.json()["bot"]["name"] == name
    return str(made.json()["token"])


def challenge(site: Site, who: str, name: str, **settings: Any) -> dict[str, Any]:
    body = {"name": name, "rules": {"players": 2, "target": 30}, "seats": ["you", "person"]}
    body.update(clock=CLOCK, **settings)
    sent = site.post(who, "/api/social/challenge", body)
    assert sent.status_code == 200, sent.text
    return dict(sent.json()["challenge"])


def store_of(site: Site) -> Any:
    return site.client.app.state.lobby.store  # type: ignore[attr-defined]


def test_a_bot_account_is_made_with_the_names_rules_and_its_token_shown_once(site: Site) -> None:
    site.sign_up("Ana")
    token = make_bot(site, "Ana", "Robo")
    assert token.startswith(TOKEN_PREFIX)
    listed = site.get("Ana", "/api/bots").json()
    assert [b["name"] for b in listed["bots"]] == ["Robo"] and token not in json.dumps(listed)
    assert listed["bots"][0]["token"] is True and listed["bots"][0]["connected"] is False
    with store_of(site).transaction() as tx:
        row = tx.one("SELECT token_hash FROM web_bots")
        every = json.dumps([list(r) for r in tx.all("SELECT * FROM web_bots")], default=str)
        users = json.dumps([list(r) for r in tx.all("SELECT * FROM web_users")], default=str)
    assert row is not None and row[0] == hashlib.sha256(token.encode()).hexdigest()
    assert token not in every and token not in users  # only its hash is kept
    for line in (f"WebSocket /bot?token={token} 403", f"Authorization: Bearer {token}", token):
        assert token not in redact(line)  # a log line never holds it either
    # The names' rules of every account; one owner has at most five bots.
    for name, code in (("Ana", "name-taken"), ("Hard bot", "name-reserved"), ("Ro", "bad-name")):
        refused = site.post("Ana", "/api/bots", {"name": name})
        assert (refused.status_code, refused.json()["code"]) == (400, code), name
    for n in range(4):
        make_bot(site, "Ana", f"Robo {n}")
    full = site.post("Ana", "/api/bots", {"name": "Robo 9"})
    assert (full.status_code, full.json()["code"]) == (400, "too-many-bots")
    # Nobody signed out, and no POST without the page's token.
    assert site.post(None, "/api/bots", {"name": "Guest bot"}).json()["code"] == "signed-out"
    with site.as_("Ana") as c:
        assert c.post("/api/bots", content=b'{"name": "Sneaky"}').status_code == 403
    # A bot account has no password: nothing signs in as it.
    for password in ("", "correct horse battery", token):
        signed = site.post(None, "/api/account/signin", {"name": "Robo", "password": password})
        assert signed.status_code == 401
    with pytest.raises(admin.AdminError):
        admin.recovery_code(store_of(site), "Robo", actor="t", reason="asked")


def test_the_socket_takes_a_bearer_token_and_nothing_else(site: Site) -> None:
    site.sign_up("Ana")
    token = make_bot(site, "Ana", "Robo")
    site.client.cookies.clear()
    for headers, path, status, code in (
        ({}, "/bot", 401, "no-token"),
        ({}, f"/bot?token={token}", 401, "no-token"),
        ({"Authorization": f"Bearer {token}x"}, "/bot", 401, "bad-token"),
        ({"Authorization": f"Basic {token}"}, "/bot", 401, "no-token"),
        (
            {"Authorization": f"Bearer {token}", "Origin": "http://testserver"},
            "/bot",
            403,
            "origin",
        ),
    ):
        with pytest.raises(WebSocketDenialResponse) as denied:
            site.client.websocket_connect(path, headers=headers).__enter__()
        assert denied.value.status_code == status, (headers, path)
        assert denied.value.json()["code"] == code
        if "token=" in path:
            assert "never in the address" in denied.value.json()["error"]
    bot = Bot(site, token)
    bot.send(type="seek", players=2)
    bot.error("hello-first")
    welcome = bot.hello()
    assert (welcome["name"], welcome["owner"], welcome["tables"]) == ("Robo", "Ana", [])
    assert site.get("Ana", "/api/bots").json()["bots"][0]["connected"] is True
    # A new token: the old one no longer opens a socket, and its socket is closed.
    new = site.post("Ana", "/api/bots/Robo/token", {}).json()["token"]
    assert new != token
    bot.error("revoked")
    with pytest.raises(WebSocketDenialResponse):
        Bot(site, token)
    second = Bot(site, new)
    second.hello()
    # A second socket of the same bot takes over from the first.
    third = Bot(site, new)
    third.hello()
    second.error("replaced")
    revoked = site.post("Ana", "/api/bots/robo/revoke", {})
    assert revoked.status_code == 200 and revoked.json()["bot"]["token"] is False
    third.error("revoked")
    with pytest.raises(WebSocketDenialResponse):
        Bot(site, new)
    assert site.post("Ana", "/api/bots/Nobody/token", {}).json()["code"] == "no-such-bot"


def bot_plays(bot: Bot, seen: list[dict[str, Any]]) -> threading.Thread:
    """The bot answers its decisions in a thread: each first with a wrong answer of
    another kind (an error line names it, the decision stays open), then with its first
    legal move; every third one it answers twice (a move out of turn, refused)."""
    wrongs = [
        ("nonsense", lambda d: {"table": d["table"], "id": d["id"], "move": "fly away"}),
        ("illegal", lambda d: {"table": d["table"], "id": d["id"], "move": _not_legal(d)}),
        ("stale", lambda d: {"table": d["table"], "id": d["id"] + 5, "move": d["legal"][0]}),
        ("no-table", lambda d: {"table": "ZZZZZZ", "id": d["id"], "move": d["legal"][0]}),
        ("bad-line", lambda d: {"table": d["table"], "id": d["id"]}),
    ]
    twice = {"answered", "not-your-turn", "stale"}

    def run() -> None:
        expected: list[set[str]] = []
        ended, n = False, 0
        while not (ended and not expected):
            line = bot.recv()
            seen.append(line)
            if line["type"] == "error":
                codes = expected.pop(0)
                assert line["code"] in codes, (line, codes)
            elif line["type"] == "game_end":
                ended = True
            elif line["type"] == "decision":
                code, wrong = wrongs[n % len(wrongs)]
                n += 1
                bot.send(**wrong(line))
                expected.append({code})
                right = {"table": line["table"], "id": line["id"], "move": line["legal"][0]}
                bot.send(**right)
                if n % 3 == 0:
                    bot.send(**right)
                    expected.append(twice)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _not_legal(decision: dict[str, Any]) -> str:
    tiles = (f"{a}-{b}" for a in range(7) for b in range(a, 7))
    return "L" + next(
        t for t in tiles if f"L{t}" not in decision["legal"] and f"R{t}" not in decision["legal"]
    )


def play_person(site: Site, who: str, code: str, seat: int) -> Iterator[Player]:
    with site.socket(who) as person:
        person.send(type="resume", code=code, seat=seat)
        yield person


def test_a_bot_plays_a_challenge_and_nothing_it_sends_harms_the_table(site: Site) -> None:
    site.sign_up("Ana")
    bot = Bot(site, make_bot(site, "Ana", "Robo"))
    bot.hello()
    # Without a clock no challenge reaches a bot: a bot that never answers must not hold a table.
    refused = site.post(
        "Ana",
        "/api/social/challenge",
        {"name": "Robo", "rules": {"players": 2}, "seats": ["you", "person"], "clock": "none"},
    )
    assert refused.json()["code"] == "bot-clock"
    sent = challenge(site, "Ana", "Robo")
    offered = bot.until(lambda m: m["type"] == "challenge")
    assert offered["id"] == sent["id"] and offered["from"] == "Ana"
    assert offered["rules"]["target"] == 30 and offered["clock"] == CLOCK
    # Garbage, a huge line, a wrong challenge: each an error line, the socket goes on.
    for text, code in (
        ("{{{", "bad-line"),
        ("x" * 20000, "bad-line"),
        ('{"type": "accept", "challenge": "nope"}', "gone"),
        ('{"type": "rematch", "table": "ZZZZZZ"}', "no-table"),
        ('{"table": "ZZZZZZ", "move": "draw"}', "no-table"),
    ):
        bot.raw(text)
        bot.error(code)
    bot.send(type="accept", challenge=offered["id"])
    over = bot.until(lambda m: m["type"] == "challenge_over")
    code = over["table"]
    start = bot.until(lambda m: m["type"] == "start")
    assert start["table"] == code and start["names"] == ["Ana", "Robo"] and start["seat"] == 1
    seen: list[dict[str, Any]] = []
    thread = bot_plays(bot, seen)
    for person in play_person(site, "Ana", code, 0):
        last = person.play_out()
        assert last["over"]
        robo = last["seats"][1]
        assert robo["bot_account"] and robo["account"] and not last["seats"][0]["bot_account"]
    thread.join(60)
    assert not thread.is_alive()
    decisions = [m for m in seen if m["type"] == "decision"]
    assert len(decisions) >= 3 and [m["type"] for m in seen].count("game_end") == 1
    # Every wrong answer was refused (the thread checked each code) and none was played.
    errors = [m for m in seen if m["type"] == "error"]
    assert len(errors) == len(decisions) + len(decisions) // 3
    record = site.get(None, f"/api/tables/{code}/record?game=1").json()
    moments = truth(record)
    for d in decisions:
        assert set(d) == {*protocol.decision(Match(seed=1).view(0), 1), "table"}
        real = moments[(d["round"], len(d["history"]))]
        assert sorted(d["hand"]) == sorted(real["hands"][1])  # the seat's own hand, all of it
        shown = {f"{min(a, b)}-{max(a, b)}" for a, b in TILE_TEXT.findall(json.dumps(d))}
        drawn = {h["drawn"] for h in d["history"] if "drawn" in h}
        train = {f"{min(a, b)}-{max(a, b)}" for a, b in d["train"]}
        assert shown <= set(d["hand"]) | train | drawn  # nothing hidden (R9)
    ends = [m for m in seen if m["type"] == "round_end"]
    assert ends and sum(sum(e["points"]) for e in ends) == sum(record["scores"])


def test_a_rated_game_with_a_bot_rates_everyone_in_the_bots_pool(site: Site) -> None:
    site.sign_up("Ana")
    bot = Bot(site, make_bot(site, "Ana", "Robo"))
    bot.hello()
    site.post("Ana", "/api/social/follow", {"name": "Robo"})
    challenge(site, "Ana", "Robo", rated=True)
    listed = site.get("Ana", "/api/social").json()
    assert listed["challenges"][0]["to_bot"] and listed["friends"][0]["bot"]
    offered = bot.until(lambda m: m["type"] == "challenge")
    assert offered["rated"]
    bot.send(type="accept", challenge=offered["id"])
    code = bot.until(lambda m: m["type"] == "challenge_over")["table"]
    seen: list[dict[str, Any]] = []
    thread = bot_plays(bot, seen)
    for person in play_person(site, "Ana", code, 0):
        last = person.play_out()
        assert {r["pool"] for r in last["ratings"]} == {"bots-2"}
    thread.join(60)
    board = site.get(None, "/api/leaderboard?pool=bots-2").json()
    assert {(p["name"], p["bot"]) for p in board["players"]} == {("Ana", False), ("Robo", True)}
    assert board["bot_pools"] == ["bots-2", "bots-3", "bots-4", "bots-4-teams"]
    assert site.get(None, "/api/leaderboard?pool=2").json()["players"] == []  # the people's
    profile = site.get(None, "/api/profiles/Robo").json()
    assert profile["bot"] == {"owner": "Ana"} and [r["pool"] for r in profile["ratings"]] == [
        "bots-2"
    ]
    assert site.get(None, "/api/profiles/Ana").json()["bot"] is None
    games = site.get("Ana", "/api/account/games").json()["games"]
    assert [(p["name"], p["bot"]) for p in games[0]["players"]] == [("Ana", False), ("Robo", True)]
    assert games[0]["rating"]["pool"] == "bots-2"
    assert site.get(None, f"/api/replay/{code}/1").json()["bots"] == [False, True]
    yours = site.get("Ana", f"/api/tables/status?codes={code}").json()["tables"]
    assert yours[0]["bots"] == [False, True]


def test_quick_play_meets_bots_only_by_choice(site: Site) -> None:
    site.sign_up("Ana")
    site.sign_up("Ben")
    site.sign_up("Cyd")
    bot = Bot(site, make_bot(site, "Ana", "Robo"))
    bot.hello()
    bot.send(type="seek", players=2, rated=False)
    assert bot.until(lambda m: m["type"] == "seeking")["players"] == 2
    with site.socket("Ben") as ben:
        ben.send(type="quick", players=2)  # people only
        assert ben.until(lambda f: f["type"] == "queue")["waiting"] >= 1
        time.sleep(2.5)  # the bot's seek and Ben's wait side by side: no table
        with site.socket("Cyd") as cy:
            cy.send(type="quick", players=2, bots=True)
            joined = cy.until(lambda f: f["type"] == "joined")
            start = bot.until(lambda m: m["type"] == "start")
            assert start["table"] == joined["table"]
            assert sorted(start["names"]) == ["Cyd", "Robo"]
        assert all(f["type"] != "joined" for f in ben.frames)  # Ben still waits
        ben.send(type="quick_cancel")


def test_a_suspended_owner_stops_their_bots_and_a_restored_one_lets_them_play(site: Site) -> None:
    site.sign_up("Ana")
    token = make_bot(site, "Ana", "Robo")
    bot = Bot(site, token)
    bot.hello()
    store = store_of(site)
    admin.suspend(store, "Ana", actor="mod", reason="test")
    bot.error("suspended")
    with pytest.raises(WebSocketDenialResponse) as denied:
        Bot(site, token)
    assert denied.value.status_code == 403
    assert [b.held for b in admin.bots(store)] == [True]
    admin.restore(store, "Ana", actor="mod", reason="test")
    again = Bot(site, token)
    again.hello()
    # A bot suspended by name stays so when its owner is restored.
    admin.suspend(store, "Robo", actor="mod", reason="test")
    again.error("suspended")
    admin.suspend(store, "Ana", actor="mod", reason="test")
    admin.restore(store, "Ana", actor="mod", reason="test")
    assert [(b.suspended, b.held) for b in admin.bots(store)] == [(True, False)]
    admin.restore(store, "Robo", actor="mod", reason="test")
    admin.revoke_bot(store, "Robo", actor="mod", reason="test")
    with pytest.raises(admin.AdminError):
        admin.revoke_bot(store, "Robo", actor="mod", reason="again")
    with pytest.raises(admin.AdminError):
        admin.revoke_bot(store, "Ana", actor="mod", reason="not a bot")
    assert [e.action for e in admin.log_entries(store)][:1] == ["bot-revoke"]


def test_deleting_the_owner_deletes_the_bots(site: Site) -> None:
    site.sign_up("Ana")
    token = make_bot(site, "Ana", "Robo")
    deleted = site.post("Ana", "/api/account/delete", {"password": "correct horse battery"})
    assert deleted.status_code == 200
    with pytest.raises(WebSocketDenialResponse):
        Bot(site, token)
    assert admin.bots(store_of(site)) == []
    assert site.get(None, "/api/profiles/Robo").status_code == 404


def test_the_moderators_commands_for_bots(tmp_path: Path) -> None:
    """``passing-game admin bots list|revoke`` and ``recovery`` refused for a bot, as a
    moderator types them (click's runner, an SQLite file as ``--db``)."""
    from click.testing import CliRunner

    from passing_game.cli import main
    from passing_game.web.botapi import service
    from passing_game.web.store import SqliteStore, accounts

    path = tmp_path / "site.sqlite3"
    store = SqliteStore(path)
    with store.transaction() as tx:
        accounts.insert_user(tx, UserRow("ana", "Ana", 1.0), "ana", "ana", "h")
    _made, token = service.create(store, "ana", "Robo", 2.0, "h")
    store.close()

    def run(*args: str) -> Any:
        db = ["--db", f"sqlite:///{path}", "--actor", "m"]
        return CliRunner().invoke(main, ["--lang", "en", "admin", *db, *args])

    listed = run("bots", "list")
    assert listed.exit_code == 0 and "Robo" in listed.output and "Ana" in listed.output
    assert token not in listed.output
    refused = run("recovery", "Robo", "--reason", "asked")
    assert refused.exit_code == 2 and "bot account" in refused.output
    assert run("bots", "revoke", "Robo").exit_code == 2  # a reason is needed
    revoked = run("bots", "revoke", "Robo", "--reason", "leaked token")
    assert revoked.exit_code == 0, revoked.output
    again = run("bots", "revoke", "Robo", "--reason", "twice")
    assert again.exit_code == 2 and "no token" in again.output
    assert "revoked" in run("bots", "list").output
    assert "bot: revoke token" in run("log").output
