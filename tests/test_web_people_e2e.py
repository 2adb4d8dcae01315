"""People leaving, coming back and idling, in Chromium against the real server (issue 11).

Each test is a scene the issue asks to see as a person would, with a real
``passing-game serve`` whose waits are short (``--summary-wait``,
``--offline-grace``) and tables whose clocks are short (the page sends the
same ``create`` message as its form, with a clock of a few seconds):

- a friend closes the tab mid-round; when the friend's clock runs out a bot
  plays for them, then a stand-in takes the seat, and everyone sees it;
- the creator issues a new invitation; the friend opens it in a new browser
  context, gets the seat and plays on; the old device's token is refused;
- a person idle at the round summary sees it close after its countdown;
- the clock counts down on the screen.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from web_helpers import Server, free_port, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from browser_helpers import frame, take_turn, watch_errors  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose summary waits 4 s and whose offline grace is 8 s."""
    work = tmp_path_factory.mktemp("people")
    running = Server(
        work / "data" / "people.sqlite3",
        free_port(),
        work,
        bot_delay=0.3,
        extra=("--summary-wait", "4", "--offline-grace", "8"),
    )
    yield running
    running.stop()


def open_lobby(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.locator("#create-button").wait_for()
    page.fill("#f-name", name)


def create_with_clock(page: Page, server: Server, move: float, bank: float) -> str:
    """Ana's table for two people, with a short clock (the form's message, other numbers)."""
    open_lobby(page, server.url("/"), "Ana")
    page.evaluate(
        """([move, bank]) => {
          localStorage.setItem('passing-game:name', 'Ana');
          S.watching = false;
          send({type: 'create', name: 'Ana', seats: ['you', 'person'],
                rules: {players: 2}, clock: {move, bank}});
        }""",
        [move, bank],
    )
    page.locator("#table-code").wait_for()
    return str(page.locator("#table-code").inner_text())


def join_by_link(page: Page, server: Server, code: str, name: str) -> None:
    page.goto(server.url(f"/t/{code}"))
    page.fill("#jp-name", name)
    page.click("#join-button")
    page.locator(".hand .domino").first.wait_for()


def seconds_shown(page: Page, seat: int) -> int:
    text = page.locator(f'.seat-card[data-seat="{seat}"] .clock.running .time').inner_text()
    minutes, seconds = text.strip().split(":")
    return int(minutes) * 60 + int(seconds)


def test_a_friend_leaves_and_comes_back_by_a_new_invitation(
    browser: Browser, quick: Server, shots: Path
) -> None:
    """Ben closes his tab mid-round; his clock runs out and a bot plays for him,
    then a stand-in holds his seat; Ana invites him again; he opens the link
    on another device and plays on; his old device is refused."""
    ana_ctx = browser.new_context(viewport=DESKTOP)
    ben_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    errors = watch_errors(ana)
    code = create_with_clock(ana, quick, move=5, bank=0)
    join_by_link(ben, quick, code, "Ben")
    ana.locator(".hand .domino").first.wait_for()
    # Ana takes her turns until it is Ben's, so that his clock runs when he goes.
    deadline = time.monotonic() + 30
    while frame(ana)["round"]["to_move"] != 1:
        assert time.monotonic() < deadline
        ana.wait_for_function("() => S.frame && S.live")
        if frame(ana)["round"]["legal"]:
            take_turn(ana)
    # The clock counts down on both screens.
    clock = ana.locator('.seat-card[data-seat="1"] .clock.running')
    expect(clock).to_be_visible()
    first = seconds_shown(ana, 1)
    time.sleep(1.6)
    assert seconds_shown(ana, 1) < first
    expect(ben.locator('.seat-card[data-seat="1"] .clock.running')).to_be_visible()
    old_device = ben_ctx.storage_state()
    ben_ctx.close()  # Ben closes the tab mid-round
    # His time runs out: a bot moves for him, and Ana can read that it did.
    expect(ana.locator('.seat-card[data-seat="1"] .last-move')).to_contain_text(
        "auto-played", timeout=15_000
    )
    # Offline past the grace: a stand-in bot holds the seat, shown to Ana.
    expect(ana.locator('.seat-card[data-seat="1"] .standin-note')).to_be_visible(timeout=15_000)
    ana.screenshot(path=str(shots / "people-stand-in.png"))
    # Ana, who created the table, makes a new invitation for the seat.
    ana.locator('.seat-card[data-seat="1"] .seat-tools').click()
    ana.click("#invite-button")
    link = ana.locator("#invite-link")
    expect(link).to_contain_text(f"/t/{code}?invite=")
    url = link.inner_text()
    ana.click("#seat-tools-close")
    # Ben opens it on another device, takes the seat and plays on.
    new_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ben2 = new_ctx.new_page()
    ben2.goto(url)
    expect(ben2.locator("#invited")).to_contain_text("seat 2")
    ben2.fill("#jp-name", "Ben")
    ben2.click("#join-button")
    ben2.locator(".hand .domino").first.wait_for()
    assert frame(ben2)["you"] == 1
    expect(ana.locator('.seat-card[data-seat="1"] .standin-note')).to_have_count(0, timeout=10_000)
    deadline = time.monotonic() + 60
    before = len(frame(ben2)["round"]["history"])
    while True:
        assert time.monotonic() < deadline, "Ben never got to move"
        ben2.wait_for_function("() => S.frame && S.live")
        f = frame(ben2)
        if f["round"]["legal"]:
            take_turn(ben2)
            break
        if f["round"]["to_move"] == 0 and frame(ana)["round"]["legal"]:
            take_turn(ana)
        time.sleep(0.2)
    mine = [t for t in frame(ben2)["round"]["history"][before:] if t["seat"] == 1]
    assert mine and not mine[-1].get("auto")  # Ben's own move, not a bot's
    ben2.screenshot(path=str(shots / "people-back-by-invitation.png"))
    # The old device still has the old token: it is refused, and says so.
    old_ctx = browser.new_context(viewport=PHONE, storage_state=old_device)
    old = old_ctx.new_page()
    old.goto(quick.url(f"/t/{code}"))
    expect(old.locator(".notice.error")).to_contain_text(
        "can no longer take that seat back", timeout=10_000
    )
    expect(old.locator("#join-button")).to_be_visible()
    assert old.evaluate("() => S.seat") in (None, -1)
    assert not [e for e in errors if "WebSocket" not in e], errors
    for context in (ana_ctx, new_ctx, old_ctx):
        context.close()


def pass_until_summary(pages: list[Page], limit: float = 60) -> None:
    """People pass in turn (confirming the pass that ends the round) until it ends."""
    deadline = time.monotonic() + limit
    while not any(p.locator(".summary").count() for p in pages):
        assert time.monotonic() < deadline, "the round did not end"
        for page in pages:
            f = frame(page)
            if f and f["round"]["can_pass"] and not f["summary"]:
                before = page.evaluate("() => S.last")
                page.locator("#pass-button").click()
                if page.locator("#confirm-yes").count():
                    page.locator("#confirm-yes").click()
                page.wait_for_function(f"() => S.last > {before}", timeout=10_000)
        time.sleep(0.1)


def test_a_person_idle_at_the_summary_sees_it_close_after_the_countdown(
    browser: Browser, quick: Server, shots: Path
) -> None:
    """Both pass until the round ends: the summary opens for both. Ana closes
    it; Ben reads on: his summary counts down and closes by itself, and the
    table goes on to round 2."""
    ana_ctx = browser.new_context(viewport=DESKTOP)
    ben_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    open_lobby(ana, quick.url("/"), "Ana")
    ana.select_option("#f-seat1", "person")
    ana.click("#create-button")
    ana.locator("#table-code").wait_for()
    code = ana.locator("#table-code").inner_text()
    join_by_link(ben, quick, code, "Ben")
    ana.locator(".hand .domino").first.wait_for()
    pass_until_summary([ana, ben])
    for page in (ana, ben):
        expect(page.locator(".summary")).to_be_visible()
    countdown = ben.locator(".summary .summary-countdown")
    expect(countdown).to_have_text(re.compile(r"Next round in [1-4] seconds?"))
    ben.screenshot(path=str(shots / "people-summary-countdown.png"))
    ana.click("#continue-button")
    # Ben does nothing: the countdown ends and the table goes on.
    expect(ben.locator(".summary")).to_have_count(0, timeout=10_000)
    ben.wait_for_function("() => S.frame && S.frame.round.number === 2 && !S.frame.paused")
    expect(ben.locator(".notice")).to_contain_text("next round has started")
    expect(ben.locator("#status")).not_to_contain_text("is over")
    for context in (ana_ctx, ben_ctx):
        context.close()
