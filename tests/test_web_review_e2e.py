"""Replay and analysis in Chromium against the real server (issue 13, items 6 and 7).

- a game played to its end at a table opens in the replay from the round
  summary; the → key steps it to its end, which shows the final score; a
  seat's view hides the other hands, and the link keeps the seat and step;
- a downloaded record with a deliberate blunder (the heaviest tile kept
  back) is opened on the page, analysed, and the blunder is marked;
- a record of a game played by the expert's own choices shows no blunder.
"""

from __future__ import annotations

import json
from pathlib import Path

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Page, expect  # noqa: E402

from analysis_helpers import BLUNDER_SEED, expert_record  # noqa: E402
from browser_helpers import (  # noqa: E402
    create_table,
    play_to_the_end,
    watch_errors,
)

DESKTOP = {"width": 1280, "height": 900}


def test_the_replay_steps_to_its_end_and_shows_the_final_score(
    page: Page, server: Server, shots: Path
) -> None:
    errors = watch_errors(page)
    page.set_viewport_size(DESKTOP)
    code = create_table(page, server.url("/"), ["easy"], target=15)
    play_to_the_end(page)
    final = page.evaluate("() => S.frame.scores")
    game = page.evaluate("() => S.frame.game")
    page.locator("#replay-link").click()
    page.wait_for_url(f"**/replay/{code}/{game}")
    page.locator("#replay-slider").wait_for()
    steps = page.evaluate("() => Replay.state.data.steps.length")
    assert page.locator("#replay-position").inner_text().endswith("the deal")
    page.locator("body").click(position={"x": 5, "y": 5})
    for expected in range(1, steps):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay-slider")).to_have_value(str(expected))
    page.keyboard.press("ArrowRight")  # past the end: stays
    expect(page.locator("#replay-slider")).to_have_value(str(steps - 1))
    expect(page.locator("#replay-ending")).to_contain_text("wins the match")
    totals = page.locator("#replay-pad tfoot td").all_inner_texts()
    assert [int(x) for x in totals] == final
    assert f"step={steps - 1}" in page.url
    page.screenshot(path=str(shots / "replay-end.png"), full_page=True)

    # Back with ←, and to the start with Home; the buttons do the same.
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-slider")).to_have_value(str(steps - 2))
    page.keyboard.press("Home")
    expect(page.locator("#replay-slider")).to_have_value("0")
    page.locator("#replay-next").click()
    expect(page.locator("#replay-slider")).to_have_value("1")

    # Seat 1's view: its own hand open, the other face down; the link says so.
    page.select_option("#replay-seat", "0")
    expect(page.locator('.replay-seat[data-seat="1"] .backs .domino.back').first).to_be_visible()
    assert page.locator('.replay-seat[data-seat="0"] .replay-hand .domino').count() > 0
    assert "seat=1" in page.url
    shared = page.url
    page.goto(shared)
    page.locator("#replay-slider").wait_for()
    expect(page.locator("#replay-slider")).to_have_value("1")
    assert page.locator("#replay-seat").input_value() == "0"
    assert errors == []


def open_record(page: Page, server: Server, path: Path) -> None:
    page.goto(server.url("/replay"))
    page.locator("#record-file").set_input_files(str(path))
    page.locator("#replay-slider").wait_for()


def analyse(page: Page, seat: int) -> None:
    page.select_option("#analysis-seat", str(seat))
    page.locator("#analyse-button").click()
    page.locator("#analysis-result").wait_for(timeout=120_000)


def test_the_analysis_marks_a_deliberate_blunder(
    page: Page, server: Server, shots: Path, tmp_path: Path
) -> None:
    errors = watch_errors(page)
    page.set_viewport_size(DESKTOP)
    path = tmp_path / "blunder.json"
    path.write_text(expert_record(BLUNDER_SEED, target=30, keep_heaviest=True))
    open_record(page, server, path)
    assert page.locator("#replay-seat option").all_inner_texts()[1].endswith("Blunderer")
    analyse(page, 0)
    assert int(page.locator("#analysis-blunders").inner_text()) >= 1
    costliest = page.locator("#analysis-costliest li")
    expect(costliest).to_have_count(3)
    expect(costliest.first.locator(".mark-blunder")).to_be_visible()
    # The expert's choice is written as a player reads a tile; the reason beside
    # it says why without writing the move again (issue 24, item 6).
    expect(costliest.first).to_contain_text("The expert's choice: ")
    expect(costliest.first).to_contain_text("[")
    expect(costliest.first.locator(".explanation")).to_contain_text("simulations")
    # Luck and skill (issue 26, item 2): the blunders make the skill part negative,
    # and the three parts add up to the result.
    expect(page.locator("#luck-and-skill")).to_be_visible()
    parts = {
        key: float(page.locator(f"#luck-{key}").inner_text().replace("\u2212", "-"))
        for key in ("result", "luck", "skill", "rest")
    }
    assert parts["skill"] < 0
    assert abs(parts["result"] - parts["luck"] - parts["skill"] - parts["rest"]) < 0.2
    page.screenshot(path=str(shots / "replay-analysis.png"), full_page=True)
    # "Show" opens the blunder's move from the blunderer's view; the move is marked
    # (test_web_review_graph_e2e.py: the board, the graph, the numbers).
    costliest.first.get_by_role("button", name="Show").click()
    assert page.locator("#replay-seat").input_value() == "0"
    expect(page.locator("#replay-line .mark-blunder")).to_be_visible()
    assert errors == []


def test_a_game_of_the_experts_own_choices_shows_no_blunder(
    page: Page, server: Server, tmp_path: Path
) -> None:
    errors = watch_errors(page)
    page.set_viewport_size(DESKTOP)
    path = tmp_path / "expert.json"
    text = expert_record(3, target=30)
    path.write_text(text)
    open_record(page, server, path)
    analyse(page, 1)
    assert page.locator("#analysis-blunders").inner_text() == "0"
    assert page.locator("#analysis-mistakes").inner_text() == "0"
    expect(page.locator("#analysis-clean")).to_be_visible()
    expect(page.locator("#luck-skill")).to_have_text("0.0")  # nothing lost: no skill part
    assert page.locator(".mark-blunder").count() == 0
    decisions = int(page.locator("#analysis-decisions").inner_text())
    assert decisions == int(page.locator("#analysis-agreed").inner_text()) > 0
    assert json.loads(text)["winner"] is not None
    assert errors == []


def test_a_bad_file_gets_a_clear_error(page: Page, server: Server, tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text('{"format": "chess"}')
    page.goto(server.url("/replay"))
    page.locator("#record-file").set_input_files(str(path))
    expect(page.locator("#replay-error")).to_contain_text("not a passing-game record")
