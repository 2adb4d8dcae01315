"""Whom an account does not want to hear from (``store/ignores.py``; issue 27), on
SQLite and PostgreSQL: a mute, a block that a mute never lowers, lifting one,
and a deleted account's rows going with it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from passing_game.web.store import Store, ignores
from passing_game.web.store import accounts as users
from passing_game.web.store.rows import UserRow
from web_helpers import either_store


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    yield from either_store(request.param, tmp_path, "ignores")


def people(store: Store, *names: str) -> None:
    with store.transaction() as tx:
        for name in names:
            row = UserRow(id=name.lower(), name=name, password_hash="x", created=1.0)
            users.insert_user(tx, row, name.lower(), name.lower(), "")


def test_a_mute_a_block_and_lifting_them(store: Store) -> None:
    people(store, "Ana", "Ben", "Cai")
    with store.transaction() as tx:
        ignores.ignore(tx, "ana", "ben", "mute", 2.0)
        ignores.ignore(tx, "ana", "cai", "block", 2.0)
        ignores.ignore(tx, "ana", "cai", "mute", 3.0)  # a mute never lowers a block
        assert ignores.ignored_by(tx, "ana") == {"ben": "mute", "cai": "block"}
        assert ignores.ignored_by(tx, "ben") == {}  # one way only
        assert ignores.blocks(tx, "ana", "cai") and not ignores.blocks(tx, "ana", "ben")
        ignores.ignore(tx, "ana", "ben", "block", 4.0)  # a mute raised to a block
        assert ignores.blocks(tx, "ana", "ben")
        assert not ignores.unignore(tx, "ana", "ben", "mute")  # it is a block now
        assert ignores.unignore(tx, "ana", "ben", "block")
        assert ignores.ignored_by(tx, "ana") == {"cai": "block"}
    with store.transaction() as tx, pytest.raises(ValueError, match="kind"):
        ignores.ignore(tx, "ana", "ben", "hate", 5.0)  # type: ignore[arg-type]


def test_a_deleted_accounts_rows_go_both_ways(store: Store) -> None:
    people(store, "Ana", "Ben")
    with store.transaction() as tx:
        ignores.ignore(tx, "ana", "ben", "block", 2.0)
        ignores.ignore(tx, "ben", "ana", "mute", 2.0)
        users.delete_user(tx, "ben", "deleted player", "deleted:ben")
        assert ignores.ignored_by(tx, "ana") == {} and ignores.ignored_by(tx, "ben") == {}
