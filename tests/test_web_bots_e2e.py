"""A person plays a bot account on the site, in Chromium (issue 28, item 4; P62).

At a desktop (1280x800) and on a phone (390x844) a person signs up, makes a
bot account from the account's "My bots" (its token shown once, then gone),
and runs the Node example bot (examples/bots/greedy_bot.js) with it through
``passing-game bot connect``, the token in a file. "My bots" says it is
connected; the person challenges it from the Friends card, the bot accepts,
the page goes to the table, and the person plays the whole game by clicking,
the bot's seat marked as a bot's. The bot's profile says whose it is. The
screenshots go where PASSING_GAME_SCREENSHOTS says.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from browser_helpers import open_account, play_to_the_end, scroll_to, sign_up, watch_errors
from web_helpers import Server, service_missing

ROOT = Path(__file__).parent.parent
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def no_sideways_overflow(page: Page) -> None:
    wide = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert wide <= 0, f"{wide}px sideways"


def open_my_bots(page: Page) -> None:
    open_account(page)
    page.click("#acc-bots")
    page.locator("#account-title", has_text="My bots").wait_for()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_a_person_challenges_the_node_bot_and_plays_it_to_the_end(
    browser: Browser, server: Server, shots: Path, tmp_path: Path, size: str
) -> None:
    if shutil.which("node") is None:
        service_missing("Node is not installed: the example bot is Node's")
    page = browser.new_context(viewport=VIEWPORTS[size]).new_page()
    errors = watch_errors(page)
    page.goto(server.url("/"))
    page.locator("#create-button").wait_for()
    person, bot = f"Ines {size}", f"Greedy {size}"
    sign_up(page, person)

    # "My bots": a bot account, its token shown once.
    open_my_bots(page)
    expect(page.locator("#no-bots")).to_be_visible()
    page.fill("#bot-name", bot)
    page.click("#bot-make")
    token_box = page.locator("#bot-token")
    expect(token_box).to_be_visible(timeout=10_000)
    token = token_box.input_value()
    assert token.startswith("pgbot_")
    expect(page.locator("#bot-token-box")).to_contain_text("shown only now")
    no_sideways_overflow(page)
    page.screenshot(path=str(shots / f"bots-token-{size}.png"))
    page.click("#bot-token-kept")
    expect(page.locator("#bot-token")).to_have_count(0)
    expect(page.locator(f'.bot-row[data-bot="{bot}"]')).to_contain_text("Not connected")
    assert token not in page.content()  # gone from the page once kept

    # The Node example bot, through the bridge; the token in a file only its owner reads.
    token_file = tmp_path / "bot.token"
    token_file.write_text(token)
    token_file.chmod(0o600)
    log = tmp_path / "bridge.log"
    program = f"cmd:node {ROOT / 'examples/bots/greedy_bot.js'}"
    with log.open("w") as out:
        bridge = subprocess.Popen(
            [sys.executable, "-m", "passing_game", "bot", "connect", server.url(""), program,
             "--token-file", str(token_file), "--once"],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while "connected as" not in log.read_text():
            assert bridge.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        page.click("#account-close")
        open_my_bots(page)
        expect(page.locator(f'.bot-row[data-bot="{bot}"]')).to_contain_text("Connected")
        page.screenshot(path=str(shots / f"bots-list-{size}.png"))
        page.click("#account-close")

        # The challenge, from the Friends card; the bot accepts, the page goes to the table.
        scroll_to(page, "#social-name")
        page.fill("#social-name", bot)
        page.click("#social-follow")
        friend = page.locator("#friends .friend", has=page.locator("strong", has_text=bot))
        expect(friend.locator(".bot-mark")).to_be_visible(timeout=10_000)
        expect(friend).to_contain_text("Online", timeout=15_000)
        page.click("#social-open-challenge")
        expect(page.locator("#social-challenge-name")).to_have_value(bot)
        page.click("#social-send")
        page.wait_for_function("() => S.frame && S.live && S.frame.started", timeout=30_000)
        frame = page.evaluate("() => S.frame")
        assert [s["name"] for s in frame["seats"]] == [person, bot]
        assert frame["seats"][1]["bot_account"] and frame["clock"]["move"] == 45
        expect(page.locator('.seat-card[data-seat="1"] .bot-mark')).to_be_visible()
        no_sideways_overflow(page)
        page.screenshot(path=str(shots / f"bots-table-{size}.png"))

        play_to_the_end(page)
        final = page.evaluate("() => S.frame")
        assert final["over"] and not final["seats"][1]["standin"]
        history = [t for t in final["round"]["history"] if t["seat"] == 1]
        assert history and all(t.get("auto") is None for t in history)  # the bot's own moves
        page.screenshot(path=str(shots / f"bots-over-{size}.png"))
        deadline = time.monotonic() + 30
        while "game over at table" not in log.read_text():
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
    finally:
        if bridge.poll() is None:
            bridge.terminate()
            bridge.wait(timeout=10)
    said = log.read_text()
    assert "replaced by the first legal move" not in said and token not in said

    # The bot's profile says whose it is.
    page.goto(server.url("/u/" + bot))
    expect(page.locator("#profile-bot")).to_have_text(f"Bot account run by {person}")
    expect(page.locator("h1 .bot-mark")).to_be_visible()
    no_sideways_overflow(page)
    page.screenshot(path=str(shots / f"bots-profile-{size}.png"))
    assert not [e for e in errors if "Failed to load resource" not in e], errors
