"""The pure table authority (``web/game/``, docs/DECISIONS.md P41): events in,
effects out, with the time injected. No sleep, no database, no socket."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from passing_game.match import Match
from passing_game.moves import PASS
from passing_game.rules import Rules
from passing_game.web.game import clock, events, seats
from passing_game.web.game import table as authority
from passing_game.web.game.errors import ProtocolError
from passing_game.web.game.model import Clock, SeatRow, SeatState, TableState, Timer, Timing

GAME = Path(__file__).resolve().parents[1] / "src" / "passing_game" / "web" / "game"
NOW = 1_000_000.0
TIMING = Timing(offline_grace=60.0, summary_wait=45.0)


def table(
    kinds: tuple[str, ...] = ("human", "bot"),
    *,
    online: tuple[bool, ...] | None = None,
    since: tuple[float | None, ...] | None = None,
    clock_: Clock | None = None,
    seed: int = 7,
    **fields: Any,
) -> TableState:
    """A table of ``kinds`` at its first position (seat 0 is Ana's)."""
    rows = []
    for seat, kind in enumerate(kinds):
        if kind == "bot":
            rows.append(SeatRow(seat, "bot", "greedy", "greedy"))
        elif kind == "open":
            rows.append(SeatRow(seat, "open", ""))
        else:
            rows.append(SeatRow(seat, "human", ["Ana", "Ben", "Cai", "Dora"][seat], token_hash="t"))
    here = online if online is not None else tuple(k == "human" for k in kinds)
    gone = since if since is not None else tuple(None for _ in kinds)
    states = tuple(SeatState(row, here[i], gone[i]) for i, row in enumerate(rows))
    match = Match(Rules(players=len(kinds)), seed)
    base = TableState(
        code="ABCDEF",
        rules=match.rules,
        seats=states,
        match=match,
        game=1,
        seed=seed,
        seq=0,
        clock=clock_,
        creator=0,
        timing=TIMING,
    )
    return replace(base, **fields)


def to_move_at(seat: int, kinds: tuple[str, ...] = ("human", "bot"), **kw: Any) -> TableState:
    """A table whose first mover is ``seat`` (a seed that deals it so)."""
    for seed in range(200):
        state = table(kinds, seed=seed, **kw)
        if state.match.round.to_move == seat:
            return state
    raise AssertionError("no seed deals that leader")


def of(kind: type, effects: Any) -> list[Any]:
    return [e for e in effects if isinstance(e, kind)]


def with_row(state: TableState, seat: int, **changes: Any) -> TableState:
    held = state.seats[seat]
    new = replace(held, row=replace(held.row, **changes))
    return replace(state, seats=tuple(new if s.seat == seat else s for s in state.seats))


def with_presence(state: TableState, seat: int, online: bool, since: float | None) -> TableState:
    held = replace(state.seats[seat], online=online, offline_since=since)
    return replace(state, seats=tuple(held if s.seat == seat else s for s in state.seats))


# -- the package is pure -----------------------------------------------------------

FORBIDDEN = {"asyncio", "threading", "time", "sqlite3", "psycopg", "starlette", "socket"}


def test_the_authority_imports_only_the_core_and_itself() -> None:
    """P41: ``web/game/`` imports the rules core and itself, never asyncio,
    threads, the time of day, SQL or the web framework (as the core's own
    layer test, ``test_core_imports``, says for the core)."""
    found: dict[str, set[str]] = {}
    for path in sorted(GAME.glob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
        found[path.name] = names
    assert "table.py" in found and "clock.py" in found
    for name, names in found.items():
        for module in names:
            top = module.split(".")[0]
            assert top not in FORBIDDEN, f"web/game/{name} imports {module}"
            if module.startswith("passing_game.web"):
                assert module.startswith("passing_game.web.game"), (
                    f"web/game/{name} imports {module}"
                )
            assert not module.startswith(("passing_game.bots", "passing_game.arena")), module


# -- P41: a person alone with bots pauses the table ------------------------------------


def test_p41_a_person_alone_with_bots_who_goes_offline_pauses_the_table() -> None:
    state = table(online=(False, False), since=(NOW, None))
    assert of(events.SaveSeat, authority.step(state, events.Tick(), NOW + 59).effects) == []
    done = authority.step(state, events.Tick(), NOW + 60)
    assert of(events.SaveSeat, done.effects) == [events.SaveSeat(0, {"away": "paused"})]
    paused = with_row(state, 0, away="paused")
    assert seats.paused_for(paused) == 0
    assert seats.bot_to_move(paused) is None, "no bot plays while the table waits"
    assert not paused.seats[0].stand_in


def test_p41_with_another_person_an_offline_person_gets_a_stand_in() -> None:
    state = table(("human", "human"), online=(False, True), since=(NOW, None))
    done = authority.step(state, events.Tick(), NOW + 60)
    assert of(events.SaveSeat, done.effects) == [events.SaveSeat(0, {"away": "offline"})]
    assert with_row(state, 0, away="offline").seats[0].stand_in


def test_p41_alone_with_bots_a_clock_that_runs_out_adjourns_the_game() -> None:
    state = to_move_at(0, clock_=Clock(20, 40))
    timer = clock.wanted(state, NOW)
    assert timer == Timer("move", 0, NOW, NOW + 60, 0)
    state = replace(state, timer=timer)
    assert seats.adjourns(state, 0), "the page asks: are you still there?"
    done = authority.step(state, events.Tick(), NOW + 60)
    assert of(events.Think, done.effects) == [], "no bot moves for the person"
    assert events.SaveSeat(0, {"away": "paused"}) in done.effects
    assert events.SetTimer(None) in done.effects
    adjourned = with_row(replace(state, timer=None), 0, away="paused")
    assert clock.wanted(adjourned, NOW + 61) is None
    # Coming back resumes it: the person's turn, with the bank they had.
    back = authority.step(adjourned, events.Act(0, "back"), NOW + 500)
    assert events.SaveSeat(0, {"away": None, "timeouts": 0}) in back.effects
    resumed = with_row(adjourned, 0, away=None)
    assert clock.wanted(resumed, NOW + 500) == Timer("move", 0, NOW + 500, NOW + 560, 0)


def test_p41_with_another_person_a_clock_that_runs_out_plays_one_move() -> None:
    state = to_move_at(0, ("human", "human"), clock_=Clock(20, 40))
    state = replace(state, timer=clock.wanted(state, NOW))
    done = authority.step(state, events.Tick(), NOW + 60)
    assert of(events.Think, done.effects) == [
        events.Think(0, authority.STAND_IN_LEVEL, 0, "timeout", delay=False)
    ]
    # While that move is chosen, the expired timer is not due again.
    assert clock.next_wake(replace(state, thinking=True), NOW + 61) is None


def test_p41_leaving_alone_adjourns_and_keeps_the_seat_leaving_others_gets_a_stand_in() -> None:
    alone = table()
    done = authority.step(alone, events.Act(0, "leave"), NOW)
    assert events.SaveSeat(0, {"away": "paused"}) in done.effects
    assert events.SendAway(0, keep=True) in done.effects
    others = table(("human", "human"))
    done = authority.step(others, events.Act(0, "leave"), NOW)
    assert events.SaveSeat(0, {"away": "left"}) in done.effects
    assert events.SendAway(0, keep=False) in done.effects


def test_p65_at_a_tournaments_table_a_person_alone_with_bots_gets_a_stand_in() -> None:
    """A tournament waits for its games' results: offline, out of time or gone, a
    person alone with bots is stood in for and the game ends (their forfeit, P54),
    never adjourned."""
    gone = table(online=(False, False), since=(NOW, None), origin="tournament")
    assert not seats.alone(gone, 0)
    done = authority.step(gone, events.Tick(), NOW + 60)
    assert of(events.SaveSeat, done.effects) == [events.SaveSeat(0, {"away": "offline"})]
    left = authority.step(table(origin="tournament"), events.Act(0, "leave"), NOW)
    assert events.SaveSeat(0, {"away": "left"}) in left.effects
    assert events.SendAway(0, keep=False) in left.effects
    late = to_move_at(0, clock_=Clock(20, 40), origin="tournament")
    late = replace(late, timer=clock.wanted(late, NOW))
    assert not seats.adjourns(late, 0)
    done = authority.step(late, events.Tick(), NOW + 60)
    assert of(events.Think, done.effects) == [
        events.Think(0, authority.STAND_IN_LEVEL, 0, "timeout", delay=False)
    ]


def test_p41_a_move_of_the_person_the_table_waited_for_takes_the_seat_back() -> None:
    state = with_row(to_move_at(0), 0, away="paused")
    legal = state.match.round.legal_moves()[0]
    done = authority.step(
        state, events.Act(0, "play" if legal is not PASS else "pass", {"move": str(legal)}), NOW
    )
    assert done.effects[0] == events.SaveSeat(0, {"away": None})
    assert isinstance(done.effects[1], events.AppendMove)


# -- P41: the bank is for people who are there -----------------------------------------


def test_p41_an_offline_person_gets_the_move_time_and_keeps_their_bank() -> None:
    state = to_move_at(0, ("human", "human"), clock_=Clock(20, 40))
    offline = with_presence(state, 0, False, NOW - 5)
    timer = clock.wanted(offline, NOW)
    assert timer == Timer("move", 0, NOW, NOW + 20, 0), "the move time, not the bank"
    offline = replace(offline, timer=timer)
    # Time runs out while offline: one move for them, and the bank is untouched.
    changes = clock.move_changes(offline, offline.seats[0], "timeout", NOW + 20.05)
    assert "bank" not in changes and changes["timeouts"] == 1, "late by a blink: still no bank"
    # Back during the same turn: the same start, and the bank again.
    back = with_presence(offline, 0, True, None)
    assert clock.wanted(back, NOW + 10) == Timer("move", 0, NOW, NOW + 60, 0)


def test_p41_a_person_who_is_there_spends_the_bank_then_times_out() -> None:
    state = to_move_at(0, ("human", "human"), clock_=Clock(20, 40))
    state = replace(state, timer=clock.wanted(state, NOW))
    assert clock.move_changes(state, state.seats[0], None, NOW + 30) == {"bank": 30.0}
    spent = clock.move_changes(state, state.seats[0], "timeout", NOW + 60)
    assert spent == {"bank": 0.0, "timeouts": 1}
    twice = with_row(state, 0, timeouts=1)
    assert clock.move_changes(twice, twice.seats[0], "timeout", NOW + 60)["away"] == "timeout"


def test_p41_bot_seats_have_no_clock_and_the_clock_shows_the_move_time_first() -> None:
    state = to_move_at(1, clock_=Clock(20, 40))
    assert clock.wanted(state, NOW) is None, "a bot's turn runs no clock"
    shown = clock.data(state, NOW)
    assert shown is not None and shown["banks"] == [40, None]
    mine = to_move_at(0, clock_=Clock(20, 40))
    mine = replace(mine, timer=clock.wanted(mine, NOW))
    shown = clock.data(mine, NOW + 5)
    assert shown is not None
    assert shown["move_ms"] == 15_000 and shown["remaining_ms"] == 55_000


def test_issue22_a_turns_deadline_is_kept_through_leaving_and_coming_back() -> None:
    """Issue 22's rule, now the authority's: leaving and coming back, or a
    stand-in in between, never begins a turn's clock again."""
    state = to_move_at(0, ("human", "human"), clock_=Clock(20, 40))
    state = replace(state, timer=clock.wanted(state, NOW))
    away = with_row(state, 0, away="left")
    assert clock.wanted(away, NOW + 30) == state.timer
    back = with_row(away, 0, away=None)
    assert clock.wanted(back, NOW + 50) == state.timer


# -- the game's end ---------------------------------------------------------------


def test_p41_a_finished_game_offers_no_seat_back() -> None:
    state = table(("human", "human"))
    state.match.resign(1)
    left = with_row(state, 1, away="left")
    assert not seats.can_come_back(left, 1)
    assert authority.step(left, events.Act(1, "back"), NOW) == events.NOTHING
    playing = with_row(table(("human", "human")), 1, away="left")
    assert seats.can_come_back(playing, 1)


def test_p41_a_resigned_game_is_finished_and_its_summary_is_of_its_end() -> None:
    from passing_game.web.table import frames

    state = table(("human", "human"))
    done = authority.step(state, events.Act(0, "resign"), NOW)
    assert events.Resign(0) in done.effects
    state.match.resign(0)
    assert events.Finish() in authority.settle(state, NOW, finished=True)
    frame = frames.state_frame(
        state.match,
        1,
        code="ABCDEF",
        state=1,
        game=1,
        seat_rows=[{"name": "Ana"}, {"name": "Ben"}],
        started=True,
        paused=False,
        waiting=[],
    )
    summary = frame["summary"]
    assert summary["reason"] == "resigned" and summary["round"] == 1
    assert "resigned in round 1" in summary["reason_text"]
    assert len(summary["hands"]) == 2 and all(summary["hands"])


def test_p41_a_round_ending_move_credits_the_stand_in_in_the_summary() -> None:
    from passing_game.web.table import frames
    from passing_game.words import Seats

    match = Match(Rules(players=2, target=500), 3)
    while not match.results:
        match.play(match.legal_moves()[0])
    seats_ = Seats(match.rules, ("Ana", "Ben"), human=None)
    shown = frames.summary(match.results[0], 1, seats_, ended_by="stand-in")
    assert shown["reason_text"].endswith("A stand-in bot made this move.")
    assert not frames.summary(match.results[0], 1, seats_)["reason_text"].endswith("move.")


# -- the summary's wait ---------------------------------------------------------------


def test_the_summary_waits_for_the_people_here_and_holds_the_bots() -> None:
    state = table(("human", "human", "bot"))
    timer = clock.wanted(replace(state, match=state.match), NOW, round_ended=True)
    assert timer is None, "no finished round yet"
    match = state.match
    while not match.results:
        match.play(match.legal_moves()[0])
    ended = replace(state, seq=len(match.rounds[0].moves))
    timer = clock.wanted(ended, NOW, round_ended=True)
    assert timer == Timer("summary", ended.seq, NOW, NOW + 45.0)
    reading = replace(ended, timer=timer)
    assert seats.waiting(reading) == [0, 1]
    assert seats.bot_to_move(reading) is None
    one_read = with_row(reading, 0, seen=1)
    assert seats.waiting(one_read) == [1]
    both = with_row(one_read, 1, seen=1)
    assert clock.wanted(both, NOW + 1) != timer, "nobody reads any more: the summary closes"


# -- refusals leave the table as it was --------------------------------------------------


@pytest.mark.parametrize(
    ("act", "code"),
    [
        (events.Act(None, "pass"), "spectator"),
        (events.Act(1, "pass"), "not-your-turn"),
        (events.Act(0, "rematch"), "not-over"),
        (events.Act(0, "invite", {"seat": 0, "invite_hash": "x"}), "bad-seat"),
        (events.Act(1, "hand_over", {"seat": 0, "level": "easy"}), "not-creator"),
        (events.Act(0, "nonsense"), "bad-request"),
    ],
)
def test_a_refused_intent_has_no_effects(act: events.Act, code: str) -> None:
    state = to_move_at(0, ("human", "human"))
    before = (state.seq, state.match.round.to_move, state.seats)
    with pytest.raises(ProtocolError) as refused:
        authority.step(state, act, NOW)
    assert refused.value.code == code
    assert (state.seq, state.match.round.to_move, state.seats) == before


def test_a_bot_move_for_a_position_that_moved_on_is_dropped() -> None:
    state = to_move_at(1)
    move = state.match.round.legal_moves()[0]
    assert authority.step(state, events.BotMove(1, 5, move), NOW) == events.NOTHING
    taken = authority.step(state, events.BotMove(1, 0, move), NOW)
    assert taken.effects == (events.AppendMove(1, move, None),)
    assert of(events.Think, authority.settle(state, NOW)) == [events.Think(1, "greedy", 0, None)]


def test_hints_are_counted_only_in_front_of_other_people() -> None:
    alone = to_move_at(0)
    assert authority.step(alone, events.Act(0, "hint"), NOW) == events.NOTHING
    others = to_move_at(0, ("human", "human"))
    assert (
        events.SaveSeat(0, {"hints": 1})
        in authority.step(others, events.Act(0, "hint"), NOW).effects
    )
    with pytest.raises(ProtocolError):
        authority.step(replace(others, rated=True), events.Act(0, "hint"), NOW)
