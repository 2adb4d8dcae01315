"""Tournaments in Chromium, three server processes on one PostgreSQL (issue 26, item 1;
P54, P65).

Three people sign up, each on a process of their own (as a balancer would
send them); one creates the tournament from the lobby's card (with computer
players among the entrants, and short games), the others open its link and
join. Each plays their own games by clicking: "Go to your game" when the page
says it has started (and the browser's notification says so), tiles and Draw
and Pass at the table, then back to the tournament's page; the bots play
theirs at the table. A Swiss (two bots, one sitting out each round), an arena to its end (a bot,
paired again as soon as a game ends) and a duplicate (a bot fills the short
table, both tables on the same deals) are run so; the standings the page shows
are then checked against a replay of the stored records
(``/api/tables/CODE/record``). The lobby lists the moderators' public
tournaments with their start and a countdown that ticks, and reads the list
again while it is shown.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from browser_helpers import scroll_to, sign_up, take_turn, watch_errors
from cluster_helpers import start, stop
from passing_game import load_record
from web_helpers import Server

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def servers(pg_url: str, tmp_path: Path) -> Iterator[list[Server]]:
    running = start(pg_url, tmp_path, 3, bot_delay=0.05)
    try:
        yield running
    finally:
        stop(running)


def api(server: Server, path: str) -> Any:
    """The server's JSON; a record download over the address's rate (an arena has many
    games) waits as the answer's Retry-After says, as a well-behaved client does."""
    for _ in range(30):
        try:
            with urllib.request.urlopen(server.url(path), timeout=10) as response:
                return json.load(response)
        except urllib.error.HTTPError as exc:
            if exc.code != 429:
                raise
            time.sleep(float(exc.headers.get("Retry-After") or 1))
    raise AssertionError(f"{path}: still refused")


#: The browser's notifications, recorded as the page makes them (window.__notes): the
#: permission is granted, and window.Notification wrapped before the page's scripts run.
RECORD_NOTIFICATIONS = """
(() => {
  window.__notes = [];
  const Real = window.Notification;
  if (!Real) return;
  window.Notification = class extends Real {
    constructor(title, options) {
      window.__notes.push({ title, body: options && options.body });
      super(title, options);
    }
  };
})();
"""


def people(browser: Browser, servers: list[Server], names: list[str]) -> list[Page]:
    pages = []
    for i, name in enumerate(names):
        context = browser.new_context(viewport=PHONE if i == 2 else DESKTOP)
        context.grant_permissions(["notifications"])
        context.add_init_script(RECORD_NOTIFICATIONS)
        page = context.new_page()
        page.goto(servers[i % len(servers)].url("/"))
        page.locator("#create-button").wait_for()
        sign_up(page, name)
        pages.append(page)
    return pages


def create(
    page: Page, kind: str, length: int, size: int = 2, bots: int = 0, target: int | None = None
) -> str:
    """Through the lobby's card, as a person fills it in; the tournament's id."""
    page.locator(".tournaments-card summary").click()
    page.fill("#t-name", f"Test {kind}")
    page.select_option("#t-kind", kind)
    page.select_option("#t-size", str(size))
    page.fill("#t-length", str(length))
    page.select_option("#t-clock", "20")
    page.fill("#t-starts", "5")  # started by hand once everyone is in
    if target is not None:
        page.fill("#t-target", str(target))
    if bots:
        page.select_option("#t-bots", str(bots))
        page.select_option("#t-bot-level", "easy")
    page.click('[data-key="t-create"]')
    page.wait_for_url("**/tournament/**")
    page.locator(".standings").wait_for()
    return page.url.rsplit("/", 1)[1]


def join(pages: list[Page], servers: list[Server], tid: str) -> None:
    """Everyone opens the link and joins (the creator is in); the creator starts it."""
    for i, page in enumerate(pages):
        page.goto(servers[i % len(servers)].url(f"/tournament/{tid}"))
        page.locator(".standings").wait_for()
        # Join or Withdraw once the page knows who is signed in (the account loads apart).
        page.locator('[data-key="t-join"], [data-key="t-withdraw"]').first.wait_for()
        if page.locator('[data-key="t-join"]').count():
            page.locator('[data-key="t-join"]').click()
            expect(page.locator('[data-key="t-withdraw"]')).to_be_visible()
    seen = api(servers[0], f"/api/tournaments/{tid}")
    bots = seen["settings"]["bots"]
    assert len(seen["standings"]) == len(pages) + bots, seen
    assert sum(line["bot"] for line in seen["standings"]) == bots
    expect(pages[0].locator(".standings tbody tr")).to_have_count(len(pages) + bots, timeout=15_000)
    expect(pages[1].locator('[data-key="t-start"]')).to_have_count(0)  # the creator's only
    expect(pages[0].locator(".tournament .status")).to_contain_text("Starts in 5 minutes")
    pages[0].locator('[data-key="t-start"]').click()


