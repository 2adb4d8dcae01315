"""Practice from a replay's position in Chromium against the real server (issue 25,
item 3), on a desktop and a phone screen.

A game is played to its end at a table; its replay is opened from the
summary, shown from seat 1's view and stepped back to a position in the middle
of a round; "Play on from here" asks for the computer's level and how the
hidden tiles are dealt ("Dealt again"); the practice table shows that very
position (the hand, the train, the counts) marked as practice, and the round is
played on to its end against the bot; the summary leads back to the replay (desktop)
or plays the same position again at a new table (phone).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Page, expect  # noqa: E402

from browser_helpers import (  # noqa: E402
    create_table,
    outside_viewport,
    play_to_the_end,
    take_turn,
    wait_for_turn_or_summary,
    watch_errors,
)

SCREENS = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 390, "height": 844},
    "small": {"width": 360, "height": 640},
}


@pytest.mark.parametrize("screen", list(SCREENS))
def test_play_on_from_a_replays_position_to_the_end_of_the_round(
    page: Page, server: Server, shots: Path, screen: str
) -> None:
    errors = watch_errors(page)
    page.set_viewport_size(SCREENS[screen])
    code = create_table(page, server.url("/"), ["easy"], target=10)
    play_to_the_end(page)
    game = page.evaluate("() => S.frame.game")
    page.locator("#replay-link").click()
    page.wait_for_url(f"**/replay/{code}/{game}**")
    page.locator("#replay-slider").wait_for()
    page.select_option("#replay-seat", "0")  # seat 1's view: the person's own

    # Back from the end to a position some moves into the last round, seat 1 to move.
    steps = page.evaluate("() => Replay.state.data.steps")
    going = [i for i, s in enumerate(steps) if s["index"] >= 2 and "summary" not in s]
    target = max(i for i in going if steps[i]["to_move"] == 0)
    page.locator("body").click(position={"x": 2, "y": 2})
    page.keyboard.press("End")
    expect(page.locator("#practice-button")).to_be_disabled()
    for _ in range(len(steps) - 1 - target):
        page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-slider")).to_have_value(str(target))
    shown = steps[target]
    expect(page.locator("#practice-button")).to_be_enabled()

    page.screenshot(path=str(shots / f"practice-replay-{screen}.png"))
    page.locator("#practice-button").click()
    dialog = page.locator(".practice-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("label", has_text="Beginner").click()
    dialog.locator("label", has_text="Dealt again").click()
    expect(page.locator("#practice-hidden-about")).to_contain_text("shuffled again")
    assert outside_viewport(page, ".practice-dialog button") == []
    page.screenshot(path=str(shots / f"practice-dialog-{screen}.png"))
    page.locator("#practice-start").click()

    # The practice table: the replay's position, from seat 1's chair.
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => S.frame && S.live && S.frame.practice")
    frame = page.evaluate("() => S.frame")
    assert frame["you"] == 0
    assert frame["round"]["hand"] == shown["hands"][0]
    assert frame["round"]["train"] == shown["train"]
    assert frame["round"]["boneyard"] == shown["boneyard"]
    assert [s["tiles"] for s in frame["seats"]] == [len(h) for h in shown["hands"]]
    assert [s["kind"] for s in frame["seats"]] == ["human", "bot"]
    expect(page.locator("#practice-note")).to_be_visible()
    expect(page.locator(".pad caption")).to_have_text("Practice round")
    page.screenshot(path=str(shots / f"practice-table-{screen}.png"), full_page=screen == "desktop")

    # Played on to the end of the round against the bot.
    for _ in range(200):
        if page.evaluate("() => S.frame.over"):
            break
        if wait_for_turn_or_summary(page) == "summary":
            break
        take_turn(page)
    page.wait_for_function("() => S.frame.over")
    summary = page.locator(".summary")
    expect(summary).to_be_visible()
    expect(page.locator("#summary-title")).to_contain_text("practice round is over")
    expect(page.locator("#rematch-button")).to_have_count(0)
    expect(page.locator("#practice-back")).to_be_visible()
    expect(page.locator("#practice-again")).to_be_visible()
    page.screenshot(path=str(shots / f"practice-summary-{screen}.png"))
    if screen == "phone":  # "Play it again": the same position at a new table
        first = page.evaluate("() => S.frame.table")
        page.locator("#practice-again").click()
        page.wait_for_function(
            f"() => S.frame && S.live && S.frame.practice && S.frame.table !== {first!r}"
        )
        again = page.evaluate("() => S.frame")
        assert again["round"]["hand"] == shown["hands"][0]
        assert again["round"]["train"] == shown["train"]
        assert again["you"] == 0 and errors == []
        return
    page.locator("#practice-back").click()
    page.wait_for_url(f"**/replay/{code}/{game}?seat=1&step={target}")
    page.locator("#replay-slider").wait_for()
    expect(page.locator("#replay-slider")).to_have_value(str(target))
    assert errors == []
