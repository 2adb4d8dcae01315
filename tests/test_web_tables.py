"""Tables with real people: clocks, stand-ins, leaving, invitations (issue 11, P26).

In process, through Starlette's TestClient over a real SQLite store, with
short clocks and countdowns so that the tests run in seconds. Each test
plays what a person would do and reads what every seat is sent.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")

from starlette.testclient import TestClient

from passing_game import load_record
from passing_game.records import record_marks
from passing_game.web.http.app import create_app
from passing_game.web.store import SqliteStore
from passing_game.web.table.runner import Timing
from web_helpers import Player, time_limit

#: Short waits, so that a test sees clocks run out and countdowns end.
FAST = Timing(offline_grace=1.0, summary_wait=1.5, idle_evict=0.5)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    made = SqliteStore(tmp_path / "tables.sqlite3")
    yield made
    made.close()


@pytest.fixture
def client(store: SqliteStore) -> Iterator[TestClient]:
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6), timing=FAST)
    with time_limit(90), TestClient(app) as made:
        yield made


def connect(client: TestClient) -> Any:
    return client.websocket_connect("/ws")


def state(player: Player, pred: Any = lambda f: True) -> dict[str, Any]:
    return player.until(lambda f: f["type"] == "state" and pred(f))


def open_table(
    client: TestClient, seats: list[str], clock: Any = None, **rules: Any
) -> tuple[Any, Player, dict[str, Any]]:
    ws = connect(client).__enter__()
    ana = Player(ws)
    message: dict[str, Any] = {
        "type": "create",
        "name": "Ana",
        "seats": seats,
        "rules": {"players": len(seats), **rules},
    }
    if clock is not None:
        message["clock"] = clock
    ana.send(**message)
    joined = ana.until(lambda f: f["type"] == "joined")
    return ws, ana, joined


def join(client: TestClient, code: str, name: str = "Ben") -> tuple[Any, Player, dict[str, Any]]:
    ws = connect(client).__enter__()
    ben = Player(ws)
    ben.send(type="join", code=code, name=name)
    joined = ben.until(lambda f: f["type"] in ("joined", "error"))
    assert joined["type"] == "joined", joined
    return ws, ben, joined


def to_move(frame: dict[str, Any]) -> int | None:
    return frame["round"]["to_move"] if not frame["paused"] else None


def test_a_clock_that_runs_out_plays_one_move_for_the_person(
    client: TestClient, store: SqliteStore
) -> None:
    """Issue 11, clocks: the server's clock is shown to every seat; when the
    person's time is up a bot makes that one move, marked as auto-played;
    twice in a row, and a stand-in takes the seat until the person is back."""
    ws_a, ana, joined = open_table(client, ["you", "person"], clock={"move": 2, "bank": 0})
    code = joined["table"]
    ws_b, ben, _j = join(client, code)
    first = state(ana, lambda f: f["started"] and f["clock"]["seat"] is not None)
    clock = first["clock"]
    assert clock["move"] == 2 and clock["bank"] == 0 and clock["banks"] == [0, 0]
    assert 0 < clock["remaining_ms"] <= 2000
    mover = clock["seat"]
    assert mover == first["round"]["to_move"]
    # The person to move does nothing: their time runs out, a bot moves for them.
    people = {0: ana, 1: ben}
    idle, other = people[mover], people[1 - mover]
    auto = state(idle, lambda f: any(t.get("auto") == "timeout" for t in f["round"]["history"]))
    turn = next(t for t in auto["round"]["history"] if t.get("auto"))
    assert turn["seat"] == mover
    assert "Time ran out" in auto["round"]["log"][auto["round"]["history"].index(turn)]
    assert not auto["seats"][mover]["standin"]  # once is not yet a stand-in
    # The other person plays on; the idle one times out again and a stand-in takes over.
    for _ in range(40):
        frame = state(
            other, lambda f: f["round"]["to_move"] == 1 - mover or f["seats"][mover]["standin"]
        )
        if frame["seats"][mover]["standin"]:
            break
        other.send(type="pass") if frame["round"]["can_pass"] else other.act(
            frame["round"]["legal"][0]
        )
    assert frame["seats"][mover]["standin"] and frame["seats"][mover]["away"] == "timeout"
    mine = state(idle, lambda f: f["seats"][mover]["standin"])
    assert mine["round"]["legal"] == []  # a stand-in plays for them: nothing to click
    # The person says they are back: the stand-in stops.
    idle.send(type="back")
    back = state(idle, lambda f: not f["seats"][mover]["standin"])
    assert back["seats"][mover]["away"] is None
    stored = store.load_table(code)
    assert stored is not None and "timeout" in stored.played_by
    ws_a.__exit__(None, None, None)
    ws_b.__exit__(None, None, None)


def test_the_time_bank_pays_for_a_slow_move(client: TestClient, store: SqliteStore) -> None:
    """Issue 11, clocks: a move slower than the time a move uses the bank, and
    only the server's clock counts (the bank left is what the server says)."""
    ws_a, ana, joined = open_table(client, ["you", "greedy"], clock={"move": 2, "bank": 5})
    frame = ana.my_turn()
    assert frame["clock"]["seat"] == 0 and frame["clock"]["remaining_ms"] > 5000
    time.sleep(3.2)  # 2 s a move, then about 1.2 s of the bank
    ana.act(frame["round"]["legal"][0])
    after = state(ana, lambda f: len(f["round"]["history"]) > len(frame["round"]["history"]))
    bank = after["clock"]["banks"][0]
    assert 3.0 <= bank <= 4.0, bank
    stored = store.load_table(joined["table"])
    assert stored is not None and stored.seats[0].bank == pytest.approx(bank, abs=0.01)
    assert stored.played_by[0] is None  # the person's own move: no mark
    ws_a.__exit__(None, None, None)


