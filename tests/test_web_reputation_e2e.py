"""An account's reputation beside its seat in Chromium (issue 26, item 4): after a
finished game, the next game's seat card says the share of games finished, with
the details in its title, at 1280x800 and 390x844.
PASSING_GAME_SCREENSHOTS keeps ``reputation-*.png``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, expect  # noqa: E402

from browser_helpers import create_table, play_to_the_end, sign_up, watch_errors  # noqa: E402

SIZES = [(1280, 800), (390, 844)]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_seat_says_how_the_account_finishes_its_games(
    browser: Browser, server: Server, shots: Path, width: int, height: int
) -> None:
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = watch_errors(page)
    page.goto(server.url("/"))
    sign_up(page, f"Rep{width}")
    create_table(page, server.url("/"), ["easy"], target=5)
    expect(page.locator(".reputation")).to_have_count(0)  # no game counted yet
    play_to_the_end(page)
    page.locator("#rematch-button").click()
    page.wait_for_function("() => S.frame && S.frame.game === 2 && !S.frame.over")
    if page.locator(".summary").count():
        page.keyboard.press("Escape")
    mark = page.locator(f'.reputation[data-name="Rep{width}"]')
    expect(mark).to_have_text("Games finished: 100%")
    assert "finished: 1" in (mark.get_attribute("title") or "")
    page.screenshot(path=str(shots / f"reputation-{width}x{height}.png"))
    assert errors == []
    page.close()
