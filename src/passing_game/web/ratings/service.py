"""Ratings: OpenSkill's Plackett-Luce model, one rating per player count (issue 13, P33).

A rated table seats signed-in people only (``Lobby.create``). When its match
ends, the table's leader rates it once (``rate_tx``, from ``Table.finish``)
in the very transaction that keeps the game's record (``Store.finish_game``):
a crash keeps both or neither, and a game whose record is kept is rated
(issue 22). Every player's rating in the match's pool changes, and each
change is kept in ``web_rating_changes``, whose primary key ``(code, game,
user_id)`` makes a second rating of the same game impossible (a leader that
finishes a game again after a restart, or two leaders racing, change
nothing). A game in which a person never made a move of their own is not
rated at all (``aborted``, as lichess aborts it). The formula is ``rate``,
pure, with the standings and what people read (``web/ratings/model.py``);
the rows (read under their locks, in one order of accounts) are
``store/ratings.py``'s; what a table shows of its game's changes is
``web/ratings/shown.py``'s.

Pools (``POOLS``): ``"2"``, ``"3"``, ``"4"`` and ``"4-teams"`` (four players
in two partnerships, rated as teams). The match's standings
(``outcome_of``): the side that reached the target first, the others by
their final score (equal scores share a place); a side with a player who was
not there at the end (resigned, left, a stand-in playing for them for any
reason, the seat handed to a bot) comes after every other side. A partner of
such a player keeps their rating (a change of zero is recorded).

What people read is a whole number (``display``):
``1000 + 20 * (mu - 3 * sigma)``, the model's conservative estimate ("the
ordinal", at least ``mu - 3 sigma`` with 99.7 % confidence) scaled: a new
player (mu 25, sigma 25/3) shows 1000, and a rating rises as the model
grows sure of a strong player. While sigma is above ``SETTLED_SIGMA`` (about
a player's first ten games) the rating is "settling": its margin shrinks
fast, so a game moves it more (a first win gains more than a first loss
costs), and the page says so in words (issue 24, item 9; ``frame["ratings"]``
and the leaderboard's rows carry ``settling``).

``unrate`` (``passing-game admin unrate``) takes a game out of the ratings:
its changes are marked ``removed``, and each of its players' ratings in that
pool is replayed from their remaining changes in order (mu adds the changes'
steps, sigma multiplies their ratios), so the game's own effect is gone and
every other game's stays as it was computed then.

A game with a bot account at the table (issue 28, P62) rates everyone at it
in the bots' pool beside its own (``BOT_POOLS``: ``bots-2``...), never in the
people's: a program's strength says nothing of a person's.

HTTP: ``GET /api/leaderboard?pool=2`` (``ROUTES``; ``pool=bots-2`` for the
bots' pools); suspended and deleted accounts are left out.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.i18n import _
from passing_game.web.ratings.model import (
    BOT_POOLS,
    DISPLAY_BASE,
    DISPLAY_SCALE,
    MU,
    POOLS,
    SIGMA,
    Change,
    Outcome,
    bot_pool,
    display,
    outcome_of,
    pool_of,
    rate,
    replay,
    settling,
)
from passing_game.web.store import Store, StoreError, Tx
from passing_game.web.store import bots as bot_rows
from passing_game.web.store import ratings as rating_rows
from passing_game.web.store.rows import ChangeRow

#: The most rows a leaderboard answer holds.
LEADERBOARD_SIZE = 100


class RatingError(StoreError):
    """A game that cannot be taken out of the ratings; ``str(exc)`` says why."""


def changes_of(store: Store, code: str, game: int) -> list[Change]:
    """The rating changes a game made (removed ones included), if it was rated."""
    with store.transaction() as tx:
        return changes_of_tx(tx, code, game)


def changes_of_tx(tx: Tx, code: str, game: int) -> list[Change]:
    return [
        Change(
            r.user_id,
            r.pool,
            r.mu_before,
            r.sigma_before,
            r.mu_after,
            r.sigma_after,
            removed=r.removed,
        )
        for r in rating_rows.changes(tx, code, game)
    ]


def rate_tx(tx: Tx, code: str, game: int, outcome: Outcome, now: float) -> list[Change]:
    """Rate a finished game once, inside the transaction that keeps its record
    (``Store.finish_game``): every player's new rating and its change, and the
    game marked ``rated`` (or ``aborted`` when a person never moved). A game
    already rated is left alone (its changes are returned)."""
    if rating_rows.was_rated(tx, code, game):
        return changes_of_tx(tx, code, game)
    accounts = sorted({u for u in outcome.users if u is not None})
    if outcome.aborted or not accounts:
        rating_rows.mark_aborted(tx, code, game)
        return []
    if bot_rows.bot_ids(tx, accounts):  # a bot at the table: everyone in the bots' pool
        outcome = replace(outcome, pool=bot_pool(outcome.pool))
    current: dict[str, tuple[float, float]] = {}
    for user in accounts:  # in one order, so that two games never deadlock
        current[user] = rating_rows.lock_rating(tx, user, outcome.pool, MU, SIGMA, now)
    made = rate(outcome, current)
    for change in made:
        rating_rows.add_change(tx, code, game, _row(change), now)
    rating_rows.mark_rated(tx, code, game)
    return made


def _row(change: Change) -> ChangeRow:
    return ChangeRow(
        change.user_id,
        change.pool,
        change.mu_before,
        change.sigma_before,
        change.mu_after,
        change.sigma_after,
        change.removed,
    )


def rate_game(
    store: Store, code: str, game: int, outcome: Outcome, now: float | None = None
) -> list[Change]:
    """``rate_tx`` in a transaction of its own (a finished game's record already
    kept: the sweep of games a crash left unrated, tests)."""
    now = time.time() if now is None else now
    try:
        with store.transaction() as tx:
            return rate_tx(tx, code, game, outcome, now)
    except Exception as exc:
        if not store.is_integrity_error(exc):
            raise
        # Another leader rated this game at the same moment: its changes stand.
        return changes_of(store, code, game)


def unrate(store: Store, code: str, game: int) -> list[str]:
    """Take a game out of the ratings; the accounts whose ratings were replayed.

    Raises ``RatingError`` when the game was never rated or is already out.
    """
    with store.transaction() as tx:
        return unrate_tx(tx, code, game)


def unrate_tx(tx: Tx, code: str, game: int) -> list[str]:
    """``unrate`` inside the caller's transaction (the moderators' log goes with it)."""
    rows = rating_rows.changed(tx, code, game)
    if not rows:
        raise RatingError(
            _("game {game} of table {code} was not rated").format(game=game, code=code)
        )
    if all(r[2] for r in rows):
        raise RatingError(
            _("game {game} of table {code} is already out of the ratings").format(
                game=game, code=code
            )
        )
    for user, pool, _removed in rows:
        rating_rows.lock_row(tx, user, pool)
    rating_rows.remove_changes(tx, code, game)
    for user, pool, _removed in rows:
        mu, sigma, games = replay(rating_rows.kept_steps(tx, user, pool))
        rating_rows.set_rating(tx, user, pool, mu, sigma, games, time.time())
    return [user for user, _pool, _removed in rows]


def game_rating(store: Store, code: str, game: int) -> tuple[str | None, list[Change]]:
    """A finished game's rating state (``rated``, ``aborted``, ``None``) and changes."""
    with store.transaction() as tx:
        return rating_rows.game_rating(tx, code, game), changes_of_tx(tx, code, game)


