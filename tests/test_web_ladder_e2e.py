"""The ladder page in Chromium, two server processes on one PostgreSQL (issue 28, item 5; P63).

A real ladder is played by ``passing-game arena --ladder`` (four agents, the
Python example program among them, a few deals) and published with
``passing-game admin ladder publish`` while both servers run: the first
process said there was none, the second shows it at once, read from the
store. At 1280x800 and 390x844 every agent's net points a round is shown
with its 95% interval, as numbers and as a line on one scale whose ends are
the file's, the pairwise table has a cell for every ordered pair, the
command and the dates are there, and nothing scrolls sideways; the lobby
links to it; in Galician the page and its intervals are worded in Galician.
Screenshots go where PASSING_GAME_SCREENSHOTS says.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")
pytest.importorskip("numpy", reason="the ladder is played by the arena (extra 'arena')")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from browser_helpers import watch_errors  # noqa: E402
from cluster_helpers import start, stop  # noqa: E402

ROOT = Path(__file__).parent.parent
CLI = [sys.executable, "-m", "passing_game"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SHOTS = Path(os.environ.get("PASSING_GAME_SCREENSHOTS") or tempfile.gettempdir())
PY_BOT = "cmd:label=greedy.py:python3 examples/bots/greedy_bot.py"


@pytest.fixture
def servers(pg_url: str, tmp_path: Path) -> Iterator[list[Server]]:
    running = start(pg_url, tmp_path, 2)
    try:
        yield running
    finally:
        stop(running)


def play_ladder(path: Path) -> dict[str, Any]:
    done = subprocess.run(
        [
            *CLI,
            "arena",
            "--ladder",
            "random",
            "easy",
            "medium",
            "--bot",
            PY_BOT,
            "--rounds",
            "6",
            "--seed",
            "2",
            "--jobs",
            "2",
            "--json",
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def publish(pg_url: str, path: Path) -> None:
    done = subprocess.run(
        [
            *CLI,
            "--lang",
            "en",
            "admin",
            "--db",
            pg_url,
            "--actor",
            "mod",
            "ladder",
            "publish",
            str(path),
            "--reason",
            "the weekly run",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def catalog(server: Server, language: str) -> dict[str, str]:
    with urllib.request.urlopen(server.url(f"/api/i18n?lang={language}"), timeout=10) as got:
        texts: dict[str, str] = json.load(got)["texts"]
    return texts


def no_sideways(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width  # type: ignore[index]


def percent(value: str) -> float:
    assert value.endswith("%"), value
    return float(value[:-1])


def check_the_standings(page: Page, data: dict[str, Any]) -> None:
    """Every agent in the file's order, with its estimate, its interval's ends, and its
    line drawn on one scale: the ends' order and the estimate's place match the file."""
    rows = page.locator("#ladder-standings tbody tr")
    expect(rows).to_have_count(len(data["agents"]))
    labels = rows.locator(".who .label").all_inner_texts()
    assert labels == [a["label"] for a in data["agents"]]
    places: list[tuple[float, float, float]] = []
    for i, agent in enumerate(data["agents"]):
        row = rows.nth(i)
        net = agent["net"]
        shown = row.locator(".net .estimate").inner_text().replace("\u2212", "-")
        assert float(shown) == pytest.approx(net["estimate"], abs=0.006), (agent["label"], shown)
        ends = row.locator(".net .range").inner_text().replace("\u2212", "-").split(" to ")
        assert [float(e) for e in ends] == pytest.approx([net["low"], net["high"]], abs=0.006)
        line = row.locator("svg.ci-bar line.interval")
        low, high = percent(line.get_attribute("x1") or ""), percent(line.get_attribute("x2") or "")
        dot = percent(row.locator("svg.ci-bar circle.dot").get_attribute("cx") or "")
        assert 0 <= low <= dot <= high <= 100
        assert row.locator("svg.ci-bar line.interval").bounding_box()["width"] > 2  # type: ignore[index]
        places.append((low, dot, high))
        kind = {"level": "Level", "bot": "Bot", "outside": "Program from outside"}[agent["kind"]]
        assert kind in row.locator(".who .kind").inner_text()
    # One scale for all: the order of the estimates is the order of the dots.
    estimates = [a["net"]["estimate"] for a in data["agents"]]
    dots = [p[1] for p in places]
    assert sorted(range(len(dots)), key=dots.__getitem__) == sorted(
        range(len(estimates)), key=estimates.__getitem__
    )


def check_the_matrix(page: Page, data: dict[str, Any]) -> None:
    n = len(data["agents"])
    cells = page.locator("#ladder-matrix td.cell")
    expect(cells).to_have_count(n * (n - 1))
    for pair in data["pairs"]:
        cell = page.locator(f'#ladder-matrix td[data-row="{pair["a"]}"][data-col="{pair["b"]}"]')
        shown = float(cell.locator(".estimate").inner_text().replace("\u2212", "-"))
        assert shown == pytest.approx(pair["net"]["estimate"], abs=0.051)
        mirror = page.locator(f'#ladder-matrix td[data-row="{pair["b"]}"][data-col="{pair["a"]}"]')
        assert float(mirror.locator(".estimate").inner_text().replace("\u2212", "-")) == (
            pytest.approx(-pair["net"]["estimate"], abs=0.051)
        )
        expected = (
            "ahead" if pair["net"]["low"] > 0 else "behind" if pair["net"]["high"] < 0 else "even"
        )
        assert expected in (cell.get_attribute("class") or "")
        if pair["net"]["high"] > pair["net"]["low"]:
            assert cell.locator(".half").inner_text().startswith("±")
    # easy and the Python program play alike: even, exactly, on the same deals.
    even = page.locator('#ladder-matrix td[data-row="easy"][data-col="greedy.py"]')
    assert "even" in (even.get_attribute("class") or "")


def test_the_ladder_page_shows_the_published_ladder_with_its_intervals(
    browser: Browser, servers: list[Server], pg_url: str, tmp_path: Path
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "ladder.json"
    data = play_ladder(path)

    # Before: the first process shows the ladder the package ships, and says
    # so; the lobby links to the page.
    first = browser.new_context(viewport=DESKTOP).new_page()
    first_errors = watch_errors(first)
    first.goto(servers[0].url("/"))
    first.locator("#ladder-link").click()
    first.locator("#ladder-standings").wait_for()
    expect(first.locator("#ladder-run")).to_contain_text("Measured by the project for this version")
    assert first.url.endswith("/ladder")

    publish(pg_url, path)

    # The second process shows it, from the store.
    page = browser.new_context(viewport=DESKTOP).new_page()
    errors = watch_errors(page)
    page.goto(servers[1].url("/ladder"))
    page.locator("#ladder-standings").wait_for()
    check_the_standings(page, data)
    check_the_matrix(page, data)
    expect(page.locator("#ladder-command")).to_have_text(data["run"]["command"])
    facts = page.locator("#ladder-run").inner_text()
    assert "Deals" in facts and "Published" in facts and "Two players" in facts
    assert page.locator("#ladder-standings thead th").nth(4).is_visible()
    no_sideways(page)
    page.screenshot(path=str(SHOTS / "web-ladder.png"), full_page=True)

    # The first process too, once reloaded.
    first.reload()
    first.locator("#ladder-standings").wait_for()
    check_the_standings(first, data)

    # A phone: the intervals, the lines and the table; the extra columns give way.
    phone = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    phone_errors = watch_errors(phone)
    phone.goto(servers[1].url("/ladder"))
    phone.locator("#ladder-standings").wait_for()
    check_the_standings(phone, data)
    check_the_matrix(phone, data)
    assert not phone.locator("#ladder-standings thead th").nth(4).is_visible()
    no_sideways(phone)
    phone.screenshot(path=str(SHOTS / "web-ladder-phone.png"), full_page=True)

    # In Galician: the page's words and the intervals' range are the catalog's.
    gl = catalog(servers[1], "gl")
    assert gl["The computer players' ladder"] != "The computer players' ladder"
    galician = browser.new_context(viewport=PHONE, is_mobile=True, locale="gl-ES").new_page()
    galician_errors = watch_errors(galician)
    galician.goto(servers[0].url("/ladder?lang=gl"))
    galician.locator("#ladder-standings").wait_for()
    expect(galician.locator("h1")).to_have_text(gl["The computer players' ladder"])
    expect(galician.locator("#ladder-matrix h2")).to_have_text(gl["Who beats whom"])
    worded = re.escape(gl["{low} to {high}"]).replace(r"\{low\}", ".+").replace(r"\{high\}", ".+")
    assert gl["{low} to {high}"] != "{low} to {high}"
    assert re.fullmatch(worded, galician.locator("#ladder-standings .range").first.inner_text())
    no_sideways(galician)

    assert first_errors == [] and errors == [] and phone_errors == [] and galician_errors == []
