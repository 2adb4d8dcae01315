"""Puzzles in Chromium, as a person solves them (issue 25, item 2).

A real ``passing-game serve`` (tests/conftest.py). At 1280x800 and 390x844
a guest opens the puzzles from the lobby, solves one by tapping its tile
(and the end, when it fits both) or Draw or Pass, sees the rating it shows
move, misses the next one on purpose and reads every move's value, plays
the puzzle of the day, and a streak of two right answers ended by a wrong
one. Nothing is wider than the screen. PASSING_GAME_SCREENSHOTS keeps
``puzzles-*.png``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from browser_helpers import watch_errors  # noqa: E402
from passing_game.puzzles import shipped  # noqa: E402

SIZES = [(1280, 800), (390, 844)]
BY_ID = {p.id: p for p in shipped()}


def shown(page: Page) -> dict[str, Any]:
    """The puzzle on the page, once it is there."""
    page.wait_for_function(  # Puzzles is the page's once its modules have run (a new page)
        "() => typeof Puzzles !== 'undefined' && Puzzles.state.data"
        " && Puzzles.state.data.puzzle && !Puzzles.state.busy"
    )
    puzzle: dict[str, Any] = page.evaluate("() => Puzzles.state.data.puzzle")
    return puzzle


def tap(page: Page, move: str, legal: list[str]) -> None:
    """Tap what a person taps for ``move``."""
    if move in ("draw", "pass"):
        page.locator(f"#puzzle-{move}").click()
        return
    tile = move[1:]
    page.locator(f'[data-key="puzzle-tile-{tile}"]').click()
    if sum(1 for m in legal if m[1:] == tile) == 2:
        page.locator(f"#puzzle-end-{move[0]}").click()


def solve(page: Page, right: bool) -> dict[str, Any]:
    """Answer the puzzle on the page, rightly or not; the puzzle."""
    puzzle = shown(page)
    known = BY_ID[puzzle["id"]]
    answers = [str(m) for m in known.answer]
    move = answers[0] if right else next(m for m in puzzle["legal"] if m not in answers)
    tap(page, move, puzzle["legal"])
    expect(page.locator(".puzzle-feedback." + ("right" if right else "wrong"))).to_be_visible()
    return puzzle


def fits(page: Page) -> None:
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the screen"


def rating(page: Page) -> str:
    return str(page.locator("#puzzle-you-rating").inner_text())


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_guest_solves_puzzles_the_daily_one_and_a_streak(
    browser: Browser, server: Server, shots: Path, width: int, height: int
) -> None:
    size = f"{width}x{height}"
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = watch_errors(page)
    page.goto(server.url("/"))
    page.locator("#puzzles-link").click()
    puzzle = shown(page)
    assert puzzle["kind"] in ("open", "view")
    fits(page)
    page.screenshot(path=str(shots / f"puzzles-{size}.png"), full_page=True)
    before = rating(page)
    # the themes tell what the answer is about: hidden until it is given
    expect(page.locator(".puzzle-themes")).to_have_count(0)
    solve(page, right=True)
    if BY_ID[puzzle["id"]].themes:
        expect(page.locator(".puzzle-themes .chip").first).to_be_visible()
    expect(page.locator("#puzzle-you-rating")).not_to_have_text(before)
    expect(page.locator("#puzzle-solver-change")).to_be_visible()
    expect(page.locator(".puzzle-values tbody tr")).to_have_count(len(puzzle["legal"]))
    fits(page)
    page.screenshot(path=str(shots / f"puzzles-right-{size}.png"), full_page=True)

    # The next one, missed on purpose: every move's value and why.
    before = rating(page)
    page.locator("#puzzle-next").click()
    page.wait_for_function(f"() => Puzzles.state.data.puzzle.id !== {puzzle['id']!r}")
    missed = solve(page, right=False)
    expect(page.locator(".puzzle-values")).to_contain_text("against the best")
    assert rating(page) != before
    fits(page)
    page.screenshot(path=str(shots / f"puzzles-wrong-{size}.png"), full_page=True)
    assert missed["id"] != puzzle["id"]

    # The puzzle of the day.
    page.locator("#puzzles-tab-daily").click()
    shown(page)
    expect(page.locator(".puzzle-day")).to_be_visible()
    page.screenshot(path=str(shots / f"puzzles-daily-{size}.png"), full_page=True)
    solve(page, right=True)
    fits(page)

    # A streak: two right, then a wrong answer ends it.
    page.locator("#puzzles-tab-streak").click()
    page.locator("#puzzle-streak-start").click()
    ratings = []
    for run in range(2):
        ratings.append(shown(page)["rating"])
        expect(page.locator("#puzzle-run")).to_have_text(f"Streak: {run}")
        solve(page, right=True)
        page.locator("#puzzle-next").click()
    ratings.append(shown(page)["rating"])
    assert ratings == sorted(ratings)
    solve(page, right=False)
    expect(page.locator("#puzzle-streak-over")).to_have_text("The streak ends: 2 puzzles solved.")
    expect(page.locator("#puzzle-you")).to_contain_text("Best streak: 2")
    fits(page)
    page.screenshot(path=str(shots / f"puzzles-streak-{size}.png"), full_page=True)
    assert not errors, errors
    page.close()
