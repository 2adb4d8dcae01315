"""The site's rules at a table that a player cannot bend (issue 22, points 2-4; P40).

Through the real socket in process, over a real SQLite store, with short
waits: a seat is handed over only after the offline grace; leaving and
coming back never restarts the move clock; a game nobody moved in is not
rated; one account holds one seat of a rated table; a rematch is an offer
each person accepts; hints are refused at rated tables and the daily deal
and shown to everyone elsewhere (a spectator's is answered); guests are
marked as guests; names that pass for someone else are refused.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("openskill")

from starlette.testclient import TestClient

from passing_game.rules import Rules
from passing_game.web.http.app import create_app
from passing_game.web.ratings.service import outcome_of
from passing_game.web.store import SeatRow, SqliteStore
from passing_game.web.table.runner import Timing
from site_helpers import Site, addressed
from web_helpers import Player, time_limit

#: The offline grace is one second here (the server's default is a minute).
FAST = Timing(offline_grace=1.0, summary_wait=1.5, idle_evict=30.0)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    made = SqliteStore(tmp_path / "rules.sqlite3")
    yield made
    made.close()


def site_of(store: SqliteStore, bot_delay: float = 0.0) -> Iterator[Site]:
    app = create_app(store, bot_delay=bot_delay, rate_limit=(1e6, 1e6), timing=FAST)
    with time_limit(120), TestClient(addressed(app)) as client:
        yield Site(client)


@pytest.fixture
def site(store: SqliteStore) -> Iterator[Site]:
    yield from site_of(store)


def state(player: Player, pred: Any = lambda f: True) -> dict[str, Any]:
    return player.until(lambda f: f["type"] == "state" and pred(f))


def now(player: Player, pred: Any) -> dict[str, Any]:
    """The latest state if it satisfies ``pred``, else the next one that does."""
    if player.state is not None and pred(player.state):
        return player.state
    return state(player, pred)


def error(player: Player) -> dict[str, Any]:
    return player.until(lambda f: f["type"] == "error")


def table(
    ana: Player, seats: list[str], rated: bool = False, clock: Any = None, **rules: Any
) -> dict[str, Any]:
    message: dict[str, Any] = {
        "type": "create",
        "name": "Ana",
        "seats": seats,
        "rules": {"players": len(seats), **rules},
        "rated": rated,
    }
    if clock is not None:
        message["clock"] = clock
    ana.send(**message)
    joined = ana.until(lambda f: f["type"] in ("joined", "error"))
    assert joined["type"] == "joined", joined
    return joined


def join(player: Player, code: str, name: str = "Ben", **extra: Any) -> dict[str, Any]:
    player.send(type="join", code=code, name=name, **extra)
    return player.until(lambda f: f["type"] in ("joined", "error"))


def each_moves_once(people: dict[int, Player]) -> None:
    """Every person makes one move of their own, in turn order."""
    frame = state(next(iter(people.values())), lambda f: f["started"])
    seat = frame["round"]["to_move"]
    for _ in people:
        mine = people[seat].my_turn()
        people[seat].act(mine["round"]["legal"][0])
        seat = (seat + 1) % len(people)


# -- point 2: a seat changes hands only after the grace --------------------------------


def test_a_blink_is_not_enough_to_hand_a_seat_over(site: Site) -> None:
    """Issue 22, point 2: the creator closes nothing but sees Ben's seat go offline
    and asks for a bot at once: refused; Ben comes back and plays on. Once Ben has
    been away for the offline grace (a stand-in plays), the hand-over is accepted."""
    site.sign_up("Ana")
    site.sign_up("Ben")
    with site.socket("Ana") as ana:
        code = table(ana, ["you", "person"], rated=True)["table"]
        with site.socket("Ben") as ben:
            assert join(ben, code)["type"] == "joined"
            state(ana, lambda f: f["started"] and f["seats"][1]["connected"])
        state(ana, lambda f: not f["seats"][1]["connected"])
        ana.send(type="hand_over", seat=1, level="easy")
        refused = error(ana)
        assert refused["code"] == "not-away" and refused["message"]
        ana.send(type="invite", seat=1)
        assert error(ana)["code"] == "not-away"
        with site.socket("Ben") as ben:  # back 0.3 s later, as in the report
            ben.send(type="resume", code=code, seat=1)
            back = ben.until(lambda f: f["type"] in ("joined", "error"))
            assert back["type"] == "joined" and back["seat"] == 1
            mine = state(ben, lambda f: f["you"] == 1)
            assert mine["seats"][1]["away"] is None and not mine["seats"][1]["standin"]
        stood = state(ana, lambda f: f["seats"][1]["absent"])
        assert stood["seats"][1]["standin"]
        ana.send(type="hand_over", seat=1, level="easy")
        handed = state(ana, lambda f: f["seats"][1]["kind"] == "bot")
        assert handed["seats"][1]["level"] == "easy"


def test_the_rating_of_an_absent_seat_is_the_same_handed_over_or_not() -> None:
    """Issue 22, point 2: "rating outcomes that a seat's opponent cannot choose for
    them". Ben, away at the end, loses whether Ana handed his seat to a bot or not."""
    rules = Rules(players=2)
    ana = SeatRow(0, "human", "Ana", user_id="a")
    away = outcome_of(
        rules, [ana, SeatRow(1, "human", "Ben", away="offline", user_id="b")], 1, [10, 61]
    )
    handed = outcome_of(
        rules, [ana, SeatRow(1, "bot", "easy", level="easy", user_id="b")], 1, [10, 61]
    )
    here = outcome_of(rules, [ana, SeatRow(1, "human", "Ben", user_id="b")], 1, [10, 61])
    assert away.ranks == handed.ranks == (1, 2)
    assert here.ranks == (2, 1)


