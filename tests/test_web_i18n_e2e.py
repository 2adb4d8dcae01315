"""The page in English, Galician and Croatian in a real browser (issue 7, part C).

Debian's Chromium through pytest-playwright, against a real ``passing-game
serve``. Galician comes from the browser's Accept-Language, Croatian from the
page's switch; the switch is remembered across a reload; no English text is
left on a Galician or Croatian page (lobby, table, rules panel); nothing
overflows, also on a phone-sized screen. The page's plural rule evaluator is
checked against Python's gettext for every catalog. Set
PASSING_GAME_SCREENSHOTS (e.g. to docs/img) to keep the screenshots
``web-table-<lang>.png``, ``web-rules-<lang>.png``, ``web-lobby-hr.png`` and
``web-table-gl-phone.png``.
"""

from __future__ import annotations

import gettext
import re
import time
from pathlib import Path
from typing import Any

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from passing_game.i18n import _, plural_forms, using_language  # noqa: E402
from passing_game.web.http.texts import PAGE_TEXTS  # noqa: E402

ACCEPT = {"en": "en-GB,en;q=0.9", "gl": "gl-ES,gl;q=0.9,es;q=0.5", "hr": "en-US,en;q=0.9"}


def english_left(text: str, lang: str) -> list[str]:
    """English page texts (whose translation differs) still to be read in ``text``."""
    found = []
    with using_language(lang):
        own_words = "\n".join(_(english) for english in PAGE_TEXTS.values())
        # Texts a language keeps as they are (the game's name) are no English left over.
        for english in PAGE_TEXTS.values():
            if _(english) == english and "{" not in english:
                text = text.replace(english, "")
        for english in PAGE_TEXTS.values():
            if _(english) == english:
                continue
            for piece in re.split(r"\{\w+\}", english):
                piece = piece.strip(" .,:·()…")
                # Short single words would match inside other words and names.
                if len(piece) < 4 or not re.search(r"[A-Za-z]{3}", piece):
                    continue
                if re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", own_words):
                    continue  # the language uses that word too ("Domino" in Croatian)
                if re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", text):
                    found.append(piece)
    return found


def overflowing(page: Page) -> list[str]:
    """Elements whose text does not fit in them, and page-wide horizontal scrolling."""
    found: list[str] = page.evaluate(
        """() => {
          const bad = [];
          if (document.documentElement.scrollWidth > window.innerWidth + 1) bad.push("page");
          for (const el of document.querySelectorAll(
              "button, .seat-card, .topbar, .status, .boneyard, .field, label, select, h1, h2")) {
            if (el.offsetParent === null) continue;
            if (el.scrollWidth > el.clientWidth + 2) bad.push(el.outerHTML.slice(0, 120));
          }
          return bad;
        }"""
    )
    return found


def watch_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def take_turn(page: Page) -> None:
    before = page.evaluate("() => S.last")
    playable = page.locator(".hand .domino.playable")
    if playable.count():
        playable.first.click()
        if page.locator(".end-choice").count():
            page.locator('.end-choice [data-key="end-left"]').click()
    elif page.locator("#draw-button").is_enabled():
        page.locator("#draw-button").click()
    else:
        page.locator("#pass-button").click()
    page.wait_for_function(f"() => S.last > {before}", timeout=15_000)


def play_into_round(page: Page, moves: int) -> None:
    """Make ``moves`` moves of our own (bots in between), stopping early at a round's end."""
    deadline = time.monotonic() + 90
    made = 0
    while made < moves and time.monotonic() < deadline:
        page.wait_for_function(
            "() => document.querySelector('.summary')"
            " || (S.frame && S.wsOpen && S.frame.round.legal.length > 0)",
            timeout=30_000,
        )
        if page.locator(".summary").count():
            return
        take_turn(page)
        made += 1
    # Let the bots answer, so the table is mid-round with a few moves in the log.
    page.wait_for_function("() => S.frame && S.frame.round.log.length >= 2", timeout=15_000)


def create_table(page: Page, name: str) -> None:
    page.locator("#create-button").wait_for()
    page.fill("#f-name", name)
    page.check('input[name=players][value="3"]')
    page.select_option("#f-seat1", "easy")
    page.select_option("#f-seat2", "medium")
    page.click("#create-button")
    page.locator("#table-code").wait_for()
    page.locator(".hand .domino").first.wait_for()


def visible_text(page: Page) -> str:
    return str(page.locator("body").inner_text())


def open_page(browser: Browser, server: Server, lang: str, phone: bool = False) -> Any:
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 860}
    # Screenshots for the docs: no tile caught in flight (reduced motion).
    return browser.new_context(
        reduced_motion="reduce",
        viewport=size,
        is_mobile=phone,
        extra_http_headers={"Accept-Language": ACCEPT[lang]},
    )


