"""The rating model, pure: OpenSkill's Plackett-Luce, one rating per pool (P33).

Apart from the rows (``ratings``) so that the formula, the standings and
what people read are tested without a database, and a change of formula
touches no transaction.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from passing_game.rules import Rules
from passing_game.web.game import seats
from passing_game.web.game.model import SeatRow, TableState

#: One rating per player count; four players in partnerships are a pool of their own.
POOLS = ("2", "3", "4", "4-teams")
#: A game with a bot account at the table rates everyone there in the bots' pools,
#: apart from the people's (issue 28, P62).
BOT_POOLS = tuple(f"bots-{pool}" for pool in POOLS)
#: A new player's rating (OpenSkill's defaults).
MU = 25.0
SIGMA = MU / 3
#: What people read: ``DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 sigma)``, rounded.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 20
#: A rating whose uncertainty (sigma) is above this is still settling: its
#: margin (``3 sigma``) shrinks fast, so a game moves it more. A new player's
#: sigma (8.33) falls below it after about ten games against like ratings.
SETTLED_SIGMA = 6.5


def pool_of(rules: Rules) -> str:
    """The pool a game's rules rate in.

    >>> pool_of(Rules(players=3)), pool_of(Rules(players=4, partnerships=True))
    ('3', '4-teams')
    """
    return "4-teams" if rules.partnerships else str(rules.players)


def bot_pool(pool: str) -> str:
    """The bots' pool beside a people's pool.

    >>> bot_pool("4-teams")
    'bots-4-teams'
    """
    return f"bots-{pool}"


def display(mu: float, sigma: float) -> int:
    """The rating a person reads: the ordinal ``mu - 3 sigma``, scaled.

    >>> display(MU, SIGMA), display(30.0, 2.0)
    (1000, 1480)
    """
    return math.floor(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma) + 0.5)


def settling(sigma: float) -> bool:
    """Whether a rating is still settling: its first games, which move it more.

    >>> settling(SIGMA), settling(4.0)
    (True, False)
    """
    return sigma > SETTLED_SIGMA


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

    @property
    def settling(self) -> bool:
        """The rating was still settling before this game (one of its first games)."""
        return settling(self.sigma_before)


def outcome_for(state: TableState) -> Outcome | None:
    """The standings a rated table's finished match is rated by (``None``: not rated)."""
    if not state.rated or not state.match.is_over:
        return None
    return outcome_of(
        state.rules,
        [s.row for s in state.seats],
        state.match.winner,
        state.match.scores,
        state.resigned,
        moved=seats.moved_seats(state),
    )


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


__all__ = [
    "BOT_POOLS",
    "DISPLAY_BASE",
    "DISPLAY_SCALE",
    "MU",
    "POOLS",
    "SETTLED_SIGMA",
    "SIGMA",
    "Change",
    "Outcome",
    "bot_pool",
    "display",
    "left_seats",
    "outcome_for",
    "outcome_of",
    "pool_of",
    "rate",
    "replay",
    "settling",
]
