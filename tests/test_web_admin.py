"""``passing-game admin`` through click's runner, on SQLite and PostgreSQL (issue 13, item 9).

List and search accounts, rename, suspend and restore one, take a game out of
the ratings; every action in the moderators' log with its reason; bad input
gets a usage error, never a traceback.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("argon2")
pytest.importorskip("openskill")

from click.testing import CliRunner, Result

from passing_game.cli import main
from passing_game.rules import Rules
from passing_game.web.accounts.flows import AccountError, Accounts
from passing_game.web.ratings.service import display, leaderboard, outcome_of, rate_game
from passing_game.web.store import SeatRow, Store, open_store
from web_helpers import blocking, service_missing

PG_URL = os.environ.get("PASSING_GAME_TEST_PG_URL")
PASSWORD = "correct horse battery"


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL as ``--db`` takes it, with Ana and Ben and one rated game."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'admin.sqlite3'}"
        cleanup = None
    else:
        if not PG_URL:
            service_missing("PASSING_GAME_TEST_PG_URL is not set (see .ci/services.sh)")
        schema = f"a_{uuid.uuid4().hex[:12]}"
        url = f"{PG_URL}?schema={schema}"
        cleanup = schema
    store = open_store(url)
    try:
        accounts = Accounts(store)
        ana = blocking(accounts.sign_up("Ana", PASSWORD)).user.id
        ben = blocking(accounts.sign_up("Ben", PASSWORD)).user.id
        blocking(accounts.sign_up("Anabel", PASSWORD))
        outcome = outcome_of(
            Rules(players=2),
            [SeatRow(0, "human", "Ana", user_id=ana), SeatRow(1, "human", "Ben", user_id=ben)],
            0,
            [101, 40],
        )
        rate_game(store, "GAME22", 1, outcome)
    finally:
        store.close()
    yield url
    if cleanup is not None:
        import psycopg

        assert PG_URL is not None
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{cleanup}" CASCADE')


def admin(db: str, *args: str) -> Result:
    result = CliRunner().invoke(
        main, ["--lang", "en", "admin", "--db", db, "--actor", "mod", *args]
    )
    assert "Traceback" not in result.output
    return result


def opened(db: str) -> Store:
    return open_store(db)


def test_accounts_are_listed_and_searched(db: str) -> None:
    listed = admin(db, "accounts")
    assert listed.exit_code == 0, listed.output
    lines = listed.output.splitlines()
    assert lines[0].split()[:4] == ["name", "id", "created", "state"]
    assert [line.split()[0] for line in lines[1:]] == ["Ana", "Ben", "Anabel"]
    assert "2: 1069 (1 game)" in lines[1] and "active" in lines[1]
    found = admin(db, "accounts", "--search", "ANA")
    assert [line.split()[0] for line in found.output.splitlines()[1:]] == ["Ana", "Anabel"]
    none = admin(db, "accounts", "--search", "%")
    assert none.exit_code == 0 and none.output.strip() == "No accounts."


def test_rename_suspend_restore_unrate_and_the_log(db: str) -> None:
    renamed = admin(db, "rename", "ana", "Anna Maria", "--reason", "asked for it")
    assert renamed.exit_code == 0, renamed.output
    store = opened(db)
    try:
        accounts = Accounts(store)
        with pytest.raises(AccountError):
            blocking(accounts.sign_in("Ana", PASSWORD, "10.0.0.1"))
        user = blocking(accounts.sign_in("anna maria", PASSWORD, "10.0.0.1")).user
        assert user.name == "Anna Maria"
        # Suspended: no sign-in, off the leaderboard; restored: both back.
        assert admin(db, "suspend", "Ben", "--reason", "spam in names").exit_code == 0
        with pytest.raises(AccountError, match="suspended"):
            blocking(accounts.sign_in("Ben", PASSWORD, "10.0.0.2"))
        assert [p["name"] for p in leaderboard(store, "2")] == ["Anna Maria"]
        assert admin(db, "restore", "Ben", "--reason", "appeal granted").exit_code == 0
        assert blocking(accounts.sign_in("Ben", PASSWORD, "10.0.0.2")).user.name == "Ben"
        assert [p["name"] for p in leaderboard(store, "2")] == ["Anna Maria", "Ben"]
        # The game out of the ratings: both back to a new player's rating.
        out = admin(db, "unrate", "game-22", "1", "--reason", "played against himself")
        assert out.exit_code == 0, out.output
        assert "GAME22" in out.output and "Ben" in out.output
        assert leaderboard(store, "2") == []
        with store.transaction() as tx:
            rows = tx.all("SELECT mu, sigma, games FROM web_ratings ORDER BY user_id")
        assert all(display(float(mu), float(s)) == 1000 and g == 0 for mu, s, g in rows)
    finally:
        store.close()
    log = admin(db, "log")
    assert log.exit_code == 0
    lines = log.output.splitlines()
    assert lines[0].split() == ["when", "who", "action", "target", "reason"]
    actions = [line.split()[3] for line in lines[1:]]
    assert actions == ["unrate", "restore", "suspend", "rename"]  # newest first
    assert all(" mod " in line for line in lines[1:])
    for reason in ("asked for it", "spam in names", "appeal granted", "played against himself"):
        assert reason in log.output
    assert "Ana -> Anna Maria" in log.output and "GAME22/1" in log.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["suspend", "Nobody", "--reason", "x"], "there is no account called “Nobody”"),
        (["suspend", "Ana"], "Missing option '--reason'"),
        (["suspend", "Ana", "--reason", "   "], "give a reason"),
        (["restore", "Ana", "--reason", "x"], "Ana is not suspended"),
        (["rename", "Ana", "Ben", "--reason", "x"], "the name “Ben” is taken"),
        (["rename", "Ana", "x", "--reason", "x"], "at least 3 characters"),
        (["unrate", "NOPE", "1", "--reason", "x"], "Invalid value for CODE"),
        (["unrate", "GAME22", "0", "--reason", "x"], "Invalid value for 'GAME'"),
        (["unrate", "GAME22", "2", "--reason", "x"], "game 2 of table GAME22 was not rated"),
        (["unrate", "GAME22", "two", "--reason", "x"], "'two' is not a valid integer"),
        (["accounts", "--limit", "0"], "Invalid value for '--limit'"),
        (["fly"], "No such command 'fly'"),
    ],
)
def test_bad_input_is_a_usage_error(db: str, args: list[str], message: str) -> None:
    result = admin(db, *args)
    assert result.exit_code == 2, result.output
    assert "Error:" in result.output and message in result.output
    assert isinstance(result.exception, SystemExit)


def test_a_suspension_twice_is_refused_and_nothing_is_logged(db: str) -> None:
    assert admin(db, "suspend", "Ben", "--reason", "first").exit_code == 0
    again = admin(db, "suspend", "BEN", "--reason", "second")
    assert again.exit_code == 2 and "already suspended" in again.output
    log = admin(db, "log").output
    assert "first" in log and "second" not in log


def test_a_database_that_cannot_be_opened_is_a_clear_error(tmp_path: Path) -> None:
    bad = admin("postgresql://nobody:wrong@127.0.0.1:1/none", "accounts")
    assert bad.exit_code == 1 and "cannot open the database" in bad.output
    unknown = admin("mysql://x", "log")
    assert unknown.exit_code == 1 and "unknown database URL" in unknown.output
    empty = admin(f"sqlite:///{tmp_path / 'empty.sqlite3'}", "log")
    assert empty.exit_code == 0 and "The log is empty." in empty.output


def test_the_help_lists_the_commands() -> None:
    result = CliRunner().invoke(main, ["--lang", "en", "admin", "--help"])
    assert result.exit_code == 0
    for command in ("accounts", "rename", "suspend", "restore", "unrate", "log"):
        assert command in result.output
    top = CliRunner().invoke(main, ["--lang", "en", "--help"])
    assert "admin" in top.output


def test_a_moderator_schedules_a_public_tournament_the_lobby_lists(db: str) -> None:
    """Issue 26, item 1: public tournaments are a moderator's, with a start time."""
    import time as clock

    from passing_game.web.store import tournaments as rows

    later = clock.strftime("%Y-%m-%d %H:%M", clock.localtime(clock.time() + 3600))
    made = admin(
        db, "tournament", "Sunday Swiss", "--kind", "swiss", "--rounds", "4",
        "--starts", later, "--rated", "--bots", "2", "--bot-level", "easy",
        "--reason", "the weekly event",
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    assert "Sunday Swiss is scheduled: /tournament/" in made.output
    store = opened(db)
    try:
        with store.transaction() as tx:
            listed = rows.public(tx, 0, 10)
        assert [(r.settings["name"], r.settings["rounds"], r.status) for r in listed] == [
            ("Sunday Swiss", 4, "open")
        ]
        assert listed[0].settings["public"] and listed[0].settings["rated"]
        # Two computer players of the easy level take part (P65).
        assert (listed[0].settings["bots"], listed[0].settings["bot_level"]) == (2, "easy")
        assert listed[0].settings["starts"] > clock.time() + 3000
    finally:
        store.close()
    logged = admin(db, "log")
    assert "tournament" in logged.output and "the weekly event" in logged.output
    for args, says in [
        (["--kind", "swiss", "--starts", "tomorrow"], "YYYY-MM-DD HH:MM"),
        (["--kind", "arena", "--minutes", "1", "--starts", later], "5 to 240 minutes"),
        (["--kind", "swiss", "--starts", "2020-01-01 10:00"], "within 30 days"),
        (["--kind", "swiss", "--starts", later, "--bots", "9"], "0 to 8 computer players"),
        (["--kind", "swiss", "--starts", later, "--bot-level", "god"], "easy, medium, hard"),
    ]:
        refused = admin(db, "tournament", "X", *args, "--reason", "r")
        assert refused.exit_code == 2 and says in refused.output, refused.output
    assert admin(db, "tournament", "X", "--kind", "swiss", "--starts", later).exit_code == 2
