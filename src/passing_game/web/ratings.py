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
pure.

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
grows sure of a strong player.

``unrate`` (``passing-game admin unrate``) takes a game out of the ratings:
its changes are marked ``removed``, and each of its players' ratings in that
pool is replayed from their remaining changes in order (mu adds the changes'
steps, sigma multiplies their ratios), so the game's own effect is gone and
every other game's stays as it was computed then.

HTTP: ``GET /api/leaderboard?pool=2`` (``ROUTES``); suspended and deleted
accounts are left out.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.i18n import _
from passing_game.rules import Rules
from passing_game.web.store import SeatRow, Store, StoreError, Tx

if TYPE_CHECKING:
    from passing_game.web.tables import Table

log = logging.getLogger("passing_game.web")

#: One rating per player count; four players in partnerships are a pool of their own.
POOLS = ("2", "3", "4", "4-teams")
#: A new player's rating (OpenSkill's defaults).
MU = 25.0
SIGMA = MU / 3
#: What people read: ``DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 sigma)``, rounded.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 20
#: The most rows a leaderboard answer holds.
LEADERBOARD_SIZE = 100


def pool_of(rules: Rules) -> str:
    """The pool a game's rules rate in.

    >>> pool_of(Rules(players=3)), pool_of(Rules(players=4, partnerships=True))
    ('3', '4-teams')
    """
    return "4-teams" if rules.partnerships else str(rules.players)


def display(mu: float, sigma: float) -> int:
    """The rating a person reads: the ordinal ``mu - 3 sigma``, scaled.

    >>> display(MU, SIGMA), display(30.0, 2.0)
    (1000, 1480)
    """
    return math.floor(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma) + 0.5)


class RatingError(StoreError):
    """A game that cannot be taken out of the ratings; ``str(exc)`` says why."""


@dataclass(frozen=True)
class Outcome:
    """How a finished match ranks its sides, for the ratings."""

    pool: str
    #: The account of each seat (``None``: nobody's; rated at the default, not kept).
    users: tuple[str | None, ...]
    #: The seats of each side, and each side's place (1 is best; equal places tie).
    sides: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]
    #: The seats whose player left the match (they lose it).
    left: frozenset[int]
    #: A person never moved: the game is not rated at all (as lichess aborts it).
    aborted: bool = False


def left_seats(rows: Sequence[SeatRow], resigned: int | None) -> frozenset[int]:
    """The seats whose player was not there at the end: resigned, left, away for
    any reason a stand-in plays for them (offline past the grace, out of time twice,
    suspended), or replaced by a bot. Nobody else's act puts a seat here (P40)."""
    return frozenset(
        row.seat
        for row in rows
        if row.seat == resigned
        or (row.kind == "human" and row.away is not None)
        or (row.kind != "human" and row.user_id is not None)
    )


def outcome_of(
    rules: Rules,
    rows: Sequence[SeatRow],
    winner: int | None,
    scores: Sequence[int],
    resigned: int | None = None,
    moved: frozenset[int] | None = None,
) -> Outcome:
    """The standings of a finished match: the winning side, then the others by
    score; sides with a player who left come last, tied. ``moved`` are the seats
    whose person made a move of their own: if a person did not, the game is
    ``aborted`` (not rated).

    >>> rows = [SeatRow(s, "human", n, user_id=n) for s, n in enumerate("abc")]
    >>> outcome_of(Rules(players=3), rows, 1, [40, 101, 40]).ranks
    (2, 1, 2)
    >>> rows[1] = SeatRow(1, "human", "b", away="left", user_id="b")
    >>> outcome_of(Rules(players=3), rows, 1, [55, 101, 40]).ranks
    (1, 3, 2)
    >>> outcome_of(Rules(players=3), rows, 1, [55, 101, 40], moved=frozenset({0, 1})).aborted
    True
    """
    left = left_seats(rows, resigned)
    aborted = moved is not None and any(
        row.user_id is not None and row.seat not in moved for row in rows
    )
    sides = tuple(
        tuple(row.seat for row in rows if rules.side_of(row.seat) == side)
        for side in range(rules.sides)
    )

    def key(side: int) -> tuple[int, int, int]:
        if any(seat in left for seat in sides[side]):
            return (1, 0, 0)
        return (0, 0 if side == winner else 1, -int(scores[side]))

    order = sorted({key(side) for side in range(len(sides))})
    ranks = tuple(order.index(key(side)) + 1 for side in range(len(sides)))
    return Outcome(
        pool=pool_of(rules),
        users=tuple(row.user_id for row in rows),
        sides=sides,
        ranks=ranks,
        left=left,
        aborted=aborted,
    )


