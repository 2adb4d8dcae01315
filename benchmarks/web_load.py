"""Load benchmark for `passing-game serve` (not a test): many tables at once,
on one server process or on several sharing one PostgreSQL (issue 12).

Starts the server processes on 127.0.0.1 (free ports) on a database of the
run's own: a fresh SQLite file in a temporary folder, or with --db
postgresql://... a fresh schema (``?schema=``), dropped at the end. Then it
opens --tables tables at --ramp a second, each with one scripted person on a
WebSocket and bots in the other seats. The person "thinks" --think seconds
(randomised +-50%) before each move, like a quick human; bots wait
--bot-delay as on a real server. After --settle seconds a --duration second
window is measured:

- tables held: tables whose person is connected and playing at the window's end;
- moves per second: every accepted move (people and bots), counted in the
  database over the window;
- move latency: from sending a move to receiving the frame that shows it
  (stored, applied and broadcast), p50 / p95 / p99 over the window;
- CPU over the window: every server process (summed), the server CPU per
  accepted move, PostgreSQL's processes, the client, the whole machine and
  what remains for other work; the load average.

--processes N (PostgreSQL only for N > 1) starts N servers. Person i creates
its table on process i % N (which leads it), then closes that socket and
plays through process (i + 1) % N with ``resume`` (code, seat, token): every
move of theirs is forwarded to the leader and every frame comes from a
replica. After each run the database is checked against what the clients
saw: every move a client saw in a frame must be stored, in order (acknowledged
moves lost), each (code, seq) once and every table's stored games must replay
legally with ``Match(rules, seed)`` (moves stored twice).

--kill-one S sends SIGKILL to process 0 S seconds into the window (failover);
--rolling S restarts the processes one at a time, S seconds apart, with
SIGTERM (rolling restart). A client whose socket dies reconnects to another
process after the page's backoff (0.3 s, doubling, at most 8 s) and takes
its seat back with ``resume``; it gives up after --give-up seconds.

A *wait* is the time a person waits on the server: from sending an intent
(a move, "continue", "rematch"), or from a frame that shows a bot to move,
to the next frame in which the game went on. The longest wait that ended in
the window (or was still open at its end) is the longest pause a table saw.

--clients K runs the scripted people in K processes (one event loop each)
when one process cannot read every frame in time. --profile FILE records
process 0 with py-spy during the window (``--gil``, raw) and prints its top
functions. Every connection goes to 127.0.0.1 and a run stops by itself;
Ctrl-C or SIGTERM stops the servers and drops the schema too.

    .venv/bin/python benchmarks/web_load.py --tables 500 --duration 60
    .venv/bin/python benchmarks/web_load.py --processes 3 --tables 500 --duration 30 \\
        --db postgresql://passing_game:passing_game@127.0.0.1:5432/passing_game_test
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

try:  # the web extra's fast JSON: the client reads every frame
    from orjson import loads
except ImportError:  # pragma: no cover
    from json import loads

#: A resume answered with one of these: the game is gone for this person.
GONE = frozenset({"no-such-table", "bad-token", "bad-seat"})
#: Waits longer than this are kept one by one (shorter ones only count).
LONG_WAIT = 1.0
#: A table with no progress for this long at the window's end is stalled.
STALLED = 15.0
#: Report entries printed one line each.
LISTED = frozenset(
    {
        "profile_top",
        "restarts",
        "stalled_tables",
        "error_samples",
        "failure_samples",
        "games_lost_samples",
        "store_problems",
    }
)


# -- the plan a client process follows ------------------------------------------


@dataclass(frozen=True)
class Schedule:
    """When things happen, in ``time.monotonic()`` seconds (one clock for every process)."""

    ramp_start: float
    ramp_rate: float
    window_start: float
    window_end: float

    def opens(self, index: int) -> float:
        return self.ramp_start + index / self.ramp_rate

    def within(self, t: float) -> bool:
        return self.window_start <= t <= self.window_end


@dataclass(frozen=True)
class ClientPlan:
    """What one client process does: people ``worker``, ``worker + workers``, ..."""

    worker: int
    workers: int
    tables: int
    urls: tuple[str, ...]
    players: int
    bots: tuple[str, ...]
    think: float
    schedule: Schedule
    reconnect: bool
    give_up: float


@dataclass
class TableLog:
    """One person's table, as the client saw it."""

    index: int
    code: str | None = None
    seat: int | None = None
    playing: bool = False
    held: bool = False
    #: Why the person gave up (``None``: never): no process answered, or the game vanished.
    gave_up: str | None = None
    reconnections: int = 0
    #: Intents sent again: a reconnection or an error showed them not carried out.
    resent: int = 0
    #: Frames older than one already seen, or whose round history contradicts one.
    regressions: int = 0
    last_progress: float = 0.0
    #: The last frame, in short, when the table made no progress for STALLED seconds.
    stalled: str | None = None
    #: Then also the last frame itself and the table's last error frames (evidence).
    last_frame: dict[str, Any] | None = None
    last_errors: list[dict[str, Any]] = field(default_factory=list)
    #: What happened at the table, one tuple each: seconds into the window, then
    #: ("state", process, counter, game, round, moves, over, paused), ("error",
    #: process, code, counter), ("send", process, intent) or ("resume", process).
    trail: list[tuple[Any, ...]] = field(default_factory=list)
    #: (game, round) -> the longest history seen, as (seat, move).
    seen: dict[tuple[int, int], list[tuple[int, str]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Wait:
    """A person waiting on the server (see the module's docstring)."""

    ended: float
    seconds: float
    table: str
    #: "bot" (a bot was to move) or "person" (the person's own intent).
    kind: str
    #: The process the table was created on (its first leader), and the person's at the end.
    created_on: int
    person_on: int
    reconnections: int

    def describe(self, start: float) -> str:
        return (
            f"{self.seconds:.2f} s, table {self.table}, ended {self.ended - start:.1f} s into"
            f" the window, waiting for {'a bot' if self.kind == 'bot' else 'its own intent'};"
            f" created on process {self.created_on}, person on {self.person_on},"
            f" {self.reconnections} reconnection(s) meanwhile"
        )


@dataclass
class ClientResult:
    """What one client process measured (times are ``time.monotonic()``)."""

    #: (frame received, seconds): a person's move, sent -> the frame that shows it.
    latencies: list[tuple[float, float]] = field(default_factory=list)
    #: Waits longer than LONG_WAIT (one still open at the end: ended = the end).
    waits: list[Wait] = field(default_factory=list)
    tables: list[TableLog] = field(default_factory=list)
    frames: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    failures: int = 0
    failure_samples: list[str] = field(default_factory=list)
    #: The longest wait in the window.
    longest_wait: Wait | None = None
    person_moves: int = 0
    games_finished: int = 0
    cpu_seconds: float = 0.0


class GaveUp(Exception):
    """The person stops: no process takes them back, or their game is gone."""


class Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


def progress(frame: dict[str, Any]) -> tuple[int, ...]:
    seen = int(not (frame["paused"] and frame["you"] in frame["waiting"]))
    return (frame["game"], frame["round"]["number"], len(frame["round"]["history"]), seen)


def ready(frame: dict[str, Any]) -> bool:
    """Whether the person has something to do (else the table waits for the bots)."""
    return bool(
        frame["over"]
        or frame["round"]["legal"]
        or (frame["paused"] and frame["you"] in frame["waiting"])
    )


async def sleep_until(t: float) -> None:
    await asyncio.sleep(max(0.0, t - time.monotonic()))


# -- one scripted person ----------------------------------------------------------


class Person:
    """Creates a table, plays it until the window ends, and comes back when cut off."""

    def __init__(self, index: int, plan: ClientPlan, out: ClientResult) -> None:
        self.index = index
        self.plan = plan
        self.out = out
        self.rng = random.Random(index)
        self.log = TableLog(index)
        self.process = index % len(plan.urls)
        self.token = ""
        self.connected = False
        #: Progress of the frame the person last acted on, and of the newest frame.
        self.acted: tuple[int, ...] = (0,)
        self.shown: tuple[int, ...] = (0,)
        self.sent_at: float | None = None
        self.waiting_since: float | None = None
        #: The next state frame is taken as news even if it shows nothing new.
        self.resync = False
        self.histories: dict[tuple[int, int], list[dict[str, Any]]] = {}
        self.frame: dict[str, Any] | None = None
        self.wait_kind = "bot"
        self.wait_reconnections = 0

    async def run(self) -> None:
        await sleep_until(self.plan.schedule.opens(self.index))
        ws: ClientConnection | None = None
        try:
            ws = await self.sit_down()
            while True:
                try:
                    await self.play(ws)
                except (ConnectionClosed, OSError):
                    self.connected = False
                    if not self.plan.reconnect:
                        raise
                    await self.close(ws)
                    ws = None
                    ws = await self.come_back()
        except GaveUp as exc:
            self.log.gave_up = str(exc)
        except Exception as exc:  # a refused or dropped connection counts as a failure
            self.out.failures += 1
            if len(self.out.failure_samples) < 5:
                where = self.log.code or "before its table"
                self.out.failure_samples.append(f"{where}: {type(exc).__name__}: {exc}")
        finally:
            self.connected = False
            if ws is not None:
                await self.close(ws)

    @staticmethod
    async def close(ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2)

    async def open(self, process: int) -> ClientConnection:
        return await connect(
            self.plan.urls[process],
            max_size=2**20,
            open_timeout=30,
            ping_interval=None,
            compression=None,
        )

    async def joined(self, ws: ClientConnection) -> dict[str, Any]:
        while True:
            msg = loads(await ws.recv())
            if msg["type"] == "joined":
                return dict(msg)
            if msg["type"] == "error":
                raise Refused(str(msg.get("code")), str(msg.get("message")))

    def resume(self) -> str:
        intent = {"type": "resume", "code": self.log.code, "seat": self.log.seat}
        return json.dumps({**intent, "token": self.token})

    async def sit_down(self) -> ClientConnection:
        """Create the table on process i % N; with N > 1 play on through (i + 1) % N."""
        rng = self.rng
        seats = ["you"] + [rng.choice(self.plan.bots) for _ in range(self.plan.players - 1)]
        create = {
            "type": "create",
            "name": f"P{self.index}",
            "seats": seats,
            "rules": {"players": self.plan.players},
        }
        ws = await self.open(self.process)
        await ws.send(json.dumps(create))
        joined = await asyncio.wait_for(self.joined(ws), 30)
        self.log.code, self.log.seat, self.token = joined["table"], joined["seat"], joined["token"]
        if len(self.plan.urls) > 1:
            await self.close(ws)
            self.process = (self.process + 1) % len(self.plan.urls)
            ws = await self.open(self.process)
            await ws.send(self.resume())
            await asyncio.wait_for(self.joined(ws), 30)
        self.connected = True
        return ws

    async def come_back(self) -> ClientConnection:
        """The page's reconnection: wait 0.3 s, doubling up to 8 s; resume elsewhere."""
        self.log.reconnections += 1
        self.resync = True
        lost = time.monotonic()
        count = len(self.plan.urls)
        for attempt in itertools.count():
            await asyncio.sleep(min(8.0, 0.3 * 2**attempt))
            others = [p for p in range(count) if p != self.process] or [self.process]
            target = self.rng.choice(others)
            ws = None
            try:
                ws = await self.open(target)
                at = round(time.monotonic() - self.plan.schedule.window_start, 3)
                self.log.trail.append((at, "resume", target))
                await ws.send(self.resume())
                await asyncio.wait_for(self.joined(ws), 15)
                self.process = target
                self.connected = True
                return ws
            except Refused as exc:
                if exc.code in GONE:
                    raise GaveUp(f"resume refused ({exc})") from None
            except Exception:
                pass
            if ws is not None:
                await self.close(ws)
            if time.monotonic() - lost > self.plan.give_up:
                raise GaveUp(f"no process took the person back in {self.plan.give_up:.0f} s")
        raise AssertionError("unreachable")  # pragma: no cover

    async def play(self, ws: ClientConnection) -> None:
        """Read frames and act on them until the connection ends (or the run does)."""
        while True:
            text = await ws.recv()
            now = time.monotonic()
            self.out.frames += 1
            msg = loads(text)
            kind = msg["type"]
            self.note(kind, msg, now)
            if kind == "state":
                await self.on_state(ws, msg, now)
            elif kind == "error":
                self.out.errors[str(msg.get("code"))] += 1
                self.log.last_errors = [*self.log.last_errors[-4:], msg]
                if len(self.out.error_samples) < 10:
                    self.out.error_samples.append(
                        f"{self.log.code}: {msg.get('code')}: {msg.get('message')}"
                    )
                if self.sent_at is not None or self.waiting_since is not None:
                    # What was sent may not have been carried out: look again.
                    self.resync = True
                    await ws.send('{"type":"sync"}')
            elif kind == "left":
                raise GaveUp("the server sent the person away from the table")

    def note(self, kind: str, msg: dict[str, Any], now: float) -> None:
        at = round(now - self.plan.schedule.window_start, 3)
        if kind == "state":
            rnd = msg["round"]
            self.log.trail.append(
                (at, "state", self.process, msg["state"], msg["game"], rnd["number"],
                 len(rnd["history"]), msg["over"], msg["paused"])
            )  # fmt: skip
        elif kind == "error":
            self.log.trail.append((at, "error", self.process, msg.get("code"), msg.get("state")))

    def remember(self, frame: dict[str, Any]) -> None:
        """Keep the longest history seen of each round; a contradiction is a regression."""
        key = (frame["game"], frame["round"]["number"])
        history = frame["round"]["history"]
        before = self.histories.get(key)
        if before is None:
            self.histories[key] = history
            return
        short, long = (before, history) if len(before) <= len(history) else (history, before)
        if long[: len(short)] != short and [(t["seat"], t["move"]) for t in short] != [
            (t["seat"], t["move"]) for t in long[: len(short)]
        ]:
            self.log.regressions += 1
        if len(history) >= len(before):
            self.histories[key] = history

    async def on_state(self, ws: ClientConnection, frame: dict[str, Any], now: float) -> None:
        schedule = self.plan.schedule
        self.log.playing = True
        self.frame = frame
        self.remember(frame)
        shown = progress(frame)
        if shown > self.shown:
            self.log.last_progress = now
            if self.waiting_since is not None:
                self.note_wait(now - self.waiting_since, now)
            self.waiting_since = None if ready(frame) else now
            self.wait_kind, self.wait_reconnections = "bot", self.log.reconnections
            self.shown = shown
        elif shown < self.shown:
            # Older than a frame already seen (a replica behind, a summary shown late):
            # the page shows it as it is, and the person acts on what it shows.
            self.log.regressions += 1
            self.shown = shown
        again = self.resync and shown == self.acted
        self.resync = False
        if shown == self.acted and not again:
            return
        if self.sent_at is not None and shown > self.acted:
            if now >= schedule.window_start:
                self.out.latencies.append((now, now - self.sent_at))
            self.sent_at = None
        if not ready(frame):
            return
        if again:  # what the person sent before the connection broke never arrived
            self.log.resent += 1
        if frame["over"]:
            if not again:
                self.out.games_finished += 1
            await self.act(ws, shown, '{"type":"rematch"}', move=False)
        elif frame["paused"] and frame["you"] in frame["waiting"]:
            await self.act(ws, shown, '{"type":"continue"}', move=False)
        else:
            if not again:
                await asyncio.sleep(self.plan.think * self.rng.uniform(0.5, 1.5))
            choice = self.rng.choice(frame["round"]["legal"])
            if choice in ("draw", "pass"):
                text = json.dumps({"type": choice})
            else:
                text = json.dumps({"type": "play", "move": choice})
            await self.act(ws, shown, text, move=True)

    async def act(
        self, ws: ClientConnection, shown: tuple[int, ...], text: str, *, move: bool
    ) -> None:
        now = time.monotonic()
        self.acted = shown
        if self.waiting_since is None:
            self.waiting_since = now
            self.wait_kind, self.wait_reconnections = "person", self.log.reconnections
        if move:
            if self.sent_at is None:
                self.sent_at = now
            if self.plan.schedule.within(now):
                self.out.person_moves += 1
        self.log.trail.append(
            (round(now - self.plan.schedule.window_start, 3), "send", self.process, text[:40])
        )
        await ws.send(text)

    def note_wait(self, seconds: float, now: float) -> None:
        if now < self.plan.schedule.window_start:
            return
        wait = Wait(
            ended=now,
            seconds=seconds,
            table=str(self.log.code),
            kind=self.wait_kind,
            created_on=self.index % len(self.plan.urls),
            person_on=self.process,
            reconnections=self.log.reconnections - self.wait_reconnections,
        )
        if seconds > LONG_WAIT:
            self.out.waits.append(wait)
        longest = self.out.longest_wait
        if longest is None or seconds > longest.seconds:
            self.out.longest_wait = wait

    def finish(self, end: float) -> TableLog:
        """The table's log at the window's end; what is still awaited counts up to then:
        a wait still open, and a move not shown yet (with its age as its latency)."""
        if self.waiting_since is not None and self.log.gave_up is None:
            self.note_wait(end - self.waiting_since, end)
        if self.sent_at is not None and self.log.gave_up is None:
            self.out.latencies.append((end, end - self.sent_at))
        connected = self.connected and self.log.playing and self.log.gave_up is None
        if connected and self.frame is not None and end - self.log.last_progress > STALLED:
            f, since = self.frame, end - self.log.last_progress
            self.log.stalled = (
                f"{f['table']}: no progress for {since:.0f} s; last frame: state {f['state']},"
                f" game {f['game']} round {f['round']['number']} move"
                f" {len(f['round']['history'])}, to move {f['round']['to_move']}"
                f" (the person is {f['you']}), legal {len(f['round']['legal'])},"
                f" paused {f['paused']}, over {f['over']}; sent {self.sent_at is not None}"
            )
            self.log.last_frame = f
        else:
            self.log.last_errors = []
        self.log.held = connected and self.log.stalled is None
        self.log.seen = {
            key: [(int(t["seat"]), str(t["move"])) for t in history]
            for key, history in self.histories.items()
        }
        return self.log


async def play_tables(plan: ClientPlan) -> ClientResult:
    """One client process: its share of the people, until the window ends."""
    out = ClientResult()
    people = [Person(i, plan, out) for i in range(plan.worker, plan.tables, plan.workers)]
    tasks = [asyncio.create_task(p.run()) for p in people]
    await sleep_until(plan.schedule.window_start)
    cpu = time.process_time()
    await sleep_until(plan.schedule.window_end)
    out.cpu_seconds = time.process_time() - cpu
    end = time.monotonic()
    out.tables = [p.finish(end) for p in people]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return out


def client_main(plan: ClientPlan, sender: Connection) -> None:
    """A client process's entry point (spawned): the parent stops it on Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import uvloop

        result = uvloop.run(play_tables(plan))
    except ImportError:  # pragma: no cover
        result = asyncio.run(play_tables(plan))
    sender.send(result)
    sender.close()


# -- the database -------------------------------------------------------------------


class Database:
    """The run's own database: a fresh SQLite file, or a fresh PostgreSQL schema."""

    def __init__(self, url: str, *, sqlite: Path | None = None, schema: str | None = None):
        self.url = url  # PostgreSQL: without the schema
        self.sqlite = sqlite
        self.schema = schema
        #: Not dropped at the end (evidence of something that went wrong).
        self.keep = False

    @classmethod
    def fresh(cls, given: str | None, folder: Path) -> Database:
        if given is None:
            path = folder / "load.sqlite3"
            return cls(f"sqlite:///{path}", sqlite=path)
        if given.startswith("sqlite:///"):  # the caller's file: counted, never deleted
            return cls(given, sqlite=Path(given.removeprefix("sqlite:///")))
        if "schema=" in given:
            raise SystemExit("--db: give the database's URL; each run makes its own schema")
        return cls(given, schema=f"load_{time.strftime('%H%M%S')}_{uuid.uuid4().hex[:6]}")

    @property
    def name(self) -> str:
        return "sqlite" if self.sqlite is not None else "postgresql"

    @property
    def server_url(self) -> str:
        """What each server gets as --db."""
        if self.schema is None:
            return self.url
        joiner = "&" if "?" in self.url else "?"
        return f"{self.url}{joiner}schema={self.schema}"

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        if self.sqlite is not None:
            uri = f"file:{self.sqlite}?mode=ro"
            with contextlib.closing(sqlite3.connect(uri, uri=True)) as conn:
                return list(conn.execute(sql).fetchall())
        import psycopg

        with psycopg.connect(self.url) as conn:
            conn.execute(f'SET search_path TO "{self.schema}"')
            return list(conn.execute(sql).fetchall())

    def leases(self, codes: list[str], servers: list[Server]) -> dict[str, str]:
        """Who holds each table's lease now (PostgreSQL), by server index."""
        if self.schema is None or not codes:
            return {}
        by_pid = {str(s.pid): s.index for s in servers}
        listed = ", ".join(f"'{c}'" for c in codes if c.isalnum())
        found = {code: "no lease row" for code in codes}
        for code, holder, expires in self.rows(
            "SELECT code, holder, expires - EXTRACT(EPOCH FROM clock_timestamp())"
            f" FROM web_leases WHERE code IN ({listed})"
        ):
            pid = str(holder).split(":")[1] if holder.count(":") >= 2 else "?"
            who = f"process {by_pid[pid]}" if pid in by_pid else f"a process gone ({holder})"
            state = "live" if float(expires) >= 0 else "expired"
            found[code] = f"lease {state} ({float(expires):+.1f} s), held by {who}"
        return found

    def count_moves(self) -> int:
        try:
            return int(self.rows("SELECT COUNT(*) FROM web_moves")[0][0])
        except Exception:  # not created yet
            return 0

    def create(self) -> None:
        """Make the schema before the servers start: processes started together on
        a schema that does not exist yet race on creating it, and one can exit
        with a duplicate-key error on ``pg_namespace`` (seen 1 start in 6)."""
        if self.schema is None:
            return
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{self.schema}"')

    def drop(self) -> None:
        if self.schema is None or self.keep:
            return
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')


def verify(db: Database, tables: list[TableLog]) -> dict[str, Any]:
    """The store against the clients: acknowledged moves lost, moves stored twice."""
    from passing_game.match import Match
    from passing_game.moves import parse_move
    from passing_game.rules import Rules

    rules = {str(c): json.loads(r) for c, r in db.rows("SELECT code, rules FROM web_tables")}
    seeds = {
        (str(c), int(g)): int(s) for c, g, s in db.rows("SELECT code, game, seed FROM web_games")
    }
    twice = db.rows(
        "SELECT COUNT(*) FROM (SELECT code, seq FROM web_moves GROUP BY code, seq"
        " HAVING COUNT(*) > 1) AS d"
    )[0][0]
    moves: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for code, seq, game, move in db.rows(
        "SELECT code, seq, game, move FROM web_moves ORDER BY code, seq"
    ):
        moves[str(code)].append((int(seq), int(game), str(move)))
    stored: dict[tuple[str, int, int], list[tuple[int, str]]] = {}
    gaps = illegal = 0
    bad_tables: list[str] = []
    for code, rows in moves.items():
        if [r[0] for r in rows] != list(range(1, len(rows) + 1)):
            gaps += 1
            bad_tables.append(f"{code}: sequence numbers with a gap")
        for game, group in itertools.groupby(rows, key=lambda r: r[1]):
            match = Match(Rules.from_dict(rules[code]), seeds[(code, game)])
            played = list(group)
            for index, (seq, _game, text) in enumerate(played):
                try:
                    match.play(parse_move(text))
                except Exception as exc:
                    illegal += len(played) - index
                    bad_tables.append(f"{code}: game {game}, seq {seq} {text!r}: {exc}")
                    break
            for number, played_round in enumerate(match.rounds, start=1):
                stored[(code, game, number)] = [(t.seat, str(t.move)) for t in played_round.history]
    lost = 0
    for log in tables:
        if log.code is None:
            continue
        for (game, number), seen in log.seen.items():
            have = stored.get((log.code, game, number), [])
            missing = sum(1 for i, turn in enumerate(seen) if i >= len(have) or have[i] != turn)
            if missing:
                lost += missing
                bad_tables.append(
                    f"{log.code}: game {game} round {number}: {missing} seen, not stored"
                )
    return {
        "stored_moves": sum(len(r) for r in moves.values()),
        "acked_moves_lost": lost,
        "moves_stored_twice": int(twice) + illegal,
        "seq_gaps": gaps,
        "problems": bad_tables[:10],
    }


# -- the server processes --------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Server:
    """One `passing-game serve` process on 127.0.0.1 (started here, or --attach's)."""

    index: int
    port: int
    db_url: str
    log: Path
    bot_delay: float
    proc: subprocess.Popen[bytes] | None = None
    pid: int = 0
    starts: int = 0
    #: CPU seconds in the window of instances that ended, and the running one's at its start.
    cpu_ended: float = 0.0
    cpu_base: float = 0.0

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> None:
        # The server dies with this script, whatever kills it (setpriv: util-linux).
        guard = ["setpriv", "--pdeathsig", "KILL"] if shutil.which("setpriv") else []
        command = [
            *guard,
            *(sys.executable, "-m", "passing_game", "serve", "--host", "127.0.0.1"),
            *("--port", str(self.port), "--db", self.db_url),
            *("--bot-delay", str(self.bot_delay), "--log-level", "warning"),
        ]
        with self.log.open("a") as out:
            out.write(f"--- start {self.starts + 1}, {time.strftime('%H:%M:%S')}\n")
            out.flush()
            self.proc = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
            out.write(f"--- pid {self.proc.pid}\n")
        self.pid = self.proc.pid
        self.starts += 1
        self.cpu_base = 0.0  # a new process has used no CPU yet

    @property
    def alive(self) -> bool:
        return self.proc is None or self.proc.poll() is None

    def health(self, timeout: float = 2.0) -> dict[str, Any] | None:
        try:
            url = f"http://127.0.0.1:{self.port}/healthz"
            with urllib.request.urlopen(url, timeout=timeout) as response:
                return dict(json.load(response))
        except (OSError, ValueError):
            return None

    def wait_healthy(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            found = self.health()
            if found and found.get("ok") and found.get("bus") is not False:
                return
            if not self.alive:
                raise SystemExit(f"server {self.index} exited: see {self.log}")
            if time.monotonic() > deadline:
                raise SystemExit(f"server {self.index} did not answer /healthz: see {self.log}")
            time.sleep(0.1)

    def cpu(self) -> float:
        try:
            return cpu_seconds(self.pid)
        except (OSError, IndexError, ValueError):
            return self.cpu_base

    def mark_window(self) -> None:
        self.cpu_ended, self.cpu_base = 0.0, self.cpu()

    def window_cpu(self) -> float:
        running = self.cpu() - self.cpu_base if self.alive else 0.0
        return self.cpu_ended + running

    def end(self, sig: int, timeout: float = 30.0) -> float:
        """Send ``sig`` and wait for the exit; the seconds it took. Its CPU is kept."""
        assert self.proc is not None
        started = time.monotonic()
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, sig)
        deadline = started + timeout
        while not os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOWAIT | os.WNOHANG):
            if time.monotonic() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                deadline = float("inf")
            time.sleep(0.02)
        self.cpu_ended += self.cpu() - self.cpu_base  # the exited process, not yet reaped
        self.proc.wait()
        return time.monotonic() - started

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.end(signal.SIGTERM, timeout=15)


# -- CPU of everything else ------------------------------------------------------------


def machine_jiffies() -> tuple[int, int, int]:
    """(busy, stolen, total) jiffies of every core, from /proc/stat.

    Busy is user, nice, system, irq and softirq time; stolen is time the
    hypervisor gave this machine's cores to others.
    """
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = values
    return user + nice + system + irq + softirq, steal, sum(values)


def postgres_cpu() -> dict[int, float]:
    """CPU seconds of every process named postgres (the whole cluster, whoever's work)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() == "postgres":
                found[int(entry.name)] = cpu_seconds(int(entry.name))
        except OSError:
            continue
    return found


@dataclass
class Snapshot:
    """The counters read at the window's start and end."""

    t: float
    moves: int
    load: tuple[float, float, float]
    jiffies: tuple[int, int, int]
    postgres: dict[int, float]
    own_cpu: float

    @classmethod
    def take(cls, db: Database) -> Snapshot:
        return cls(
            t=time.monotonic(),
            moves=db.count_moves(),
            load=os.getloadavg(),
            jiffies=machine_jiffies(),
            postgres=postgres_cpu() if db.schema is not None else {},
            own_cpu=time.process_time(),
        )


# -- the measured window and what happens in it ----------------------------------------


def start_clients(plans: list[ClientPlan]) -> list[tuple[Any, Connection]]:
    context = multiprocessing.get_context("spawn")
    started = []
    for plan in plans:
        receiver, sender = context.Pipe(duplex=False)
        proc = context.Process(target=client_main, args=(plan, sender), daemon=True)
        proc.start()
        sender.close()
        started.append((proc, receiver))
    return started


def collect(clients: list[tuple[Any, Connection]], timeout: float) -> ClientResult:
    """Every client process's result, merged."""
    merged = ClientResult()
    for proc, receiver in clients:
        if not receiver.poll(timeout):
            raise SystemExit("a client process did not report")
        part: ClientResult = receiver.recv()
        proc.join(10)
        merged.latencies += part.latencies
        merged.waits += part.waits
        if part.longest_wait is not None and (
            merged.longest_wait is None or part.longest_wait.seconds > merged.longest_wait.seconds
        ):
            merged.longest_wait = part.longest_wait
        merged.tables += part.tables
        merged.frames += part.frames
        merged.errors.update(part.errors)
        merged.error_samples += part.error_samples
        merged.failures += part.failures
        merged.failure_samples += part.failure_samples
        merged.person_moves += part.person_moves
        merged.games_finished += part.games_finished
        merged.cpu_seconds += part.cpu_seconds
    merged.tables.sort(key=lambda log: log.index)
    return merged


def blocking_sleep_until(t: float) -> None:
    time.sleep(max(0.0, t - time.monotonic()))


@dataclass
class Events:
    """What the orchestration did, in ``time.monotonic()`` seconds."""

    killed_at: float | None = None
    killed_process: int | None = None
    killed_leases: int | None = None
    restarts: list[tuple[float, float, float]] = field(default_factory=list)
    profile: list[tuple[str, float, float]] = field(default_factory=list)


@dataclass
class Window:
    """The measured window: its schedule, the counters at both ends, what happened."""

    schedule: Schedule
    start: Snapshot
    end: Snapshot
    #: Each server's CPU seconds in the window, and its /healthz at the end.
    server_cpu: list[float]
    health: list[dict[str, Any] | None]
    events: Events
    load_before: tuple[float, float, float]


def kill_one(servers: list[Server], at: float, events: Events) -> None:
    """Failover: SIGKILL process 0 at ``at``; it stays dead."""
    blocking_sleep_until(at)
    victim = servers[0]
    events.killed_leases = (victim.health(timeout=1.0) or {}).get("leases")
    events.killed_at, events.killed_process = time.monotonic(), victim.index
    victim.end(signal.SIGKILL)


def rolling(servers: list[Server], at: float, every: float) -> list[tuple[float, float, float]]:
    """Rolling restart: each process in turn gets SIGTERM, starts again, answers.

    Per process: (SIGTERM sent, seconds to exit, seconds until it answered again).
    """
    blocking_sleep_until(at)
    steps = []
    for number, server in enumerate(servers):
        if number:
            time.sleep(every)
        term = time.monotonic()
        exited = server.end(signal.SIGTERM)
        server.start()
        server.wait_healthy()
        steps.append((term, exited, time.monotonic() - term))
    return steps


def dump_stacks(servers: list[Server], folder: Path) -> None:
    """Every thread's stack of each live server (py-spy dump), to serverN.stacks."""
    spy = Path(sys.executable).parent / "py-spy"
    for server in servers:
        if server.proc is None or server.proc.poll() is not None:
            continue
        done = subprocess.run(
            [str(spy if spy.exists() else "py-spy"), "dump", "--pid", str(server.pid)],
            capture_output=True,
            timeout=60,
            check=False,
        )
        (folder / f"server{server.index}.stacks").write_bytes(done.stdout + done.stderr)


def start_profile(server: Server, seconds: float, path: Path) -> subprocess.Popen[bytes]:
    spy = Path(sys.executable).parent / "py-spy"
    command = [
        str(spy if spy.exists() else "py-spy"),
        *("record", "--gil", "--nonblocking", "--format", "raw", "--rate", "100"),
        *("--duration", str(max(1, int(seconds))), "--pid", str(server.pid), "--output", str(path)),
    ]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def profile_table(path: Path, top: int = 20) -> list[tuple[str, float, float]]:
    """(function, inclusive %, self %) from py-spy's raw output, most inclusive first."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack:
            continue
        count = int(count_text)
        total += count
        names = [re.sub(r":\d+\)$", ")", frame) for frame in stack.split(";")]
        for name in set(names):
            inclusive[name] += count
        own[names[-1]] += count
    return [
        (name, 100 * count / total, 100 * own[name] / total)
        for name, count in inclusive.most_common(top)
    ]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(values: list[float], q: float) -> float | None:
    return round(1000 * percentile(values, q), 1) if values else None


def measure(
    args: argparse.Namespace, servers: list[Server], db: Database
) -> tuple[dict[str, Any], ClientResult]:
    """Open the tables, measure the window (with its kill or restarts), collect."""
    load_before = os.getloadavg()
    opening = args.tables / args.ramp
    ramp_start = time.monotonic() + 3.0  # the client processes import meanwhile
    window_start = ramp_start + opening + args.settle
    schedule = Schedule(ramp_start, args.ramp, window_start, window_start + args.duration)
    reconnect = bool(args.kill_one or args.rolling)
    plans = [
        ClientPlan(
            worker=w,
            workers=args.clients,
            tables=args.tables,
            urls=tuple(s.ws_url for s in servers),
            players=args.players,
            bots=tuple(args.bots),
            think=args.think,
            schedule=schedule,
            reconnect=reconnect,
            give_up=args.give_up,
        )
        for w in range(args.clients)
    ]
    clients = start_clients(plans)
    events = Events()
    try:
        blocking_sleep_until(schedule.window_start)
        for server in servers:
            server.mark_window()
        start = Snapshot.take(db)
        spy = None
        if args.profile:
            spy = start_profile(servers[0], args.duration, Path(args.profile))
        if args.kill_one:
            kill_one(servers, schedule.window_start + args.kill_one, events)
        if args.rolling:
            events.restarts = rolling(servers, schedule.window_start + args.rolling, args.rolling)
        late = time.monotonic() - schedule.window_end
        blocking_sleep_until(schedule.window_end)
        end = Snapshot.take(db)
        server_cpu = [s.window_cpu() for s in servers]
        health = [s.health() if s.alive else None for s in servers]
        result = collect(clients, timeout=120)
        if spy is not None:
            _, errors = spy.communicate(timeout=60)
            if spy.returncode:
                print(f"py-spy failed: {errors.decode(errors='replace')}", file=sys.stderr)
            else:
                events.profile = profile_table(Path(args.profile))
    finally:
        for proc, _receiver in clients:
            if proc.is_alive():
                proc.terminate()
    window = Window(schedule, start, end, server_cpu, health, events, load_before)
    report = summarize(args, db, servers, window, result)
    if late > 0:
        report["note"] = f"the restarts ran {late:.1f} s past the window's end"
    return report, result


def summarize(
    args: argparse.Namespace,
    db: Database,
    servers: list[Server],
    measured: Window,
    result: ClientResult,
) -> dict[str, Any]:
    schedule, start, end, events = measured.schedule, measured.start, measured.end, measured.events
    server_cpu, health, load_before = measured.server_cpu, measured.health, measured.load_before
    window = end.t - start.t
    moves = end.moves - start.moves
    lat = [s for t, s in result.latencies if schedule.within(t)]
    longest = result.longest_wait
    held = sum(1 for log in result.tables if log.held)
    stalled_codes = [str(log.code) for log in result.tables if log.stalled][:10]
    leases = db.leases(stalled_codes, servers)
    stalled = [
        f"{log.stalled}; {leases.get(str(log.code), '')}" for log in result.tables if log.stalled
    ]
    cpu = sum(server_cpu)
    busy, stolen, total = (e - s for e, s in zip(end.jiffies, start.jiffies, strict=True))
    cores = os.cpu_count() or 1
    machine = 100 * cores * busy / total if total else float("nan")
    pg = sum(v - start.postgres.get(pid, 0.0) for pid, v in end.postgres.items())
    client = result.cpu_seconds + (end.own_cpu - start.own_cpu)
    report: dict[str, Any] = {
        "database": db.name,
        "processes": len(servers),
        "tables": args.tables,
        "players": args.players,
        "bots": args.bots,
        "think_s": args.think,
        "bot_delay_s": args.bot_delay,
        "ramp_per_s": args.ramp,
        "client_processes": args.clients,
        "tables_held": held,
        "tables_stalled": len(stalled),
        "games_lost": sum(1 for log in result.tables if log.gave_up is not None),
        "window_s": round(window, 1),
        "moves_per_s": round(moves / window, 1),
        "person_moves_per_s": round(result.person_moves / window, 1),
        "latency_ms_p50": round(1000 * statistics.median(lat), 1) if lat else None,
        "latency_ms_p95": ms(lat, 0.95),
        "latency_ms_p99": ms(lat, 0.99),
        "latency_ms_max": ms(lat, 1.0),
        "latency_samples": len(lat),
        "longest_wait_s": round(longest.seconds, 2) if longest else None,
        "longest_wait": longest.describe(start.t) if longest else None,
        "server_cpu_percent": round(100 * cpu / window, 1),
        "server_cpu_ms_per_move": round(1000 * cpu / moves, 3) if moves else None,
        "server_cpu_percent_each": [round(100 * c / window, 1) for c in server_cpu],
        "postgres_cpu_percent": round(100 * pg / window, 1) if db.schema else None,
        "client_cpu_percent": round(100 * client / window, 1),
        "machine_busy_percent": round(machine, 1),
        "other_cpu_percent": round(machine - 100 * (cpu + pg + client) / window, 1),
        "stolen_cpu_percent": round(100 * cores * stolen / total, 1) if total else None,
        "frames_per_s": round(result.frames / window, 1),
        "games_finished": result.games_finished,
        "errors": dict(result.errors),
        "failed_connections": result.failures,
        "reconnections": sum(log.reconnections for log in result.tables),
        "resent": sum(log.resent for log in result.tables),
        "regressions": sum(log.regressions for log in result.tables),
        "tables_per_process": [h and h.get("tables") for h in health],
        "leases_per_process": [h and h.get("leases") for h in health],
        # The machine is shared: what else ran shows in the load average.
        "load_avg_before_start": round(load_before[0], 2),
        "load_avg_before": round(start.load[0], 2),
        "load_avg_after": round(end.load[0], 2),
        "cpus": cores,
    }
    if events.killed_at is not None:
        report.update(failover(schedule, start, result, events))
    if events.restarts:
        report.update(restarts(schedule, start, result, events))
    if events.profile:
        report["profile_top"] = [
            f"{incl:5.1f}% incl {own:5.1f}% self  {name}" for name, incl, own in events.profile
        ]
    if stalled:
        report["stalled_tables"] = stalled[:10]
    if result.error_samples:
        report["error_samples"] = result.error_samples[:5]
    if result.failure_samples:
        report["failure_samples"] = result.failure_samples[:5]
    gave_up = [f"{log.code}: {log.gave_up}" for log in result.tables if log.gave_up]
    if gave_up:
        report["games_lost_samples"] = gave_up[:5]
    return report


def failover(
    schedule: Schedule, start: Snapshot, result: ClientResult, events: Events
) -> dict[str, Any]:
    assert events.killed_at is not None
    kill = events.killed_at
    before = [s for t, s in result.latencies if schedule.window_start <= t < kill]
    after = [s for t, s in result.latencies if kill <= t <= kill + 10]
    # Each table's longest wait among those that ended after the kill.
    longest: dict[str, Wait] = {}
    for wait in result.waits:
        known = longest.get(wait.table)
        if wait.ended >= kill and (known is None or wait.seconds > known.seconds):
            longest[wait.table] = wait
    worst = max(longest.values(), key=lambda w: w.seconds, default=None)

    def paused(over: float, led: bool | None = None) -> int:
        return sum(
            1
            for w in longest.values()
            if w.seconds > over and (led is None or (w.created_on == events.killed_process) == led)
        )

    return {
        "killed_process": events.killed_process,
        "killed_at_s": round(kill - start.t, 1),
        "tables_led_by_killed": events.killed_leases,
        "latency_ms_p95_before_kill": ms(before, 0.95),
        "latency_ms_p95_10s_after_kill": ms(after, 0.95),
        "latency_ms_max_10s_after_kill": ms(after, 1.0),
        "latency_samples_10s_after_kill": len(after),
        "tables_paused_over_1s_after_kill": paused(1.0),
        "tables_paused_over_5s_after_kill": paused(5.0),
        "of_them_created_on_killed": paused(5.0, led=True),
        # When the tables the killed process led went on: their longest pause, by second.
        "led_tables_by_pause_s": dict(
            sorted(
                Counter(
                    int(w.seconds)
                    for w in longest.values()
                    if w.created_on == events.killed_process
                ).items()
            )
        ),
        "longest_pause_after_kill": worst.describe(start.t) if worst else None,
    }


def restarts(
    schedule: Schedule, start: Snapshot, result: ClientResult, events: Events
) -> dict[str, Any]:
    first = events.restarts[0][0]
    last = events.restarts[-1][0] + events.restarts[-1][2]
    before = [s for t, s in result.latencies if schedule.window_start <= t < first]
    during = [s for t, s in result.latencies if first <= t <= last]
    after = [s for t, s in result.latencies if last < t <= schedule.window_end]
    return {
        "restarts": [
            f"{term - start.t:.1f} s: exited in {exited:.1f} s, answering after {back:.1f} s"
            for term, exited, back in events.restarts
        ],
        "latency_ms_p95_before_restarts": ms(before, 0.95),
        "latency_ms_p95_during_restarts": ms(during, 0.95),
        "latency_ms_p99_during_restarts": ms(during, 0.99),
        "latency_ms_max_during_restarts": ms(during, 1.0),
        "latency_ms_p95_after_restarts": ms(after, 0.95),
        "latency_samples_during_restarts": len(during),
    }


# -- putting it together -----------------------------------------------------------


def log_trouble(logs: list[Path]) -> dict[str, int]:
    """The servers' warnings and errors, counted by what they say (codes and numbers out)."""
    found: Counter[str] = Counter()
    for path in logs:
        if not path.exists():
            continue
        for line in path.read_text(errors="replace").splitlines():
            if line.startswith(("ERROR", "WARNING", "Traceback")) or "Error: " in line[:40]:
                text = re.sub(r"^(\w+) passing_game\.web: (table \w{6}: )?", r"\1 ", line)
                text = re.sub(r"\b[A-Z0-9]{6}\b|\S+:\d+:[0-9a-f]+|\d+", "#", text)
                found[text[:100]] += 1
    return dict(found.most_common(8))


def interrupted(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def run_servers(args: argparse.Namespace) -> dict[str, Any]:
    """Start the servers on a fresh database, measure, check the store, clean up."""
    folder = Path(tempfile.mkdtemp(prefix="passing-game-load-"))
    db = Database.fresh(args.db, folder)
    if args.processes > 1 and db.schema is None:
        raise SystemExit("--processes > 1 needs --db postgresql://... (SQLite is for one)")
    servers = [
        Server(i, free_port(), db.server_url, folder / f"server{i}.log", args.bot_delay)
        for i in range(args.processes)
    ]
    keep = True
    try:
        db.create()
        for server in servers:
            server.start()
        for server in servers:
            server.wait_healthy()
        report, result = measure(args, servers, db)
        if report["tables_stalled"]:
            dump_stacks(servers, folder)  # where a stalled table's leader is waiting
        for server in servers:
            server.stop()
        checked = verify(db, result.tables)
        problems = checked.pop("problems")
        report.update(checked)
        if problems:
            report["store_problems"] = problems
        # Evidence: what the clients saw at the tables that went wrong, and their rows.
        wrong = {p.split(":")[0] for p in problems} | {
            str(log.code) for log in result.tables if log.stalled or log.regressions
        }
        if wrong:
            trails = {str(log.code): log.trail for log in result.tables if log.code in wrong}
            (folder / "trails.json").write_text(json.dumps(trails))
            if db.schema is not None:
                db.keep = True
                report["schema_kept"] = db.schema
        stalled = [
            {"table": log.code, "last_frame": log.last_frame, "last_errors": log.last_errors}
            for log in result.tables
            if log.stalled
        ]
        if stalled:
            (folder / "stalled_frames.json").write_text(json.dumps(stalled, indent=1))
        trouble = log_trouble([s.log for s in servers])
        report["server_log"] = trouble or "clean"
        keep = bool(args.keep_logs or trouble or problems or report["tables_stalled"] or db.keep)
        if keep:
            report["server_logs_kept_in"] = str(folder)
        return report
    except BaseException:
        print(f"stopped; the servers' logs are in {folder}", file=sys.stderr)
        raise
    finally:
        for server in servers:
            with contextlib.suppress(Exception):
                server.stop()
        with contextlib.suppress(Exception):
            db.drop()
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)


def run_attached(args: argparse.Namespace) -> dict[str, Any]:
    """--attach: a server already running (e.g. under a profiler); only measure."""
    port_text, pid_text, file_text = args.attach
    path = Path(file_text)
    server = Server(0, int(port_text), f"sqlite:///{path}", Path(os.devnull), args.bot_delay)
    server.pid = int(pid_text)
    report, _result = measure(args, [server], Database(server.db_url, sqlite=path))
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--bots", nargs="+", default=["easy", "random"])
    parser.add_argument("--think", type=float, default=1.0, help="seconds a person thinks")
    parser.add_argument("--bot-delay", type=float, default=0.6)
    parser.add_argument("--ramp", type=float, default=50.0, help="tables opened a second")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds measured")
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument(
        "--attach",
        nargs=3,
        metavar=("PORT", "PID", "SQLITE_FILE"),
        help="use a server already running on 127.0.0.1:PORT (e.g. under a profiler)",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes (N > 1: PostgreSQL)"
    )
    parser.add_argument(
        "--clients", type=int, default=1, help="client processes running the people"
    )
    parser.add_argument(
        "--kill-one",
        type=float,
        metavar="SECONDS",
        help="SIGKILL process 0 this far into the window",
    )
    parser.add_argument(
        "--rolling",
        type=float,
        metavar="SECONDS",
        help="restart the processes one by one (SIGTERM), this far into the window and apart",
    )
    parser.add_argument(
        "--give-up", type=float, default=60.0, help="seconds a cut-off person keeps reconnecting"
    )
    parser.add_argument("--profile", metavar="FILE", help="py-spy process 0 over the window")
    parser.add_argument(
        "--keep-logs", action="store_true", help="keep the servers' logs (kept anyway on errors)"
    )
    args = parser.parse_args()
    if args.duration > 600 or args.tables > 5000:
        parser.error("keep runs bounded: --duration <= 600, --tables <= 5000")
    if not 1 <= args.processes <= 8 or not 1 <= args.clients <= 8:
        parser.error("--processes and --clients: 1 to 8")
    if (args.kill_one or args.rolling) and args.processes < 2:
        parser.error("--kill-one and --rolling need --processes 2 or more")
    if args.kill_one and args.rolling:
        parser.error("one of --kill-one and --rolling")
    if args.attach and args.processes != 1:
        parser.error("--attach measures one server")
    signal.signal(signal.SIGTERM, interrupted)
    try:
        result = run_attached(args) if args.attach else run_servers(args)
    except KeyboardInterrupt:
        raise SystemExit("interrupted: servers stopped, schema dropped") from None
    if args.json:
        print(json.dumps(result))
        return
    width = max(len(k) for k in result)
    for key, value in result.items():
        if key in LISTED and value:
            print(key)
            for line in value:
                print(f"    {line}")
            continue
        print(f"{key.ljust(width)}  {value}")


if __name__ == "__main__":
    main()
