"""Profiles in Chromium, three server processes on one PostgreSQL (issue 27, item 3; P60).

Ana (a desktop screen, on the first process) and Ben (a phone, on the second) sign
up and play two rated two-player games to their end, each by clicking. Cris, not
signed in, opens Ana's profile on the third process: the graph's points are the
rating changes the store kept, the statistics are a recomputation from the stored
records (``/api/tables/CODE/record?game=N`` loaded with ``load_record``), the
recent games link to their replays, and the graph's table opens from the keyboard.
Ana reaches her own profile from the account menu, Ben's from the table's seat
name and from the leaderboard; an unknown name says so. The page fits 1280x900,
390x844 and 360x640 (no sideways scrolling), with screenshots.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")
require_module("openskill")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from browser_helpers import (  # noqa: E402
    open_account,
    rated_table,
    sign_up,
    watch_errors,
)
from browser_helpers import play_until_over as play_to_over  # noqa: E402
from cluster_helpers import start, stop  # noqa: E402
from passing_game import load_record  # noqa: E402
from passing_game.records import record_marks  # noqa: E402
from passing_game.web.profiles import model  # noqa: E402
from passing_game.web.profiles.service import key_of  # noqa: E402
from passing_game.web.ratings.model import display  # noqa: E402
from passing_game.web.store import open_store  # noqa: E402
from passing_game.web.store import profiles as profile_rows  # noqa: E402
from passing_game.web.store import ratings as rating_rows  # noqa: E402

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SHOTS = Path(os.environ.get("PASSING_GAME_SCREENSHOTS") or tempfile.gettempdir())


@pytest.fixture
def servers(pg_url: str, tmp_path: Path) -> Iterator[list[Server]]:
    running = start(pg_url, tmp_path, 3, bot_delay=0.05, extra=("--summary-wait", "3"))
    try:
        yield running
    finally:
        stop(running)


def api(server: Server, path: str) -> Any:
    with urllib.request.urlopen(server.url(path), timeout=10) as response:
        return json.load(response)


def play_until_over(pages: list[Page]) -> None:
    """To the match's end, and until every page shows its rating changes."""
    play_to_over(pages, seconds=120)
    for page in pages:
        page.wait_for_function("() => S.frame && S.frame.over && S.frame.ratings", timeout=15_000)


def join(page: Page, url: str, name: str | None = None) -> None:
    page.goto(url)
    page.locator("#join-button").wait_for()
    if name is not None:
        sign_up(page, name)
        page.fill("#jp-name", name)
    page.click("#join-button")
    page.locator(".hand .domino").first.wait_for()


def rated_again(page: Page, url: str) -> str:
    """Another rated table to 1 point, made from the lobby by a signed-in person."""
    page.goto(url)
    page.locator("#create-button").wait_for()
    page.check("#f-rated")
    page.click(".rules-box summary")
    page.fill("#f-target", "1")
    page.click("#create-button")
    page.locator("#table-code").wait_for()
    return page.locator("#table-code").inner_text()


