"""The web app's protocol, in process: Starlette's TestClient over a real store.

Every intent, every refusal, tokens, spectators, the state counter, pauses
between rounds, hints, rematches and the page's text catalog.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")  # needs httpx2 (or httpx)

from starlette.testclient import TestClient

from passing_game import load_record
from passing_game.web.http.app import create_app
from passing_game.web.http.texts import PAGE_TEXTS
from passing_game.web.store import SqliteStore
from web_helpers import TILE_TEXT, Player, create, time_limit

STATIC = Path(__file__).parent.parent / "src" / "passing_game" / "web" / "static"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    made = SqliteStore(tmp_path / "web.sqlite3")
    yield made
    made.close()


@pytest.fixture
def client(store: SqliteStore) -> Iterator[TestClient]:
    # Scripted players answer at once: no rate limit but in its own test.
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(60), TestClient(app) as made:
        yield made


def connect(client: TestClient) -> Any:
    return client.websocket_connect("/ws")


def test_a_whole_game_against_bots(client: TestClient, store: SqliteStore) -> None:
    with connect(client) as ws:
        ana = Player(ws)
        joined = create(ana, ["you", "random", "greedy"], target=30)
        assert joined["seat"] == 0 and len(joined["token"]) >= 16
        code = joined["table"]
        assert re.fullmatch(r"[A-Z2-9]{6}", code)
        last = ana.play_out()
    assert last["over"] and max(last["scores"]) >= 30
    states = [f["state"] for f in ana.frames if f["type"] == "state"]
    assert states == list(range(states[0], states[0] + len(states)))  # no gaps
    # The record is there once the game is over, and replays.
    response = client.get(f"/api/tables/{code}/record")
    assert response.status_code == 200
    match = load_record(response.text)
    assert match.is_over and list(match.scores) == last["scores"]
    stored = store.load_table(code)
    assert stored is not None and stored.finished
    assert len(stored.moves) == sum(len(r.moves) for r in match.rounds)


def test_the_record_is_refused_while_the_game_goes_on(client: TestClient) -> None:
    with connect(client) as ws:
        ana = Player(ws)
        code = create(ana, ["you", "person"])["table"]
        response = client.get(f"/api/tables/{code}/record")
        assert response.status_code == 404
        assert "-" not in response.json()["error"]  # names no tile
    # A live table and no table answer alike (issue 11, hardening): codes cannot be probed.
    missing = client.get("/api/tables/ZZZZZZ/record")
    assert (missing.status_code, missing.text) == (response.status_code, response.text)
    assert client.get("/api/tables/x/record").status_code == 400


BAD_MESSAGES = [
    ("not json", "bad-request"),
    ("[1, 2]", "bad-request"),
    ('{"type": "fly"}', "bad-request"),
    ('{"move": "L3-5"}', "bad-request"),
    ('{"type": "play"}', "bad-request"),
    ('{"type": "play", "move": 35}', "bad-request"),
    ('{"type": "play", "move": "X9-9"}', "bad-request"),
    ('{"type": "play", "move": "draw"}', "bad-request"),
    ('{"type": "draw", "extra": 1}', "bad-request"),
    ('{"type": "join", "code": "bad", "name": "Ben"}', "bad-code"),
    ('{"type": "join", "code": "ABCDEF", "name": ""}', "bad-request"),
    ('{"type": "join", "code": "ABCDEF", "name": "' + "x" * 25 + '"}', "bad-request"),
    ('{"type": "resume", "code": "ABCDEF", "seat": 0, "token": "short"}', "bad-token"),
    ('{"type": "resume", "code": "ABCDEF", "seat": 9, "token": "' + "a" * 20 + '"}', "bad-request"),
    ('{"type": "create", "name": "A", "seats": ["you"], "rules": {"players": 2}}', "bad-request"),
    ('{"type": "create", "name": "A", "seats": ["you", "you"], "rules": {}}', "bad-request"),
    ('{"type": "create", "name": "A", "seats": ["you", "omniscient"], "rules": {}}', "bad-request"),
    (
        '{"type": "create", "name": "A", "seats": ["you", "easy"], "rules": {"players": 5}}',
        "bad-request",
    ),
    (
        '{"type": "create", "name": "A", "seats": ["you", "easy"], "rules": {"cheat": 1}}',
        "bad-request",
    ),
    (
        '{"type": "create", "name": "A", "seats": ["you", "easy"],'
        ' "rules": {"partnerships": true}}',
        "bad-request",
    ),
    ('{"type": "x", "pad": "' + "y" * 5000 + '"}', "too-long"),
]


@pytest.mark.parametrize(("text", "code"), BAD_MESSAGES)
def test_bad_messages_get_a_clear_error_and_change_nothing(
    client: TestClient, store: SqliteStore, text: str, code: str
) -> None:
    with connect(client) as ws:
        ana = Player(ws)
        table = create(ana, ["you", "person"])["table"]
        before = ana.state
        assert before is not None
        ana.send_text(text)
        error = ana.error()
        assert error["code"] == code
        assert isinstance(error["message"], str) and 3 < len(error["message"]) < 200
        assert error["state"] == before["state"]
        ana.send(type="sync")
        after = ana.next_state()
        assert after["state"] == before["state"]
        assert after["round"] == before["round"] and after["seats"] == before["seats"]
    stored = store.load_table(table)
    assert stored is not None and stored.moves == ()


def test_binary_messages_are_refused(client: TestClient) -> None:
    with connect(client) as ws:
        ws.send_bytes(b'{"type": "sync"}')
        error = json.loads(ws.receive_text())
        # Said for a person (issue 24, item 6): no "JSON", no "binary".
        assert error["type"] == "error"
        assert error["message"] == (
            "The server could not read what the page sent: reload the page and try again."
        )


def test_acting_before_joining_is_refused(client: TestClient) -> None:
    with connect(client) as ws:
        p = Player(ws)
        p.send(type="draw")
        assert p.error()["code"] == "no-table"
        p.send(type="join", code="ABCDEF", name="Ben")
        assert p.error()["code"] == "no-such-table"


def first_human_turn(ana: Player) -> dict[str, Any]:
    return ana.my_turn()


def test_illegal_moves_are_refused_and_change_nothing(
    client: TestClient, store: SqliteStore
) -> None:
    with connect(client) as ws:
        ana = Player(ws)
        code = create(ana, ["you", "greedy"], passing="forced")["table"]
        frame = ana.my_turn()
        stored_before = store.load_table(code)
        assert stored_before is not None
        hand = frame["round"]["hand"]
        others = [f"{a}-{b}" for a in range(7) for b in range(a, 7) if f"{a}-{b}" not in hand]
        ends = frame["round"]["ends"]
        # A tile the seat does not hold.
        ana.act("L" + others[0])
        error = ana.error()
        assert error["code"] == "illegal"
        # Forced passing while a draw or play is open.
        ana.act("pass")
        assert ana.error()["code"] == "illegal"
        if ends is not None:
            dead = [t for t in hand if str(ends[0]) not in t.split("-")]
            if dead:
                ana.act("L" + dead[0])
                assert ana.error()["code"] == "illegal"
        ana.send(type="sync")
        after = ana.next_state()
        assert after["round"] == frame["round"]
        stored_after = store.load_table(code)
        assert stored_after is not None and stored_after.moves == stored_before.moves


def test_two_people_at_one_table(client: TestClient) -> None:
    with connect(client) as ws_a:
        ana = Player(ws_a)
        joined = create(ana, ["you", "person", "greedy"])
        assert ana.state is not None and not ana.state["started"]
        assert "share the code" in ana.state["status"]
        code = joined["table"]
        # Nobody moves before every seat is taken.
        ana.send(type="draw")
        assert ana.error()["code"] in ("not-started", "not-your-turn")
        with connect(client) as ws_b:
            ben = Player(ws_b)
            ben.send(type="join", code=code.lower(), name="  Ben\u0000 <b>x</b> ")
            bj = ben.until(lambda f: f["type"] == "joined")
            assert bj["seat"] == 1 and bj["token"] != joined["token"]
            state = ben.next_state()
            assert state["started"] and state["you"] == 1
            assert state["seats"][1]["name"] == "Ben <b>x</b>"  # cleaned; the page escapes
            assert state["seats"][0]["connected"] and state["seats"][1]["connected"]
            # Each sees only their own hand.
            a_state = ana.until(lambda f: f["type"] == "state" and f["started"])
            a_hand, b_hand = set(a_state["round"]["hand"]), set(state["round"]["hand"])
            assert a_hand and b_hand and not a_hand & b_hand
            # A third person finds the table full.
            with connect(client) as ws_c:
                cai = Player(ws_c)
                cai.send(type="join", code=code, name="Cai")
                assert cai.error()["code"] == "table-full"
        # Ben leaves: Ana sees him offline, his seat kept for him.
        frame = ana.until(lambda f: f["type"] == "state" and not f["seats"][1]["connected"])
        assert frame["seats"][1]["kind"] == "human"


def test_seat_tokens(client: TestClient) -> None:
    with connect(client) as ws:
        ana = Player(ws)
        joined = create(ana, ["you", "greedy"])
        code, token = joined["table"], joined["token"]
        hand = ana.my_turn()["round"]["hand"]
    with connect(client) as ws:
        thief = Player(ws)
        thief.send(type="resume", code=code, seat=0, token="A" * len(token))
        assert thief.error()["code"] == "bad-token"
        thief.send(type="resume", code=code, seat=1, token=token)
        assert thief.error()["code"] == "bad-token"  # a bot's seat has no token
        thief.send(type="draw")
        assert thief.error()["code"] == "no-table"
    with connect(client) as ws:
        back = Player(ws)
        back.send(type="resume", code=code, seat=0, token=token)
        assert back.until(lambda f: f["type"] == "joined")["seat"] == 0
        assert "token" not in back.joined  # type: ignore[operator]
        state = back.next_state()
        assert state["round"]["hand"] == hand and state["round"]["legal"]


def test_spectators_see_no_hand(client: TestClient) -> None:
    with connect(client) as ws_a, connect(client) as ws_s:
        ana, spy = Player(ws_a), Player(ws_s)
        code = create(ana, ["you", "random", "random", "random"])["table"]
        spy.send(type="watch", code=code)
        assert spy.until(lambda f: f["type"] == "joined")["seat"] is None
        ana.play_out()
        spy.until(lambda f: f["type"] == "state" and f["over"])
        spy.send(type="draw")
        assert spy.error()["code"] == "spectator"
    for frame in spy.frames:
        if frame["type"] != "state":
            continue
        assert frame["spectator"] and frame["you"] is None
        assert frame["round"]["hand"] == [] and frame["round"]["legal"] == []
        assert all("drawn" not in t for t in frame["round"]["history"])


def test_the_state_counter_and_sync(client: TestClient) -> None:
    with connect(client) as ws:
        ana = Player(ws)
        create(ana, ["you", "greedy"])
        frame = ana.my_turn()
        ana.send(type="sync")
        again = ana.next_state()
        assert again["state"] == frame["state"] and again["round"] == frame["round"]
        ana.act(frame["round"]["legal"][0])
        moved = ana.next_state()
        assert moved["state"] == frame["state"] + 1
        error_frame = None
        ana.send(type="play", move="L9-9")
        error_frame = ana.error()
        assert error_frame["state"] >= moved["state"]


def test_rounds_pause_for_people_to_read_the_summary(client: TestClient) -> None:
    with connect(client) as ws:
        ana = Player(ws)
        create(ana, ["you", "greedy"], target=500)
        while True:
            frame = ana.my_turn()
            if frame["paused"]:
                break
            ana.act(frame["round"]["legal"][0])
        assert frame["summary"]["round"] == 1 and frame["round"]["number"] == 2
        summary = frame["summary"]
        assert len(summary["hands"]) == 2 and summary["lines"] and summary["reason_text"]
        assert frame["round"]["history"] == [] and frame["waiting"] == [0]
        # Bots wait: sync shows the same empty round.
        ana.send(type="sync")
        assert ana.next_state()["round"]["history"] == []
        ana.send(type="continue")
        after = ana.next_state()
        assert not after["paused"]


def test_hints(client: TestClient) -> None:
    with connect(client) as ws:
        ana = Player(ws)
        create(ana, ["you", "greedy"])
        frame = ana.my_turn()
        ana.send(type="hint")
        hint = ana.until(lambda f: f["type"] in ("hint", "error"))
        assert hint["type"] == "hint", hint
        assert hint["move"] in frame["round"]["legal"] and hint["text"]
    with connect(client) as ws:
        ben = Player(ws)
        create(ben, ["you", "person"])
        ben.send(type="hint")
        assert ben.error()["code"] == "not-your-turn"


def test_rate_limit(store: SqliteStore) -> None:
    app = create_app(store, bot_delay=0)
    with time_limit(60), TestClient(app) as client, connect(client) as ws:
        ana = Player(ws)
        create(ana, ["you", "person"])
        for _ in range(80):
            ana.send(type="sync")
        codes = []
        for _ in range(80):
            frame = ana.recv()
            if frame["type"] == "error":
                codes.append(frame["code"])
                break
        assert "rate-limit" in codes


def test_rematch(client: TestClient) -> None:
    with connect(client) as ws:
        ana = Player(ws)
        create(ana, ["you", "random"], target=10)
        ana.send(type="rematch")
        assert ana.error()["code"] == "not-over"
        last = ana.play_out()
        assert last["game"] == 1
        ana.send(type="rematch")
        fresh = ana.until(lambda f: f["type"] == "state" and f["game"] == 2)
        assert not fresh["over"] and fresh["scores"] == [0, 0] and fresh["pad"] == []


def test_partnerships_and_every_variant(client: TestClient) -> None:
    with connect(client) as ws:
        ana = Player(ws)
        create(
            ana,
            ["you", "random", "greedy", "random"],
            partnerships=True,
            draw="continue",
            passing="forced",
            scoring="pairwise",
            leader="winner",
            target=15,
        )
        assert ana.state is not None
        rules = ana.state["rules"]
        assert rules["partnerships"] and rules["draw"] == "continue" and rules["target"] == 15
        assert len(ana.state["scores"]) == 2 and len(ana.state["sides"]) == 2
        assert ana.play_out()["over"]


def test_target_preset(client: TestClient) -> None:
    with connect(client) as ws:
        ana = Player(ws)
        create(ana, ["you", "easy", "easy"], target_preset="alternate")
        assert ana.state is not None and ana.state["rules"]["target"] == 61


def test_frames_never_name_a_tile_the_seat_cannot_see(client: TestClient) -> None:
    """A quick version of tests/test_web_leak.py on one game."""
    with connect(client) as ws:
        ana = Player(ws)
        create(ana, ["you", "random", "random"], target=40)
        ana.play_out()
    for frame in ana.frames:
        if frame["type"] != "state" or frame["over"]:
            continue
        visible = set(frame["round"]["hand"]) | {
            f"{min(a, b)}-{max(a, b)}" for a, b in frame["round"]["train"]
        }
        data = dict(frame)
        data.pop("summary")  # finished rounds are public
        named = {f"{min(a, b)}-{max(a, b)}" for a, b in TILE_TEXT.findall(json.dumps(data))}
        named -= {"0-2", "0-3"}  # seat labels like "seats 0+2" never match; kept safe
        assert named <= visible | _drawn(frame), named - visible


def _drawn(frame: dict[str, Any]) -> set[str]:
    return {t["drawn"] for t in frame["round"]["history"] if "drawn" in t}


def test_pages_and_headers(client: TestClient) -> None:
    for path in ("/", "/t/ABCDEF"):
        page = client.get(path)
        assert page.status_code == 200 and "app.js" in page.text
        assert "script-src 'self'" in page.headers["content-security-policy"]
    script = client.get("/static/app.js")
    # A module runs only when served as JavaScript.
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    assert client.get("/static/app.css").status_code == 200
    config = client.get("/api/config").json()
    assert "easy" in [level["name"] for level in config["levels"]]
    assert "omniscient" not in config["bots"]
    assert client.get("/healthz").json()["ok"]


def test_the_catalog_holds_every_text_the_page_uses(client: TestClient) -> None:
    catalog = client.get("/api/i18n?lang=en").json()
    assert catalog["language"] == "en"
    texts = catalog["texts"]
    script = "\n".join(p.read_text() for p in STATIC.glob("*.js"))
    used = set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', script))
    assert used <= set(texts), used - set(texts)
    for kind in ("draw", "passing", "scoring", "leader"):
        config = client.get("/api/config").json()["rules"][kind]
        assert {f"rule.{kind}.{v}" for v in config} <= set(texts)
    assert set(texts) == set(PAGE_TEXTS)
    assert client.get("/api/i18n?lang=xx").json()["language"] in ("en", "gl", "hr")


def test_the_page_never_puts_text_in_as_html() -> None:
    script = "\n".join(p.read_text() for p in STATIC.glob("*.js"))
    for banned in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert banned not in script


def test_searching_bots_think_in_worker_processes(store: SqliteStore) -> None:
    """A ``hard`` bot moves from a worker process, exactly as the table's own bot would."""
    from passing_game import Match, Rules, parse_move
    from passing_game.bots import make

    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6), bot_workers=1)
    with time_limit(120), TestClient(app) as client, connect(client) as ws:
        ana = Player(ws)
        code = create(ana, ["you", "hard"], target=500)["table"]
        for _ in range(4):
            frame = ana.my_turn()
            if frame["paused"] and not frame["round"]["legal"]:
                ana.send(type="continue")
                continue
            ana.act(frame["round"]["legal"][0])
        ana.send(type="sync")
        ana.next_state()
    stored = store.load_table(code)
    assert stored is not None
    match = Match(Rules.from_dict(stored.rules), stored.seed)
    bot = make("hard", seed=f"{stored.seed}/1")
    bot_moves = 0
    for text in stored.moves:
        if match.round.to_move == 1:
            assert str(bot.choose(match.view(1))) == text
            bot_moves += 1
        match.play(parse_move(text))
    assert bot_moves >= 3