@pytest.mark.parametrize("lang", ["en", "gl", "hr"])
def test_the_page_in_each_language(
    browser: Browser, server: Server, shots: Path, lang: str
) -> None:
    """gl from Accept-Language, hr from the switch (remembered on reload), en by default."""
    context = open_page(browser, server, lang)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.url("/"))
    page.locator("#create-button").wait_for()
    if lang == "hr":
        assert page.evaluate("() => document.documentElement.lang") == "en"
        page.select_option("#lang-switch", "hr")
        page.wait_for_function("() => document.documentElement.lang === 'hr'")
        page.reload()  # the choice is remembered, over the browser's English
        page.locator("#create-button").wait_for()
    assert page.evaluate("() => document.documentElement.lang") == lang
    expect(page.locator("#lang-switch")).to_have_value(lang)
    with using_language(lang):
        expect(page.locator("#create-button")).to_have_text(_("Create table"))
        expect(page.locator(".rules-box summary")).to_have_text(_("Rules and variants"))
    page.click(".rules-box summary")
    lobby = visible_text(page)
    if lang != "en":
        assert english_left(lobby, lang) == []
    assert overflowing(page) == []
    if lang == "hr":
        page.screenshot(path=str(shots / "web-lobby-hr.png"))

    create_table(page, {"en": "Ana", "gl": "Uxía", "hr": "Ivana"}[lang])
    play_into_round(page, 3)
    table = visible_text(page)
    frame = page.evaluate("() => S.frame")
    with using_language(lang):
        # Server-built texts come in the page's language too.
        assert frame["seats"][1]["name"] == _("Easy bot")
        assert _("Easy bot") in table
    if lang != "en":
        assert english_left(table, lang) == []
        assert "Easy bot" not in table and "Your turn" not in table
    assert overflowing(page) == []
    page.screenshot(path=str(shots / f"web-table-{lang}.png"))

    # The choice survives a reload at the table as well.
    page.reload()
    page.locator(".hand .domino").first.wait_for()
    assert page.evaluate("() => document.documentElement.lang") == lang
    expect(page.locator("#lang-switch")).to_have_value(lang)

    # The rules panel, in the same language.
    page.click("#rules-button")
    panel = page.locator(".rules-panel")
    expect(panel).to_be_visible()
    label = {"en": "Rules and variants", "gl": "Regras e variantes", "hr": "Pravila i varijante"}
    expect(panel.locator("strong", has_text=label[lang]).first).to_be_visible()
    assert panel.locator("h2").count() >= 5 and panel.locator("script").count() == 0
    if lang != "en":
        assert "Rules and variants" not in panel.inner_text()
    page.screenshot(path=str(shots / f"web-rules-{lang}.png"))
    page.keyboard.press("Escape")
    expect(panel).to_have_count(0)
    assert not errors, errors
    context.close()


def test_switching_language_at_the_table_rewords_the_servers_texts(
    browser: Browser, server: Server
) -> None:
    context = open_page(browser, server, "en")
    page = context.new_page()
    page.goto(server.url("/"))
    create_table(page, "Ana")
    with using_language("gl"):
        easy_gl = _("Easy bot")
    page.select_option("#lang-switch", "gl")
    # The socket reconnects in Galician: the seats' names arrive reworded.
    page.wait_for_function(
        f"() => S.frame && S.frame.seats[1].name === {easy_gl!r} && S.wsOpen", timeout=15_000
    )
    expect(page.locator(".seat-card").first).to_contain_text(easy_gl)
    # The chat's ready messages come with the server's reply to the panel's next
    # request on the new socket, a moment after the frame: every English text goes.
    left = english_left(visible_text(page), "gl")
    for _attempt in range(50):
        if not left:
            break
        page.wait_for_timeout(200)
        left = english_left(visible_text(page), "gl")
    assert left == []
    context.close()


def test_phone_layout_in_galician(browser: Browser, server: Server, shots: Path) -> None:
    """Galician words are long: the phone layout still fits the screen."""
    context = open_page(browser, server, "gl", phone=True)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.url("/"))
    create_table(page, "Uxía")
    play_into_round(page, 2)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390 + 1
    assert overflowing(page) == []
    assert english_left(visible_text(page), "gl") == []
    page.screenshot(path=str(shots / "web-table-gl-phone.png"), full_page=True)
    assert not errors, errors
    context.close()


def test_the_pages_plural_rule_matches_gettext(browser: Browser, server: Server) -> None:
    """static/i18n.js evaluates each catalog's Plural-Forms (no eval) exactly as gettext does."""
    page = browser.new_page()
    page.goto(server.url("/"))
    page.locator("#create-button").wait_for()
    for lang in ("en", "gl", "hr"):
        header = plural_forms(lang)
        expression = re.search(r"plural=([^;]+)", header).group(1)  # type: ignore[union-attr]
        expected = [gettext.c2py(expression)(n) for n in range(250)]
        got = page.evaluate(
            "(h) => { const f = I18N.pluralRule(h); return [...Array(250).keys()].map(f); }",
            header,
        )
        assert got == expected, lang
    # On the page itself: Croatian's three forms for 1, 2, 5, 21, 22, 25.
    page.select_option("#lang-switch", "hr")
    page.wait_for_function("() => document.documentElement.lang === 'hr'")
    counted = page.evaluate("() => [1, 2, 5, 21, 22, 25].map((n) => nt('{n} tile', n))")
    assert counted == [
        "1 pločica",
        "2 pločice",
        "5 pločica",
        "21 pločica",
        "22 pločice",
        "25 pločica",
    ]
    page.close()
