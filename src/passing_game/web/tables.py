"""The tables a server holds: people, bots, moves, and who is told what.

Everything that changes a table holds the table's lock (``Table.lock``)
from its check to its broadcast, so two intents never interleave. While it
is held the table waits for the database, in a worker thread
(``AsyncStore``): the event loop goes on serving every other table. A bot's
(or the hint adviser's) thinking also runs off the loop, in a thread or a
worker process; its move is then checked against the table's move count
before it is taken, exactly like a person's.

Order for every accepted move: check it against the rules, store it (with
the table's next sequence number) and wait for the commit, apply it, and
only then put the new frames on the clients' queues. A client's frames go
out in order through its own queue, so a slow client never holds up a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import multiprocessing
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from passing_game import bots as bot_registry
from passing_game.bots import Bot
from passing_game.errors import PassingGameError
from passing_game.i18n import DEFAULT_LANGUAGE, _, using_language
from passing_game.match import Match
from passing_game.moves import DRAW, PASS, Move, parse_move
from passing_game.records import dump_record
from passing_game.rules import Rules
from passing_game.views import View
from passing_game.web import frames
from passing_game.web.protocol import (
    CODE_ALPHABET,
    CODE_LENGTH,
    Intent,
    ProtocolError,
    RateLimit,
    parse_rules,
    parse_seats,
)
from passing_game.web.store import (
    AsyncStore,
    NewTable,
    SeatRow,
    Store,
    StoredTable,
    hash_token,
)

log = logging.getLogger("passing_game.web")

#: Bots cheap enough to run on the event loop itself (well under a millisecond).
FAST_BOTS = frozenset({"random", "greedy", "heuristic"})
#: Frames a client may fall behind by before it is dropped (it resyncs on reconnect).
MAX_QUEUE = 200


def bot_choices() -> list[str]:
    """Bot names and levels a table may seat: every one that plays fair (R9)."""
    fair = getattr(bot_registry, "fair_names", None)
    return list(fair() if callable(fair) else bot_registry.names())


def level_choices() -> list[str]:
    """The levels the lobby offers, weakest first; bot names if no levels exist."""
    fair = set(bot_choices())
    levels = [name for name in bot_registry.LEVELS if name in fair]
    return levels or [n for n in ("random", "greedy") if n in fair]


def hint_level() -> str:
    """The adviser behind the hint button: a bot that explains itself if any."""
    for name in ("medium", "heuristic", "easy", "greedy"):
        if name in bot_choices():
            return name
    return bot_choices()[0]


def encode(frame: dict[str, Any]) -> str:
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


class Conn:
    """One client connection: an outgoing queue, a rate limit, where it sits.

    ``send`` is the transport's coroutine for one text frame; ``run`` pumps
    the queue into it until the connection closes.
    """

    def __init__(self, send: Callable[[str], Awaitable[None]]) -> None:
        self._send = send
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.table: Table | None = None
        self.seat: int | None = None
        self.limit = RateLimit()
        self.hinting = False
        self.closed = False
        #: The visitor's language (``web/i18n.py``): frames and errors are worded in it.
        self.language = DEFAULT_LANGUAGE
        self._last_rate_error = -1.0

    def push(self, frame: dict[str, Any]) -> None:
        self.push_text(encode(frame))

    def push_text(self, text: str) -> None:
        """Queue one encoded frame (shared by every connection of a seat)."""
        if self.closed:
            return
        if self._queue.qsize() >= MAX_QUEUE:
            log.warning("dropping a client that fell %d frames behind", MAX_QUEUE)
            self.close()
            return
        self._queue.put_nowait(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(None)

    async def run(self) -> None:
        while True:
            text = await self._queue.get()
            if text is None:
                return
            await self._send(text)

    def rate_error_due(self, now: float) -> bool:
        """Whether to tell a flooding client again (at most once a second)."""
        if now - self._last_rate_error >= 1.0:
            self._last_rate_error = now
            return True
        return False


@dataclass
class Seat:
    """A seat at a table, as the server holds it."""

    seat: int
    kind: str
    name: str
    level: str | None = None
    token_hash: str | None = None
    conns: set[Conn] = field(default_factory=set)

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.level, self.token_hash)  # type: ignore[arg-type]

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": frames.seat_name(self.kind, self.name, self.level),
            "level": self.level,
            "connected": self.kind == "bot" or bool(self.conns),
        }


def make_bot(level: str, seed: int, seat: int) -> Bot:
    """A table's bot, seeded by the game's seed and its seat (deterministic)."""
    try:
        return bot_registry.make(level, seed=f"{seed}/{seat}")
    except (ValueError, TypeError):
        return bot_registry.make(level)


_POOLED: dict[tuple[str, int, int], Bot] = {}


def pooled_choose(level: str, seed: int, seat: int, view: View) -> Move:
    """A slow bot's move, in a worker process; the same bot as the table's own.

    A bot's move is a function of its seed and the view alone, so a worker
    that builds its own copy of the bot chooses exactly what the table would.
    """
    key = (level, seed, seat)
    bot = _POOLED.get(key)
    if bot is None:
        if len(_POOLED) > 512:
            _POOLED.clear()
        bot = _POOLED[key] = make_bot(level, seed, seat)
    return bot.choose(view)


class Table:
    """One table: its seats, its current game, its clients."""

    def __init__(self, lobby: Lobby, stored: StoredTable) -> None:
        self.lobby = lobby
        self.code = stored.code
        self.rules = Rules.from_dict(stored.rules)
        self.seats = [Seat(s.seat, s.kind, s.name, s.level, s.token_hash) for s in stored.seats]
        self.game = stored.game
        self.seq = stored.last_seq
        self.state = 0
        self.spectators: set[Conn] = set()
        self.acks: set[int] = set()
        self._bot_task: asyncio.Task[None] | None = None
        #: Held from a change's check to its broadcast (the store is awaited inside).
        self.lock = asyncio.Lock()
        self.cache = frames.FrameCache()
        self._start_game(stored.seed)
        for index, text in enumerate(stored.moves, start=1):
            try:
                self.match.play(parse_move(text))
            except PassingGameError as exc:
                raise PassingGameError(
                    f"table {self.code}, game {self.game}, stored move {index} ({text!r}): {exc}"
                ) from None
        #: Moves made in the current round (cheaper than copying its history).
        self.round_moves = len(self.match.round.history)

    def _start_game(self, seed: int) -> None:
        self.seed = seed
        self.match = Match(self.rules, seed)
        self.bots = {
            s.seat: make_bot(s.level or s.name, seed, s.seat) for s in self.seats if s.kind == "bot"
        }
        self.bot_levels = {s.seat: s.level or s.name for s in self.seats if s.kind == "bot"}

    # -- reading -----------------------------------------------------------

    @property
    def db(self) -> AsyncStore:
        return self.lobby.db

    @property
    def started(self) -> bool:
        """Play starts once every seat is taken."""
        return all(s.kind != "open" for s in self.seats)

    def waiting(self) -> list[int]:
        """People still to confirm the last round's summary before the next starts."""
        m = self.match
        if m.is_over or m.round_number == 1 or self.round_moves:
            return []
        return [
            s.seat for s in self.seats if s.kind == "human" and s.conns and s.seat not in self.acks
        ]

    @property
    def paused(self) -> bool:
        return bool(self.waiting())

    def names(self) -> list[str]:
        return [frames.seat_name(s.kind, s.name, s.level) for s in self.seats]

    def frame(self, viewer: int | None) -> dict[str, Any]:
        waiting = self.waiting()
        return frames.state_frame(
            self.match,
            viewer,
            code=self.code,
            state=self.state,
            game=self.game,
            seat_rows=[s.public() for s in self.seats],
            started=self.started,
            paused=bool(waiting),
            waiting=waiting,
            cache=self.cache,
        )

    def broadcast(self) -> None:
        """A new state: every client gets its own seat's frame (spectators: no hand)."""
        self.state += 1
        for seat in self.seats:
            if seat.conns:
                self._push_frames(seat.conns, seat.seat)
        if self.spectators:
            self._push_frames(self.spectators, None)
        self.kick()

    def _push_frames(self, conns: set[Conn], viewer: int | None) -> None:
        """``viewer``'s frame to each of ``conns``, worded once per language among them."""
        texts: dict[str, str] = {}
        for conn in list(conns):
            text = texts.get(conn.language)
            if text is None:
                with using_language(conn.language):
                    text = texts[conn.language] = encode(self.frame(viewer))
            conn.push_text(text)

    def send_state(self, conn: Conn) -> None:
        with using_language(conn.language):
            conn.push(self.frame(conn.seat))

    # -- who sits where ----------------------------------------------------

    async def claim(self, seat: int | None, name: str) -> tuple[int, str]:
        """A person takes an open seat; returns the seat and its new secret token.

        The caller then attaches the connection to the seat.
        """
        async with self.lock:
            return await self._claim(seat, name)

    async def _claim(self, seat: int | None, name: str) -> tuple[int, str]:
        if seat is None:
            seat = next((s.seat for s in self.seats if s.kind == "open"), None)
            if seat is None:
                raise ProtocolError(_("this table is full; you can watch it"), "table-full")
        if not 0 <= seat < len(self.seats):
            raise ProtocolError(_("this table has no seat {seat}").format(seat=seat), "bad-seat")
        target = self.seats[seat]
        if target.kind != "open":
            raise ProtocolError(_("that seat is taken"), "seat-taken")
        token = secrets.token_urlsafe(24)
        row = SeatRow(seat, "human", name, None, hash_token(token))
        await self.db.update_seat(self.code, row)
        target.kind, target.name, target.token_hash = "human", row.name, row.token_hash
        return seat, token

    def check_token(self, seat: int, token: str) -> None:
        """Refuse a seat token that is not the seat's (a reload takes a seat back with it)."""
        if not 0 <= seat < len(self.seats):
            raise ProtocolError(_("this table has no seat {seat}").format(seat=seat), "bad-seat")
        held = self.seats[seat]
        if (
            held.kind != "human"
            or held.token_hash is None
            or not hmac.compare_digest(held.token_hash, hash_token(token))
        ):
            raise ProtocolError(_("that seat token is not valid"), "bad-token")

    def attach(self, conn: Conn, seat: int | None) -> None:
        self.lobby.detach(conn)
        conn.table, conn.seat = self, seat
        if seat is None:
            self.spectators.add(conn)
        else:
            self.seats[seat].conns.add(conn)
        self.broadcast()

    def detach(self, conn: Conn) -> None:
        self.spectators.discard(conn)
        for seat in self.seats:
            seat.conns.discard(conn)
        conn.table, conn.seat = None, None
        self.broadcast()

    # -- moves -------------------------------------------------------------

    async def accept(self, seat: int, move: Move, *, at: int | None = None) -> bool:
        """Check, store, apply, tell: the one way a move enters a game.

        ``at`` is the move count a bot chose for: if the table has moved on
        since, the move is dropped (``False``) instead of refused.
        """
        async with self.lock:
            if at is not None and at != self.seq:
                return False
            await self._accept(seat, move)
            return True

    async def _accept(self, seat: int, move: Move) -> None:
        m = self.match
        if m.is_over:
            raise ProtocolError(_("the game is over"), "game-over")
        if not self.started:
            raise ProtocolError(_("the game starts when every seat is taken"), "not-started")
        if m.round.to_move != seat:
            raise ProtocolError(_("it is not your turn"), "not-your-turn")
        reason = m.round.why_illegal(move)
        if reason is not None:
            raise ProtocolError(reason, "illegal")
        seq = self.seq + 1
        # Stored (committed) before anything changes here or anybody hears of it.
        await self.db.append_move(self.code, seq, self.game, str(move))
        self.seq = seq
        result = m.play(move)
        self.round_moves = 0 if result is not None and not m.is_over else self.round_moves + 1
        if result is not None:
            self.acks.clear()
        if m.is_over:
            await self.finish()
        self.broadcast()

    async def finish(self) -> None:
        """Keep a finished game's record; a failure is logged and mended on restart."""
        try:
            await self.db.finish_game(self.code, self.game, self.record())
        except Exception:
            log.exception("table %s: the finished game's record was not stored", self.code)

    def record(self) -> str:
        return dump_record(self.match, names=self.names())

    async def act(self, conn: Conn, intent: Intent) -> None:
        """A seated person's intent about the game."""
        kind = intent.type
        if kind == "sync":
            self.send_state(conn)
            return
        seat = conn.seat
        if seat is None:
            raise ProtocolError(_("spectators cannot play"), "spectator")
        if kind == "continue":
            if self.match.round_number > 1 or self.match.is_over:
                self.acks.add(seat)
            self.broadcast()
            return
        if kind == "rematch":
            await self.rematch()
            return
        if kind == "hint":
            self.lobby.spawn(self.hint(conn))
            return
        if kind == "play":
            move: Move = parse_move(intent["move"])
        elif kind == "draw":
            move = DRAW
        elif kind == "pass":
            move = PASS
        else:  # pragma: no cover - the schema has no other types
            raise ProtocolError(_("unknown message type {type!r}").format(type=kind))
        await self.accept(seat, move)
        self.acks.add(seat)

    async def rematch(self) -> None:
        async with self.lock:
            await self._rematch()

    async def _rematch(self) -> None:
        if not self.match.is_over:
            raise ProtocolError(_("a rematch starts once the game is over"), "not-over")
        seed = secrets.randbits(63)
        await self.db.start_game(self.code, self.game + 1, seed)
        self.game += 1
        self.acks.clear()
        self._start_game(seed)
        self.round_moves = 0
        self.broadcast()

    async def hint(self, conn: Conn) -> None:
        """Advice for ``conn``'s seat, sent to that connection only."""
        seat = conn.seat
        if conn.hinting or seat is None:
            return
        m = self.match
        if m.is_over or m.round.to_move != seat or not self.started:
            conn.push(self.error_frame(_("a hint is given on your turn"), "not-your-turn"))
            return
        view = m.view(seat)
        conn.hinting = True
        try:
            adviser = make_bot(hint_level(), 0, seat)
            explain = getattr(adviser, "explain", None)

            def think() -> tuple[Move, str]:
                if callable(explain):
                    found: tuple[Move, str] = explain(view)
                    return found
                return adviser.choose(view), ""

            move, reason = await asyncio.to_thread(think)
        except Exception:
            log.exception("hint failed at table %s", self.code)
            conn.push(self.error_frame(_("No hint is available right now."), "no-hint"))
            return
        finally:
            conn.hinting = False
        conn.push(
            {
                "type": "hint",
                "state": self.state,
                "move": str(move),
                "text": _("Hint: {move}.").format(move=frames.move_words(str(move))),
                "reason": reason,
            }
        )

    def error_frame(self, message: str, code: str = "bad-request") -> dict[str, Any]:
        return {"type": "error", "state": self.state, "code": code, "message": message}

    # -- bots --------------------------------------------------------------

    def bot_to_move(self) -> int | None:
        m = self.match
        if m.is_over or not self.started or self.paused:
            return None
        seat = m.round.to_move
        if seat is not None and seat in self.bots:
            return seat
        return None

    def kick(self) -> None:
        """Start the bots' loop if a bot is to move and none is thinking."""
        if self.lobby.closing or self.bot_to_move() is None:
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = self.lobby.spawn(self._bots())

    async def _bots(self) -> None:
        while True:
            seat = self.bot_to_move()
            if seat is None:
                return
            seq = self.seq
            if self.lobby.bot_delay > 0:
                await asyncio.sleep(self.lobby.bot_delay)
                if self.seq != seq or self.bot_to_move() != seat:
                    continue
            bot = self.bots[seat]
            view = self.match.view(seat)
            try:
                if bot.name in FAST_BOTS:
                    move = bot.choose(view)
                else:
                    move = await self.lobby.think(bot, self.bot_levels[seat], self.seed, seat, view)
            except Exception:
                log.exception("bot %s failed at table %s; it passes or draws", bot.name, self.code)
                move = view.legal_moves()[-1]
            if self.seq != seq or self.bot_to_move() != seat:
                continue
            try:
                await self.accept(seat, move, at=seq)
            except ProtocolError as exc:
                log.error("bot %s at table %s chose a refused move: %s", bot.name, self.code, exc)
                return
            await asyncio.sleep(0)


