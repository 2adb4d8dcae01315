"""Storage is one layer (issue 23, item 3): every SQL statement of the web in ``web/store/``.

The web's features (accounts, ratings, quick play, the daily deal, ...) call
the store's repositories; none holds SQL, reaches a private part of the
store or asks which database it runs on. The checks read the source
(``ast``), so that a statement added in the wrong place fails here, named.
And a database made by any earlier release upgrades itself on both
databases, its rows kept.
"""

from __future__ import annotations

import ast
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import passing_game.web
from passing_game.web.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    PostgresStore,
    SqliteStore,
    Store,
)
from passing_game.web.store import accounts as users
from web_helpers import PG_URL, service_missing

WEB = Path(passing_game.web.__file__).parent
#: Words that begin an SQL statement, or name PostgreSQL's own functions and commands.
SQL = (
    "SELECT ",
    "INSERT INTO",
    "UPDATE ",
    "DELETE FROM",
    "CREATE TABLE",
    "CREATE INDEX",
    "ALTER TABLE",
    "DROP TABLE",
    'LISTEN "',
    "pg_notify",
    "pg_advisory",
)
#: The store's classes for one database: only the store package picks one.
DIALECTS = {"PostgresStore", "SqliteStore"}
#: What a feature calls the store, its thread adapter or its transaction.
STORE_NAMES = {"store", "_store", "db", "_db", "tx"}
#: The database drivers, imported by the store only.
DRIVERS = {"sqlite3", "psycopg", "psycopg_pool"}


