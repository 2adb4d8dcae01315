"""The daily deal (issue 13, item 8; docs/DECISIONS.md P31).

Each day (its UTC date) has one deal that everybody plays: the same
``DAILY_ROUNDS`` rounds of a two-player game against the same bot (level
``DAILY_LEVEL``), one attempt per person (``web_daily``: day, account,
table, and the hashes of the user name and of the address it was played
from). The day's table compares everyone's results as duplicate bridge
does: the same cards, so who did best with them.

**The seed.** ``daily_seed(day, secret)`` is the first 8 bytes of
HMAC-SHA256(key = the site's secret, message = ``"passing-game daily
YYYY-MM-DD"``), big-endian, with the top bit cleared (63 bits, like every
table's seed). The secret is ``PASSING_GAME_DAILY_SECRET`` if the
environment sets it, else the site's own (``site_secret``): made once at
random and kept in the store (``web_settings``), so that every process on
one database agrees, and never the empty key anybody who reads this could
use to compute a day's deals. The server reads it once, when it starts.
``Match(rules, seed)`` deals round k from the seed and k alone (D9), and
the leader rule is ``random`` (drawn from the seed too), so every attempt
gets the same hands, the same boneyard and the same leader each round, and
the bot (seeded by the game's seed and its seat) answers the same position
with the same move.

**One attempt per person** (issue 22). An account plays the day's deal
once (asking again takes its table up again). Deleting the account and
signing up again does not give a second try: the day's attempts keep the
hash of the user name's key (``accounts.name_key``), and a new account of
that name is refused. Nor does making another account: an account younger
than ``NEW_ACCOUNT_SECONDS`` is refused when the day's deal was already
played from its address (the client's, or the one it signed up from), while
an older one may play from a shared address (a family behind one router).
The checks and the new attempt are one transaction under a lock.

**The rounds.** The engine plays to a target; the daily deal stops after
``DAILY_ROUNDS`` rounds whatever the scores. The rules package is left
alone: the table plays a ``RoundsMatch`` (web layer), a ``Match`` whose
target (``DAILY_TARGET``) cannot be reached in so few rounds and that ends
after the last one, its winner the side with the most points (a tie: the
lower seat, the person's). Its record has no ``winner`` (``load_record``
replays the rounds with the plain engine, which would not end the match)
and says ``"daily": {"rounds": N}``. A daily table has no rematch.

**The score** of an attempt is its net: the person's points minus the
bot's, over the rounds (with literal scoring only a round's winner scores,
so this is how much better the person did than the bot with the same
cards). Attempts are ranked by net, then by the person's points; equal
results share a rank. Each also gets its matchpoints as a percentage, as
in duplicate bridge: one point for every attempt it beat, half for every
one it tied, over the others' number (100 when alone). Unfinished attempts
are counted (``playing``) but not ranked.
"""

from __future__ import annotations

import bisect
import datetime
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import time
from collections.abc import Mapping
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.errors import PassingGameError
from passing_game.i18n import N_, _
from passing_game.match import Match
from passing_game.moves import parse_move
from passing_game.rules import Rules
from passing_game.web.accounts.api import current_user
from passing_game.web.accounts.flows import hash_secret
from passing_game.web.game.errors import NOT_READ
from passing_game.web.practice import model as practice
from passing_game.web.protocol import ProtocolError, random_code
from passing_game.web.store import AsyncStore, NewTable, SeatRow, Store, Tx, hash_token, settings
from passing_game.web.store import daily as daily_rows
from passing_game.web.store import tables as table_rows
from passing_game.web.store.rows import StoredTable
from passing_game.web.table.conn import Conn

log = logging.getLogger("passing_game.web")

#: Rounds of one daily deal.
DAILY_ROUNDS = 3
#: The bot everybody plays against.
DAILY_LEVEL = "hard"
#: A target no one reaches in ``DAILY_ROUNDS`` rounds (a round scores at most 168).
DAILY_TARGET = 10000
#: The environment variable holding the seed's key (the same on every process).
SECRET_ENV = "PASSING_GAME_DAILY_SECRET"
#: Where the site's own key is kept when the environment gives none (``web_settings``).
SECRET_SETTING = "daily_secret"
#: An account younger than this may not play a deal already played from its address.
NEW_ACCOUNT_SECONDS = 24 * 3600.0
#: The origin of a daily table (``web_tables.origin``).
ORIGIN = "daily"