@dataclass(frozen=True)
class Change:
    """One player's rating change in one game."""

    user_id: str
    pool: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    removed: bool = False

    @property
    def before(self) -> int:
        return display(self.mu_before, self.sigma_before)

    @property
    def after(self) -> int:
        return display(self.mu_after, self.sigma_after)

    @property
    def delta(self) -> int:
        return self.after - self.before


def _integrity(store: Store, exc: Exception) -> bool:
    checker = getattr(store, "_is_integrity_error", None)
    return bool(checker(exc)) if callable(checker) else False


def changes_of(store: Store, code: str, game: int) -> list[Change]:
    """The rating changes a game made (removed ones included), if it was rated."""
    with store.transaction() as tx:
        return changes_of_tx(tx, code, game)


def changes_of_tx(tx: Tx, code: str, game: int) -> list[Change]:
    rows = tx.all(
        "SELECT user_id, pool, mu_before, sigma_before, mu_after, sigma_after, removed"
        " FROM web_rating_changes WHERE code = ? AND game = ? ORDER BY user_id",
        (code, game),
    )
    return [
        Change(
            str(r[0]),
            str(r[1]),
            float(r[2]),
            float(r[3]),
            float(r[4]),
            float(r[5]),
            removed=bool(r[6]),
        )
        for r in rows
    ]