def test_a_table_without_a_clock_sends_no_clock(client: TestClient) -> None:
    """Issue 11: "none" is a clock too; a bad clock is refused, saying why."""
    ws_a, ana, _j = open_table(client, ["you", "greedy"])
    assert state(ana)["clock"] is None
    for bad in ("fast", {"move": 1, "bank": 0}, {"move": 5}, {"move": "5", "bank": 0}, [5]):
        ana.send(type="create", name="Ana", seats=["you", "greedy"], rules={}, clock=bad)
        error = ana.until(lambda f: f["type"] == "error")
        assert "clock" in error["message"] and error["message"][0].isupper()
    ws_a.__exit__(None, None, None)


def end_round_by_passing(players: dict[int, Player]) -> dict[int, dict[str, Any]]:
    """Both people pass until the round ends (D3: a full circle of passes)."""
    seen: dict[int, dict[str, Any]] = {}
    while True:
        for seat, player in players.items():
            frame = player.state
            if frame is None:
                continue
            if frame["summary"] is not None:
                seen[seat] = frame
        if len(seen) == len(players):
            return seen
        for player in players.values():
            frame = player.state
            if frame and frame["round"]["can_pass"] and frame["summary"] is None:
                player.send(type="pass")
        for player in players.values():
            state(player)


def test_a_round_ending_move_is_not_reading_the_summary(client: TestClient) -> None:
    """Issue 11, round summary: the person whose own pass ended the round is
    still reading it; a spectator joining does not let the table go on; after
    the countdown the table goes on without them, and the page is told."""
    ws_a, ana, joined = open_table(client, ["you", "person"])
    code = joined["table"]
    ws_b, ben, _j = join(client, code)
    state(ana, lambda f: f["started"])
    state(ben, lambda f: f["started"])
    ends = end_round_by_passing({0: ana, 1: ben})
    for frame in ends.values():
        assert frame["paused"] and sorted(frame["waiting"]) == [0, 1]
        assert 0 < frame["summary_ms"] <= 1500
        assert frame["round"]["legal"] == []  # the table waits: nobody moves
    # A spectator comes: nothing changes for the readers.
    with connect(client) as ws_s:
        spy = Player(ws_s)
        spy.send(type="watch", code=code)
        watched = state(spy)
        assert watched["paused"] and sorted(watched["waiting"]) == [0, 1]
        # Ana closes the summary; Ben does not: the countdown ends it for him.
        ana.send(type="continue")
        waiting = state(ben, lambda f: f["waiting"] == [1])
        assert waiting["paused"] and waiting["summary_ms"] is not None
        went_on = state(ben, lambda f: not f["paused"])
        assert went_on["summary_ms"] is None and went_on["round"]["number"] == 2
        assert went_on["summary"]["round"] == 1  # the last result stays readable
    ws_a.__exit__(None, None, None)
    ws_b.__exit__(None, None, None)


