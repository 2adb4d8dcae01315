"""Quick play, public tables and the daily deal in Chromium, against the real server (issue 13).

- two people press "Play now" in two browsers (one a phone) and sit at one table;
- a lone person waits; after the wait the page offers bots, and the bots fill the table;
  "Stop waiting" leaves the queue;
- a table listed by its creator shows in another person's lobby, who joins it from there;
- a signed-in person plays the daily deal from the lobby; the score pad counts its rounds.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web_helpers import Server, free_port, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from browser_helpers import box, frame, take_turn, watch_errors  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    work = tmp_path_factory.mktemp("quickplay")
    running = Server(work / "data" / "quick.sqlite3", free_port(), work, bot_delay=0.05)
    yield running
    running.stop()


def lobby(page: Page, site: Server, name: str) -> None:
    page.goto(site.url("/"))
    page.locator("#quick-button").wait_for()
    page.fill("#q-name", name)


def big_enough(page: Page, selector: str) -> None:
    """A target a finger can hit (44 px) and that is on the page's width."""
    found = box(page, selector)  # the lobby redraws as its fetches land
    assert found["height"] >= 44 and found["width"] >= 44, (selector, found)
    assert found["x"] >= 0 and found["x"] + found["width"] <= PHONE["width"], (selector, found)


def test_quick_play_seats_two_waiting_people_together(
    browser: Browser, site: Server, shots: Path
) -> None:
    ana_ctx = browser.new_context(viewport=DESKTOP)
    ben_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    errors = watch_errors(ana) + watch_errors(ben)
    lobby(ana, site, "Ana")
    ana.click("#quick-button")
    expect(ana.locator(".quick-looking")).to_be_visible()
    expect(ana.locator("#quick-count")).to_have_text("1 person waiting for this game")
    expect(ana.locator("#quick-offer")).to_contain_text("Bots can fill the empty seats in")
    expect(ana.locator("#quick-fill")).to_be_hidden()
    ana.screenshot(path=str(shots / "quick-waiting.png"))
    lobby(ben, site, "Ben")
    big_enough(ben, "#quick-button")
    ben.locator("#quick-button").tap()
    for page in (ana, ben):
        page.locator(".hand .domino").first.wait_for(timeout=15_000)
    code = ana.locator("#table-code").inner_text()
    assert ben.locator("#table-code").inner_text() == code
    mine, theirs = frame(ana), frame(ben)
    assert {mine["you"], theirs["you"]} == {0, 1}
    assert [s["name"] for s in mine["seats"]] == ["Ana", "Ben"]  # in the order they came
    assert all(s["kind"] == "human" for s in mine["seats"])
    assert ben.url.endswith(f"/t/{code}")
    ben.screenshot(path=str(shots / "quick-seated-phone.png"))
    assert not [e for e in errors if "WebSocket" not in e], errors
    ana_ctx.close()
    ben_ctx.close()


