"""The quick-play queue in the store (P30): entering it, matching, bots, leaving.

Each function is one transaction, run in a store thread (``AsyncStore.run``);
matching holds the queue's lock (``store.queue.lock``). Who sits at a new
table is decided by ``choose``, pure. Apart from ``quickplay`` (this
process's waiting people and their poll), which calls these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from passing_game.fairness import Fairness
from passing_game.i18n import _
from passing_game.rules import Rules
from passing_game.web.protocol import CLOCK_PRESETS, ProtocolError, random_code
from passing_game.web.store import NewTable, SeatRow, Store, Tx
from passing_game.web.store import queue as queue_rows
from passing_game.web.store import tables as table_rows
from passing_game.web.store.rows import A_BOT, MEETS_BOTS, PEOPLE_ONLY, Ticket
from passing_game.web.table.fairness import awaiting

#: A waiting row its process has not refreshed for this long is dropped (the
#: process died); a live process refreshes it every ``POLL_SECONDS``.
STALE_SECONDS = 10.0
#: How long a matched row waits for its person's process to take the seat.
MATCHED_KEEP = 300.0
#: The level of the bots that fill a quick table's empty seats.
FILL_LEVEL = "medium"
#: A quick table with two or more people has this clock (P26's presets).
QUICK_CLOCK = "45"
#: The most tables ``GET /api/tables/public`` lists.
PUBLIC_LIMIT = 50


class QueueRace(RuntimeError):
    """A row was given a seat by somebody else meanwhile (the lock makes this
    impossible; the transaction is rolled back if it ever happens)."""


class QueueRefused(Exception):
    """The account already waits (``code`` ``None``) or plays at quick table ``code``.
    Raised in a store thread; ``error`` words it, in the event loop's language."""

    def __init__(self, code: str | None = None) -> None:
        super().__init__(code or "waiting")
        self.code = code

    def error(self) -> ProtocolError:
        if self.code is None:
            text = _("You are already waiting for a game, in another tab or window.")
            return ProtocolError(text, "already-waiting")
        text = _(
            "You are already playing at table {code}: go back to it, or finish that game first."
        )
        return ProtocolError(text.format(code=self.code), "already-playing")


@dataclass(frozen=True)
class Seated:
    """A table made from the queue: its code, and each ticket's seat."""

    code: str
    seats: dict[str, int]


# -- the queue in the store (blocking: run through AsyncStore.run) -------------


def _expire(tx: Tx, now: float) -> None:
    """Forget the rows of processes that died, and old matched rows."""
    queue_rows.expire(tx, now - STALE_SECONDS, now - MATCHED_KEEP)


def _check_account(tx: Tx, ticket: Ticket, now: float) -> None:
    """One place per account (``QueueRefused``; a guest passes). Call with the lock held."""
    if ticket.user_id is None:
        return
    if queue_rows.waits_elsewhere(tx, ticket.user_id, ticket.ticket, now - STALE_SECONDS):
        raise QueueRefused()
    playing = queue_rows.quick_table_of(tx, ticket.user_id)  # a seat not left, a game on
    if playing is not None:
        raise QueueRefused(playing)


def _waiting_count(tx: Tx, players: int, rated: bool, now: float) -> int:
    return queue_rows.waiting_count(tx, players, rated, now - STALE_SECONDS)


