"""The web app's storage: one suite, run against SQLite and PostgreSQL.

PostgreSQL runs when PASSING_GAME_TEST_PG_URL names a database (.ci/services.sh
starts one and sets it); each test gets a schema of its own. Without it the
PostgreSQL tests skip, except under CI (PASSING_GAME_REQUIRE_SERVICES=1),
where they fail.
"""

from __future__ import annotations

import asyncio
import sqlite3
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from passing_game import Match, Rules, parse_move
from passing_game.web.store import (
    AsyncStore,
    DuplicateMove,
    NewTable,
    PostgresStore,
    SeatRow,
    SqliteStore,
    Store,
    StoreError,
    hash_token,
    open_store,
)
from web_helpers import PG_URL, free_port, pg_schema, service_missing


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        made: Store = SqliteStore(tmp_path / "data" / "test.sqlite3")
        yield made
        made.close()
        return
    with pg_schema("t") as schema:
        made = PostgresStore(PG_URL, schema=schema)
        yield made
        made.close()


def new_table(code: str = "ABC234", players: int = 2, seed: int = 99) -> NewTable:
    seats = [SeatRow(0, "human", "Ana", token_hash=hash_token("secret-0"))]
    seats += [SeatRow(s, "open", "") for s in range(1, players)]
    return NewTable(code, {"players": players}, seed, tuple(seats))


def test_create_and_load(store: Store) -> None:
    store.create_table(new_table())
    table = store.load_table("ABC234")
    assert table is not None
    assert table.rules == {"players": 2}
    assert table.seed == 99 and table.game == 1 and not table.finished
    assert table.moves == () and table.last_seq == 0
    assert [s.kind for s in table.seats] == ["human", "open"]
    assert table.seats[0].token_hash == hash_token("secret-0")
    assert store.load_table("NOPE22") is None
    assert store.unfinished_codes() == ["ABC234"]


def test_a_code_is_created_once(store: Store) -> None:
    store.create_table(new_table())
    with pytest.raises(StoreError):
        store.create_table(new_table())


def test_tokens_are_stored_hashed(store: Store) -> None:
    store.create_table(new_table())
    table = store.load_table("ABC234")
    assert table is not None
    assert "secret-0" not in repr(table)


def test_seat_update(store: Store) -> None:
    store.create_table(new_table())
    store.update_seat("ABC234", SeatRow(1, "human", "Ben", token_hash=hash_token("t1")))
    table = store.load_table("ABC234")
    assert table is not None
    assert table.seats[1] == SeatRow(1, "human", "Ben", None, hash_token("t1"))
    with pytest.raises(StoreError):
        store.update_seat("ABC234", SeatRow(5, "human", "Cai"))


def test_moves_in_order_and_never_twice(store: Store) -> None:
    store.create_table(new_table())
    store.append_move("ABC234", 1, 1, "draw")
    store.append_move("ABC234", 2, 1, "pass")
    with pytest.raises(DuplicateMove):
        store.append_move("ABC234", 2, 1, "L3-5")
    with pytest.raises(DuplicateMove):
        store.append_move("ABC234", 1, 1, "draw")
    with pytest.raises(StoreError):
        store.append_move("ABC234", 4, 1, "draw")  # a gap
    with pytest.raises(StoreError):
        store.append_move("ABC234", 3, 2, "draw")  # not the table's game
    with pytest.raises(StoreError):
        store.append_move("ZZZZZZ", 1, 1, "draw")
    table = store.load_table("ABC234")
    assert table is not None
    assert table.moves == ("draw", "pass") and table.last_seq == 2


def test_a_game_replays_from_seed_and_moves(store: Store) -> None:
    rules = Rules(players=3, target=20)
    store.create_table(new_table(players=3, seed=1234))
    match = Match(rules, 1234)
    seq = 0
    while not match.is_over:
        move = match.legal_moves()[0]
        seq += 1
        store.append_move("ABC234", seq, 1, str(move))
        match.play(move)
    table = store.load_table("ABC234")
    assert table is not None
    again = Match(rules, table.seed)
    for text in table.moves:
        again.play(parse_move(text))
    assert again.scores == match.scores and again.winner == match.winner


