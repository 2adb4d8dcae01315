"""Puzzles from your own games (issue 25, item 2): the analysis's blunders, to find again.

In process on SQLite, with an analyst that searches in threads: a signed-in
person plays a game against a bot, drawing whenever they may (a costly
habit), has its replay analysed, and finds the blunders the analysis marked
as puzzles of their own: the position just before each, from their seat's
view only (R9.2), solved but never rated. Another account and a guest never
see them. ``puzzles_of_game`` is also driven with an analysis written by hand,
to check which moves count as right (an estimate: within ``MISTAKE`` of the
expert's choice; an exact valuation: its answer, and no puzzle at all where
the move played was among the best).
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

from analysis_helpers import expert_game
from passing_game.bots.analysis import BLUNDER, MISTAKE, Analysis, decisions, judge
from passing_game.web.http.app import create_app
from passing_game.web.puzzles.exact import position, value_position
from passing_game.web.puzzles.mine import puzzles_of_game
from passing_game.web.review import api as review
from passing_game.web.store import SqliteStore
from site_helpers import Site, addressed
from web_helpers import TILE_TEXT, create, time_limit


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Site, SqliteStore]]:
    store = SqliteStore(str(tmp_path / "mine.sqlite3"))
    mine = review.Analyst(workers=0)
    old = review.set_analyst(mine)
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    try:
        with time_limit(300), TestClient(addressed(app)) as client:
            yield Site(client), store
    finally:
        review.set_analyst(old)
        mine.close()
        store.close()


def drawing(frame: dict[str, Any]) -> str:
    """Draw whenever drawing is allowed, else the first legal move: a costly habit."""
    legal = frame["round"]["legal"]
    return "draw" if "draw" in legal else legal[0]


def named_tiles(data: Any) -> set[str]:
    return {
        f"{min(int(a), int(b))}-{max(int(a), int(b))}"
        for a, b in TILE_TEXT.findall(json.dumps(data))
    }


def analysed_game(site: Site, who: str) -> tuple[str, dict[str, Any]]:
    """A finished game of ``who``'s against a bot, analysed for ``who``'s seat (1)."""
    with site.socket(who) as me:
        code = create(me, ["you", "random"], target=12)["table"]
        assert me.play_out(drawing)["over"]
    started = site.post(who, "/api/analysis", {"code": code, "game": 1, "seat": 0})
    assert started.status_code in (200, 202), started.text
    key = started.json()["hash"]
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        got = site.get(who, f"/api/analysis/{key}/0").json()
        if got["status"] == "done":
            return str(code), got
        time.sleep(0.2)
    raise AssertionError("the analysis never finished")


def test_the_blunders_of_an_analysed_game_come_back_as_puzzles(
    site: tuple[Site, SqliteStore],
) -> None:
    web, _store = site
    web.sign_up("Ana", address="10.0.0.1")
    web.sign_up("Ben", address="10.0.0.2")
    assert web.get("Ana", "/api/puzzles/mine").json()["puzzles"] == []

    code, analysed = analysed_game(web, "Ana")
    blunders = analysed["analysis"]["blunders"]
    assert blunders >= 1, "drawing at every turn should cost a blunder somewhere"
    listing = web.get("Ana", "/api/puzzles/mine").json()
    rows = listing["puzzles"]
    assert 1 <= len(rows) <= blunders and listing["none"] is None
    assert all(r["code"] == code and r["game"] == 1 and r["tried"] is None for r in rows)
    assert {r["valued"] for r in rows} <= {"every-deal", "average", "estimate"}
    replay = web.get("Ana", f"/api/replay/{code}/1").json()

    first = rows[0]
    got = web.get("Ana", f"/api/puzzles/mine/{first['id']}")
    assert got.status_code == 200, got.text
    puzzle = got.json()["puzzle"]
    # The position just before the blunder, from seat 1's view: what the replay showed.
    step = replay["steps"][first["step"]]
    assert puzzle["seat"] == 0 == step["to_move"] and puzzle["kind"] == "view"
    assert sorted(puzzle["hand"]) == sorted(step["hands"][0])
    assert puzzle["train"] == step["train"]
    # R9.2: no hidden tile before the answer, and not the move played either.
    seen = set(puzzle["hand"]) | {f"{min(a, b)}-{max(a, b)}" for a, b in puzzle["train"]}
    # (The id names the analysis, the seat and the step: digits that may look like a tile.)
    shown = {**got.json(), "puzzle": {k: v for k, v in puzzle.items() if k != "id"}}
    assert named_tiles(shown) <= seen
    assert puzzle["hands"] is None and puzzle["boneyard_tiles"] is None
    assert "played" not in puzzle["mine"] and "link" not in puzzle["mine"]

    # The move played in the game is wrong again; solving never changes a rating.
    played = next(m for m in analysed["analysis"]["evaluations"] if m["step"] == first["step"])[
        "played"
    ]
    before = got.json()["you"]
    solved = web.post("Ana", f"/api/puzzles/mine/{first['id']}/solve", {"move": played})
    assert solved.status_code == 200, solved.text
    body = solved.json()
    assert body["correct"] is False and body["rated"] is False
    assert body["mine"]["played"] == played and body["mine"]["link"].startswith(
        f"/replay/{code}/1?seat=1&step={first['step']}"
    )
    assert body["you"]["rating"] == before["rating"] and body["you"]["plays"] == before["plays"]
    right = body["answer"][0]
    again = web.post("Ana", f"/api/puzzles/mine/{first['id']}/solve", {"move": right}).json()
    assert again["correct"] is True and again["rated"] is False
    # The list says the first try missed it.
    assert web.get("Ana", "/api/puzzles/mine").json()["puzzles"][0]["tried"] == {"correct": False}

    # Nobody else's: another account has none and cannot open Ana's; a guest must sign in.
    ben = web.get("Ben", "/api/puzzles/mine").json()
    assert ben["puzzles"] == [] and "Analyse" in ben["none"]
    for who in ("Ben",):
        refused = web.get(who, f"/api/puzzles/mine/{first['id']}")
        assert refused.status_code == 404 and refused.json()["code"] == "no-puzzle"
        stolen = web.post(who, f"/api/puzzles/mine/{first['id']}/solve", {"move": right})
        assert stolen.status_code == 404
    guest = web.get(None, "/api/puzzles/mine")
    assert guest.status_code == 401 and guest.json()["code"] == "signed-out"
    assert web.get(None, f"/api/puzzles/mine/{first['id']}").status_code == 401


def test_bad_input_is_refused_and_changes_nothing(site: tuple[Site, SqliteStore]) -> None:
    web, store = site
    web.sign_up("Ana", address="10.0.0.1")
    for wanted in ("mine-nothing-0-3", "x" * 80, "mine-" + "a" * 70, "open-2p-0123456789"):
        got = web.get("Ana", f"/api/puzzles/mine/{wanted}")
        assert got.status_code == 404 and got.json()["code"] == "no-puzzle", wanted
    with web.as_("Ana") as client:  # no CSRF token: refused before anything is read
        refused = client.post("/api/puzzles/mine/mine-x-0-1/solve", json={"move": "draw"})
    assert refused.status_code == 403
    with store.transaction() as tx:
        assert tx.one("SELECT COUNT(*) FROM web_puzzle_attempts") == (0,)


# -- which moves are right, from an analysis written by hand ------------------------


def crafted(values_of: Any, exact: dict[str, Any] | None = None) -> tuple[Any, Any, Any]:
    """A game of the experts and an analysis of seat 0 with one blunder, by hand."""
    match = expert_game(5, target=10)
    turns = [t for t in decisions(match, 0) if len(t.view.legal_moves()) >= 3]
    assert turns, "the game has a decision among three moves or more"
    turn = turns[0]
    legal = [str(m) for m in turn.view.legal_moves()]
    played = legal[-1]
    values = values_of(legal, played)
    best = max(values, key=values.__getitem__)
    found = {"best": best, "values": values, "visits": dict.fromkeys(values, 10), "samples": 80}
    evaluation = judge(turn, found)
    assert evaluation.mark == "blunder"
    result = Analysis(0, "5", (evaluation,))
    state: dict[str, Any] = {"status": "done", "analysis": result.to_dict()}
    if exact is not None:
        state["exact"] = {str(turn.step): exact(legal, played)}
    return match, state, turn


def test_an_estimates_answer_is_every_move_the_analysis_would_not_call_a_mistake() -> None:
    def values_of(legal: list[str], played: str) -> dict[str, float]:
        # The best, one a little worse (not a mistake), the rest a blunder away.
        shown = {m: -BLUNDER - 1.0 for m in legal}
        shown[legal[0]] = 4.0
        shown[legal[1]] = 4.0 - MISTAKE + 0.5
        return shown

    match, state, turn = crafted(values_of)
    found = puzzles_of_game(match, state, "k" * 64, "ABC234", 1, 0.0)
    assert len(found) == 1
    mine = found[0]
    assert mine.valued == "estimate" and mine.puzzle.proof == "average"
    assert [str(m) for m in mine.puzzle.answer] == [str(m) for m in turn.view.legal_moves()[:2]]
    assert mine.puzzle.to_move == 0 and mine.step == turn.step
    assert mine.puzzle.position().view(0).hand == turn.view.hand  # the position before it
    assert mine.link == f"/replay/ABC234/1?seat=1&step={turn.step}"


def test_an_exact_valuation_decides_and_a_move_it_proves_best_is_no_puzzle() -> None:
    def values_of(legal: list[str], played: str) -> dict[str, float]:
        return {m: (5.0 if m == legal[0] else -10.0) for m in legal}

    def proved_wrong(legal: list[str], played: str) -> dict[str, Any]:
        return {"values": {m: (1.0 if m == legal[1] else -2.0) for m in legal},
                "answer": [legal[1]], "proof": "every-deal", "themes": []}  # fmt: skip

    match, state, turn = crafted(values_of, proved_wrong)
    [mine] = puzzles_of_game(match, state, "k" * 64, "ABC234", 1, 0.0)
    assert mine.valued == "every-deal" and mine.puzzle.proof == "every-deal"
    assert [str(m) for m in mine.puzzle.answer] == [str(turn.view.legal_moves()[1])]

    def proved_fine(legal: list[str], played: str) -> dict[str, Any]:
        return {"values": dict.fromkeys(legal, 0.0), "answer": legal, "proof": "every-deal"}

    match, state, turn = crafted(values_of, proved_fine)
    assert puzzles_of_game(match, state, "k" * 64, "ABC234", 1, 0.0) == []


def test_the_exact_valuation_is_the_view_puzzles_own() -> None:
    """``value_position`` gives what ``puzzles.derive`` gives, where the deals are few."""
    from passing_game import Round, Rules
    from passing_game.bots import make
    from passing_game.puzzles import Solver, derive
    from passing_game.web.puzzles.exact import small_enough

    rules = Rules(players=4, partnerships=True)
    bots = [make("easy", seed=s) for s in range(4)]
    for seed in range(40):
        rnd = Round.new(rules, seed=seed)
        while rnd.result is None:
            seat = rnd.to_move
            assert seat is not None
            if len(rnd.legal_moves()) > 1 and small_enough(rnd):
                deal = rnd.deal
                got = value_position(
                    rules.to_dict(),
                    [[str(t) for t in h] for h in deal.hands],
                    [str(t) for t in deal.boneyard],
                    deal.leader,
                    [str(m) for m in rnd.moves],
                )
                if got is None:  # past the budget: try another position
                    rnd.play(bots[seat].choose(rnd.view(seat)))
                    continue
                derived = derive("view", rnd, Solver())
                assert got["proof"] == derived.proof and got["deals"] == derived.deals
                assert sorted(got["values"].values()) == sorted(
                    derived.value(c) for c in derived.totals
                )
                return
            rnd.play(bots[seat].choose(rnd.view(seat)))
    raise AssertionError("no position small enough to value")


def test_position_is_the_round_before_the_evaluated_move() -> None:
    match = expert_game(5, target=10)
    turn = decisions(match, 0)[3]
    found = {"best": str(turn.played), "values": {}, "visits": {}, "samples": 0}
    rnd = position(match, judge(turn, found))
    assert rnd.to_move == 0 and rnd.view(0).hand == turn.view.hand
    assert rnd.view(0).history == turn.view.history


def test_a_valuation_that_fails_costs_its_puzzle_not_the_analysis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from passing_game.web.puzzles import exact

    def fails(*_args: Any) -> None:
        raise RuntimeError("a bug in the search")

    match, state, _turn = crafted(
        lambda legal, played: {m: (5.0 if m == legal[0] else -10.0) for m in legal}
    )
    result = Analysis.from_dict(state["analysis"])
    monkeypatch.setattr(exact, "small_enough", lambda _rnd: True)
    monkeypatch.setattr(exact, "value_position", fails)
    assert exact.exact_values(match, result) == {}
