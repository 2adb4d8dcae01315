"""A deal that waits for the people's contributions (issue 26, item 3; P51).

The pure authority first (``web/game/dealing.py``, the time injected): while
the deal waits nobody moves, no clock runs and no bot thinks; each person's
part is taken once; the wait begins when every seat is taken and ends when
every person gave or at its end. Then in process, on SQLite and PostgreSQL,
two accounts at a rated table over the real protocol: their frames show the
commitment and no hand before the deal, the record reveals both parts and
the seed mixed of them (D9: it deals every round), ``passing-game verify``
checks it; a browser that gives nothing is dealt without after the wait; a
part after the deal, a malformed one and the tile tracker before the deal
change nothing. A friends' table never waits; a duplicate round's tables neither
(tests/test_web_tournament_store.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from passing_game.fairness import check, mixed_seed
from passing_game.web.game import clock, dealing, events, seats
from passing_game.web.game import table as authority
from passing_game.web.game.errors import ProtocolError
from passing_game.web.game.model import Clock, Dealing
from test_web_game import NOW, of, table

PART = "0123456789abcdef" * 2


def waiting(kinds: tuple[str, ...] = ("human", "human"), until: float | None = None, **kw: Any):
    """A table whose deal waits (no part given yet)."""
    return table(kinds, dealing=Dealing(until, (False,) * len(kinds)), **kw)


# -- the authority --------------------------------------------------------------------


def test_nothing_moves_while_the_deal_waits() -> None:
    """P51: no move, no clock, no bot, no hint before the deal."""
    state = waiting(("bot", "human"), until=NOW + 5, clock_=Clock(20, 40))
    assert state.started and not state.playing
    assert clock.wanted(state, NOW) is None
    assert seats.bot_to_move(state) is None
    mover = state.match.round.to_move
    legal = str(state.match.round.legal_moves()[0])
    act = events.Act(mover, "play", {"move": legal})
    with pytest.raises(ProtocolError) as refused:
        authority.step(state, act, NOW)
    assert refused.value.code == "not-dealt"
    with pytest.raises(ProtocolError):
        authority.step(state, events.Act(1, "hint"), NOW)
    # Settling only waits until the wait's end: nothing is thought, no timer runs.
    done = authority.settle(state, NOW)
    assert of(events.Think, done) == [] and of(events.SetTimer, done) == []
    assert of(events.Arm, done) == [events.Arm(NOW + 5)]


def test_each_person_gives_once_and_the_last_one_deals() -> None:
    state = waiting(until=NOW + 5)
    first = authority.step(state, events.Act(0, "contribute", {"value": PART}), NOW)
    assert first.effects == (events.Contribute(0, PART), events.Broadcast())
    given = replace(state, dealing=Dealing(NOW + 5, (True, False)))
    again = authority.step(given, events.Act(0, "contribute", {"value": PART}), NOW)
    assert again.effects == ()  # a second part from the same seat changes nothing
    last = authority.step(given, events.Act(1, "contribute", {"value": PART}), NOW)
    assert last.effects == (events.Contribute(1, PART), events.Deal(), events.Broadcast())


def test_a_bot_seat_and_a_dealt_game_take_no_part() -> None:
    state = waiting(("human", "bot"), until=NOW + 5)
    assert authority.step(state, events.Act(1, "contribute", {"value": PART}), NOW).effects == ()
    # The only person gives: the deal is made at once, the bot gave nothing.
    only = authority.step(state, events.Act(0, "contribute", {"value": PART}), NOW)
    assert events.Deal() in only.effects
    dealt = table(("human", "bot"))
    assert authority.step(dealt, events.Act(0, "contribute", {"value": PART}), NOW).effects == ()


def test_the_wait_begins_when_every_seat_is_taken_and_ends_on_time() -> None:
    # Before every seat is taken: no wait yet, and a part may come early.
    early = waiting(("human", "open"))
    assert not early.started and dealing.settle(early, NOW) == []
    # Every seat taken: the wait begins now and lasts WAIT seconds.
    full = waiting(("human", "human"))
    begun = authority.settle(full, NOW)
    assert events.OpenDeal(NOW + dealing.WAIT) in begun
    assert events.Arm(NOW + dealing.WAIT) in begun
    assert of(events.Think, begun) == []
    # Everyone gave before the last seat was taken: dealt as the wait would begin.
    gave = table(("human", "human"), dealing=Dealing(None, (True, True)))
    assert events.Deal() in authority.settle(gave, NOW)
    # At the wait's end the game is dealt with what was given; not a moment before.
    timed = waiting(until=NOW + 5)
    assert of(events.Deal, authority.step(timed, events.Tick(), NOW + 4.9).effects) == []
    assert of(events.Deal, authority.step(timed, events.Tick(), NOW + 5).effects) == [events.Deal()]
    assert clock.next_wake(timed, NOW) == NOW + 5


# -- in process, over the protocol ----------------------------------------------------

pytest.importorskip("starlette")
pytest.importorskip("openskill")

from click.testing import CliRunner  # noqa: E402

from passing_game.cli import main  # noqa: E402
from passing_game.records import load_record  # noqa: E402
from site_helpers import Site, either_site  # noqa: E402
from test_web_ratings import rated_table  # noqa: E402
from web_helpers import Player, create  # noqa: E402


@pytest.fixture(params=["sqlite", "postgresql"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Site]:
    yield from either_site(request.param, tmp_path, "deal")


def record_of(site: Site, code: str) -> dict[str, Any]:
    got = site.get(None, f"/api/tables/{code}/record?game=1")
    assert got.status_code == 200, got.text
    return dict(json.loads(got.text))


def resign_when_dealt(player: Player) -> dict[str, Any]:
    """Wait for the deal, then resign: the game is over, its record written."""
    if not (player.state and player.state["started"]):
        player.until(lambda f: f["type"] == "state" and f["started"])
    player.send(type="resign")
    return player.until(lambda f: f["type"] == "state" and f["over"])


def test_a_rated_deal_mixes_both_browsers_parts(site: Site, tmp_path: Path) -> None:
    site.sign_up("Ana")
    site.sign_up("Ben")
    with site.socket("Ana") as ana, site.socket("Ben") as ben:
        code = rated_table(ana, ben)
        before = ana.until(lambda f: f["type"] == "state" and f["dealing"] is not None)
        # Before the deal: the commitment, no hand, nobody to move, no clock.
        assert len(before["commitment"]) == 64 and before["round"]["hand"] == []
        assert before["round"]["legal"] == [] and not before["started"]
        # The tile tracker would show the provisional deal's hand: refused (the deal
        # waits for Ben's part: his client has read nothing yet).
        ana.send(type="tracker")
        assert ana.error()["code"] == "not-dealt"
        ben.until(lambda f: (code, 1) in ben.parts)  # Ben's browser gives as it sees the table
        dealt = ana.until(lambda f: f["type"] == "state" and f["started"])
        assert dealt["dealing"] is None and len(dealt["round"]["hand"]) > 0
        assert dealt["commitment"] == before["commitment"]  # committed before any part
        # A part after the deal changes nothing.
        ana.send(type="contribute", value="f" * 32)
        resign_when_dealt(ana)
        ben.until(lambda f: f["type"] == "state" and f["over"])
        parts = [ana.parts[(code, 1)], ben.parts[(code, 1)]]
    data = record_of(site, code)
    fair = data["fairness"]
    assert fair["contributions"] == parts and fair["commitment"] == before["commitment"]
    assert data["seed"] == mixed_seed(fair["server_seed"], parts)  # D9: it deals every round
    assert "deal_waits_until" not in fair and check(data, 2) is None
    assert load_record(json.dumps(data)).seed == data["seed"]
    path = tmp_path / "rated.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = CliRunner().invoke(main, ["--lang", "en", "verify", str(path)])
    assert done.exit_code == 0, done.output
    assert "(2 contributions)" in done.output.strip().splitlines()[-1]


def test_a_browser_that_gives_nothing_is_dealt_without_after_the_wait(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dealing, "WAIT", 2.0)
    site.sign_up("Ana")
    site.sign_up("Ben")
    with site.socket("Ana") as ana, site.socket("Ben") as ben:
        ben.contributing = False
        code = rated_table(ana, ben)
        ana.until(lambda f: (code, 1) in ana.parts)
        waits = ben.until(lambda f: f["type"] == "state" and f["dealing"] is not None)
        assert waits["dealing"]["give"] is True
        # A malformed part is refused with a sentence, and the deal still waits.
        ben.send(type="contribute", value="not hex")
        refused = ben.error()
        assert "hexadecimal" in refused["message"]
        resign_when_dealt(ben)
        part = ana.parts[(code, 1)]
    fair = record_of(site, code)["fairness"]
    assert fair["contributions"] == [part, None]


def test_a_friends_table_never_waits(site: Site) -> None:
    with site.socket(None) as ws:
        ana = ws
        create(ana, ["you", "random"], target=10)
        first = ana.state
        assert first is not None
        assert first["dealing"] is None and first["started"] and first["round"]["hand"]
