"""What the solution teaches a bot (issue 28, item 7; docs/STRENGTH.md, "What the
solution teaches the expert"): each move's value against the equilibrium, and
a bot's losses to it, decision by decision, adding up to its points a round
against the equilibrium (the performance-difference identity)."""

from __future__ import annotations

import itertools
from statistics import mean

import pytest

from passing_game import Rules
from passing_game.bots import make
from passing_game.moves import PASS_CODE
from passing_game.solve import SolvedGame, available, bot_policy
from passing_game.solve.behaviour import DIFFERENCES
from passing_game.solve.lessons import (
    action_values,
    by_difference,
    difference,
    exact,
    interval,
    main,
    markdown,
    row,
    sampled,
)

pytestmark = pytest.mark.skipif(not available(), reason="the C solver is not built")

SMALL = [Rules(max_pip=2, hand_size=2), Rules(max_pip=2, hand_size=1)]


@pytest.fixture(scope="module", params=SMALL, ids=["double-2-hand-2", "double-2-hand-1"])
def solved(request: pytest.FixtureRequest) -> SolvedGame:
    game = SolvedGame(request.param)
    game.run(1000)
    return game


@pytest.mark.parametrize("bot", ["greedy", "heuristic", "hard"])
def test_a_bots_losses_add_up_to_its_points_lost_against_the_equilibrium(
    solved: SolvedGame, bot: str
) -> None:
    """Summed over both seats, the equilibrium's own value cancels: the losses
    are exactly the points a round the bot loses playing the equilibrium."""
    eq = solved.average()
    values = action_values(solved, eq)
    policy, _ = bot_policy(solved, bot)
    found = exact(solved, eq, values, policy)
    lost = sum(d.weight * d.loss for d in found)
    against = (solved.value(policy, eq) - solved.value(eq, policy)) / 2
    assert lost == pytest.approx(-against, abs=1e-12)
    for d in found:
        assert sum(d.parts.values()) == pytest.approx(d.loss, abs=1e-12)
    # Where the equilibrium's own play goes, no move beats its mix (it is
    # exploitable by about 1e-6); off its path (after the bot's own
    # departures) its mix is CFR's leftover and a bot may do better there.
    on_path = solved.reach(eq, eq)
    assert min(d.loss for d in found if on_path[d.index] > 1e-4) > -1e-3
    assert any(on_path[d.index] > 1e-4 for d in found)
    assert interval(found, 0) == (pytest.approx(lost), 0.0)


def test_a_move_out_of_the_equilibriums_support_is_worth_no_more() -> None:
    """Against an equilibrium, the moves it plays share the best value (they
    are indifferent), and no other move beats them."""
    game = SolvedGame(Rules(max_pip=2, hand_size=2))
    game.run(2000)
    eq = game.average()
    values = action_values(game, eq)
    reach = game.reach(eq, eq)
    checked = 0
    for index in range(game.size):
        if reach[index] < 1e-3:
            continue
        q = values.of(index)
        probs = list(game.probabilities(eq, index))
        best = max(q)
        for p, v in zip(probs, q, strict=True):
            if p > 0.05:
                assert v == pytest.approx(best, abs=1e-3)
        checked += 1
    assert checked > 100


def test_margins_and_the_lower_count_are_read_over_the_others_hands() -> None:
    """At the leader's first decision (D12) its expected margin is the other
    seat's expected pips less its own, and its chance of holding the lower
    count is over every hand the other seat may hold (R2, R7)."""
    rules = Rules(max_pip=2, hand_size=2)
    game = SolvedGame(rules)
    game.run(50)
    values = action_values(game, game.average())
    checked = 0
    for index in range(game.size):
        info = game.infoset(index)
        if len(info.key) != 6:  # the lead: no move made yet
            continue
        view = game.view_at(index)
        mine = sum(t.pips for t in view.hand)
        rest = [t for t in rules.tiles if t not in view.hand]
        hands = list(itertools.combinations(rest, rules.hand_size))
        others = [sum(t.pips for t in h) for h in hands]
        assert values.margin[index] == pytest.approx(mean(others) - mine)
        assert values.lowest[index] == pytest.approx(mean(o > mine for o in others))
        checked += 1
    assert checked == 2 * 15  # each seat leading with each of its 15 hands


def test_the_sampled_losses_estimate_the_exact_ones() -> None:
    game = SolvedGame(Rules(max_pip=2, hand_size=2))
    game.run(1000)
    eq = game.average()
    values = action_values(game, eq)
    policy, _ = bot_policy(game, "greedy")
    truth = sum(d.weight * d.loss for d in exact(game, eq, values, policy))
    found = sampled(game, eq, values, make("greedy"), 3000, seed=1)
    estimate, half = interval(found, 3000)
    assert truth > 0.3  # greedy loses real points here
    assert abs(estimate - truth) < 2 * half
    # the same deals whatever the count of rounds, and for every bot
    first = sampled(game, eq, values, make("greedy"), 20, seed=1)
    again = sampled(game, eq, values, make("greedy"), 40, seed=1)
    assert [d.index for d in first] == [d.index for d in again[: len(first)]]


def test_differences_are_named_as_the_behaviour_tables_name_them() -> None:
    assert difference(4, 4, False) is None
    assert difference(4, 6, True) == "leads another tile"
    assert difference(4, 6, False) == "plays another tile"
    assert difference(PASS_CODE, 4, False) == "passes where the equilibrium plays"
    assert difference(4, PASS_CODE, False) == "plays where the equilibrium passes"
    assert difference(56, 4, False) == "draws where the equilibrium plays"
    assert difference(4, 56, False) == "plays where the equilibrium draws"
    assert difference(56, PASS_CODE, False) == DIFFERENCES[-1]


def test_the_tables(solved: SolvedGame) -> None:
    eq = solved.average()
    policy, _ = bot_policy(solved, "greedy")
    found = exact(solved, eq, action_values(solved, eq), policy)
    text = markdown(found, "`greedy`")
    assert text.startswith("#### `greedy`")
    for name in DIFFERENCES:
        assert f"| {name} |" in text
    total = row("all", found)
    assert sum(lost for _n, _s, lost in by_difference(found)) == pytest.approx(total.lost)


def test_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--set", "2", "--hand-size", "2", "--iterations", "200", "--bot", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "#### `greedy`, its whole policy (exploitability 0.4" in out
    assert "| passes where the equilibrium plays |" in out


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--set", "9"], "max_pip must be one of"),
        (["--bot", "nobody"], "unknown bot 'nobody'"),
        (["--bot", "greedy:frob=1"], "bad options"),
        (["--rounds", "-1"], "--rounds is 0 or more"),
    ],
)
def test_the_command_refuses_bad_input_before_solving(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    assert says in capsys.readouterr().err
