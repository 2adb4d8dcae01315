"""Luck and skill in a finished game (issue 26, item 2; ``bots/luck.py``).

A game the expert played in every seat splits into luck alone (the replay
makes the same moves: result and luck equal, skill and rest 0). In a game
where seat 1 keeps its heaviest tile again and again (``analysis_helpers``),
the analysis of seat 1 marks blunders, its skill is at least one blunder's
cost below zero, the first round's luck is the expert game's (the same deal
from the same seed, D9, seen the same way) and the parts add up to the
result, which is the round's points as the record scores them (R7).
"""

from __future__ import annotations

import pytest

from analysis_helpers import expert_game
from passing_game import Match, Rules
from passing_game.bots import analysis
from passing_game.bots.luck import deal_values, split


def test_a_game_of_the_experts_own_moves_is_all_luck() -> None:
    match = expert_game(9, target=10)
    worth = deal_values(match, match.seed)
    assert worth == [r.result.points_by_side() for r in match.rounds if r.result]
    for part in split(match, worth, {}):
        assert part.result == part.luck and part.skill == 0.0 and part.rest == 0.0
    sides = split(match, worth, {})
    assert sides[0].result == -sides[1].result  # net points: what one side wins the other loses


def test_a_deliberate_blunder_costs_skill_and_the_parts_add_up() -> None:
    blunders = expert_game(9, target=10, keep_heaviest=True)
    clean = expert_game(9, target=10)
    worth = deal_values(blunders, blunders.seed)
    assert worth[0] == deal_values(clean, clean.seed)[0]  # the same first deal, played alike
    found = analysis.analyse(blunders, 0, seed=blunders.seed)
    assert found.count("blunder") >= 1
    parts = split(blunders, worth, {0: found})
    mine, theirs = parts[0], parts[1]
    assert mine.skill <= -analysis.BLUNDER and theirs.skill == 0.0  # seat 2 was not analysed
    for part in parts:
        assert part.result == pytest.approx(part.luck + part.skill + part.rest)
    # The result by hand: the points each round gave, seat 1's minus seat 2's.
    by_hand = sum(r.result.points - 2 * r.result.points * r.result.winner for r in blunders.rounds
                  if r.result and r.result.winner is not None)  # fmt: skip
    assert mine.result == by_hand


def test_only_games_of_two_sides_are_split() -> None:
    match = Match(Rules(players=3, target=5), seed=1)
    with pytest.raises(ValueError, match="two sides"):
        deal_values(match, 1)