def test_an_offline_person_is_played_by_a_stand_in_until_back(client: TestClient) -> None:
    """Issue 11, stand-ins: a person offline longer than the grace is played
    by a stand-in (shown to everyone, its moves marked); reconnecting with the
    seat's token takes the seat back."""
    ws_a, ana, joined = open_table(client, ["you", "person"])
    code = joined["table"]
    ws_b, _ben, ben_joined = join(client, code)
    state(ana, lambda f: f["started"])
    ws_b.__exit__(None, None, None)  # Ben closes the tab
    offline = state(ana, lambda f: not f["seats"][1]["connected"])
    assert offline["seats"][1]["away"] is None
    stood = state(ana, lambda f: f["seats"][1]["standin"])
    assert stood["seats"][1]["away"] == "offline"
    # Ana plays; the stand-in answers for Ben, marked as such.
    for _ in range(30):
        frame = ana.my_turn()
        if any(t.get("auto") == "stand-in" for t in frame["round"]["history"]):
            break
        ana.act(frame["round"]["legal"][0])
    played = [t for t in frame["round"]["history"] if t.get("auto") == "stand-in"]
    assert played and all(t["seat"] == 1 for t in played)
    # Ben comes back with his token: the seat is his again.
    with connect(client) as ws_b2:
        ben2 = Player(ws_b2)
        ben2.send(type="resume", code=code, seat=1, token=ben_joined["token"])
        back = state(ben2, lambda f: not f["seats"][1]["standin"])
        assert back["seats"][1]["connected"] and back["you"] == 1
        state(ana, lambda f: not f["seats"][1]["standin"])
    ws_a.__exit__(None, None, None)


def test_leaving_the_table(client: TestClient) -> None:
    """Issue 11, leaving: "leave" makes the seat a stand-in and tells the
    others; before the game starts it opens the seat again."""
    ws_a, ana, joined = open_table(client, ["you", "person", "person"])
    code = joined["table"]
    ws_b, ben, _j = join(client, code)
    ben.send(type="leave")
    assert ben.until(lambda f: f["type"] == "left")["table"] == code
    reopened = state(ana, lambda f: f["seats"][1]["kind"] == "open")
    assert not reopened["started"]
    ws_b.__exit__(None, None, None)
    ws_b, ben, _j = join(client, code)
    ws_c, cai, _j = join(client, code, "Cai")
    state(ana, lambda f: f["started"])
    cai.send(type="leave")
    cai.until(lambda f: f["type"] == "left")
    gone = state(ana, lambda f: f["seats"][2]["standin"])
    assert gone["seats"][2]["away"] == "left" and gone["seats"][2]["name"] == "Cai"
    for ws in (ws_a, ws_b, ws_c):
        ws.__exit__(None, None, None)


def test_resigning_a_two_player_game(client: TestClient) -> None:
    """Issue 11, P25: "Resign" ends a two-player match at once; the record
    says who resigned; with three players it is refused."""
    ws_a, ana, joined = open_table(client, ["you", "greedy"])
    first = state(ana)
    assert first["can_resign"] and first["resigned"] is None
    ana.send(type="resign")
    over = state(ana, lambda f: f["over"])
    assert over["winner"] == 1 and over["resigned"] == 0 and not over["can_resign"]
    response = client.get(f"/api/tables/{joined['table']}/record")
    assert response.status_code == 200
    assert load_record(response.text).resigned == 0
    ana.send(type="resign")
    assert ana.until(lambda f: f["type"] == "error")["code"] == "game-over"
    ws_a.__exit__(None, None, None)
    ws_c, cai, _j = open_table(client, ["you", "greedy", "greedy"])
    assert not state(cai)["can_resign"]
    cai.send(type="resign")
    assert cai.until(lambda f: f["type"] == "error")["code"] == "no-resign"
    ws_c.__exit__(None, None, None)


