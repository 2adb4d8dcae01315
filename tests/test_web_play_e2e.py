"""The table as a person plays it, in Chromium (issue 11).

A real ``passing-game serve`` on 127.0.0.1 (tests/conftest.py), Debian's
Chromium through pytest-playwright:

- offline: with the server gone the hand and the buttons are disabled, a
  banner says so, a click does nothing but say that it did nothing, and
  nothing is played behind the person's back once the server is back;
- every move is seen: an opponent's pass shows on its seat (a bubble for a
  moment, and the seat's last-move line);
- phones: at 390x844 and 360x640 every button of the round summary, the
  match end, the rules panel, the menu and a confirm step is on the screen
  without scrolling; tiles and buttons are at least 44 px;
- the sound switch is remembered across a reload; reduced motion moves
  nothing;
- the page's side of the clock, stand-in, leave, resign, invitation and
  "a pass ends the round" contract, driven with frames as the server sends
  them (``receive``), and the messages the page sends back;
- every text the page's scripts use is in the catalog, and no script puts
  text in as HTML.

PASSING_GAME_SCREENSHOTS=/some/folder keeps the screenshots
(``play-*.png``): the table on a desktop and on two phones, mid-round,
the round summary and the match end.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web_helpers import Server, free_port, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # noqa: E402

from browser_helpers import (  # noqa: E402
    create_table,
    frame,
    outside_viewport,
    take_turn,
    wait_for_turn_or_summary,
    watch_errors,
)
from passing_game.web.http.i18n import PAGE_PLURALS  # noqa: E402
from passing_game.web.http.texts import PAGE_TEXTS  # noqa: E402

STATIC = Path(__file__).parent.parent / "src" / "passing_game" / "web" / "static"
PHONES = [(390, 844), (360, 640)]
DESKTOP: ViewportSize = {"width": 1280, "height": 800}


def play_to_summary(page: Page, limit: float = 150) -> None:
    deadline = time.monotonic() + limit
    while wait_for_turn_or_summary(page) != "summary":
        assert time.monotonic() < deadline, "the round did not end"
        take_turn(page)
    expect(page.locator(".summary")).to_be_visible()


def spy_on_sends(page: Page) -> None:
    """Keep every message the page sends (window.sent), and still send it."""
    page.evaluate(
        """() => {
          window.sent = [];
          const ws = S.ws, send = ws.send.bind(ws);
          ws.send = (text) => { window.sent.push(JSON.parse(text)); send(text); };
        }"""
    )


def sent(page: Page) -> list[dict[str, Any]]:
    return list(page.evaluate("() => window.sent"))


def inject(page: Page, **changes: Any) -> None:
    """A state frame as the server would send it: the current one with ``changes``
    (``round`` and ``seats`` entries are merged into the current ones)."""
    page.evaluate(
        """(changes) => {
          const f = JSON.parse(JSON.stringify(S.frame));
          for (const [k, v] of Object.entries(changes)) {
            if (k === 'round') Object.assign(f.round, v);
            else if (k === 'seats') v.forEach((s, i) => Object.assign(f.seats[i], s || {}));
            else f[k] = v;
          }
          f.state = S.last;
          receive(f);
        }""",
        changes,
    )


def too_small(page: Page, selector: str, least: float = 44) -> list[str]:
    """Visible tap targets matching ``selector`` smaller than ``least`` px either way."""
    found: list[str] = page.evaluate(
        """([sel, least]) => {
          const bad = [];
          for (const el of document.querySelectorAll(sel)) {
            if (el.offsetParent === null) continue;
            const r = el.getBoundingClientRect();
            if (r.width < least - 0.5 || r.height < least - 0.5)
              bad.push((el.id || el.dataset.key || el.textContent.trim()).slice(0, 30)
                       + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
          }
          return bad;
        }""",
        [selector, least],
    )
    return found


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    yield context
    context.close()


# -- 1. offline ------------------------------------------------------------------------


def test_an_offline_click_does_nothing_and_says_so(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """The server goes away mid-turn: the page says so and sends nothing, also later."""
    db, port = tmp_path / "offline.sqlite3", free_port()
    server = Server(db, port, tmp_path, bot_delay=0.05)
    page = browser.new_page(viewport=DESKTOP)
    try:
        create_table(page, server.url("/"), ["easy"])
        # Wait for a turn of ours with a tile to play, playing on until there is one.
        while True:
            assert wait_for_turn_or_summary(page) == "turn"
            if page.locator(".hand .domino.playable").count():
                break
            take_turn(page)
        before = frame(page)
        expect(page.locator("#offline-banner")).to_have_count(0)
        server.kill()
        banner = page.locator("#offline-banner")
        expect(banner).to_be_visible(timeout=10_000)
        expect(banner).to_contain_text("Connection lost")
        expect(page.locator(".net.off")).to_be_visible()
        # The hand and every action button are disabled.
        for tile in page.locator(".hand .domino").all():
            expect(tile).to_be_disabled()
        for button in ("#draw-button", "#pass-button", "#hint-button"):
            expect(page.locator(button)).to_be_disabled()
        # A click on a playable tile: nothing but a notice that nothing was sent.
        page.locator(".hand .domino.playable").first.click(force=True)
        expect(page.locator(".notice.error")).to_contain_text("Not sent")
        page.keyboard.press("d")
        page.keyboard.press("p")
        assert page.evaluate("() => S.queue.length") == 0
        assert page.evaluate("() => S.choosing") is None
        page.screenshot(path=str(shots / "play-offline.png"))
        # The server comes back on the same file: the page takes its seat back.
        server = Server(db, port, tmp_path, bot_delay=0.05)
        # "Try again now", unless the page's own next attempt came first.
        with contextlib.suppress(PlaywrightTimeoutError):
            page.locator('#offline-banner [data-key="reconnect"]').click(timeout=2_000)
        page.wait_for_function("() => S.live && S.wsOpen", timeout=20_000)
        expect(page.locator("#offline-banner")).to_have_count(0)
        time.sleep(0.5)  # anything queued would have been sent and answered by now
        after = frame(page)
        assert after["round"]["history"] == before["round"]["history"]
        assert after["round"]["hand"] == before["round"]["hand"]
        assert after["round"]["legal"] == before["round"]["legal"]
        expect(page.locator(".hand .domino").first).to_be_enabled()
    finally:
        page.close()
        server.stop()


# -- 2. every move is seen ---------------------------------------------------------------


def test_an_opponents_pass_shows_on_its_seat(browser: Browser, server: Server, shots: Path) -> None:
    """A random bot passes sooner or later: its seat shows the pass, then keeps it readable."""
    page = browser.new_page(viewport=DESKTOP)
    errors = watch_errors(page)
    create_table(page, server.url("/"), ["random"])
    deadline = time.monotonic() + 120
    found = False
    while not found:
        assert time.monotonic() < deadline, "the random bot never passed"
        state = wait_for_turn_or_summary(page)
        history = frame(page)["round"]["history"]
        if history and (history[-1]["seat"], history[-1]["move"]) == (1, "pass"):
            found = True
            break
        if state == "summary":
            if frame(page)["over"]:
                page.locator('[data-key="rematch"]').click()
            else:
                page.locator("#continue-button").click()
            expect(page.locator(".summary")).to_have_count(0)
            continue
        take_turn(page)
        page.wait_for_timeout(150)
    seat = page.locator('.seat-card[data-seat="1"]')
    # The bubble on the seat for a moment...
    expect(seat.locator(".move-badge")).to_have_text("Passes")
    page.screenshot(path=str(shots / "play-pass-badge.png"))
    # ...and the seat's last move stays readable, also near the train.
    expect(seat.locator(".last-move .what")).to_have_text("passed")
    expect(page.locator(".recent-move.newest")).to_contain_text("pass")
    expect(seat.locator(".move-badge")).to_have_count(0, timeout=5_000)
    expect(seat.locator(".last-move .what")).to_have_text("passed")
    # Seats are numbered from 1 for people, name and number apart.
    expect(seat.locator(".seat-meta .seat-no")).to_have_text("Seat 2")
    assert not errors, errors
    page.close()


def test_a_played_tile_flies_into_the_train_and_reduced_motion_moves_nothing(
    browser: Browser, server: Server
) -> None:
    def animations_per_move(reduced: bool) -> list[int]:
        context = browser.new_context(
            viewport=DESKTOP, reduced_motion="reduce" if reduced else "no-preference"
        )
        page = context.new_page()
        errors = watch_errors(page)
        create_table(page, server.url("/"), ["easy", "easy"])
        page.evaluate(
            """() => {
              // Listeners run in order: this one after the page's has drawn the frame.
              window.counted = [];
              S.ws.addEventListener('message', () => {
                window.counted.push(document.getAnimations().length);
              });
            }"""
        )
        for _ in range(3):
            if wait_for_turn_or_summary(page) == "summary":
                break
            take_turn(page)
        page.wait_for_function("() => window.counted.length >= 4", timeout=15_000)
        counted: list[int] = page.evaluate("() => window.counted")
        assert page.evaluate("() => Motion.reduced()") is reduced
        assert not errors, errors
        context.close()
        return counted

    assert max(animations_per_move(reduced=False)) > 0
    assert set(animations_per_move(reduced=True)) == {0}


# -- 3. phones -----------------------------------------------------------------------------


def check_phone_sizes(page: Page, selector: str, name: str, shots: Path) -> None:
    """At each phone size: every button matched is on the screen, and big enough."""
    for width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        assert outside_viewport(page, selector) == [], (name, width, height)
        assert too_small(page, selector) == [], (name, width, height)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1
        page.screenshot(path=str(shots / f"play-{name}-{width}x{height}.png"))
    page.set_viewport_size({"width": 390, "height": 844})


DIALOG_BUTTONS = ".overlay button, .overlay a.button"


def mid_round(phone: BrowserContext, server: Server) -> tuple[Page, list[str]]:
    """A table against two easy bots with three moves or more on the train, the
    person to move; the page and the errors its scripts report."""
    page = phone.new_page()
    errors = watch_errors(page)
    create_table(page, server.url("/"), ["easy", "easy"])
    for _ in range(2):
        if wait_for_turn_or_summary(page) == "summary":
            break
        take_turn(page)
    wait_for_turn_or_summary(page)
    page.wait_for_function("() => S.frame.round.history.length >= 3")
    return page, errors


def test_a_hand_of_two_rows_and_its_buttons_fit_a_small_phone(
    phone: BrowserContext, server: Server, shots: Path
) -> None:
    """The hand grows with every draw: two rows of tiles (up to 14) and the buttons
    stay on a 360x640 screen mid-round; a bigger hand scrolls, and the buttons stay
    at the bottom of the screen (a CI run found the buttons below it with 8 tiles)."""
    page, errors = mid_round(phone, server)
    tiles = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
    table = ".hand .domino, .actions button, .topbar button, .seat-card .last-move, .recent"
    for count in (7, 8, 11, 14):
        inject(page, round={"hand": tiles[:count]})
        for width, height in PHONES:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("() => window.scrollTo(0, 0)")
            page.wait_for_timeout(100)
            assert outside_viewport(page, table) == [], (count, width, height)
        page.screenshot(path=str(shots / f"play-hand-{count}-360x640.png"))
    inject(page, round={"hand": tiles[:21]})
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(100)
    assert outside_viewport(page, ".actions button") == []
    page.screenshot(path=str(shots / "play-hand-21-360x640.png"))
    assert not errors, errors


def test_every_dialog_button_is_on_a_phone_screen(
    phone: BrowserContext, server: Server, shots: Path
) -> None:
    # Mid-round: the hand, the buttons and the last moves without scrolling.
    page, errors = mid_round(phone, server)
    for width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => window.scrollTo(0, 0)")
        page.wait_for_timeout(100)
        table = ".hand .domino, .actions button, .topbar button, .seat-card .last-move, .recent"
        assert outside_viewport(page, table) == [], (width, height)
        assert (
            too_small(page, ".hand .domino, .actions button, .topbar button, .topbar select") == []
        )
        page.screenshot(path=str(shots / f"play-table-{width}x{height}.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    # The menu (the top bar's tools on a phone), the rules panel, a confirm step.
    page.click("#menu-button")
    expect(page.locator(".menu-dialog")).to_be_visible()
    check_phone_sizes(page, DIALOG_BUTTONS + ", .overlay select", "menu", shots)
    page.click("#menu-rules-button")
    expect(page.locator(".rules-panel")).to_be_visible()
    check_phone_sizes(page, "#rules-close", "rules", shots)
    page.click("#rules-close")
    page.click("#menu-button")
    page.click("#menu-leave-button")
    expect(page.locator(".confirm")).to_be_visible()
    check_phone_sizes(page, DIALOG_BUTTONS, "confirm-leave", shots)
    page.click("#confirm-no")
    expect(page.locator(".confirm")).to_have_count(0)
    # The round summary: "Next round" on the screen.
    play_to_summary(page)
    if not frame(page)["over"]:
        check_phone_sizes(page, DIALOG_BUTTONS, "summary", shots)
    # Issue 24, item 7: the summary opens on who won and by how much, then why.
    for width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        seen = page.evaluate(
            """() => {
              const lines = document.querySelector('.summary .scoring');
              const buttons = document.querySelector('.summary .dialog-buttons');
              const reason = document.querySelector('.summary .reason');
              if (!lines) return 'no scoring lines';
              const after = Node.DOCUMENT_POSITION_FOLLOWING;
              const order = lines.compareDocumentPosition(reason) & after;
              const r = lines.getBoundingClientRect();
              return r.top >= 0 && r.bottom <= buttons.getBoundingClientRect().top && order
                ? 'first' : JSON.stringify([r.top, r.bottom, order]);
            }"""
        )
        assert seen == "first", (width, height, seen)
    assert not errors, errors


def test_the_lobby_fits_a_small_phone(browser: Browser, server: Server) -> None:
    page = browser.new_page(viewport={"width": 360, "height": 640})
    page.goto(server.url("/"))
    page.locator("#create-button").wait_for()
    page.check('input[name=players][value="4"]')
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    assert too_small(page, "button, select, .segmented label") == []
    page.close()


def test_the_match_end_buttons_are_on_a_phone_screen(
    phone: BrowserContext, server: Server, shots: Path
) -> None:
    page = phone.new_page()
    errors = watch_errors(page)
    create_table(page, server.url("/"), ["easy"], target=1)
    deadline = time.monotonic() + 150
    while not frame(page)["over"]:
        assert time.monotonic() < deadline
        if wait_for_turn_or_summary(page) == "turn":
            take_turn(page)
        elif not frame(page)["over"]:  # a round that scored nothing
            check_phone_sizes(page, DIALOG_BUTTONS, "summary", shots)
            page.click("#continue-button")
            expect(page.locator(".summary")).to_have_count(0)
    expect(page.locator("#rematch-button")).to_be_visible()
    check_phone_sizes(page, DIALOG_BUTTONS, "match-end", shots)
    for text in ("Rematch", "Download the record", "Back to the lobby", "Close"):
        expect(page.locator(".summary .dialog-buttons", has_text=text)).to_be_visible()
    assert not errors, errors


# -- 4. sounds, titles, numbering -----------------------------------------------------------


def test_the_sound_switch_is_remembered(browser: Browser, server: Server) -> None:
    page = browser.new_page(viewport=DESKTOP)
    errors = watch_errors(page)
    create_table(page, server.url("/"), ["easy"])
    page.evaluate(
        """() => { window.sounds = []; const play = Sound.play;
                   Sound.play = (kind) => { window.sounds.push(kind); return play(kind); }; }"""
    )
    button = page.locator("#sound-button")
    expect(button).to_have_attribute("aria-pressed", "true")
    # A move makes a sound (a tone through Web Audio), as does the turn coming back.
    if wait_for_turn_or_summary(page) == "turn":
        take_turn(page)
    page.wait_for_function("() => window.sounds.length > 0", timeout=15_000)
    button.click()
    expect(button).to_have_attribute("aria-pressed", "false")
    page.reload()
    page.locator("#sound-button").wait_for()
    expect(page.locator("#sound-button")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("() => localStorage.getItem('passing-game:sound')") == "off"
    assert page.evaluate("() => Sound.play('move')") is False
    page.locator("#sound-button").click()
    expect(page.locator("#sound-button")).to_have_attribute("aria-pressed", "true")
    assert not errors, errors
    page.close()


def test_the_hidden_tab_says_it_is_your_turn(browser: Browser, server: Server) -> None:
    page = browser.new_page(viewport=DESKTOP)
    create_table(page, server.url("/"), ["easy"])
    wait_for_turn_or_summary(page)
    page.evaluate(
        """() => { Object.defineProperty(document, 'hidden', { value: true, configurable: true });
                   document.dispatchEvent(new Event('visibilitychange')); }"""
    )
    assert page.title() == "● Your turn · The Passing Game"
    page.evaluate(
        """() => { Object.defineProperty(document, 'hidden', { value: false, configurable: true });
                   document.dispatchEvent(new Event('visibilitychange')); }"""
    )
    assert page.title().endswith("· The Passing Game") and "●" not in page.title()
    page.close()


def test_seats_are_numbered_from_one_and_tiles_written_one_way(
    browser: Browser, server: Server
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(server.url("/"))
    page.locator("#create-button").wait_for()
    page.check('input[name=players][value="4"]')
    numbers = page.locator(".seat-choice .seat-no").all_inner_texts()
    assert numbers == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    expect(page.locator("label.check:has(#f-partnerships)")).to_contain_text("1+3 against 2+4")
    create_table(page, server.url("/"), ["easy", "easy"])
    # The score pad: name and seat as two texts, from 1.
    heads = page.locator(".pad thead th .who")
    expect(heads).to_have_count(3)
    expect(heads.nth(0).locator(".name")).to_have_text("You")
    expect(heads.nth(0).locator(".seat-no")).to_have_text("Seat 1")
    expect(heads.nth(2).locator(".seat-no")).to_have_text("Seat 3")
    # A tile reads "[a|b]" in its label and title, in the hand and on the train.
    tile = page.locator(".hand .domino").first
    label = tile.get_attribute("aria-label") or ""
    assert re.match(r"^\[[0-6]\|[0-6]\](, .+)?$", label), label
    assert re.fullmatch(r"\[[0-6]\|[0-6]\]", tile.get_attribute("title") or "")
    wait_for_turn_or_summary(page)
    take_turn(page)
    train = page.locator(".train .domino").first.get_attribute("aria-label") or ""
    assert re.match(r"^\[[0-6]\|[0-6]\]", train), train
    page.close()


# -- 5. the clock, stand-ins, leaving, resigning, invitations (the frame contract) -----------


def waiting_table(page: Page, url: str) -> str:
    """A table of two waiting for a person. From here on the page reads only the
    frames and messages the test gives it (``inject``, ``tell``), not the server's,
    and the test sees what the page sends (``sent``)."""
    code = create_table(page, url, ["person"])
    spy_on_sends(page)
    # The page reads a socket only while it is S.ws: the real one still sends.
    page.evaluate(
        """() => { const real = S.ws;
                   S.ws = { send: (text) => real.send(text), close: () => real.close() }; }"""
    )
    return code


def tell(page: Page, message: dict[str, Any]) -> None:
    """A message from the server, as the test words it."""
    page.evaluate("(msg) => receive(msg)", message)


def test_a_running_clock_counts_down_on_the_seat(browser: Browser, server: Server) -> None:
    page = browser.new_page(viewport=DESKTOP)
    errors = watch_errors(page)
    waiting_table(page, server.url("/"))
    # No clock in the frame: nothing shows.
    expect(page.locator(".clock")).to_have_count(0)
    clock = {"move": 20, "bank": 60, "seat": 1, "remaining_ms": 23_000,
             "move_ms": 2_500, "banks": [60, 20.5]}  # fmt: skip
    inject(page, clock=clock, round={"to_move": 1})
    running = page.locator('.seat-card[data-seat="1"] .clock.running')
    expect(running).to_be_visible()
    expect(running.locator(".time")).to_have_text(re.compile(r"0:0[23]"))
    expect(running).to_have_attribute("role", "timer")
    expect(running).to_have_attribute("aria-label", re.compile(r"second"))
    # Into the bank after the move's time: another look, then under 10 s another still.
    expect(running).to_have_class(re.compile(r"\bin-bank\b"), timeout=5_000)
    expect(running.locator(".time")).to_have_text(re.compile(r"0:(19|20)"))
    inject(page, clock={**clock, "remaining_ms": 9_000, "move_ms": 0})
    expect(running).to_have_class(re.compile(r"\blow\b"))
    # Our own seat's clock is not running: the move time first, then its bank (P41).
    expect(page.locator('.seat-card[data-seat="0"] .clock.idle .time')).to_have_text("0:20")
    expect(page.locator('.seat-card[data-seat="0"] .clock.idle .bank-left')).to_have_text("+1:00")
    assert not errors, errors
    page.close()


def test_stand_ins_away_seats_and_the_creators_seat_options(
    browser: Browser, server: Server
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    errors = watch_errors(page)
    code = waiting_table(page, server.url("/"))
    inject(page, creator=False, seats=[None, {"kind": "human", "name": "Ben", "away": "left",
                                             "standin": True, "connected": False}])  # fmt: skip
    seat = page.locator('.seat-card[data-seat="1"]')
    expect(seat.locator(".standin-note")).to_have_text("Stand-in bot playing")
    expect(seat).to_have_class(re.compile(r"\bstandin\b"))
    expect(seat.locator(".seat-tools")).to_have_count(0)  # only the creator has them
    # A stand-in's and a clock's moves are marked in the last-move lines.
    inject(page, round={"history": [{"seat": 1, "move": "pass", "auto": "stand-in"},
                                    {"seat": 0, "move": "pass", "auto": "timeout"}]})  # fmt: skip
    expect(seat.locator(".last-move .auto")).to_have_text("(stand-in)")
    expect(page.locator('.seat-card[data-seat="0"] .last-move .auto')).to_have_text("(auto-played)")
    # The creator: an invitation link for the seat, or a bot for the rest of the game.
    inject(page, creator=True, seats=[None, {"away": "offline", "standin": False}])
    seat.locator(".seat-tools").click()
    dialog = page.locator(".seat-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("#invite-button").click()
    assert {"type": "invite", "seat": 1} in sent(page)
    link = f"/t/{code}?invite=abcDEF0123456789xyz"
    tell(page, {"type": "invite", "seat": 1, "link": link})
    expect(dialog.locator("#invite-link")).to_contain_text(f"/t/{code}?invite=abcDEF0123456789xyz")
    expect(dialog.locator("#invite-copy")).to_be_visible()
    dialog.locator("#f-handover-level").select_option("hard")
    dialog.locator("#handover-button").click()
    assert {"type": "hand_over", "seat": 1, "level": "hard"} in sent(page)
    expect(dialog).to_have_count(0)
    assert not errors, errors
    page.close()


def test_a_pass_that_ends_the_round_asks_first(browser: Browser, server: Server) -> None:
    page = browser.new_page(viewport=DESKTOP)
    waiting_table(page, server.url("/"))
    turn = {"legal": ["pass"], "can_pass": True, "can_draw": False, "to_move": 0}
    inject(page, round={**turn, "pass_ends_round": False})
    expect(page.locator("#pass-warning")).to_have_count(0)
    inject(page, round={**turn, "pass_ends_round": True})
    expect(page.locator("#pass-warning")).to_have_text("Passing now ends the round")
    page.click("#pass-button")
    confirm = page.locator(".confirm")
    expect(confirm).to_contain_text("Passing now ends the round")
    page.click("#confirm-no")
    expect(confirm).to_have_count(0)
    assert not [m for m in sent(page) if m["type"] == "pass"]
    page.keyboard.press("p")
    expect(confirm).to_be_visible()
    expect(page.locator("#confirm-yes")).to_have_text("Pass anyway")
    page.click("#confirm-yes")
    assert [m for m in sent(page) if m["type"] == "pass"] == [{"type": "pass"}]
    page.close()


def test_leaving_and_resigning_ask_first(browser: Browser, server: Server) -> None:
    page = browser.new_page(viewport=DESKTOP)
    code = waiting_table(page, server.url("/"))
    expect(page.locator("#resign-button")).to_have_count(0)
    inject(page, can_resign=True)
    page.click("#resign-button")
    expect(page.locator(".confirm")).to_contain_text("Resign the game?")
    page.click("#confirm-yes")
    assert {"type": "resign"} in sent(page)
    # The match end names who resigned.
    inject(page, over=True, winner=0, resigned=1, can_resign=False,
           seats=[None, {"name": "Ben", "kind": "human"}])  # fmt: skip
    expect(page.locator(".summary .resigned")).to_have_text("Ben resigned.")
    page.locator('[data-key="close-summary"]').click()
    inject(page, over=False, winner=None, resigned=None)
    page.click("#leave-button")
    expect(page.locator(".confirm")).to_contain_text("Leave the table?")
    page.click("#confirm-yes")
    assert {"type": "leave"} in sent(page)
    page.locator("#create-button").wait_for()  # back in the lobby
    assert page.url.endswith("/")
    # The seat's token stays: the table's link takes the seat back.
    assert page.evaluate(f"() => localStorage.getItem('passing-game:seat:{code}')")
    page.close()


def test_the_summary_counts_down_to_the_next_round(browser: Browser, server: Server) -> None:
    page = browser.new_page(viewport=DESKTOP)
    waiting_table(page, server.url("/"))
    summary = {"round": 1, "train": [], "reason": "blocked", "reason_text": "Blocked.",
               "hands": [[], []], "pips": [0, 0], "side_pips": [0, 0], "winner": None,
               "points": 0, "points_by_side": [0, 0], "locked": [], "lines": []}  # fmt: skip
    # The table waits for this person: the summary opens by itself (summary_due, P41).
    inject(page, summary=summary, paused=True, summary_ms=37_000, summary_due=True)
    countdown = page.locator(".summary .summary-countdown")
    expect(countdown).to_have_text(re.compile(r"Next round in 3[67] seconds"))
    page.close()


def test_an_invitation_link_opens_the_join_panel(browser: Browser, server: Server) -> None:
    host = browser.new_page(viewport=DESKTOP)
    code = create_table(host, server.url("/"), ["person"])
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(server.url(f"/t/{code}?invite=abcDEF0123456789xyz&seat=2"))
    expect(page.locator("#invited")).to_have_text("You are invited to take seat 2.")
    page.wait_for_function("() => S.wsOpen")
    spy_on_sends(page)
    page.fill("#jp-name", "Ben")
    page.click("#join-button")
    assert {"type": "join", "code": code, "name": "Ben", "invite": "abcDEF0123456789xyz"} in sent(
        page
    )
    # From here the page reads no answer of the server's: the test gives the answer.
    page.evaluate("() => { S.ws = { send() {}, close() {} }; }")
    # The server's answer: the seat's token is kept, the address loses ?invite.
    page.evaluate(
        "(code) => receive({type: 'joined', state: 0, table: code, seat: 1,"
        " link: `/t/${code}`, token: 'tok_0123456789abcdef'})",
        code,
    )
    assert page.url.endswith(f"/t/{code}")
    kept = json.loads(page.evaluate(f"() => localStorage.getItem('passing-game:seat:{code}')"))
    assert kept == {"seat": 1, "token": "tok_0123456789abcdef"}
    context.close()
    host.close()


def test_the_lobby_offers_a_clock(browser: Browser, server: Server) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(server.url("/"))
    page.locator("#create-button").wait_for()
    options = page.locator("#f-clock option")
    assert options.evaluate_all("els => els.map(e => e.value)") == ["none", "20", "45", "90"]
    assert options.all_inner_texts() == [
        "No clock",
        "20 seconds per move",
        "45 seconds per move",
        "90 seconds per move",
    ]
    page.wait_for_function("() => S.wsOpen")
    spy_on_sends(page)
    page.fill("#f-name", "Ana")
    page.select_option("#f-clock", "45")
    page.click("#create-button")
    page.wait_for_function("() => window.sent.length > 0")
    assert sent(page)[0]["clock"] == "45"
    page.close()


# -- 6. screenshots -------------------------------------------------------------------------


def test_screenshots_of_the_table(browser: Browser, server: Server, shots: Path) -> None:
    """The table mid-round, the round summary and the match end, on a desktop and two phones."""
    sizes = [("desktop", 1280, 800), ("phone", 390, 844), ("small-phone", 360, 640)]
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors = watch_errors(page)
    create_table(page, server.url("/"), ["easy", "medium"], target=1)
    for _ in range(4):
        if wait_for_turn_or_summary(page) == "summary":
            break
        take_turn(page)
    wait_for_turn_or_summary(page)

    def snap(name: str) -> None:
        for label, width, height in sizes:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("() => window.scrollTo(0, 0)")
            page.wait_for_timeout(150)
            page.screenshot(path=str(shots / f"play-{name}-{label}.png"))

    snap("mid-round")
    page.set_viewport_size(DESKTOP)
    deadline = time.monotonic() + 150
    while not frame(page)["over"]:
        assert time.monotonic() < deadline
        if wait_for_turn_or_summary(page) == "turn":
            take_turn(page)
        elif not frame(page)["over"]:
            snap("summary")
            page.set_viewport_size(DESKTOP)
            page.click("#continue-button")
    snap("match-end")
    assert not errors, errors
    context.close()


# -- 7. the scripts -------------------------------------------------------------------------


def test_every_text_the_page_scripts_use_is_in_the_catalog() -> None:
    """All of static/*.js, also the files app.js was split into."""
    scripts = {p.name: p.read_text() for p in STATIC.glob("*.js")}
    assert {"app.js", "lobby.js", "dialogs.js", "dom.js", "sound.js"} <= set(scripts)
    text = "\n".join(scripts.values())
    plain = set(re.findall(r'(?<![\w.])t\("((?:[^"\\]|\\.)*)"', text))
    counted = set(re.findall(r'(?<![\w.])nt\("((?:[^"\\]|\\.)*)"', text))
    assert plain <= set(PAGE_TEXTS), plain - set(PAGE_TEXTS)
    assert counted <= set(PAGE_PLURALS), counted - set(PAGE_PLURALS)
    for name, script in scripts.items():
        for banned in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert banned not in script, (name, banned)
    # The page runs app.js, a module, and fetches every other script at once; each
    # one is imported, and each import names a script that is there.
    html = (STATIC / "index.html").read_text()
    assert re.findall(r"<script [^>]*>", html) == ['<script type="module" src="/static/app.js">']
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/([\w.]+)">', html)
    assert sorted([*preloaded, "app.js"]) == sorted(scripts)
    # also a bare `import "./x.js";`
    import_line = re.compile(r'^import (?:.* from )?"\./([\w.]+)";', re.M)
    imported = {name for script in scripts.values() for name in import_line.findall(script)}
    assert imported == set(scripts) - {"app.js"}


# -- 8. with the server's own clocks, stand-ins and invitations ------------------------------


def test_a_clock_a_stand_in_and_an_invitation_with_the_real_server(
    browser: Browser, server: Server, shots: Path
) -> None:
    """Ana plays Ben with a clock; Ben leaves and a stand-in plays his seat; Ana
    invites Carl to it with a link; Carl opens it and sits down."""
    ana_ctx = browser.new_context(viewport=DESKTOP)
    ben_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    carl_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    ana, ben, carl = ana_ctx.new_page(), ben_ctx.new_page(), carl_ctx.new_page()
    errors = watch_errors(ana) + watch_errors(ben) + watch_errors(carl)
    ana.goto(server.url("/"))
    ana.locator("#create-button").wait_for()
    ana.fill("#f-name", "Ana")
    ana.select_option("#f-seat1", "person")
    ana.select_option("#f-clock", "90")
    ana.click("#create-button")
    ana.locator("#table-code").wait_for()
    code = ana.locator("#table-code").inner_text()
    ben.goto(server.url(f"/t/{code}"))
    ben.fill("#jp-name", "Ben")
    ben.click("#join-button")
    for page in (ana, ben):
        page.locator(".hand .domino").first.wait_for()
    # The seat to move has a running clock, on both screens.
    mover = frame(ana)["round"]["to_move"]
    for page in (ana, ben):
        expect(page.locator(f'.seat-card[data-seat="{mover}"] .clock.running .time')).to_have_text(
            re.compile(r"1:[23]\d")
        )
    # Ben leaves: back in his lobby; Ana sees a stand-in bot at his seat.
    ben.click("#menu-button")
    ben.click("#menu-leave-button")
    ben.click("#confirm-yes")
    ben.locator("#create-button").wait_for()
    seat = ana.locator('.seat-card[data-seat="1"]')
    expect(seat.locator(".standin-note")).to_be_visible(timeout=10_000)
    # Ana, who created the table, invites somebody else to the seat.
    seat.locator(".seat-tools").click()
    ana.click("#invite-button")
    link = ana.locator("#invite-link")
    expect(link).to_contain_text(f"/t/{code}?invite=")
    ana.screenshot(path=str(shots / "play-invite-link.png"))
    url = link.inner_text()
    ana.click("#seat-tools-close")
    carl.goto(url)
    expect(carl.locator("#invited")).to_have_text("You are invited to take seat 2.")
    carl.fill("#jp-name", "Carl")
    carl.click("#join-button")
    carl.locator(".hand .domino").first.wait_for()
    assert carl.url.endswith(f"/t/{code}") and frame(carl)["you"] == 1
    expect(seat.locator(".seat-name")).to_have_text("Carl", timeout=10_000)
    expect(seat.locator(".standin-note")).to_have_count(0)
    assert not [e for e in errors if "WebSocket" not in e], errors
    for context in (ana_ctx, ben_ctx, carl_ctx):
        context.close()
