"""The tutorial in Chromium, as a newcomer takes it (issue 25, item 1).

A real ``passing-game serve`` (tests/conftest.py). At 1280x800, 390x844 and
360x640 a first visit to the lobby offers the tutorial; the newcomer accepts,
makes each basic lesson's move by tapping the tile (and the end, when it fits
both) or Draw or Pass, tries one wrong move in the first lesson to read why,
and at the end of the basics is seated at a real two-player round against the
Beginner bot. The issue's "in the first real round within 3 minutes of opening
the page" is checked with the time a person would spend (P47): the words shown
on the way, read from the page as it walks, at ``WORDS_PER_MINUTE``; each
click or tap at ``CLICK_SECONDS``; and the walk's own measured wall-clock time,
from opening the page to the round's first frame. Then the lobby offers the
rest (the target and teams, playing well), taken to the end, which is another
real round. PASSING_GAME_SCREENSHOTS keeps ``learn-*.png``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from browser_helpers import PASSWORD, frame, open_account, sign_up, watch_errors  # noqa: E402
from passing_game.learn import FIRST_ROUND, LESSONS, Lesson, position  # noqa: E402

SIZES = [(1280, 800), (390, 844), (360, 640)]
#: A newcomer's reading speed: 200 words a minute, below the 238 that adults average
#: reading English non-fiction silently (Brysbaert 2019), for a screen and a new game.
WORDS_PER_MINUTE = 200
#: One click or tap, by the Keystroke-Level Model (Card, Moran and Newell): deciding
#: what to press (M, 1.35 s, which also covers finding the tile), pointing (P, 1.1 s)
#: and the press and release (2 x B, 0.1 s).
CLICK_SECONDS = 1.35 + 1.1 + 0.2
#: From opening the page to the first real round's first frame (the issue: 3 minutes).
BUDGET_SECONDS = 180.0
#: The clicks from the offer to the first round: one to accept, a move and a "next"
#: per lesson, one more for the end choice and one for the wrong try.
MOST_CLICKS = 20
#: A word: anything with a letter or digit in it ("[3|5]" and "42" are words, "−" not).
WORD = re.compile(r"\S*[^\W_]\S*")


class Walk:
    """A person's walk through the page: their clicks and the words they read."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.clicks = 0
        self.words = 0

    def read(self, selector: str) -> None:
        """Read every element ``selector`` shows (none is fine: a line not shown)."""
        for text in self.page.locator(selector).all_inner_texts():
            self.words += len(WORD.findall(text))

    def click(self, selector: str) -> None:
        self.page.locator(selector).click()
        self.clicks += 1

    def seconds(self, wall: float) -> float:
        return self.words * 60 / WORDS_PER_MINUTE + self.clicks * CLICK_SECONDS + wall


def make_move(walk: Walk, move: str, legal: list[str]) -> None:
    """Tap what a person taps for ``move``, reading the end choice when it is asked."""
    if move in ("draw", "pass"):
        walk.click(f"#learn-{move}")
        return
    tile = move[1:]
    walk.click(f'[data-key="learn-tile-{tile}"]')
    if sum(1 for m in legal if m[1:] == tile) < 2:
        return
    expect(walk.page.locator("#learn-end-L")).to_be_visible()
    walk.read(".learn-choose")
    walk.read(".learn-end")
    walk.click(f"#learn-end-{move[0]}")


