"""Ratings a person can read (issue 24, item 9), in Chromium against the real server.

Ana is new; Ben's rating has settled over forty games (his row put in the
store before the match, as forty games would have left it). They play a
rated two-player match to 1 point, Ana on a desktop screen and Ben on a
phone. At the end each screen says every change in words: a first game's
change says that first games move a rating more (Ana's own line in the
second person), a settled one says whether the result was better or worse
than the ratings expected, and "How ratings work" opens the help. The
leaderboard shows the help, how many games each rating rests on (Ana's
"still settling"), and the signed-in player's count in a counted sentence.
At 1280×800, 390×844 and 360×640, with screenshots.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from web_helpers import Server, free_port, require_module

require_module("starlette")
require_module("playwright")
require_module("openskill")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from browser_helpers import (  # noqa: E402
    frame,
    open_account,
    play_until_over,
    rated_table,
    scroll_to,
    sign_up,
    watch_errors,
)
from passing_game.web.ratings.model import SETTLED_SIGMA, display  # noqa: E402

#: Ben's settled rating: forty games in, sure enough that a game moves it less.
BEN_MU, BEN_SIGMA, BEN_GAMES = 30.0, 4.0, 40


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("ratings") / "data" / "ratings.sqlite3"


@pytest.fixture(scope="module")
def site(db: Path) -> Iterator[Server]:
    work = db.parent.parent
    running = Server(
        db,
        free_port(),
        work,
        bot_delay=0.05,
        extra=("--summary-wait", "3"),
    )
    yield running
    running.stop()


def settle(db: Path, name: str) -> None:
    """Ben's rating as forty games would have left it (the server reads it when rating)."""
    with sqlite3.connect(db, timeout=10) as conn:
        (user,) = conn.execute("SELECT id FROM web_users WHERE name = ?", (name,)).fetchone()
        conn.execute(
            "INSERT INTO web_ratings (user_id, pool, mu, sigma, games, updated)"
            " VALUES (?, '2', ?, ?, ?, ?)",
            (user, BEN_MU, BEN_SIGMA, BEN_GAMES, time.time()),
        )


def change_line(page: Page, seat: int) -> str:
    return page.locator(f'#rating-changes .rating-change[data-seat="{seat}"] .why').inner_text()


def test_rating_changes_in_words_and_the_games_behind_each_rating(
    browser: Browser, site: Server, db: Path, shots: Path
) -> None:
    assert BEN_SIGMA < SETTLED_SIGMA
    ana_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ben_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    ana_errors, ben_errors = watch_errors(ana), watch_errors(ben)

    code = rated_table(ana, site.url("/"), "Ana")

    ben.goto(site.url(f"/t/{code}"))
    ben.locator("#join-button").wait_for()
    sign_up(ben, "Ben")
    settle(db, "Ben")
    ben.fill("#jp-name", "Ben")
    ben.click("#join-button")
    ben.locator(".hand .domino").first.wait_for()

    play_until_over([ana, ben])
    for page in (ana, ben):
        page.wait_for_function("() => S.frame && S.frame.over && S.frame.ratings", timeout=15_000)
    changes = {c["seat"]: c for c in frame(ana)["ratings"]}
    ana_change, ben_change = changes[0], changes[1]
    assert ana_change["before"] == 1000 and ana_change["settling"] is True
    assert ben_change["before"] == display(BEN_MU, BEN_SIGMA) and ben_change["settling"] is False

    def signed(n: int) -> str:
        return f"+{n}" if n > 0 else str(n)

    # Ana's own first game, in the second person; Ben's settled rating, by the result.
    ben_why = (
        "a better result than the ratings expected"
        if ben_change["delta"] > 0
        else "a worse result than the ratings expected"
    )
    expect(ana.locator("#rating-changes .rating-change")).to_have_count(2)
    assert change_line(ana, 0) == (
        f"{signed(ana_change['delta'])}: your first games move your rating more"
    )
    assert change_line(ana, 1) == f"{signed(ben_change['delta'])}: {ben_why}"
    # On Ben's screen, Ana's first game is said of a rating, not of "your".
    assert change_line(ben, 0) == f"{signed(ana_change['delta'])}: first games move a rating more"
    assert change_line(ben, 1) == f"{signed(ben_change['delta'])}: {ben_why}"
    for page in (ana, ben):
        row = page.locator('#rating-changes .rating-change[data-seat="0"]')
        expect(row.locator(".values")).to_have_text(f"1000 → {ana_change['after']}")
        # The help, folded: what the rating is, why first games move it more, what is shown.
        help_box = page.locator("#rating-help")
        expect(help_box.locator("p").first).not_to_be_visible()
        help_box.locator("summary").click()
        expect(help_box).to_contain_text("Everyone starts at 1000.")
        expect(help_box).to_contain_text("your first games move your rating more")
        expect(help_box).to_contain_text("The number shown is a careful guess")
        assert "sure" not in page.locator("#rating-changes").inner_text()
    ana.screenshot(path=str(shots / "web-rating-words-1280.png"))
    scroll_to(ben, "#rating-changes")
    ben.screenshot(path=str(shots / "web-rating-words-390.png"))
    ana.set_viewport_size({"width": 360, "height": 640})
    scroll_to(ana, "#rating-changes")
    ana.screenshot(path=str(shots / "web-rating-words-360.png"))
    ana.set_viewport_size({"width": 1280, "height": 800})

    # The leaderboard: each rating with the games it rests on, and the reader's own count.
    ana_games = {"Ana": 1, "Ben": BEN_GAMES + 1}
    for page, me, width in ((ana, "Ana", 1280), (ben, "Ben", 390)):
        page.locator('[data-key="close-summary"]').click()
        if page.locator("#menu-button:visible").count():  # the phone's table menu
            page.click("#menu-button")
        open_account(page)
        page.click("#acc-leaders")
        rows = page.locator("#leaderboard tbody tr")
        expect(rows).to_have_count(2)
        for index in range(2):
            row = rows.nth(index)
            name = row.locator("td").nth(1).inner_text()
            expect(row.locator("td.games")).to_have_text(str(ana_games[name]))
            mark = row.locator(".settling-mark")
            expect(mark).to_have_count(1 if name == "Ana" else 0)
        note = page.locator("#games-note")
        expect(note).to_contain_text("how many rated games each rating rests on")
        expect(page.locator("#leaders-help")).to_contain_text("Everyone starts at 1000.")
        count = ana_games[me]
        expect(page.locator("#my-games-count")).to_have_text(
            f"Your rating here rests on {count} game{'s' if count != 1 else ''}."
        )
        page.screenshot(path=str(shots / f"web-leaderboard-{width}.png"))
    ana.set_viewport_size({"width": 360, "height": 640})
    expect(ana.locator("#leaderboard")).to_be_visible()
    width = ana.evaluate("() => document.querySelector('#account-dialog').scrollWidth")
    assert width <= 360, width
    ana.screenshot(path=str(shots / "web-leaderboard-360.png"))
    assert not ana_errors and not ben_errors, ana_errors + ben_errors
    for context in (ana_ctx, ben_ctx):
        context.close()
