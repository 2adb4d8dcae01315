"""The rule lessons, one move each (issue 25, item 1).

The basics are what a two-player round needs, and lead a newcomer to a first
real round (P47); the target and partnerships, the game's rules, follow.
Each position is a real deal and the moves to it (the project's move
notation, ``moves.py``); ``tests/test_learn.py`` replays them and checks
each lesson's claim under its rule number. The texts are short on purpose:
a newcomer reads the basics, and plays them, in under 3 minutes (P47).
"""

from __future__ import annotations

from passing_game.i18n import N_
from passing_game.learn.lesson import Lesson, rest
from passing_game.rules import Rules

TWO = Rules(players=2)
THREE = Rules(players=3)
FOUR = Rules(players=4)
TEAMS = Rules(players=4, partnerships=True)

_M0 = ("3-5", "0-0", "0-1", "1-1", "1-2", "2-2", "2-4")
_M1 = ("3-6", "4-4", "4-5", "5-5", "5-6", "6-6", "0-6")
MATCH = Lesson(
    id="match",
    rule="R4.1",
    title=N_("Match an end"),
    text=N_("A tile you lay must match an open end of the train. Lay the tile that fits."),
    rules=TWO,
    hands=(_M0, _M1),
    boneyard=rest(_M0, _M1),
    leader=1,
    history=("L3-6",),
    answers=("L3-5",),
    after=N_("Right: the 3 of [3|5] touches the 3, and the end now shows 5."),
    reason=N_("That is allowed, but here a tile fits: lay [3|5] on the 3."),
)

_B0 = ("2-4", "4-6", "0-0", "0-1", "1-1", "1-3", "0-3")
_B1 = ("2-6", "5-5", "5-6", "6-6", "3-5", "3-6", "4-5")
BOTH = Lesson(
    id="both",
    rule="R4.2",
    title=N_("A tile that fits both ends"),
    text=N_("[2|4] fits both ends: you choose which. Lay it on either end."),
    rules=TWO,
    hands=(_B0, _B1),
    boneyard=rest(_B0, _B1),
    leader=1,
    history=("L2-6", "R4-6", "pass"),
    answers=("L2-4", "R2-4"),
    after=N_("Right: either end was allowed."),
    reason=N_("That is allowed, but this lesson is about [2|4]: lay it on either end."),
)

_D0 = ("5-5", "0-0", "0-1", "1-1", "1-2", "2-2", "0-2")
_D1 = ("3-5", "6-6", "4-6", "4-4", "3-4", "2-6", "0-6")
DOUBLE = Lesson(
    id="double",
    rule="R5",
    title=N_("Doubles"),
    text=N_("A double is laid crosswise and does not branch the train. Lay [5|5]."),
    rules=TWO,
    hands=(_D0, _D1),
    boneyard=rest(_D0, _D1),
    leader=1,
    history=("L3-5",),
    answers=("R5-5",),
    after=N_("Right: [5|5] lies across the 5, and that end still shows 5."),
    reason=N_("That is allowed, but lay the double [5|5] on the 5."),
)

_W0 = ("0-0", "0-1", "1-1", "1-2", "2-2", "0-2", "1-3")
_W1 = ("4-6", "5-5", "5-6", "6-6", "3-5", "3-3", "2-5")
DRAW = Lesson(
    id="draw",
    rule="R4.3",
    title=N_("Draw"),
    text=N_(
        "Nothing of yours fits. Draw a tile from the boneyard: it joins your hand, and your"
        " turn ends."
    ),
    rules=TWO,
    hands=(_W0, _W1),
    boneyard=rest(_W0, _W1, first=("4-5",)),
    leader=1,
    history=("L4-6",),
    answers=("draw",),
    after=N_(
        "Right: you drew [4|5]. You may draw even when a tile fits, but your hand gets heavier."
    ),
    reason=N_("Passing is allowed too, but a draw may bring a tile that fits."),
    reasons=(("pass", N_("Passing is allowed too, but a draw may bring a tile that fits.")),),
)

