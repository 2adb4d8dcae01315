"""The table laid out as a domino table, and tiles played by the train (issue 24, items 3 and 4).

A real ``passing-game serve`` (tests/conftest.py) and Chromium, at 1280x800,
390x844 and 360x640:

- Seats sit as at a real table, seen from your chair: with four, your partner
  across (R1.4: partners sit opposite, play goes round in seat order), the
  next seat on your left and the last on your right; with three, one on each
  side; with two, across.
- Nothing is drawn over anything else: the train's tiles and ends, the seats,
  the boneyard, the buttons, a pass's bubble and a notice, also when the train
  is long (the longest train the double-six set makes, 28 tiles).
- A tile is played on an end by dragging it there (a mouse, and a finger), or
  by tapping the end once the tile waits for it; the end-choice box says what
  each end will show after the play.

PASSING_GAME_SCREENSHOTS=/some/folder keeps ``table-*.png``.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from browser_helpers import (  # noqa: E402
    box,
    frame,
    take_turn,
    wait_for_turn_or_summary,
    watch_errors,
)

SIZES = [(1280, 800), (390, 844), (360, 640)]

#: What a person sees at the table and what must not be drawn over something else.
PARTS = [
    ".topbar button",
    ".topbar .code",
    ".seat-card",
    ".seat-card .seat-head",
    ".seat-card .seat-meta",
    ".seat-card .last-move",
    ".move-badge",
    ".seat-tools",
    ".status",
    ".notice",
    ".boneyard",
    ".train .domino",
    ".end-mark",
    ".recent-move",
    ".my-area .hand .domino",
    ".actions button",
    ".pips-mine",
    ".pass-warning",
    ".end-choice",
    ".hint-text",
]

OVERLAPS = """(selectors) => {
  const found = [];
  for (const sel of selectors) {
    for (const el of document.querySelectorAll(sel)) {
      if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      found.push([el, r, sel]);
    }
  }
  const name = ([el, r, sel]) => sel + ' "'
    + (el.getAttribute('aria-label') || el.textContent).trim().slice(0, 30)
    + '" ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
  const bad = [];
  for (let i = 0; i < found.length; i++) {
    for (let j = i + 1; j < found.length; j++) {
      const [a, ra] = found[i], [b, rb] = found[j];
      if (a === b || a.contains(b) || b.contains(a)) continue;
      const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (w > 1 && h > 1) bad.push(name(found[i]) + ' / ' + name(found[j]));
    }
  }
  return bad;
}"""


def overlaps(page: Page) -> list[str]:
    found: list[str] = page.evaluate(OVERLAPS, PARTS)
    return found


def off_the_board(page: Page) -> list[str]:
    """The train's tiles and end marks not wholly inside the board's felt."""
    found: list[str] = page.evaluate(
        """() => {
          const board = document.querySelector('.board').getBoundingClientRect();
          return [...document.querySelectorAll('.train .domino, .train .end-mark')]
            .map((el) => [el.getAttribute('aria-label'), el.getBoundingClientRect()])
            .filter(([, r]) => r.left < board.left || r.right > board.right
              || r.top < board.top || r.bottom > board.bottom)
            .map(([name, r]) => name + ' ' + [r.left, r.right].map(Math.round).join('-'));
        }"""
    )
    return found


def centre(b: dict[str, float]) -> tuple[float, float]:
    return (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)


def start(page: Page, url: str, players: int, pairs: bool = False) -> None:
    """A table with easy bots in every other seat, through the lobby's form, played
    to 999 points so that the game outlasts the test."""
    page.goto(url)
    page.locator("#create-button").wait_for()
    page.fill("#f-name", "Ana")
    page.check(f'input[name=players][value="{players}"]')
    if pairs:
        page.check("#f-partnerships")
    for seat in range(1, players):
        page.select_option(f"#f-seat{seat}", "easy")
    page.click(".rules-box summary")
    page.fill("#f-target", "999")
    page.click("#create-button")
    page.wait_for_function("() => S.frame && S.live")


def play_until_train(page: Page, tiles: int) -> None:
    """Moves by clicking until the train is at least ``tiles`` long and it is our turn."""
    for _ in range(300):
        if wait_for_turn_or_summary(page) == "summary":
            page.locator('[data-key="continue"]').click()
            page.wait_for_function("() => !document.querySelector('.summary')")
            continue
        if len(frame(page)["round"]["train"]) >= tiles:
            return
        take_turn(page)
    raise AssertionError("the train never grew")


def seat_of(page: Page, place: str) -> int:
    return int(page.locator(f".place.{place} .seat-card").get_attribute("data-seat") or -1)


@pytest.mark.parametrize(("players", "pairs"), [(4, True), (3, False), (2, False)])
def test_the_seats_sit_round_the_table_and_nothing_covers_anything(
    browser: Browser, server: Server, shots: Path, players: int, pairs: bool
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = watch_errors(page)
    start(page, server.url("/"), players, pairs)
    play_until_train(page, 6)
    me = frame(page)["you"]
    # Seen from your chair: the next seat on your left, then across, then on your right.
    places = {2: ["across"], 3: ["left", "right"], 4: ["left", "across", "right"]}[players]
    assert [seat_of(page, p) for p in places] == [(me + i) % players for i in range(1, players)]
    if pairs:
        # R1.4: partners sit opposite; the page says so on the seat across.
        expect(page.locator(".place.across .partner-mark")).to_have_text("your partner")
        assert seat_of(page, "across") == (me + 2) % 4
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)  # the train is laid out again for the new width
        board = box(page, ".board")
        if "across" in places:
            assert centre(box(page, ".place.across .seat-card"))[1] < board["y"]
        if "left" in places:
            left, right = box(page, ".place.left .seat-card"), box(page, ".place.right .seat-card")
            assert left["x"] + left["width"] <= right["x"]
            if width > 640:  # beside the board; on a phone, in one row above it
                assert left["x"] + left["width"] <= board["x"] + 1
                assert right["x"] >= board["x"] + board["width"] - 1
            else:
                assert left["y"] + left["height"] <= board["y"]
        # A pass's bubble on a seat and a notice, as they come in play.
        other = (me + 1) % players
        page.evaluate(
            f"() => {{ S.flashes[{other}] = {{ kind: 'pass', at: performance.now() }};"
            " changed(); }"
        )
        page.locator(".move-badge").first.wait_for()
        notice_shown(page)
        assert overlaps(page) == [], (width, height)
        # The train inside the board, clear of the boneyard.
        yard = box(page, ".boneyard")
        assert yard["y"] + yard["height"] <= box(page, ".train .domino")["y"] + 0.5
        assert off_the_board(page) == [], (width, height)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1
        page.screenshot(path=str(shots / f"table-{players}-{width}x{height}.png"))
    assert errors == []
    page.close()


def notice_shown(page: Page) -> None:
    """A notice, as a click on a tile that does not fit gives one (or a tile when not our turn)."""
    dead = page.locator(".hand .domino.dead")
    if dead.count():
        dead.first.click()
    else:
        page.evaluate(
            "() => { S.notice = { text: 'A notice for the layout test', kind: 'info' };"
            " changed(); }"
        )
    page.locator(".notice").first.wait_for()


LONGEST = [
    [6, 6],
    [6, 5],
    [5, 5],
    [5, 4],
    [4, 4],
    [4, 3],
    [3, 3],
    [3, 2],
    [2, 2],
    [2, 1],
    [1, 1],
    [1, 0],
    [0, 0],
    [0, 6],
    [6, 4],
    [4, 2],
    [2, 0],
    [0, 5],
    [5, 3],
    [3, 1],
    [1, 6],
    [6, 3],
    [3, 0],
    [0, 4],
    [4, 1],
    [1, 5],
    [5, 2],
    [2, 6],
]


def test_the_longest_train_stays_on_the_board_and_the_hand_in_view(
    browser: Browser, server: Server, shots: Path
) -> None:
    """Every tile of the set in one train (R1.3: the 28 tiles of one double-six set).

    Drawn by the page's own renderer from a frame the test changes.
    """
    assert len({tuple(sorted(t)) for t in LONGEST}) == 28
    assert all(a[1] == b[0] for a, b in itertools.pairwise(LONGEST))
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    start(page, server.url("/"), 4, True)
    assert wait_for_turn_or_summary(page) == "turn"
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(
            "(train) => { S.frame.round.train = train;"
            " S.frame.round.ends = [train[0][0], train[train.length - 1][1]];"
            " S.frame.round.last = { index: train.length - 1 }; changed(); }",
            LONGEST,
        )
        page.wait_for_timeout(150)
        expect(page.locator(".train .domino")).to_have_count(28)
        rows = page.locator(".train-row").count()
        assert rows <= (3 if width <= 640 else 4)
        assert overlaps(page) == [], (width, height)
        assert off_the_board(page) == [], (width, height)
        # The snake: each row's first tile is under the previous row's last one.
        tiles = page.evaluate(
            "() => [...document.querySelectorAll('.train-row')]"
            ".map((row) => [...row.querySelectorAll('.domino')]"
            ".map((d) => { const r = d.getBoundingClientRect(); return [r.left, r.right]; }))"
        )
        for above, below in itertools.pairwise(tiles):
            last, first = above[-1], below[0]
            assert min(last[1], first[1]) - max(last[0], first[0]) > 0, (width, last, first)
        hand = box(page, ".my-area .hand")
        assert hand["y"] < height, "the hand starts on the screen"
        page.screenshot(path=str(shots / f"table-longest-{width}x{height}.png"))
    page.close()


def drag(page: Page, tile: str, end: str, touch: bool) -> None:
    """The tile from the hand onto the train's end, by mouse or by finger.

    The target is found again once the tile's copy shows, as a person aims at
    what is on the screen: the page lays out again when a drag starts.
    """

    def target() -> tuple[float, float]:
        on_train = frame(page)["round"]["train"]
        return centre(box(page, f'#train .end-mark[data-end="{end}"]' if on_train else ".board"))

    x0, y0 = centre(box(page, f'.hand [data-tile="{tile}"]'))
    x1, y1 = target()
    lift = [(x0 + (x1 - x0) * k / 8, y0 + (y1 - y0) * k / 8) for k in range(1, 4)]
    cdp = page.context.new_cdp_session(page) if touch else None

    def move(x: float, y: float) -> None:
        if cdp is None:
            page.mouse.move(x, y)
        else:
            points = [{"x": x, "y": y}]
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points})

    if cdp is None:
        page.mouse.move(x0, y0)
        page.mouse.down()
    else:
        points = [{"x": x0, "y": y0}]
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points})
    for x, y in lift:
        move(x, y)
    expect(page.locator(".drag-ghost")).to_have_count(1)
    on_train = bool(frame(page)["round"]["train"])
    hover = page.locator(
        f'#train .end-mark[data-end="{end}"].drop-hover' if on_train else ".board.drop-hover"
    )
    xa, ya = lift[-1]
    for _ in range(3):  # aimed again if the end moved under the finger
        x1, y1 = target()
        for k in range(1, 6):
            move(xa + (x1 - xa) * k / 5, ya + (y1 - ya) * k / 5)
        xa, ya = x1, y1
        if hover.count() == 1:
            break
        page.wait_for_timeout(100)
    expect(hover).to_have_count(1)
    if cdp is None:
        page.mouse.up()
    else:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()


def my_last_move(page: Page, before: int, round_no: int) -> Any:
    """Our last move of round ``round_no`` once the server has it (None if the round is gone)."""
    page.wait_for_function(f"() => S.last > {before}", timeout=15_000)
    state = frame(page)
    if state["round"]["number"] != round_no:
        return None
    mine = [turn for turn in state["round"]["history"] if turn["seat"] == state["you"]]
    return mine[-1]["move"] if mine else None


@pytest.mark.parametrize(
    ("width", "height", "touch"), [(1280, 800, False), (390, 844, True), (360, 640, True)]
)
def test_a_tile_is_dragged_or_tapped_onto_each_end(
    browser: Browser, server: Server, shots: Path, width: int, height: int, touch: bool
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch)
    page = context.new_page()
    errors = watch_errors(page)
    start(page, server.url("/"), 2)
    todo = {("drag", "L"), ("drag", "R"), ("tap", "L"), ("tap", "R")}
    for _ in range(200):
        if not todo:
            break
        if wait_for_turn_or_summary(page) == "summary":
            page.locator('[data-key="continue"]').click()
            page.wait_for_function("() => !document.querySelector('.summary')")
            continue
        state = frame(page)
        r = state["round"]
        plays = [m for m in r["legal"] if m[0] in "LR"]
        both = sorted({m[1:] for m in plays if f"L{m[1:]}" in plays and f"R{m[1:]}" in plays})
        before = page.evaluate("() => S.last")
        if len(r["hand"]) < 3:  # our last tiles end the round: played as usual
            take_turn(page)
            continue
        if both and r["train"] and {("tap", "L"), ("tap", "R")} & todo:
            tile = both[0]
            end = "L" if ("tap", "L") in todo else "R"
            a, b = (int(n) for n in tile.split("-"))
            shown = r["ends"][0 if end == "L" else 1]
            held = page.locator(f'.hand [data-tile="{tile}"]')
            held.tap() if touch else held.click()
            # The end-choice box says what each end will show after the play.
            left_after = b if a == r["ends"][0] else a
            right_after = b if a == r["ends"][1] else a
            expect(page.locator('[data-key="end-left"]')).to_have_text(
                f"Left end: it will show {left_after}"
            )
            expect(page.locator('[data-key="end-right"]')).to_have_text(
                f"Right end: it will show {right_after}"
            )
            mark = page.locator(f'#train button.end-mark[data-end="{end}"]')
            expect(mark).to_have_text(f"{shown} → {left_after if end == 'L' else right_after}")
            page.screenshot(path=str(shots / f"table-choose-{width}x{height}.png"))
            mark.click() if not touch else mark.tap()
            played = my_last_move(page, before, r["number"])
            if played is not None:  # None: the play blocked the round, and it is gone
                assert played == end + tile
                todo.discard(("tap", end))
            continue
        # Taps first: in Chromium a tap made through the DevTools protocol right
        # after a touch drag made the same way sometimes gives no click.
        tapping = any(kind == "tap" for kind, _ in todo)
        wanted = [] if tapping else [e for kind, e in sorted(todo) if kind == "drag"]
        choice = next((m for m in plays if r["train"] and m[0] in wanted), None)
        if choice is not None:
            drag(page, choice[1:], choice[0], touch)
            played = my_last_move(page, before, r["number"])
            if played is not None:
                assert played == choice
                todo.discard(("drag", choice[0]))
            continue
        take_turn(page)
    assert not todo, f"never got to {sorted(todo)}"
    assert errors == []
    context.close()
