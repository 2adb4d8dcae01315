"""What issue 22 changed on the page, in Chromium against the real server (P40).

Ana (an account) and a guest who calls herself "Ana" sit at one table: the
guest is marked as a guest. Ana takes a hint: both screens show it on her
seat. At the end "Rematch" is an offer: Ana's button says it is offered and
whom it waits for; the guest accepts and game 2 begins. Ana signs out in a
second tab: the first tab is told, and carries on as a guest. A rated game
nobody moved in says it is not rated. A name that passes for a bot is
refused in the sign-up dialog, and too many wrong passwords are told in
minutes. At desktop and phone sizes; screenshots in PASSING_GAME_SCREENSHOTS.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from web_helpers import Server, free_port, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from browser_helpers import frame, open_account, sign_up_form, take_turn, watch_errors  # noqa: E402

PHONE = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    work = tmp_path_factory.mktemp("security")
    running = Server(
        work / "data" / "security.sqlite3",
        free_port(),
        work,
        bot_delay=0.05,
        extra=("--summary-wait", "3"),
    )
    yield running
    running.stop()


def play_until_over(pages: list[Page]) -> None:
    deadline = time.monotonic() + 120
    while not all((frame(p) or {}).get("over") for p in pages):
        assert time.monotonic() < deadline, "the match did not end"
        for page in pages:
            f = frame(page)
            if (
                f
                and not f["over"]
                and page.evaluate("() => !!(S.frame && S.live && S.frame.round.legal.length)")
            ):
                take_turn(page)
                break
            button = page.locator("#continue-button")
            if button.count() and button.is_visible():
                button.click()
        else:
            time.sleep(0.05)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE, SMALL], ids=["desktop", "phone", "small"])
def test_guests_hints_rematch_offers_and_a_closed_session(
    browser: Browser, site: Server, shots: Path, viewport: dict[str, int]
) -> None:
    size = {PHONE["width"]: "phone", SMALL["width"]: "small"}.get(viewport["width"], "desktop")
    ana_ctx = browser.new_context(viewport=viewport)
    guest_ctx = browser.new_context(viewport=viewport)
    ana, guest = ana_ctx.new_page(), guest_ctx.new_page()
    errors = watch_errors(ana) + watch_errors(guest)
    ana.goto(site.url("/"))
    ana.locator("#create-button").wait_for()
    name = f"Ana{size[0].upper()}{viewport['width']}"
    sign_up_form(ana, name)
    ana.wait_for_function(f"() => S.wsOpen && S.lobbyName === {name!r}")
    # The lobby's form: a person in seat 2, a target of one point.
    ana.select_option("#f-seat1", "person")
    ana.click(".rules-box summary")
    ana.fill("#f-target", "1")
    ana.click("#create-button")
    ana.locator("#table-code").wait_for()
    code = ana.locator("#table-code").inner_text()
    guest.goto(site.url(f"/t/{code}"))
    guest.locator("#jp-name").fill(name)
    guest.locator("#join-button").click()
    guest.wait_for_function("() => S.frame && S.frame.started")
    ana.wait_for_function("() => S.frame && S.frame.started")
    # The guest is marked as a guest on both screens; the account is not.
    for page in (ana, guest):
        expect(page.locator(".seat-card .guest-mark")).to_have_count(1)
    ana.screenshot(path=str(shots / f"issue22-guest-{size}.png"))
    # A hint: everybody sees it was taken.
    mover = ana if ana.evaluate("() => S.frame.round.to_move === S.frame.you") else guest
    mover.wait_for_function("() => S.frame.round.legal.length > 0")
    mover.locator("#hint-button").click()
    for page in (ana, guest):
        expect(page.locator(".seat-card .hints")).to_have_text("1 hint taken")
    guest.screenshot(path=str(shots / f"issue22-hint-{size}.png"))
    play_until_over([ana, guest])
    # Rematch: an offer the other person accepts.
    expect(ana.locator("#rematch-button")).to_have_text("Rematch")
    ana.locator("#rematch-button").click()
    expect(ana.locator("#rematch-button")).to_have_text("Rematch offered")
    expect(ana.locator("#rematch-note")).to_contain_text("Waiting for")
    ana.screenshot(path=str(shots / f"issue22-rematch-offered-{size}.png"))
    expect(guest.locator("#rematch-button")).to_have_text("Accept the rematch")
    guest.screenshot(path=str(shots / f"issue22-rematch-accept-{size}.png"))
    assert frame(guest)["game"] == 1
    guest.locator("#rematch-button").click()
    guest.wait_for_function("() => S.frame.game === 2 && !S.frame.over")
    ana.wait_for_function("() => S.frame.game === 2 && !S.frame.over")
    # Ana signs out in a second tab: this tab is told, and plays on as a guest.
    other = ana_ctx.new_page()
    other.goto(site.url("/"))
    other.locator("#create-button").wait_for()
    other.evaluate(
        """async () => {
            const me = await (await fetch("/api/account")).json();
            await fetch("/api/account/signout", {method: "POST", body: "{}",
                headers: {"X-CSRF-Token": me.csrf, "Content-Type": "application/json"}});
        }"""
    )
    expect(ana.locator(".notice")).to_contain_text("You were signed out here", timeout=10_000)
    ana.screenshot(path=str(shots / f"issue22-signed-out-{size}.png"))
    ana.wait_for_function("() => S.wsOpen && S.frame && S.frame.table === " + repr(code))
    assert not errors, errors
    ana_ctx.close()
    guest_ctx.close()


def test_an_aborted_rated_game_a_refused_name_and_waits_in_minutes(
    browser: Browser, site: Server, shots: Path
) -> None:
    ctx_a = browser.new_context(viewport=DESKTOP)
    ctx_b = browser.new_context(viewport=DESKTOP)
    ana, ben = ctx_a.new_page(), ctx_b.new_page()
    for page, name in ((ana, "Rita"), (ben, "Bruno")):
        page.goto(site.url("/"))
        page.locator("#create-button").wait_for()
        sign_up_form(page, name)
        expect(page.locator("#account-button")).to_contain_text(name)
        page.wait_for_function("() => S.wsOpen")
    ana.check("#f-rated")
    ana.click("#create-button")
    ana.locator("#table-code").wait_for()
    code = ana.locator("#table-code").inner_text()
    ben.goto(site.url(f"/t/{code}"))
    ben.locator("#join-button").click()
    ben.wait_for_function("() => S.frame && S.frame.started")
    ana.wait_for_function("() => S.frame && S.frame.started")
    ben.evaluate("() => S.ws.send(JSON.stringify({type: 'resign'}))")
    ana.wait_for_function("() => S.frame && S.frame.over && S.frame.unrated === 'aborted'")
    expect(ana.locator("#rating-changes")).to_contain_text("not rated")
    ana.screenshot(path=str(shots / "issue22-not-rated.png"))
    # A name that passes for a bot is refused, in words, in the dialog.
    newcomer = browser.new_context(viewport=PHONE).new_page()
    newcomer.goto(site.url("/"))
    newcomer.locator("#create-button").wait_for()
    sign_up_form(newcomer, "Hard bot")
    expect(newcomer.locator("#account-error")).to_contain_text("looks like a bot")
    newcomer.screenshot(path=str(shots / "issue22-name-refused-phone.png"))
    # Wrong passwords: the wait is said in minutes.
    newcomer.locator("#account-close").click()
    for _ in range(6):
        open_account(newcomer)
        newcomer.fill("#acc-name", "Rita")
        newcomer.fill("#acc-password", "not the right one")
        newcomer.click("#acc-submit")
        newcomer.locator("#account-error").wait_for()
        if "minute" in newcomer.locator("#account-error").inner_text():
            break
        newcomer.locator("#account-close").click()
    expect(newcomer.locator("#account-error")).to_contain_text("minute")
    newcomer.screenshot(path=str(shots / "issue22-wait-in-minutes-phone.png"))
