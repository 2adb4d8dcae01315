"""The deal's commitment in Chromium (issue 26, item 3): shown at the table before
the deal, checked in the replay after the game (by the server, and once more by
the browser's own SHA-256), at 1280x800 and 390x844.
PASSING_GAME_SCREENSHOTS keeps ``fairness-*.png``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, expect  # noqa: E402

from browser_helpers import create_table, play_to_the_end, scroll_to, watch_errors  # noqa: E402

SIZES = [(1280, 800), (390, 844)]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_commitment_before_the_deal_and_its_check_after(
    browser: Browser, server: Server, shots: Path, width: int, height: int
) -> None:
    size = f"{width}x{height}"
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = watch_errors(page)
    code = create_table(page, server.url("/"), ["easy"], target=8)
    committed = page.evaluate("() => S.frame.commitment")
    assert len(committed) == 64  # from the table's first frame (tests/test_web_fairness.py)
    line = page.locator("#commitment-hash")
    expect(line).to_have_text(committed[:12] + "…")
    assert line.get_attribute("data-full") == committed
    page.screenshot(path=str(shots / f"fairness-table-{size}.png"), full_page=True)

    play_to_the_end(page)
    game = page.evaluate("() => S.frame.game")
    expect(page.locator("#moves-digest")).to_have_count(1)
    page.locator("#replay-link").click()
    page.wait_for_url(f"**/replay/{code}/{game}**")
    verdict = page.locator("#fairness-verdict")
    expect(verdict).to_contain_text("Verified")
    expect(page.locator("#fairness-here")).to_have_text("This browser checked the commitment too.")
    assert page.locator("#replay-commitment").get_attribute("data-full") == committed
    scroll_to(page, "#fairness-verdict")
    page.screenshot(path=str(shots / f"fairness-replay-{size}.png"))
    assert errors == []
    page.close()
