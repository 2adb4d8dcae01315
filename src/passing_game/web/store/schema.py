"""The schema: every table of the web, one migration step per version.

A database records the last step it took (``web_schema``); a store takes the
steps its database lacks when it opens (``migrate``), under a lock (SQLite's
write lock, a PostgreSQL advisory lock), so that a database of an older
release upgrades itself and servers started together never race. A
database newer than the program is refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passing_game.web.store.rows import StoreError

if TYPE_CHECKING:
    from passing_game.web.store.tx import Tx

#: The schema, one step per version: a database records the last step it
#: took (``web_schema``) and takes the later ones at open, under a lock, so
#: that servers started together on an empty database never race. Version 1
#: is the schema of the first release; an older database upgrades itself.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE IF NOT EXISTS web_tables (
            code TEXT PRIMARY KEY,
            created DOUBLE PRECISION NOT NULL,
            rules TEXT NOT NULL,
            game INTEGER NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS web_seats (
            code TEXT NOT NULL REFERENCES web_tables (code),
            seat INTEGER NOT NULL,
            kind TEXT NOT NULL,
            name TEXT NOT NULL,
            level TEXT,
            token_hash TEXT,
            PRIMARY KEY (code, seat)
        )""",
        """CREATE TABLE IF NOT EXISTS web_games (
            code TEXT NOT NULL REFERENCES web_tables (code),
            game INTEGER NOT NULL,
            seed BIGINT NOT NULL,
            first_seq INTEGER NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0,
            record TEXT,
            PRIMARY KEY (code, game)
        )""",
        """CREATE TABLE IF NOT EXISTS web_moves (
            code TEXT NOT NULL REFERENCES web_tables (code),
            seq INTEGER NOT NULL,
            game INTEGER NOT NULL,
            move TEXT NOT NULL,
            PRIMARY KEY (code, seq)
        )""",
    ),
    # Version 2 (issue 11): who created a table, its clock and its one
    # running timer (a turn's deadline or the round summary's countdown);
    # per seat the time bank, timeouts in a row, why a stand-in plays it,
    # a pending invitation and the last round summary read; per move who
    # made it when not the seat's own player; a resignation per game.
    (
        "ALTER TABLE web_tables ADD COLUMN creator INTEGER",
        "ALTER TABLE web_tables ADD COLUMN clock TEXT",
        "ALTER TABLE web_tables ADD COLUMN timer_kind TEXT",
        "ALTER TABLE web_tables ADD COLUMN timer_seq INTEGER",
        "ALTER TABLE web_tables ADD COLUMN timer_seat INTEGER",
        "ALTER TABLE web_tables ADD COLUMN timer_start DOUBLE PRECISION",
        "ALTER TABLE web_tables ADD COLUMN timer_end DOUBLE PRECISION",
        "ALTER TABLE web_seats ADD COLUMN bank DOUBLE PRECISION",
        "ALTER TABLE web_seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE web_seats ADD COLUMN away TEXT",
        "ALTER TABLE web_seats ADD COLUMN invite_hash TEXT",
        "ALTER TABLE web_seats ADD COLUMN seen INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE web_moves ADD COLUMN played_by TEXT",
        "ALTER TABLE web_games ADD COLUMN resigned INTEGER",
    ),
    # Version 3 (issue 12): several server processes on one database. Each
    # process says it is alive (``web_processes``); the one that leads a
    # table holds its lease until ``expires``; which seats have a client
    # connected to which process (``web_presence``).
    (
        """CREATE TABLE IF NOT EXISTS web_processes (
            id TEXT PRIMARY KEY,
            started DOUBLE PRECISION NOT NULL,
            heartbeat DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS web_leases (
            code TEXT PRIMARY KEY REFERENCES web_tables (code),
            holder TEXT NOT NULL,
            expires DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS web_presence (
            code TEXT NOT NULL REFERENCES web_tables (code),
            seat INTEGER NOT NULL,
            process TEXT NOT NULL,
            conns INTEGER NOT NULL,
            PRIMARY KEY (code, seat, process)
        )""",
    ),
    # Version 4 (issue 13): accounts and their sessions, sign-in attempts for
    # the rate limits, seats held by accounts, rated and public tables,
    # ratings and their changes, the quick-play queue, the daily deal, the
    # moderators' log, and analyses kept per record.
    (
        """CREATE TABLE IF NOT EXISTS web_users (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE,
            password_hash TEXT,
            created DOUBLE PRECISION NOT NULL,
            suspended INTEGER NOT NULL DEFAULT 0,
            deleted INTEGER NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE IF NOT EXISTS web_sessions (
            id_hash TEXT PRIMARY KEY,
            user_id TEXT NOT NULL REFERENCES web_users (id),
            created DOUBLE PRECISION NOT NULL,
            expires DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS web_attempts (
            key TEXT PRIMARY KEY,
            since DOUBLE PRECISION NOT NULL,
            count INTEGER NOT NULL
        )""",
        "ALTER TABLE web_seats ADD COLUMN user_id TEXT",
        "ALTER TABLE web_tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE web_tables ADD COLUMN public INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE web_tables ADD COLUMN origin TEXT",
        """CREATE TABLE IF NOT EXISTS web_ratings (
            user_id TEXT NOT NULL REFERENCES web_users (id),
            pool TEXT NOT NULL,
            mu DOUBLE PRECISION NOT NULL,
            sigma DOUBLE PRECISION NOT NULL,
            games INTEGER NOT NULL DEFAULT 0,
            updated DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (user_id, pool)
        )""",
        """CREATE TABLE IF NOT EXISTS web_rating_changes (
            code TEXT NOT NULL,
            game INTEGER NOT NULL,
            user_id TEXT NOT NULL,
            pool TEXT NOT NULL,
            mu_before DOUBLE PRECISION NOT NULL,
            sigma_before DOUBLE PRECISION NOT NULL,
            mu_after DOUBLE PRECISION NOT NULL,
            sigma_after DOUBLE PRECISION NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            removed INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (code, game, user_id)
        )""",
        """CREATE TABLE IF NOT EXISTS web_queue (
            ticket TEXT PRIMARY KEY,
            players INTEGER NOT NULL,
            rated INTEGER NOT NULL,
            user_id TEXT,
            name TEXT NOT NULL,
            token_hash TEXT NOT NULL,
            since DOUBLE PRECISION NOT NULL,
            seen DOUBLE PRECISION NOT NULL,
            code TEXT,
            seat INTEGER
        )""",
        """CREATE TABLE IF NOT EXISTS web_daily (
            day TEXT NOT NULL,
            user_id TEXT NOT NULL REFERENCES web_users (id),
            code TEXT NOT NULL,
            started DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (day, user_id)
        )""",
        """CREATE TABLE IF NOT EXISTS web_admin_log (
            at DOUBLE PRECISION NOT NULL,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            target TEXT NOT NULL,
            reason TEXT NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS web_analyses (
            record_hash TEXT NOT NULL,
            seat INTEGER NOT NULL,
            result TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (record_hash, seat)
        )""",
    ),
    # Version 5 (issue 22): accounts, sessions and ratings that hold under
    # attack. Sign-in throttling keeps when the last attempt came; an
    # account's known devices; a user name's look-alike key and the address
    # an account was made from (hashed); whether a finished game was rated
    # or aborted, in the transaction that keeps its record; per seat the
    # hints taken and a rematch accepted; the daily deal per person (name
    # and address, hashed); the site's own settings (the daily deal's
    # secret when the environment gives none).
    (
        "ALTER TABLE web_attempts ADD COLUMN last DOUBLE PRECISION NOT NULL DEFAULT 0",
        """CREATE TABLE IF NOT EXISTS web_devices (
            user_id TEXT NOT NULL REFERENCES web_users (id),
            device_hash TEXT NOT NULL,
            seen DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (user_id, device_hash)
        )""",
        "ALTER TABLE web_users ADD COLUMN name_skeleton TEXT",
        "ALTER TABLE web_users ADD COLUMN address_hash TEXT",
        "CREATE INDEX IF NOT EXISTS web_users_skeleton ON web_users (name_skeleton)",
        "ALTER TABLE web_games ADD COLUMN rating TEXT",
        "ALTER TABLE web_seats ADD COLUMN hints INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE web_seats ADD COLUMN rematch INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX IF NOT EXISTS web_seats_user ON web_seats (user_id)",
        "ALTER TABLE web_daily ADD COLUMN name_hash TEXT",
        "ALTER TABLE web_daily ADD COLUMN address_hash TEXT",
        """CREATE TABLE IF NOT EXISTS web_settings (
            name TEXT PRIMARY KEY,
            value TEXT NOT NULL
        )""",
    ),
    # Puzzles in the browser (issue 25, item 2; store/puzzles.py): the ratings of
    # the puzzles tried, the solvers (an account or a guest's browser: rating,
    # counts, streak), and each solver's first attempt at a puzzle.
    (
        """CREATE TABLE IF NOT EXISTS web_puzzle_ratings (
            puzzle TEXT PRIMARY KEY,
            rating DOUBLE PRECISION NOT NULL,
            deviation DOUBLE PRECISION NOT NULL,
            volatility DOUBLE PRECISION NOT NULL,
            plays INTEGER NOT NULL DEFAULT 0,
            solved INTEGER NOT NULL DEFAULT 0,
            updated DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS web_puzzle_solvers (
            solver TEXT PRIMARY KEY,
            user_id TEXT,
            rating DOUBLE PRECISION NOT NULL,
            deviation DOUBLE PRECISION NOT NULL,
            volatility DOUBLE PRECISION NOT NULL,
            plays INTEGER NOT NULL DEFAULT 0,
            solved INTEGER NOT NULL DEFAULT 0,
            streak_run INTEGER NOT NULL DEFAULT 0,
            streak_best INTEGER NOT NULL DEFAULT 0,
            streak_puzzle TEXT,
            created DOUBLE PRECISION NOT NULL,
            updated DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS web_puzzle_attempts (
            solver TEXT NOT NULL,
            puzzle TEXT NOT NULL,
            move TEXT NOT NULL,
            correct INTEGER NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            solver_before DOUBLE PRECISION,
            solver_after DOUBLE PRECISION,
            puzzle_before DOUBLE PRECISION,
            puzzle_after DOUBLE PRECISION,
            PRIMARY KEY (solver, puzzle)
        )""",
    ),
    # The tutorial's lessons an account has done (issue 25; store/learning.py).
    (
        """CREATE TABLE IF NOT EXISTS web_lessons_done (
            user_id TEXT NOT NULL,
            lesson TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (user_id, lesson)
        )""",
    ),
    # Practice from any position (issue 25, item 3; web/practice/): a game that
    # starts from an explicit first deal instead of its seed's (JSON: hands,
    # boneyard, leader), a practice table's.
    ("ALTER TABLE web_games ADD COLUMN deal TEXT",),
    # Deals anyone can check (issue 26, item 3; passing_game.fairness): the game's
    # secret seed, salt and contributions (JSON), its commitment shown before the deal.
    ("ALTER TABLE web_games ADD COLUMN fairness TEXT",),
    # Tournaments for people (issue 26, item 1; store/tournaments.py): the
    # settings, the people in each, and its tables (their games are the tables'
    # own rows); a Swiss round's byes.
    (
        """CREATE TABLE IF NOT EXISTS web_tournaments (
            id TEXT PRIMARY KEY,
            settings TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            status TEXT NOT NULL,
            round INTEGER NOT NULL DEFAULT 0,
            public INTEGER NOT NULL,
            starts DOUBLE PRECISION NOT NULL,
            creator TEXT NOT NULL DEFAULT ''
        )""",
        "CREATE INDEX IF NOT EXISTS web_tournaments_due ON web_tournaments (status, starts)",
        """CREATE TABLE IF NOT EXISTS web_tournament_entries (
            tournament TEXT NOT NULL REFERENCES web_tournaments (id),
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            joined DOUBLE PRECISION NOT NULL,
            withdrawn INTEGER NOT NULL DEFAULT 0,
            paused INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (tournament, user_id)
        )""",
        """CREATE TABLE IF NOT EXISTS web_tournament_tables (
            tournament TEXT NOT NULL REFERENCES web_tournaments (id),
            code TEXT NOT NULL,
            round INTEGER NOT NULL,
            seats TEXT NOT NULL,
            started DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (tournament, code)
        )""",
        "CREATE INDEX IF NOT EXISTS web_tournament_tables_code ON web_tournament_tables (code)",
    ),
    # A duplicate's deals that nobody chooses alone (issue 26, item 3;
    # tournament/parts.py): each person's random part, given with the join,
    # and the parts each round's deals were mixed from (JSON, at each table).
    (
        "ALTER TABLE web_tournament_entries ADD COLUMN contribution TEXT",
        "ALTER TABLE web_tournament_tables ADD COLUMN parts TEXT",
    ),
    # A way back into an account whose password is lost (issue 27, item 4;
    # accounts/recovery.py): one-time recovery codes, their hashes only.
    (
        """CREATE TABLE IF NOT EXISTS web_recovery_codes (
            user_id TEXT NOT NULL REFERENCES web_users (id),
            code_hash TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            used DOUBLE PRECISION,
            PRIMARY KEY (user_id, code_hash)
        )""",
    ),
    # Version 13 (issue 27, item 1; chat/): table and tournament chat, mutes,
    # reports and the moderators' actions; whom each account does not want to
    # hear from (store/ignores.py: a mute for the chat, a block for chat and
    # challenges).
    (
        """CREATE TABLE IF NOT EXISTS web_ignores (
            user_id TEXT NOT NULL REFERENCES web_users (id),
            other_id TEXT NOT NULL REFERENCES web_users (id),
            kind TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (user_id, other_id)
        )""",
        "CREATE INDEX IF NOT EXISTS web_ignores_other ON web_ignores (other_id)",
        # One row per message (store/chat.py): where, in which channel, by whom
        # (an opaque author key, the account if any, the name shown), a preset's
        # key or a text, when; ``deleted``: when a moderator took it away.
        """CREATE TABLE IF NOT EXISTS web_chat (
            id BIGINT PRIMARY KEY,
            place TEXT NOT NULL,
            channel TEXT NOT NULL,
            author TEXT NOT NULL,
            user_id TEXT,
            name TEXT NOT NULL,
            preset TEXT,
            body TEXT,
            at DOUBLE PRECISION NOT NULL,
            deleted DOUBLE PRECISION
        )""",
        "CREATE INDEX IF NOT EXISTS web_chat_place ON web_chat (place, id)",
        "CREATE INDEX IF NOT EXISTS web_chat_author ON web_chat (author, at)",
        """CREATE TABLE IF NOT EXISTS web_chat_reports (
            id BIGINT PRIMARY KEY,
            message_id BIGINT NOT NULL,
            place TEXT NOT NULL,
            reporter TEXT NOT NULL,
            reporter_id TEXT,
            at DOUBLE PRECISION NOT NULL,
            context TEXT NOT NULL,
            closed DOUBLE PRECISION
        )""",
        """CREATE TABLE IF NOT EXISTS web_chat_mutes (
            user_id TEXT PRIMARY KEY,
            until DOUBLE PRECISION NOT NULL,
            reason TEXT NOT NULL,
            actor TEXT NOT NULL
        )""",
    ),
    # Version 14 (issue 27, item 2; social/): follows, blocks, challenges and
    # who is online.
    (
        """CREATE TABLE IF NOT EXISTS web_follows (
            user_id TEXT NOT NULL REFERENCES web_users (id),
            other_id TEXT NOT NULL REFERENCES web_users (id),
            created DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (user_id, other_id)
        )""",
        "CREATE INDEX IF NOT EXISTS web_follows_other ON web_follows (other_id)",
        """CREATE TABLE IF NOT EXISTS web_challenges (
            id TEXT PRIMARY KEY,
            from_id TEXT NOT NULL REFERENCES web_users (id),
            to_id TEXT NOT NULL REFERENCES web_users (id),
            settings TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            expires DOUBLE PRECISION NOT NULL,
            status TEXT NOT NULL,
            decided DOUBLE PRECISION,
            code TEXT
        )""",
        "CREATE INDEX IF NOT EXISTS web_challenges_to ON web_challenges (to_id, status)",
        "CREATE INDEX IF NOT EXISTS web_challenges_from ON web_challenges (from_id, status)",
        """CREATE TABLE IF NOT EXISTS web_online (
            process TEXT NOT NULL,
            user_id TEXT NOT NULL,
            code TEXT NOT NULL,
            since DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (process, user_id, code)
        )""",
        "CREATE INDEX IF NOT EXISTS web_online_user ON web_online (user_id)",
        # A profile's rating graph reads one account's changes (profiles/, P60).
        "CREATE INDEX IF NOT EXISTS web_rating_changes_user ON web_rating_changes (user_id, at)",
    ),
    # Version 15 (issue 28, item 4; botapi/, store/bots.py): bot accounts (an
    # account of ``web_users`` without a password, run by its owner's program),
    # the SHA-256 of each one's API token (NULL: revoked), whether it is held
    # because its owner is suspended, which socket plays it now (``link``:
    # process and nonce) and when it was last connected; who waits in quick
    # play with bots (``web_queue.bots``: 0 people only, 1 a person who meets
    # bots too, 2 a bot). Their rating pools are ``web_ratings``' own rows
    # (``bots-2``...): no table of their own.
    (
        """CREATE TABLE IF NOT EXISTS web_bots (
            user_id TEXT PRIMARY KEY REFERENCES web_users (id),
            owner_id TEXT NOT NULL REFERENCES web_users (id),
            token_hash TEXT UNIQUE,
            token_made DOUBLE PRECISION,
            created DOUBLE PRECISION NOT NULL,
            held INTEGER NOT NULL DEFAULT 0,
            link TEXT,
            seen DOUBLE PRECISION
        )""",
        "CREATE INDEX IF NOT EXISTS web_bots_owner ON web_bots (owner_id)",
        "ALTER TABLE web_queue ADD COLUMN bots INTEGER NOT NULL DEFAULT 0",
    ),
    # Version 16 (issue 28, item 5; ladder/): the public ladder of agents. Each
    # published ladder (store/ladder.py): its checked JSON document, when and by
    # whom it was published and why; the page shows the newest.
    (
        """CREATE TABLE IF NOT EXISTS web_ladders (
            id BIGINT PRIMARY KEY,
            published DOUBLE PRECISION NOT NULL,
            actor TEXT NOT NULL,
            reason TEXT NOT NULL,
            document TEXT NOT NULL
        )""",
    ),
)

