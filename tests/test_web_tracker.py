"""The tile tracker (issue 24, item 5; DECISIONS P44): from a seat's view only.

It counts every tile once (train, own hand, unseen); what it calls unseen is
exactly the other hands and the boneyard together, so it tells a seat
nothing R9 hides from it; the numbers a seat "passed or drew on" come from
the public history. Through the socket: a seat gets its own tracker, a
spectator none.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from passing_game import Round
from passing_game.moves import Draw, Pass, Play
from passing_game.rules import Rules
from passing_game.tiles import TILES
from passing_game.views import Turn
from passing_game.web.table.tracker import tracker


def positions(players: int, count: int) -> Iterator[tuple[Round, int]]:
    """Rounds played at random to random points, with the seat to read them."""
    rng = random.Random(players)
    for game in range(count):
        rnd = Round.new(Rules(players=players), seed=f"tracker|{players}|{game}")
        for _ in range(rng.randrange(0, 40)):
            if rnd.is_over:
                break
            rnd.play(rng.choice(rnd.legal_moves()))
        yield rnd, rng.randrange(players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r9_the_tracker_counts_every_tile_once_and_hides_where_the_others_are(
    players: int,
) -> None:
    for rnd, seat in positions(players, 40):
        found = tracker(rnd.view(seat))
        played, hand, unseen = (set(found[k]) for k in ("played", "hand", "unseen"))
        assert len(played) + len(hand) + len(unseen) == len(TILES)
        assert played == {str(p.tile) for p in rnd.train}
        assert hand == {str(t) for t in rnd.hands[seat]}
        hidden = {str(t) for s, h in enumerate(rnd.hands) if s != seat for t in h}
        hidden |= {str(t) for t in rnd.boneyard}
        # R9: the unseen tiles are the others' hands and the boneyard, together.
        assert unseen == hidden
        for row in found["numbers"]:
            assert row["played"] + row["yours"] + row["unseen"] == 7
        assert [r["seat"] for r in found["short"]] == [s for s in range(players) if s != seat]


def _ends_before(history: tuple[Turn, ...], index: int) -> tuple[int, int] | None:
    """The train's open numbers just before turn ``index``."""
    ends: tuple[int, int] | None = None
    for turn in history[:index]:
        if isinstance(turn.move, Play) and turn.placed is not None:
            placed = turn.placed
            if ends is None:
                ends = (placed.left, placed.right)
            elif turn.move.end == "left":
                ends = (placed.left, ends[1])
            else:
                ends = (ends[0], placed.right)
    return ends


def test_r4_4_a_seat_that_passed_on_an_open_number_is_marked_short_of_it() -> None:
    """Seat 1 passed or drew with a number open and has laid none since: seat
    0's tracker lists that number for seat 1 (a hint: passing is free, R4.4).
    A number seat 1 laid since is never listed as one it lacks."""
    checked = 0
    for rnd, _seat in positions(2, 200):
        history = rnd.history
        found = {r["seat"]: set(r["numbers"]) for r in tracker(rnd.view(0))["short"]}
        expected: set[int] = set()
        for index, turn in enumerate(history):
            ends = _ends_before(history, index)
            if turn.seat != 1 or ends is None or not isinstance(turn.move, (Pass, Draw)):
                continue
            laid = {
                n
                for later in history[index:]
                if later.seat == 1 and isinstance(later.move, Play)
                for n in (later.move.tile.low, later.move.tile.high)
            }
            expected |= set(ends) - laid
            checked += 1
        assert found[1] == expected, [str(t.move) for t in history]
    assert checked > 20, "too few passes on open numbers to check"


pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")


def test_the_tracker_goes_to_its_seat_only_and_never_to_a_spectator(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from passing_game.web.http.app import create_app
    from passing_game.web.store import SqliteStore
    from web_helpers import Player, time_limit

    store = SqliteStore(tmp_path / "tables.sqlite3")
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(60), TestClient(app) as client, client.websocket_connect("/ws") as ws:
        ana = Player(ws)
        ana.send(type="create", name="Ana", seats=["you", "greedy"], rules={"players": 2})
        joined = ana.until(lambda f: f["type"] == "joined")
        # Ana's turn: nothing moves until she does, so the tracker and the
        # frame show the same moment.
        frame = ana.until(lambda f: f["type"] == "state" and bool(f["round"]["legal"]))
        ana.send(type="tracker")
        found = ana.until(lambda f: f["type"] == "tracker")
        assert found["seat"] == 0
        assert sorted(found["hand"]) == sorted(frame["round"]["hand"])
        train = {f"{min(a, b)}-{max(a, b)}" for a, b in frame["round"]["train"]}
        assert set(found["played"]) == train
        assert len(found["unseen"]) == 28 - len(train) - len(frame["round"]["hand"])
        with client.websocket_connect("/ws") as ws2:
            ben = Player(ws2)
            ben.send(type="watch", code=joined["table"])
            ben.until(lambda f: f["type"] == "state")
            ben.send(type="tracker")
            refused = ben.until(lambda f: f["type"] in ("error", "tracker"))
            assert refused["type"] == "error" and refused["code"] == "spectator"
    store.close()