def test_finish_and_rematch(store: Store) -> None:
    store.create_table(new_table())
    store.append_move("ABC234", 1, 1, "draw")
    store.finish_game("ABC234", 1, '{"record": 1}')
    assert store.unfinished_codes() == []
    assert store.game_record("ABC234", 1) == '{"record": 1}'
    store.start_game("ABC234", 2, 555)
    with pytest.raises(StoreError):
        store.start_game("ABC234", 2, 556)
    table = store.load_table("ABC234")
    assert table is not None
    assert (table.game, table.seed, table.moves, table.finished) == (2, 555, (), False)
    assert table.last_seq == 1
    store.append_move("ABC234", 2, 2, "pass")
    table = store.load_table("ABC234")
    assert table is not None
    assert table.moves == ("pass",) and table.last_seq == 2
    assert store.game_record("ABC234", 2) is None
    assert store.unfinished_codes() == ["ABC234"]


def test_many_tables(store: Store) -> None:
    for i in range(20):
        store.create_table(new_table(code=f"T{i:05d}", seed=i))
    for i in range(0, 20, 2):
        store.finish_game(f"T{i:05d}", 1, "{}")
    assert store.unfinished_codes() == [f"T{i:05d}" for i in range(1, 20, 2)]


def test_sqlite_file_is_wal_and_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "data" / "games.sqlite3"
    store = SqliteStore(path)
    assert store.journal_mode == "wal"
    store.create_table(new_table())
    store.append_move("ABC234", 1, 1, "draw")
    store.close()
    again = open_store(f"sqlite:///{path}")
    table = again.load_table("ABC234")
    assert table is not None and table.moves == ("draw",)
    again.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_open_store_urls(tmp_path: Path) -> None:
    memory = open_store("sqlite://:memory:")
    assert isinstance(memory, SqliteStore)
    memory.close()
    plain = open_store(str(tmp_path / "x.db"))
    assert isinstance(plain, SqliteStore)
    plain.close()
    with pytest.raises(StoreError):
        open_store("mysql://nope")


def test_async_store_runs_off_the_loop_and_keeps_moves_exactly_once(store: Store) -> None:
    """Many tables write at once through AsyncStore's threads (PostgreSQL: its pool).

    Every table's moves land in order, once each; a second writer of the same
    number is refused even when both race (the server's exactly-once rule).
    """
    codes = [f"P{i:05d}" for i in range(12)]
    for i, code in enumerate(codes):
        store.create_table(new_table(code=code, seed=i))
    db = AsyncStore(store)

    async def table_moves(code: str) -> None:
        for seq in range(1, 9):
            await db.append_move(code, seq, 1, "draw" if seq % 2 else "pass")

    async def race(code: str) -> list[BaseException | None]:
        results = await asyncio.gather(
            *(db.append_move(code, 9, 1, f"L{n}-6") for n in range(4)), return_exceptions=True
        )
        return [r if isinstance(r, BaseException) else None for r in results]

    async def main() -> list[list[BaseException | None]]:
        await asyncio.gather(*(table_moves(code) for code in codes))
        return list(await asyncio.gather(*(race(code) for code in codes)))

    try:
        # A thread of its own: the browser tests leave an event loop on this one.
        with ThreadPoolExecutor(1) as runner:
            raced = runner.submit(asyncio.run, main()).result(timeout=120)
    finally:
        db.shutdown()
    for code, outcomes in zip(codes, raced, strict=True):
        assert sum(o is None for o in outcomes) == 1, outcomes
        assert all(o is None or isinstance(o, DuplicateMove) for o in outcomes)
        table = store.load_table(code)
        assert table is not None and table.last_seq == 9
        assert table.moves[:8] == ("draw", "pass") * 4
    assert store.workers >= 1


