"""Under CI a missing browser or database fails the run instead of skipping.

.ci/services.sh exports PASSING_GAME_REQUIRE_SERVICES=1 when CI=true; the
browser and PostgreSQL tests then fail without their service. These tests
run pytest on those files with the service taken away, both ways.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
SERVICES = ROOT / ".ci" / "services.sh"


def run_pytest(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PASSING_GAME_REQUIRE_SERVICES", "PASSING_GAME_TEST_PG_URL", "CI")
    }
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("required", [False, True])
def test_a_missing_postgresql_skips_locally_and_fails_under_ci(required: bool) -> None:
    env = {"PASSING_GAME_REQUIRE_SERVICES": "1"} if required else {}
    done = run_pytest(["tests/test_web_store.py", "-k", "pools_connections", "-rs"], **env)
    if required:
        assert done.returncode == 1, done.stdout
        assert "1 failed" in done.stdout and "PASSING_GAME_REQUIRE_SERVICES" in done.stdout
    else:
        assert done.returncode == 0, done.stdout
        assert "1 skipped" in done.stdout


@pytest.mark.parametrize("required", [False, True])
def test_a_missing_chromium_skips_locally_and_fails_under_ci(required: bool) -> None:
    env = {"PASSING_GAME_CHROMIUM": "/nonexistent/chromium"}
    if required:
        env["PASSING_GAME_REQUIRE_SERVICES"] = "1"
    done = run_pytest(["tests/test_web_e2e.py", "-rs"], **env)
    if required:
        assert done.returncode != 0, done.stdout
        assert "no Chromium" in done.stdout and "skipped" not in done.stdout
    else:  # 5: pytest collected nothing but skips
        assert done.returncode in (0, 5), done.stdout
        assert "skipped" in done.stdout


def test_services_script_requires_services_under_ci() -> None:
    """The switch is set by the script CI sources, only when CI=true."""
    text = SERVICES.read_text()
    assert "export PASSING_GAME_REQUIRE_SERVICES=1" in text
    guard = text.index('if [ "${CI:-}" = "true" ]')
    assert guard < text.index("export PASSING_GAME_REQUIRE_SERVICES=1")
    assert (ROOT / ".ci" / "run").read_text().count("source .ci/services.sh") == 1