_L = (
    ("0-0", "0-1", "1-1", "0-2", "1-2", "2-2"),
    ("6-6", "5-6", "4-6", "3-6", "2-6", "1-6"),
    ("0-6", "5-5", "4-5", "3-5", "2-5", "1-5"),
    ("0-5", "4-4", "3-4", "2-4", "1-4", "0-4"),
)
LOCKED = Lesson(
    id="locked",
    rule="R2.4",
    title=N_("The last two tiles never come"),
    text=N_(
        "The last two tiles of the boneyard are never drawn, and only two are left. Nothing of"
        " yours fits: what now?"
    ),
    rules=FOUR,
    hands=_L,
    boneyard=rest(*_L),
    leader=1,
    history=("L6-6", "draw", "draw"),
    answers=("pass",),
    after=N_("Right: you pass. The last two tiles stay face down and count for nobody."),
    reason=N_("Nothing of yours fits the 6, and the last two tiles cannot be drawn: pass."),
    reasons=(
        ("draw", N_("The last two tiles of the boneyard can never be drawn: you cannot draw now.")),
    ),
)

_P0 = ("0-0", "0-1", "0-2", "1-1", "1-2", "0-4", "1-6")
_P1 = ("5-6", "6-6", "4-6", "3-6", "4-4", "3-4", "2-6")
PASS = Lesson(
    id="pass",
    rule="R4.4",
    title=N_("Pass by choice"),
    text=N_(
        "You may pass even when a tile fits. When everyone passes in turn, the round ends."
        " Your opponent passed, and your hand is far lighter: pass."
    ),
    rules=TWO,
    hands=(_P0, _P1),
    boneyard=rest(_P0, _P1),
    leader=1,
    history=("L5-6", "R1-6", "pass"),
    answers=("pass",),
    after=N_("Right: the round ends. Your 12 pips against their 54: you score 54 − 12 = 42."),
    reason=N_(
        "That is allowed, but passing now ends the round while your hand is the lighter one."
    ),
)

_E = (
    ("0-6", "1-4", "1-6", "2-2", "3-5", "4-5", "6-6"),
    ("0-1", "0-5", "1-3", "2-4", "3-4", "4-4", "5-6"),
)
ENDS = Lesson(
    id="ends",
    rule="R6",
    title=N_("How a round ends"),
    text=N_(
        "A round ends when someone lays their last tile (domino), when nobody can lay or draw"
        " (block), or when everyone passes in turn. Lay your last tile."
    ),
    rules=TWO,
    hands=_E,
    boneyard=(
        *("0-2", "2-5", "4-6", "0-3", "2-3", "3-3", "1-2", "1-1", "5-5", "2-6", "1-5", "3-6"),
        *("0-0", "0-4"),
    ),
    leader=0,
    history=(
        *("L4-5", "L3-4", "L3-5", "draw", "pass", "L0-5", "L0-6", "R5-6"),
        *("L1-6", "draw", "R6-6", "L0-1", "pass", "L0-2", "L2-2", "L2-4"),
    ),
    answers=("L1-4",),
    after=N_("Domino! The round is over: you score your opponent's 19 pips."),
    reason=N_("That is allowed, but your last tile fits: lay it and the round is over."),
)

