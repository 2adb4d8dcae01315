"""The tutorial's lessons (issue 25, item 1), replayed through the real engine.

Every lesson's position is rebuilt from its deal and history; its answer
must be legal and every other legal move must get a sentence. Each lesson's
claim is checked under the rule it teaches.
"""

from __future__ import annotations

import re

import pytest

from passing_game.learn import (
    BASICS,
    BY_ID,
    FIRST_ROUND,
    LESSONS,
    PARTS,
    Lesson,
    after,
    answers,
    check,
    position,
)
from passing_game.moves import Draw, Pass, Play, code_to_move, parse_move
from passing_game.puzzles import Solver, view_values
from passing_game.round import Round
from passing_game.rules import Rules
from passing_game.state import State
from passing_game.tiles import TILES, Tile


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_each_answer_is_legal_and_every_other_move_has_a_reason(lesson: Lesson) -> None:
    rnd = position(lesson)
    wanted = answers(lesson, rnd)
    assert wanted and all(rnd.is_legal(m) for m in wanted)
    for move in rnd.legal_moves():
        ok, sentence = check(lesson, str(move))
        assert ok == (move in wanted), (lesson.id, move)
        assert sentence.strip()
        assert sentence != check(lesson, lesson.answers[0])[1] or ok


def test_ids_are_unique_and_basics_come_first() -> None:
    assert len(BY_ID) == len(LESSONS)
    assert LESSONS[: len(BASICS)] == BASICS
    assert all(lesson.basic for lesson in BASICS)
    assert not any(lesson.basic for lesson in LESSONS[len(BASICS) :])
    assert [lesson.id for lesson in LESSONS[-2:]] == ["bluff", "hurts"]
    # The parts in order, each lesson in one: the basics, the game's rules, playing well.
    assert [lesson.part for lesson in LESSONS] == sorted(
        (lesson.part for lesson in LESSONS), key=PARTS.index
    )
    assert LESSONS[: len(FIRST_ROUND)] == FIRST_ROUND
    with pytest.raises(ValueError, match="part"):
        Lesson(**{**vars(LESSONS[0]), "part": "extra"})


def test_the_basics_are_the_rules_of_a_two_player_round() -> None:
    """The path to the first real round (P47): every lesson on it teaches a rule that a
    two-player round uses; the match's target (R8) and partners (R1.4) come after."""
    rules = {lesson.rule for lesson in FIRST_ROUND}
    assert rules == {"R4.1", "R4.2", "R5", "R4.3", "R2.4", "R4.4", "R6", "R7"}
    assert {BY_ID["target"].part, BY_ID["partners"].part} == {"game"}


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def test_the_numbers_a_lesson_says_are_the_engines() -> None:
    """Every count and score a lesson's sentence states is the round's own result (R7,
    D6, R8): the short texts keep every figure right."""
    done = after(BY_ID["pass"]).result
    assert done is not None  # "Your 12 pips against their 54: you score 54 − 12 = 42."
    mine, theirs = done.pips
    assert numbers(BY_ID["pass"].after) == [mine, theirs, theirs, mine, done.points]
    done = after(BY_ID["ends"]).result
    assert done is not None  # "you score your opponent's 19 pips"
    assert numbers(BY_ID["ends"].after) == [done.points] == [done.pips[1]]
    done = after(BY_ID["count"]).result
    assert done is not None  # "your 5 pips ..., against 34 and 6. You score 34 + 6 − 5 = 35."
    a, b, c = done.pips
    assert numbers(BY_ID["count"].after) == [a, b, c, b, c, a, done.points]
    done = after(BY_ID["partners"]).result
    assert done is not None  # 42 pips, seat 4's 37, partner's 11, 53 against 86, 86 − 53 = 33
    ours, others = done.side_pips
    assert numbers(BY_ID["partners"].after) == [
        *(done.pips[0], 4, done.pips[3], done.pips[2]),
        *(ours, others, others, ours, done.points),
    ]
    target = BY_ID["target"]
    done = after(target).result
    assert done is not None and target.scores is not None
    four = Rules(players=4).target  # "101 points with two or three players, 61 with four"
    assert numbers(target.text) == [target.rules.target, four, done.points]
    total = target.scores[0] + done.points  # "90 + 14 = 104: you reached 101"
    assert numbers(target.after) == [target.scores[0], done.points, total, target.rules.target]


