"""The web app's storage: one suite, run against SQLite and PostgreSQL.

PostgreSQL runs when PASSING_GAME_TEST_PG_URL names a database (.ci/services.sh
starts one and sets it); each test gets a schema of its own. Without it the
PostgreSQL tests skip, except under CI (PASSING_GAME_REQUIRE_SERVICES=1),
where they fail.
"""

from __future__ import annotations

import asyncio
import os
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
from web_helpers import free_port, service_missing

PG_URL = os.environ.get("PASSING_GAME_TEST_PG_URL")


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        made: Store = SqliteStore(tmp_path / "data" / "test.sqlite3")
        yield made
        made.close()
        return
    if not PG_URL:
        service_missing("PASSING_GAME_TEST_PG_URL is not set (see .ci/services.sh)")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    made = PostgresStore(PG_URL, schema=schema)
    yield made
    made.close()
    import psycopg

    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


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