def test_postgres_store_pools_connections() -> None:
    """The pool lets PostgreSQL serve several of AsyncStore's threads at once."""
    if not PG_URL:
        service_missing("PASSING_GAME_TEST_PG_URL is not set (see .ci/services.sh)")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    made = PostgresStore(PG_URL, schema=schema, pool_size=3)
    try:
        assert made.workers == 3
        made.create_table(new_table())
        assert made.load_table("ABC234") is not None
    finally:
        made.close()
        import psycopg

        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def test_postgres_url_errors_are_clear() -> None:
    """A database that is not there fails at once with the driver's message."""
    pytest.importorskip("psycopg")
    port = free_port()
    with pytest.raises(Exception, match=r"(?i)connect|refused"):
        PostgresStore(f"postgresql://nobody:nothing@127.0.0.1:{port}/none")


# -- issue 11: timers, seats' clocks, marks, resignation, migrations ----------


def test_timers_seats_and_marks_are_kept(store: Store) -> None:
    """Issue 11: a running timer, a seat's bank, timeouts, stand-in reason and
    invitation, and who made each move survive a reload (and so a restart)."""
    from passing_game.web.store import Timer

    table = NewTable(
        "ABC234",
        {"players": 2},
        99,
        (SeatRow(0, "human", "Ana"), SeatRow(1, "human", "Ben")),
        creator=0,
        clock={"move": 20, "bank": 40},
    )
    store.create_table(table)
    timer = Timer("move", 0, 1000.5, 1060.5, seat=0)
    store.set_timer("ABC234", timer)
    store.append_move("ABC234", 1, 1, "draw", "timeout", timer=Timer("move", 1, 1061.0, 1081.0, 1))
    store.append_move("ABC234", 2, 1, "pass")
    store.append_move("ABC234", 3, 1, "draw", "stand-in")
    with pytest.raises(StoreError):
        store.append_move("ABC234", 4, 1, "pass", "ghost")
    store.update_seat(
        "ABC234",
        SeatRow(1, "human", "Ben", bank=12.5, timeouts=2, away="timeout", invite_hash="h", seen=3),
    )
    loaded = store.load_table("ABC234")
    assert loaded is not None
    assert loaded.creator == 0 and loaded.clock == {"move": 20, "bank": 40}
    assert loaded.timer == Timer("move", 1, 1061.0, 1081.0, 1)
    assert loaded.played_by == ("timeout", None, "stand-in")
    assert loaded.seats[1] == SeatRow(
        1, "human", "Ben", bank=12.5, timeouts=2, away="timeout", invite_hash="h", seen=3
    )
    store.set_timer("ABC234", None)
    store.resign("ABC234", 1, 1)
    loaded = store.load_table("ABC234")
    assert loaded is not None and loaded.timer is None and loaded.resigned == 1


FIRST_RELEASE_ROWS = (
    "INSERT INTO web_tables VALUES ('OLD234', 1.0, '{\"players\": 2}', 1)",
    "INSERT INTO web_seats VALUES ('OLD234', 0, 'human', 'Ana', NULL, 'abc')",
    "INSERT INTO web_seats VALUES ('OLD234', 1, 'bot', 'greedy', 'greedy', NULL)",
    "INSERT INTO web_games VALUES ('OLD234', 1, 4242, 1, 0, NULL)",
    "INSERT INTO web_moves VALUES ('OLD234', 1, 1, 'draw')",
)


def check_upgraded(store: Store) -> None:
    from passing_game.web.store import SCHEMA_VERSION

    assert store.schema_version == SCHEMA_VERSION  # type: ignore[attr-defined]
    table = store.load_table("OLD234")
    assert table is not None
    assert table.moves == ("draw",) and table.played_by == (None,)
    assert table.seats[1].level == "greedy" and table.seats[0].away is None
    assert table.clock is None and table.timer is None and table.creator is None
    store.append_move("OLD234", 2, 1, "pass", "stand-in")  # the new columns work


