"""Helpers the browser tests share (not collected: no test_ prefix).

A person's actions on the page, done as a person does them: through the
lobby's form, by clicking tiles and buttons.
"""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Page, expect

from passing_game.bots.analysis import MARKS


def watch_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def frame(page: Page) -> Any:
    return page.evaluate("() => S.frame")


#: The password the browser tests' accounts use.
PASSWORD = "correct horse battery"


def open_account(page: Page) -> None:
    """The account's dialog, from the tool bar or the phone's menu."""
    page.locator("#account-button:visible, #menu-account-button:visible").first.click()
    page.locator("#account-dialog").wait_for()


def sign_up_form(page: Page, name: str, password: str = PASSWORD) -> None:
    """Through the account dialog: "New here? Create an account", filled in and sent;
    the recovery codes it shows are put away."""
    open_account(page)
    page.click("#acc-switch")
    page.locator("#account-title", has_text="Create an account").wait_for()
    page.fill("#acc-name", name)
    page.fill("#acc-password", password)
    page.click("#acc-submit")
    # A new account's recovery codes are shown once (P57): kept, as a person would.
    page.locator("#acc-codes, #account-error").first.wait_for()
    if page.locator("#acc-codes").count():
        page.click("#acc-codes-kept")
        expect(page.locator("#account-dialog")).to_have_count(0)


def sign_up(page: Page, name: str) -> None:
    """An account made through the dialog, signed in and connected again."""
    sign_up_form(page, name)
    expect(page.locator("#account-button")).to_contain_text(name)
    page.wait_for_function("() => S.wsOpen")


def create_table(
    page: Page, url: str, seats: list[str], target: int | None = None, name: str = "Ana"
) -> str:
    """Through the lobby's form. A bot the lobby does not list (``random``) is added
    to the seat's choices as the server's /api/config names it."""
    page.goto(url)
    page.locator("#create-button").wait_for()
    page.fill("#f-name", name)
    page.check(f'input[name=players][value="{len(seats) + 1}"]')
    bots = page.evaluate("() => S.config.bots")
    for seat, choice in enumerate(seats, start=1):
        if choice not in ("person", *[lv["name"] for lv in page.evaluate("() => S.config.levels")]):
            assert choice in bots
            # Added and chosen in one step: the lobby may be drawn again at any
            # moment (a card loading), which drops the added option, but the
            # choice is kept in S.lobbySeats, which the create message reads.
            page.evaluate(
                "([id, v]) => { const s = document.getElementById(id);"
                " const o = document.createElement('option'); o.value = v; o.textContent = v;"
                " s.append(o); s.value = v;"
                " s.dispatchEvent(new Event('change', { bubbles: true })); }",
                [f"f-seat{seat}", choice],
            )
            assert page.evaluate("(seat) => (S.lobbySeats || {})[seat]", seat) == choice
            continue
        page.select_option(f"#f-seat{seat}", choice)
    if target is not None:
        page.click(".rules-box summary")
        page.fill("#f-target", str(target))
    page.click("#create-button")
    page.locator("#table-code").wait_for()
    page.wait_for_function("() => S.frame && S.live")
    return str(page.locator("#table-code").inner_text())


def rated_table(page: Page, url: str, name: str) -> str:
    """``name`` signs up in the lobby and creates a rated two-player table to 1 point,
    as a person fills the form in; its code."""
    page.goto(url)
    page.locator("#create-button").wait_for()
    sign_up(page, name)
    page.check("#f-rated")
    page.click(".rules-box summary")
    page.fill("#f-target", "1")
    page.click("#create-button")
    page.locator("#table-code").wait_for()
    return page.locator("#table-code").inner_text()


def wait_for_turn_or_summary(page: Page, timeout: int = 30_000) -> str:
    page.wait_for_function(
        "() => document.querySelector('.summary')"
        " || (S.frame && S.live && S.frame.round.legal.length > 0)",
        timeout=timeout,
    )
    return "summary" if page.locator(".summary").count() else "turn"


def take_turn(page: Page, prefer: str = "play") -> None:
    """One move by clicking: a highlighted tile (left end if asked), else draw, else pass."""
    before = page.evaluate("() => S.last")
    playable = page.locator(".hand .domino.playable")
    if prefer == "play" and playable.count():
        playable.first.click()
        if page.locator(".end-choice").count():
            page.locator('.end-choice [data-key="end-left"]').click()
    elif page.locator("#draw-button").is_enabled():
        page.locator("#draw-button").click()
    elif page.locator("#pass-button").is_enabled():
        page.locator("#pass-button").click()
        if page.locator("#confirm-yes").count():
            page.locator("#confirm-yes").click()
    else:
        playable.first.click()
        if page.locator(".end-choice").count():
            page.locator('.end-choice [data-key="end-left"]').click()
    page.wait_for_function(f"() => S.last > {before}", timeout=15_000)