def rate(outcome: Outcome, current: dict[str, tuple[float, float]]) -> list[Change]:
    """Every player's change for a finished game, from their ratings before it
    (``(mu, sigma)`` by account; a new player's when missing). Pure: the formula
    is here and nowhere else, tested without a database."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    before = {user: current.get(user, (MU, SIGMA)) for user in outcome.users if user is not None}
    teams = [
        [model.rating(*before.get(outcome.users[seat] or "", (MU, SIGMA))) for seat in side]
        for side in outcome.sides
    ]
    rated = model.rate(teams, ranks=list(outcome.ranks))
    side_left = [any(s in outcome.left for s in side) for side in outcome.sides]
    made: list[Change] = []
    for side_index, side in enumerate(outcome.sides):
        for at, seat in enumerate(side):
            account = outcome.users[seat]
            if account is None:
                continue
            mu, sigma = before[account]
            new = rated[side_index][at]
            after = (float(new.mu), float(new.sigma))
            if side_left[side_index] and seat not in outcome.left:
                after = (mu, sigma)  # a partner of a player who left keeps theirs
            made.append(Change(account, outcome.pool, mu, sigma, *after))
    return sorted(made, key=lambda c: c.user_id)


def rate_tx(tx: Tx, code: str, game: int, outcome: Outcome, now: float) -> list[Change]:
    """Rate a finished game once, inside the transaction that keeps its record
    (``Store.finish_game``): every player's new rating and its change, and the
    game marked ``rated`` (or ``aborted`` when a person never moved). A game
    already rated is left alone (its changes are returned)."""
    if tx.one("SELECT 1 FROM web_rating_changes WHERE code = ? AND game = ?", (code, game)):
        return changes_of_tx(tx, code, game)
    accounts = sorted({u for u in outcome.users if u is not None})
    if outcome.aborted or not accounts:
        tx.run("UPDATE web_games SET rating = 'aborted' WHERE code = ? AND game = ?", (code, game))
        return []
    current: dict[str, tuple[float, float]] = {}
    for user in accounts:  # in one order, so that two games never deadlock
        tx.run(
            "INSERT INTO web_ratings (user_id, pool, mu, sigma, games, updated)"
            " VALUES (?, ?, ?, ?, 0, ?) ON CONFLICT (user_id, pool) DO NOTHING",
            (user, outcome.pool, MU, SIGMA, now),
        )
        # A no-op write takes the row's lock (PostgreSQL): a game finishing
        # at the same moment with this player waits, then reads the new value.
        tx.run(
            "UPDATE web_ratings SET games = games WHERE user_id = ? AND pool = ?",
            (user, outcome.pool),
        )
        row = tx.one(
            "SELECT mu, sigma FROM web_ratings WHERE user_id = ? AND pool = ?",
            (user, outcome.pool),
        )
        assert row is not None
        current[user] = (float(row[0]), float(row[1]))
    made = rate(outcome, current)
    for change in made:
        tx.run(
            "UPDATE web_ratings SET mu = ?, sigma = ?, games = games + 1, updated = ?"
            " WHERE user_id = ? AND pool = ?",
            (change.mu_after, change.sigma_after, now, change.user_id, change.pool),
        )
        tx.run(
            "INSERT INTO web_rating_changes (code, game, user_id, pool, mu_before,"
            " sigma_before, mu_after, sigma_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                code,
                game,
                change.user_id,
                change.pool,
                change.mu_before,
                change.sigma_before,
                change.mu_after,
                change.sigma_after,
                now,
            ),
        )
    tx.run("UPDATE web_games SET rating = 'rated' WHERE code = ? AND game = ?", (code, game))
    return made


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
        if not _integrity(store, exc):
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
    rows = tx.all(
        "SELECT user_id, pool, removed FROM web_rating_changes WHERE code = ? AND game = ?"
        " ORDER BY user_id",
        (code, game),
    )
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
        tx.run("UPDATE web_ratings SET games = games WHERE user_id = ? AND pool = ?", (user, pool))
    tx.run("UPDATE web_rating_changes SET removed = 1 WHERE code = ? AND game = ?", (code, game))
    for user, pool, _removed in rows:
        mu, sigma, games = replay(
            tx.all(
                "SELECT mu_before, sigma_before, mu_after, sigma_after"
                " FROM web_rating_changes WHERE user_id = ? AND pool = ? AND removed = 0"
                " ORDER BY at, code, game",
                (user, pool),
            )
        )
        tx.run(
            "UPDATE web_ratings SET mu = ?, sigma = ?, games = ?, updated = ?"
            " WHERE user_id = ? AND pool = ?",
            (mu, sigma, games, time.time(), user, pool),
        )
    return [str(r[0]) for r in rows]


def replay(steps: Sequence[Sequence[Any]]) -> tuple[float, float, int]:
    """A rating from its changes in order (mu_before, sigma_before, mu_after,
    sigma_after): mu adds each change's step, sigma multiplies each change's
    ratio, from a new player's rating.

    >>> replay([]) == (MU, SIGMA, 0)
    True
    >>> mu, sigma, games = replay([(25.0, 8.0, 27.0, 7.5), (30.0, 6.0, 29.0, 5.0)])
    >>> round(mu, 6), round(sigma, 6), games
    (26.0, 6.510417, 2)
    """
    mu, sigma = MU, SIGMA
    for mu_before, sigma_before, mu_after, sigma_after in steps:
        mu += float(mu_after) - float(mu_before)
        if float(sigma_before) > 0:
            sigma *= float(sigma_after) / float(sigma_before)
    return mu, min(sigma, SIGMA), len(steps)


# -- the table's side: rated once at the end, shown in the frame ------------------


@dataclass
class _Shown:
    game: int
    items: list[dict[str, Any]] | None = None
    #: The game was not rated: a person never moved (``Outcome.aborted``).
    aborted: bool = False
    loading: bool = False
    tries: int = 0


#: What each table in memory shows of its current game's rating changes.
_SHOWN: weakref.WeakKeyDictionary[Table, _Shown] = weakref.WeakKeyDictionary()
#: How often a table asks the store for a finished game's changes that are not there,
#: and how long it waits before asking again (seconds, growing).
_MOST_TRIES = 3
_RETRY = 0.5


def frame_items(table: Table, changes: Sequence[Change]) -> list[dict[str, Any]]:
    """``frame["ratings"]``: per seat of an account, its rating before and after, and the change."""
    by_user = {c.user_id: c for c in changes if not c.removed}
    items = []
    for held in table.seats:
        change = by_user.get(held.row.user_id or "")
        if change is not None:
            items.append(
                {
                    "seat": held.seat,
                    "pool": change.pool,
                    "before": change.before,
                    "after": change.after,
                    "delta": change.delta,
                }
            )
    return items


def outcome_for(table: Table) -> Outcome | None:
    """The standings a rated table's finished match is rated by (``None``: not rated)."""
    if not table.rated or not table.match.is_over:
        return None
    return outcome_of(
        table.rules,
        [s.row for s in table.seats],
        table.match.winner,
        table.match.scores,
        table.resigned,
        moved=table.moved_seats(),
    )