def test_r4_1_one_tile_matches_an_end() -> None:
    rnd = position(BY_ID["match"])
    assert rnd.ends == (3, 6)
    plays = [m for m in rnd.legal_moves() if isinstance(m, Play)]
    assert plays == [parse_move("L3-5")]
    assert after(BY_ID["match"]).ends == (5, 6)


def test_r4_2_the_tile_fits_both_ends_and_either_is_accepted() -> None:
    lesson = BY_ID["both"]
    rnd = position(lesson)
    assert rnd.ends == (2, 4)
    assert {str(m) for m in rnd.legal_moves() if isinstance(m, Play)} == {"L2-4", "R2-4"}
    assert check(lesson, "L2-4")[0] and check(lesson, "R2-4")[0]


def test_r5_the_double_is_crosswise_without_a_branch() -> None:
    before = position(BY_ID["double"])
    rnd = after(BY_ID["double"])
    laid = rnd.train[-1]
    assert laid.left == laid.right == 5  # R5.1: a double, laid across the end
    assert rnd.ends == before.ends == (3, 5)  # R5.2: the end still shows 5, two ends
    assert len(rnd.ends) == 2


def test_r4_3_nothing_fits_and_the_draw_takes_one_tile_and_ends_the_turn() -> None:
    lesson = BY_ID["draw"]
    rnd = position(lesson)
    assert not any(isinstance(m, Play) for m in rnd.legal_moves())
    later = after(lesson)
    assert Tile(4, 5) in later.hands[lesson.seat]
    assert later.to_move != lesson.seat  # D1: the draw ends the turn


def test_r2_4_exactly_the_last_two_tiles_are_locked() -> None:
    lesson = BY_ID["locked"]
    rnd = position(lesson)
    assert len(rnd.boneyard) == 2
    assert set(rnd.boneyard) == set(rnd.locked)
    assert Draw() not in rnd.legal_moves()  # R4.3
    assert not check(lesson, "draw")[0]


def test_r4_4_pass_while_a_tile_fits_and_d3_ends_the_round() -> None:
    lesson = BY_ID["pass"]
    rnd = position(lesson)
    assert any(isinstance(m, Play) for m in rnd.legal_moves())  # R4.4: a free choice
    result = after(lesson).result
    assert result is not None and result.reason == "all-pass"  # D3
    assert result.winner == 0 and result.points == 54 - 12


def test_r6_1_the_last_tile_ends_the_round() -> None:
    result = after(BY_ID["ends"]).result
    assert result is not None and result.reason == "domino" and result.points == 19


def test_r7_the_lowest_count_scores_the_others_minus_its_own() -> None:
    lesson = BY_ID["count"]
    result = after(lesson).result
    assert result is not None and result.reason == "block"  # R6.2
    assert result.pips == (5, 34, 6) and result.points == 34 + 6 - 5
    rnd = position(lesson)
    rnd.play(parse_move("R0-3"))
    assert rnd.result is not None and rnd.result.winner == 2  # the other tile loses


def test_r1_4_d6_partners_count_together() -> None:
    lesson = BY_ID["partners"]
    assert lesson.rules.partnerships
    result = after(lesson).result
    assert result is not None
    assert result.pips[0] > result.pips[3]  # your own count is not the lowest
    assert result.side_pips == (53, 86) and result.winner == 0 and result.points == 33


def test_r8_the_domino_reaches_the_target() -> None:
    lesson = BY_ID["target"]
    assert lesson.scores is not None
    result = after(lesson).result
    assert result is not None and result.reason == "domino"
    assert lesson.scores[0] + result.points >= lesson.rules.target > lesson.scores[0]


def test_play_lessons_ask_for_the_better_of_two_fitting_tiles() -> None:
    for lesson in (BY_ID["heavy"], BY_ID["keep"], BY_ID["read"]):
        rnd = position(lesson)
        assert len([m for m in rnd.legal_moves() if isinstance(m, Play)]) >= 2, lesson.id
    heavy = position(BY_ID["heavy"])
    assert Tile(6, 6) in heavy.hands[0] and after(BY_ID["heavy"]).pips()[0] == heavy.pips()[0] - 12