def test_a_new_invitation_gives_the_seat_and_revokes_the_old_token(client: TestClient) -> None:
    """Issue 11, leaving and coming back: the creator issues a one-time
    invitation for an absent seat; whoever opens it gets the seat; the old
    token is refused from then on, and the invitation works only once."""
    ws_a, ana, joined = open_table(client, ["you", "person"])
    code = joined["table"]
    ws_b, ben, ben_joined = join(client, code)
    state(ana, lambda f: f["started"])
    # Only the creator may, and only for a seat whose person is not there.
    ben.send(type="invite", seat=0)
    assert ben.until(lambda f: f["type"] == "error")["code"] == "not-creator"
    ana.send(type="invite", seat=1)
    assert ana.until(lambda f: f["type"] == "error")["code"] == "seat-taken"
    ws_b.__exit__(None, None, None)
    state(ana, lambda f: not f["seats"][1]["connected"])
    # Issue 22: not during a blink; once the offline grace made a stand-in, yes.
    ana.send(type="invite", seat=1)
    assert ana.until(lambda f: f["type"] == "error")["code"] == "not-away"
    state(ana, lambda f: f["seats"][1]["absent"])
    ana.send(type="invite", seat=1)
    invite = ana.until(lambda f: f["type"] == "invite")
    assert invite["seat"] == 1 and invite["link"].startswith(f"/t/{code}?invite=")
    token = invite["link"].split("invite=", 1)[1]
    invited = state(ana, lambda f: f["seats"][1]["away"] == "invited")
    assert invited["seats"][1]["standin"]  # the game goes on meanwhile
    # The old device is refused.
    with connect(client) as ws_old:
        old = Player(ws_old)
        old.send(type="resume", code=code, seat=1, token=ben_joined["token"])
        assert old.until(lambda f: f["type"] == "error")["code"] == "bad-token"
    # The friend opens the new link on another device.
    with connect(client) as ws_new:
        dee = Player(ws_new)
        dee.send(type="join", code=code, name="Ben", invite=token)
        taken = dee.until(lambda f: f["type"] in ("joined", "error"))
        assert taken["type"] == "joined" and taken["seat"] == 1 and taken["token"]
        mine = state(dee, lambda f: not f["seats"][1]["standin"])
        assert mine["you"] == 1 and mine["round"]["hand"]
    with connect(client) as ws_again:
        again = Player(ws_again)
        again.send(type="join", code=code, name="Eve", invite=token)
        assert again.until(lambda f: f["type"] == "error")["code"] == "bad-invite"
    ws_a.__exit__(None, None, None)


def test_the_creator_hands_an_absent_seat_to_a_bot(client: TestClient) -> None:
    """Issue 11: the creator gives an empty or abandoned seat to a bot, so a
    table never waits forever for a friend who does not come."""
    ws_a, ana, _joined = open_table(client, ["you", "person", "person"])
    waiting = state(ana)
    assert not waiting["started"] and waiting["creator"]
    ana.send(type="hand_over", seat=1, level="nosuchbot")
    refused = ana.until(lambda f: f["type"] == "error")["message"]
    assert refused.startswith("That choice is not on offer") and "easy" in refused
    ana.send(type="hand_over", seat=1, level="easy")
    ana.send(type="hand_over", seat=2, level="easy")
    started = state(ana, lambda f: f["started"])
    assert [s["kind"] for s in started["seats"]] == ["human", "bot", "bot"]
    # Two bots of one level get distinct names (issue 11, readable).
    names = [s["name"] for s in started["seats"][1:]]
    assert len(set(names)) == 2 and all(n.startswith("Easy bot") for n in names)
    ws_a.__exit__(None, None, None)


def test_a_pass_that_ends_the_round_is_flagged(client: TestClient) -> None:
    """Issue 11, readable: before a pass that ends the round (D3: the last of
    a full circle of passes), the frame says so; before other passes it does not."""
    ws_a, ana, joined = open_table(client, ["you", "person"])
    ws_b, ben, _j = join(client, joined["table"])
    players = {0: ana, 1: ben}
    frame = state(ana, lambda f: f["started"])
    leader = frame["round"]["to_move"]
    first = players[leader].my_turn()
    assert first["round"]["can_pass"] and not first["round"]["pass_ends_round"]
    players[leader].send(type="pass")
    second = players[1 - leader].my_turn()
    assert second["round"]["passes"] == 1 and second["round"]["pass_ends_round"]
    ws_a.__exit__(None, None, None)
    ws_b.__exit__(None, None, None)