def play_to_the_end(page: Page, prefer: str = "play") -> None:
    """Take turns (``take_turn``'s ``prefer``) and close round summaries until the game
    is over."""
    for _ in range(400):
        if page.evaluate("() => S.frame && S.frame.over"):
            return
        if wait_for_turn_or_summary(page) == "summary":
            if page.evaluate("() => S.frame.over"):
                return
            page.locator('[data-key="continue"]').click()
            page.wait_for_function("() => !document.querySelector('.summary') || S.frame.over")
            continue
        take_turn(page, prefer)
    raise AssertionError("the game did not end")


def analysed_game(page: Page, url: str, mark: str = "mistake", games: int = 4) -> tuple[str, int]:
    """A short game against ``easy`` drawing or passing whenever allowed (costly habits),
    its replay opened from the summary and seat 0 analysed: the table's code and the
    game's number. Not every deal offers a costly choice (measured: about one game in
    twelve marks no blunder), so the newcomer plays again, as a person would, until
    the analysis marks a decision ``mark`` or worse."""
    for _ in range(games):
        code = create_table(page, url, ["easy"], target=10)
        play_to_the_end(page, prefer="draw")
        page.wait_for_function("() => S.frame.over")
        game = int(page.evaluate("() => S.frame.game"))
        page.locator("#replay-link").click()
        page.wait_for_url(f"**/replay/{code}/{game}**")
        page.locator("#replay-slider").wait_for()
        page.select_option("#analysis-seat", "0")
        page.locator("#analyse-button").click()
        page.locator("#analysis-result").wait_for(timeout=180_000)
        worst = page.evaluate(
            "() => (Replay.state.analyses[0].analysis.costliest[0] || {}).mark || null"
        )
        if worst in MARKS and MARKS.index(worst) >= MARKS.index(mark):
            return code, game
    raise AssertionError(f"{games} games and no decision marked {mark} or worse")


def box(page: Page, selector: str) -> dict[str, float]:
    """Where the element is, once it is shown: the page draws parts again (the hand after
    each frame, the lobby as its fetches land), so a box read mid-redraw is tried again."""
    element = page.locator(selector).first
    for _ in range(50):
        element.wait_for(state="visible")
        # The element found visible may be replaced before its box is read:
        # the locator then finds the new one on the next try.
        found = element.bounding_box()
        if found is not None:
            return found
        page.wait_for_timeout(50)
    raise AssertionError(f"{selector} never stayed on the page long enough to be measured")


def scroll_to(page: Page, selector: str) -> None:
    """Scroll the element into view in one step in the page: a render may replace it at
    any moment, and Playwright's own scroll fails if it does so in between."""
    page.wait_for_selector(selector)
    page.evaluate(
        "(sel) => { const el = document.querySelector(sel);"
        " if (el) el.scrollIntoView({ block: 'center' }); }",
        selector,
    )


def outside_viewport(page: Page, selector: str) -> list[str]:
    """Elements matching ``selector`` that are not wholly on the screen."""
    found: list[str] = page.evaluate(
        """(sel) => {
          const bad = [];
          for (const el of document.querySelectorAll(sel)) {
            if (el.offsetParent === null && getComputedStyle(el).position !== 'fixed') continue;
            const r = el.getBoundingClientRect();
            const out = r.top < 0 || r.left < 0
              || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5;
            const name = (el.id || el.textContent.trim()).slice(0, 40);
            if (out) bad.push(name + ' ' + JSON.stringify([r.top, r.bottom, innerHeight]));
          }
          return bad;
        }""",
        selector,
    )
    return found


def play_until_over(pages: list[Page], seconds: float = 90) -> None:
    """Every page's person plays (or continues after a round) until the match is over."""
    deadline = time.monotonic() + seconds
    while not all((frame(p) or {}).get("over") for p in pages):
        assert time.monotonic() < deadline, "the match did not end"
        for page in pages:
            if (frame(page) or {}).get("over"):
                continue
            if page.evaluate("() => !!(S.frame && S.live && S.frame.round.legal.length)"):
                take_turn(page)
                break
            button = page.locator("#continue-button")
            if button.count() and button.is_visible():
                button.click()
        else:
            time.sleep(0.05)


def recover(page: Page, name: str, code: str, password: str) -> None:
    """ "Lost your password?" in the account dialog: a recovery code and a new password."""
    open_account(page)
    page.click("#acc-lost")
    page.locator("#account-title", has_text="Lost your password?").wait_for()
    page.fill("#acc-name", name)
    page.fill("#acc-code", code)
    page.fill("#acc-password", password)
    page.click("#acc-recover-submit")
