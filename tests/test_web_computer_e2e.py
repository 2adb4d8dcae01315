"""Play the computer in one tap, and your games first (issue 24, items 1 and 2), in Chromium.

A real ``passing-game serve`` (tests/conftest.py). At 1280x800, 390x844 and
360x640 the lobby's first card offers the computer: each level said by how
it plays, and one button, on the first screen without scrolling; the level
is chosen by a tap or the arrow keys, and "Play" opens a two-player table
against it. PASSING_GAME_SCREENSHOTS=/some/folder keeps ``computer-*.png``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, expect  # noqa: E402

from browser_helpers import box, frame, outside_viewport, watch_errors  # noqa: E402

SIZES = [(1280, 800), (390, 844), (360, 640)]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_computer_is_one_tap_from_the_first_screen(
    browser: Browser, server: Server, shots: Path, width: int, height: int
) -> None:
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = watch_errors(page)
    page.goto(server.url("/"))
    card = page.locator("#computer-card")
    expect(card).to_be_visible()
    levels = card.locator(".level")
    expect(levels).to_have_count(4)
    assert levels.first.inner_text() == "Beginner"
    expect(card.locator("#level-about")).to_contain_text("heaviest tile")
    # The card and its button are on the first screen, before quick play's.
    assert outside_viewport(page, "#computer-card .level, #level-about, #computer-button") == []
    # The header's buttons stand clear of the logo's tiles.
    tools, logo = box(page, ".lobby > .page-tools"), box(page, ".hero-tiles")
    assert tools["y"] + tools["height"] <= logo["y"], (tools, logo)
    page.screenshot(path=str(shots / f"computer-{width}x{height}.png"))
    # A level by the keyboard: the arrow moves the choice, as in any radio group.
    page.locator('#computer-card input[value="easy"]').focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator('#computer-card input[value="medium"]')).to_be_checked()
    expect(card.locator("#level-about")).to_contain_text("varied")
    page.locator("#computer-button").click()
    page.locator("#table-code").wait_for()
    page.wait_for_function("() => S.frame && S.live && S.frame.started")
    state = frame(page)
    assert state["rules"]["players"] == 2 and state["you"] == 0
    assert state["seats"][1]["kind"] == "bot" and state["seats"][1]["level"] == "medium"
    assert not errors, errors
    page.close()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_your_games_come_first_and_take_you_back_to_your_seat(
    browser: Browser, server: Server, shots: Path, width: int, height: int
) -> None:
    """Issue 24, item 2: a guest who left a game finds it first in the lobby,
    says whose turn it is, and "Continue" gives the seat back (not a spectator's view)."""
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = watch_errors(page)
    page.goto(server.url("/"))
    page.locator("#computer-button").click()
    page.locator("#table-code").wait_for()
    page.wait_for_function("() => S.frame && S.live && S.frame.started")
    code = frame(page)["table"]
    page.goto(server.url("/"))
    card = page.locator("#yours-card")
    expect(card).to_be_visible()
    entry = card.locator(".your-table", has_text=code)
    expect(entry).to_have_count(1)
    expect(entry.locator(".your-table-state")).to_have_text(
        re.compile(r"Your turn\.|Easy bot to move\.")
    )
    assert outside_viewport(page, "#yours-card .button") == []
    page.screenshot(path=str(shots / f"yours-{width}x{height}.png"))
    # A link: a new document, where S is defined only once its scripts have run.
    entry.locator(".button").click()
    page.locator("#table-code").wait_for()
    page.wait_for_function("() => typeof S !== 'undefined' && S.frame && S.live")
    state = frame(page)
    assert state["table"] == code and state["you"] == 0 and not state["spectator"]
    assert not errors, errors
    page.close()
