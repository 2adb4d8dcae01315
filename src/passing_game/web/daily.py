"""The daily deal (issue 13, item 8; docs/DECISIONS.md P31).

Each day (its UTC date) has one deal that everybody plays: the same
``DAILY_ROUNDS`` rounds of a two-player game against the same bot (level
``DAILY_LEVEL``), one attempt per account (``web_daily``: day, account,
table). The day's table compares everyone's results as duplicate bridge
does: the same cards, so who did best with them.

**The seed.** ``daily_seed(day)`` is the first 8 bytes of
HMAC-SHA256(key = ``PASSING_GAME_DAILY_SECRET``, message =
``"passing-game daily YYYY-MM-DD"``), big-endian, with the top bit cleared
(63 bits, like every table's seed). Every process computes the same seed
from the date alone, with nothing stored. The key is empty unless the
environment sets it; without one, anybody who reads this can compute a
day's deals, so a public site sets the same secret on every process.
``Match(rules, seed)`` deals round k from the seed and k alone (D9), and
the leader rule is ``random`` (drawn from the seed too), so every attempt
gets the same hands, the same boneyard and the same leader each round, and
the bot (seeded by the game's seed and its seat) answers the same position
with the same move.

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
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from passing_game.i18n import _
from passing_game.match import Match
from passing_game.rules import Rules
from passing_game.web.account_api import current_user
from passing_game.web.protocol import CODE_ALPHABET, CODE_LENGTH, Intent, ProtocolError
from passing_game.web.store import NewTable, SeatRow, Store, hash_token

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


def daily_seed(day: str, secret: str | None = None) -> int:
    """The day's seed: HMAC-SHA256 of the day under the site's secret, 63 bits.

    >>> daily_seed("2026-01-01", "") == daily_seed("2026-01-01", "")
    True
    >>> daily_seed("2026-01-01", "") != daily_seed("2026-01-02", "")
    True
    """
    key = (os.environ.get(SECRET_ENV, "") if secret is None else secret).encode()
    digest = hmac.new(key, f"passing-game daily {day}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


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


def _new_code(store: Store) -> str:
    with store.transaction() as tx:
        for _attempt in range(50):
            code = "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))
            if tx.one("SELECT 1 FROM web_tables WHERE code = ?", (code,)) is None:
                return code
    raise RuntimeError("no free table code")  # pragma: no cover


def daily_table(
    store: Store, day: str, user_id: str, name: str, token_hash: str, now: float
) -> tuple[str, bool]:
    """The account's table of the day: ``(code, True)`` made now, ``(code, False)``
    the one it already has. The table and its ``web_daily`` row are one
    transaction: a second attempt at once (two tabs) finds the first."""
    for _attempt in range(3):
        with store.transaction() as tx:
            row = tx.one("SELECT code FROM web_daily WHERE day = ? AND user_id = ?", (day, user_id))
        if row is not None:
            return str(row[0]), False
        code = _new_code(store)
        try:
            with store.transaction() as tx:
                tx.create_table(
                    NewTable(
                        code,
                        daily_rules().to_dict(),
                        daily_seed(day),
                        (
                            SeatRow(0, "human", name, None, token_hash, user_id=user_id),
                            SeatRow(1, "bot", DAILY_LEVEL, DAILY_LEVEL),
                        ),
                        created=now,
                        creator=None,
                        origin=ORIGIN,
                    )
                )
                tx.run(
                    "INSERT INTO web_daily (day, user_id, code, started) VALUES (?, ?, ?, ?)",
                    (day, user_id, code, now),
                )
        except Exception as exc:
            checker = getattr(store, "_is_integrity_error", None)
            if callable(checker) and checker(exc):
                continue  # the other attempt won: it is the one
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


async def play_daily(lobby: Lobby, conn: Conn) -> None:
    """``{"type": "daily"}``: today's deal, made for this account or taken up again."""
    if conn.user_id is None:
        raise ProtocolError(_("sign in to play the daily deal"), "signed-out")
    token = secrets.token_urlsafe(24)
    code, made = await lobby.db.run(
        daily_table,
        lobby.store,
        today(),
        conn.user_id,
        conn.user_name or "",
        hash_token(token),
        time.time(),
    )
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
    "ROUTES",
    "RoundsMatch",
    "daily_record",
    "daily_rules",
    "daily_seed",
    "match_for",
    "parse_day",
    "play_daily",
    "standings",
    "today",
]