def step(page: Page, url: str) -> None:
    """One thing this person would do now, if any: go to their game, move, close a
    round's summary, or go back to the tournament once the game is over."""
    where = page.evaluate(
        "() => ({ table: !!(S.frame && S.code === S.frame.table),"
        " over: !!(S.frame && S.frame.over),"
        " mine: !!(S.frame && S.live && S.frame.round.legal.length), summary:"
        " !!document.querySelector('[data-key=\"continue\"]'), go:"
        " !!document.querySelector('[data-key=\"t-go\"]'), url: location.pathname })"
    )
    if where["url"].startswith("/tournament/"):
        if where["go"]:
            page.locator('[data-key="t-go"]').click()
            page.wait_for_function("() => S.frame && S.code === S.frame.table", timeout=15_000)
        return
    if not where["table"]:
        return
    if where["over"]:
        back = page.locator("#tournament-link")  # the game's summary links back
        if back.count():
            back.click()
        else:
            page.goto(url)
        page.locator(".standings").wait_for()
    elif where["summary"]:
        page.locator('[data-key="continue"]').click()
    elif where["mine"]:
        assert page.locator("#hint-button").count() == 0  # no hints in tournaments
        take_turn(page)


def run(pages: list[Page], server: Server, tid: str, until: Any, seconds: float = 240) -> Any:
    """Everyone plays their games until ``until(state)``; the last state."""
    url = server.url(f"/tournament/{tid}")
    deadline = time.monotonic() + seconds
    while True:
        seen = api(server, f"/api/tournaments/{tid}")
        if until(seen):
            return seen
        assert time.monotonic() < deadline, seen
        for page in pages:
            step(page, url)
        pages[0].wait_for_timeout(100)


def back_on_the_page(pages: list[Page], url: str, seconds: float = 30) -> None:
    """Whoever played the last game goes back to the tournament from its end, as a
    person would (its summary's link); the tournament may be over before they do."""
    deadline = time.monotonic() + seconds
    while not all("/tournament/" in page.url for page in pages):
        assert time.monotonic() < deadline, [page.url for page in pages]
        for page in pages:
            if "/tournament/" not in page.url:
                step(page, url)
        pages[0].wait_for_timeout(100)


def replayed_points(server: Server, seen: dict[str, Any]) -> dict[str, int]:
    """Arena and Swiss points from the stored records, read again by the engine."""
    points = {line["name"]: 0 for line in seen["standings"]}
    streak = dict.fromkeys(points, 0)
    for table in sorted(seen["tables"], key=lambda t: t["round"]):
        if table.get("bye"):
            points[table["seats"][0]] += 2
            continue
        if not table["finished"]:
            continue
        match = load_record(api(server, f"/api/tables/{table['code']}/record"))
        a, b = match.scores
        for seat, name in enumerate(table["seats"]):
            if name is None:
                continue
            mine, theirs = (a, b) if seat == 0 else (b, a)
            got = 2 if mine > theirs else 1 if mine == theirs else 0
            if name in table["forfeited"]:
                got = 0
            doubled = seen["settings"]["kind"] == "arena" and streak[name] >= 2
            points[name] += got * 2 if doubled else got
            streak[name] = streak[name] + 1 if got == 2 else 0
    return points


def told(page: Page, code: str) -> None:
    """The page said "Your game has started" in the browser's notification too."""
    page.wait_for_function(
        "code => window.__notes.some((n) => n.body && n.body.includes(code))", arg=code,
        timeout=15_000,
    )  # fmt: skip
    notes = page.evaluate("() => window.__notes")
    assert any(n["body"] == f"Your game has started: table {code}." for n in notes), notes


