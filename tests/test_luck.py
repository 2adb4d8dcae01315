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

import json

import pytest

from analysis_helpers import BLUNDER_SEED, expert_game
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
    blunders = expert_game(BLUNDER_SEED, target=30, keep_heaviest=True)
    clean = expert_game(BLUNDER_SEED, target=30)
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


def test_a_daily_deals_game_splits_from_its_record() -> None:
    """The daily deal (P31): three rounds against its bot, written without a winner
    and with ``"daily"``. Split from the record as the replay page does: the result
    is the daily's own net (the person's points minus the bot's), the skill the
    analysis's losses (the person keeps the heaviest tile: blunders), the first
    round's luck what the expert in both seats makes of the same deal, and the
    parts add up; the web's analysis job gives the same split."""
    pytest.importorskip("starlette")
    from analysis_helpers import keeping_heaviest
    from passing_game.bots import make
    from passing_game.bots.analysis import record_seed, seat_seed
    from passing_game.records import dump_record, load_record
    from passing_game.web.daily import (
        DAILY_LEVEL,
        DAILY_ROUNDS,
        RoundsMatch,
        daily_record,
        daily_rules,
        daily_seed,
    )
    from passing_game.web.review.analyses import luck_and_skill

    seed = daily_seed("2026-03-01", "a test site's secret")
    game = RoundsMatch(daily_rules(), seed)
    person, bot = (
        make("expert", seed=seat_seed(seed, 0)),
        make(DAILY_LEVEL, seed=seat_seed(seed, 1)),
    )
    while not game.is_over:
        seat = game.to_move
        view = game.view(seat)
        game.play(keeping_heaviest(view, person.choose(view)) if seat == 0 else bot.choose(view))
    text = daily_record(dump_record(game, names=["Ana", "Hard bot"]))
    data = json.loads(text)
    assert "winner" not in data and data["daily"] == {"rounds": DAILY_ROUNDS}
    replayed = load_record(text)
    assert sum(1 for r in replayed.rounds if r.result is not None) == DAILY_ROUNDS
    key = record_seed(data)
    worth = deal_values(replayed, key)
    assert len(worth) == DAILY_ROUNDS
    # Round 1's luck: the expert in both seats, seeded as the table seeds its bots.
    experts = RoundsMatch(daily_rules(), seed, rounds=1)
    both = [make("expert", seed=seat_seed(key, s)) for s in (0, 1)]
    while not experts.is_over:
        experts.play(both[experts.to_move].choose(experts.view(experts.to_move)))
    assert worth[0] == experts.rounds[0].result.points_by_side()
    found = analysis.analyse(replayed, 0, seed=key)
    assert found.count("blunder") >= 1
    mine = split(replayed, worth, {0: found})[0]
    assert mine.result == data["scores"][0] - data["scores"][1]  # the daily's net (P31)
    assert mine.skill == -round(found.total_loss, 3) <= -analysis.BLUNDER
    assert mine.result == pytest.approx(mine.luck + mine.skill + mine.rest)
    shown = luck_and_skill(replayed, 0, found, key)
    assert shown == {"result": mine.result, "luck": mine.luck, "skill": mine.skill,
                     "rest": mine.rest}  # fmt: skip
