"""No frame ever tells a client a tile it may not see (R9).

Many bot games are played over the real protocol (in process): at each
table two or three scripted people and a spectator, the other seats bots.
Every frame each client received is kept. Once a game is over its record
gives the truth at every moment (every hand, the boneyard), and each frame
is checked against the truth of the moment it shows:

- its hand is exactly the seat's own hand, its train the real train;
- no tile hidden from that client (another hand, the boneyard) is named
  anywhere in the frame: not in the hand, the history, the move log, the
  legal moves, the status line, nor in error or hint frames;
- a spectator's frames hold no hand and no drawn tile at all;
- the only hands shown are those of rounds already over (the summary),
  and they match the record.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from passing_game import Match, Rules, load_record, parse_move
from passing_game.tiles import TILES
from passing_game.web.http.app import create_app
from passing_game.web.store import SqliteStore
from web_helpers import TILE_TEXT, Player, time_limit

ALL = {str(t) for t in TILES}

#: (seats, rules) of the tables played: every player count and variant.
TABLES: list[tuple[list[str], dict[str, Any]]] = [
    (["you", "person"], {"target": 40}),
    (["you", "person", "random"], {"target": 25}),
    (["you", "random", "person", "greedy"], {"target": 20}),
    (["you", "person", "person", "random"], {"partnerships": True, "target": 15}),
    (["you", "person"], {"draw": "continue", "passing": "forced", "target": 30}),
    (["you", "greedy", "person"], {"scoring": "pairwise", "leader": "winner", "target": 25}),
    (["you", "person", "easy"], {"leader": "rotate", "target": 20}),
    (["you", "random", "random", "person"], {"passing": "forced", "target": 20}),
]
REPEATS = 3


def tile_key(a: int, b: int) -> str:
    return f"{min(a, b)}-{max(a, b)}"


def named_tiles(data: Any) -> set[str]:
    return {tile_key(int(a), int(b)) for a, b in TILE_TEXT.findall(json.dumps(data))}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = SqliteStore(tmp_path / "leak.sqlite3")
    # Many games, each record downloaded: no record rate limit here.
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6), record_rate_limit=(1e6, 1e6))
    with time_limit(240), TestClient(app) as made:
        yield made
    store.close()


def play_person(player: Player, seed: int) -> None:
    """A scripted person: random legal moves (draws and passes too), then done."""
    rng = random.Random(seed)
    player.play_out(lambda f: rng.choice(f["round"]["legal"]))


def truth(record: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    """(round, moves made) -> every hand, the boneyard and the train at that moment."""
    match = Match(Rules.from_dict(record["rules"]), record["seed"])
    snapshots: dict[tuple[int, int], dict[str, Any]] = {}

    def snap() -> None:
        rnd = match.round
        snapshots[(match.round_number, len(rnd.history))] = {
            "hands": [[str(t) for t in hand] for hand in rnd.hands],
            "boneyard": [str(t) for t in rnd.boneyard],
            "train": [[p.left, p.right] for p in rnd.train],
        }

    snap()
    for rnd in record["rounds"]:
        for text in rnd["moves"]:
            match.play(parse_move(text))
            if not match.is_over:
                snap()
    return snapshots


def check_frames(player: Player, seat: int | None, record: dict[str, Any]) -> int:
    """Check every frame one client got; returns how many state frames were checked."""
    moments = truth(record)
    checked = 0
    latest: dict[str, Any] | None = None
    for frame in player.frames:
        if frame["type"] == "joined":
            assert "token" not in frame or seat is not None
            continue
        if frame["type"] in ("error", "hint"):
            assert latest is not None
            hidden = (
                ALL
                - set(latest["round"]["hand"])
                - {tile_key(a, b) for a, b in latest["round"]["train"]}
            )
            assert not named_tiles(frame) & hidden, frame
            continue
        assert frame["type"] == "state"
        latest = frame
        if frame["over"]:
            continue
        rnd = frame["round"]
        now = moments[(rnd["number"], len(rnd["history"]))]
        assert rnd["train"] == now["train"]
        if seat is None:
            assert rnd["hand"] == [] and rnd["legal"] == []
            assert all("drawn" not in t for t in rnd["history"])
            visible: set[str] = set()
        else:
            assert rnd["hand"] == now["hands"][seat]
            visible = set(now["hands"][seat])
            assert all("drawn" not in t for t in rnd["history"] if t["seat"] != seat)
        visible |= {tile_key(a, b) for a, b in now["train"]}
        hidden = ALL - visible
        # Hidden tiles really are elsewhere: other hands and the boneyard.
        elsewhere = {t for s, h in enumerate(now["hands"]) if s != seat for t in h}
        assert hidden == elsewhere | set(now["boneyard"])
        public = {k: v for k, v in frame.items() if k != "summary"}
        leaked = named_tiles(public) & hidden
        assert not leaked, (seat, leaked, rnd["number"], len(rnd["history"]))
        assert rnd["boneyard"] == len(now["boneyard"])
        assert [s["tiles"] for s in frame["seats"]] == [len(h) for h in now["hands"]]
        # Only finished rounds are revealed, and as the record has them.
        summary = frame["summary"]
        if summary is not None:
            assert summary["round"] == rnd["number"] - 1
            done = record["rounds"][summary["round"] - 1]
            assert summary["pips"] == done["result"]["pips"]
        else:
            assert rnd["number"] == 1
        checked += 1
    return checked


def test_no_hidden_tile_reaches_another_seat(client: TestClient) -> None:
    total = 0
    games = 0
    for repeat in range(REPEATS):
        for index, (seats, rules) in enumerate(TABLES):
            total += play_table(client, seats, rules, seed=repeat * 100 + index)
            games += 1
    assert games == len(TABLES) * REPEATS
    assert total > 1000


def play_table(client: TestClient, seats: list[str], rules: dict[str, Any], seed: int) -> int:
    people = [s for s, kind in enumerate(seats) if kind in ("you", "person")]
    with client.websocket_connect("/ws") as first:
        owner = Player(first)
        owner.send(type="create", name="Ana", seats=seats, rules={"players": len(seats), **rules})
        joined = owner.until(lambda f: f["type"] == "joined")
        code = joined["table"]
        sockets = [client.websocket_connect("/ws") for _ in people[1:]]
        spectator_socket = client.websocket_connect("/ws")
        try:
            players = {people[0]: owner}
            for seat, socket in zip(people[1:], sockets, strict=True):
                ws = socket.__enter__()
                player = Player(ws)
                player.send(type="join", code=code, name=f"P{'abcd'[seat]}", seat=seat)
                assert player.until(lambda f: f["type"] == "joined")["seat"] == seat
                players[seat] = player
            spectator = Player(spectator_socket.__enter__())
            spectator.send(type="watch", code=code)
            errors: list[BaseException] = []

            def run(player: Player, s: int) -> None:
                try:
                    play_person(player, seed * 10 + s)
                except BaseException as exc:  # reported below
                    errors.append(exc)

            threads = [
                threading.Thread(target=run, args=(p, s), daemon=True) for s, p in players.items()
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=200)
            assert not errors, errors
            spectator.until(lambda f: f["type"] == "state" and f["over"])
            # A bad move and a hint after the game: errors name no hidden tile either.
            owner.send(type="play", move="L0-0")
            owner.until(lambda f: f["type"] == "error")
        finally:
            for socket in [*sockets, spectator_socket]:
                socket.__exit__(None, None, None)
    response = client.get(f"/api/tables/{code}/record")
    assert response.status_code == 200
    record = json.loads(response.text)
    load_record(record)
    checked = 0
    for seat, player in players.items():
        checked += check_frames(player, seat, record)
    checked += check_frames(spectator, None, record)
    return checked


def test_the_check_catches_a_leak(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker itself: a server that lets one hidden tile slip is caught."""
    from passing_game.web.table import frames

    real = frames.state_frame

    def leaky(match: Match, viewer: int | None, **kwargs: Any) -> dict[str, Any]:
        frame = real(match, viewer, **kwargs)
        others = [t for s, h in enumerate(match.round.hands) if s != viewer for t in h]
        if others and not match.is_over:
            frame["status"] += f" ({others[0]})"
        return frame

    monkeypatch.setattr(frames, "state_frame", leaky)
    with pytest.raises(AssertionError, match=r"\{'[0-6]-[0-6]'\}"):
        play_table(client, ["you", "random"], {"target": 10}, seed=1)
