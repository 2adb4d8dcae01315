"""The tile tracker as a person uses it, in Chromium (issue 24, item 5).

A real ``passing-game serve`` (tests/conftest.py). At 1280x800, 390x844 and
360x640: "Tiles" (or T) opens the tracker, which counts every tile once
(the train, the hand, the unseen), is redrawn after every move while open,
fits the screen, and closes with its button or Escape; a spectator has no
tracker. PASSING_GAME_SCREENSHOTS=/some/folder keeps ``tracker-*.png``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from browser_helpers import (  # noqa: E402
    create_table,
    frame,
    outside_viewport,
    take_turn,
    wait_for_turn_or_summary,
    watch_errors,
)

SIZES = [(1280, 800), (390, 844), (360, 640)]


def counted(page: Page) -> dict[str, int]:
    """What the open tracker says, read from the page."""
    rows = page.locator(".tracker-numbers tbody tr")
    expect(rows).to_have_count(7)
    tracked = page.evaluate("() => S.tracker")
    return {k: len(tracked[k]) for k in ("played", "hand", "unseen")}


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_tile_tracker_counts_every_tile_and_fits_the_screen(
    browser: Browser, server: Server, shots: Path, width: int, height: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors = watch_errors(page)
    code = create_table(page, server.url("/"), ["easy"])
    assert wait_for_turn_or_summary(page) == "turn"
    page.locator("#tracker-button").click()
    expect(page.locator(".dialog.tracker #tracker-title")).to_have_text("Tile tracker")
    first = counted(page)
    state = frame(page)
    assert first["hand"] == len(state["round"]["hand"])
    assert first["played"] == len(state["round"]["train"])
    assert sum(first.values()) == 28
    assert outside_viewport(page, ".dialog.tracker .dialog-buttons button") == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1
    page.screenshot(path=str(shots / f"tracker-{width}x{height}.png"))
    # Escape closes it, T opens it again; it follows the game while open.
    page.keyboard.press("Escape")
    expect(page.locator(".dialog.tracker")).to_have_count(0)
    expect(page.locator("#tracker-button")).to_be_focused()
    page.locator("#tracker-close").wait_for(state="detached")
    page.locator("body").press("t")
    expect(page.locator(".dialog.tracker .tracker-numbers")).to_be_visible()
    page.locator("#tracker-close").click()
    take_turn(page)
    assert wait_for_turn_or_summary(page) == "turn"
    page.locator("#tracker-button").click()
    expect(page.locator(".dialog.tracker .tracker-numbers")).to_be_visible()
    # A move while it is open (sent as the page sends one): it is redrawn.
    before = page.evaluate("() => [S.tracker.hand.length, S.tracker.played.length]")
    legal = [m for m in frame(page)["round"]["legal"] if m != "pass"]
    assert legal, "a tile to play or one to draw"
    move = {"type": "draw"} if legal[0] == "draw" else {"type": "play", "move": legal[0]}
    page.evaluate("(m) => S.ws.send(JSON.stringify(m))", move)
    page.wait_for_function(
        "(b) => S.tracker && (S.tracker.hand.length !== b[0] || S.tracker.played.length !== b[1])",
        arg=before,
        timeout=20_000,
    )
    after = counted(page)
    assert sum(after.values()) == 28
    page.locator("#tracker-close").click()
    # A spectator has no tracker (it shows what a seat knows).
    watcher = context.new_page()
    watcher.goto(server.url("/"))
    watcher.locator("#watch-button").wait_for()
    watcher.fill("#j-code", code)
    watcher.click("#watch-button")
    watcher.wait_for_function("() => S.frame && S.live")
    expect(watcher.locator("#tracker-button")).to_have_count(0)
    context.close()
    assert not errors, errors