# -- point 3: the clock is the table's ------------------------------------------------


def test_leaving_and_coming_back_keeps_the_turns_deadline(store: SqliteStore) -> None:
    """Issue 22, point 3: on your turn, ``leave`` then ``resume`` with your token, or
    close the tab and come back: the move's time keeps running from where it was,
    it never starts again."""
    for site in site_of(store, bot_delay=3.0):  # the stand-in waits: time to come back
        with site.socket(None) as ana:
            joined = table(ana, ["you", "person"], clock={"move": 6, "bank": 0})
            code, token = joined["table"], joined["token"]
            with site.socket(None) as ben:
                assert join(ben, code)["type"] == "joined"
                first = state(ana, lambda f: f["started"] and f["clock"]["seat"] is not None)
                mover = first["clock"]["seat"]
                player = {0: ana, 1: ben}[mover]
                mine = player.my_turn()
                before = mine["clock"]["remaining_ms"]
                time.sleep(1.2)
                player.send(type="leave")
                player.until(lambda f: f["type"] == "left")
                seat_token = token if mover == 0 else ben.joined["token"]  # type: ignore[index]
                with site.socket(None) as again:
                    again.send(type="resume", code=code, seat=mover, token=seat_token)
                    back = state(again, lambda f, mover=mover: not f["seats"][mover]["standin"])
                    assert back["clock"]["seat"] == mover
                    left = back["clock"]["remaining_ms"]
                    assert left <= before - 1000, (before, left)
                    assert back["round"]["legal"], "the person's own turn, still"


def test_leaving_at_the_deadline_and_coming_back_after_it_finds_the_time_gone(
    store: SqliteStore,
) -> None:
    """Issue 22, point 3, at the deadline: ``leave`` just before the move's time is up,
    ``resume`` just after: the person comes back to no time at all, and the clock
    makes the move for them (before, they came back to a whole new move time)."""
    for site in site_of(store, bot_delay=30.0):  # the stand-in never moves first
        with site.socket(None) as ana:
            joined = table(ana, ["you", "person"], clock={"move": 2, "bank": 0})
            code = joined["table"]
            with site.socket(None) as ben:
                assert join(ben, code)["type"] == "joined"
                first = state(ana, lambda f: f["started"] and f["clock"]["seat"] is not None)
                mover = first["clock"]["seat"]
                player = {0: ana, 1: ben}[mover]
                token = (joined if mover == 0 else ben.joined or {})["token"]
                mine = player.my_turn()
                time.sleep(max(0.0, mine["clock"]["remaining_ms"] / 1000 - 0.4))
                player.send(type="leave")
                player.until(lambda f: f["type"] == "left")
                time.sleep(0.8)  # the deadline passes while a stand-in holds the seat
                with site.socket(None) as again:
                    again.send(type="resume", code=code, seat=mover, token=token)
                    back = state(again, lambda f, mover=mover: not f["seats"][mover]["standin"])
                    timed_out = any(
                        t.get("auto") == "timeout" and t["seat"] == mover
                        for t in back["round"]["history"]
                    )
                    assert timed_out or back["clock"]["remaining_ms"] == 0, back["clock"]
                    made = now(
                        again,
                        lambda f, mover=mover: any(
                            t.get("auto") == "timeout" and t["seat"] == mover
                            for t in f["round"]["history"]
                        ),
                    )
                    assert made["round"]["to_move"] != mover or made["round"]["number"] > 1


