"""A tournament's life in the store (issue 26, item 1; docs/DECISIONS.md P54).

Each function is one transaction, blocking (the service runs it in a store
thread, ``AsyncStore.run``); ``advance`` holds the tournaments' lock
(``store.tournaments.lock``) while it reads the games and makes the next
tables, so any number of processes may call it at once and nobody is
seated twice. Nothing is kept in a process: a tournament is its rows and
its tables' games, so a process killed mid-tournament loses nothing, and
the next call of ``advance`` from any process goes on from the store.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import asdict, replace
from typing import Any

from passing_game.fairness import Fairness
from passing_game.i18n import _, ngettext
from passing_game.rules import Rules
from passing_game.web.protocol import CLOCK_PRESETS, random_code
from passing_game.web.ratings.model import left_seats
from passing_game.web.reputation import MOST_GAMES, reputation_of
from passing_game.web.store import NewTable, SeatRow, Store, Tx
from passing_game.web.store import history as history_rows
from passing_game.web.store import tables as table_rows
from passing_game.web.store import tournaments as rows
from passing_game.web.table.fairness import awaiting
from passing_game.web.table.frames import seat_name
from passing_game.web.tournament import pairing, parts
from passing_game.web.tournament.model import (
    BOT_PREFIX,
    Entry,
    Event,
    Game,
    Standing,
    TournamentError,
    bot_entries,
    is_bot,
    standings,
)

#: The level of the bots that fill a short table (a duplicate's, four a table).
BOT_LEVEL = "medium"
#: A tournament table's code's origin (``web_tables.origin``).
ORIGIN = "tournament"
#: Settings a creator may give, with their types (``Event``'s fields).
SETTINGS: Mapping[str, type] = {
    "kind": str,
    "name": str,
    "size": int,
    "rounds": int,
    "minutes": int,
    "clock": str,
    "starts": float,
    "rated": bool,
    "min_finished": float,
    "target": int,
    "bots": int,
    "bot_level": str,
}


def event_of(row: rows.TournamentRow) -> Event:
    return Event(**row.settings)


def parse_settings(given: object, *, creator: str, now: float, public: bool = False) -> Event:
    """A new tournament's settings from what a creator sent (``TournamentError``
    naming the first thing wrong). Its secret seed is drawn here."""
    if not isinstance(given, Mapping):
        raise TournamentError(_("A tournament's settings are an object of named values."))
    unknown = sorted(set(given) - set(SETTINGS))
    if unknown:
        raise TournamentError(_("Unknown setting: {name}.").format(name=unknown[0]))
    fields: dict[str, Any] = {}
    for name, kind in SETTINGS.items():
        if name not in given:
            continue
        value = given[name]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise TournamentError(_("The setting {name} has the wrong type.").format(name=name))
        fields[name] = value
    name = str(fields.get("name", "")).strip()
    if not 1 <= len(name) <= 60:
        raise TournamentError(_("A tournament needs a name of 1 to 60 characters."))
    if fields.get("clock", "45") not in CLOCK_PRESETS:
        raise TournamentError(
            _("A tournament's clock is one of {choices}.").format(choices=", ".join(CLOCK_PRESETS))
        )
    starts = fields.get("starts", now)
    if not now - 60 <= starts <= now + 30 * 86400:
        raise TournamentError(_("A tournament starts now or within 30 days."))
    fields.update(name=name, starts=max(starts, now), public=public, creator=creator)
    fields["id"] = secrets.token_urlsafe(9)
    fields["seed"] = secrets.randbits(62)
    fields["secret"] = secrets.token_hex(32)
    return Event(**fields)


#: Tournaments one account may have not finished at once (a moderator's are not counted).
MOST_OPEN = 3
#: A tournament that never got two people this long after its start is called off.
CALLED_OFF_AFTER = 86400.0


def create(store: Store, event: Event, now: float) -> None:
    """Keep a new tournament; ``TournamentError`` if its creator has ``MOST_OPEN`` already."""
    with store.transaction() as tx:
        rows.lock(tx)
        if not event.public and rows.open_by(tx, event.creator) >= MOST_OPEN:
            raise TournamentError(
                ngettext(
                    "You have {n} tournament that is not over yet: finish it first.",
                    "You have {n} tournaments that are not over yet: finish them first.",
                    MOST_OPEN,
                ).format(n=MOST_OPEN)
            )
        rows.insert(tx, event.id, asdict(event), now)


def _load(tx: Tx, id: str) -> tuple[rows.TournamentRow, list[Entry], list[Game]]:
    row = rows.get(tx, id)
    if row is None:
        raise TournamentError(_("There is no such tournament."))
    entries = [
        Entry(e.user_id, e.name, e.joined, e.withdrawn, e.paused) for e in rows.entries(tx, id)
    ]
    entries += bot_entries(event_of(row))  # its computer players (P65)
    return row, entries, [game_of(t) for t in rows.tables(tx, id)]


def game_of(table: rows.TableRow) -> Game:
    """A stored table as the standings read it: its record's scores and who forfeited."""
    if len(table.seats) == 1:
        return Game(table.code, table.round, table.seats, table.started, points=())
    points: tuple[int, ...] | None = None
    forfeited: frozenset[str] = frozenset()
    if table.record is not None:
        data = json.loads(table.record)
        points = tuple(int(s) for s in data["scores"])
        left = left_seats(table.rows, data.get("resigned"))
        forfeited = frozenset(w for s, w in enumerate(table.seats) if s in left and w is not None)
    return Game(table.code, table.round, table.seats, table.started, points, forfeited)


