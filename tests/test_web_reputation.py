"""Reputation others can see (issue 26, item 4): games counted, finished, left, and
timeouts, from the account's games in the store (web/reputation.py).

``reputation_of`` is driven with records made here: a game the person played
to its end, one whose last moves a stand-in made (left), one with moves
auto-played on time, an unfinished game too young to count and an old one the
person walked away from. Then in process: an account's games at real tables,
the seat frames say which seats are accounts, and bad names are 404.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from passing_game import Match, Rules
from passing_game.records import dump_record
from passing_game.web.http.addresses import AddressLimits
from passing_game.web.http.app import create_app
from passing_game.web.reputation import ABANDONED_AFTER, READ_RATE, reputation_of
from passing_game.web.store import SqliteStore
from passing_game.web.store.history import GameRow
from site_helpers import Site, addressed
from web_helpers import create, time_limit

NOW = 1_000_000.0


def played(seed: int, marks_for_seat0: str | None = None, last_only: bool = False) -> str:
    """A finished two-player record; seat 0's moves marked (all, or its last one only)."""
    match = Match(Rules(players=2, target=10), seed=seed)
    while not match.is_over:
        match.play(match.legal_moves()[0])
    marks: dict[tuple[int, int], str] = {}
    if marks_for_seat0 is not None:
        mine = [
            (number, index)
            for number, rnd in enumerate(match.rounds, start=1)
            for index, turn in enumerate(rnd.history, start=1)
            if turn.seat == 0
        ]
        for key in mine[-1:] if last_only else mine[:2]:
            marks[key] = marks_for_seat0
    return dump_record(match, marks=marks)


def row(code: str, record: str | None, created: float = NOW - 10.0) -> GameRow:
    return GameRow(code, 0, "{}", False, created, 1, record is not None, record)


def test_finished_left_and_timeouts_are_counted_from_the_records() -> None:
    games = [
        row("AAAAAA", played(1)),  # played to its end
        row("BBBBBB", played(2, "stand-in", last_only=True)),  # a stand-in's last move: left
        row("CCCCCC", played(3, "timeout")),  # two moves on time, still finished
        row("DDDDDD", None),  # under way: not counted yet
        row("EEEEEE", None, created=NOW - ABANDONED_AFTER - 1),  # walked away from it
        row("FFFFFF", None, created=NOW - ABANDONED_AFTER - 1),  # others left it
    ]
    found = reputation_of(games, {"EEEEEE": "left", "FFFFFF": None}, NOW)
    assert (found.games, found.finished, found.left) == (5, 3, 2)
    assert (found.timeouts, found.timeout_games) == (2, 1)
    assert found.share == pytest.approx(3 / 5)
    # A stand-in that played for a while but not the last move: the person came back.
    back = reputation_of([row("GGGGGG", played(4, "stand-in"))], {}, NOW)
    assert (back.games, back.finished, back.left) == (1, 1, 0)
    assert reputation_of([], {}, NOW).share is None


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    store = SqliteStore(str(tmp_path / "rep.sqlite3"))
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(120), TestClient(addressed(app)) as client:
        made = Site(client)
        made.app = app  # type: ignore[attr-defined]  # the limits' clock, below
        yield made
    store.close()


def test_an_accounts_reputation_from_its_games_and_the_seat_says_account(site: Site) -> None:
    site.sign_up("Ana", address="10.0.0.1")
    empty = site.get(None, "/api/reputation/Ana").json()
    assert empty == {"name": "Ana", "games": 0, "finished": 0, "left": 0, "share": None,
                     "timeouts": 0, "timeout_games": 0}  # fmt: skip
    with site.socket("Ana") as ana:
        create(ana, ["you", "random"], target=8)
        assert ana.state is not None
        assert [s["account"] for s in ana.state["seats"]] == [True, False]
        assert ana.play_out()["over"]
    with site.socket(None) as guest:  # a guest's seat is no account's
        create(guest, ["you", "random"], target=8)
        assert guest.state is not None and guest.state["seats"][0]["account"] is False
    got = site.get("Ana", "/api/reputation/ana")  # names are looked up as at sign-in
    assert got.status_code == 200
    assert got.json()["games"] == 1 and got.json()["finished"] == 1 and got.json()["share"] == 1.0
    for name in ("nobody", "x" * 200, "%00"):
        missing = site.get(None, f"/api/reputation/{name}")
        assert missing.status_code == 404 and missing.json()["code"] == "no-account"


def test_one_address_asking_too_often_is_held_back(site: Site) -> None:
    """Each answer reads up to 200 records: an address is limited (2 a second, 20 at once)."""
    site.sign_up("Ana", address="10.0.0.9")
    # A stopped clock: no token comes back while the requests are made, however slowly.
    stopped = AddressLimits(*READ_RATE, clock=lambda: 0.0)
    site.app.state.reputation_limits = stopped  # type: ignore[attr-defined]
    codes = [site.get("Ana", "/api/reputation/Ana").status_code for _ in range(21)]
    assert codes == [200] * 20 + [429]
    refused = site.get("Ana", "/api/reputation/Ana")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    site.sign_up("Ben", address="10.0.0.10")  # another address is not held back
    assert site.get("Ben", "/api/reputation/Ana").status_code == 200