_DAY = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


#: Refusals this module sends from more than one place (each worded once).
SIGN_IN_DAILY = N_("Sign in to play the daily deal.")


def today(now: float | None = None) -> str:
    """The UTC date, ``YYYY-MM-DD``: the daily deal's day."""
    moment = datetime.datetime.fromtimestamp(time.time() if now is None else now, datetime.UTC)
    return moment.date().isoformat()


def parse_day(text: str) -> str | None:
    """``text`` if it is a real date written ``YYYY-MM-DD``, else ``None``.

    >>> parse_day("2026-02-28"), parse_day("2026-02-30"), parse_day("26-1-1")
    ('2026-02-28', None, None)
    """
    if not _DAY.match(text):
        return None
    try:
        return datetime.date.fromisoformat(text).isoformat()
    except ValueError:
        return None


def daily_seed(day: str, secret: str) -> int:
    """The day's seed: HMAC-SHA256 of the day under the site's secret, 63 bits.
    The secret is always given: an empty one would let anybody compute the deals.

    >>> daily_seed("2026-01-01", "k") == daily_seed("2026-01-01", "k")
    True
    >>> daily_seed("2026-01-01", "k") != daily_seed("2026-01-02", "k")
    True
    >>> daily_seed("2026-01-01", "k") != daily_seed("2026-01-01", "other")
    True
    >>> 0 <= daily_seed("2026-01-01", "k") < 2**63
    True
    """
    digest = hmac.new(secret.encode(), f"passing-game daily {day}".encode(), hashlib.sha256)
    return int.from_bytes(digest.digest()[:8], "big") >> 1


def site_secret(store: Store, environ: Mapping[str, str] | None = None) -> str:
    """The daily deal's key: the environment's if it sets one, else the site's own,
    made once at random and kept in the store, where every process finds the same
    one (the first to insert it wins; the others read it back)."""
    given = (os.environ if environ is None else environ).get(SECRET_ENV, "")
    if given:
        return given
    with store.transaction() as tx:
        kept = settings.setting(tx, SECRET_SETTING, secrets.token_hex(32))
    if not kept:  # pragma: no cover - inserted just above
        raise RuntimeError("no daily secret in the store")
    log.warning(
        "%s is not set: the daily deal uses the site's own secret, kept in the store"
        " (set the same one on every process to choose it yourself)",
        SECRET_ENV,
        extra={"event": "daily-secret"},
    )
    return kept


def daily_rules() -> Rules:
    """Two players, every variant at its default, a target out of reach."""
    return Rules(players=2, target=DAILY_TARGET)


class RoundsMatch(Match):
    """A match that ends after ``rounds`` rounds (the daily deal); its winner is
    the side with the most points, the lower seat on a tie."""

    def __init__(self, rules: Rules, seed: int, rounds: int = DAILY_ROUNDS) -> None:
        self.round_limit = rounds
        super().__init__(rules, seed)

    def _start_round(self) -> None:
        if len(self.results) >= self.round_limit:
            self.winner = self.scores.index(max(self.scores))
            return
        super()._start_round()


def match_for(origin: str, rules: Rules, seed: int, deal: str | None = None) -> Match:
    """The match a table plays: a daily table's ends after ``DAILY_ROUNDS`` rounds;
    a practice table's is one round from its explicit ``deal`` (web/practice/)."""
    if origin == ORIGIN:
        return RoundsMatch(rules, seed)
    if origin == practice.ORIGIN:
        return practice.practice_match(rules, seed, deal)
    return Match(rules, seed)


def stored_match(stored: StoredTable) -> Match:
    """A stored table's current game: its match (``match_for``), every stored move
    played and its resignation; ``PassingGameError`` names a move the rules refuse."""
    match = match_for(stored.origin, Rules.from_dict(stored.rules), stored.seed, stored.deal)
    for index, text in enumerate(stored.moves, start=1):
        try:
            match.play(parse_move(text))
        except PassingGameError as exc:
            raise PassingGameError(
                f"table {stored.code}, game {stored.game}, stored move {index} ({text!r}): {exc}"
            ) from None
    if stored.resigned is not None and not match.is_over:
        match.resign(stored.resigned)
    return match