def join(
    store: Store, id: str, user_id: str, name: str, now: float, part: str | None = None
) -> bool:
    """Into the tournament (or back in after withdrawing); whether newly.
    Refused once it is over, or below its minimum of games finished (item 4).
    ``part``: the browser's random part of a duplicate's deals (``parts.py``)."""
    with store.transaction() as tx:
        rows.lock(tx)
        row = rows.get(tx, id)
        if row is None:
            raise TournamentError(_("There is no such tournament."))
        event = event_of(row)
        if row.status == "finished" or (event.ends is not None and now >= event.ends):
            raise TournamentError(_("This tournament is over."))
        if event.min_finished > 0:
            found = reputation_of(
                history_rows.games_of(tx, user_id, MOST_GAMES),
                history_rows.away_at(tx, user_id),
                now,
            )
            if found.share is not None and found.share < event.min_finished:
                raise TournamentError(
                    _(
                        "Games finished: this tournament asks for {need} %, you have {have} %."
                    ).format(need=round(event.min_finished * 100), have=round(found.share * 100))
                )
        return rows.add_entry(tx, id, user_id, name, now, part)


def set_entry(store: Store, id: str, user_id: str, *, withdrawn: bool, paused: bool) -> None:
    """Withdraw, pause or come back (``TournamentError`` if not in it)."""
    with store.transaction() as tx:
        rows.lock(tx)
        if not rows.set_entry(tx, id, user_id, withdrawn=withdrawn, paused=paused):
            raise TournamentError(_("You are not in this tournament."))


def start_now(store: Store, id: str, user_id: str, now: float) -> None:
    """The creator starts a tournament that has not started yet, before its time."""
    with store.transaction() as tx:
        rows.lock(tx)
        row = rows.get(tx, id)
        if row is None:
            raise TournamentError(_("There is no such tournament."))
        if row.settings.get("creator") != user_id:
            raise TournamentError(_("Only the tournament's creator can start it early."))
        if row.status != "open" or row.settings.get("starts", 0) <= now:
            raise TournamentError(_("This tournament has started already."))
        rows.set_start(tx, id, row.settings, now)


def _rules(event: Event) -> Rules:
    # A duplicate's leader rotates: each round's first leader is its seed's,
    # so every table of the round leads from the same seat (D9).
    rules = Rules(
        players=event.size,
        partnerships=event.size == 4,
        leader="rotate" if event.kind == "duplicate" else "random",
    )
    return rules if event.target is None else replace(rules, target=event.target)


