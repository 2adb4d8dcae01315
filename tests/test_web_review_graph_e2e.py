"""The analysis like lichess's, in Chromium against the real server (issue 24, item 8).

A record with deliberate blunders (the heaviest tile kept back) is analysed
for its blunderer, then looked at as a person does at 1280×800, 390×844 and
360×640 (screenshots in the ``shots`` folder):

- the graph of the expert's evaluation is there, one labelled button per
  decision, the blunders marked;
- "Show" and a click on the graph's point move the step to that decision,
  whose step label has the decision's own number ("move 4" opens "move 4 of
  N"), and bring the board into the viewport;
- the board marks the tile played and the expert's choice, in words too;
- a decision's loss is one number: the list, the table, the graph's label and
  the board's key say the same, and the two values shown differ by it;
- the graph works by keyboard: arrows move between points, Enter shows one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Locator, Page, expect  # noqa: E402

from analysis_helpers import BLUNDER_SEED, expert_record  # noqa: E402
from browser_helpers import watch_errors  # noqa: E402

SIZES = {"desktop": (1280, 800), "phone": (390, 844), "small-phone": (360, 640)}
NUMBER = r"[−+-]?\d+(?:[.,]\d)?"


def number(text: str) -> float:
    return float(text.replace("−", "-").replace(",", "."))


def open_and_analyse(page: Page, server: Server, folder: Path) -> None:
    path = folder / "blunder.json"
    path.write_text(expert_record(BLUNDER_SEED, target=30, keep_heaviest=True))
    page.goto(server.url("/replay"))
    page.locator("#record-file").set_input_files(str(path))
    page.locator("#replay-slider").wait_for()
    page.select_option("#analysis-seat", "0")
    page.locator("#analyse-button").click()
    page.locator("#analysis-result").wait_for(timeout=180_000)


def board_in_view(page: Page) -> None:
    """The board is wholly inside the viewport, and the mover's seat above it (its
    hand holds the expert's tile) when both fit, once the smooth scroll is over."""
    page.wait_for_function(
        """() => { const r = document.getElementById("replay-board").getBoundingClientRect();
                   const turn = Replay.state.data.steps[Replay.state.step].turn;
                   const seat = document.querySelector(`.replay-seat[data-seat="${turn.seat}"]`);
                   const top = Math.min(seat.getBoundingClientRect().top, r.top);
                   const fits = r.bottom - top <= innerHeight;
                   return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight
                     && (!fits || top >= 0); }"""
    )


def scroll_out_of_view(page: Page, target: Locator) -> None:
    """The way a person gets to the analysis: ``target`` scrolled to the top of the
    screen, the board not wholly in view (on a desktop it may stay in view)."""
    target.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(100)


def decision_of(label: str) -> tuple[int, int]:
    found = re.match(r"Round (\d+), move (\d+)", label)
    assert found, label
    return int(found[1]), int(found[2])


def shows_decision(page: Page, round_: int, index: int) -> None:
    """The step is that decision's, labelled with the decision's own number."""
    expect(page.locator("#replay-position")).to_have_text(
        re.compile(rf"^Round {round_} · move {index} of \d+$")
    )
    step = page.evaluate("() => Replay.state.data.steps[Replay.state.step]")
    assert (step["round"], step["index"]) == (round_, index)
    assert step["turn"]["seat"] == 0


