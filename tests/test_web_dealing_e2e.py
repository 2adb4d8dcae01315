"""The people's parts of a rated deal in Chromium (issue 26, item 3; P51), against
the real server.

Ana (1280x800) creates a rated table and Ben (390x844) joins it by its link.
Ben's browser is made to send no part (as a browser without it would): both
screens show the commitment and "Dealing" with no hand while the table waits,
then the deal comes at the wait's end with Ana's part alone. Ana resigns; the
replay says the record verifies, lists Ana's part and Ben's as not given, and
Ana's browser finds its own part in the seed. Then a rematch, both browsers
giving: its record holds both parts, each the one its browser kept, and it
verifies. PASSING_GAME_SCREENSHOTS keeps ``dealing-*.png``.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web_helpers import Server, free_port, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from browser_helpers import frame, rated_table, scroll_to, sign_up, watch_errors  # noqa: E402
from passing_game.fairness import check, mixed_seed  # noqa: E402
from passing_game.web.game.dealing import WAIT  # noqa: E402

#: Every state frame a page receives, as its WebSocket gave it; a part is sent
#: only while ``window.__giveParts`` is true (the page's own code is untouched).
WATCH = """
(() => {
  window.__frames = [];
  window.__giveParts = true;
  const Native = window.WebSocket;
  class Watched extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        const m = JSON.parse(e.data);
        if (m.type === "state") window.__frames.push(m);
      });
    }
    send(text) {
      if (!window.__giveParts && JSON.parse(text).type === "contribute") return;
      super.send(text);
    }
  }
  window.WebSocket = Watched;
})();
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    work = tmp_path_factory.mktemp("dealing")
    running = Server(work / "data" / "deal.sqlite3", free_port(), work, bot_delay=0.05)
    yield running
    running.stop()


def record(site: Server, code: str, game: int) -> dict[str, Any]:
    with urllib.request.urlopen(site.url(f"/api/tables/{code}/record?game={game}")) as got:
        return dict(json.loads(got.read()))


def part_of(page: Page, code: str, game: int) -> str | None:
    value = page.evaluate(
        "(key) => sessionStorage.getItem(key)", f"passing-game:contribution:{code}:{game}"
    )
    return None if value is None else str(value)


def resign(page: Page) -> None:
    """Resign through the page's menu, as a person would."""
    page.wait_for_function("() => S.frame && S.frame.can_resign")
    page.click("#resign-button")
    page.click("#confirm-yes")
    page.wait_for_function("() => S.frame && S.frame.over")


def test_the_parts_of_a_rated_deal_and_their_check(
    browser: Browser, site: Server, shots: Path
) -> None:
    ana_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ben_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    for ctx in (ana_ctx, ben_ctx):
        ctx.add_init_script(WATCH)
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    errors = watch_errors(ana), watch_errors(ben)

    code = rated_table(ana, site.url("/"), "Ana")
    committed = ana.evaluate("() => S.frame.commitment")
    assert len(committed) == 64
    expect(ana.locator("#commitment-hash")).to_have_text(committed[:12] + "…")

    ben.goto(site.url(f"/t/{code}"))
    ben.locator("#join-button").wait_for()
    sign_up(ben, "Ben")
    ben.evaluate("() => { window.__giveParts = false; }")  # Ben's browser gives no part
    ben.fill("#jp-name", "Ben")
    ben.click("#join-button")

    # The deal waits: the commitment and "Dealing" on both screens, no hand.
    started = time.monotonic()
    for page, size in ((ana, "1280x800"), (ben, "390x844")):
        expect(page.locator(".status").first).to_contain_text("Dealing", timeout=10_000)
        expect(page.locator("#commitment-hash")).to_have_text(committed[:12] + "…")
        assert page.locator(".hand .domino").count() == 0
        page.screenshot(path=str(shots / f"dealing-wait-{size}.png"), full_page=True)
    expect(ana.locator("#my-contribution")).to_have_count(1)
    mine = part_of(ana, code, 1)
    assert mine is not None and len(mine) == 32
    assert ana.locator("#my-contribution").get_attribute("data-full") == mine
    assert part_of(ben, code, 1) is not None  # drawn, never sent

    # At the wait's end the deal comes with Ana's part alone.
    for page in (ana, ben):
        page.locator(".hand .domino").first.wait_for(timeout=int(WAIT + 15) * 1000)
    assert time.monotonic() - started >= WAIT - 2  # it waited for Ben's part
    seen = ana.evaluate("() => window.__frames.filter((f) => f.dealing).length")
    assert seen >= 1  # frames said the deal waited before the dealt one came
    assert frame(ana)["commitment"] == committed

    resign(ana)
    data = record(site, code, 1)
    fair = data["fairness"]
    assert fair["commitment"] == committed and fair["contributions"] == [mine, None]
    assert data["seed"] == mixed_seed(fair["server_seed"], [mine, None]) and check(data, 2) is None

    ana.locator("#replay-link").click()
    ana.wait_for_url(f"**/replay/{code}/1**")
    expect(ana.locator("#fairness-verdict")).to_contain_text("Verified")
    items = ana.locator("#fairness-parts li")
    expect(items).to_have_count(2)
    expect(items.nth(1)).to_contain_text("not given")
    assert items.nth(0).locator("code").get_attribute("data-full") == mine
    expect(ana.locator("#fairness-mine")).to_have_text("This browser's own part is in the seed.")
    scroll_to(ana, "#fairness-parts")
    ana.screenshot(path=str(shots / "dealing-replay-1280x800.png"))
    ana.go_back()

    # A rematch, both browsers giving: both parts are in its seed.
    ben.evaluate("() => { window.__giveParts = true; }")
    for page in (ana, ben):
        page.locator("#rematch-button").click()
    for page in (ana, ben):
        page.wait_for_function("() => S.frame && S.frame.game === 2 && S.frame.started")
    parts = [part_of(ana, code, 2), part_of(ben, code, 2)]
    assert None not in parts and parts[0] != parts[1]
    resign(ana)
    again = record(site, code, 2)
    assert again["fairness"]["contributions"] == parts and check(again, 2) is None
    assert again["seed"] == mixed_seed(again["fairness"]["server_seed"], parts)
    assert errors == ([], [])
