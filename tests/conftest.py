"""Fixtures the browser tests share: Debian's Chromium, a served app, screenshots.

A test that asks for the browser is skipped when Chromium is missing, and
fails under CI (PASSING_GAME_REQUIRE_SERVICES=1, see .ci/services.sh). The
browser modules themselves check that Playwright and Starlette import.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web_helpers import PG_URL, Server, free_port, pg_schema, service_missing

CHROMIUM = os.environ.get("PASSING_GAME_CHROMIUM", "/usr/bin/chromium")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium: Playwright cannot download browsers here."""
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        service_missing(f"no Chromium at {CHROMIUM} (see .ci/services.sh)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real ``passing-game serve`` on loopback, one per test module, SQLite in a temp folder."""
    work = tmp_path_factory.mktemp("e2e")
    running = Server(work / "data" / "e2e.sqlite3", free_port(), work, bot_delay=0.05)
    yield running
    running.stop()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: PASSING_GAME_SCREENSHOTS if set, else a temp folder."""
    folder = Path(os.environ.get("PASSING_GAME_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """The test database with a schema of this test's own, dropped after (skips without one)."""
    with pg_schema(request.module.__name__.removeprefix("test_web_")) as schema:
        yield f"{PG_URL}?schema={schema}"