def daily_record(text: str) -> str:
    """A daily table's record: no ``winner`` (the plain engine would not end the
    match after the rounds), and the number of rounds."""
    data = json.loads(text)
    data.pop("winner", None)
    data["daily"] = {"rounds": DAILY_ROUNDS}
    return json.dumps(data, indent=1, ensure_ascii=False)


# -- the store (blocking: through AsyncStore.run) -----------------------------------


class DailyRefused(Exception):
    """No attempt for this account today (``reason``: ``name``, ``address`` or
    ``gone``). Raised in a store thread; ``open_daily`` words it for the person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _check_person(
    tx: Tx, day: str, user_id: str, name_hash: str, addresses: set[str], young: bool
) -> None:
    """Refuse a second attempt of one person under another account (``DailyRefused``)."""
    if daily_rows.played_by_name(tx, day, name_hash, user_id):
        raise DailyRefused("name")
    for address_hash in sorted(addresses) if young else ():
        if daily_rows.played_from(tx, day, address_hash, user_id):
            raise DailyRefused("address")


def daily_table(
    store: Store,
    day: str,
    user_id: str,
    token_hash: str,
    now: float,
    *,
    secret: str,
    address: str = "?",
) -> tuple[str, bool]:
    """The account's table of the day: ``(code, True)`` made now, ``(code, False)``
    the one it already has; ``DailyRefused`` if the person already played it
    under another account. The checks, the table and its ``web_daily`` row are
    one transaction under a lock: two attempts at once (two tabs, two
    processes) cannot both pass."""
    where = hash_secret(address) if address not in ("", "?") else None
    for _attempt in range(3):
        try:
            with store.transaction() as tx:
                daily_rows.lock(tx)
                had = daily_rows.table_of(tx, day, user_id)
                if had is not None:
                    return had, False
                user = daily_rows.player(tx, user_id)
                if user is None:
                    raise DailyRefused("gone")
                name_hash = hash_secret(user.name_key)
                addresses = {str(a) for a in (where, user.address_hash) if a}
                young = now - user.created < NEW_ACCOUNT_SECONDS
                _check_person(tx, day, user_id, name_hash, addresses, young)
                code = table_rows.free_code(tx, random_code)
                table_rows.insert_table(
                    tx,
                    NewTable(
                        code,
                        daily_rules().to_dict(),
                        daily_seed(day, secret),
                        (
                            SeatRow(0, "human", user.name, None, token_hash, user_id=user_id),
                            SeatRow(1, "bot", DAILY_LEVEL, DAILY_LEVEL),
                        ),
                        created=now,
                        creator=None,
                        origin=ORIGIN,
                    ),
                )
                daily_rows.insert(tx, day, user_id, code, now, name_hash, where)
        except DailyRefused:
            raise
        except Exception as exc:
            if store.is_integrity_error(exc):
                continue  # a table code taken meanwhile: another one
            raise
        return code, True
    raise RuntimeError("no daily table")  # pragma: no cover


def _score(record: str | None) -> tuple[int, int] | None:
    if not record:
        return None
    try:
        scores = json.loads(record)["scores"]
        return int(scores[0]), sum(int(s) for s in scores[1:])
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def standings(store: Store, day: str, user_id: str | None = None) -> dict[str, Any]:
    """The day's table: finished attempts ranked (P31), how many still play, and
    the asking account's own attempt."""
    with store.transaction() as tx:
        rows = daily_rows.attempts(tx, day)
    done: list[dict[str, Any]] = []
    playing = 0
    mine: dict[str, Any] | None = None
    for row in rows:
        score = _score(row.record) if row.finished else None
        if row.user_id == user_id:
            mine = {"code": row.code, "finished": score is not None, "rank": None}
        if score is None:
            playing += 1
            continue
        points, bots = score
        done.append(
            {
                "name": row.name,
                "points": points,
                "bots": bots,
                "net": points - bots,
                "started": row.started,
                "you": row.user_id == user_id,
            }
        )
    done.sort(key=lambda e: (-e["net"], -e["points"], e["started"]))
    nets = sorted(e["net"] for e in done)
    others = len(done) - 1
    for index, entry in enumerate(done):
        key = (entry["net"], entry["points"])
        if index and key == (done[index - 1]["net"], done[index - 1]["points"]):
            entry["rank"] = done[index - 1]["rank"]  # equal results share a rank
        else:
            entry["rank"] = index + 1
        beaten = bisect.bisect_left(nets, entry["net"])
        tied = bisect.bisect_right(nets, entry["net"]) - beaten - 1
        entry["percent"] = 100.0 if others <= 0 else round(100 * (beaten + tied / 2) / others, 1)
        if entry["you"] and mine is not None:
            mine["rank"] = entry["rank"]
        del entry["started"]
    return {
        "day": day,
        "today": day == today(),
        "rounds": DAILY_ROUNDS,
        "players": 2,
        "level": DAILY_LEVEL,
        "entries": done,
        "playing": playing,
        "you": mine,
    }


