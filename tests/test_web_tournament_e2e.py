"""Tournaments in Chromium, three server processes on one PostgreSQL (issue 26, item 1; P54).

Three people sign up, each on a process of their own (as a balancer would
send them); one creates the tournament from the lobby's card, the others
open its link and join. Each plays their own games by clicking: "Go to your
game" when the page says it has started, tiles and Draw and Pass at the
table, then back to the tournament's page. A Swiss (byes), an arena (paired
again as soon as a game ends) and a duplicate (a bot fills the short table,
both tables on the same deals) are run so; the standings the page shows are
then checked against a replay of the stored records (``/api/tables/CODE/record``).
"""

from __future__ import annotations

import json
import time
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
    with urllib.request.urlopen(server.url(path), timeout=10) as response:
        return json.load(response)


def people(browser: Browser, servers: list[Server], names: list[str]) -> list[Page]:
    pages = []
    for i, name in enumerate(names):
        page = browser.new_context(viewport=PHONE if i == 2 else DESKTOP).new_page()
        page.goto(servers[i % len(servers)].url("/"))
        page.locator("#create-button").wait_for()
        sign_up(page, name)
        pages.append(page)
    return pages


def create(page: Page, kind: str, length: int, size: int = 2) -> str:
    """Through the lobby's card, as a person fills it in; the tournament's id."""
    page.locator(".tournaments-card summary").click()
    page.fill("#t-name", f"Test {kind}")
    page.select_option("#t-kind", kind)
    page.select_option("#t-size", str(size))
    page.fill("#t-length", str(length))
    page.select_option("#t-clock", "20")
    page.fill("#t-starts", "5")  # started by hand once everyone is in
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
    assert len(seen["standings"]) == len(pages), seen
    expect(pages[0].locator(".standings tbody tr")).to_have_count(len(pages), timeout=15_000)
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


def test_a_swiss_with_a_bye_each_round_on_three_processes(
    browser: Browser, servers: list[Server], shots: Path
) -> None:
    pages = people(browser, servers, ["Ana", "Ben", "Cyd"])
    errors = [watch_errors(p) for p in pages]
    tid = create(pages[0], "swiss", 2)
    join(pages, servers, tid)
    pages[1].locator(".your-game, .tournament-tables li").first.wait_for(timeout=15_000)
    pages[0].screenshot(path=str(shots / "tournament-swiss-round1.png"), full_page=True)
    final = run(pages, servers[0], tid, lambda s: s["status"] == "finished")
    back_on_the_page(pages, servers[0].url(f"/tournament/{tid}"))
    byes = [t for t in final["tables"] if t.get("bye")]
    assert len(byes) == 2 and len({b["seats"][0] for b in byes}) == 2  # never twice
    played = [frozenset(t["seats"]) for t in final["tables"] if not t.get("bye")]
    assert len(played) == len(set(played)) == 2  # nobody meets twice
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
    # A player's games: each round Ana either played or had the bye.
    pages[2].locator(".standings button", has_text="Ana").click()
    expect(pages[2].locator(".tournament-tables li")).to_have_count(2)
    pages[2].locator('[data-key="t-all"]').click()
    expect(pages[2].locator(".tournament-tables li")).to_have_count(4)
    assert not [e for found in errors for e in found], errors


def test_an_arena_pairs_people_again_as_soon_as_their_game_ends(
    browser: Browser, servers: list[Server]
) -> None:
    pages = people(browser, servers, ["Dora", "Eli"])
    tid = create(pages[0], "arena", 5)
    join(pages, servers, tid)
    # Two games each, one after the other, while the arena runs.
    seen = run(pages, servers[1], tid, lambda s: sum(1 for t in s["tables"] if t["finished"]) >= 2)
    assert seen["status"] == "running"
    got = {line["name"]: line["points"] for line in seen["standings"]}
    assert got == replayed_points(servers[0], seen)
    assert all(line["games"] >= 2 for line in seen["standings"])


def test_a_duplicate_round_deals_every_table_the_same_and_ranks_by_matchpoints(
    browser: Browser, servers: list[Server], shots: Path
) -> None:
    pages = people(browser, servers, ["Fay", "Gus", "Hal"])
    tid = create(pages[0], "duplicate", 1)
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
