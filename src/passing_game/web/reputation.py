"""Reputation others can see (issue 26, item 4; as Board Game Arena's): how an
account finishes its games, from its games in the store.

Over the account's newest ``MOST_GAMES`` games (at tables where it holds a
seat): a game **counts** once it is over, or once it has stood unfinished for
``ABANDONED_AFTER`` (nobody will finish it). It was **left** when a stand-in
bot made the seat's last move and the person never came back to it (the
record's ``stand-in`` marks), or when it never ended with the person away
from the seat; every other counted game was **finished** (a resignation is a
way to finish). **Timeouts** are the seat's moves a bot made because the
person's time ran out (the record's ``timeout`` marks). Only finished games'
records are read, so nothing of a game under way is shown (R9.2).

``GET /api/reputation/NAME`` answers for any account by its name:
``{name, games, finished, left, share, timeouts, timeout_games}`` (``share``:
finished over counted, ``null`` before any); 404 ``no-account``.
"""

from __future__ import annotations

import contextvars
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.errors import PassingGameError
from passing_game.i18n import N_, _
from passing_game.records import load_record, record_marks
from passing_game.web.accounts.flows import name_key
from passing_game.web.http.addresses import held_back
from passing_game.web.store import Store
from passing_game.web.store import accounts as account_rows
from passing_game.web.store import history as history_rows
from passing_game.web.store.history import GameRow

#: The newest games the reputation is made of.
MOST_GAMES = 200
#: An unfinished game this old counts (as left, if the person was away from it).
ABANDONED_AFTER = 24 * 3600.0
#: Reputations an address may ask for: a second, and in a burst (each reads records).
READ_RATE = (2.0, 20.0)
#: The longest account name looked up.
MAX_NAME = 64


#: What the page says of it (``static/reputation.js``; page text key -> English).
REPUTATION_TEXTS: dict[str, str] = {
    # TRANSLATORS: beside an account's seat; {share} is a whole number (a percentage).
    "Games finished: {share}%": N_("Games finished: {share}%"),
    # TRANSLATORS: the title of the reputation beside a seat; each {...} is a number.
    "Games: {games} · finished: {finished} · left: {left} · timeouts: {timeouts}": N_(
        "Games: {games} · finished: {finished} · left: {left} · timeouts: {timeouts}"
    ),
}


@dataclass(frozen=True)
class Reputation:
    games: int = 0
    finished: int = 0
    left: int = 0
    timeouts: int = 0
    timeout_games: int = 0

    @property
    def share(self) -> float | None:
        return None if self.games == 0 else self.finished / self.games


def seat_marks(record: str, seat: int) -> list[str | None] | None:
    """Who made each of ``seat``'s moves (``None``: the person; else the mark), in
    order; ``None`` for a record that does not read."""
    try:
        data = json.loads(record)
        match = load_record(data)
        marks = record_marks(data)
    except (PassingGameError, ValueError, TypeError, KeyError):
        return None
    made: list[str | None] = []
    for number, rnd in enumerate(match.rounds, start=1):
        for index, turn in enumerate(rnd.history, start=1):
            if turn.seat == seat:
                made.append(marks.get((number, index)))
    return made


def reputation_of(games: Iterable[GameRow], away: dict[str, str | None], now: float) -> Reputation:
    """The reputation over ``games`` (``away``: by table, why the account's seat is not
    played by the person now, for the unfinished ones)."""
    counted = finished = left = timeouts = timeout_games = 0
    for game in games:
        if not game.finished or game.record is None:
            if now - game.created < ABANDONED_AFTER:
                continue  # it may still be finished
            counted += 1
            if away.get(game.code) is not None:
                left += 1
            else:
                finished += 1  # never ended, but not for this person's leaving
            continue
        made = seat_marks(game.record, game.seat)
        if made is None:
            continue
        counted += 1
        timed_out = sum(1 for m in made if m == "timeout")
        timeouts += timed_out
        timeout_games += 1 if timed_out else 0
        if made and made[-1] == "stand-in":
            left += 1
        else:
            finished += 1
    return Reputation(counted, finished, left, timeouts, timeout_games)


def reputation_json(name: str, found: Reputation) -> dict[str, Any]:
    share = found.share
    return {
        "name": name,
        "games": found.games,
        "finished": found.finished,
        "left": found.left,
        "share": None if share is None else round(share, 3),
        "timeouts": found.timeouts,
        "timeout_games": found.timeout_games,
    }


def reputation(store: Store, name: str, now: float) -> dict[str, Any] | None:
    """An account's reputation by its name (blocking), or ``None``: no such account."""
    with store.transaction() as tx:
        user = account_rows.credentials(tx, name_key(name))
        if user is None:
            return None
        games = history_rows.games_of(tx, user.id, MOST_GAMES)
        away = history_rows.away_at(tx, user.id)
    return reputation_json(user.name, reputation_of(games, away, now))


async def reputation_endpoint(request: Request) -> Response:
    """``GET /api/reputation/NAME``."""
    limited = held_back(request, "reputation_limits", READ_RATE)
    if limited is not None:
        return limited
    name = request.path_params["name"]
    found = None
    if isinstance(name, str) and 0 < len(name) <= MAX_NAME:
        db = request.app.state.lobby.db
        run = contextvars.copy_context().run
        found = await db.run(run, reputation, db.store, name, time.time())
    if found is None:
        body = {"error": _("There is no account of that name."), "code": "no-account"}
        return JSONResponse(body, 404)
    return JSONResponse(found, headers={"Cache-Control": "no-store"})


ROUTES = [Route("/api/reputation/{name}", reputation_endpoint)]

__all__ = [
    "ABANDONED_AFTER",
    "MOST_GAMES",
    "REPUTATION_TEXTS",
    "ROUTES",
    "Reputation",
    "reputation",
    "reputation_of",
]