def test_a_database_of_the_first_release_upgrades_itself(tmp_path: Path) -> None:
    """Issue 11 (and 13, 10): a database made by the previous release (schema
    version 1, no version table) is migrated at open, its games kept."""
    from passing_game.web.store import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    for statement in (*MIGRATIONS[0], *FIRST_RELEASE_ROWS):
        old.execute(statement)
    old.commit()
    old.close()
    store = SqliteStore(path)
    try:
        check_upgraded(store)
    finally:
        store.close()
    again = SqliteStore(path)  # a second open changes nothing
    try:
        assert again.load_table("OLD234") is not None
    finally:
        again.close()


def test_a_postgres_database_of_the_first_release_upgrades_itself() -> None:
    """The same upgrade on PostgreSQL."""
    from passing_game.web.store import MIGRATIONS

    if not PG_URL:
        service_missing("PASSING_GAME_TEST_PG_URL is not set (see .ci/services.sh)")
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
        conn.execute(f'SET search_path TO "{schema}"')
        for statement in (*MIGRATIONS[0], *FIRST_RELEASE_ROWS):
            conn.execute(statement)
    store = PostgresStore(PG_URL, schema=schema)
    try:
        check_upgraded(store)
    finally:
        store.close()
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


OPEN_AND_REPORT = """
import sys
from passing_game.web.store import PostgresStore, SqliteStore
url, schema = sys.argv[1], sys.argv[2]
store = PostgresStore(url, schema=schema) if url.startswith("postgresql") else SqliteStore(url)
print(store.schema_version)
store.close()
"""


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_servers_started_together_do_not_race_on_the_schema(kind: str, tmp_path: Path) -> None:
    """Issue 11 (and 12): three processes opening one empty database at once
    all succeed; one migrates, the others wait for it (a lock), none fails."""
    import subprocess
    import sys

    from passing_game.web.store import SCHEMA_VERSION

    schema = f"t_{uuid.uuid4().hex[:12]}"
    if kind == "postgresql":
        if not PG_URL:
            service_missing("PASSING_GAME_TEST_PG_URL is not set (see .ci/services.sh)")
        url = PG_URL
    else:
        url = str(tmp_path / "together.sqlite3")
    try:
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", OPEN_AND_REPORT, url, schema],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(3)
        ]
        outcomes = [p.communicate(timeout=120) for p in procs]
        assert [p.returncode for p in procs] == [0, 0, 0], outcomes
        assert [out.strip() for out, _err in outcomes] == [str(SCHEMA_VERSION)] * 3
    finally:
        if kind == "postgresql" and PG_URL:
            import psycopg

            with psycopg.connect(PG_URL, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    """A database from a newer release is not written by an older one."""
    from passing_game.web.store import SCHEMA_VERSION

    path = tmp_path / "new.sqlite3"
    SqliteStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE web_schema SET version = ?", (SCHEMA_VERSION + 1,))
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="upgrade passing-game"):
        SqliteStore(path)


def test_leases_are_taken_once_and_kept_by_heartbeats(store: Store) -> None:
    """Issue 12: one leader a table; a lapsed lease nobody took is still its holder's
    (a process too busy to beat in time keeps its tables); a taken one is not."""
    store.create_table(new_table("LEASE2"))
    assert store.claim_lease("LEASE2", "p1", now=100.0, lease_for=3.0)
    assert not store.claim_lease("LEASE2", "p2", now=101.0, lease_for=3.0)  # p1's is live
    assert store.orphans(now=101.0) == []
    # p1 beats late (its lease lapsed at 103) and nobody took the table meanwhile.
    assert store.heartbeat("p1", now=110.0, lease_for=3.0) == ["LEASE2"]
    assert store.lease_holder("LEASE2", now=112.0) == "p1"
    # It lapses again, p2 takes it: p1's heartbeat no longer names it.
    assert store.orphans(now=120.0) == []  # seats still open: not started, no work
    assert store.claim_lease("LEASE2", "p2", now=120.0, lease_for=3.0)
    assert store.heartbeat("p1", now=121.0, lease_for=3.0) == []
    assert store.lease_holder("LEASE2", now=121.0) == "p2"