def _make_table(
    tx: Tx,
    event: Event,
    number: int,
    seats: Sequence[str | None],
    names: Mapping[str, str],
    now: float,
) -> str:
    code = table_rows.free_code(tx, random_code)
    given = rows.parts(tx, event.id) if event.kind == "duplicate" else []
    fair = (
        parts.round_fairness(event, number, given)
        if event.kind == "duplicate"
        else Fairness.new(event.size)
    )
    seat_rows = tuple(
        SeatRow(i, "bot", BOT_LEVEL, BOT_LEVEL)
        if who is None
        else SeatRow(i, "bot", event.bot_level, event.bot_level)
        if is_bot(who)
        else SeatRow(i, "human", names[who], None, None, user_id=who)
        for i, who in enumerate(seats)
    )
    table_rows.insert_table(
        tx,
        NewTable(
            code,
            _rules(event).to_dict(),
            fair.seed,
            seat_rows,
            created=now,
            creator=None,
            clock=dict(CLOCK_PRESETS[event.clock]),
            rated=event.rated and all(w is not None and not is_bot(w) for w in seats),
            public=event.public,
            origin=ORIGIN,
            # The deal waits for the people's contributions, but one a duplicate's round
            # shares (P51, P54).
            fairness=fair.to_json() if event.kind == "duplicate" else awaiting(fair),
        ),
    )
    rows.add_table(tx, event.id, code, number, seats, now, given)
    return code


def _playing(games: Sequence[Game]) -> set[str]:
    return {w for g in games if not g.finished for w in g.seats if w is not None}


def advance(store: Store, id: str, now: float) -> list[str]:
    """Start, pair and end the tournament as its time and games say; the
    codes of the tables made (the caller leads them)."""
    with store.transaction() as tx:
        rows.lock(tx)
        row, entries, games = _load(tx, id)
        event = event_of(row)
        if row.status == "finished" or now < event.starts:
            return []
        lines = standings(event, entries, games)
        active = [s.user_id for s in lines if not s.withdrawn and not s.paused]
        robots = [who for who in active if is_bot(who)]
        # Two entrants, one of them a person: bots never play a tournament alone (P65).
        enough = len(active) >= 2 and len(robots) < len(active)
        names = {e.user_id: e.name for e in entries}
        busy = _playing(games)
        if event.kind == "arena":
            return _advance_arena(tx, event, row, lines, active, busy, games, names, now)
        if busy or (row.round and not all(g.finished for g in games if g.round == row.round)):
            return []  # the round is being played
        if row.round >= event.rounds or (row.round and not enough):
            rows.set_status(tx, id, "finished", row.round)
            return []
        if not enough:
            if now > event.starts + CALLED_OFF_AFTER:  # nobody came: off, out of the poll
                rows.set_status(tx, id, "finished", row.round)
            return []  # not enough people yet: wait
        number = row.round + 1
        met = {s.user_id: set(s.met) for s in lines}
        made: list[str] = []
        if event.kind == "swiss":
            byes = {s.user_id for s in lines if s.byes}
            tables, bye = pairing.swiss(active, event.size, met, byes, robots)
            if bye is not None:
                rows.add_table(tx, id, f"bye:{number}:{bye}", number, [bye], now)
        else:
            tables = [
                pairing.seat_order(t, number)
                for t in pairing.tables(active, event.size, met, robots)
            ]
        for table in tables:
            seats = list(table) + [None] * (event.size - len(table))
            made.append(_make_table(tx, event, number, seats, names, now))
        rows.set_status(tx, id, "running", number)
        return made


def _advance_arena(
    tx: Tx,
    event: Event,
    row: rows.TournamentRow,
    lines: Sequence[Standing],
    active: Sequence[str],
    busy: set[str],
    games: Sequence[Game],
    names: Mapping[str, str],
    now: float,
) -> list[str]:
    ends = event.ends
    assert ends is not None
    if now >= ends:
        if not busy:
            rows.set_status(tx, event.id, "finished", row.round)
        return []
    idle = [who for who in active if who not in busy]
    robots = [who for who in idle if is_bot(who)]
    last: dict[str, str | None] = {}
    for game in sorted(games, key=lambda g: g.started):
        for who in game.seats:
            if who is not None:
                others = [o for o in game.seats if o not in (who, None)]
                last[who] = others[0] if others else None
    made = []
    number = row.round
    for table in pairing.arena(idle, event.size, last, robots):
        number += 1
        made.append(_make_table(tx, event, number, list(table), names, now))
    if made or row.status == "open":
        rows.set_status(tx, event.id, "running", number)
    return made