class GateStore(SqliteStore):
    """A store whose writes for one table wait until the test lets them through."""

    workers = 2

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.gated: str | None = None
        self.entered = threading.Event()
        self.release = threading.Event()

    def append_move(self, code: str, seq: int, game: int, move: str, *args: Any) -> None:
        if code == self.gated:
            self.entered.set()
            assert self.release.wait(30), "the test never released the write"
        super().append_move(code, seq, game, move, *args)


def test_a_slow_write_holds_only_its_own_table(tmp_path: Path) -> None:
    """While one table waits for its database write, the server serves the others;
    and that table's move is shown to nobody until it is stored."""
    store = GateStore(tmp_path / "gate.sqlite3")
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    try:
        with (
            time_limit(60),
            TestClient(app) as client,
            connect(client) as ws_a,
            connect(client) as ws_b,
            connect(client) as ws_s,
        ):
            ana, cai, spy = Player(ws_a), Player(ws_b), Player(ws_s)
            code_a = create(ana, ["you", "greedy"])["table"]
            create(cai, ["you", "greedy"])
            ana.my_turn()
            spy.send(type="watch", code=code_a)
            watched = spy.until(lambda f: f["type"] == "state")
            # Somebody watching changes nobody else's frame (issue 11: coalesced broadcasts).
            assert ana.state is not None
            before = ana.state
            if before["state"] != watched["state"]:
                before = ana.until(
                    lambda f: f["type"] == "state" and f["state"] == watched["state"]
                )
            store.gated = code_a
            ana.act(before["round"]["legal"][0])
            assert store.entered.wait(30)
            # Table A's write is stuck in the database; table B plays on.
            frame = cai.my_turn()
            cai.act(frame["round"]["legal"][0])
            moved = cai.until(
                lambda f: (
                    f["type"] == "state"
                    and len(f["round"]["history"]) > len(frame["round"]["history"])
                )
            )
            assert moved["round"]["history"][len(frame["round"]["history"])]["seat"] == 0
            # Ana's move is not stored yet, so nobody has been told of it.
            spy.send(type="sync")
            waiting = spy.next_state()
            assert waiting["round"]["history"] == before["round"]["history"]
            assert waiting["state"] == before["state"]
            store.release.set()
            after = ana.until(
                lambda f: (
                    f["type"] == "state"
                    and len(f["round"]["history"]) > len(before["round"]["history"])
                )
            )
            assert after["state"] == before["state"] + 1
        stored = store.load_table(code_a)
        assert stored is not None
        assert stored.moves[len(before["round"]["history"])] == before["round"]["legal"][0]
    finally:
        store.release.set()
        store.close()


