"""The tutorial in Chromium, as a newcomer takes it (issue 25, item 1).

A real ``passing-game serve`` (tests/conftest.py). At 1280x800, 390x844 and 360x640 a
first visit to the lobby offers the tutorial; the newcomer accepts, makes
each lesson's move by tapping the tile (and the end, when it fits both) or
Draw or Pass, tries one wrong move in the first lesson to read why, goes
through every lesson, and at the end is seated at a real two-player round
against the Beginner bot. The clicks are counted: 34 from the lobby to the
table (one to accept, one per move and one per "Next lesson", one more for
each end choice and one for the wrong try), in about 5 s of the test's time;
the 3 minutes are a person's reading time. PASSING_GAME_SCREENSHOTS keeps
``learn-*.png``.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from browser_helpers import PASSWORD, frame, open_account, sign_up, watch_errors  # noqa: E402
from passing_game.learn import LESSONS, position  # noqa: E402

SIZES = [(1280, 800), (390, 844), (360, 640)]
#: The most clicks from the lobby's offer to the first real round.
MOST_CLICKS = 40


def make_move(page: Page, move: str, legal: list[str]) -> int:
    """Tap what a person taps for ``move``; the number of clicks it took."""
    if move in ("draw", "pass"):
        page.locator(f"#learn-{move}").click()
        return 1
    tile = move[1:]
    page.locator(f'[data-key="learn-tile-{tile}"]').click()
    if sum(1 for m in legal if m[1:] == tile) < 2:
        return 1
    page.locator(f"#learn-end-{move[0]}").click()
    return 2


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_newcomer_goes_from_the_offer_through_every_lesson_to_a_real_round(
    browser: Browser, server: Server, shots: Path, width: int, height: int
) -> None:
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = watch_errors(page)
    started = time.monotonic()
    page.goto(server.url("/"))
    offer = page.locator("#learn-offer")
    expect(offer).to_be_visible()
    page.screenshot(path=str(shots / f"learn-offer-{width}x{height}.png"))
    page.locator("#learn-start").click()
    clicks = 1
    for number, lesson in enumerate(LESSONS, 1):
        expect(page.locator("#learn-title")).to_have_text(lesson.title)
        expect(page.locator(".learn-progress")).to_contain_text(f"Lesson {number} of")
        legal = page.evaluate("() => Learn.state.view.legal")
        assert sorted(legal) == sorted(str(m) for m in position(lesson).legal_moves())
        if number == 1:
            page.locator("#learn-pass").click()  # a wrong move first: the sentence says why
            clicks += 1
            expect(page.locator(".learn-feedback.wrong")).to_contain_text("[3|5]")
            page.screenshot(path=str(shots / f"learn-wrong-{width}x{height}.png"))
        if lesson.id == "both":
            page.locator('[data-key="learn-tile-2-4"]').click()
            expect(page.locator("#learn-end-L")).to_be_visible()
            page.screenshot(path=str(shots / f"learn-ends-{width}x{height}.png"))
            page.locator("#learn-end-R").click()
            clicks += 2
        else:
            clicks += make_move(page, lesson.answers[0], legal)
        expect(page.locator(".learn-feedback.right")).to_be_visible()
        # Nothing is wider than the screen (the page scrolls down, never sideways).
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width, lesson.id
        if lesson.id in ("double", "locked", "partners", "bluff") or number == len(LESSONS):
            page.screenshot(path=str(shots / f"learn-{lesson.id}-{width}x{height}.png"))
        page.locator("#learn-next").click()
        clicks += 1
    page.locator("#table-code").wait_for()
    page.wait_for_function("() => S.frame && S.live && S.frame.started")
    elapsed = time.monotonic() - started
    state = frame(page)
    assert state["rules"]["players"] == 2 and state["you"] == 0
    assert state["seats"][1]["kind"] == "bot" and state["seats"][1]["level"] == "easy"
    page.screenshot(path=str(shots / f"learn-table-{width}x{height}.png"))
    assert clicks <= MOST_CLICKS, clicks
    print(f"learn e2e {width}x{height}: {clicks} clicks, {elapsed:.1f} s")
    # Every lesson is ticked, and the lobby no longer offers the tutorial.
    page.goto(server.url("/learn"))
    expect(page.locator(".learn-list .tick")).to_have_count(len(LESSONS))
    page.goto(server.url("/"))
    expect(page.locator("#computer-card")).to_be_visible()
    expect(page.locator("#learn-offer")).to_have_count(0)
    assert not errors, errors
    page.close()


def test_no_thanks_is_remembered_and_the_rules_link_to_the_tutorial(
    browser: Browser, server: Server
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = watch_errors(page)
    page.goto(server.url("/"))
    page.locator("#learn-no").click()
    expect(page.locator("#learn-offer")).to_have_count(0)
    page.reload()
    page.locator("#computer-card").wait_for()
    expect(page.locator("#learn-offer")).to_have_count(0)
    page.locator("#rules-button").click()
    page.locator("#rules-learn-link").click()
    expect(page.locator("#learn-title")).to_have_text(LESSONS[0].title)
    # Keyboard: the tile is a button; Enter on it makes the move.
    page.locator('[data-key="learn-tile-3-5"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator(".learn-feedback.right")).to_be_visible()
    expect(page.locator("#learn-next")).to_be_focused()
    page.keyboard.press("Enter")  # the next lesson: the tile that fits both ends
    expect(page.locator("#learn-title")).to_have_text(LESSONS[1].title)
    page.locator('[data-key="learn-tile-0-0"]').focus()
    page.keyboard.press("ArrowLeft")  # round to the last tile, [2|4]
    expect(page.locator('[data-key="learn-tile-2-4"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#learn-end-L")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#learn-end-L")).to_have_count(0)
    page.keyboard.press("p")  # P passes: allowed, not the move asked for
    expect(page.locator(".learn-feedback.wrong")).to_contain_text("[2|4]")
    # A new language asks the server for the lesson's words again.
    with page.expect_request(lambda r: "/api/learn/both?lang=gl" in r.url):
        page.select_option("#lang-switch", "gl")
    expect(page.locator("#learn-title")).to_be_visible()
    assert not errors, errors
    page.close()


def test_lessons_done_in_the_browser_join_the_account_and_follow_it(
    browser: Browser, server: Server
) -> None:
    """Progress is kept on the account: a lesson done as a guest is sent to the
    account made later, and another browser signed in to it shows it done."""
    first = browser.new_context(viewport={"width": 1280, "height": 800})
    page = first.new_page()
    errors = watch_errors(page)
    page.goto(server.url("/learn"))
    expect(page.locator("#learn-title")).to_have_text(LESSONS[0].title)
    page.locator('[data-key="learn-tile-3-5"]').click()
    expect(page.locator(".learn-feedback.right")).to_be_visible()
    name = f"learner{int(time.time() * 1000) % 100000}"
    sign_up(page, name)
    with page.expect_response(lambda r: r.url.endswith("/api/learn/done")):
        page.reload()  # the page sends the guest's lesson to the account
    second = browser.new_context(viewport={"width": 1280, "height": 800})
    other = second.new_page()
    other.goto(server.url("/"))
    open_account(other)
    other.fill("#acc-name", name)
    other.fill("#acc-password", PASSWORD)
    other.click("#acc-submit")
    expect(other.locator("#account-button")).to_contain_text(name)
    other.goto(server.url("/learn"))
    expect(other.locator(".learn-list .tick")).to_have_count(1)
    expect(other.locator("#learn-title")).to_have_text(LESSONS[1].title)
    assert not errors, errors
    first.close()
    second.close()
