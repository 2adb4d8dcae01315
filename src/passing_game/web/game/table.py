"""The table authority: one event and the time in, the effects out (P41).

``step(state, event, now)`` checks an event against the table's position
and returns what it does, as effects; it changes nothing. The runner
(``web/table/runner.py``) carries the effects out in the order the store
demands (check, store, apply, tell: P21), then asks ``settle`` what the
new position calls for (a timer, a bot to think, the game to finish).
The leader runs these two functions; a replica applies the leader's
stored effects with the same ``apply`` code; the tests call them with an
injected ``now``.

Events: a person's intent (``Act``), a bot's chosen move (``BotMove``),
a change of who is connected (``Presence``), the clock (``Tick``), an
account that may no longer play (``Suspend``).
"""

from __future__ import annotations

import hmac
from dataclasses import replace
from typing import Any

from passing_game.i18n import N_, _
from passing_game.moves import DRAW, PASS, Move, parse_move
from passing_game.web.game import clock, dealing, seats
from passing_game.web.game.errors import (
    HINT_ON_YOUR_TURN,
    NO_HINTS,
    NO_SUCH_SEAT,
    NOT_A_CHOICE,
    NOT_YOUR_SEAT,
    PLAYED_ONCE,
    SIGN_IN_RATED,
    SUSPENDED,
    UNKNOWN_REQUEST,
    ProtocolError,
)
from passing_game.web.game.events import (
    NOTHING,
    Act,
    AppendMove,
    Arm,
    BotMove,
    Broadcast,
    Dismiss,
    Effect,
    Event,
    Finish,
    NewGame,
    Resign,
    SaveSeat,
    SendAway,
    SetTimer,
    Step,
    Suspend,
    Think,
    Tick,
)
from passing_game.web.game.model import SeatRow, SeatState, TableState

#: The level of the bot that plays for a person who is away (P26).
STAND_IN_LEVEL = "medium"


#: Refusals this module sends from more than one place (each worded once).
GAME_OVER = N_("The game is over.")
NOT_STARTED = N_("The game starts when every seat is taken.")
HAVE_A_SEAT = N_("You already have a seat at this table.")


def bot_level(row: SeatRow) -> str:
    """The bot that plays this seat when a bot plays it: its own, or the stand-in."""
    if row.kind == "bot":
        return row.level or row.name
    return STAND_IN_LEVEL


# -- the authority --------------------------------------------------------------

#: The intents that may deal a new game: only they need fresh randomness (``Act.seed``).
DEALING = frozenset({"rematch"})


def step(state: TableState, event: Event, now: float) -> Step:
    """What ``event`` does to the table at ``now``; ``ProtocolError`` refuses it."""
    if isinstance(event, Act):
        return _act(state, event, now)
    if isinstance(event, BotMove):
        return _bot_move(state, event, now)
    if isinstance(event, Tick):
        return _tick(state, now)
    if isinstance(event, Suspend):
        return _suspend(state, event.seat)
    return Step((Broadcast(urgent=False),))


def settle(
    state: TableState, now: float, *, round_ended: bool = False, finished: bool = False
) -> list[Effect]:
    """What the position calls for after a change: the game's end, its timer,
    a bot to think, and when to wake next."""
    effects: list[Effect] = []
    if finished:
        effects.append(Finish())
    waits = dealing.settle(state, now)
    if waits:  # the deal waits, or is made now (the runner settles the game it deals)
        return [*effects, *waits]
    timer = clock.wanted(state, now, round_ended=round_ended)
    if timer != state.timer:
        effects.append(SetTimer(timer))
        state = replace(state, timer=timer)
    seat = seats.bot_to_move(state)
    if seat is not None and not state.thinking:
        held = state.seats[seat]
        by = "stand-in" if held.stand_in else None
        effects.append(Think(seat, bot_level(held.row), state.seq, by))
        state = replace(state, thinking=True)
    effects.append(Arm(clock.next_wake(state, now)))
    return effects


# -- a person's intents ---------------------------------------------------------


def _act(state: TableState, act: Act, now: float) -> Step:
    if act.kind == "join":
        return _join(state, act)
    seat = act.seat
    if seat is None:
        raise ProtocolError(_("Spectators cannot play."), "spectator")
    handler = _INTENTS.get(act.kind)
    if handler is None:
        raise ProtocolError(_(UNKNOWN_REQUEST).format(type=act.kind))
    return handler(state, seat, act, now)


def _move_of(act: Act) -> Move:
    if act.kind == "play":
        return parse_move(act.fields["move"])
    return DRAW if act.kind == "draw" else PASS