def remember(table: Table, changes: Sequence[Change], aborted: bool) -> None:
    """What the leader's ``Table.finish`` rated, shown from the next frame on."""
    _SHOWN[table] = _Shown(table.game, frame_items(table, changes), aborted)
    event = "aborted" if aborted else "rated"
    log.info("%s game %d", event, table.game, extra={"table": table.code, "event": event})


def game_rating(store: Store, code: str, game: int) -> tuple[str | None, list[Change]]:
    """A finished game's rating state (``rated``, ``aborted``, ``None``) and changes."""
    with store.transaction() as tx:
        row = tx.one("SELECT rating FROM web_games WHERE code = ? AND game = ?", (code, game))
        return (None if row is None or row[0] is None else str(row[0])), changes_of_tx(
            tx, code, game
        )


def _known(table: Table) -> _Shown | None:
    """What the table shows of its finished rated game (``None``: nothing to show).

    A table that did not rate the game itself (a replica, a table loaded after
    its end) asks the store once, in the background, and shows it with its
    next frame.
    """
    if not table.rated or not table.match.is_over:
        return None
    known = _SHOWN.get(table)
    if known is None or known.game != table.game:
        known = _SHOWN[table] = _Shown(table.game)
    if known.items is None and not known.loading and known.tries < _MOST_TRIES:
        known.loading = True
        known.tries += 1
        table.lobby.spawn(_load(table, known))
    return known


def shown(table: Table) -> list[dict[str, Any]] | None:
    """``frame["ratings"]``: the rating changes of the table's finished, rated game."""
    known = _known(table)
    return None if known is None or known.aborted else known.items


def unrated(table: Table) -> str | None:
    """``frame["unrated"]``: why a rated table's finished game was not rated, if it was not."""
    known = _known(table)
    return "aborted" if known is not None and known.aborted else None


async def _load(table: Table, known: _Shown) -> None:
    # A replica may learn of the game's last move before its leader has rated
    # it (the rating's commit follows the move's): it asks again a little later.
    state: str | None = None
    changes: list[Change] = []
    try:
        for attempt in range(_MOST_TRIES):
            state, changes = await table.db.run(game_rating, table.db.store, table.code, known.game)
            if state is not None or changes or table.game != known.game:
                break
            await asyncio.sleep(_RETRY * (attempt + 1))
    finally:
        known.loading = False
    if (state is not None or changes) and table.game == known.game:
        known.items = frame_items(table, changes)
        known.aborted = state == "aborted"
        table.outbox.broadcast()


# -- the leaderboard -----------------------------------------------------------------


def leaderboard(store: Store, pool: str, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
    """The pool's rated players, best first; suspended and deleted accounts left out."""
    with store.transaction() as tx:
        rows = tx.all(
            "SELECT u.name, r.mu, r.sigma, r.games FROM web_ratings r"
            " JOIN web_users u ON u.id = r.user_id"
            " WHERE r.pool = ? AND r.games > 0 AND u.suspended = 0 AND u.deleted = 0"
            " ORDER BY r.mu - 3 * r.sigma DESC, u.name_key LIMIT ?",
            (pool, limit),
        )
    return [
        {
            "rank": index,
            "name": str(name),
            "rating": display(float(mu), float(sigma)),
            "games": int(games),
        }
        for index, (name, mu, sigma, games) in enumerate(rows, start=1)
    ]


async def leaderboard_endpoint(request: Request) -> Response:
    pool = request.query_params.get("pool", "2")
    if pool not in POOLS:
        return JSONResponse(
            {
                "error": _("pool must be one of {choices}").format(choices=", ".join(POOLS)),
                "code": "bad-pool",
            },
            400,
        )
    db = request.app.state.lobby.db
    players = await db.run(leaderboard, db.store, pool)
    return JSONResponse(
        {"pool": pool, "pools": list(POOLS), "players": players},
        headers={"Cache-Control": "no-store"},
    )


ROUTES = [Route("/api/leaderboard", leaderboard_endpoint)]


__all__ = [
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
    "outcome_for",
    "outcome_of",
    "pool_of",
    "rate",
    "rate_game",
    "rate_tx",
    "remember",
    "replay",
    "shown",
    "unrate",
    "unrate_tx",
    "unrated",
]