# -- the intent and the endpoints -------------------------------------------------


def _refusal(reason: str) -> ProtocolError:
    if reason == "name":
        return ProtocolError(
            _("Today's deal was already played under this user name: one attempt a day."),
            "daily-once",
        )
    if reason == "address":
        return ProtocolError(
            _(
                "Today's deal was already played from here, and this account is new:"
                " it may play tomorrow's."
            ),
            "daily-once",
        )
    return ProtocolError(_(SIGN_IN_DAILY), "signed-out")


class Dealer(Protocol):
    """What the daily deal asks of its process: the store, and the site's secret
    (read when the process starts)."""

    daily_secret: str | None

    @property
    def db(self) -> AsyncStore: ...

    @property
    def store(self) -> Store: ...


async def open_daily(host: Dealer, conn: Conn) -> tuple[str, str | None]:
    """``{"type": "daily"}``: today's table for this account, made now or taken up
    again: its code, and the seat token when it was just made (``None``: the
    account's seat of the day, resumed on any device)."""
    if conn.user_id is None:
        raise ProtocolError(_(SIGN_IN_DAILY), "signed-out")
    secret = host.daily_secret
    if not secret:  # a lobby that was never started: read it now, once
        secret = host.daily_secret = await host.db.run(site_secret, host.store)
    token = secrets.token_urlsafe(24)
    try:
        code, made = await host.db.run(
            daily_table,
            host.store,
            today(),
            conn.user_id,
            hash_token(token),
            time.time(),
            secret=secret,
            address=conn.address,
        )
    except DailyRefused as refused:
        raise _refusal(refused.reason) from None
    return code, token if made else None


async def _day_endpoint(request: Request, day: str) -> Response:
    db: AsyncStore = request.app.state.lobby.db
    user = await current_user(request)
    try:
        found = await db.run(standings, db.store, day, user.id if user else None)
    except Exception:
        log.exception("could not read the daily deal's table")
        return JSONResponse({"error": _(NOT_READ)}, 503)
    return JSONResponse(found, headers={"Cache-Control": "no-store"})


async def today_endpoint(request: Request) -> Response:
    """``GET /api/daily``: today's table."""
    return await _day_endpoint(request, today())


async def day_endpoint(request: Request) -> Response:
    """``GET /api/daily/YYYY-MM-DD``: that day's table (none after today)."""
    day = parse_day(str(request.path_params["day"]))
    if day is None:
        return JSONResponse({"error": _("A day is written like 2026-01-31.")}, 400)
    if day > today():
        return JSONResponse({"error": _("There is no daily deal for that day yet.")}, 404)
    return await _day_endpoint(request, day)


ROUTES = [
    Route("/api/daily", today_endpoint),
    Route("/api/daily/{day}", day_endpoint),
]

__all__ = [
    "DAILY_LEVEL",
    "DAILY_ROUNDS",
    "NEW_ACCOUNT_SECONDS",
    "ROUTES",
    "SECRET_ENV",
    "DailyRefused",
    "RoundsMatch",
    "daily_record",
    "daily_rules",
    "daily_seed",
    "match_for",
    "open_daily",
    "parse_day",
    "site_secret",
    "standings",
    "today",
]