# -- point 4: ratings cannot be farmed ------------------------------------------------


def test_a_game_nobody_moved_in_is_not_rated(site: Site, store: SqliteStore) -> None:
    """Issue 22, point 4: as lichess aborts it, a game in which a person never moved
    is not rated: resigning before any move changes no rating."""
    site.sign_up("Ana")
    site.sign_up("Ben")
    with site.socket("Ana") as ana, site.socket("Ben") as ben:
        code = table(ana, ["you", "person"], rated=True)["table"]
        assert join(ben, code)["type"] == "joined"
        state(ana, lambda f: f["started"])
        ben.send(type="resign")
        over = state(ana, lambda f: f["over"] and f.get("unrated") is not None)
        assert over["unrated"] == "aborted" and over["ratings"] is None
    with store.transaction() as tx:
        assert tx.one("SELECT COUNT(*) FROM web_rating_changes")[0] == 0  # type: ignore[index]
        assert tx.one("SELECT rating FROM web_games WHERE code = ?", (code,))[0] == "aborted"  # type: ignore[index]
    games = site.get("Ana", "/api/account/games").json()["games"]
    assert games[0]["rating"] is None


def test_one_account_holds_one_seat_of_a_rated_table(site: Site) -> None:
    """Issue 22, point 4: the creator invites the absent opponent's seat and opens
    the invitation with a second socket of her own account: refused; another account
    may not take a rated seat that is Ben's either; Ben himself may."""
    site.sign_up("Ana")
    site.sign_up("Ben")
    site.sign_up("Cai")
    with site.socket("Ana") as ana:
        code = table(ana, ["you", "person"], rated=True)["table"]
        with site.socket("Ben") as ben:
            assert join(ben, code)["type"] == "joined"
            each_moves_once({0: ana, 1: ben})
        state(ana, lambda f: f["seats"][1]["absent"])
        ana.send(type="invite", seat=1)
        invite = ana.until(lambda f: f["type"] == "invite")["link"].split("invite=")[1]
        with site.socket("Ana") as twin:
            refused = join(twin, code, invite=invite)
            assert refused["type"] == "error" and refused["code"] == "seat-taken"
        with site.socket("Cai") as cai:
            refused = join(cai, code, name="Cai", invite=invite)
            assert refused["type"] == "error" and refused["code"] == "not-your-seat"
        with site.socket("Ben") as ben:
            taken = join(ben, code, invite=invite)
            assert taken["type"] == "joined" and taken["seat"] == 1


def test_a_rematch_is_an_offer_each_person_accepts(site: Site) -> None:
    """Issue 22, point 4: after a game, "Rematch" no longer drops the other person
    into a new game: it is an offer; the new game starts once everyone accepted.
    Alone with bots, one click is everyone's yes."""
    with site.socket(None) as ana, site.socket(None) as ben:
        code = table(ana, ["you", "person"], target=1)["table"]
        assert join(ben, code)["type"] == "joined"
        import threading

        done: dict[str, Any] = {}
        other = threading.Thread(target=lambda: done.setdefault("ben", ben.play_out()))
        other.start()
        ana.play_out()
        other.join(60)
        ana.send(type="rematch")
        offered = state(ana, lambda f: f["seats"][0]["rematch"])
        assert offered["over"] and offered["game"] == 1 and offered["rematch_waiting"] == [1]
        seen = state(ben, lambda f: f["seats"][0]["rematch"])
        assert seen["over"] and seen["game"] == 1
        ben.send(type="rematch")
        again = state(ana, lambda f: f["game"] == 2)
        assert not again["over"] and not any(s["rematch"] for s in again["seats"])
    with site.socket(None) as solo:
        table(solo, ["you", "random"], target=1)
        solo.play_out()
        solo.send(type="rematch")
        assert state(solo, lambda f: f["game"] == 2)["game"] == 2