def test_r9_1_the_draw_told_the_truth_and_the_answer_keeps_the_opponent_stuck() -> None:
    lesson = BY_ID["read"]
    rnd = position(lesson)
    opponent = rnd.hands[1]
    assert not any(t.has(2) or t.has(4) for t in opponent)  # what the draw said is true
    for answer in answers(lesson, rnd):
        later = position(lesson)
        later.play(answer)
        assert not any(isinstance(m, Play) for m in later.legal_moves())
    wrong = position(lesson)
    wrong.play(parse_move("R4-5"))
    assert any(isinstance(m, Play) for m in wrong.legal_moves())


def values(rnd: Round) -> tuple[dict[str, int], dict[str, float]]:
    """Each legal move's exact value for the learner: with every hand open, and on
    average over every deal of the unseen tiles the learner's view allows (R9)."""
    state = State.from_round(rnd)
    shown = {str(code_to_move(c)): v for c, v in Solver().values(state).items()}
    seen = view_values(rnd.view(rnd.to_move or 0))
    assert seen is not None
    averaged = {str(code_to_move(c)): seen.mean(c) for c in seen.totals}
    return shown, averaged


def test_r4_4_the_pass_that_bluffs_keeps_the_last_4_and_is_the_best_move() -> None:
    lesson = BY_ID["bluff"]
    rnd = position(lesson)
    assert rnd.ends == (4, 2)
    assert Tile(4, 6) in rnd.hands[0] and Tile(4, 6).has(4)
    # R4.4: a tile fits and passing is still allowed; R2.4, R4.3: nobody may draw.
    assert rnd.legal_moves() == [parse_move("L4-6"), Pass()]
    assert len(rnd.boneyard) == 2 and Draw() not in rnd.legal_moves()
    assert not check(lesson, "draw")[0]
    on_train = {p.tile for p in rnd.train}
    assert {t for t in TILES if t.has(4)} - on_train == {Tile(4, 6)}  # the last 4 is yours
    assert str(rnd.history[-1].move) == "draw" and rnd.history[-1].seat == 1
    opponent = rnd.hands[1]
    assert not any(t.has(4) or t.has(2) for t in opponent)  # R9.1: the draw told the truth
    # The pass: the opponent can only pass, and the round ends, scored as blocked (D3, R7).
    later = after(lesson)
    assert later.legal_moves() == [Pass()]
    later.play(Pass())
    result = later.result
    assert result is not None and result.reason == "all-pass"
    assert result.winner == 0 and result.points == 30 - 13
    # The play gives the opponent a tile to lay on the 6.
    wrong = position(lesson)
    wrong.play(parse_move("L4-6"))
    assert any(isinstance(m, Play) for m in wrong.legal_moves())
    ok, sentence = check(lesson, "L4-6")
    assert not ok and "[4|6]" in sentence and "last 4" in sentence
    # The exact search agrees: pass is best by far, open-handed and over all 21 deals.
    shown, averaged = values(rnd)
    assert shown == {"L4-6": 6, "pass": 17}
    assert averaged["pass"] > averaged["L4-6"] + 10


def test_r4_3_d1_r7_the_draw_that_hurts_when_the_round_is_about_to_end() -> None:
    lesson = BY_ID["hurts"]
    rnd = position(lesson)
    ends = rnd.ends
    assert ends == (6, 0)
    assert rnd.legal_moves() == [Draw(), Pass()]  # R4.3: drawing is allowed, nothing fits
    assert len(rnd.boneyard) > 2
    (last,) = rnd.hands[1]
    assert last.has(ends[0]) or last.has(ends[1])  # the opponent's single tile fits
    mine = rnd.pips()[0]
    # The pass: the opponent goes out (R6.1) and scores the learner's pips (R7).
    later = after(lesson)
    later.play(parse_move(f"L{last}"))
    result = later.result
    assert result is not None and result.reason == "domino" and result.points == mine
    # The draw ends the turn (D1): the opponent still goes out, and scores more.
    drew = position(lesson)
    drew.play(Draw())
    assert drew.to_move == 1 and drew.pips()[0] > mine
    drew.play(parse_move(f"L{last}"))
    assert drew.result is not None and drew.result.points > mine
    ok, sentence = check(lesson, "draw")
    assert not ok and "ends your turn" in sentence
    # The exact search agrees, open-handed and on average over every deal the view allows.
    shown, averaged = values(rnd)
    assert shown["pass"] == -mine and shown["pass"] > shown["draw"]
    assert averaged["pass"] > averaged["draw"]
