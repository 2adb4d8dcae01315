"""Recovery by code in Chromium (issue 27, item 4; P57), at 1280x800 and 390x844.

A new account's dialog shows its eight recovery codes once; the person keeps
one, signs out, has "lost" the password, and comes back in through "Lost
your password?" with the code and a new password; the new password then
signs in, and the code does not work twice. PASSING_GAME_SCREENSHOTS keeps
``recovery-*.png``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, expect  # noqa: E402

from browser_helpers import PASSWORD, open_account, recover, watch_errors  # noqa: E402

SIZES = [(1280, 800), (390, 844)]
NEW = "a brand new password"


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_recovery_codes_shown_once_bring_a_person_back_in(
    browser: Browser, server: Server, shots: Path, width: int, height: int
) -> None:
    size = f"{width}x{height}"
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = watch_errors(page)
    page.goto(server.url("/"))
    page.locator("#create-button").wait_for()
    name = f"Rita{width}"
    open_account(page)
    page.click("#acc-switch")
    page.fill("#acc-name", name)
    page.fill("#acc-password", PASSWORD)
    page.click("#acc-submit")
    codes = page.locator("#acc-codes li")
    expect(codes).to_have_count(8)
    page.screenshot(path=str(shots / f"recovery-codes-{size}.png"))
    code = codes.nth(2).inner_text()
    assert re.fullmatch(r"[a-z2-9]{4}(-[a-z2-9]{4}){3}", code)
    page.click("#acc-codes-kept")
    expect(page.locator("#account-dialog")).to_have_count(0)

    open_account(page)
    page.click("#acc-signout")
    expect(
        page.locator(".notice, [role=status]").filter(has_text="signed out").first
    ).to_be_visible()

    recover(page, name, code, NEW)
    expect(page.locator("#account-dialog")).to_have_count(0)
    expect(page.locator("body")).to_contain_text("You are back in")
    page.screenshot(path=str(shots / f"recovery-back-{size}.png"))
    assert (
        page.evaluate("async () => (await (await fetch('/api/account')).json()).user.name") == name
    )

    # The code works once; the new password is the one that signs in.
    open_account(page)
    page.click("#acc-signout")
    recover(page, name, code, NEW)
    expect(page.locator("#account-error")).to_contain_text("do not match")
    page.click("#account-close")
    open_account(page)
    page.fill("#acc-name", name)
    page.fill("#acc-password", NEW)
    page.click("#acc-submit")
    expect(page.locator("body")).to_contain_text(f"Signed in as {name}")
    # The only failed request is the code tried a second time (401), on purpose.
    assert len(errors) == 1 and "401" in errors[0], errors
    page.close()