def board_marks(page: Page) -> None:
    """The board's key says what was played and what the expert chose; the tiles
    are marked where they are (the played one in the train or the boneyard, the
    expert's in the hand or the boneyard)."""
    key = page.locator("#replay-marks")
    expect(key).to_be_visible()
    expect(key.locator(".played-mark")).to_contain_text("Decision: ")
    expect(key.locator(".best-mark")).to_contain_text("The expert's choice: ")
    row = page.evaluate(
        """() => { const s = Replay.state, step = s.data.steps[s.step];
                   return s.analyses[0].analysis.evaluations.find(
                     (e) => e.round === step.round && e.index === step.index); }"""
    )
    if row["played"][0] in "LR":
        played = page.locator("#replay-train .domino.played-mark")
        expect(played).to_have_count(1)
        expect(played).to_be_visible()
        label = played.get_attribute("aria-label")
        assert label.endswith(", Played")
        # The tile as it lies in the train, either way round ("R0-6" may show [6|0]).
        shown = re.match(r"\[(\d)\|(\d)\]", label)
        assert shown, label
        assert sorted(shown.groups()) == sorted(row["played"][1:].split("-"))
    else:
        expect(page.locator(".boneyard-box.played-mark")).to_be_visible()
    if row["best"][0] in "LR" and row["best"][1:] != row["played"][1:]:
        best = page.locator('.replay-seat[data-seat="0"] .domino.best-mark')
        expect(best).to_have_count(1)
        expect(best).to_be_visible()
        assert best.get_attribute("aria-label").endswith(", The expert's choice")
    elif row["best"] == "draw":
        expect(page.locator(".boneyard-box.best-mark")).to_be_visible()


def numbers_agree(page: Page) -> None:
    """Each costly decision's loss reads the same in the list, the table, the graph
    and the board's key; the list's two values differ by exactly that loss."""
    costly = page.locator("#analysis-costliest li")
    assert costly.count() >= 1
    for item in costly.all():
        round_, index = decision_of(item.locator("strong").inner_text())
        text = item.inner_text()
        played = number(re.search(rf"Decision: .*\(points: ({NUMBER})\)", text)[1])
        best = number(re.search(rf"The expert's choice: .*\(points: ({NUMBER})\)", text)[1])
        lost = number(re.search(rf"Points lost: ({NUMBER})", text)[1])
        assert round(best - played, 1) == lost, (best, played, lost)
        cells = page.locator(".decisions-table tbody tr").filter(
            has=page.locator(f'td:nth-child(1):text-is("{round_}")')
        )
        cell = cells.filter(has=page.locator(f'td:nth-child(2):text-is("{index}")'))
        expect(cell).to_have_count(1)
        assert number(cell.locator("td.num").text_content() or "") == lost
        start = f"Round {round_}, move {index} · "
        point = page.locator(f'#eval-graph .ev-point[aria-label^="{start}"]')
        expect(point).to_have_count(1)
        label = point.get_attribute("aria-label") or ""
        assert number(re.search(rf"Points lost: ({NUMBER})", label)[1]) == lost
        assert number(re.search(rf"\(points: ({NUMBER})\)", label)[1]) == played


def the_graph(page: Page) -> Locator:
    graph = page.locator("svg#eval-graph")
    expect(graph).to_be_visible()
    assert graph.get_attribute("aria-label") == "The expert's evaluation over the game"
    assert graph.locator("title").first.text_content() == "The expert's evaluation over the game"
    points = graph.locator(".ev-point")
    decisions = page.evaluate("() => Replay.state.analyses[0].analysis.evaluations.length")
    expect(points).to_have_count(decisions)
    for point in points.all()[:5]:
        assert point.get_attribute("role") == "button"
        label = point.get_attribute("aria-label") or ""
        assert re.match(r"Round \d+, move \d+ · Decision: .+ · Points lost: ", label), label
    # The marked points are the analysis's blunders and mistakes, labelled as such.
    marked = page.evaluate(
        "() => Replay.state.analyses[0].analysis.evaluations.filter((e) => e.mark).length"
    )
    assert marked >= 1
    expect(graph.locator(".ev-point.is-blunder, .ev-point.is-mistake")).to_have_count(marked)
    blunder = graph.locator(".ev-point.is-blunder").first
    assert (blunder.get_attribute("aria-label") or "").endswith(" · blunder")
    # One tab stop for the whole graph.
    assert graph.locator('.ev-point[tabindex="0"]').count() == 1
    return graph