def _play(state: TableState, seat: int, act: Act, now: float) -> Step:
    held = state.seats[seat]
    if held.stand_in:
        raise ProtocolError(_("A stand-in plays for you: take your seat back first."), "stand-in")
    back: tuple[Effect, ...] = ()
    if held.paused:  # the person the table waited for is back, and moves
        back = (SaveSeat(seat, {"away": None}),)
        state = _with_row(state, seat, away=None)
    return Step(back + _move(state, seat, _move_of(act), None, now))


def _move(
    state: TableState, seat: int, move: Move, played_by: str | None, now: float
) -> tuple[Effect, ...]:
    """Check a move for ``seat``; its effects (stored, then applied)."""
    m = state.match
    if m.is_over:
        raise ProtocolError(_(GAME_OVER), "game-over")
    if not state.started:
        raise ProtocolError(_(NOT_STARTED), "not-started")
    dealing.check_dealt(state)
    if seats.waiting(state):
        raise ProtocolError(_("The table waits while the round's result is read."), "summary-open")
    if m.round.to_move != seat:
        raise ProtocolError(_("It is not your turn."), "not-your-turn")
    reason = m.round.why_illegal(move)
    if reason is not None:
        raise ProtocolError(reason, "illegal")
    effects: list[Effect] = [AppendMove(state.seq + 1, move, played_by)]
    changes = clock.move_changes(state, state.seats[seat], played_by, now)
    if changes:
        effects.append(SaveSeat(seat, changes))
    return tuple(effects)


def _continue(state: TableState, seat: int, act: Act, now: float) -> Step:
    """A person closed the last round's summary: the table may go on without them."""
    done = state.results_count
    if state.seats[seat].row.seen >= done:
        return NOTHING
    return Step((SaveSeat(seat, {"seen": done}), Broadcast()))


def _rematch(state: TableState, seat: int, act: Act, now: float) -> Step:
    """``seat`` offers (or accepts) a rematch; it starts once everyone needed said yes."""
    if not state.over:
        raise ProtocolError(_("A rematch starts once the game is over."), "not-over")
    once = PLAYED_ONCE.get(state.origin)
    if once is not None:
        raise ProtocolError(_(once[0]), once[1])
    effects: list[Effect] = []
    if not state.seats[seat].row.rematch:
        effects.append(SaveSeat(seat, {"rematch": True}))
        state = _with_row(state, seat, rematch=True)
    if not seats.rematch_waiting(state, now):
        effects.append(NewGame(state.game + 1, act.seed))
        for held in state.seats:
            row = held.row
            if held.is_person and (
                row.bank is not None or row.seen or row.timeouts or row.rematch or row.hints
            ):
                reset = {"bank": None, "seen": 0, "timeouts": 0, "rematch": False, "hints": 0}
                effects.append(SaveSeat(held.seat, reset))
    effects.append(Broadcast())
    return Step(tuple(effects))


def _hint(state: TableState, seat: int, act: Act, now: float) -> Step:
    """A person asks for a hint (worked out where they are connected). Never at a
    rated table or the daily deal; with other people, everybody sees the count."""
    if state.rated:
        raise ProtocolError(_("Hints are not given at rated tables."), "no-hints")
    if state.origin in NO_HINTS:
        raise ProtocolError(_(NO_HINTS[state.origin]), "no-hints")
    if state.over or state.match.round.to_move != seat or not state.playing:
        raise ProtocolError(_(HINT_ON_YOUR_TURN), "not-your-turn")
    if seats.alone(state, seat):
        return NOTHING
    hints = state.seats[seat].row.hints + 1
    return Step((SaveSeat(seat, {"hints": hints}), Broadcast()))


def _leave(state: TableState, seat: int, act: Act, now: float) -> Step:
    """Before the game the seat opens; during it a stand-in plays, or, for a
    person alone with bots, the game is adjourned until they are back (P41)."""
    held = state.seats[seat]
    effects: list[Effect] = []
    keep = False
    if not state.started:
        effects.append(SaveSeat(seat, {"kind": "open", "name": "", "token_hash": None}))
    elif not state.over and held.row.away is None:
        keep = seats.alone(state, seat)
        effects.append(SaveSeat(seat, {"away": "paused" if keep else "left"}))
    elif held.paused:
        keep = True
    effects += [SendAway(seat, keep), Broadcast()]
    return Step(tuple(effects))


def _back(state: TableState, seat: int, act: Act, now: float) -> Step:
    """The person is back: the stand-in stops, or the table goes on (P41)."""
    if not seats.can_come_back(state, seat):
        return NOTHING
    return Step((SaveSeat(seat, {"away": None, "timeouts": 0}), Broadcast()))


