"""Deals anyone can check at the web's tables (issue 26, item 3).

In process on SQLite and PostgreSQL: every frame of a table's game, a seat's
and a spectator's, carries the commitment from the first one; the game's
record reveals the secret seed and salt that give it and the seed that
dealt every round (D9); the end frame's moves digest is the record's; a
rematch is committed afresh; the replay says the record verifies, and
says what no longer holds in one that was changed. A daily deal and a
practice round have none.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from click.testing import CliRunner
from starlette.testclient import TestClient

from passing_game.cli import main
from passing_game.fairness import check, check_moves, commitment
from passing_game.records import load_record
from passing_game.web.http.app import create_app
from passing_game.web.store import Store
from web_helpers import Player, create, either_store, time_limit

HEX64 = re.compile(r"[0-9a-f]{64}")


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    yield from either_store(request.param, tmp_path, "fair")


def csrf(client: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": client.get("/api/account").json()["csrf"]}


def test_every_frame_carries_the_commitment_the_record_reveals(
    store: Store, tmp_path: Path
) -> None:
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(180), TestClient(app) as client:
        with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as ws2:
            ana = Player(ws)
            code = create(ana, ["you", "random"], target=10)["table"]
            first = ana.state
            assert first is not None and HEX64.fullmatch(first["commitment"])
            assert "moves_digest" not in first  # the moves' digest comes at the end
            watcher = Player(ws2)
            watcher.send(type="watch", code=code)
            seen = watcher.until(lambda f: f["type"] == "state")
            assert seen["commitment"] == first["commitment"]
            last = ana.play_out()
            assert last["commitment"] == first["commitment"]
            digest = last["moves_digest"]
            # A rematch is committed afresh.
            ana.send(type="rematch")
            fresh = ana.until(lambda f: f["type"] == "state" and f["game"] == 2)
            assert (
                HEX64.fullmatch(fresh["commitment"]) and fresh["commitment"] != first["commitment"]
            )

        text = client.get(f"/api/tables/{code}/record?game=1").text
        data = json.loads(text)
        fair = data["fairness"]
        assert (
            fair["commitment"]
            == first["commitment"]
            == commitment(fair["server_seed"], fair["salt"])
        )
        assert fair["moves_digest"] == digest
        assert fair["contributions"] == [None, None]
        assert check(data, 2) is None and check_moves(data) is None
        assert load_record(text).seed == data["seed"]  # which deals every round (D9)

        # The record as the server wrote it verifies from the command line (the contract).
        path = tmp_path / "game.json"
        path.write_text(text, encoding="utf-8")
        done = CliRunner().invoke(main, ["--lang", "en", "verify", str(path)])
        assert done.exit_code == 0, done.output
        assert done.output.strip().splitlines()[-1].startswith("verified: the commitment")

        replay = client.get(f"/api/replay/{code}/1").json()
        assert replay["fairness"]["verified"] is True and replay["fairness"]["problem"] is None

        # An uploaded record that was changed: the replay says what no longer holds.
        changed = dict(data)
        changed["fairness"] = {**fair, "salt": "0" * 32}
        got = client.post("/api/replay", content=json.dumps(changed), headers=csrf(client))
        assert got.status_code == 200, got.text
        shown = got.json()["fairness"]
        assert shown["verified"] is False and "commitment" in shown["problem"]


def test_the_secret_stays_secret_until_the_game_is_over(store: Store) -> None:
    """Before the end no frame names the server's seed or salt: the commitment only."""
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(120), TestClient(app) as client:
        with client.websocket_connect("/ws") as ws:
            ana = Player(ws)
            code = create(ana, ["you", "random"], target=10)["table"]
            ana.play_out()
            frames: list[dict[str, Any]] = [f for f in ana.frames if f["type"] == "state"]
        secret = json.loads(client.get(f"/api/tables/{code}/record?game=1").text)["fairness"]
        for frame in frames:
            text = json.dumps(frame)
            assert secret["server_seed"] not in text and secret["salt"] not in text
        going = client.get(f"/api/tables/status?codes={code}").json()
        assert secret["server_seed"] not in json.dumps(going)