def test_a_game_whose_end_was_not_stored_is_finished_on_start(store: SqliteStore) -> None:
    """The server died between storing a game's last move and its record: on
    start the game is replayed, found over, and its record stored."""
    from passing_game import Match, Rules
    from passing_game.web.store import NewTable, SeatRow

    rules = Rules(players=2, target=20)
    seats = (SeatRow(0, "bot", "greedy", "greedy"), SeatRow(1, "bot", "random", "random"))
    store.create_table(NewTable("ABC234", rules.to_dict(), 77, seats))
    match = Match(rules, 77)
    seq = 0
    while not match.is_over:
        move = match.legal_moves()[0]
        seq += 1
        store.append_move("ABC234", seq, 1, str(move))
        match.play(move)
    assert store.unfinished_codes() == ["ABC234"]
    with time_limit(60), TestClient(create_app(store, bot_delay=0)) as client:
        response = client.get("/api/tables/ABC234/record")
    assert response.status_code == 200
    assert list(load_record(response.text).scores) == list(match.scores)
    assert store.unfinished_codes() == []


class FlakyStore(SqliteStore):
    """A store whose move writes fail (a database gone away) while ``down`` is set."""

    down = False

    def append_move(self, code: str, seq: int, game: int, move: str, *args: Any) -> None:
        if self.down:
            raise OSError("the database went away")
        super().append_move(code, seq, game, move, *args)


def test_a_failed_write_changes_nothing_and_play_goes_on(tmp_path: Path) -> None:
    """A move the database could not store is answered with an error, is not
    applied, is not broadcast, and the same move is taken once the database is back."""
    store = FlakyStore(tmp_path / "flaky.sqlite3")
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    try:
        with time_limit(60), TestClient(app) as client, connect(client) as ws:
            ana = Player(ws)
            code = create(ana, ["you", "greedy"])["table"]
            before = ana.my_turn()
            move = before["round"]["legal"][0]
            store.down = True
            ana.act(move)
            error = ana.error()
            assert error["code"] == "server" and "could not save" in error["message"]
            ana.send(type="sync")
            again = ana.next_state()
            assert again["round"] == before["round"] and again["state"] == before["state"]
            assert store.load_table(code).moves == tuple(  # type: ignore[union-attr]
                t["move"] for t in before["round"]["history"]
            )
            store.down = False
            ana.act(move)
            after = ana.until(
                lambda f: (
                    f["type"] == "state"
                    and len(f["round"]["history"]) > len(before["round"]["history"])
                )
            )
            assert after["round"]["history"][len(before["round"]["history"])]["move"] == move
    finally:
        store.close()