def choose(
    rows: Sequence[Ticket], players: int, rated: bool, asker: str | None = None
) -> list[Ticket] | None:
    """Who sits at the next table of this game, in waiting order: the first
    ``players`` distinct people of ``rows`` (oldest first), or, when ``asker``
    asked for bots, the asker and whoever else fits; ``None`` if nobody sits.

    Bot accounts (P62) sit only with people who chose to meet them, and never
    without a person: a table is either people only, or people who meet bots
    with bots; whichever the oldest row waits for is tried first.

    >>> def waits(ticket, user, since, bots=PEOPLE_ONLY):
    ...     return Ticket(ticket, 2, False, user, user or "Guest", "h", since, bots)
    >>> rows = [waits("a", "ana", 1.0), waits("b", "ana", 2.0), waits("c", None, 3.0)]
    >>> [t.ticket for t in choose(rows, 2, False)]
    ['a', 'c']
    >>> choose(rows[:2], 2, False) is None
    True
    >>> [t.ticket for t in choose(rows, 2, True, asker="c")]
    ['c']
    >>> bot, bot2 = waits("r", "robo", 0.5, A_BOT), waits("s", "sim", 0.6, A_BOT)
    >>> [t.ticket for t in choose([bot, *rows], 2, False)]
    ['a', 'c']
    >>> [t.ticket for t in choose([bot, waits("d", "dora", 4.0, MEETS_BOTS), *rows], 2, False)]
    ['r', 'd']
    >>> choose([bot, bot2], 2, False) is None
    True
    """
    if asker is not None:
        first = [r for r in rows if r.ticket == asker]
        if not first:
            return None
        # A rated wait filled with bots is a casual game of the asker alone; bot
        # accounts never sit at a table filled with the site's bots.
        others = [r for r in rows if r.ticket != asker and r.bots != A_BOT]
        return _first(first + ([] if rated else others), players, partial=True)
    people = [r for r in rows if r.bots != A_BOT]
    meeting = [r for r in rows if r.bots != PEOPLE_ONLY]
    tries = [people, meeting]
    if rows and rows[0].bots == A_BOT:
        tries.reverse()
    for group in tries:
        chosen = _first(group, players, partial=False)
        if chosen is not None and any(r.bots != A_BOT for r in chosen):
            return chosen
    return None


def _first(rows: Sequence[Ticket], players: int, *, partial: bool) -> list[Ticket] | None:
    """The first ``players`` distinct accounts of ``rows`` (``partial``: or fewer), in
    waiting order."""
    chosen: list[Ticket] = []
    users: set[str] = set()
    for row in rows:
        if row.user_id is not None:
            if row.user_id in users:
                continue  # one person twice (two tabs): never at one table
            users.add(row.user_id)
        chosen.append(row)
        if len(chosen) == players:
            break
    if not chosen or (not partial and len(chosen) < players):
        return None
    chosen.sort(key=lambda r: (r.since, r.ticket))  # seats in waiting order
    return chosen


def _match(tx: Tx, players: int, rated: bool, now: float, asker: str | None) -> Seated | None:
    """Seat the people waiting for this game if there are enough (or ``asker``
    asked for bots); ``None`` if nobody is seated. Call with the lock held."""
    rows = queue_rows.waiting(tx, players, rated, now - STALE_SECONDS)
    chosen = choose(rows, players, rated, asker)
    if chosen is None:
        return None
    code = table_rows.free_code(tx, random_code)
    seats = [
        SeatRow(i, "human", r.name, None, r.token_hash, user_id=r.user_id)
        for i, r in enumerate(chosen)
    ]
    seats += [SeatRow(i, "bot", FILL_LEVEL, FILL_LEVEL) for i in range(len(chosen), players)]
    people = len(chosen)
    committed = Fairness.new(players)  # its deal's commitment (issue 26)
    table_rows.insert_table(
        tx,
        NewTable(
            code,
            Rules(players=players).to_dict(),
            committed.seed,
            tuple(seats),
            created=now,
            creator=None,
            clock=dict(CLOCK_PRESETS[QUICK_CLOCK]) if people > 1 else None,
            rated=rated and people == players,
            public=True,
            origin="quick",
            # A rated game's deal waits for the people's contributions (game/dealing.py).
            fairness=awaiting(committed) if rated and people == players else committed.to_json(),
        ),
    )
    given: dict[str, int] = {}
    for seat, row in enumerate(chosen):
        if not queue_rows.seat_ticket(tx, row.ticket, code, seat, now):
            raise QueueRace(f"ticket {row.ticket} was seated elsewhere")
        given[row.ticket] = seat
    return Seated(code, given)


