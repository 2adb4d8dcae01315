"""Fixtures the tests share: both round engines; Debian's Chromium, a served app, screenshots.

``engine`` runs a whole test module once per implementation of ``Round``
(``PyRound``, the pure-Python reference, and ``FastRound``, the C extension's,
skipped when it is not built and failing under CI, which builds it): the
rules suites ask for it with ``pytestmark = pytest.mark.usefixtures("engine")``.
``--quick`` (``make check``, the root conftest.py) runs each of their cases on
one of the two, taking turns.

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

from passing_game import Round
from passing_game import round as round_module
from web_helpers import PG_URL, Server, free_port, pg_schema, service_missing

ENGINES = ["PyRound", "FastRound"]


@pytest.fixture(scope="module", params=ENGINES)
def engine(request: pytest.FixtureRequest) -> Iterator[type[Round]]:
    """The ``Round`` class ``Round.new``, ``Round.from_deal``, ``Match`` and records build,
    for every test of the module (module-scoped, so Hypothesis's tests may use it too)."""
    cls = getattr(round_module, request.param, None)
    if cls is None:
        reason = f"C round (_fastround) not built: no {request.param}"
        if os.environ.get("CI"):
            pytest.fail(f"CI: {reason}", pytrace=False)
        pytest.skip(reason)
    chosen = round_module._IMPL
    round_module._IMPL = cls
    try:
        yield cls
    finally:
        round_module._IMPL = chosen


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
def servers(pg_url: str, tmp_path: Path) -> Iterator[list[Server]]:
    """Three ``passing-game serve`` processes on one PostgreSQL schema, as a balancer
    would spread people over them; a module may define its own instead."""
    running = [Server(pg_url, free_port(), tmp_path, bot_delay=0.05) for _ in range(3)]
    try:
        yield running
    finally:
        for one in running:
            if one.proc.poll() is None:
                one.stop()


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
