"""Several server processes on one PostgreSQL (issue 12, P28).

Real ``passing-game serve`` processes on one database (a schema of its
own per test, ``?schema=``), real WebSockets, no proxy: each client picks
its process, as a proxy without sticky sessions would.

- two people of one table on two processes see each other's moves;
- a leader killed with SIGKILL: another process takes its tables within
  five seconds and the game goes on, nothing acknowledged lost;
- SIGTERM: the process hands its tables over at once and closes its
  sockets, and clients go on elsewhere;
- two processes that both think they lead a table never store one move
  twice: the sequence check refuses the second (a race, in process);
- a lease claimed while a heartbeat's query runs stays this process's
  (the heartbeat does not count it as lost and leave the table undriven);
- a second server on one SQLite file is refused, saying why;
- ``/healthz`` says the store and the bus answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from web_helpers import PG_URL, Server, free_port, pg_schema, require_module

require_module("starlette")
require_module("websockets")
require_module("psycopg")


from cluster_helpers import Person, start, stop  # noqa: E402

_T = TypeVar("_T")


def in_own_loop(work: Coroutine[Any, Any, _T]) -> _T:
    """``asyncio.run`` in a thread of its own: the browser tests' driver may
    hold this thread's event loop when the whole suite runs."""
    with ThreadPoolExecutor(1) as runner:
        return runner.submit(asyncio.run, work).result()


def health(server: Server) -> dict[str, Any]:
    with urllib.request.urlopen(server.url("/healthz"), timeout=5) as response:
        return dict(json.load(response))


def test_two_people_on_two_processes_see_each_others_moves(pg_url: str, tmp_path: Path) -> None:
    """Ana on process A, Ben on process B, one table: every move either makes
    reaches both, in order; the processes agree with the store."""
    a, b = start(pg_url, tmp_path, 2)
    try:
        assert health(a)["bus"] is True and health(b)["bus"] is True
        ana, ben = Person(a.port), Person(b.port)
        ana.send(type="create", name="Ana", seats=["you", "person"], rules={"players": 2})
        code = ana.until(lambda f: f["type"] == "joined")["table"]
        ben.send(type="join", code=code, name="Ben")
        joined = ben.until(lambda f: f["type"] in ("joined", "error"))
        assert joined["type"] == "joined" and joined["seat"] == 1, joined
        people = {0: ana, 1: ben}
        frame = ana.now(lambda f: f["started"])
        for _ in range(12):
            mover = frame["round"]["to_move"]
            if mover is None or frame["over"] or frame["paused"]:
                break
            person = people[mover]
            mine = person.now(lambda f: bool(f["round"]["legal"]))
            n = len(mine["round"]["history"])
            move = mine["round"]["legal"][0]
            person.act(move)
            # Both see it: the mover on its own process, the other on the other.
            for p in (ana, ben):
                seen = p.now(lambda f, n=n: len(f["round"]["history"]) > n or f["paused"])
            frame = seen
        assert ana.latest is not None and ben.latest is not None
        public = [
            [(t["seat"], t["move"]) for t in p.latest["round"]["history"]] for p in people.values()
        ]  # type: ignore[index]
        assert public[0] == public[1]  # each also sees its own drawn tiles, and only those
        assert len(ana.latest["round"]["history"]) >= 6
        # The other seat is online on both screens, whichever process holds it.
        assert ana.latest["seats"][1]["connected"] and ben.latest["seats"][0]["connected"]
        ana.close()
        ben.close()
    finally:
        stop([a, b])