def test_a_swiss_with_people_and_bots_on_three_processes(
    browser: Browser, servers: list[Server], shots: Path
) -> None:
    pages = people(browser, servers, ["Ana", "Ben", "Cyd"])
    errors = [watch_errors(p) for p in pages]
    # Five entrants: each round the lowest ranked bot sits out (no bye for a bot, P65).
    tid = create(pages[0], "swiss", 2, bots=2, target=20)
    join(pages, servers, tid)
    pages[1].locator(".your-game, .tournament-tables li").first.wait_for(timeout=15_000)
    pages[0].screenshot(path=str(shots / "tournament-swiss-round1.png"), full_page=True)
    # "Your game has started": on the page and as the browser's notification (granted).
    first = api(servers[0], f"/api/tournaments/{tid}")
    for page, name in zip(pages, ["Ana", "Ben", "Cyd"], strict=True):
        mine = [t for t in first["tables"] if name in t["seats"] and not t.get("bye")]
        if mine:
            told(page, mine[0]["code"])
            expect(page.locator(".your-game")).to_contain_text(mine[0]["code"])
    final = run(pages, servers[0], tid, lambda s: s["status"] == "finished")
    back_on_the_page(pages, servers[0].url(f"/tournament/{tid}"))
    bots = {line["name"] for line in final["standings"] if line["bot"]}
    assert bots == {"Easy bot A", "Easy bot B"}
    assert not [t for t in final["tables"] if t.get("bye")]
    played = [frozenset(t["seats"]) for t in final["tables"]]
    assert len(played) == len(set(played)) == 4  # nobody meets twice
    assert all(set(seats) - bots for seats in played)  # bots never sit at a table alone
    assert sum(line["games"] for line in final["standings"] if line["bot"]) == 2
    assert all(line["games"] == 2 for line in final["standings"] if not line["bot"])
    got = {line["name"]: line["points"] for line in final["standings"]}
    assert got == replayed_points(servers[1], final)
    # Each game's deal waited for the people's browsers: their parts are in its seed (P51).
    for table in (t for t in final["tables"] if not t.get("bye")):
        given = api(servers[1], f"/api/tables/{table['code']}/record")["fairness"]["contributions"]
        assert any(given), (table, given)
    # Every process shows the same standings; the page says it is over.
    assert api(servers[2], f"/api/tournaments/{tid}")["standings"] == final["standings"]
    pages[2].goto(servers[2].url(f"/tournament/{tid}"))
    expect(pages[2].locator(".tournament .status")).to_have_attribute("data-status", "finished")
    pages[2].screenshot(path=str(shots / "tournament-swiss-final-phone.png"), full_page=True)
    # A player's games: Ana played each round.
    pages[2].locator(".standings button", has_text="Ana").click()
    expect(pages[2].locator(".tournament-tables li")).to_have_count(2)
    pages[2].locator('[data-key="t-all"]').click()
    expect(pages[2].locator(".tournament-tables li")).to_have_count(4)
    assert not [e for found in errors for e in found], errors


def test_an_arena_with_a_bot_runs_to_its_end_on_three_processes(
    browser: Browser, servers: list[Server], shots: Path
) -> None:
    """Three people and an easy bot in a five-minute arena of short games: each paired
    again as soon as their game ends, the bot too, until the arena's time is up and
    its last games are played out; then the standings (streaks doubling) are the
    stored records' replayed."""
    pages = people(browser, servers, ["Dora", "Eli", "Finn"])
    errors = [watch_errors(p) for p in pages]
    tid = create(pages[0], "arena", 5, bots=1, target=20)
    join(pages, servers, tid)
    pages[0].locator(".your-game, .tournament-tables li").first.wait_for(timeout=15_000)
    expect(pages[0].locator(".tournament .status .countdown")).to_contain_text("Pairing for")
    final = run(pages, servers[1], tid, lambda s: s["status"] == "finished", seconds=600)
    back_on_the_page(pages, servers[1].url(f"/tournament/{tid}"))
    assert all(t["finished"] for t in final["tables"])
    lines = {line["name"]: line for line in final["standings"]}
    [bot] = [name for name, line in lines.items() if line["bot"]]
    assert lines[bot]["games"] >= 1 and any(bot in t["seats"] for t in final["tables"])
    assert all(line["games"] >= 2 for line in lines.values() if not line["bot"])
    got = {name: line["points"] for name, line in lines.items()}
    assert got == replayed_points(servers[0], final)
    assert api(servers[2], f"/api/tournaments/{tid}")["standings"] == final["standings"]
    for page in (pages[0], pages[2]):
        expect(page.locator(".tournament .status")).to_have_attribute("data-status", "finished")
    pages[0].screenshot(path=str(shots / "tournament-arena-final.png"), full_page=True)
    pages[2].screenshot(path=str(shots / "tournament-arena-final-phone.png"), full_page=True)
    assert not [e for found in errors for e in found], errors


