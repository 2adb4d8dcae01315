"""Friends, presence, challenges and blocks in Chromium, three server processes on one
PostgreSQL (issue 27, item 2; P59).

Ana (a desktop), Ben (a phone) and Cora (a desktop) sign up, each on a process of
their own, as a balancer would send them. Ben follows Ana from the lobby's
"Friends" card and sees her online, then at her table when she sits at one
(she plays through another process). He challenges her with rules and a clock
of his choosing; the notice reaches Ana at her table, she accepts, and both
pages go to the new table, where the frame holds those rules and that clock.
Cora challenges Ana too: she declines, and Cora is told. Ana blocks Cora: her next
challenge is refused, in the words an unavailable account gets.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from browser_helpers import create_table, scroll_to, sign_up, watch_errors
from web_helpers import Server

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SHOTS = Path(os.environ.get("PASSING_GAME_SCREENSHOTS") or tempfile.gettempdir())


def person(browser: Browser, server: Server, name: str, viewport: dict[str, int]) -> Page:
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(server.url("/"))
    page.locator("#create-button").wait_for()
    sign_up(page, name)
    page.locator("#friends #social-name").wait_for()
    return page


def friend_row(page: Page, name: str) -> Any:
    return page.locator("#friends .friend", has=page.locator("strong", has_text=name))


def no_sideways_overflow(page: Page) -> None:
    wide = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert wide <= 0, f"{wide}px sideways"


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"social-{name}.png"))


def test_follow_presence_challenge_accept_decline_and_block(
    browser: Browser, servers: list[Server]
) -> None:
    ana = person(browser, servers[0], "Ana", DESKTOP)
    ben = person(browser, servers[1], "Ben", PHONE)
    cy = person(browser, servers[2], "Cora", DESKTOP)
    errors = {p: watch_errors(p) for p in (ana, ben, cy)}

    # Ben follows Ana, by name, from the card: a dot and a sentence.
    scroll_to(ben, "#social-name")
    ben.fill("#social-name", "ana")
    ben.click("#social-follow")
    row = friend_row(ben, "Ana")
    expect(row.locator(".friend-status")).to_have_text(re.compile("Online"), timeout=15_000)
    no_sideways_overflow(ben)

    # Ana sits at a table through process 3; Ben, on process 2, sees which.
    code = create_table(ana, servers[2].url("/"), ["easy"], target=20)
    expect(row.locator(".friend-status")).to_have_text(
        f" — Online — playing at table {code}", timeout=20_000
    )
    scroll_to(ben, "#friends")
    shot(ben, "friends-phone")
    no_sideways_overflow(ben)

    # Ben's challenge: three players (a bot in the third seat), to 40, 20 s a move.
    row.get_by_role("button", name="Challenge").click()
    expect(ben.locator("#social-challenge-name")).to_have_value("Ana")
    ben.select_option("#social-players", "3")
    ben.locator("#social-bots").wait_for()
    ben.fill("#social-target", "40")
    ben.select_option("#social-clock", "20")
    no_sideways_overflow(ben)
    ben.click("#social-send")
    expect(ben.locator("#friends")).to_contain_text("Waiting for Ana to answer.", timeout=10_000)

    # The notice reaches Ana at her table; she accepts with the keyboard.
    notice = ana.locator("#social-notices .social-notice")
    expect(notice).to_contain_text("Ben challenges you.", timeout=20_000)
    expect(notice).to_contain_text("3 players · to 40 points · 20 s a move")
    shot(ana, "notice-desktop")
    notice.get_by_role("button", name="Accept").focus()
    ana.keyboard.press("Enter")
    ana.wait_for_function("(old) => S.frame && S.frame.table !== old && S.live", arg=code)
    new = ana.evaluate("() => S.frame.table")
    ben.wait_for_function("(c) => S.frame && S.frame.table === c", arg=new, timeout=20_000)
    for page, seat in ((ben, 0), (ana, 1)):  # the challenger's seat first, as the form has it
        frame = page.evaluate("() => S.frame")
        assert frame["you"] == seat
        assert [s["name"] for s in frame["seats"]][:2] == ["Ben", "Ana"]
        assert len(frame["seats"]) == 3 and frame["target"] == 40
        assert frame["clock"]["move"] == 20
    shot(ben, "table-phone")
    expect(ana.locator("#social-notices .social-notice")).to_have_count(0)

    # Cora challenges Ana; she declines; Cora is told.
    cy.fill("#social-name", "Ana")
    cy.click("#social-open-challenge")
    cy.click("#social-send")
    expect(cy.locator("#friends")).to_contain_text("Waiting for Ana to answer.", timeout=10_000)
    notice = ana.locator("#social-notices .social-notice")
    expect(notice).to_contain_text("Cora challenges you.", timeout=20_000)
    notice.get_by_role("button", name="Decline").click()
    expect(notice).to_have_count(0, timeout=10_000)
    expect(cy.locator(".notice")).to_contain_text("Ana declined your challenge.", timeout=20_000)

    # Ana blocks Cora (from the lobby); her next challenge is refused.
    ana.goto(servers[0].url("/"))
    ana.locator("#friends #social-name").wait_for()
    ana.fill("#social-name", "Cora")
    ana.click("#social-block")
    expect(ana.locator("#friends")).to_contain_text("Accounts you block", timeout=10_000)
    expect(ana.locator("#friends .friend", has_text="Cora")).to_contain_text("Unblock")
    scroll_to(ana, "#friends")
    shot(ana, "blocked-desktop")
    cy.click("#social-open-challenge")
    cy.fill("#social-challenge-name", "Ana")
    cy.click("#social-send")
    expect(cy.locator("#friends .error")).to_have_text("Ana cannot be challenged now.")
    shot(cy, "refused-desktop")
    ana.wait_for_timeout(5000)  # a poll or more: no notice came
    expect(ana.locator("#social-notices .social-notice")).to_have_count(0)

    # The small phone: still no sideways scroll.
    ben.goto(servers[1].url("/"))
    ben.set_viewport_size({"width": 360, "height": 640})
    friend_row(ben, "Ana").wait_for()
    no_sideways_overflow(ben)
    scroll_to(ben, "#friends")
    shot(ben, "friends-360")
    # A friend's name opens the account's profile.
    friend_row(ben, "Ana").get_by_role("link", name="Ana").click()
    ben.wait_for_url("**/u/Ana")
    for seen in errors.values():
        # The refused challenge is a 400 the console reports; nothing else went wrong.
        assert not [e for e in seen if "Failed to load resource" not in e], seen