def _resign(state: TableState, seat: int, act: Act, now: float) -> Step:
    if state.rules.players != 2:
        raise ProtocolError(_("Only a two-player game can be resigned."), "no-resign")
    if state.over:
        raise ProtocolError(_(GAME_OVER), "game-over")
    if not state.playing:
        raise ProtocolError(_(NOT_STARTED), "not-started")
    return Step((Resign(seat), Broadcast()))


def _check_creator(state: TableState, seat: int) -> None:
    if state.creator is None or seat != state.creator:
        raise ProtocolError(_("Only the person who created the table can do that."), "not-creator")


def _absent(state: TableState, target: int, creator: int, now: float) -> SeatState:
    """The seat the creator acts on: another person's, gone for the offline grace."""
    if not 0 <= target < len(state.seats) or target == creator:
        raise _no_seat(target)
    held = state.seats[target]
    if held.kind == "bot":
        raise ProtocolError(_("A bot already plays that seat."), "seat-taken")
    if held.is_person and held.online and held.row.away is None:
        raise ProtocolError(_("That person is at the table."), "seat-taken")
    if not seats.gone_for_now(state, held, now):
        raise ProtocolError(
            _("That person may still come back: wait until a stand-in plays their seat."),
            "not-away",
        )
    return held


def _invite(state: TableState, seat: int, act: Act, now: float) -> Step:
    """A new one-time invitation to an absent person's seat; the old token stops working."""
    _check_creator(state, seat)
    target = int(act.fields["seat"])
    held = _absent(state, target, seat, now)
    if not held.is_person:
        raise ProtocolError(_("An open seat is taken with the table's link."), "seat-open")
    away = "invited" if state.started and not state.over else held.row.away
    changes = {"token_hash": None, "invite_hash": act.fields["invite_hash"], "away": away}
    return Step(
        (
            SaveSeat(target, changes),
            Dismiss(target, NOT_YOUR_SEAT, "bad-token"),
            Broadcast(),
        )
    )


def _hand_over(state: TableState, seat: int, act: Act, now: float) -> Step:
    """The creator gives an absent person's (or an open) seat to a bot for good."""
    _check_creator(state, seat)
    target = int(act.fields["seat"])
    _absent(state, target, seat, now)
    level = str(act.fields["level"])
    choices = act.fields.get("levels")
    if choices is not None and level not in choices:
        raise ProtocolError(
            _(NOT_A_CHOICE).format(choices=", ".join(act.fields.get("shown", choices)))
        )
    changes = {
        "kind": "bot",
        "name": level,
        "level": level,
        "token_hash": None,
        "invite_hash": None,
        "away": None,
        "timeouts": 0,
    }
    return Step(
        (
            SaveSeat(target, changes),
            Dismiss(target, NOT_YOUR_SEAT, "bad-token"),
            Broadcast(),
        )
    )


_INTENTS = {
    "play": _play,
    "draw": _play,
    "pass": _play,
    "continue": _continue,
    "rematch": _rematch,
    "hint": _hint,
    "leave": _leave,
    "back": _back,
    "resign": _resign,
    "invite": _invite,
    "hand_over": _hand_over,
    "contribute": dealing.contribute,
}


def _no_seat(seat: int) -> ProtocolError:
    return ProtocolError(_(NO_SUCH_SEAT).format(seat=seat + 1), "bad-seat")


# -- taking a seat ----------------------------------------------------------------


def _join(state: TableState, act: Act) -> Step:
    f = act.fields
    user_id = f.get("user_id")
    name = str(f.get("user_name") or f["name"])
    invite = f.get("invite_hash")
    if invite:
        return _claim_invite(state, str(invite), name, str(f["token_hash"]), user_id)
    return _claim(state, f.get("seat"), name, str(f["token_hash"]), user_id)


def _claim(
    state: TableState, seat: int | None, name: str, token_hash: str, user_id: str | None
) -> Step:
    """A person takes an open seat with the token whose hash is given."""
    if state.rated and user_id is None:
        raise ProtocolError(_(SIGN_IN_RATED), "signed-out")
    if user_id is not None and any(s.row.user_id == user_id for s in state.seats):
        raise ProtocolError(_(HAVE_A_SEAT), "seat-taken")
    if seat is None:
        seat = next((s.seat for s in state.seats if s.kind == "open"), None)
        if seat is None:
            raise ProtocolError(_("This table is full; you can watch it."), "table-full")
    if not 0 <= seat < len(state.seats):
        raise _no_seat(seat)
    if state.seats[seat].kind != "open":
        raise ProtocolError(_("That seat is taken."), "seat-taken")
    changes = {
        "kind": "human",
        "name": name,
        "level": None,
        "token_hash": token_hash,
        "user_id": user_id,
    }
    return Step((SaveSeat(seat, changes), Broadcast()), {"seat": seat})


