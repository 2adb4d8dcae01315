"""What checking a signed-in socket's session before every intent costs (issue 22).

Not a test: a measurement run by hand. The check is one indexed read
(``Accounts.user_of_hash``); it is timed against the cheapest write a move
costs (one statement on the table's row), on SQLite and, given a URL, on
PostgreSQL in a schema of its own (dropped at the end).

    .venv/bin/python benchmarks/session_check.py
    .venv/bin/python benchmarks/session_check.py \\
        postgresql://passing_game:passing_game@127.0.0.1:5432/passing_game_test
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
import uuid
from pathlib import Path

from passing_game.web.accounts.flows import Accounts, hash_secret
from passing_game.web.store import NewTable, SeatRow, open_store

CALLS = 3000


def measure(url: str) -> tuple[float, float]:
    """Seconds per session check and per one-statement write."""
    store = open_store(url)
    try:
        accounts = Accounts(store)
        signed = asyncio.run(accounts.sign_up("Bench User", "correct horse battery", "10.9.9.9"))
        session = hash_secret(signed.session)
        seats = (SeatRow(0, "human", "a"), SeatRow(1, "bot", "random", level="random"))
        store.create_table(NewTable("BNCH23", {"players": 2}, 7, seats))
        started = time.perf_counter()
        for _ in range(CALLS):
            accounts.user_of_hash(session)
        check = (time.perf_counter() - started) / CALLS
        started = time.perf_counter()
        for _ in range(CALLS):
            store.set_timer("BNCH23", None)
        write = (time.perf_counter() - started) / CALLS
    finally:
        store.close()
    return check, write


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        runs = [("SQLite", f"sqlite:///{Path(folder) / 'bench.sqlite3'}")]
        schema = None
        if len(sys.argv) > 1:
            schema = f"bench_{uuid.uuid4().hex[:8]}"
            runs.append(("PostgreSQL", f"{sys.argv[1]}?schema={schema}"))
        try:
            for label, url in runs:
                check, write = measure(url)
                print(
                    f"{label}: session check {check * 1e6:.0f} us, one-statement write"
                    f" {write * 1e6:.0f} us, ratio {check / write:.2f}"
                )
        finally:
            if schema is not None:
                import psycopg

                with psycopg.connect(sys.argv[1], autocommit=True) as conn:
                    conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


if __name__ == "__main__":
    main()