@pytest.mark.parametrize("size", list(SIZES))
def test_the_analysis_shows_its_graph_and_the_board_at_each_decision(
    page: Page, server: Server, shots: Path, tmp_path: Path, size: str
) -> None:
    errors = watch_errors(page)
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    open_and_analyse(page, server, tmp_path)
    graph = the_graph(page)
    numbers_agree(page)
    page.screenshot(path=str(shots / f"analysis-{size}-full.png"), full_page=True)

    # "Show" on the costliest decision: its step, its number, the board in view.
    first = page.locator("#analysis-costliest li").first
    round_, index = decision_of(first.locator("strong").inner_text())
    scroll_out_of_view(page, first)
    page.screenshot(path=str(shots / f"analysis-{size}-list.png"))
    first.get_by_role("button", name="Show").click()
    shows_decision(page, round_, index)
    board_in_view(page)
    board_marks(page)
    expect(page.locator("#replay-line .mark-blunder")).to_be_visible()
    lost = number(re.search(rf"Points lost: ({NUMBER})", first.inner_text())[1])
    key = page.locator("#replay-marks").inner_text()
    assert number(re.search(rf"Points lost: ({NUMBER})", key)[1]) == lost
    page.screenshot(path=str(shots / f"analysis-{size}-show.png"))

    # A click on another marked point of the graph: that decision, the board in view.
    marked = graph.locator(".ev-point.is-blunder, .ev-point.is-mistake")
    other = next(
        p
        for p in marked.all()
        if decision_of(p.get_attribute("aria-label") or "") != (round_, index)
    )
    round_, index = decision_of(other.get_attribute("aria-label") or "")
    scroll_out_of_view(page, graph)
    page.screenshot(path=str(shots / f"analysis-{size}-graph.png"))
    other.click()
    shows_decision(page, round_, index)
    board_in_view(page)
    board_marks(page)
    # The point shown is ringed and is the graph's tab stop.
    current = page.locator("#eval-graph .ev-point.current")
    expect(current).to_have_count(1)
    assert decision_of(current.get_attribute("aria-label") or "") == (round_, index)
    assert current.get_attribute("tabindex") == "0"
    page.screenshot(path=str(shots / f"analysis-{size}-point.png"))

    # From the table of every decision: a tile played where the expert played
    # another (both tiles marked), and a move as the expert's (said so).
    rows = page.evaluate("() => Replay.state.analyses[0].analysis.evaluations")
    differ = next(
        r
        for r in rows
        if r["played"][0] in "LR" and r["best"][0] in "LR" and r["played"][1:] != r["best"][1:]
    )
    agreed = next(r for r in rows if r["played"] == r["best"])
    page.locator(".decisions summary").click()
    # The open table scrolls in its own box: the page never scrolls sideways.
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    page.locator(f'[data-key="show-row-{differ["round"]}-{differ["index"]}"]').click()
    shows_decision(page, differ["round"], differ["index"])
    board_in_view(page)
    board_marks(page)
    expect(page.locator("#replay-train .played-mark")).to_have_count(1)
    page.screenshot(path=str(shots / f"analysis-{size}-tile.png"))
    page.locator(f'[data-key="show-row-{agreed["round"]}-{agreed["index"]}"]').click()
    shows_decision(page, agreed["round"], agreed["index"])
    expect(page.locator("#replay-marks")).to_contain_text("As the expert would play")
    expect(page.locator("#replay-marks .best-mark")).to_have_count(1)
    assert errors == []


def test_the_graph_works_by_keyboard(page: Page, server: Server, tmp_path: Path) -> None:
    errors = watch_errors(page)
    page.set_viewport_size({"width": 390, "height": 844})
    open_and_analyse(page, server, tmp_path)
    graph = the_graph(page)
    start = page.evaluate("() => Replay.state.step")
    graph.locator('.ev-point[tabindex="0"]').focus()
    before = page.evaluate("() => document.activeElement.dataset.step")
    page.keyboard.press("ArrowRight")  # moves between points, not through the game
    after = page.evaluate("() => document.activeElement.dataset.step")
    assert int(after) > int(before)
    assert page.evaluate("() => Replay.state.step") == start
    page.keyboard.press("End")
    last = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert last == graph.locator(".ev-point").last.get_attribute("aria-label")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Enter")
    shows_decision(page, *decision_of(label))
    board_in_view(page)
    # The focus stays on the point shown, so the next arrow goes on from there.
    expect(page.locator("#eval-graph .ev-point.current")).to_be_focused()
    assert errors == []
