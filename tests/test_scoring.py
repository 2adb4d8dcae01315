"""Scoring a round (R7, D4, D6, D11) and every worked example of RULES.md."""

from __future__ import annotations

import pytest

from passing_game import TILES, Round, Rules, Score, score
from passing_game.scoring import side_pips


def test_worked_example_three_players_literal() -> None:
    """RULES.md: 3 players end with 4, 10 and 15: the first scores 10 + 15 - 4 = 21."""
    assert score(Rules(players=3), [4, 10, 15]) == Score(0, 21, (4, 10, 15))


def test_worked_example_three_players_pairwise() -> None:
    """RULES.md / D4 pairwise: (10 - 4) + (15 - 4) = 17."""
    assert score(Rules(players=3, scoring="pairwise"), [4, 10, 15]) == Score(0, 17, (4, 10, 15))


@pytest.mark.parametrize("scoring", ["literal", "pairwise"])
def test_worked_example_two_players_domino(scoring: str) -> None:
    """RULES.md: 2 players end with 0 and 23: the first scores 23 (D4: both variants agree)."""
    assert score(Rules(players=2, scoring=scoring), [0, 23]) == Score(0, 23, (0, 23))  # type: ignore[arg-type]
    assert score(Rules(players=2, scoring=scoring), [23, 0]) == Score(1, 23, (23, 0))  # type: ignore[arg-type]


@pytest.mark.parametrize("scoring", ["literal", "pairwise"])
def test_worked_example_four_players_tie(scoring: str) -> None:
    """RULES.md / R7.3: 4 players end with 5, 5, 12 and 20, no partnerships: nobody scores."""
    result = score(Rules(players=4, scoring=scoring), [5, 5, 12, 20])  # type: ignore[arg-type]
    assert result == Score(None, 0, (5, 5, 12, 20))


@pytest.mark.parametrize("scoring", ["literal", "pairwise"])
def test_worked_example_partnership_tie(scoring: str) -> None:
    """RULES.md / D6: seats end with 3, 9, 8, 2: teams count 11 and 11, nobody scores."""
    rules = Rules(players=4, partnerships=True, scoring=scoring)  # type: ignore[arg-type]
    assert score(rules, [3, 9, 8, 2]) == Score(None, 0, (11, 11))


@pytest.mark.parametrize("scoring", ["literal", "pairwise"])
def test_worked_example_partnership_win(scoring: str) -> None:
    """RULES.md / D6: 3, 9, 8, 4: team {1,3} counts 13, team {0,2} counts 11 and scores 2."""
    rules = Rules(players=4, partnerships=True, scoring=scoring)  # type: ignore[arg-type]
    assert score(rules, [3, 9, 8, 4]) == Score(0, 2, (11, 13))


def test_d6_team_one_wins() -> None:
    rules = Rules(players=4, partnerships=True)
    assert score(rules, [10, 0, 10, 5]) == Score(1, 15, (20, 5))
    assert side_pips(rules, [1, 2, 3, 4]) == (4, 6)


def test_d6_partners_counts_add_even_if_one_partner_is_lowest() -> None:
    """D6: a team's count is the sum of both hands; the lowest single hand does not decide."""
    rules = Rules(players=4, partnerships=True)
    # seat 0 has the lowest hand, but team {1,3} has the lower total
    assert score(rules, [0, 6, 30, 7]) == Score(1, 17, (30, 13))


def test_d4_literal_and_pairwise_differ_with_four_players() -> None:
    assert score(Rules(players=4), [5, 6, 12, 20]) == Score(0, 33, (5, 6, 12, 20))
    assert score(Rules(players=4, scoring="pairwise"), [5, 6, 12, 20]).points == 23


def test_d11_tie_that_is_not_lowest_still_scores() -> None:
    """D11: only a tie for the lowest count cancels the round's score."""
    assert score(Rules(players=3), [4, 10, 10]) == Score(0, 16, (4, 10, 10))
    assert score(Rules(players=4), [9, 2, 9, 9]) == Score(1, 25, (9, 2, 9, 9))
    assert score(Rules(players=3, scoring="pairwise"), [4, 10, 10]).points == 12


def test_d11_three_way_tie_for_lowest() -> None:
    assert score(Rules(players=3), [7, 7, 7]) == Score(None, 0, (7, 7, 7))
    assert score(Rules(players=4), [0, 0, 3, 0]) == Score(None, 0, (0, 0, 3, 0))


def test_r7_2_winner_is_the_lowest_seat_whatever_its_position() -> None:
    for seat in range(3):
        pips = [20, 20, 20]
        pips[seat] = 1
        assert score(Rules(players=3), pips) == Score(seat, 39, tuple(pips))


def test_r7_1_empty_hands_count_zero_and_all_zero_is_a_tie() -> None:
    assert score(Rules(players=2), [0, 0]) == Score(None, 0, (0, 0))


def test_worked_example_scored_through_a_round() -> None:
    """The 4/10/15 example reached by play: hands summing to 4, 10, 15, then all pass."""
    hands = [["0-1", "0-3"], ["1-4", "2-3"], ["4-5", "2-4"]]
    for scoring, points in [("literal", 21), ("pairwise", 17)]:
        rules = Rules(players=3, hand_size=2, scoring=scoring)  # type: ignore[arg-type]
        used = {t for h in hands for t in h}
        rest = [str(t) for t in TILES if str(t) not in used]
        rnd = Round.from_deal(rules, hands, rest, leader=0)
        for _ in range(3):
            rnd.play(rnd.legal_moves()[-1])
        result = rnd.result
        assert result is not None
        assert (result.reason, result.pips, result.winner, result.points) == (
            "all-pass",
            (4, 10, 15),
            0,
            points,
        )
