"""Accounts and ratings in Chromium against the real server (issue 13, "Done when").

Ana and Ben sign up in two browser contexts through the page's own account
dialog; Ana creates a rated two-player table with the lobby's form (its
"Rated game" switch, a target of 1 point); Ben joins by the link. Mid-game a
third context signs in as Ben and gets his seat back, and plays on from
there. At the end both screens show both rating changes, the winner's up and
the loser's down; Ana's "My games" lists the match with its rating change;
the leaderboard ranks them. Then the account's own actions: changing the
password and deleting the account (with its confirm step).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from web_helpers import Server, free_port, require_module

require_module("starlette")
require_module("playwright")
require_module("openskill")

from playwright.sync_api import Browser, Page, Route, expect  # noqa: E402

from browser_helpers import (  # noqa: E402
    PASSWORD,
    frame,
    open_account,
    sign_up,
    take_turn,
    watch_errors,
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    work = tmp_path_factory.mktemp("accounts")
    running = Server(
        work / "data" / "accounts.sqlite3",
        free_port(),
        work,
        bot_delay=0.05,
        extra=("--summary-wait", "3"),
    )
    yield running
    running.stop()


def sign_in(page: Page, name: str, password: str = PASSWORD) -> None:
    open_account(page)
    page.fill("#acc-name", name)
    page.fill("#acc-password", password)
    page.click("#acc-submit")
    expect(page.locator("#account-button")).to_contain_text(name)


def to_move(pages: list[Page]) -> Page | None:
    for page in pages:
        f = frame(page)
        if f and f["over"]:
            return None
        if page.evaluate("() => !!(S.frame && S.live && S.frame.round.legal.length)"):
            return page
        button = page.locator("#continue-button")
        if button.count() and button.is_visible():
            button.click()
    return None


def play_until_over(pages: list[Page], moves: int | None = None) -> int:
    """Take turns on whichever page may move, until the match is over (or ``moves`` moves)."""
    made = 0
    deadline = time.monotonic() + 90
    while moves is None or made < moves:
        assert time.monotonic() < deadline, "the match did not end"
        if all((frame(p) or {}).get("over") for p in pages):
            break
        page = to_move(pages)
        if page is None:
            time.sleep(0.05)
            continue
        take_turn(page)
        made += 1
    return made


def test_a_rated_match_between_two_accounts(browser: Browser, site: Server, shots: Path) -> None:
    ana_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ben_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    ana_errors, ben_errors = watch_errors(ana), watch_errors(ben)

    # Ana signs up in the lobby and creates a rated table with the form.
    ana.goto(site.url("/"))
    ana.locator("#create-button").wait_for()
    expect(ana.locator("#f-rated")).to_have_count(0)  # only for signed-in people
    sign_up(ana, "Ana")
    ana.check("#f-rated")
    # A rated table seats people only: the seat offers no bot.
    assert ana.locator("#f-seat1 option").evaluate_all("os => os.map(o => o.value)") == ["person"]
    ana.click(".rules-box summary")
    ana.fill("#f-target", "1")
    ana.click("#create-button")
    ana.locator("#table-code").wait_for()
    code = ana.locator("#table-code").inner_text()
    expect(ana.locator("#account-button")).to_contain_text("Ana")  # the table's top bar

    # Ben opens the link, signs up there, and takes the seat.
    ben.goto(site.url(f"/t/{code}"))
    ben.locator("#join-button").wait_for()
    sign_up(ben, "Ben")
    ben.fill("#jp-name", "Ben")
    ben.click("#join-button")
    ben.locator(".hand .domino").first.wait_for()
    ana.locator(".hand .domino").first.wait_for()
    assert frame(ben)["seats"][1]["name"] == "Ben"

    # A move or two, then a third browser signs in as Ben and gets the seat back.
    play_until_over([ana, ben], moves=2)
    assert not frame(ana)["over"]
    third_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    third = third_ctx.new_page()
    third_errors = watch_errors(third)
    third.goto(site.url(f"/t/{code}"))
    third.locator("#join-button").wait_for()
    sign_in(third, "Ben")
    third.wait_for_function("() => S.frame && S.live && S.frame.you === 1", timeout=15_000)
    third.locator(".hand .domino").first.wait_for()
    assert frame(third)["round"]["hand"] == frame(ben)["round"]["hand"]
    assert third.evaluate("() => localStorage.getItem('passing-game:seat:' + S.code)") is None

    # Ben plays on from the third browser until the match is over.
    play_until_over([ana, third])
    for page in (ana, ben, third):
        page.wait_for_function("() => S.frame && S.frame.over && S.frame.ratings", timeout=15_000)
    last = frame(ana)
    winner = last["winner"]
    changes = {c["seat"]: c for c in last["ratings"]}
    assert changes[winner]["delta"] > 0 > changes[1 - winner]["delta"]
    assert frame(ben)["ratings"] == last["ratings"] == frame(third)["ratings"]
    # Both screens show both changes, as numbers a person reads.
    for page in (ana, ben):
        rows = page.locator("#rating-changes .rating-change")
        expect(rows).to_have_count(2)
        for seat in (0, 1):
            row = page.locator(f'#rating-changes .rating-change[data-seat="{seat}"]')
            change = changes[seat]
            expect(row.locator(".values")).to_have_text(f"{change['before']} → {change['after']}")
            sign = "+" if change["delta"] > 0 else "-"
            expect(row.locator(".delta")).to_have_text(f"{sign}{abs(change['delta'])}")
            expect(row.locator(".delta")).to_have_class(
                re.compile("up" if change["delta"] > 0 else "down")
            )
    ana.screenshot(path=str(shots / "web-rated-end.png"))

    # "My games" lists the match, with its result and its rating change.
    ana.locator('[data-key="close-summary"]').click()
    open_account(ana)
    ana.click("#acc-games")
    row = ana.locator(f'#my-games .game-row[data-code="{code}"]')
    expect(row).to_have_count(1)
    expect(row.locator(".players")).to_have_text("Ana, Ben")
    expect(row.locator(".result")).to_contain_text("Won" if winner == 0 else "Lost")
    expect(row.locator(".rating")).to_contain_text(f"→ {changes[0]['after']}")
    expect(row.locator("a")).to_have_attribute("href", f"/replay/{code}/1")
    ana.screenshot(path=str(shots / "web-my-games.png"))
    # The leaderboard of two-player games ranks the winner first.
    ana.click("#account-close")
    open_account(ana)
    ana.click("#acc-leaders")
    names = ana.locator("#leaderboard tbody tr td:nth-child(2)")
    expect(names).to_have_text(["Ana", "Ben"] if winner == 0 else ["Ben", "Ana"])
    ana.keyboard.press("Escape")
    expect(ana.locator("#account-dialog")).to_have_count(0)
    assert not ana_errors and not ben_errors and not third_errors, (
        ana_errors + ben_errors + third_errors
    )
    for context in (ana_ctx, ben_ctx, third_ctx):
        context.close()


def test_a_guest_keeps_the_table_signs_out_changes_the_password_and_deletes(
    browser: Browser, site: Server
) -> None:
    """A guest's table becomes the account's at sign-up; a wrong password gets
    the server's answer; a new password works; deleting asks for the password
    and signs out."""
    context = browser.new_context()
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(site.url("/"))
    page.locator("#create-button").wait_for()
    page.fill("#f-name", "Cleo")
    page.click("#create-button")
    page.locator("#table-code").wait_for()
    code = page.locator("#table-code").inner_text()
    sign_up(page, "Cleo")
    page.wait_for_function("() => S.frame && S.live")
    # The guest's seat is the account's now: another browser signed in gets it.
    other = browser.new_context()
    second = other.new_page()
    second.goto(site.url(f"/t/{code}"))
    second.locator("#join-button").wait_for()
    sign_in(second, "Cleo")
    second.wait_for_function("() => S.frame && S.frame.you === 0", timeout=15_000)
    other.close()
    # A wrong current password: the server's words, shown as text.
    open_account(page)
    page.click("#acc-password-open")
    page.fill("#acc-old", "not my password")
    page.fill("#acc-new", "a brand new password")
    page.click("#acc-password-submit")
    expect(page.locator("#account-error")).to_have_text("That password is not right.")
    page.fill("#acc-old", PASSWORD)
    page.fill("#acc-new", "a brand new password")
    page.click("#acc-password-submit")
    expect(page.locator("#account-dialog")).to_have_count(0)
    # Sign out, and in with the new password.
    open_account(page)
    page.click("#acc-signout")
    expect(page.locator("#account-button")).to_contain_text("Sign in")
    sign_in(page, "Cleo", "a brand new password")
    # Deleting asks first, and needs the password.
    open_account(page)
    page.click("#acc-delete-open")
    expect(page.locator("#account-title")).to_have_text("Delete the account?")
    page.fill("#acc-deletePassword", "a brand new password")
    page.click("#acc-delete-confirm")
    expect(page.locator("#account-button")).to_contain_text("Sign in")
    open_account(page)
    page.fill("#acc-name", "Cleo")
    page.fill("#acc-password", "a brand new password")
    page.click("#acc-submit")
    expect(page.locator("#account-error")).to_have_text("Wrong user name or password.")
    # The browser logs the refused requests (401) it was asked to make; nothing else.
    assert [e for e in errors if "status of 401" not in e] == [], errors
    context.close()


def test_a_late_guest_answer_does_not_sign_a_new_account_out(
    browser: Browser, site: Server
) -> None:
    """The page's first GET /api/account may answer (as a guest) only after a sign-up
    made meanwhile: the account stays signed in, as the newer loads said."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = watch_errors(page)
    held: list[Route] = []
    holding = [True]

    def hold(route: Route) -> None:
        if holding[0] and route.request.method == "GET":
            held.append(route)
        else:
            route.continue_()

    # The page's asking as it opens is kept back; the sign-up's own goes through.
    page.route(re.compile(r"/api/account$"), hold)
    page.goto(site.url("/"))
    page.locator("#create-button").wait_for()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    page.wait_for_timeout(200)  # nothing else asks who is signed in (one place says it)
    assert len(held) == 1
    holding[0] = False
    sign_up(page, "Late")
    for route in held:
        with page.expect_event("requestfinished", lambda r, route=route: r is route.request):
            # A guest's answer as the server gives it (the token another guest's).
            route.fulfill(json={"user": None, "csrf": "a-guest-token", "min_password": 10})
    page.wait_for_timeout(500)  # the answer read and, were it taken, drawn
    expect(page.locator("#account-button")).to_contain_text("Late")
    assert page.evaluate("() => S.wsOpen")
    # The page's token is still the session's: a change (signing out) is accepted.
    open_account(page)
    page.click("#acc-signout")
    expect(page.locator("#account-button")).to_contain_text("Sign in")
    assert errors == []
    page.close()


def test_the_button_pressed_before_the_page_knows_the_account_opens_its_menu(
    browser: Browser, site: Server
) -> None:
    """A signed-in person who presses "Sign in" before the page's first GET
    /api/account has answered (a slow line, a busy server) gets the account's menu
    once it answers, not a sign-in form for an account already signed in."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(site.url("/"))
    sign_up(page, "Early")
    held: list[Route] = []

    def hold(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(re.compile(r"/api/account$"), hold)
    page.goto(site.url("/"))  # the same browser, its cookie: the first answer kept back
    page.locator("#create-button").wait_for()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    expect(page.locator("#account-button")).to_contain_text("Sign in")
    open_account(page)
    expect(page.locator("#acc-submit")).to_be_visible()  # what the page can offer so far
    held[0].continue_()
    expect(page.locator("#acc-export")).to_be_visible()
    expect(page.locator("#acc-submit")).to_have_count(0)
    expect(page.locator("#account-button")).to_contain_text("Early")
    assert errors == []
    context.close()