#: The schema version this code reads and writes.
SCHEMA_VERSION = len(MIGRATIONS)

#: The advisory lock key under which a PostgreSQL schema is migrated.
SCHEMA_LOCK = 0x7061_7373  # "pass"


def schema_version(tx: Tx) -> int:
    """The version the database is at (0: empty), its version table made if missing."""
    tx.execute("CREATE TABLE IF NOT EXISTS web_schema (version INTEGER NOT NULL)")
    row = tx.one("SELECT MAX(version) FROM web_schema")
    if row is not None and row[0] is not None:
        return int(row[0])
    # A database of the first release has its tables but no version yet.
    return 1 if tx.has_table("web_tables") else 0


def migrate(tx: Tx) -> None:
    """Bring the schema to ``SCHEMA_VERSION``, one migration step at a time."""
    tx.lock(SCHEMA_LOCK)
    version = schema_version(tx)
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"the database has schema version {version}; this program knows"
            f" up to {SCHEMA_VERSION}: upgrade passing-game"
        )
    for step in range(version, SCHEMA_VERSION):
        for statement in MIGRATIONS[step]:
            tx.execute(statement)
    if version != SCHEMA_VERSION:
        tx.run("DELETE FROM web_schema")
        tx.run("INSERT INTO web_schema (version) VALUES (?)", (SCHEMA_VERSION,))


__all__ = ["MIGRATIONS", "SCHEMA_LOCK", "SCHEMA_VERSION", "migrate", "schema_version"]