def test_a_killed_leader_is_replaced_within_five_seconds(pg_url: str, tmp_path: Path) -> None:
    """Ana created her table on A (A leads it) but plays through B. A is
    killed: within five seconds B leads the table and its bots play on;
    nothing Ana was told of is lost."""
    a, b = start(pg_url, tmp_path, 2, bot_delay=0.05)
    try:
        ana = Person(a.port)
        ana.send(type="create", name="Ana", seats=["you", "greedy", "greedy"], rules={"players": 3})
        joined = ana.until(lambda f: f["type"] == "joined")
        code, token = joined["table"], joined["token"]
        ana.state()
        ana.close()
        ana = Person(b.port)  # the same person, now through B
        ana.send(type="resume", code=code, seat=0, token=token)
        ana.until(lambda f: f["type"] == "joined")
        frame = ana.state()
        for _ in range(3):  # a few moves with A leading and B relaying
            frame = ana.state(lambda f: bool(f["round"]["legal"]) or f["paused"])
            if frame["paused"]:
                ana.send(type="continue")
                continue
            n = len(frame["round"]["history"])
            ana.act(frame["round"]["legal"][0])
            frame = ana.state(lambda f, n=n: len(f["round"]["history"]) > n or f["paused"])
        before = [t for t in frame["round"]["history"]]
        a.kill()
        killed = time.monotonic()
        # Ana plays on as soon as she may: either it is her turn (her move is
        # forwarded to the new leader) or the bots' (they move once B leads).
        moved_at = None
        for _ in range(60):
            frame = ana.state(lambda f: True, timeout=15)
            if frame["paused"] and 0 in frame["waiting"]:
                ana.send(type="continue")
                continue
            if frame["round"]["legal"]:
                ana.act(frame["round"]["legal"][0])
                with contextlib.suppress(AssertionError):
                    ana.until(lambda f: f["type"] in ("state", "error"), timeout=10)
            if len(frame["round"]["history"]) > len(before) + 2 or frame["round"]["number"] > 1:
                moved_at = time.monotonic()
                break
        assert moved_at is not None, "the game did not go on after the kill"
        assert moved_at - killed < 10  # bots' delay and the person's answers included
        assert frame["round"]["history"][: len(before)] == before or frame["round"]["number"] > 1
        holder = health(b)
        assert holder["ok"] and holder["leases"] >= 1
        ana.close()
    finally:
        stop([a, b])


def test_a_sigterm_hands_the_tables_over(pg_url: str, tmp_path: Path) -> None:
    """SIGTERM: the process stops, its clients' sockets close (they come back
    through another process) and its tables are led elsewhere at once."""
    a, b = start(pg_url, tmp_path, 2, bot_delay=0.05)
    try:
        ana = Person(a.port)
        ana.send(type="create", name="Ana", seats=["you", "greedy"], rules={"players": 2})
        joined = ana.until(lambda f: f["type"] == "joined")
        code, token = joined["table"], joined["token"]
        ana.state()
        a.proc.terminate()
        # The socket is closed by the stopping server (a client reconnects).
        with pytest.raises(Exception):  # noqa: B017 - closed, whichever way websockets says it
            for _ in range(1000):
                ana.recv(timeout=10)
        # uvicorn stops gracefully, then raises the signal again to exit as asked.
        assert a.proc.wait(timeout=15) in (0, -15)
        stopped = time.monotonic()
        ana = Person(b.port)
        ana.send(type="resume", code=code, seat=0, token=token)
        ana.until(lambda f: f["type"] == "joined")
        # B leads the table within a few seconds: the game goes on there.
        while health(b)["leases"] < 1:
            assert time.monotonic() - stopped < 5, "nobody took the table over"
            time.sleep(0.1)
        frame = ana.now(lambda f: bool(f["round"]["legal"]), timeout=15)
        n = len(frame["round"]["history"])
        ana.act(frame["round"]["legal"][0])
        # Ana's move and the bot's answer: B carries the game now.
        ana.state(lambda f: len(f["round"]["history"]) >= n + 2 or f["round"]["number"] > 1)
        ana.close()
    finally:
        stop([a, b])