def test_a_lone_person_gets_bots_after_the_wait(browser: Browser, site: Server) -> None:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    cai = ctx.new_page()
    errors = watch_errors(cai)
    lobby(cai, site, "Cai")
    cai.check('input[name=quick-players][value="3"]')
    # Waiting, then stopping: back to the form, out of the queue.
    cai.click("#quick-button")
    expect(cai.locator("#quick-cancel")).to_be_visible()
    big_enough(cai, "#quick-cancel")
    cai.click("#quick-cancel")
    expect(cai.locator("#quick-button")).to_be_visible()
    # Waiting again, alone: after the wait the page offers bots.
    started = time.monotonic()
    cai.click("#quick-button")
    expect(cai.locator("#quick-offer")).to_contain_text("Bots can fill the empty seats in")
    expect(cai.locator("#quick-elapsed")).to_contain_text("Waiting for 0:0")
    fill = cai.locator("#quick-fill")
    expect(fill).to_be_hidden()
    expect(fill).to_be_visible(timeout=30_000)
    assert time.monotonic() - started >= 15  # offered after the wait (20 s), not before
    expect(cai.locator("#quick-offer")).to_contain_text("Nobody else yet?")
    big_enough(cai, "#quick-fill")
    fill.tap()
    cai.locator(".hand .domino").first.wait_for(timeout=15_000)
    seats = frame(cai)["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "bot"]
    assert frame(cai)["you"] == 0
    # The bots play: the game goes on (after Cai's own move, if he leads).
    if frame(cai)["round"]["legal"]:
        take_turn(cai)
    cai.wait_for_function(
        "() => S.frame.round.history.some((turn) => turn.seat !== 0)", timeout=15_000
    )
    assert not [e for e in errors if "WebSocket" not in e], errors
    ctx.close()


def test_a_listed_table_is_joined_from_the_lobby(browser: Browser, site: Server) -> None:
    ana_ctx = browser.new_context(viewport=DESKTOP)
    dee_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ana, dee = ana_ctx.new_page(), dee_ctx.new_page()
    ana.goto(site.url("/"))
    ana.locator("#create-button").wait_for()
    ana.fill("#f-name", "Ana")
    ana.select_option("#f-seat1", "person")
    ana.check("#f-public")
    ana.click("#create-button")
    ana.locator("#table-code").wait_for()
    code = ana.locator("#table-code").inner_text()
    lobby(dee, site, "Dee")
    row = dee.locator("#public-list li", has_text=code)
    expect(row).to_contain_text("Waiting for players")
    expect(row).to_contain_text("Seats taken: 1 of 2")
    join = row.get_by_role("button", name="Join")
    big_enough(dee, f'[data-key="public-join-{code}"]')
    join.tap()
    dee.locator(".hand .domino").first.wait_for(timeout=15_000)
    assert dee.locator("#table-code").inner_text() == code
    assert [s["name"] for s in frame(dee)["seats"]] == ["Ana", "Dee"]
    # Now it plays: another lobby offers to watch it, not to join.
    other = dee_ctx.new_page()
    lobby(other, site, "Eve")
    row = other.locator("#public-list li", has_text=code)
    expect(row).to_contain_text("Playing")
    expect(row.get_by_role("button", name="Join")).to_have_count(0)
    row.get_by_role("button", name="Watch").click()
    expect(other.locator(".watching")).to_be_visible()
    ana_ctx.close()
    dee_ctx.close()


def test_the_daily_deal_from_the_lobby(browser: Browser, site: Server) -> None:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(site.url("/"))
    expect(page.locator("#daily-signin")).to_contain_text("Sign in to play the daily deal")
    made = page.evaluate(
        """async () => {
          const me = await (await fetch('/api/account')).json();
          const r = await fetch('/api/account/signup', {method: 'POST',
            headers: {'X-CSRF-Token': me.csrf, 'Content-Type': 'application/json'},
            body: JSON.stringify({name: 'Fay', password: 'correct horse battery'})});
          return r.status;
        }"""
    )
    assert made == 200
    page.reload()
    button = page.locator("#daily-button")
    expect(button).to_have_text("Play today's deal")
    expect(page.locator("#daily-card")).to_contain_text("3 rounds against the hard bot")
    expect(page.locator("#daily-card")).to_contain_text("No results yet today.")
    big_enough(page, "#daily-button")
    button.tap()
    page.locator(".hand .domino").first.wait_for(timeout=15_000)
    expect(page.locator(".pad caption")).to_have_text("Score pad · 3 rounds")
    assert frame(page)["daily"] == {"rounds": 3}
    assert frame(page)["seats"][0]["name"] == "Fay"
    # Back in the lobby, the deal is this person's game of the day, not a new one.
    page.goto(site.url("/"))
    expect(page.locator("#daily-button")).to_have_text("Back to your game")
    expect(page.locator("#daily-card")).to_contain_text("1 person still playing")
    assert not [e for e in errors if "WebSocket" not in e], errors
    ctx.close()


def test_the_daily_deal_says_what_net_is_and_ranks_only_among_several(
    browser: Browser, site: Server
) -> None:
    """Issue 24, item 6: with one entry the day's table shows no rank and no
    matchpoints (100 % of nobody), and says what net is; with two it ranks."""
    page = browser.new_page(viewport=PHONE)
    errors = watch_errors(page)
    page.goto(site.url("/"))
    # Who is signed in, and the day's results, are known (no fetch left to overwrite ours).
    expect(page.locator("#daily-signin")).to_be_visible()
    page.wait_for_function("() => Quick.daily && !Quick.loading")
    entry = {"rank": 1, "name": "Fay", "you": False, "points": 40, "bots": 25, "net": 15}

    def show(entries: list[dict[str, Any]]) -> None:
        page.evaluate(
            """(entries) => {
              Quick.fetchedAt = performance.now() + 1e9; // no refresh over the shown day
              Quick.daily = { ...Quick.daily, entries };
              changed();
            }""",
            entries,
        )

    show([{**entry, "percent": 100.0}])
    table = page.locator("#daily-table")
    expect(table).to_be_visible()
    expect(table.locator("th")).to_have_text(["Player", "Points", "Bot", "Net"])
    expect(page.locator("#daily-words")).to_contain_text("Net: your points minus the bot's.")
    expect(page.locator("#daily-words")).to_contain_text("A rank comes once")
    show(
        [{**entry, "percent": 100.0}, {**entry, "rank": 2, "name": "Gus", "net": 3, "percent": 0.0}]
    )
    expect(table.locator("th")).to_have_text(
        ["Rank", "Player", "Points", "Bot", "Net", "Matchpoints"]
    )
    expect(page.locator("#daily-words")).to_contain_text("a tie counting half")
    assert not [e for e in errors if "WebSocket" not in e], errors
    page.close()
