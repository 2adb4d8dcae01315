"""Quick play on several server processes over one PostgreSQL (issue 13, P30).

Real ``passing-game serve`` processes on one database (a schema of this
test's own), real WebSockets, each person on the process they picked:

- two people on two processes who ask at the same moment sit at one table,
  never two, and play there;
- many people on two processes asking at once for two- and three-player
  games: every person is seated exactly once, each table is full of
  distinct people, and the queue is empty afterwards.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web_helpers import Server, free_port, require_module

require_module("starlette")
require_module("websockets")
require_module("psycopg")

from cluster_helpers import Person  # noqa: E402


@pytest.fixture
def servers(pg_url: str, tmp_path: Path) -> Iterator[list[Server]]:
    running = [Server(pg_url, free_port(), tmp_path, bot_delay=0.05) for _ in range(2)]
    yield running
    for server in running:
        server.stop()


def at_once(people: list[Person], messages: list[dict[str, Any]]) -> None:
    """Each person sends their message at the same moment (a barrier, one thread each)."""
    barrier = threading.Barrier(len(people))
    failures: list[BaseException] = []

    def go(person: Person, message: dict[str, Any]) -> None:
        try:
            barrier.wait(timeout=10)
            person.send(**message)
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    threads = [
        threading.Thread(target=go, args=pair) for pair in zip(people, messages, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    assert not failures, failures


def seated(person: Person) -> dict[str, Any]:
    frame = person.until(lambda f: f["type"] in ("joined", "error"), timeout=30)
    assert frame["type"] == "joined", frame
    return frame


def queue_left(pg_url: str) -> list[Any]:
    """The queue's rows once the processes have cleared the ones they seated."""
    from passing_game.web.store import open_store

    store = open_store(pg_url)
    deadline = time.monotonic() + 10
    try:
        while True:
            with store.transaction() as tx:
                rows = tx.all("SELECT ticket, code FROM web_queue")
            if not rows or time.monotonic() > deadline:
                return rows
            time.sleep(0.1)
    finally:
        store.close()


def quick_tables(pg_url: str) -> dict[str, list[tuple[str, str | None]]]:
    from passing_game.web.store import open_store

    store = open_store(pg_url)
    try:
        with store.transaction() as tx:
            rows = tx.all(
                "SELECT s.code, s.kind, s.name FROM web_seats s JOIN web_tables t"
                " ON t.code = s.code WHERE t.origin = 'quick' ORDER BY s.code, s.seat"
            )
    finally:
        store.close()
    found: dict[str, list[tuple[str, str | None]]] = {}
    for code, kind, name in rows:
        found.setdefault(str(code), []).append((str(kind), name))
    return found


def test_two_people_on_two_processes_at_once_sit_at_one_table(
    servers: list[Server], pg_url: str
) -> None:
    a, b = servers
    ana, ben = Person(a.port), Person(b.port)
    try:
        at_once(
            [ana, ben],
            [
                {"type": "quick", "players": 2, "name": "Ana"},
                {"type": "quick", "players": 2, "name": "Ben"},
            ],
        )
        one, two = seated(ana), seated(ben)
        assert one["table"] == two["table"]
        assert {one["seat"], two["seat"]} == {0, 1}
        assert one["token"] != two["token"]
        tables = quick_tables(pg_url)
        assert list(tables) == [one["table"]]  # one table, never two
        assert sorted(str(name) for _kind, name in tables[one["table"]]) == ["Ana", "Ben"]
        # They play there: a move made by one reaches the other, across processes.
        people = {one["seat"]: ana, two["seat"]: ben}
        frame = ana.now(lambda f: f["started"] and all(s["connected"] for s in f["seats"]))
        mover = people[frame["round"]["to_move"]]
        mine = mover.now(lambda f: bool(f["round"]["legal"]))
        mover.act(mine["round"]["legal"][0])
        for person in (ana, ben):
            person.now(lambda f: len(f["round"]["history"]) >= 1)
        assert queue_left(pg_url) == []
    finally:
        ana.close()
        ben.close()


@pytest.mark.parametrize("players", [2, 3])
def test_many_people_at_once_are_each_seated_once(
    servers: list[Server], pg_url: str, players: int
) -> None:
    count = 6
    people = [Person(servers[i % 2].port) for i in range(count)]
    names = [f"P{i}" for i in range(count)]
    try:
        at_once(people, [{"type": "quick", "players": players, "name": n} for n in names])
        frames = [seated(p) for p in people]
        by_table: dict[str, list[int]] = {}
        for frame in frames:
            by_table.setdefault(frame["table"], []).append(frame["seat"])
        assert len(by_table) == count // players
        for seats in by_table.values():
            assert sorted(seats) == list(range(players))  # full, each seat once
        tables = quick_tables(pg_url)
        assert sorted(tables) == sorted(by_table)
        everyone = [name for rows in tables.values() for kind, name in rows if kind == "human"]
        assert sorted(str(n) for n in everyone) == sorted(names)  # nobody twice, nobody left
        for frame, name in zip(frames, names, strict=True):
            assert tables[frame["table"]][frame["seat"]] == ("human", name), (frame, name)
        assert queue_left(pg_url) == []
        assert json.dumps(frames)  # the frames are plain JSON
    finally:
        for person in people:
            person.close()