def test_hints_are_refused_where_they_would_be_help_against_a_person(site: Site) -> None:
    """Issue 22, point 4: no hint at a rated table or the daily deal; a spectator's
    hint gets an error frame (it was dropped without an answer); at a casual table
    with other people, everybody sees how many hints each took."""
    site.sign_up("Ana")
    site.sign_up("Ben")
    with site.socket("Ana") as ana, site.socket("Ben") as ben:
        code = table(ana, ["you", "person"], rated=True)["table"]
        assert join(ben, code)["type"] == "joined"
        frame = state(ana, lambda f: f["started"])
        mover = {0: ana, 1: ben}[frame["round"]["to_move"]]
        mover.my_turn()
        mover.send(type="hint")
        assert error(mover)["code"] == "no-hints"
    with site.socket("Ana") as ana:
        ana.send(type="daily")
        assert ana.until(lambda f: f["type"] in ("joined", "error"))["type"] == "joined"
        ana.my_turn()
        ana.send(type="hint")
        assert error(ana)["code"] == "no-hints"
    with site.socket(None) as cai, site.socket(None) as dee, site.socket(None) as eve:
        code = table(cai, ["you", "person"])["table"]
        assert join(dee, code, name="Dee")["type"] == "joined"
        eve.send(type="watch", code=code)
        state(eve)
        eve.send(type="hint")
        assert error(eve)["code"] == "spectator"
        frame = state(cai, lambda f: f["started"])
        seat = frame["round"]["to_move"]
        asker = {0: cai, 1: dee}[seat]
        asker.my_turn()
        asker.send(type="hint")
        assert asker.until(lambda f: f["type"] == "hint")["move"]
        for player in (cai, dee, eve):
            assert now(player, lambda f: f["seats"][seat]["hints"] == 1)


# -- names: guests marked, look-alikes refused ----------------------------------------


def test_a_guest_named_like_an_account_is_marked_as_a_guest(site: Site) -> None:
    """Issue 22, also measured: a guest named like an account looked exactly like it."""
    site.sign_up("Ana")
    with site.socket("Ana") as ana, site.socket(None) as guest:
        code = table(ana, ["you", "person"])["table"]
        assert join(guest, code, name="Ana")["type"] == "joined"
        seen = state(ana, lambda f: f["started"])
        assert [s["name"] for s in seen["seats"]] == ["Ana", "Ana"]
        assert [s["guest"] for s in seen["seats"]] == [False, True]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("Аna", "name-mixed-script"),  # a Cyrillic А
        ("ANA", "name-taken"),
        ("Ana\u3164", "name-invisible"),  # a Hangul filler
        ("\u2800\u2800\u2800", "name-invisible"),  # Braille blanks
        ("Hard bot", "name-reserved"),
        ("Deleted player", "name-reserved"),
        ("Conta eliminada", "name-reserved"),  # the Galician words for it
        ("Izbrisani račun", "name-reserved"),  # the Croatian ones
    ],
)
def test_names_that_pass_for_someone_else_are_refused(site: Site, name: str, code: str) -> None:
    """Issue 22, also measured: look-alike names were accepted at sign-up."""
    site.sign_up("Ana")
    site.jars["new"] = {}
    site.addresses["new"] = "192.0.2.77"
    made = site.post("new", "/api/account/signup", {"name": name, "password": "x" * 12})
    assert made.status_code == 400, made.text
    assert made.json()["code"] == code and made.json()["error"]


def test_a_look_alike_of_an_account_is_refused_at_sign_up(site: Site) -> None:
    """Issue 22, also measured: "lvan" next to "Ivan" (a capital I and a small l)."""
    site.sign_up("Ivan")
    site.jars["new"] = {}
    site.addresses["new"] = "192.0.2.78"
    made = site.post("new", "/api/account/signup", {"name": "lvan", "password": "x" * 12})
    assert made.status_code == 400 and made.json()["code"] == "name-confusable"


def test_a_guest_may_not_pass_for_a_bot(site: Site) -> None:
    """Issue 22, also measured: "Hard bot" as a guest's name at a table."""
    with site.socket(None) as ana, site.socket(None) as guest:
        code = table(ana, ["you", "person"])["table"]
        refused = join(guest, code, name="Hard  BOT")
        assert refused["type"] == "error" and refused["code"] == "name-reserved"