def take_lessons(
    walk: Walk, lessons: tuple[Lesson, ...], shots: Path, size: str, *, wrong_first: bool
) -> None:
    """Each lesson as a person takes it: read it, move, read the answer, go on; the
    last one's button ("Play the computer") is pressed too."""
    page = walk.page
    for number, lesson in enumerate(lessons, 1):
        expect(page.locator("#learn-title")).to_have_text(lesson.title)
        part = [other for other in LESSONS if other.part == lesson.part]
        expect(page.locator(".learn-progress")).to_contain_text(
            f"Lesson {part.index(lesson) + 1} of {len(part)}"
        )
        legal = page.evaluate("() => Learn.state.view.legal")
        assert sorted(legal) == sorted(str(m) for m in position(lesson).legal_moves())
        walk.read("#learn-title")
        walk.read(".learn-text")
        walk.read(".learn-scores")
        if wrong_first and number == 1:
            walk.click("#learn-pass")  # a wrong move first: the sentence says why
            expect(page.locator(".learn-feedback.wrong")).to_contain_text("[3|5]")
            walk.read("#learn-sentence")
            page.screenshot(path=str(shots / f"learn-wrong-{size}.png"))
        if lesson.id == "both":
            page.locator('[data-key="learn-tile-2-4"]').click()
            walk.clicks += 1
            expect(page.locator("#learn-end-L")).to_be_visible()
            page.screenshot(path=str(shots / f"learn-ends-{size}.png"))
            walk.read(".learn-choose")
            walk.read(".learn-end")
            walk.click("#learn-end-R")
        else:
            make_move(walk, lesson.answers[0], legal)
        expect(page.locator(".learn-feedback.right")).to_be_visible()
        walk.read("#learn-sentence")
        # Nothing is wider than the screen (the page scrolls down, never sideways).
        width = page.viewport_size["width"] if page.viewport_size else 0
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width, lesson.id
        if lesson.id in ("double", "locked", "partners", "bluff"):
            page.screenshot(path=str(shots / f"learn-{lesson.id}-{size}.png"))
        if number < len(lessons):
            walk.click("#learn-next")
            continue
        walk.read(".learn-finished")
        page.screenshot(path=str(shots / f"learn-{lesson.id}-{size}.png"))
        walk.click("#learn-play")


def seated_against_the_beginner(page: Page) -> None:
    """The table's first frame of a real round: two players, the person and the Beginner."""
    page.locator("#table-code").wait_for()
    page.wait_for_function("() => S.frame && S.live && S.frame.started")
    state = frame(page)
    assert state["rules"]["players"] == 2 and state["you"] == 0 and not state.get("practice")
    assert state["seats"][1]["kind"] == "bot" and state["seats"][1]["level"] == "easy"


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_newcomer_is_in_a_real_round_within_3_minutes_then_takes_the_rest(
    browser: Browser, server: Server, shots: Path, width: int, height: int
) -> None:
    size = f"{width}x{height}"
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = watch_errors(page)
    walk = Walk(page)
    started = time.monotonic()
    page.goto(server.url("/"))
    offer = page.locator("#learn-offer")
    expect(offer).to_be_visible()
    page.screenshot(path=str(shots / f"learn-offer-{size}.png"))
    walk.read("#learn-offer-text")
    walk.click("#learn-start")
    take_lessons(walk, FIRST_ROUND, shots, size, wrong_first=True)
    seated_against_the_beginner(page)
    wall = time.monotonic() - started
    page.screenshot(path=str(shots / f"learn-table-{size}.png"))
    spent = walk.seconds(wall)
    print(
        f"learn e2e {size}: {len(FIRST_ROUND)} lessons, {walk.words} words"
        f" ({walk.words * 60 / WORDS_PER_MINUTE:.1f} s), {walk.clicks} clicks"
        f" ({walk.clicks * CLICK_SECONDS:.1f} s), walk {wall:.1f} s: {spent:.1f} s"
    )
    assert walk.clicks <= MOST_CLICKS, walk.clicks
    assert spent <= BUDGET_SECONDS, (walk.words, walk.clicks, wall, spent)

    # After the round (or between), the lobby offers the rest: the target and teams,
    # then playing well; the last lesson leads to another real round.
    page.goto(server.url("/"))
    expect(page.locator("#learn-offer")).to_have_count(0)
    more = page.locator("#learn-more-offer")
    expect(more).to_be_visible()
    page.screenshot(path=str(shots / f"learn-more-offer-{size}.png"))
    page.locator("#learn-more").click()
    rest = LESSONS[len(FIRST_ROUND) :]
    expect(page.locator("#learn-title")).to_have_text(rest[0].title)  # the first not done
    take_lessons(Walk(page), rest, shots, size, wrong_first=False)
    seated_against_the_beginner(page)
    # Every lesson is ticked, and the lobby offers no lesson any more.
    page.goto(server.url("/learn"))
    expect(page.locator(".learn-list .tick")).to_have_count(len(LESSONS))
    page.goto(server.url("/"))
    expect(page.locator("#computer-card")).to_be_visible()
    expect(page.locator(".learn-offer")).to_have_count(0)
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