class Lobby:
    """Every table the server holds, loaded from the store on demand."""

    def __init__(self, store: Store, *, bot_delay: float = 0.6, bot_workers: int = 0) -> None:
        self.store = store
        self.db = AsyncStore(store)
        self.bot_delay = bot_delay
        self.bot_workers = bot_workers
        self._pool: ProcessPoolExecutor | None = None
        self.tables: dict[str, Table] = {}
        self.closing = False
        self._tasks: set[asyncio.Task[Any]] = set()

    async def think(self, bot: Bot, level: str, seed: int, seat: int, view: View) -> Move:
        """A slow bot's move: in worker processes if there are any, else in a thread.

        Processes keep a searching bot from holding the event loop's interpreter.
        """
        if self.bot_workers <= 0:
            return await asyncio.to_thread(bot.choose, view)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.bot_workers, mp_context=multiprocessing.get_context("spawn")
            )
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, pooled_choose, level, seed, seat, view)

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a table task failed", exc_info=task.exception())

    async def resume_all(self) -> int:
        """On start: load every unfinished game and let its bots go on.

        A game whose last move was stored but whose end was not (the server
        died in between) is finished here.
        """
        count = 0
        for code in await self.db.unfinished_codes():
            try:
                table = await self.get(code)
            except Exception:
                log.exception("table %s could not be restored", code)
                continue
            if table is not None:
                if table.match.is_over:
                    await table.finish()
                table.kick()
                count += 1
        return count

    async def get(self, code: str) -> Table | None:
        table = self.tables.get(code)
        if table is None:
            stored = await self.db.load_table(code)
            if stored is None:
                return None
            # Another connection may have loaded it while this one waited.
            table = self.tables.get(code)
            if table is None:
                table = self.tables[code] = Table(self, stored)
        return table

    async def need(self, code: str) -> Table:
        table = await self.get(code)
        if table is None:
            raise ProtocolError(_("there is no table {code}").format(code=code), "no-such-table")
        return table

    async def new_code(self) -> str:
        for _attempt in range(50):
            code = "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))
            if code not in self.tables and await self.db.load_table(code) is None:
                return code
        raise RuntimeError("no free table code")  # pragma: no cover

    async def create(self, intent: Intent) -> tuple[Table, int, str]:
        rules = parse_rules(intent["rules"])
        spec = parse_seats(intent["seats"], rules.players, tuple(bot_choices()))
        code = await self.new_code()
        token = secrets.token_urlsafe(24)
        rows = []
        for seat, entry in enumerate(spec):
            if entry == "you":
                rows.append(SeatRow(seat, "human", intent["name"], None, hash_token(token)))
            elif entry == "person":
                rows.append(SeatRow(seat, "open", ""))
            else:
                rows.append(SeatRow(seat, "bot", entry, entry))
        seed = secrets.randbits(63)
        await self.db.create_table(NewTable(code, rules.to_dict(), seed, tuple(rows)))
        table = await self.get(code)
        assert table is not None
        return table, spec.index("you"), token

    def detach(self, conn: Conn) -> None:
        if conn.table is not None:
            conn.table.detach(conn)

    async def handle(self, conn: Conn, intent: Intent) -> None:
        """Carry out one checked intent; ``ProtocolError`` leaves everything as it was."""
        kind = intent.type
        if kind == "create":
            table, seat, token = await self.create(intent)
            conn.push(self.joined(table, seat, token))
            table.attach(conn, seat)
            return
        if kind == "join":
            table = await self.need(intent["code"])
            seat, token = await table.claim(intent.get("seat"), intent["name"])
            conn.push(self.joined(table, seat, token))
            table.attach(conn, seat)
            return
        if kind == "resume":
            table = await self.need(intent["code"])
            table.check_token(intent["seat"], intent["token"])
            conn.push(self.joined(table, intent["seat"], None))
            table.attach(conn, intent["seat"])
            return
        if kind == "watch":
            table = await self.need(intent["code"])
            conn.push(self.joined(table, None, None))
            table.attach(conn, None)
            return
        if conn.table is None:
            raise ProtocolError(_("join a table first"), "no-table")
        await conn.table.act(conn, intent)

    @staticmethod
    def joined(table: Table, seat: int | None, token: str | None) -> dict[str, Any]:
        frame: dict[str, Any] = {
            "type": "joined",
            "state": table.state,
            "table": table.code,
            "seat": seat,
            "link": f"/t/{table.code}",
        }
        if token is not None:
            frame["token"] = token
        return frame

    async def close(self) -> None:
        self.closing = True
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        # Writes already handed to the store finish (and commit) before it closes.
        await asyncio.to_thread(self.db.shutdown)