# -- the leaderboard -----------------------------------------------------------------


def leaderboard(store: Store, pool: str, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
    """The pool's rated players, best first, each with the games their rating rests on
    and whether it is still settling; suspended and deleted accounts left out."""
    with store.transaction() as tx:
        rows = rating_rows.leaderboard(tx, pool, limit)
        bots = bot_rows.bot_ids(tx, [user for user, _name, _rating in rows])
    return [
        {
            "rank": index,
            "name": name,
            "rating": display(rating.mu, rating.sigma),
            "games": rating.games,
            "settling": settling(rating.sigma),
            "bot": user in bots,
        }
        for index, (user, name, rating) in enumerate(rows, start=1)
    ]


async def leaderboard_endpoint(request: Request) -> Response:
    pool = request.query_params.get("pool", "2")
    if pool not in POOLS + BOT_POOLS:
        return JSONResponse(
            {
                "error": _("There is no such leaderboard: choose one of {choices}.").format(
                    choices=", ".join(POOLS + BOT_POOLS)
                ),
                "code": "bad-pool",
            },
            400,
        )
    db = request.app.state.lobby.db
    players = await db.run(leaderboard, db.store, pool)
    return JSONResponse(
        {"pool": pool, "pools": list(POOLS), "bot_pools": list(BOT_POOLS), "players": players},
        headers={"Cache-Control": "no-store"},
    )


ROUTES = [Route("/api/leaderboard", leaderboard_endpoint)]


__all__ = [
    "BOT_POOLS",
    "DISPLAY_BASE",
    "DISPLAY_SCALE",
    "MU",
    "POOLS",
    "ROUTES",
    "SIGMA",
    "Change",
    "Outcome",
    "RatingError",
    "changes_of",
    "display",
    "game_rating",
    "leaderboard",
    "outcome_of",
    "pool_of",
    "rate",
    "rate_game",
    "rate_tx",
    "replay",
    "unrate",
    "unrate_tx",
]