_C = (
    ("0-1", "0-3", "0-6", "1-2", "1-5", "2-5", "2-6"),
    ("0-4", "0-5", "3-4", "3-6", "4-5", "4-6", "6-6"),
    ("1-3", "1-4", "1-6", "2-2", "2-4", "3-3", "5-5"),
)
COUNT = Lesson(
    id="count",
    rule="R7",
    title=N_("Counting and scoring"),
    text=N_(
        "Either tile ends the round. The lowest count of pips in hand scores the others'"
        " counts minus its own; a tie for the lowest scores nothing. Which tile wins?"
    ),
    rules=THREE,
    hands=_C,
    boneyard=("4-4", "1-1", "0-0", "5-6", "2-3", "0-2", "3-5"),
    leader=0,
    history=(
        *("L1-2", "draw", "R2-4", "L1-5", "R0-4", "L5-5", "draw", "draw", "draw", "draw"),
        *("R0-5", "L5-6", "L2-6", "R4-5", "R1-4", "R0-1", "R0-0", "L2-2", "R0-6", "R6-6"),
        *("R1-6", "L2-5", "pass", "R1-3"),
    ),
    answers=("R2-3",),
    after=N_("Right: your 5 pips are the lowest, against 34 and 6. You score 34 + 6 − 5 = 35."),
    reason=N_(
        "Passing is allowed, but a tile laid now ends the round: lay the one that leaves you"
        " the lowest count."
    ),
    reasons=(
        (
            "R0-3",
            N_(
                "That keeps 7 pips, more than the 6 of seat 3, who would score instead. Lay the"
                " heavier tile."
            ),
        ),
    ),
)

_T = (
    ("6-6", "5-5", "4-6", "2-5", "4-5", "3-3"),
    ("5-6", "3-6", "2-6", "0-6", "1-6", "4-4"),
    ("0-0", "0-1", "0-2", "1-1", "0-3", "1-2"),
    ("3-5", "1-4", "0-5", "1-5", "2-4", "3-4"),
)
TEAMS_LESSON = Lesson(
    id="partners",
    rule="R1.4",
    title=N_("Partnerships"),
    text=N_(
        "Four players may play as two teams: your partner is seat 3, across from you. A team"
        " counts both hands together, and the lighter team scores the other's count minus its"
        " own. The other three passed: is your team the lighter one?"
    ),
    rules=TEAMS,
    hands=_T,
    boneyard=rest(*_T),
    leader=0,
    history=("L6-6", "pass", "pass", "pass"),
    part="game",
    answers=("pass",),
    after=N_(
        "Right: you hold 42 pips, more than seat 4's 37, but with your partner's 11 your team"
        " counts 53 against 86. Your team scores 86 − 53 = 33."
    ),
    reason=N_(
        "That is allowed, but your partner's hand is very light: pass, end the round, and your"
        " team counts less."
    ),
)

_G = (
    ("0-1", "0-3", "0-4", "1-1", "2-5", "2-6", "3-3"),
    ("0-0", "0-5", "1-3", "1-5", "2-3", "3-5", "4-5"),
)
TARGET = Lesson(
    id="target",
    rule="R8",
    title=N_("The target"),
    text=N_(
        "Rounds go on until someone reaches the target: 101 points with two or three players,"
        " 61 with four. Your opponent holds 14 pips: win the game."
    ),
    rules=TWO,
    hands=_G,
    boneyard=(
        *("3-4", "4-6", "4-4", "6-6", "2-2", "0-2", "3-6", "2-4", "5-6", "5-5", "1-4"),
        *("1-2", "0-6", "1-6"),
    ),
    leader=0,
    history=(
        *("L1-1", "L1-3", "R0-1", "R0-5", "L3-3", "R4-5", "draw", "draw"),
        *("R3-4", "L3-5", "L2-5", "R2-3", "L2-6", "L4-6", "L0-4", "draw"),
    ),
    answers=("L0-3",),
    after=N_("Domino! 90 + 14 = 104: you reached 101 and won the game."),
    reason=N_("That is allowed, but your last tile fits: lay it, score 14 and reach 101."),
    scores=(90, 70),
    part="game",
)

#: The rule lessons, in the order they are taken: the basics a round needs, then
#: the game's (the target, partnerships).
BASICS: tuple[Lesson, ...] = (
    MATCH,
    BOTH,
    DOUBLE,
    DRAW,
    LOCKED,
    PASS,
    ENDS,
    COUNT,
    TARGET,
    TEAMS_LESSON,
)
