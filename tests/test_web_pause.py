"""The table's rules of issue 23 through the real socket (P41): a person alone
with bots pauses the table, the bank is for people who are there, the
summary shown is the last finished round's, a finished game offers no seat
back. In process, over a real SQLite store, with short clocks."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")

from starlette.testclient import TestClient

from passing_game.web.http.app import create_app
from passing_game.web.store import SqliteStore
from passing_game.web.table.runner import Timing
from web_helpers import Player, time_limit

FAST = Timing(offline_grace=1.0, summary_wait=30.0, idle_evict=30.0)


def _client(tmp_path: Path, timing: Timing) -> Iterator[TestClient]:
    store = SqliteStore(tmp_path / "tables.sqlite3")
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6), timing=timing)
    with time_limit(90), TestClient(app) as made:
        yield made
    store.close()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    yield from _client(tmp_path, FAST)


@pytest.fixture
def patient(tmp_path: Path) -> Iterator[TestClient]:
    """A site whose offline grace outlasts a turn (no stand-in yet)."""
    yield from _client(tmp_path, Timing(offline_grace=30.0, summary_wait=1.0, idle_evict=30.0))


def seated(client: TestClient, **message: Any) -> tuple[Any, Player, dict[str, Any]]:
    """A socket that sent ``message`` (create, join, resume or watch) and was seated."""
    ws = client.websocket_connect("/ws").__enter__()
    player = Player(ws)
    player.send(**message)
    joined = player.until(lambda f: f["type"] in ("joined", "error"))
    assert joined["type"] == "joined", joined
    return ws, player, joined


def state(player: Player, pred: Any) -> dict[str, Any]:
    return player.until(lambda f: f["type"] == "state" and pred(f))


def create(
    client: TestClient, seats: list[str], **extra: Any
) -> tuple[Any, Player, dict[str, Any]]:
    rules = {"players": len(seats), **extra.pop("rules", {})}
    return seated(client, type="create", name="Ana", seats=seats, rules=rules, **extra)


def test_p41_alone_with_a_bot_an_idle_person_adjourns_the_game(client: TestClient) -> None:
    ws, ana, _joined = create(client, ["you", "greedy"], clock={"move": 2, "bank": 1})
    turn = state(ana, lambda f: f["clock"]["seat"] == 0)
    assert turn["adjourns"], "the page will ask: are you still there?"
    moves = len(turn["round"]["history"])
    adjourned = state(ana, lambda f: f["adjourned"] == 0)
    assert len(adjourned["round"]["history"]) == moves, "nothing was played for Ana"
    assert adjourned["clock"]["seat"] is None and adjourned["seats"][0]["away"] == "paused"
    assert not adjourned["seats"][0]["standin"] and adjourned["can_come_back"]
    ana.send(type="back")
    back = state(ana, lambda f: f["adjourned"] is None)
    assert back["clock"]["seat"] == 0 and back["round"]["legal"]
    ws.__exit__(None, None, None)


def test_p41_leaving_a_game_against_bots_adjourns_it_until_the_person_is_back(
    client: TestClient,
) -> None:
    ws, ana, joined = create(client, ["you", "greedy", "greedy"])
    code, token = joined["table"], joined["token"]
    state(ana, lambda f: f["started"])
    ana.send(type="leave")
    left = ana.until(lambda f: f["type"] == "left")
    assert left["keep"], "the page keeps the seat's token: the game waits"
    ws.__exit__(None, None, None)
    ws, ben, _ = seated(client, type="watch", code=code)
    watched = state(ben, lambda f: True)
    assert watched["adjourned"] == 0 and not watched["seats"][0]["standin"]
    ws.__exit__(None, None, None)
    ws, ana, _ = seated(client, type="resume", code=code, seat=0, token=token)
    back = state(ana, lambda f: f["adjourned"] is None)
    assert back["seats"][0]["away"] is None
    ana.play_out()
    ws.__exit__(None, None, None)


def test_p41_an_offline_person_alone_with_bots_is_waited_for_not_played_for(
    client: TestClient,
) -> None:
    ws, ana, joined = create(client, ["you", "greedy"])
    code = joined["table"]
    state(ana, lambda f: f["started"])
    ws.__exit__(None, None, None)  # offline for longer than the grace (1 s)
    ws, cai, _ = seated(client, type="watch", code=code)
    paused = state(cai, lambda f: f["adjourned"] == 0)
    assert not paused["seats"][0]["standin"]
    assert not any(t.get("auto") for t in paused["round"]["history"])
    ws.__exit__(None, None, None)


def test_p41_an_offline_friends_turn_waits_the_move_time_not_the_bank(
    patient: TestClient,
) -> None:
    client = patient
    ws_a, ana, joined = create(client, ["you", "person"], clock={"move": 2, "bank": 30})
    ws_b, _ben, _ = seated(client, type="join", code=joined["table"], name="Ben")
    first = state(ana, lambda f: f["started"] and f["clock"]["seat"] is not None)
    assert first["clock"]["banks"] == [30, 30]
    ws_b.__exit__(None, None, None)  # Ben goes; his turn has the move time only
    frame = state(ana, lambda f: not f["seats"][1]["connected"])
    while True:
        if frame["clock"]["seat"] == 1:
            break
        if frame["paused"] and 0 in frame["waiting"]:
            ana.send(type="continue")
        elif frame["round"]["legal"]:
            ana.act(frame["round"]["legal"][0])
        frame = state(
            ana, lambda f: f["clock"]["seat"] is not None or f["round"]["legal"] or f["paused"]
        )
    assert frame["clock"]["remaining_ms"] <= 2000, frame["clock"]
    timed = state(ana, lambda f: any(t.get("auto") == "timeout" for t in f["round"]["history"]))
    assert timed["clock"]["banks"][1] == 30, "Ben keeps his bank for when he is back"
    ws_a.__exit__(None, None, None)


def test_p41_a_bots_seat_has_no_clock(client: TestClient) -> None:
    ws, ana, _ = create(client, ["you", "greedy"], clock={"move": 20, "bank": 40})
    frame = state(ana, lambda f: f["started"])
    assert frame["clock"]["banks"] == [40, None]
    ws.__exit__(None, None, None)


def _to_round_two(ana: Player) -> dict[str, Any]:
    while True:
        frame = ana.my_turn()
        if frame["round"]["number"] >= 2 and frame["round"]["legal"]:
            return frame
        if frame["paused"] and frame["you"] in frame["waiting"] and not frame["round"]["legal"]:
            ana.send(type="continue")
            continue
        ana.act(frame["round"]["legal"][0])


def test_p41_a_game_resigned_in_round_two_ends_with_its_own_summary(client: TestClient) -> None:
    ws, ana, _joined = create(client, ["you", "greedy"], rules={"target": 500})
    _to_round_two(ana)
    ana.send(type="resign")
    over = state(ana, lambda f: f["over"])
    summary = over["summary"]
    assert summary["reason"] == "resigned" and summary["round"] == 2
    assert "You resigned in round 2" in summary["reason_text"]
    assert summary["train"] == over["round"]["train"], "the position it ended in"
    assert not over["can_come_back"]
    ws.__exit__(None, None, None)


def test_p41_someone_arriving_mid_round_is_not_shown_the_last_rounds_summary(
    client: TestClient,
) -> None:
    ws, ana, joined = create(client, ["you", "greedy"], rules={"target": 500})
    frame = _to_round_two(ana)
    assert frame["summary"]["round"] == 1 and not frame["summary_due"]
    ws_w, watcher, _ = seated(client, type="watch", code=joined["table"])
    seen = state(watcher, lambda f: True)
    assert seen["summary"]["round"] == 1, "one click away"
    assert not seen["summary_due"], "no dialog of the last round for someone arriving"
    ws_w.__exit__(None, None, None)
    ws.__exit__(None, None, None)


def test_p41_a_finished_game_offers_no_seat_back(client: TestClient) -> None:
    ws_a, ana, joined = create(client, ["you", "person"])
    ws_b, ben, _ = seated(client, type="join", code=joined["table"], name="Ben")
    state(ben, lambda f: f["started"])
    ben.send(type="leave")
    ben.until(lambda f: f["type"] == "left")
    ana.send(type="resign")
    over = state(ana, lambda f: f["over"])
    assert over["seats"][1]["away"] == "left"
    ws_b.__exit__(None, None, None)
    ws_b, ben, _ = seated(
        client, type="resume", code=joined["table"], seat=1, token=ben.joined["token"]
    )
    mine = state(ben, lambda f: f["over"])
    assert not mine["can_come_back"], "no 'Take my seat back' on a finished game"
    ws_b.__exit__(None, None, None)
    ws_a.__exit__(None, None, None)


# -- under attack: stray, repeated and racing intents around a pause ---------


def test_p41_a_back_when_nobody_is_away_changes_nothing(client: TestClient) -> None:
    """A stray ``back`` (nobody adjourned, nobody stood in for) is a no-op."""
    ws, ana, _joined = create(client, ["you", "greedy"])
    turn = state(ana, lambda f: f["started"] and f["round"]["legal"])
    moves = len(turn["round"]["history"])
    ana.send(type="back")
    ana.send(type="back")
    ana.act(turn["round"]["legal"][0])
    after = state(ana, lambda f: len(f["round"]["history"]) > moves)
    assert after["round"]["history"][moves]["seat"] == 0, "Ana's own move, not a bot's"
    assert not any(t.get("auto") for t in after["round"]["history"])
    assert after["seats"][0]["away"] is None and after["adjourned"] is None
    ws.__exit__(None, None, None)


def test_p41_a_move_sent_while_adjourned_resumes_the_game_and_counts_once(
    client: TestClient,
) -> None:
    """The person the table waits for moves at once, twice over: the first
    move resumes the game and is played; the copy is refused as out of turn."""
    ws, ana, _joined = create(client, ["you", "greedy"], clock={"move": 2, "bank": 1})
    adjourned = state(ana, lambda f: f["adjourned"] == 0 and f["round"]["to_move"] == 0)
    moves = len(adjourned["round"]["history"])
    legal = adjourned["round"]["legal"]
    assert legal, "the adjourned person may move (their move is their way back)"
    # A tile, if she has one that fits: its copy can never be played again
    # (a second draw could be a new turn's own).
    move = next((m for m in legal if m not in ("draw", "pass")), legal[0])
    ana.act(move)
    ana.act(move)
    played = state(ana, lambda f: len(f["round"]["history"]) > moves)
    assert played["adjourned"] is None and played["seats"][0]["away"] is None
    assert played["round"]["history"][moves]["seat"] == 0
    assert "auto" not in played["round"]["history"][moves]
    if move in ("draw", "pass"):
        ws.__exit__(None, None, None)
        return
    refused = ana.until(lambda f: f["type"] == "error")
    assert refused["code"] in ("not-your-turn", "illegal"), refused
    assert ana.state is not None
    ours = [t for t in ana.state["round"]["history"][moves:] if t["seat"] == 0]
    assert len(ours) == 1, "the copy was not played"
    ws.__exit__(None, None, None)


def test_p41_leaving_as_the_clock_runs_out_adjourns_without_a_bot_move(
    client: TestClient,
) -> None:
    """Ana leaves just as her turn's time ends: whichever comes first (her
    leave or the clock), the game is adjourned, nothing is played for her and
    her bank is what it was when she comes back."""
    ws, ana, joined = create(client, ["you", "greedy"], clock={"move": 2, "bank": 1})
    code, token = joined["table"], joined["token"]
    turn = state(ana, lambda f: f["clock"]["seat"] == 0)
    bank = turn["clock"]["banks"][0]
    moves = len(turn["round"]["history"])
    time.sleep(max(0.0, turn["clock"]["remaining_ms"] / 1000 - 0.02))
    ana.send(type="leave")
    ana.until(lambda f: f["type"] == "left")
    ws.__exit__(None, None, None)
    ws, ana, _ = seated(client, type="resume", code=code, seat=0, token=token)
    back = state(ana, lambda f: True)
    assert back["adjourned"] == 0, "the game waits for Ana"
    assert len(back["round"]["history"]) == moves, "nothing was played for her"
    assert back["clock"]["banks"][0] == bank, "an adjourned turn does not spend the bank"
    ana.send(type="back")
    going = state(ana, lambda f: f["adjourned"] is None)
    assert going["clock"]["seat"] == 0 and going["round"]["legal"]
    ws.__exit__(None, None, None)
