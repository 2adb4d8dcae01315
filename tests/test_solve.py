"""Solved mini variants (issue 28, item 2; docs/DECISIONS.md P66, docs/SOLVED.md):
the C tree's information sets, CFR+, best response and the bots as policies.

OpenSpiel's own exploitability is checked in tests/test_solve_openspiel.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from passing_game import Rules
from passing_game.bots import make
from passing_game.solve import SolvedGame, SolveError, available, bot_policy, infoset_key
from passing_game.solve.behaviour import moment, shares
from passing_game.solve.figures import checkpoints

pytestmark = pytest.mark.skipif(not available(), reason="the C solver is not built")

SMALL = [Rules(max_pip=2, hand_size=2), Rules(max_pip=2, hand_size=1)]


@pytest.fixture(scope="module", params=SMALL, ids=["double-2-hand-2", "double-2-hand-1"])
def solved(request: pytest.FixtureRequest) -> SolvedGame:
    game = SolvedGame(request.param)
    game.run(1000)
    return game


def test_every_information_set_is_what_its_view_knows(solved: SolvedGame) -> None:
    """R9: a set's key is its seat's view (own hand and draws, every move), and
    its actions are the view's legal moves (R4), in legal_moves' order."""
    seen = set()
    for index in range(solved.size):
        info = solved.infoset(index)
        view = solved.view_at(index)
        assert view.to_move == info.seat == view.seat
        assert infoset_key(view) == info.key
        assert solved.find(view) == index
        assert [solved.action_of(index, m) for m in view.legal_moves()] == list(
            range(len(info.codes))
        )
        seen.add(info.key)
    assert len(seen) == solved.size == solved.stats()["infosets"]


def test_r3_1_the_leader_by_chance_makes_the_game_fair(solved: SolvedGame) -> None:
    """R3.1: with the leader drawn at random the game is symmetric, so its value is 0."""
    eq = solved.average()
    assert abs(solved.value(eq, eq)) < 1e-4
    assert solved.exploitability(eq) < 1e-4


def test_cfr_plus_exploitability_falls() -> None:
    game = SolvedGame(Rules(max_pip=2, hand_size=2))
    values = []
    for n in (10, 100, 1000):
        game.run(n - game.stats()["iterations"])
        values.append(game.exploitability(game.average()))
    assert values[0] > values[1] > values[2] >= 0
    assert values[2] < 1e-4


def test_r6_1_with_one_tile_the_leader_dominoes_at_once() -> None:
    """R6.1, R7.2: on the double-two with one tile a hand the leader plays its
    tile and wins the other's pips; the set's mean tile is 2 pips (12 / 6)."""
    game = SolvedGame(Rules(max_pip=2, hand_size=1), leader=0)
    game.run(2000)
    eq = game.average()
    assert game.value(eq, eq) == pytest.approx(2.0, abs=1e-6)
    for index in range(game.size):
        info = game.infoset(index)
        if len(info.key) == 6:  # the leader's first decision: play its tile
            probs = game.probabilities(eq, index)
            assert probs[0] == pytest.approx(1.0, abs=1e-4), info.codes
            assert info.codes[0] < 56


def test_a_best_response_beats_a_bot_by_its_exploitability(solved: SolvedGame) -> None:
    """Exploitability is half the best responses' gains; a best response to a
    policy never does worse against it than the equilibrium does."""
    eq = solved.average()
    for name in ("random", "greedy"):
        policy, _ = bot_policy(solved, name)
        exp = solved.exploitability(policy)
        br0 = solved.best_response_value(policy, 0)
        br1 = solved.best_response_value(policy, 1)
        assert exp == pytest.approx((br0 + br1) / 2)
        assert br0 >= solved.value(eq, policy) - 1e-9
        assert br1 >= -solved.value(policy, eq) - 1e-9


def test_a_bots_policy_is_its_choice_at_every_set_it_reaches(solved: SolvedGame) -> None:
    """The policy holds the bot's own move wherever its play leads, nothing elsewhere."""
    policy, asked = bot_policy(solved, "heuristic")
    bot = make("heuristic")
    assert asked > 0
    reached = 0
    for index in range(solved.size):
        probs = list(solved.probabilities(policy, index))
        if sum(probs) == 0:
            continue
        reached += 1
        action = solved.action_of(index, bot.choose(solved.view_at(index)))
        assert probs == [1.0 if a == action else 0.0 for a in range(len(probs))]
    assert reached == asked