def event(store: Store, id: str) -> Event:
    """The tournament's settings, its secret seed with them (``TournamentError``: none)."""
    with store.transaction() as tx:
        row = rows.get(tx, id)
    if row is None:
        raise TournamentError(_("There is no such tournament."))
    return event_of(row)


def due(store: Store, now: float) -> list[str]:
    """The tournaments to pair now (past their start, not finished)."""
    with store.transaction() as tx:
        return rows.due(tx, now)


def tournament_of(store: Store, code: str) -> str | None:
    with store.transaction() as tx:
        return rows.tournament_of(tx, code)


def public_settings(settings: Mapping[str, Any], *, finished: bool) -> dict[str, Any]:
    """What anyone may read of a tournament's settings: not its creator's account (or a
    moderator's login), and its secret seed only once it is over."""
    hidden = {"creator"} if finished else {"creator", "seed", "secret"}
    return {k: v for k, v in settings.items() if k not in hidden}


def state(store: Store, id: str, user_id: str | None, now: float) -> dict[str, Any]:
    """What the tournament's page shows: settings (not the seed while it runs),
    status, standings, tables, and the asker's game under way."""
    with store.transaction() as tx:
        row, entries, games = _load(tx, id)
        event = event_of(row)
        over = row.status == "finished"
        played = rows.tables(tx, id) if over and event.kind == "duplicate" else []
    settings = public_settings(asdict(event), finished=over)
    dealt = [(t.round, t.parts, _server_seed(t.record)) for t in played if t.record]
    names = {e.user_id: e.name for e in entries}
    names.update({e.user_id: bot_name(event, e.user_id) for e in entries if is_bot(e.user_id)})
    yours = None
    tables = []
    for game in sorted(games, key=lambda g: (g.round, g.code)):
        seats = [names.get(w, "") if w is not None else None for w in game.seats]
        entry: dict[str, Any] = {"code": game.code, "round": game.round, "seats": seats}
        if game.is_bye:
            entry.update(code=None, bye=True)
        else:
            entry.update(finished=game.finished, points=list(game.points or ()))
            entry["forfeited"] = [names.get(w, "") for w in sorted(game.forfeited)]
            if user_id in game.seats and not game.finished:
                yours = {"code": game.code, "seat": game.seats.index(user_id)}
        tables.append(entry)
    lines = [
        {
            "rank": s.rank,
            "name": names.get(s.user_id, s.name),
            "points": s.points,
            "games": s.games,
            "wins": s.wins,
            "tiebreak": s.tiebreak,
            "streak": s.streak,
            "forfeits": s.forfeits,
            "byes": s.byes,
            "withdrawn": s.withdrawn,
            "paused": s.paused,
            "scored": s.scored,
            "you": s.user_id == user_id,
            "bot": is_bot(s.user_id),
        }
        for s in standings(event, entries, games)
    ]
    return {
        "id": id,
        "settings": settings,
        "status": row.status,
        "round": row.round,
        "now": now,
        "standings": lines,
        "tables": tables,
        "yours": yours,
        "joined": any(e.user_id == user_id and not e.withdrawn for e in entries),
        "yours_to_start": user_id is not None and user_id == event.creator,
        # The deals' commitment and, once over, what it was and the check (parts.py).
        "fairness": parts.shown(event, over, dealt),
    }


def bot_name(event: Event, who: str) -> str:
    """A computer player's name in the reader's language: its level's, as a table
    calls its bot ("Easy bot"), and a letter when the tournament has more than one."""
    name = seat_name("bot", event.bot_level, event.bot_level)
    if event.bots < 2:
        return name
    number = int(who.removeprefix(BOT_PREFIX))
    return _("{name} {letter}").format(name=name, letter="ABCDEFGHIJKLMNOP"[number - 1])


def _server_seed(record: str | None) -> str | None:
    """The server seed a table's record reveals (``None``: none)."""
    shown = json.loads(record).get("fairness") if record else None
    return shown.get("server_seed") if isinstance(shown, dict) else None


__all__ = [
    "BOT_LEVEL",
    "CALLED_OFF_AFTER",
    "MOST_OPEN",
    "ORIGIN",
    "advance",
    "bot_name",
    "create",
    "due",
    "event",
    "game_of",
    "join",
    "parse_settings",
    "public_settings",
    "set_entry",
    "start_now",
    "state",
    "tournament_of",
]