def feature_modules(root: Path = WEB) -> list[Path]:
    """Every module of ``web/`` outside ``web/store/``."""
    return sorted(p for p in root.rglob("*.py") if "store" not in p.relative_to(root).parts)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _terminal(node: ast.expr) -> str | None:
    """The last name of ``a.b.store``: ``store``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def leaks(path: Path) -> list[str]:
    """What in the module belongs to the store: SQL in a string, a private part of
    the store reached, a dialect's class or a driver imported."""
    tree = ast.parse(path.read_text(), str(path))
    docs = _docstrings(tree)
    found: list[str] = []

    def say(node: ast.AST, what: str) -> None:
        found.append(f"{path.name}:{getattr(node, 'lineno', '?')}: {what}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            words = [w for w in SQL if w in node.value]
            if words:
                say(node, f"SQL {words[0].strip()!r} in {node.value[:60]!r}")
        elif isinstance(node, ast.Call) and _terminal(node.func) == "getattr":
            named = node.args[1] if len(node.args) > 1 else None
            if isinstance(named, ast.Constant) and str(named.value).startswith("_"):
                say(node, f"getattr of the private {named.value!r}")
        elif isinstance(node, ast.Attribute):
            private = node.attr.startswith("_") and not node.attr.startswith("__")
            if _terminal(node.value) in STORE_NAMES and (private or node.attr == "cur"):
                say(node, f"the store's own {node.attr!r} reached")
            if node.attr in DIALECTS:
                say(node, f"{node.attr} named")
        elif isinstance(node, ast.Name) and node.id in DIALECTS:
            say(node, f"{node.id} used")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module.split(".")[0] in DRIVERS:
                say(node, f"the driver {module} imported")
            if module.endswith(("store.postgres", "store.sqlite")):
                say(node, f"{module} imported")
            for alias in node.names:
                if alias.name in DIALECTS or alias.name in ("postgres", "sqlite"):
                    say(node, f"{alias.name} imported from {module}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in DRIVERS or alias.name.endswith(
                    ("store.postgres", "store.sqlite")
                ):
                    say(node, f"{alias.name} imported")
    return found


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """Each check fails on a module that breaks it (the checks check something)."""
    module = tmp_path / "feature.py"
    module.write_text(
        '"""A feature that says SELECT in its docstring (allowed)."""\n'
        "import psycopg\n"
        "from passing_game.web.store import PostgresStore, Store\n"
        "def f(store: Store) -> None:\n"
        "    with store.transaction() as tx:\n"
        '        tx.run(f"DELETE FROM web_queue WHERE ticket IN ({marks})")\n'
        '    getattr(store, "_is_integrity_error")\n'
        "    store._exec(None, '')\n"
        "    tx.cur.execute('x')\n"
        "    isinstance(store, PostgresStore)\n"
    )
    found = "\n".join(leaks(module))
    for what in (
        "psycopg imported",
        "PostgresStore imported",
        "SQL 'DELETE FROM'",
        "getattr of the private '_is_integrity_error'",
        "'_exec' reached",
        "'cur' reached",
        "PostgresStore used",
    ):
        assert what in found, found
    assert "docstring" not in found


def test_no_feature_holds_sql_or_reaches_into_the_store() -> None:
    """Every SQL statement of the web is in ``web/store/``; no feature calls a
    private method of the store, names a dialect's class or imports a driver
    (it asks the store: ``Store.is_integrity_error``, ``Store.shared``, ``Tx.lock``)."""
    modules = feature_modules()
    assert len(modules) > 20 and any(p.name == "matching.py" for p in modules)
    found = [leak for path in modules for leak in leaks(path)]
    assert not found, "\n".join(found)


def test_the_store_holds_the_sql() -> None:
    """The repositories exist and hold statements (the checks above are not vacuous)."""
    store_dir = WEB / "store"
    for name in ("tables", "leases", "accounts", "ratings", "queue", "daily", "admin"):
        text = (store_dir / f"{name}.py").read_text()
        assert any(word in text for word in SQL), name


def test_each_module_of_the_store_is_small() -> None:
    for path in sorted((WEB / "store").glob("*.py")):
        assert len(path.read_text().splitlines()) <= 500, path.name


# -- a database of any earlier release upgrades itself ----------------------------------


def _old_database(conn: Any, version: int) -> None:
    """The schema and some rows as release ``version`` left them (1 has no version table)."""
    execute = conn.execute
    for step in MIGRATIONS[:version]:
        for statement in step:
            execute(statement)
    if version > 1:
        execute("CREATE TABLE web_schema (version INTEGER NOT NULL)")
        execute(f"INSERT INTO web_schema (version) VALUES ({version})")
    execute(
        "INSERT INTO web_tables (code, created, rules, game)"
        " VALUES ('OLD234', 1.0, '{\"players\": 2}', 1)"
    )
    execute(
        "INSERT INTO web_seats (code, seat, kind, name, level, token_hash)"
        " VALUES ('OLD234', 0, 'human', 'Ana', NULL, 'abc')"
    )
    execute(
        "INSERT INTO web_seats (code, seat, kind, name, level, token_hash)"
        " VALUES ('OLD234', 1, 'bot', 'greedy', 'greedy', NULL)"
    )
    execute("INSERT INTO web_games (code, game, seed, first_seq) VALUES ('OLD234', 1, 4242, 1)")
    execute("INSERT INTO web_moves (code, seq, game, move) VALUES ('OLD234', 1, 1, 'draw')")
    if version >= 4:
        execute(
            "INSERT INTO web_users (id, name, name_key, password_hash, created)"
            " VALUES ('u1', 'Ana', 'ana', 'h', 1.0)"
        )


def _check(store: Store, version: int) -> None:
    assert store.schema_version == SCHEMA_VERSION
    table = store.load_table("OLD234")
    assert table is not None and table.moves == ("draw",) and table.seed == 4242
    assert table.seats[1].level == "greedy" and table.seats[0].hints == 0
    store.append_move("OLD234", 2, 1, "pass", "stand-in")  # the new columns work
    with store.transaction() as tx:
        row = users.credentials(tx, "ana")
    assert (row is not None) == (version >= 4)
    if row is not None:
        assert row.name == "Ana" and row.password_hash == "h"


@pytest.fixture
def pg_url() -> Iterator[str]:
    if not PG_URL:
        service_missing("PASSING_GAME_TEST_PG_URL is not set (see .ci/services.sh)")
    yield PG_URL


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION))
def test_an_sqlite_database_of_an_earlier_release_upgrades_itself(
    version: int, tmp_path: Path
) -> None:
    path = tmp_path / f"v{version}.sqlite3"
    with sqlite3.connect(path) as old:
        _old_database(old, version)
    old.close()
    store = SqliteStore(path)
    try:
        _check(store, version)
    finally:
        store.close()
    again = SqliteStore(path)  # a second open changes nothing
    try:
        assert again.schema_version == SCHEMA_VERSION
    finally:
        again.close()


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION))
def test_a_postgres_database_of_an_earlier_release_upgrades_itself(
    version: int, pg_url: str
) -> None:
    import psycopg

    schema = f"u_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
        conn.execute(f'SET search_path TO "{schema}"')
        _old_database(conn, version)
    try:
        store = PostgresStore(pg_url, schema=schema)
        try:
            _check(store, version)
        finally:
            store.close()
    finally:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
