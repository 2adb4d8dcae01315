"""A public profile, read from the store on request (issue 27, item 3; P60).

``profile(store, name)`` is the JSON of ``GET /api/profiles/NAME``: the account's
ratings per pool with the points of each pool's graph (its changes in
``web_rating_changes``), its finished games (how many, the newest ``RECENT`` with
their replays' links) and the statistics (``model.tally``) of its newest
``MOST_GAMES`` finished games, each replayed from its stored record through the
engine (``load_record``), with what the analyses kept of the account's seat in them
say (``web_analyses``, keyed as ``review.replay.record_hash`` keys them).

Every number comes from the store, so any server process answers the same. What a
finished game's record gives (its counts, its analysis key, its result) is kept in the
process that counted it (``CACHE``), which is safe to lose: a finished game's record
never changes. The ratings, the analyses and the names are read on each request.

Only finished games' records are read (``store/profiles.py``): a game under way, its
moves and its hands never reach a profile, and a profile does not change while one is
played. A name is matched as
sign-in matches it (``accounts.name_key``); an unknown or deleted account has no
profile (``None``).
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from passing_game.records import load_record, record_marks
from passing_game.rules import Rules
from passing_game.web.accounts import names
from passing_game.web.accounts.flows import name_key
from passing_game.web.profiles import model
from passing_game.web.protocol import MAX_NAME
from passing_game.web.ratings.model import BOT_POOLS, POOLS, display, settling
from passing_game.web.review.replay import record_hash
from passing_game.web.store import SeatRow, Store
from passing_game.web.store import bots as bot_rows
from passing_game.web.store import history as history_rows
from passing_game.web.store import profiles as profile_rows
from passing_game.web.store import ratings as rating_rows
from passing_game.web.store.profiles import FinishedGame
from passing_game.web.table import frames

log = logging.getLogger("passing_game.web")

#: The finished games the statistics are counted over (the newest); the page says so.
MOST_GAMES = 200
#: The finished games listed as recent games.
RECENT = 10
#: The rating changes the graphs are drawn from (the newest, every pool together).
MOST_STEPS = 1000
#: The pools in the order a profile lists them: the people's, then the bots' (P62).
ORDER = POOLS + BOT_POOLS


def key_of(name: str) -> str:
    """The name's key as sign-in makes it (cut to a name's length, normalized, folded)."""
    return name_key(names.normalize(name[: 8 * MAX_NAME]))[: 4 * MAX_NAME]


def _names(held: list[tuple[SeatRow, str | None]]) -> list[dict[str, Any]]:
    """Each seat's name as the table names it, and whether an account holds it (a live
    one: its current name; a profile links only those)."""
    shown = frames.seat_names([row for row, _account in held])
    out = []
    for row, account in held:
        live = account is not None and account != frames.DELETED_NAME
        name = account if live else shown[row.seat]
        out.append({"seat": row.seat, "name": name, "account": live, "bot": row.bot})
    return out


def _result(match: Any, seat: int) -> dict[str, Any]:
    side = match.rules.side_of(seat)
    scores = list(match.scores)

    def key(s: int) -> tuple[int, int]:
        return (0 if s == match.winner else 1, -scores[s])

    return {
        "won": match.winner == side,
        "place": 1 + sum(1 for other in range(len(scores)) if key(other) < key(side)),
        "of": len(scores),
        "scores": scores,
    }


def _read(store: Store, user_id: str) -> tuple[Any, ...]:
    with store.transaction() as tx:
        total = profile_rows.finished_count(tx, user_id)
        games = profile_rows.finished_games(tx, user_id, MOST_GAMES)
        pools = rating_rows.rated_pools(tx, user_id)
        steps = profile_rows.rating_steps(tx, user_id, MOST_STEPS)
        wanted = {g.code for g in games[:RECENT]}
        wanted |= {g.code for g in games if Rules.from_dict(json.loads(g.rules)).partnerships}
        seats = {code: history_rows.seats_at(tx, code) for code in sorted(wanted)}
        dates = profile_rows.game_dates(tx, user_id, [(g.code, g.game) for g in games[:RECENT]])
    return total, games, pools, steps, seats, dates


@dataclass(frozen=True)
class Counted:
    """One finished game counted for one seat: what a profile needs of its record."""

    tally: model.Tally
    #: The analysis's key (``review.replay.record_hash``) and the seat.
    key: tuple[str, int]
    result: dict[str, Any]
    rules: dict[str, Any]


class Cache:
    """Finished games already counted, by (code, game, seat), the ``most`` last used.

    A finished game's record never changes, so what was counted of it holds for good;
    a process that loses this (a restart) only counts again. The analyses, which may
    come later, and the names, which may change, are read on each request.
    """

    def __init__(self, most: int = 20_000) -> None:
        self.most = most
        self._kept: OrderedDict[tuple[str, int, int], Counted] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int, int]) -> Counted | None:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def put(self, key: tuple[str, int, int], counted: Counted) -> None:
        with self._lock:
            self._kept[key] = counted
            while len(self._kept) > self.most:
                self._kept.popitem(last=False)


CACHE = Cache()


def count_game(g: FinishedGame) -> Counted | None:
    """One finished game replayed from its record and counted for its seat (``None``: a
    record that does not load, logged)."""
    found = CACHE.get((g.code, g.game, g.seat))
    if found is not None:
        return found
    try:
        data = json.loads(g.record)
        match = load_record(data)
        marks = record_marks(data)
    except Exception:
        log.warning("a stored record does not load", extra={"table": g.code})
        return None
    rules = {"players": match.rules.players, "partnerships": match.rules.partnerships}
    counted = Counted(
        model.tally(match, g.seat, marks),
        (record_hash(match, marks), g.seat),
        _result(match, g.seat),
        rules,
    )
    CACHE.put((g.code, g.game, g.seat), counted)
    return counted


def _counted(
    store: Store, games: list[FinishedGame], seats: dict[str, list[tuple[SeatRow, str | None]]]
) -> tuple[model.Tally, dict[tuple[str, int], Counted]]:
    """The statistics of ``games``, with what the analyses kept say, and each game's
    counts (a record that does not load is left out)."""
    total = model.Tally()
    counted: dict[tuple[str, int], Counted] = {}
    for g in games:
        one = count_game(g)
        if one is None:
            continue
        total.add(one.tally)
        counted[(g.code, g.game)] = one
        if one.rules["partnerships"] and g.code in seats:
            held = _names(seats[g.code])
            partner = next((p["name"] for p in held if p["seat"] == (g.seat + 2) % 4), None)
            if partner is not None:
                t = one.tally
                total.partners.setdefault(partner, model.PartnerTally()).add(
                    model.PartnerTally(1, t.games_won, t.rounds, t.rounds_won)
                )
    with store.transaction() as tx:
        kept = profile_rows.done_analyses(tx, [one.key for one in counted.values()])
    for one in counted.values():
        state = kept.get(one.key)
        if state is None:
            continue
        try:
            stored = json.loads(state)
            if stored.get("status") == "done":
                total.add(model.analysed(stored["analysis"]["evaluations"]))
        except (ValueError, KeyError, TypeError):
            log.warning("a stored analysis does not read")
    return total, counted


def exists(store: Store, name: str) -> bool:
    """Whether a live account has this name (the page's status: 200 or 404)."""
    with store.transaction() as tx:
        return profile_rows.account(tx, key_of(name)) is not None


def profile(store: Store, name: str) -> dict[str, Any] | None:
    """The public profile of the account of this name; ``None``: no such live account.
    Run in a worker thread in the visitor's language (bots' names)."""
    with store.transaction() as tx:
        account = profile_rows.account(tx, key_of(name))
        owner = None if account is None else bot_rows.owner_names(tx, [account.id])
    if account is None:
        return None
    total, games, pools, steps, seats, dates = _read(store, account.id)
    tally, counted = _counted(store, games, seats)
    series = model.rating_series(
        (s.pool, s.at, display(s.mu_before, s.sigma_before), display(s.mu_after, s.sigma_after))
        for s in steps
    )
    ratings = [
        {
            "pool": row.pool,
            "rating": display(row.mu, row.sigma),
            "games": row.games,
            "settling": settling(row.sigma),
            "points": series.get(row.pool, []),
        }
        for row in sorted(pools, key=lambda r: ORDER.index(r.pool) if r.pool in ORDER else 99)
    ]
    recent = []
    for g in games[:RECENT]:
        one = counted.get((g.code, g.game))
        if one is None:
            continue
        recent.append(
            {
                "code": g.code,
                "game": g.game,
                "date": dates.get((g.code, g.game), g.created),
                "seat": g.seat,
                "rated": g.rated,
                "players": _names(seats.get(g.code, [])),
                "rules": one.rules,
                "result": one.result,
                "link": f"/replay/{g.code}/{g.game}",
            }
        )
    return {
        "name": account.name,
        "since": account.created,
        # A bot account (P62): whose program plays it.
        "bot": {"owner": owner[account.id]} if owner and account.id in owner else None,
        "ratings": ratings,
        "finished_games": total,
        "counted": len(games),
        "most_games": MOST_GAMES,
        "stats": model.summary(tally),
        "recent": recent,
    }


__all__ = ["CACHE", "MOST_GAMES", "MOST_STEPS", "RECENT", "exists", "key_of", "profile"]
