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
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.i18n import _
from passing_game.match import Match
from passing_game.rules import Rules
from passing_game.web.account_api import current_user
from passing_game.web.accounts import hash_secret
from passing_game.web.protocol import CODE_ALPHABET, CODE_LENGTH, Intent, ProtocolError
from passing_game.web.store import NewTable, PostgresStore, SeatRow, Store, Tx, hash_token

if TYPE_CHECKING:
    from passing_game.web.conn import Conn
    from passing_game.web.lobby import Lobby

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
#: The advisory lock under which PostgreSQL processes start daily attempts ("dail").
DAILY_LOCK = 0x6461_696C
#: The origin of a daily table (``web_tables.origin``).
ORIGIN = "daily"

_DAY = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


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
        tx.run(
            "INSERT INTO web_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
            (SECRET_SETTING, secrets.token_hex(32)),
        )
        row = tx.one("SELECT value FROM web_settings WHERE name = ?", (SECRET_SETTING,))
    if row is None or not row[0]:  # pragma: no cover - inserted just above
        raise RuntimeError("no daily secret in the store")
    log.warning(
        "%s is not set: the daily deal uses the site's own secret, kept in the store"
        " (set the same one on every process to choose it yourself)",
        SECRET_ENV,
        extra={"event": "daily-secret"},
    )
    return str(row[0])


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


def match_for(origin: str, rules: Rules, seed: int) -> Match:
    """The match a table plays: a daily table's ends after ``DAILY_ROUNDS`` rounds."""
    if origin == ORIGIN:
        return RoundsMatch(rules, seed)
    return Match(rules, seed)


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
    ``gone``). Raised in a store thread; ``play_daily`` words it for the person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _new_code(tx: Tx) -> str:
    for _attempt in range(50):
        code = "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))
        if tx.one("SELECT 1 FROM web_tables WHERE code = ?", (code,)) is None:
            return code
    raise RuntimeError("no free table code")  # pragma: no cover


def _check_person(
    tx: Tx, day: str, user_id: str, name_hash: str, addresses: set[str], young: bool
) -> None:
    """Refuse a second attempt of one person under another account (``DailyRefused``)."""
    same_name = tx.one(
        "SELECT 1 FROM web_daily WHERE day = ? AND name_hash = ? AND user_id <> ?",
        (day, name_hash, user_id),
    )
    if same_name is not None:
        raise DailyRefused("name")
    for address_hash in sorted(addresses) if young else ():
        here = tx.one(
            "SELECT 1 FROM web_daily WHERE day = ? AND address_hash = ? AND user_id <> ?",
            (day, address_hash, user_id),
        )
        if here is not None:
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
                if isinstance(store, PostgresStore):
                    tx.one("SELECT pg_advisory_xact_lock(?)", (DAILY_LOCK,))
                row = tx.one(
                    "SELECT code FROM web_daily WHERE day = ? AND user_id = ?", (day, user_id)
                )
                if row is not None:
                    return str(row[0]), False
                user = tx.one(
                    "SELECT name, name_key, created, address_hash FROM web_users"
                    " WHERE id = ? AND deleted = 0",
                    (user_id,),
                )
                if user is None:
                    raise DailyRefused("gone")
                name_hash = hash_secret(str(user[1]))
                addresses = {str(a) for a in (where, user[3]) if a}
                young = now - float(user[2]) < NEW_ACCOUNT_SECONDS
                _check_person(tx, day, user_id, name_hash, addresses, young)
                code = _new_code(tx)
                tx.create_table(
                    NewTable(
                        code,
                        daily_rules().to_dict(),
                        daily_seed(day, secret),
                        (
                            SeatRow(0, "human", str(user[0]), None, token_hash, user_id=user_id),
                            SeatRow(1, "bot", DAILY_LEVEL, DAILY_LEVEL),
                        ),
                        created=now,
                        creator=None,
                        origin=ORIGIN,
                    )
                )
                tx.run(
                    "INSERT INTO web_daily (day, user_id, code, started, name_hash,"
                    " address_hash) VALUES (?, ?, ?, ?, ?, ?)",
                    (day, user_id, code, now, name_hash, where),
                )
        except DailyRefused:
            raise
        except Exception as exc:
            checker = getattr(store, "_is_integrity_error", None)
            if callable(checker) and checker(exc):
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
        rows = tx.all(
            "SELECT d.user_id, u.name, d.code, d.started, g.finished, g.record"
            " FROM web_daily d JOIN web_users u ON u.id = d.user_id"
            " JOIN web_games g ON g.code = d.code AND g.game = 1"
            " WHERE d.day = ? AND u.suspended = 0 ORDER BY d.started",
            (day,),
        )
    done: list[dict[str, Any]] = []
    playing = 0
    mine: dict[str, Any] | None = None
    for uid, name, code, started, finished, record in rows:
        score = _score(record) if finished else None
        if uid == user_id:
            mine = {"code": str(code), "finished": score is not None, "rank": None}
        if score is None:
            playing += 1
            continue
        points, bots = score
        done.append(
            {
                "name": str(name),
                "points": points,
                "bots": bots,
                "net": points - bots,
                "started": float(started),
                "you": uid == user_id,
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
    return ProtocolError(_("sign in to play the daily deal"), "signed-out")


async def play_daily(lobby: Lobby, conn: Conn) -> None:
    """``{"type": "daily"}``: today's deal, made for this account or taken up again."""
    if conn.user_id is None:
        raise ProtocolError(_("sign in to play the daily deal"), "signed-out")
    secret: str | None = getattr(lobby, "daily_secret", None)
    if not secret:  # a lobby that was never started: read it now, once
        secret = lobby.daily_secret = await lobby.db.run(site_secret, lobby.store)
    token = secrets.token_urlsafe(24)
    try:
        code, made = await lobby.db.run(
            daily_table,
            lobby.store,
            today(),
            conn.user_id,
            hash_token(token),
            time.time(),
            secret=secret,
            address=conn.address,
        )
    except DailyRefused as refused:
        raise _refusal(refused.reason) from None
    if not made:  # one attempt: the account's seat of the day, on any device
        await lobby.handle(conn, Intent("resume", {"code": code, "seat": 0}))
        return
    await lobby.cluster.claim(code)  # its player's process leads a new table
    table = await lobby.get(code)
    assert table is not None
    conn.push(lobby.joined(table, 0, token))
    await table.seating.attach(conn, 0, new=True)
    log.info("a daily deal started", extra={"table": code, "event": "daily"})


async def _day_endpoint(request: Request, day: str) -> Response:
    lobby: Lobby = request.app.state.lobby
    user = await current_user(request)
    try:
        found = await lobby.db.run(standings, lobby.store, day, user.id if user else None)
    except Exception:
        log.exception("could not read the daily deal's table")
        return JSONResponse({"error": _("the server could not read that; try again")}, 503)
    return JSONResponse(found, headers={"Cache-Control": "no-store"})


async def today_endpoint(request: Request) -> Response:
    """``GET /api/daily``: today's table."""
    return await _day_endpoint(request, today())


async def day_endpoint(request: Request) -> Response:
    """``GET /api/daily/YYYY-MM-DD``: that day's table (none after today)."""
    day = parse_day(str(request.path_params["day"]))
    if day is None:
        return JSONResponse({"error": _("a day is written like 2026-01-31")}, 400)
    if day > today():
        return JSONResponse({"error": _("there is no daily deal for that day yet")}, 404)
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
    "parse_day",
    "play_daily",
    "site_secret",
    "standings",
    "today",
]