def test_spectators_coming_and_going_do_not_flood_the_players(client: TestClient) -> None:
    """Issue 11, hardening: ten spectators within the rate limit used to push
    about 290 frames a second to a seated player; watching now changes
    nobody else's frame, and presence changes are merged."""
    ws_a, ana, joined = open_table(client, ["you", "person"])
    code = joined["table"]
    state(ana)
    sockets = [connect(client).__enter__() for _ in range(10)]
    watchers = [Player(ws) for ws in sockets]
    before = len(ana.frames)
    started = time.monotonic()
    for _round in range(20):  # 200 watch messages
        for watcher in watchers:
            watcher.send(type="watch", code=code)
        for watcher in watchers:
            watcher.until(lambda f: f["type"] == "state")
    elapsed = time.monotonic() - started
    # An error frame goes behind whatever Ana was sent meanwhile: count those.
    ana.send_text('{"type": "fly"}')
    ana.until(lambda f: f["type"] == "error")
    sent = [f for f in ana.frames[before:] if f["type"] == "state"]
    assert len(sent) <= 2, (len(sent), elapsed)
    for ws in sockets:
        ws.__exit__(None, None, None)
    ws_a.__exit__(None, None, None)


def test_a_finished_table_leaves_memory_and_comes_back_from_the_store(
    client: TestClient,
) -> None:
    """Issue 11, hardening: finished tables nobody watches are let go of
    (``idle_evict``); asking for one loads it again from the store."""
    ws_a, ana, joined = open_table(client, ["you", "greedy"])
    code = joined["table"]
    ana.send(type="resign")
    state(ana, lambda f: f["over"])
    ws_a.__exit__(None, None, None)
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    deadline = time.monotonic() + 10
    while code in lobby.tables and time.monotonic() < deadline:
        time.sleep(0.1)
        client.portal.call(lambda: lobby.evict_idle(time.monotonic()))  # type: ignore[union-attr]
    assert code not in lobby.tables
    with connect(client) as ws:
        spy = Player(ws)
        spy.send(type="watch", code=code)
        again = state(spy)
        assert again["over"] and again["resigned"] == 0
    assert code in lobby.tables


def test_the_record_marks_auto_played_moves(client: TestClient) -> None:
    """Issue 11: auto-played moves are marked in the game record (version 2).
    With another person at the table (P41: alone with bots the game would be
    adjourned instead), Ana never moves: her clock runs out, then a stand-in
    plays for her to the end while Ben plays his own seat."""
    ws_a, ana, joined = open_table(
        client, ["you", "person"], clock={"move": 2, "bank": 0}, target=1
    )
    code = joined["table"]
    ws_b, ben, _j = join(client, code)
    for _ in range(200):
        frame = state(ben, lambda f: f["over"] or (f["round"]["legal"] and not f["paused"]))
        if frame["over"]:
            break
        ben.act(frame["round"]["legal"][0])
    over = state(ana, lambda f: f["over"])
    ws_b.__exit__(None, None, None)
    marked = [t for t in over["round"]["history"] if t.get("auto")]
    response = client.get(f"/api/tables/{code}/record")
    assert response.status_code == 200
    marks = record_marks(response.text)
    assert marks and set(marks.values()) <= {"timeout", "stand-in"}
    assert "timeout" in marks.values()
    assert len(marked) <= len(marks)
    ws_a.__exit__(None, None, None)


def test_moves_are_counted_and_timed_for_metrics(client: TestClient) -> None:
    """Issue 12, seen from outside: every accepted move is counted by who made
    it and timed from its check to its frames, for /metrics."""
    ws_a, ana, _joined = open_table(client, ["you", "greedy"], target=5)
    last = ana.play_out()
    assert last["over"]
    metrics = client.app.state.metrics  # type: ignore[attr-defined]
    person = metrics.value("passing_game_moves_total", by="person")
    bot = metrics.value("passing_game_moves_total", by="bot")
    assert person and bot and person + bot == metrics.value("passing_game_move_seconds_count")
    text = client.get("/metrics").text
    assert 'passing_game_moves_total{by="bot"}' in text
    ws_a.__exit__(None, None, None)
