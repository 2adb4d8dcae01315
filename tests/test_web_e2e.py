"""The page in a real browser: Debian's Chromium driven by pytest-playwright.

A real `passing-game serve` runs on 127.0.0.1. One person plays a whole
round against two bots by clicking (a reload in the middle takes the seat
back), and two people play each other from two browser contexts. Set
PASSING_GAME_SCREENSHOTS to a folder to keep screenshots of the table and
of the round summary.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from web_helpers import Server, require_module

# Under CI (PASSING_GAME_REQUIRE_SERVICES=1) a missing browser fails the run.
require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from browser_helpers import frame, watch_errors  # noqa: E402


def wait_for_turn_or_summary(page: Page) -> str:
    """``turn``, ``summary`` or ``waiting`` (another person's turn, after a timeout)."""
    page.wait_for_function(
        "() => document.querySelector('.summary')"
        " || (S.frame && S.wsOpen && S.frame.round.legal.length > 0)",
        timeout=30_000,
    )
    return "summary" if page.locator(".summary").count() else "turn"


def take_turn(page: Page, use_keys: bool = False) -> None:
    """One move by clicking: the first highlighted tile (left end if asked), else draw or pass."""
    before = page.evaluate("() => S.last")
    playable = page.locator(".hand .domino.playable")
    if playable.count():
        playable.first.click()
        if page.locator(".end-choice").count():
            page.locator('.end-choice [data-key="end-left"]').click()
    elif page.locator("#draw-button").is_enabled():
        if use_keys:
            page.locator("#draw-button").focus()
            page.keyboard.press("d")
        else:
            page.locator("#draw-button").click()
    else:
        expect(page.locator("#pass-button")).to_be_enabled()
        page.locator("#pass-button").click()
        if page.locator("#confirm-yes").count():  # a pass that ends the round asks first
            page.locator("#confirm-yes").click()
    page.wait_for_function(f"() => S.last > {before}", timeout=15_000)


def create_table(page: Page, url: str, name: str, players: int, seats: list[str]) -> str:
    page.goto(url)
    page.locator("#create-button").wait_for()
    page.fill("#f-name", name)
    page.check(f'input[name=players][value="{players}"]')
    for seat, choice in enumerate(seats, start=1):
        page.select_option(f"#f-seat{seat}", choice)
    page.click("#create-button")
    page.locator("#table-code").wait_for()
    code = page.locator("#table-code").inner_text()
    assert re.fullmatch(r"[A-Z2-9]{6}", code)
    assert page.url.endswith("/t/" + code)
    return code


def test_a_round_against_bots_by_clicking(browser: Browser, server: Server, shots: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    errors = watch_errors(page)
    create_table(page, server.url("/"), "Ana", 3, ["easy", "medium"])
    expect(page.locator(".seat-card")).to_have_count(3)
    expect(page.locator(".hand .domino")).to_have_count(7)
    # Every tile in the hand is a button with a text label.
    label = page.locator(".hand .domino").first.get_attribute("aria-label")
    assert label and re.match(r"\[[0-6]\|[0-6]\]", label)  # "[3|5], fits the left end"
    moves = 0
    reloaded = False
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if wait_for_turn_or_summary(page) == "summary":
            break
        if moves == 4 and not reloaded:
            page.screenshot(path=str(shots / "table-mid-round.png"))
            hand = frame(page)["round"]["hand"]
            history = len(frame(page)["round"]["history"])
            page.reload()
            page.locator(".hand").wait_for()
            page.wait_for_function("() => S.frame && S.frame.you === 0")
            again = frame(page)
            assert again["round"]["hand"] == hand  # the seat is taken back
            assert len(again["round"]["history"]) == history
            reloaded = True
            continue
        if moves == 1:
            # The hint names a legal move and marks it.
            page.click("#hint-button")
            expect(page.locator(".hint-text")).to_be_visible(timeout=15_000)
        take_turn(page, use_keys=moves % 2 == 1)
        moves += 1
    summary = page.locator(".summary")
    expect(summary).to_be_visible()
    assert reloaded and moves >= 1
    # Every hand revealed, the locked tiles shown, and the scoring explained.
    expect(summary.locator(".reveal")).to_have_count(3)
    expect(summary.locator(".scoring p").first).to_be_visible()
    expect(summary.locator(".locked-line .domino")).to_have_count(2)
    page.screenshot(path=str(shots / "round-summary.png"))
    # The log and the score pad are there behind it.
    data = frame(page)
    assert data["summary"]["round"] == 1 and len(data["pad"]) == 1
    page.click("#continue-button")
    expect(page.locator(".summary")).to_have_count(0)
    page.wait_for_function("() => S.frame && !S.frame.paused")
    assert not errors, errors
    page.close()


def test_phone_sized_screen(browser: Browser, server: Server, shots: Path) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, reduced_motion="reduce"
    )
    page = context.new_page()
    errors = watch_errors(page)
    create_table(page, server.url("/"), "Lu", 4, ["easy", "easy", "easy"])
    page.locator(".hand .domino").first.wait_for()
    for _ in range(3):
        if wait_for_turn_or_summary(page) == "summary":
            break
        take_turn(page)
    # Nothing is wider than the screen.
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390 + 1
    page.screenshot(path=str(shots / "table-phone.png"), full_page=True)
    # On to the round's end: the summary fits the screen too.
    deadline = time.monotonic() + 120
    while wait_for_turn_or_summary(page) != "summary" and time.monotonic() < deadline:
        take_turn(page)
    expect(page.locator(".summary")).to_be_visible()
    expect(page.locator(".summary .reveal")).to_have_count(4)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390 + 1
    page.screenshot(path=str(shots / "round-summary-phone.png"))
    assert not errors, errors
    context.close()


def test_two_people_at_one_table(browser: Browser, server: Server, shots: Path) -> None:
    ana_ctx, ben_ctx = browser.new_context(), browser.new_context()
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    errors = watch_errors(ana) + watch_errors(ben)
    code = create_table(ana, server.url("/"), "Ana", 2, ["person"])
    expect(ana.locator(".big-code")).to_have_text(code)
    # Ben follows the link, gives a name that tries to be HTML, and joins.
    ben.goto(server.url(f"/t/{code}"))
    sneaky = '<img src=x onerror="window.owned=1">'
    ben.fill("#jp-name", sneaky)
    ben.click("#join-button")
    ben.locator(".hand .domino").first.wait_for()
    ana.locator(".hand .domino").first.wait_for()
    expect(ana.locator(".seat-card .seat-name", has_text="<img")).to_have_count(1)
    assert ana.locator(".seat-card img").count() == 0
    assert not ana.evaluate("() => window.owned") and not ben.evaluate("() => window.owned")
    pages = {0: ana, 1: ben}
    for _ in range(12):
        states = {seat: frame(p) for seat, p in pages.items()}
        a_hand = set(states[0]["round"]["hand"])
        b_hand = set(states[1]["round"]["hand"])
        assert a_hand and b_hand and not a_hand & b_hand
        if states[0]["summary"] or states[0]["over"]:
            break
        mover = states[0]["round"]["to_move"]
        page = pages[mover]
        page.wait_for_function("() => S.frame.round.legal.length > 0", timeout=10_000)
        other = pages[1 - mover]
        before = other.evaluate("() => S.last")
        take_turn(page)
        other.wait_for_function(f"() => S.last > {before}", timeout=10_000)
    # Each sees the other online, and the other's tiles only as backs.
    expect(ana.locator(".felt .place .seat-card .dot.on")).to_have_count(1)
    assert ana.locator(".place.across .backs .domino.back").count() == len(
        frame(ben)["round"]["hand"]
    )
    ben.screenshot(path=str(shots / "two-people.png"))
    # Ben loses the connection: Ana sees him offline; he comes back to his seat.
    ben_ctx.set_offline(True)
    ben.evaluate("() => S.ws.close()")
    expect(ana.locator(".felt .place .seat-card .dot.off")).to_have_count(1, timeout=10_000)
    ben_ctx.set_offline(False)
    expect(ana.locator(".felt .place .seat-card .dot.on")).to_have_count(1, timeout=20_000)
    ben.wait_for_function("() => S.wsOpen && S.frame && S.frame.you === 1", timeout=20_000)
    assert not [e for e in errors if "WebSocket" not in e], errors
    ana_ctx.close()
    ben_ctx.close()


def test_the_lobby_offers_every_variant_level_and_target(
    browser: Browser, server: Server, shots: Path
) -> None:
    """Lobby: 2-4 seats, partnerships, every rules variant (D1, D2, D4, D5, D10), a
    target or a target preset, and seats for people or bots of every level."""
    page = browser.new_page(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    errors = watch_errors(page)
    page.goto(server.url("/"))
    page.locator("#create-button").wait_for()
    page.fill("#f-name", "Ana")
    page.check('input[name=players][value="4"]')
    page.check("#f-partnerships")
    levels = page.locator("#f-seat1 option").evaluate_all("els => els.map(e => e.value)")
    assert levels[0] == "person"
    assert {"easy", "medium", "hard", "expert"} <= set(levels)
    page.click(".rules-box summary")
    for name, value in [
        ("draw", "continue"),
        ("passing", "forced"),
        ("scoring", "pairwise"),
        ("leader", "rotate"),
    ]:
        values = page.locator(f"#f-{name} option").evaluate_all("els => els.map(e => e.value)")
        assert value in values and len(values) >= 2
        page.select_option(f"#f-{name}", value)
    page.select_option("#f-target_preset", "alternate")
    expect(page.locator(".rules-box")).to_have_attribute("open", "")  # stays open
    expect(page.locator("#f-target")).to_have_attribute("placeholder", "101")  # D10, teams
    page.screenshot(path=str(shots / "lobby.png"), full_page=True)
    for seat, level in enumerate(["easy", "medium", "easy"], start=1):
        page.select_option(f"#f-seat{seat}", level)
    page.click("#create-button")
    page.locator("#table-code").wait_for()
    page.wait_for_function("() => S.frame && S.frame.you === 0")
    rules = frame(page)["rules"]
    assert rules["players"] == 4 and rules["partnerships"] is True
    assert (rules["draw"], rules["passing"], rules["scoring"], rules["leader"]) == (
        "continue",
        "forced",
        "pairwise",
        "rotate",
    )
    assert rules["target"] == 101
    expect(page.locator(".seat-card .team").first).to_be_visible()
    # A chosen target wins over the preset.
    page.goto(server.url("/"))
    page.locator("#create-button").wait_for()
    page.click(".rules-box summary")
    page.fill("#f-target", "37")
    page.click("#create-button")
    page.locator("#table-code").wait_for()
    page.wait_for_function("() => S.frame && S.frame.you === 0")
    assert frame(page)["rules"]["target"] == 37
    assert not errors, errors
    page.close()


def test_a_move_with_the_keyboard_only(browser: Browser, server: Server) -> None:
    """Tiles are buttons: arrows move along the hand, Enter plays, D draws, P passes."""
    page = browser.new_page(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    errors = watch_errors(page)
    create_table(page, server.url("/"), "Kim", 2, ["easy"])
    for _ in range(3):
        if wait_for_turn_or_summary(page) == "summary":
            break
        data = frame(page)
        before = data["state"]
        history = len(data["round"]["history"])
        playable = {m[1:] for m in data["round"]["legal"] if m[:1] in ("L", "R")}
        if playable:
            page.locator(".hand .domino").first.focus()
            for _step in range(len(data["round"]["hand"])):
                tile = page.evaluate("() => document.activeElement.dataset.tile")
                if tile in playable:
                    break
                page.keyboard.press("ArrowRight")
            assert tile in playable, (tile, playable, data["round"]["hand"])
            page.keyboard.press("Enter")
            if page.locator(".end-choice").count():
                page.keyboard.press("Enter")  # the first end button has the focus
        elif data["round"]["can_draw"]:
            page.keyboard.press("d")
        else:
            page.keyboard.press("p")
        page.wait_for_function(f"() => S.frame.state > {before}", timeout=15_000)
        page.wait_for_function(
            f"() => S.frame.round.history.length > {history} || S.frame.round.number > 1"
        )
    assert not errors, errors
    page.close()


def test_a_spectator_watches_by_code(browser: Browser, server: Server) -> None:
    """Watch from the lobby with the table's code: the table, but no hand at all."""
    host = browser.new_page()
    code = create_table(host, server.url("/"), "Ana", 3, ["easy", "easy"])
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server.url("/"))
    page.fill("#j-code", code.lower())
    page.click("#watch-button")
    page.wait_for_function("() => S.frame && S.frame.spectator")
    expect(page.locator(".train, .empty-train").first).to_be_visible()
    assert frame(page)["round"]["hand"] == []
    assert page.locator(".hand .domino").count() == 0
    ctx.close()
    host.close()


def test_a_client_that_misses_a_frame_resyncs(browser: Browser, server: Server) -> None:
    """The state counter: a page that sees it jump asks for the whole state (sync)."""
    page = browser.new_page()
    errors = watch_errors(page)
    create_table(page, server.url("/"), "Ana", 2, ["easy"])
    while wait_for_turn_or_summary(page) == "turn" and page.evaluate("() => S.last") < 3:
        take_turn(page)
    assert page.evaluate("() => S.last") >= 3
    page.evaluate(
        """() => {
            window.sent = [];
            const ws = S.ws, send = ws.send.bind(ws);
            ws.send = (text) => { window.sent.push(JSON.parse(text).type); send(text); };
            S.last -= 2;  // as if two frames had been lost on the way
        }"""
    )
    page.evaluate("() => send({type: 'hint'})")  # any answer carries the counter
    page.wait_for_function("() => window.sent.includes('sync')", timeout=15_000)
    state = frame(page)["state"]
    page.wait_for_function(f"() => S.last >= {state}")
    assert not errors, errors
    page.close()


def test_game_over_and_rematch(browser: Browser, server: Server) -> None:
    """A game to a target of 1 ends with its first round: the summary offers a
    rematch, which starts game 2 at the same table with the same seats."""
    page = browser.new_page(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    errors = watch_errors(page)
    page.goto(server.url("/"))
    page.locator("#create-button").wait_for()
    page.fill("#f-name", "Ana")
    page.check('input[name=players][value="2"]')
    page.select_option("#f-seat1", "easy")
    page.click(".rules-box summary")
    page.fill("#f-target", "1")
    page.click("#create-button")
    page.locator("#table-code").wait_for()
    deadline = time.monotonic() + 120
    while not frame(page)["over"] and time.monotonic() < deadline:
        if wait_for_turn_or_summary(page) == "turn":
            take_turn(page)
        elif not frame(page)["over"]:  # a round that scored nothing (a tie)
            page.click("#continue-button")
            expect(page.locator(".summary")).to_have_count(0)
    assert frame(page)["over"]
    expect(page.locator("#rematch-button")).to_be_visible()
    page.click("#rematch-button")
    page.wait_for_function("() => S.frame.game === 2 && !S.frame.over", timeout=15_000)
    expect(page.locator(".summary")).to_have_count(0)
    expect(page.locator(".hand .domino")).to_have_count(7)
    assert not errors, errors
    page.close()