def test_two_leaders_never_store_one_move_twice(pg_url: str) -> None:
    """A race: two lobbies on one database both believe they lead one table
    (as two processes may for a moment when a lease changes hands) and both
    run its bots with no delay. Each move number is stored once, the stored
    game replays, and the losing writer saw its move refused."""
    from passing_game import Match, Rules, parse_move
    from passing_game.web.lobby import Lobby
    from passing_game.web.server.cluster import Solo
    from passing_game.web.store import NewTable, SeatRow, open_store

    async def race() -> tuple[list[str], int]:
        store_a, store_b = open_store(pg_url), open_store(pg_url)
        rules = Rules(players=2, target=30)
        seats = (SeatRow(0, "bot", "greedy", "greedy"), SeatRow(1, "bot", "random", "random"))
        store_a.create_table(NewTable("RACE22", rules.to_dict(), 4242, seats))
        refused = 0
        lobbies = [Lobby(s, bot_delay=0, cluster=Solo()) for s in (store_a, store_b)]
        try:
            tables = [await lobby.get("RACE22") for lobby in lobbies]
            original = [t._perform for t in tables if t is not None]

            def counting(accept: Any) -> Any:
                async def wrapped(*args: Any, **kw: Any) -> None:
                    nonlocal refused
                    try:
                        await accept(*args, **kw)
                    except Exception:
                        refused += 1
                        raise

                return wrapped

            for table, accept in zip(tables, original, strict=True):
                assert table is not None
                table._perform = counting(accept)  # type: ignore[method-assign]
            for table in tables:
                assert table is not None
                await table.settle()
            deadline = time.monotonic() + 60
            while not all(t is not None and t.match.is_over for t in tables):
                assert time.monotonic() < deadline, "the raced game did not end"
                await asyncio.sleep(0.05)
        finally:
            for lobby in lobbies:
                await lobby.close()
        stored = store_a.load_table("RACE22")
        store_a.close()
        store_b.close()
        assert stored is not None
        return list(stored.moves), refused

    moves, refused = in_own_loop(race())
    match = Match(Rules(players=2, target=30), 4242)
    for text in moves:  # every stored move is legal where it stands: none twice
        match.play(parse_move(text))
    assert match.is_over
    assert refused > 0, "the two leaders never raced"


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    """SQLite is for one process: a second server on the file says so and exits."""
    db = tmp_path / "data" / "one.sqlite3"
    first = Server(db, free_port(), tmp_path)
    try:
        second = subprocess.run(
            [
                sys.executable,
                "-m",
                "passing_game",
                "serve",
                "--port",
                str(free_port()),
                "--db",
                f"sqlite:///{db}",
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode != 0
        assert "another passing-game server already serves" in second.stderr
        assert "PostgreSQL" in second.stderr
        assert health(first)["ok"]
    finally:
        first.stop()


def test_a_person_on_a_killed_process_goes_offline_at_the_leader(
    pg_url: str, tmp_path: Path
) -> None:
    """Ben's socket is on process B, the table is led by A. B is killed: its
    presence row says nothing more, and once B counts as dead the leader sees
    Ben offline, and after the grace a stand-in plays for him (P26, P28)."""
    a = Server(pg_url, free_port(), tmp_path, extra=("--offline-grace", "2"))
    b = Server(pg_url, free_port(), tmp_path)
    try:
        ana = Person(a.port)
        ana.send(type="create", name="Ana", seats=["you", "person"], rules={"players": 2})
        code = ana.until(lambda f: f["type"] == "joined")["table"]
        ben = Person(b.port)
        ben.send(type="join", code=code, name="Ben")
        ben.until(lambda f: f["type"] == "joined")
        ana.state(lambda f: f["started"] and f["seats"][1]["connected"])
        b.kill()
        gone = ana.state(lambda f: not f["seats"][1]["connected"], timeout=30)
        assert gone["seats"][1]["away"] is None
        ana.state(lambda f: f["seats"][1]["standin"], timeout=15)
        ana.close()
    finally:
        stop([a, b])


def test_a_lease_claimed_during_a_heartbeat_stays_led() -> None:
    """The heartbeat's answer predates a lease claimed while it ran: that lease is
    not "lost" (found by benchmarks/web_load.py: a table leased to its process,
    renewed by every heartbeat, and no bot ever moving at it)."""
    import threading

    from passing_game.web.server.pgcluster import PgCluster
    from passing_game.web.store import AsyncStore, NewTable, PostgresStore, SeatRow

    answered, claimed = threading.Event(), threading.Event()

    class HeartbeatOvertaken:
        """The store, whose heartbeat answers only once the claim is done."""

        def __init__(self, store: PostgresStore) -> None:
            self.store = store

        def __getattr__(self, name: str) -> Any:
            return getattr(self.store, name)

        def heartbeat(self, process: str, now: float, lease_for: float) -> list[str]:
            held = self.store.heartbeat(process, now, lease_for)
            answered.set()
            assert claimed.wait(10)
            return held

    async def scenario(store: PostgresStore) -> bool:
        cluster = PgCluster(HeartbeatOvertaken(store), AsyncStore(store), process="p1")  # type: ignore[arg-type]
        beat = asyncio.create_task(cluster._beat_once())
        await asyncio.get_running_loop().run_in_executor(None, answered.wait, 10)
        assert await cluster.claim("RACE01")
        claimed.set()
        await beat
        return cluster.leads("RACE01")

    with pg_schema("l") as schema:
        assert PG_URL is not None
        store = PostgresStore(PG_URL, schema=schema)
        try:
            store.create_table(
                NewTable(
                    "RACE01", {"players": 2}, 7, (SeatRow(0, "open", ""), SeatRow(1, "open", ""))
                )
            )
            led = in_own_loop(scenario(store))
            assert led, "a lease claimed during the heartbeat was dropped"
            assert store.lease_holder("RACE01", time.time()) == "p1"
        finally:
            store.close()


def test_a_replica_that_missed_an_event_catches_up_from_the_store(tmp_path: Path) -> None:
    """A replica's leader stored a move whose event never came (found by
    benchmarks/web_load.py: a person never saw the bot's move that made it
    their turn). A tick finds the store ahead; at the next one, still behind
    at the same move, the replica reloads and the person's screen shows it."""
    from passing_game import Rules
    from passing_game.web.lobby import Lobby
    from passing_game.web.server.cluster import Solo
    from passing_game.web.store import NewTable, SeatRow, open_store
    from passing_game.web.table.conn import Conn

    class Replica(Solo):
        """Another process leads every table; its events are lost on the way."""

        solo = False

        def leads(self, code: str) -> bool:
            return False

    async def scenario() -> tuple[int, int, list[dict[str, Any]]]:
        store = open_store(f"sqlite:///{tmp_path / 'replica.sqlite3'}")
        rules = Rules(players=2)
        seats = (SeatRow(0, "bot", "greedy", "greedy"), SeatRow(1, "bot", "random", "random"))
        store.create_table(NewTable("LAGGED", rules.to_dict(), 77, seats))
        lobby = Lobby(store, bot_delay=0, cluster=Replica())
        try:
            table = await lobby.get("LAGGED")
            assert table is not None
            sent: list[str] = []

            async def send(text: str) -> None:
                sent.append(text)

            watcher = Conn(send)
            table.spectators.add(watcher)
            pump = asyncio.ensure_future(watcher.run())
            first = table.match.round.legal_moves()[0]
            store.append_move("LAGGED", 1, table.game, str(first))  # the leader's, unheard
            await lobby.on_tick()  # behind: the event may be on its way
            before = table.seq
            await lobby.on_tick()  # still behind at the same move: reloaded
            await asyncio.sleep(0.05)  # the frame goes out
            watcher.close()
            await pump
            return before, table.seq, [json.loads(text) for text in sent]
        finally:
            await lobby.close()
            store.close()

    before, after, frames = in_own_loop(scenario())
    assert (before, after) == (0, 1)
    assert frames and len(frames[-1]["round"]["train"]) == 1, "the spectator saw the move"


def test_a_late_heartbeat_sets_the_paused_tables_going() -> None:
    """While the leases are unsure (a heartbeat later than the lease allows),
    ``leads`` says no and bots stop; the next heartbeat names the tables to go on."""
    from passing_game.web.server.pgcluster import PgCluster
    from passing_game.web.store import AsyncStore, NewTable, PostgresStore, SeatRow

    resumed: list[set[str]] = []

    async def scenario(store: PostgresStore) -> None:
        cluster = PgCluster(store, AsyncStore(store), process="p1")
        cluster._on_resume = resumed.append
        assert await cluster.claim("LATE01")
        await cluster._beat_once()  # on time: nothing to resume
        assert resumed == []
        cluster._lease_until = time.monotonic() - 1  # as if the loop had been busy
        assert not cluster.leads("LATE01")
        await cluster._beat_once()
        assert cluster.leads("LATE01")
        # On time when it began, but its answer came after the leases' end.
        real = store.heartbeat

        def slow(process: str, now: float, lease_for: float) -> list[str]:
            time.sleep(0.3)
            return real(process, now, lease_for)

        store.heartbeat = slow  # type: ignore[method-assign]
        cluster._lease_until = time.monotonic() + 0.1
        await cluster._beat_once()
        assert cluster.leads("LATE01")

    with pg_schema("l") as schema:
        assert PG_URL is not None
        store = PostgresStore(PG_URL, schema=schema)
        try:
            store.create_table(
                NewTable(
                    "LATE01", {"players": 2}, 7, (SeatRow(0, "open", ""), SeatRow(1, "open", ""))
                )
            )
            in_own_loop(scenario(store))
        finally:
            store.close()
    assert resumed == [{"LATE01"}, {"LATE01"}]