def test_random_is_the_uniform_policy(solved: SolvedGame) -> None:
    policy, asked = bot_policy(solved, "random")
    assert asked == 0
    for index in range(solved.size):
        probs = solved.probabilities(policy, index)
        assert all(p == pytest.approx(1 / len(probs)) for p in probs)


def test_moments_read_from_the_key() -> None:
    """D12, D3: the empty train is a lead; after the other seat's pass, a pass ends the round."""
    rules = Rules(max_pip=2, hand_size=2)
    lead = bytes([0, 3, 0, 0, 0, 0])  # seat 0 holds 0-0 and 0-1, leads
    assert moment(lead, rules.hand_size) == "lead"
    # seat 0 leads L0-1 (code 2), seat 1 passes: seat 0 decides after a pass
    assert moment(bytes([0, 3, 0, 0, 0, 0, 2, 57]), 2) == "after a pass"
    # seat 0 leads L0-0 (code 0), seat 1 plays L0-2 (code 4): seat 0 holds one tile
    assert moment(bytes([0, 3, 0, 0, 0, 0, 0, 4]), 2) == "one tile left"
    # seat 1 drew, seat 0 drew 1-2 (index 8), seat 1 passed: the train is still empty
    assert moment(bytes([0, 3, 0, 0, 0, 1, 56, 56, 8, 57]), 2) == "lead"
    # seat 1 drew, seat 0 drew 1-2, seat 1 led L1-1 (code 14): seat 0 holds three
    assert moment(bytes([0, 3, 0, 0, 0, 1, 56, 56, 8, 14]), 2) == "otherwise"


def test_the_equilibrium_passes_with_a_playable_tile_sometimes() -> None:
    """R4.4: free passing is used by the equilibrium; the greedy bot never passes."""
    game = SolvedGame(Rules(max_pip=2, hand_size=2))
    game.run(1000)
    eq_all = {s.moment: s for s in shares(game, game.average())}["all"]
    greedy_all = {s.moment: s for s in shares(game, bot_policy(game, "greedy")[0])}["all"]
    assert eq_all.passes > 0.01 and greedy_all.passes == 0.0


def test_checkpoints() -> None:
    assert checkpoints(1000) == [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
    assert checkpoints(30) == [1, 2, 5, 10, 20, 30]


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (Rules(players=3, max_pip=2), "two players"),
        (Rules(players=4, partnerships=True, max_pip=3), "two players"),
    ],
)
def test_games_the_solver_does_not_take_are_refused(rules: Rules, message: str) -> None:
    with pytest.raises(SolveError, match=message):
        SolvedGame(rules)


def test_a_policy_of_the_wrong_length_is_refused(solved: SolvedGame) -> None:
    with pytest.raises(ValueError, match="doubles"):
        solved.exploitability(solved.average()[:-1])


def test_the_command_writes_its_section_once(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from passing_game.cli import main

    doc, data = tmp_path / "SOLVED.md", tmp_path / "d.json"
    doc.write_text("# Solved\n")
    args = ["solve", "--set", "2", "--hand-size", "2", "--iterations", "50", "--bots", "greedy"]
    for _ in range(2):
        done = CliRunner().invoke(main, [*args, "--markdown", str(doc), "--json", str(data)])
        assert done.exit_code == 0, done.output
    text = doc.read_text()
    assert text.count("<!-- solve double-2-2-free -->") == 1
    assert "`greedy`" in text and text.startswith("# Solved\n")
    figures = json.loads(data.read_text())
    assert figures["stats"]["infosets"] > 0 and figures["bots"][0]["name"] == "greedy"
    for bad, message in [
        (["--set", "6"], "2<=x<=5"),
        (["--bots", "nosuch"], "unknown bot"),
        (["--bots", "omniscient"], "sees every tile"),
        (["--hand-size", "3"], "hand_size must be a whole number from 1 to 2"),
    ]:
        done = CliRunner().invoke(main, ["solve", *bad])
        assert done.exit_code == 2 and message in done.output, (bad, done.output)