def _claim_invite(
    state: TableState, invite_hash: str, name: str, token_hash: str, user_id: str | None
) -> Step:
    """Whoever opens a seat's invitation gets the seat; the invitation is then used up."""
    for held in state.seats:
        kept = held.row.invite_hash
        if kept is None or not hmac.compare_digest(kept, invite_hash):
            continue
        if state.rated and user_id is None:
            raise ProtocolError(_(SIGN_IN_RATED), "signed-out")
        if user_id is not None and any(
            s.row.user_id == user_id for s in state.seats if s is not held
        ):
            raise ProtocolError(_(HAVE_A_SEAT), "seat-taken")
        owner = held.row.user_id
        if state.rated and owner is not None and owner != user_id:
            # A rated seat stays its account's: nobody else finishes its game.
            raise ProtocolError(
                _("This invitation is for the account that holds the seat."), "not-your-seat"
            )
        changes = {
            "name": name,
            "token_hash": token_hash,
            "invite_hash": None,
            "away": None,
            "timeouts": 0,
            "user_id": user_id,
        }
        return Step(
            (
                SaveSeat(held.seat, changes),
                Dismiss(held.seat, NOT_YOUR_SEAT, "bad-token"),
                Broadcast(),
            ),
            {"seat": held.seat},
        )
    raise ProtocolError(_("This invitation is not valid: it was used or replaced."), "bad-invite")


# -- bots, the clock, accounts --------------------------------------------------------


def _bot_move(state: TableState, event: BotMove, now: float) -> Step:
    """A bot's chosen move: dropped if the table moved on since it was asked."""
    if event.at != state.seq:
        return NOTHING
    if event.played_by == "timeout":
        timer = state.timer
        if (
            timer is None
            or timer.kind != "move"
            or timer.seat != event.seat
            or timer.seq != state.seq
            or state.over
        ):
            return NOTHING
    elif seats.bot_to_move(state) != event.seat:
        return NOTHING
    return Step(_move(state, event.seat, event.move, event.played_by, now))


def _tick(state: TableState, now: float) -> Step:
    """Do what is due: stand-ins (or the pause) for people gone too long, the
    summary's end, a move for a person out of time (or the pause), the deal."""
    effects: list[Effect] = dealing.due(state, now)
    for held in seats.offline_due(state, now):
        pause = seats.alone(state, held.seat)
        effects.append(SaveSeat(held.seat, {"away": "paused" if pause else "offline"}))
    timer = state.timer
    if timer is not None and now >= timer.end:
        if timer.kind == "summary":
            effects.append(SetTimer(None))
        elif (
            timer.seq == state.seq
            and timer.seat is not None
            and not clock.stood_in(state, timer)
            and not state.thinking
            and not state.over
            and state.match.round.to_move == timer.seat
            and not seats.waiting(state)
        ):
            if seats.alone(state, timer.seat):
                # Nobody else is kept waiting: the game is adjourned (P41).
                effects += [SaveSeat(timer.seat, {"away": "paused"}), SetTimer(None)]
            else:
                # The stand-in's level makes the one move of a person out of time.
                effects.append(Think(timer.seat, STAND_IN_LEVEL, state.seq, "timeout", delay=False))
    if not state.started and any(0 <= now - g < 2.0 for g in seats.graces(state)):
        effects.append(Broadcast())  # a grace just ended: the creator's tools show
    elif any(isinstance(e, SaveSeat | SetTimer) for e in effects):
        effects.append(Broadcast())
    return Step(tuple(effects))


def _suspend(state: TableState, seat: int) -> Step:
    held = state.seats[seat]
    if held.row.away == "suspended" or not held.is_person:
        return NOTHING
    return Step(
        (
            SaveSeat(seat, {"away": "suspended"}),
            Dismiss(seat, SUSPENDED, "suspended", all=True),
            Broadcast(),
        )
    )


def _with_row(state: TableState, seat: int, **changes: Any) -> TableState:
    """``state`` with one seat's row changed (to decide what follows from it)."""
    held = state.seats[seat]
    row = replace(held.row, **changes)
    new = tuple(replace(s, row=row) if s.seat == seat else s for s in state.seats)
    return replace(state, seats=new)
