"""The chat in Chromium, three server processes on one PostgreSQL (issue 27, item 1; P58).

Ana (English, on process 1) creates a table; Bea (Galician, a phone, on process 3)
joins it; Cy (a guest, on process 2) watches. Each in a context of their own:

- a ready message Ana clicks reads "Rematch" on her page and Cy's, "Revancha" on
  Bea's;
- Bea writes her own text; Cy, a guest, has the ready messages only;
- Cy's message reaches the spectators only, never the players in the game;
- Ana mutes Bea: Bea's next message reaches Cy, not Ana;
- Cy reports a message; a moderator lists it (``passing-game admin chat reports``)
  and deletes it: it leaves every open page and the history;
- "Chat off" is one tap and stays off after a reload;
- a tournament's page has the same panel, for its entrants.

Screenshots (1280x900 and 390x844): /tmp/shots/chat-*.png. The phone's page has no
sideways overflow and the panel comes after the hand, never over it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from click.testing import CliRunner
from playwright.sync_api import Browser, Page, expect

from browser_helpers import box, create_table, scroll_to, sign_up, watch_errors
from passing_game.cli import main
from web_helpers import Server

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SHOTS = Path(os.environ.get("PASSING_GAME_SCREENSHOTS") or tempfile.gettempdir())


def person(browser: Browser, lang: str = "en", phone: bool = False) -> Page:
    accept = {"en": "en-US,en;q=0.9", "gl": "gl-ES,gl;q=0.9"}[lang]
    context = browser.new_context(
        viewport=PHONE if phone else DESKTOP,
        locale=accept.split(",")[0],
        extra_http_headers={"Accept-Language": accept},
    )
    return context.new_page()


def sign_up_quietly(page: Page, name: str) -> None:
    """An account made by the page's own POST (the dialog's words are Galician here),
    then the page loaded again, signed in."""
    status = page.evaluate(
        """async (name) => {
          const csrf = (await (await fetch('/api/account')).json()).csrf;
          const made = await fetch('/api/account/signup', {method: 'POST',
            headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
            body: JSON.stringify({name, password: 'correct horse battery'})});
          return made.status;
        }""",
        name,
    )
    assert status == 200
    page.reload()
    expect(page.locator("#account-button:visible, #menu-button:visible").first).to_be_visible()
    page.wait_for_function("() => S.wsOpen")


def open_chat(page: Page) -> None:
    """The panel open (a phone's starts collapsed)."""
    page.locator("#chat-toggle").wait_for()
    if page.locator("#chat-toggle").get_attribute("aria-expanded") != "true":
        page.click("#chat-toggle")
    page.locator("#chat-log").wait_for()


def lines(page: Page) -> list[str]:
    texts: list[str] = page.locator("#chat-log .chat-text").all_inner_texts()
    return texts


def says(page: Page, text: str) -> None:
    expect(page.locator("#chat-log .chat-text", has_text=text).first).to_be_visible()


def message_id(page: Page, text: str) -> int:
    found = page.evaluate(
        "(text) => (window.PassingChat.messages.find((m) => m.text === text) || {}).id", text
    )
    assert isinstance(found, int), text
    return found


def test_table_chat_in_three_languages_and_processes(
    browser: Browser, servers: list[Server], pg_url: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    one, two, three = servers
    ana, bea, cy = person(browser), person(browser, "gl", phone=True), person(browser)
    errors = [watch_errors(p) for p in (ana, bea, cy)]
    ana.goto(one.url("/"))
    ana.locator("#create-button").wait_for()
    sign_up(ana, "Ana")
    code = create_table(ana, one.url("/"), ["person"], name="Ana")
    bea.goto(three.url("/"))
    bea.locator("#create-button").wait_for()
    sign_up_quietly(bea, "Bea")
    bea.goto(three.url(f"/t/{code}"))
    bea.click("#join-button")
    bea.wait_for_function("() => S.frame && S.live && S.frame.you === 1")
    cy.goto(two.url(f"/t/{code}"))
    cy.click("#watch-button")
    cy.wait_for_function("() => S.frame && S.live && S.frame.you === null")
    for page in (ana, bea, cy):
        open_chat(page)

    # A ready message, each in the reader's own language.
    ana.click("#chat-preset-rematch")
    says(ana, "Rematch")
    says(cy, "Rematch")
    says(bea, "Revancha")
    assert "Rematch" not in lines(bea)
    # Galician words on Bea's panel (the page's catalog), English on Ana's.
    expect(ana.locator("#chat-send")).to_have_text("Send")

    # Bea writes; a guest has no text box.
    bea.fill("#chat-text", "Ola a todos <b>!</b>")
    bea.keyboard.press("Enter")
    says(ana, "Ola a todos <b>!</b>")
    says(cy, "Ola a todos <b>!</b>")
    assert cy.locator("#chat-text").count() == 0
    assert ana.locator("#chat-log b").count() == 0  # text, never HTML

    # Cy's message stays among the spectators while the game is on.
    cy.click("#chat-preset-oops")
    says(cy, "Oops!")
    ana.click("#chat-preset-thanks")
    bea.wait_for_function("() => window.PassingChat.messages.some((m) => m.preset === 'thanks')")
    for player in (ana, bea):
        assert not player.evaluate(
            "() => window.PassingChat.messages.some((m) => m.preset === 'oops')"
        )

    # Ana mutes Bea (keyboard: the button is reached and pressed like any).
    first = message_id(ana, "Ola a todos <b>!</b>")
    ana.focus(f"#chat-mute-{first}")
    ana.keyboard.press("Enter")
    expect(ana.locator(".chat-status")).to_contain_text("Bea")
    bea.fill("#chat-text", "segunda mensaxe")
    bea.click("#chat-send")
    says(cy, "segunda mensaxe")
    says(bea, "segunda mensaxe")
    ana.wait_for_timeout(1000)
    assert "segunda mensaxe" not in lines(ana)
    assert "Ola a todos <b>!</b>" not in lines(ana)

    # Cy reports Ana's message; the moderator lists it and deletes it.
    reported = message_id(cy, "Rematch")
    cy.click(f"#chat-report-{reported}")
    expect(cy.locator(".chat-status")).to_contain_text("moderator")
    admin = ["admin", "--db", pg_url, "--actor", "mod", "chat"]
    runner = CliRunner()
    listed = runner.invoke(main, [*admin, "reports"])
    assert listed.exit_code == 0 and f"> #{reported}" in listed.output, listed.output
    gone = runner.invoke(main, [*admin, "delete", str(reported), "--reason", "a test"])
    assert gone.exit_code == 0, gone.output
    for page in (cy, bea):
        page.wait_for_function(
            "(id) => !window.PassingChat.messages.some((m) => m.id === id)", arg=reported
        )
    assert "Revancha" not in lines(bea)

    # Screenshots, and the phone's layout: no sideways overflow, the panel after the hand.
    scroll_to(ana, "#chat")
    ana.screenshot(path=str(SHOTS / "chat-table-1280.png"))
    hand = box(bea, ".hand")
    panel = box(bea, "#chat")
    assert panel["y"] >= hand["y"] + hand["height"] - 1
    assert bea.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    scroll_to(bea, "#chat")
    bea.screenshot(path=str(SHOTS / "chat-table-390.png"))

    # Chat off in one tap, remembered after a reload.
    ana.click("#chat-off")
    expect(ana.locator("#chat-log")).to_have_count(0)
    ana.reload()
    ana.locator("#chat-on").wait_for()
    ana.click("#chat-on")
    ana.locator("#chat-log").wait_for()
    # After the reload the history comes again, without the muted and the deleted.
    says(ana, "Thanks!")
    assert "Rematch" not in lines(ana) and "segunda mensaxe" not in lines(ana)
    # Unmuted (the list of muted people is kept with the page): Bea is heard again.
    ana.click(f"#chat-unmute-{first}")
    says(ana, "segunda mensaxe")
    # The smallest phone: still no sideways overflow.
    bea.set_viewport_size({"width": 360, "height": 640})
    assert bea.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert not [e for found in errors for e in found], errors


def test_a_tournament_page_has_its_own_chat(browser: Browser, servers: list[Server]) -> None:
    one, _two, three = servers
    ana, bea = person(browser), person(browser, "gl", phone=True)
    ana.goto(one.url("/"))
    ana.locator("#create-button").wait_for()
    sign_up(ana, "Ana")
    ana.locator(".tournaments-card summary").click()
    ana.fill("#t-name", "Chat cup")
    ana.select_option("#t-kind", "arena")
    ana.fill("#t-length", "30")
    ana.fill("#t-starts", "30")
    ana.click('[data-key="t-create"]')
    ana.wait_for_url("**/tournament/**")
    tid = ana.url.rsplit("/", 1)[1]
    ana.locator('[data-key="t-join"], [data-key="t-withdraw"]').first.wait_for()
    if ana.locator('[data-key="t-join"]').count():
        ana.click('[data-key="t-join"]')
    ana.locator('[data-key="t-withdraw"]').wait_for()
    open_chat(ana)
    ana.wait_for_function("() => window.PassingChat.write")
    ana.click("#chat-preset-rematch")
    says(ana, "Rematch")
    ana.fill("#chat-text", "good luck everyone")
    ana.click("#chat-send")
    says(ana, "good luck everyone")
    # Bea, not an entrant, reads it in Galician on another process; she cannot write.
    bea.goto(three.url(f"/tournament/{tid}"))
    open_chat(bea)
    says(bea, "Revancha")
    says(bea, "good luck everyone")
    assert bea.locator("#chat-text").count() == 0
    assert bea.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    scroll_to(ana, "#chat")
    ana.screenshot(path=str(SHOTS / "chat-tournament-1280.png"))
    scroll_to(bea, "#chat")
    bea.screenshot(path=str(SHOTS / "chat-tournament-390.png"))