def test_the_lobby_lists_public_tournaments_with_their_start_and_a_live_countdown(
    browser: Browser, servers: list[Server], shots: Path, pg_url: str
) -> None:
    """A moderator's tournaments on the lobby (P54): each with its start time and a
    countdown that ticks between the list's reads; one scheduled later shows up
    without a reload (the list is read again while the lobby shows it); in the
    visitor's language."""
    from passing_game.web.admin import schedule
    from passing_game.web.store import open_store

    store = open_store(pg_url)
    try:

        def public(name: str, kind: str, seconds: float, **more: object) -> str:
            now = time.time()
            given = {"kind": kind, "name": name, "starts": now + seconds, **more}
            return schedule(store, given, actor="mod", reason="test", now=now).id

        public("Friday Swiss", "swiss", 3 * 3600, rounds=4, rated=True)
        soon = public("Quick Swiss", "swiss", 45, rounds=3, bots=1, bot_level="easy")
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.goto(servers[0].url("/"))
        row = page.locator(f'.tournament-list li[data-id="{soon}"]')
        expect(row).to_contain_text("Quick Swiss")
        expect(row).to_contain_text("Swiss · 2 a table · 3 rounds · clock: 45 s a move · casual")
        expect(row).to_contain_text("1 bot playing")
        expect(row.locator("time")).to_have_attribute("datetime", re.compile(r"^\d{4}-"))
        expect(row.locator(".countdown")).to_contain_text("Starts in")
        expect(row.locator(".countdown")).to_contain_text("second")
        before = row.locator(".countdown").inner_text()
        page.wait_for_timeout(2_500)
        assert row.locator(".countdown").inner_text() != before  # it ticks
        later = page.locator(".tournament-list li", has_text="Friday Swiss")
        expect(later.locator(".countdown")).to_have_text("Starts in 3 hours")
        public("Sunday Duplicate", "duplicate", 2 * 86400 + 3600, rounds=3)
        # Read again while the lobby is shown: no reload.
        expect(page.locator(".tournament-list li")).to_have_count(3, timeout=30_000)
        scroll_to(page, ".tournaments-card")
        page.locator(".tournaments-card").screenshot(path=str(shots / "lobby-tournaments.png"))
        phone = browser.new_context(viewport=PHONE).new_page()
        phone.goto(servers[1].url("/?lang=gl"))
        galician = phone.locator(f'.tournament-list li[data-id="{soon}"] .countdown')
        expect(galician).to_contain_text("Comeza en")
        scroll_to(phone, ".tournaments-card")
        phone.screenshot(path=str(shots / "lobby-tournaments-phone.png"))
        # Its start passes with nobody in: the countdown says so.
        expect(row.locator(".countdown")).to_have_text(
            "Starting: waiting for enough people.", timeout=60_000
        )
    finally:
        store.close()


def test_a_duplicate_round_deals_every_table_the_same_and_ranks_by_matchpoints(
    browser: Browser, servers: list[Server], shots: Path
) -> None:
    pages = people(browser, servers, ["Fay", "Gus", "Hal"])
    tid = create(pages[0], "duplicate", 1, target=30)
    # The deals' commitment is on the page before anyone else joins (P55).
    committed = pages[0].locator("#t-commitment").get_attribute("data-full")
    assert committed and len(committed) == 64
    join(pages, servers, tid)
    given = [
        p.evaluate(f"() => localStorage.getItem('passing-game:tournament-part:{tid}')")
        for p in pages
    ]
    assert all(given) and len(set(given)) == 3  # each browser's own part, sent with its join
    final = run(pages, servers[2], tid, lambda s: s["status"] == "finished")
    # Over: the secret revealed gives the commitment, and the round's deals follow
    # from it and every person's part; each page says so, and finds its own part.
    fair = final["fairness"]
    assert fair["commitment"] == committed and fair["verified"] is True
    assert sorted(fair["rounds"][0]["parts"]) == sorted(given)
    for i, page in enumerate(pages):  # on the site it joined on (its part is kept there)
        page.goto(servers[i % len(servers)].url(f"/tournament/{tid}"))
        expect(page.locator("#t-fairness-verdict")).to_contain_text("Verified")
        expect(page.locator("#t-fairness-mine")).to_be_visible()
    scroll_to(pages[0], "#t-fairness")
    pages[0].screenshot(path=str(shots / "tournament-duplicate-fairness.png"))
    scroll_to(pages[2], "#t-fairness")
    pages[2].screenshot(path=str(shots / "tournament-duplicate-fairness-phone.png"))
    tables = [t for t in final["tables"] if not t.get("bye")]
    assert len(tables) == 2 and sum(name is None for t in tables for name in t["seats"]) == 1
    records = {t["code"]: api(servers[0], f"/api/tables/{t['code']}/record") for t in tables}
    firsts = {json.dumps(r["rounds"][0]["deal"], sort_keys=True) for r in records.values()}
    assert len(firsts) == 1  # the same first deal at both tables
    # Matchpoints by hand: per seat, each person against the other who held those cards.
    margins: dict[int, list[tuple[str, int]]] = {}
    for t in tables:
        scores = load_record(records[t["code"]]).scores
        for seat, name in enumerate(t["seats"]):
            if name is not None:
                margins.setdefault(seat, []).append((name, scores[seat] - scores[1 - seat]))
    expected: dict[str, int] = {line["name"]: 0 for line in final["standings"]}
    for held in margins.values():
        for name, mine in held:
            expected[name] += sum(
                2 if mine > theirs else 1 if mine == theirs else 0
                for other, theirs in held
                if other != name
            )
    assert {line["name"]: line["points"] for line in final["standings"]} == expected