def no_sideways(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width  # type: ignore[index]


def stored_points(pg_url: str, name: str) -> list[int]:
    """The graph's points as the store keeps the rating changes: the first's before, then
    each one's after."""
    store = open_store(pg_url)
    try:
        with store.transaction() as tx:
            account = profile_rows.account(tx, key_of(name))
            assert account is not None
            steps = rating_rows.kept_steps(tx, account.id, "2")
    finally:
        store.close()
    return [display(steps[0][0], steps[0][1])] + [display(mu, sigma) for _b, _s, mu, sigma in steps]


def percent(part: int, whole: int) -> str:
    return f"{math.floor(100 * part / whole + 0.5)}% ({part} of {whole})"


def test_a_profile_shows_the_stored_ratings_and_games_on_another_process(
    browser: Browser, servers: list[Server], pg_url: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    ana_ctx = browser.new_context(viewport=DESKTOP)
    ben_ctx = browser.new_context(viewport=PHONE, is_mobile=True)
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    ana_errors, ben_errors = watch_errors(ana), watch_errors(ben)

    codes = [rated_table(ana, servers[0].url("/"), "Ana")]
    join(ben, servers[1].url(f"/t/{codes[0]}"), "Ben")
    play_until_over([ana, ben])
    # The seat names at the table link to the accounts' profiles.
    expect(ana.locator('.seat-card a.seat-name[href="/u/Ben"]')).to_have_count(1)
    codes.append(rated_again(ana, servers[0].url("/")))
    join(ben, servers[1].url(f"/t/{codes[1]}"))
    play_until_over([ana, ben])

    # Cris, signed out, on the third process.
    cris_ctx = browser.new_context(viewport=DESKTOP)
    cris = cris_ctx.new_page()
    cris_errors = watch_errors(cris)
    cris.goto(servers[2].url("/u/Ana"))
    graph = cris.locator('svg.rating-graph[data-pool="2"]')
    graph.wait_for()
    points = [
        int(p)
        for p in graph.locator("circle").evaluate_all("(cs) => cs.map((c) => c.dataset.rating)")
    ]
    assert points == stored_points(pg_url, "Ana") and len(points) == 3
    expect(cris.locator('#profile-ratings [data-pool="2"] .rating-now .rating')).to_have_text(
        str(points[-1])
    )

    # The statistics: a recomputation from the stored records, game by game.
    seen = api(servers[2], "/api/profiles/Ana")
    assert seen["finished_games"] == seen["counted"] == 2
    total = model.Tally()
    for game in seen["recent"]:
        record = api(servers[2], f"/api/tables/{game['code']}/record?game={game['game']}")
        total.add(model.tally(load_record(record), game["seat"], record_marks(record)))
    assert sorted(g["code"] for g in seen["recent"]) == sorted(codes)
    assert seen["stats"] == model.summary(total)
    stat = lambda key: cris.locator(f'#profile-stats tr[data-stat="{key}"] td')  # noqa: E731
    expect(stat("rounds")).to_have_text(str(total.rounds))
    expect(stat("games-won")).to_have_text(percent(total.games_won, total.games))
    expect(stat("dominoes")).to_have_text(str(total.dominoes))
    expect(stat("blocks")).to_have_text(str(total.blocks))
    expect(stat("decisions")).to_have_text(str(total.decisions))
    if total.decisions:
        expect(stat("passes")).to_have_text(percent(total.passes, total.decisions))
    expect(cris.locator("#profile-counted")).to_have_text("Counted from all 2 finished games.")
    expect(cris.locator("#profile-finished")).to_have_text("2 finished games")
    # Recent games: each links to its replay; Ben's name to his profile.
    for code in codes:
        expect(cris.locator(f'.recent-games a[href="/replay/{code}/1"]')).to_have_count(1)
    expect(cris.locator('.recent-games a[href="/u/Ben"]')).to_have_count(2)

    # The graph's points as a table, opened from the keyboard.
    summary = cris.locator(".rating-history summary").first
    summary.focus()
    cris.keyboard.press("Enter")
    rows = cris.locator(".rating-history tbody tr")
    expect(rows).to_have_count(3)
    assert [int(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(3)] == points
    cris.screenshot(path=str(SHOTS / "profile-1280.png"), full_page=True)
    no_sideways(cris)
    for size in (PHONE, {"width": 360, "height": 640}):
        cris.set_viewport_size(size)
        graph.wait_for()
        no_sideways(cris)
        box = graph.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
        cris.screenshot(path=str(SHOTS / f"profile-{size['width']}.png"), full_page=True)

    assert not cris_errors, cris_errors  # (the 404s below are logged by the browser)

    # A name nobody has: a 404 with a sentence, on the page too.
    with pytest.raises(urllib.error.HTTPError) as refused:
        api(servers[2], "/api/profiles/Nobody")
    assert refused.value.code == 404
    cris.goto(servers[2].url("/u/Nobody"))
    expect(cris.locator("#profile-error")).to_contain_text("There is no account of this name")

    # Ana's own, from the account menu; Ben's from the leaderboard.
    ana.goto(servers[0].url("/"))
    ana.locator("#create-button").wait_for()
    open_account(ana)
    ana.click("#acc-profile")
    ana.wait_for_url("**/u/Ana")
    expect(ana.locator("main.profile h1")).to_have_text("Ana")
    ana.locator("main.profile a.back").click()  # the leaderboard, from the lobby
    ana.locator("#create-button").wait_for()
    open_account(ana)
    ana.click("#acc-leaders")
    ana.locator('#leaderboard a[href="/u/Ben"]').click()
    ana.wait_for_url("**/u/Ben")
    expect(ana.locator("main.profile h1")).to_have_text("Ben")
    expect(ana.locator('svg.rating-graph[data-pool="2"] circle')).to_have_count(3)
    # From Ben's profile Ana follows him (the store's follow, seen on another
    # process), and "Challenge" opens the lobby's form with his name in it.
    expect(ana.locator("#profile-follow")).to_have_text("Follow")
    ana.click("#profile-follow")
    expect(ana.locator("#profile-follow")).to_have_text("Unfollow")
    friends = ana_ctx.request.get(servers[2].url("/api/social")).json()["friends"]
    assert [f["name"] for f in friends] == ["Ben"]
    ana.click("#profile-challenge")
    ana.wait_for_url(servers[0].url("/"))
    expect(ana.locator("#social-challenge-name")).to_have_value("Ben")
    ben.goto(servers[1].url("/u/Ben"))
    ben.locator("svg.rating-graph").wait_for()
    expect(ben.locator("#profile-actions")).to_have_count(0)  # nothing to do about oneself
    no_sideways(ben)
    ben.screenshot(path=str(SHOTS / "profile-ben-390.png"), full_page=True)
    assert not (ana_errors or ben_errors), ana_errors + ben_errors
    for context in (ana_ctx, ben_ctx, cris_ctx):
        context.close()
