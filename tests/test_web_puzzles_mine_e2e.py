"""Puzzles from your own games in Chromium (issue 25, item 2: "a blunder from an
analysed game comes back as a puzzle").

A real ``passing-game serve`` (tests/conftest.py). At 1280x800 and 390x844 a
newcomer signs up, plays a short game against a bot passing and drawing
rather than playing (a costly habit), opens its replay from the summary and
has their own seat analysed; the puzzles' page, tab "From your games", lists
the blunders; one is solved as any puzzle, and the answer says what was
played in the game and leads to the replay at that very position.
PASSING_GAME_SCREENSHOTS keeps ``mine-*.png``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, expect  # noqa: E402

from browser_helpers import analysed_game, sign_up, watch_errors  # noqa: E402

SIZES = [(1280, 800), (390, 844), (360, 640)]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_blunder_of_an_analysed_game_comes_back_as_a_puzzle(
    browser: Browser, server: Server, shots: Path, width: int, height: int
) -> None:
    size = f"{width}x{height}"
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = watch_errors(page)
    page.goto(server.url("/"))
    sign_up(page, f"Mine{width}")
    code, game = analysed_game(page, server.url("/"), "blunder")
    assert int(page.locator("#analysis-blunders").inner_text()) >= 1

    # The puzzles' page: "From your games" lists the blunders.
    page.goto(server.url("/puzzles"))
    page.locator("#puzzles-tab-mine").click()
    page.wait_for_url("**/puzzles/mine")
    rows = page.locator(".mine-puzzle")
    expect(rows.first).to_be_visible()
    expect(rows.first.locator(".mine-tried")).to_have_text("Not tried yet")
    page.screenshot(path=str(shots / f"mine-list-{size}.png"), full_page=True)
    rows.first.locator("a").click()
    page.wait_for_url("**/puzzles/mine/mine-*")
    page.wait_for_function(
        "() => Puzzles.state.data && Puzzles.state.data.puzzle && !Puzzles.state.busy"
    )
    puzzle = page.evaluate("() => Puzzles.state.data.puzzle")
    assert puzzle["hands"] is None  # the seat's view only
    expect(page.locator("#mine-about")).to_be_visible()
    expect(page.locator("#puzzle-rating")).to_have_count(0)  # one person's: never rated
    page.screenshot(path=str(shots / f"mine-puzzle-{size}.png"), full_page=True)

    move = puzzle["legal"][0]
    if move in ("draw", "pass"):
        page.locator(f"#puzzle-{move}").click()
    else:
        page.locator(f'[data-key="puzzle-tile-{move[1:]}"]').click()
        if sum(1 for m in puzzle["legal"] if m[1:] == move[1:]) == 2:
            page.locator(f"#puzzle-end-{move[0]}").click()
    expect(page.locator(".puzzle-feedback")).to_be_visible()
    expect(page.locator("#mine-played")).to_contain_text("In your game you played")
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the screen"
    page.screenshot(path=str(shots / f"mine-answer-{size}.png"), full_page=True)

    step = page.evaluate("() => Puzzles.state.result.mine.step")
    page.locator("#mine-replay").click()
    page.wait_for_url(f"**/replay/{code}/{game}?seat=1&step={step}")
    page.locator("#replay-slider").wait_for()
    expect(page.locator("#replay-slider")).to_have_value(str(step))
    page.go_back()
    page.wait_for_url("**/puzzles/mine/mine-*")
    page.locator("#puzzles-tab-mine").click()
    expect(page.locator(".mine-puzzle").first.locator(".mine-tried")).not_to_have_text(
        "Not tried yet"
    )
    assert errors == []
    page.close()
