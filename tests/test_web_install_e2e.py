"""The page as an installable app in Chromium (issue 27, item 5; P56), against the
real server, at 1280x800 and 390x844.

Chromium finds nothing against installing it (``Page.getInstallabilityErrors``
over the DevTools protocol, the check its install button makes) and reads the
manifest without errors; the service worker takes control and keeps the
page's files; with the network gone, opening the site shows the offline page
in the visitor's language (no game is pretended), and once the network is
back "Try again" opens the lobby. PASSING_GAME_SCREENSHOTS keeps
``install-offline-*.png``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import BrowserType, expect  # noqa: E402

from browser_helpers import watch_errors  # noqa: E402
from passing_game.i18n import _, using_language  # noqa: E402
from passing_game.web.install import api as install  # noqa: E402

SIZES = [(1280, 800), (390, 844)]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_page_installs_keeps_its_files_and_says_when_offline(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    server: Server,
    shots: Path,
    tmp_path: Path,
    width: int,
    height: int,
) -> None:
    # A profile of its own: Chromium installs nothing from an incognito one, which a
    # new context of a launched browser is.
    context = browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        **browser_type_launch_args,
        viewport={"width": width, "height": height},
        locale="gl",
    )
    page = context.pages[0] if context.pages else context.new_page()
    errors = watch_errors(page)
    page.goto(server.url("/"))
    page.locator("#create-button").wait_for()
    cdp = context.new_cdp_session(page)
    found = cdp.send("Page.getAppManifest")
    assert found["url"].endswith("/manifest.webmanifest") and found["errors"] == [], found
    # The worker is in control and has kept the page's files.
    page.wait_for_function(
        "async () => (await navigator.serviceWorker.ready).active.state === 'activated'"
    )
    kept = page.evaluate(
        "async () => { const names = await caches.keys();"
        " const cache = await caches.open(names.find((n) => n.startsWith('passing-game-')));"
        " return (await cache.keys()).map((r) => new URL(r.url).pathname); }"
    )
    assert "/static/app.js" in kept and "/offline" in kept and "/manifest.webmanifest" not in kept
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []

    assert errors == [], errors
    # No network: the offline page, in Galician, and no table pretended.
    context.set_offline(True)
    page.goto(server.url("/t/ABCDEF"))
    with using_language("gl"):
        title = _(install.OFFLINE_TITLE)
    expect(page.locator("h1")).to_have_text(title)
    assert page.locator("#offline-text").inner_text().startswith("The Passing Game")
    page.screenshot(path=str(shots / f"install-offline-{width}x{height}.png"))
    context.set_offline(False)
    page.locator('a[href="/"]').click()
    page.locator("#create-button").wait_for()
    # While offline only the requests the network refused are reported.
    assert all("ERR_INTERNET_DISCONNECTED" in e for e in errors), errors
    context.close()
