"""Public profiles with statistics (issue 27, item 3; P60).

The statistics are pure (``web/profiles/model.py``): each count is checked on
hand-made records whose every number can be counted by hand, naming the rule it
rests on. The profile itself (``GET /api/profiles/NAME``) on SQLite and
PostgreSQL: Ana's finished game, her rating changes and a kept analysis of her
seat give the numbers a recomputation from the stored record gives; a game under
way, with its moves, never appears in the profile nor changes it; an unknown or
deleted account is a 404 with a sentence.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from passing_game import Match, Rules, load_record
from passing_game.moves import parse_move
from passing_game.outcome import Deal
from passing_game.records import record_marks
from passing_game.tiles import TILES, Tile
from passing_game.web.profiles import model
from passing_game.web.ratings.model import display
from passing_game.web.review.replay import record_hash
from passing_game.web.store import analyses as analysis_rows
from passing_game.web.store import ratings as rating_rows
from passing_game.web.store.rows import ChangeRow
from site_helpers import PASSWORD, Site
from web_helpers import create, either_store, time_limit


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile(int(t[0]), int(t[2])) for t in text.split())


def deal(hands: list[str], first: str, leader: int) -> Deal:
    """Hands as written, the boneyard every other tile with ``first`` drawn first."""
    held = [tiles(h) for h in hands]
    used = {t for hand in held for t in hand} | set(tiles(first))
    rest = [t for t in TILES if t not in used]
    return Deal(tuple(held), tiles(first) + tuple(rest), leader)


def played(rules: Rules, deals: list[Deal], moves: list[str]) -> Match:
    match = Match(rules, seed=1, deals=deals)
    for move in moves:
        match.play(parse_move(move))
    return match


#: Two players, two tiles each, target 15: three rounds that can be counted by hand.
#: Round 1: 0 plays 6-6, 1 passes, 0 draws 4-6, 1 passes, 0 plays 4-6, 1 and 0 pass:
#: every seat passed in a row (D3), pips 0-1 = 1 against 5-5 + 2-3 = 15, seat 0 scores
#: 15 - 1 = 14 (R7). Round 2: 1 plays 3-3, 0 passes, 1 plays 3-5 and goes out (R6.1):
#: seat 1 scores 1-1 + 1-2 = 5. Round 3: 0 plays 2-2, 1 passes (a timeout: the bot's
#: move), 0 plays 2-4 and goes out: 6-6 + 0-0 = 12, seat 0 reaches 26 and wins.
TWO = Rules(players=2, hand_size=2, target=15)
TWO_DEALS = [
    deal(["6-6 0-1", "5-5 2-3"], "4-6", 0),
    deal(["1-1 1-2", "3-3 3-5"], "4-4", 1),
    deal(["2-2 2-4", "6-6 0-0"], "4-4", 0),
]
TWO_MOVES = ["L6-6", "pass", "draw", "pass", "L4-6", "pass", "pass"]
TWO_MOVES += ["L3-3", "pass", "R3-5"]
TWO_MOVES += ["L2-2", "pass", "R2-4"]


def two() -> tuple[Match, dict[tuple[int, int], str]]:
    match = played(TWO, TWO_DEALS, TWO_MOVES)
    assert match.is_over and match.scores == [26, 5] and match.winner == 0
    return match, {(3, 2): "timeout"}


def test_the_winner_of_three_rounds_counted_by_hand() -> None:
    match, marks = two()
    t = model.tally(match, 0, marks)
    assert (t.games, t.games_won, t.finished) == (1, 1, 1)
    assert (t.rounds, t.rounds_won) == (3, 2)  # rounds 1 and 3
    assert t.points == 14 + 12  # R7: the others' pips less one's own
    assert t.dominoes == 1  # R6.1: round 3; round 1 ended all passing (D3)
    assert (t.blocks, t.blocks_won) == (1, 1)  # D3's round 1, won
    assert t.pips_left == 1 + 5 + 0  # 0-1; 1-1 + 1-2; nothing
    # Every own turn offered a choice (a draw or a pass at least, R4): round 1's four,
    # round 2's pass, round 3's two plays; one draw, two passes.
    assert (t.decisions, t.passes, t.draws) == (7, 2, 1)
    s = model.summary(t)
    assert s["points_per_round"] == pytest.approx(26 / 3)
    assert s["pips_left_per_round"] == pytest.approx(2.0)
    assert s["pass_share"] == pytest.approx(2 / 7) and s["draw_share"] == pytest.approx(1 / 7)


def test_the_loser_and_a_move_a_bot_made_for_them() -> None:
    match, marks = two()
    t = model.tally(match, 1, marks)
    assert (t.games, t.games_won, t.finished) == (1, 0, 1)  # a timeout is not leaving
    assert (t.rounds, t.rounds_won, t.points) == (3, 1, 5)
    assert (t.dominoes, t.blocks, t.blocks_won) == (1, 1, 0)
    assert t.pips_left == 15 + 0 + 12
    # Round 1's three passes, round 2's two plays; round 3's pass was the bot's (a mark).
    assert (t.decisions, t.passes, t.draws) == (5, 3, 0)
    assert model.tally(match, 1).decisions == 6  # the same game without its mark


def test_a_game_left_to_a_stand_in_or_resigned_is_not_played_to_the_end() -> None:
    match, _marks = two()
    assert model.tally(match, 1, {(3, 2): "stand-in"}).finished == 0
    resigned = played(TWO, TWO_DEALS[:1], ["L6-6"])
    resigned.resign(1)
    t = model.tally(resigned, 1)
    assert (t.games, t.games_won, t.finished, t.rounds) == (1, 0, 0, 0)  # no round ended
    assert model.tally(resigned, 0).games_won == 1


def test_a_partnership_counted_for_both_partners() -> None:
    # Four players in partnerships, one tile each: seat 0 plays 6-6 and goes out (R6.1);
    # side 0 (seats 0 and 2) counts 0 + 0-0 = 0, side 1 5-5 + 4-4 = 18 (D6): 18 points.
    rules = Rules(players=4, partnerships=True, hand_size=1, target=10)
    match = played(rules, [deal(["6-6", "5-5", "0-0", "4-4"], "1-1", 0)], ["L6-6"])
    going_out = model.tally(match, 0, partner="Cris")
    partner = model.tally(match, 2, partner="Ana")
    assert (going_out.dominoes, partner.dominoes) == (1, 0)  # a partner's going out: not one's own
    assert going_out.points == partner.points == 18
    assert (going_out.decisions, partner.decisions) == (1, 0)  # seat 2 never moved
    assert partner.partners["Ana"] == model.PartnerTally(1, 1, 1, 1)
    both = model.Tally().add(partner).add(model.tally(match, 2, partner="Ana"))
    assert model.summary(both)["partners"] == [
        {"name": "Ana", "games": 2, "games_won": 2, "rounds": 2, "rounds_won": 2}
    ]
    assert model.tally(match, 1, partner="Dan").games_won == 0


def test_what_the_analysis_said_of_passes_and_draws() -> None:
    rows = [
        {"played": "pass", "mark": "mistake"},
        {"played": "pass", "mark": None},
        {"played": "pass", "mark": "blunder"},
        {"played": "draw", "mark": None},
        {"played": "L3-5", "mark": "blunder"},
        {"played": "pass", "mark": None, "forced": True},  # no choice: not counted
        {"played": "draw", "mark": None, "auto": "timeout"},  # the bot's: not counted
    ]
    t = model.analysed(rows)
    assert (t.analysed, t.analysed_decisions, t.mistakes, t.blunders) == (1, 5, 1, 2)
    assert (t.analysed_passes, t.pass_errors, t.analysed_draws, t.draw_errors) == (3, 2, 1, 0)
    a = model.summary(t)["analysis"]
    assert a["pass_error_share"] == pytest.approx(2 / 3) and a["draw_error_share"] == 0.0
    assert model.summary(model.Tally())["analysis"]["pass_error_share"] is None


def test_a_rating_graph_starts_before_the_first_change() -> None:
    series = model.rating_series(
        [("2", 1.0, 1000, 1069), ("4", 2.0, 1000, 990), ("2", 3.0, 1069, 1101)]
    )
    assert [p["rating"] for p in series["2"]] == [1000, 1069, 1101]
    assert [p["rating"] for p in series["4"]] == [1000, 990]


# -- the profile from the store, on both databases -------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Site, Any]]:
    from passing_game.web.http.app import create_app

    for store in either_store(request.param, tmp_path, "profiles"):
        app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
        with time_limit(150), TestClient(app) as client:
            yield Site(client), store


def profile_of(site: Site, name: str) -> dict[str, Any]:
    got = site.get(None, f"/api/profiles/{name}")
    assert got.status_code == 200, got.text
    return dict(got.json())


def test_a_profile_is_its_stored_games_and_never_a_game_under_way(site: tuple[Site, Any]) -> None:
    web, store = site
    ana = web.sign_up("Ana")
    web.sign_up("Ben")
    with web.socket("Ana") as player:
        code = create(player, ["you", "random"], target=10)["table"]
        player.play_out()
    record = web.get(None, f"/api/tables/{code}/record?game=1").json()
    match, marks = load_record(record), record_marks(record)

    # A rating change for the game, and a kept analysis of Ana's seat in it.
    now = time.time()
    with store.transaction() as tx:
        mu, sigma = rating_rows.lock_rating(tx, ana, "2", 25.0, 25 / 3, now)
        rating_rows.add_change(tx, code, 1, ChangeRow(ana, "2", mu, sigma, 27.0, 7.5), now)
        key = record_hash(match, marks)
        evaluations = [
            {"played": "pass", "mark": "mistake"},
            {"played": "draw", "mark": None},
            {"played": "L1-2", "mark": "blunder"},
        ]
        state = {"status": "done", "analysis": {"evaluations": evaluations}}
        analysis_rows.claim(tx, key, 0, json.dumps(state), now)

    before = profile_of(web, "ANA")  # matched as sign-in matches a name
    assert before["name"] == "Ana" and before["finished_games"] == before["counted"] == 1
    expected = model.tally(match, 0, marks).add(model.analysed(evaluations))
    assert before["stats"] == model.summary(expected)
    assert before["stats"]["analysis"]["pass_errors"] == 1
    (rating,) = before["ratings"]
    assert rating["pool"] == "2" and rating["rating"] == display(27.0, 7.5)
    assert [p["rating"] for p in rating["points"]] == [1000, display(27.0, 7.5)]
    (recent,) = before["recent"]
    assert recent["link"] == f"/replay/{code}/1" and recent["result"]["scores"] == match.scores
    assert [p["account"] for p in recent["players"]] == [True, False]  # Ana; the bot

    # A game under way, moves made: nowhere in the profile, which does not change.
    with web.socket("Ana") as player:
        going = create(player, ["you", "random"], target=50)["table"]
        for _ in range(6):
            frame = player.my_turn()
            if frame["paused"] and not frame["round"]["legal"]:
                player.send(type="continue")
                continue
            player.act(frame["round"]["legal"][0])
        assert not player.my_turn()["over"]
        after = profile_of(web, "Ana")
    assert after == before
    assert going not in json.dumps(after)

    # The page: 200 for an account, 404 for a name nobody has; the JSON says why.
    assert web.get(None, "/u/Ana").status_code == 200
    assert web.get(None, "/u/Nobody").status_code == 404
    missing = web.get(None, "/api/profiles/Nobody")
    assert missing.status_code == 404 and missing.json()["code"] == "not-found"
    assert "no account" in missing.json()["error"]

    # A deleted account has no profile; its games stay, with no link to it.
    deleted = web.post("Ana", "/api/account/delete", {"password": PASSWORD})
    assert deleted.status_code == 200, deleted.text
    assert web.get(None, "/api/profiles/Ana").status_code == 404
    assert profile_of(web, "Ben")["finished_games"] == 0


def test_a_partnership_game_is_counted_with_the_partner_as_the_table_names_them(
    site: tuple[Site, Any],
) -> None:
    web, _store = site
    web.sign_up("Ana")
    with web.socket("Ana") as player:
        seats = ["you", "random", "random", "random"]
        code = create(player, seats, partnerships=True, target=10)["table"]
        player.play_out()
    record = web.get(None, f"/api/tables/{code}/record?game=1").json()
    counted = model.tally(load_record(record), 0, record_marks(record))
    seen = profile_of(web, "Ana")
    (game,) = seen["recent"]
    partner = game["players"][2]
    assert partner["account"] is False  # a bot: shown, never linked
    assert seen["stats"]["partners"] == [
        {
            "name": partner["name"],
            "games": 1,
            "games_won": counted.games_won,
            "rounds": counted.rounds,
            "rounds_won": counted.rounds_won,
        }
    ]
    assert game["rules"] == {"players": 4, "partnerships": True}
