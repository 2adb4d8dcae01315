"""Practice from an analysed decision, in Chromium against the real server (issue 25,
item 3: "from a replay or an analysis, 'play on from here' against a chosen bot, the
hidden tiles as they were or dealt again").

A game is played to its end against the Beginner, drawing and passing when allowed
(a costly habit, so the analysis marks mistakes); its replay is opened from the
summary and seat 1's decisions are analysed. On a desktop screen the board stays in
view beside the list scrolled far down, and "Show" moves it to a decision without
scrolling the list away. There the costliest
decision's own button in the analysis's list, on a phone its point on the graph and
then the button under the board's key, open "Play on from before this move" for the
position where the decision was taken, before its move: the practice table shows
that position (the same hand, train and counts, seat 1 to move). The hidden tiles
are chosen "As they were"; the practice round is played to its end, and its record
holds the source round's very deal (every hand and the boneyard's order) and the
same moves up to the decision. PASSING_GAME_SCREENSHOTS keeps ``decision-*.png``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from browser_helpers import (  # noqa: E402
    analysed_game,
    outside_viewport,
    take_turn,
    wait_for_turn_or_summary,
    watch_errors,
)

SCREENS = {"desktop": (1280, 800), "phone": (390, 844)}


def record(page: Page, code: str, game: int) -> Any:
    """A table's game record, as "Download the record" gives it."""
    text = page.evaluate(
        "async (url) => (await fetch(url)).text()", f"/api/tables/{code}/record?game={game}"
    )
    return json.loads(text)


@pytest.mark.parametrize("screen", list(SCREENS))
def test_play_on_from_before_an_analysed_decision_with_the_hidden_tiles_as_they_were(
    browser: Browser, server: Server, shots: Path, screen: str
) -> None:
    width, height = SCREENS[screen]
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = watch_errors(page)
    code, game = analysed_game(page, server.url("/"))
    analysis = page.evaluate("() => Replay.state.analyses[0].analysis")
    assert analysis["seat"] == 0 and analysis["costliest"], "the analysis marked nothing"
    row = analysis["costliest"][0]
    assert row["mark"] in ("mistake", "blunder")
    steps = page.evaluate("() => Replay.state.data.steps")
    before = steps[row["step"]]  # the position where the decision was taken
    assert before["to_move"] == 0 and before["round"] == row["round"]
    assert steps[row["step"] + 1]["index"] == row["index"]  # the next step is its move

    opener = f"#practice-{row['round']}-{row['index']}"
    if screen == "desktop":
        # Beside the list, far down, the board stays in view; "Show" moves it to the
        # decision without scrolling the list away.
        last = analysis["costliest"][-1]
        show = page.locator(f'[data-key="show-{last["round"]}-{last["index"]}"]')
        show.scroll_into_view_if_needed()
        scrolled = page.evaluate("() => scrollY")
        assert scrolled > 0, "the list fits the screen: nothing to keep in view"
        assert outside_viewport(page, "#replay-board") == []
        show.click()
        expect(page.locator("#replay-slider")).to_have_value(str(last["step"] + 1))
        assert page.evaluate("() => scrollY") == scrolled
        assert outside_viewport(page, "#replay-board") == []
        page.screenshot(path=str(shots / f"decision-show-{screen}.png"))
    if screen == "desktop":  # the analysis's list: the decision's own button
        button = page.locator(opener)
        button.scroll_into_view_if_needed()
        expect(button).to_have_text("Play on from before this move")
        page.screenshot(path=str(shots / f"decision-list-{screen}.png"))
        button.click()
    else:  # the graph: the decision's point shows it; the board's key has the button
        point = page.locator(f'[data-key="ev-{row["step"]}"] .ev-dot')  # the dot tapped
        point.scroll_into_view_if_needed()
        point.click()
        expect(page.locator("#replay-slider")).to_have_value(str(row["step"] + 1))
        marks = page.locator("#replay-marks")
        expect(marks).to_be_visible()
        expect(marks.locator("#practice-marks")).to_be_visible()
        marks.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"decision-marks-{screen}.png"))
        marks.locator("#practice-marks").click()
    dialog = page.locator(".practice-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#practice-title")).to_have_text("Play on from before this move")
    expect(page.locator("#practice-where")).to_have_text(
        f"Round {row['round']}, before move {row['index']}: "
        f"{page.evaluate('() => Replay.state.data.names[0]')} to move."
    )
    expect(dialog.locator('input[name="practice-seat"]')).to_have_count(0)  # the analysed seat
    dialog.locator("label", has_text="Beginner").click()
    dialog.locator("label", has_text="As they were").click()
    expect(page.locator("#practice-hidden-about")).to_contain_text("what they held in the game")
    assert outside_viewport(page, ".practice-dialog button") == []
    page.screenshot(path=str(shots / f"decision-dialog-{screen}.png"))
    page.locator("#practice-start").click()

    # The practice table's first position is the decision's: seat 1 to move, its hand,
    # the train, every seat's tile count and the boneyard as the replay showed them.
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => S.frame && S.live && S.frame.practice && S.frame.round")
    frame = page.evaluate("() => S.frame")
    assert frame["you"] == 0
    assert frame["round"]["to_move"] == 0
    assert frame["round"]["hand"] == before["hands"][0]
    assert frame["round"]["train"] == before["train"]
    assert frame["round"]["boneyard"] == before["boneyard"]
    assert [s["tiles"] for s in frame["seats"]] == [len(h) for h in before["hands"]]
    assert [s["kind"] for s in frame["seats"]] == ["human", "bot"]
    assert frame["seats"][1]["level"] == "easy"
    expect(page.locator("#practice-note")).to_be_visible()
    page.screenshot(path=str(shots / f"decision-table-{screen}.png"))

    # Played on to the end of the round against the Beginner.
    for _ in range(200):
        if page.evaluate("() => S.frame.over") or wait_for_turn_or_summary(page) == "summary":
            break
        take_turn(page)
    page.wait_for_function("() => S.frame.over")
    expect(page.locator("#summary-title")).to_contain_text("practice round is over")

    # "As they were": the practice round's record holds the source round's own deal,
    # so every hidden tile (the other hand, the boneyard and its order) is the game's,
    # and the same moves up to the decision; after it, the round was played anew.
    practice_code = page.evaluate("() => S.frame.table")
    practiced = record(page, practice_code, page.evaluate("() => S.frame.game"))
    source = record(page, code, game)
    assert practiced["practice"] is True and len(practiced["rounds"]) == 1
    played, original = practiced["rounds"][0], source["rounds"][row["round"] - 1]
    assert played["deal"] == original["deal"]
    assert played["locked"] == original["locked"]
    earlier = row["index"] - 1  # the moves before the decision
    assert played["moves"][:earlier] == original["moves"][:earlier]
    assert len(played["moves"]) > earlier and played["result"] is not None
    assert errors == []
    page.close()