def enter_queue(store: Store, ticket: Ticket, now: float) -> tuple[Seated | None, int]:
    """Put ``ticket`` in the queue and match: the table made, if any, and how
    many wait for the same game afterwards. ``QueueRefused`` if its account
    already waits or plays (checked under the lock: one place per account)."""
    with store.transaction() as tx:
        queue_rows.lock(tx)
        _expire(tx, now)
        _check_account(tx, ticket, now)
        queue_rows.insert(tx, ticket, now)
        seated = _match(tx, ticket.players, ticket.rated, now, None)
        return seated, _waiting_count(tx, ticket.players, ticket.rated, now)


def match_queue(store: Store, players: int, rated: bool, now: float) -> Seated | None:
    """Match the people waiting for one game (the poll's second chance, should a
    match have failed when the last of them came)."""
    with store.transaction() as tx:
        queue_rows.lock(tx)
        return _match(tx, players, rated, now, None)


def fill_queue(store: Store, ticket: str, now: float) -> Seated | None:
    """Bots for the seats nobody waits for: the table made (or the one the
    ticket was already given); ``None`` if the ticket is not in the queue."""
    with store.transaction() as tx:
        queue_rows.lock(tx)
        row = queue_rows.entry(tx, ticket)
        if row is None:
            return None
        if row.code is not None:
            assert row.seat is not None  # given with the code
            return Seated(row.code, {ticket: row.seat})
        return _match(tx, row.players, row.rated, now, ticket)


def leave_queue(store: Store, ticket: str) -> Seated | None:
    """Stop waiting; if a seat was given meanwhile, that seat."""
    with store.transaction() as tx:
        if queue_rows.leave(tx, ticket):
            return None
        row = queue_rows.seat_of(tx, ticket)
    if row is None or row[0] is None:
        return None
    assert row[1] is not None  # given with the code
    return Seated(row[0], {ticket: row[1]})


def forget_tickets(store: Store, tickets: list[str]) -> None:
    """The rows of people seated (or gone) here."""
    with store.transaction() as tx:
        for ticket in tickets:
            queue_rows.forget(tx, ticket)


def poll_queue(
    store: Store, tickets: list[str], now: float
) -> tuple[dict[str, tuple[str | None, int | None]], dict[tuple[int, bool], int]]:
    """This process's people still wait (their rows refreshed); each ticket's
    row (code and seat, ``None`` while waiting; missing if dropped), and how
    many wait for each game."""
    with store.transaction() as tx:
        return queue_rows.poll(tx, tickets, now, now - STALE_SECONDS)


def public_tables(store: Store, limit: int = PUBLIC_LIMIT) -> list[dict[str, Any]]:
    """Public tables that wait for players or are being played, newest first."""
    with store.transaction() as tx:
        rows = table_rows.public_tables(tx, limit)
    return [
        {
            "code": row.code,
            "players": int(row.rules.get("players", row.seats)),
            "seats": row.seats,
            "taken": row.taken,
            "rules": row.rules,
            "rated": row.rated,
            "created": row.created,
            "origin": row.origin,
            "status": "waiting" if row.taken < row.seats else "playing",
        }
        for row in rows
    ]


__all__ = [
    "A_BOT",
    "FILL_LEVEL",
    "MATCHED_KEEP",
    "MEETS_BOTS",
    "PEOPLE_ONLY",
    "PUBLIC_LIMIT",
    "QUICK_CLOCK",
    "STALE_SECONDS",
    "QueueRace",
    "QueueRefused",
    "Seated",
    "Ticket",
    "choose",
    "enter_queue",
    "fill_queue",
    "forget_tickets",
    "leave_queue",
    "match_queue",
    "poll_queue",
    "public_tables",
]
