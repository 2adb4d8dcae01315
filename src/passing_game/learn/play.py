"""The play lessons: not what is allowed but what is good (issue 25, item 1).

Each position has more than one allowed move; the lesson asks for the one a
good player makes and says why the others are weaker. The last two are
proved by the exact search (``passing_game.puzzles``): ``tests/test_learn.py``
values every move with open hands and over every deal the learner's view
allows, and the move asked for is the best in both.
"""

from __future__ import annotations

from passing_game.i18n import N_
from passing_game.learn.lesson import Lesson, rest
from passing_game.rules import Rules

TWO = Rules(players=2)

_H0 = ("6-6", "0-1", "2-3", "2-4", "3-4", "0-4", "2-2")
_H1 = ("1-6", "5-5", "4-5", "3-5", "0-5", "5-6", "2-5")
HEAVY = Lesson(
    id="heavy",
    rule="R7",
    title=N_("Shed heavy tiles"),
    text=N_(
        "The ends show 1 and 6. [6|6] and [0|1] both fit. Nobody knows when the round will end,"
        " and every pip left in your hand counts against you."
    ),
    rules=TWO,
    hands=(_H0, _H1),
    boneyard=rest(_H0, _H1),
    leader=1,
    history=("L1-6",),
    answers=("R6-6",),
    after=N_("Right: 12 pips out of your hand at once. Lay heavy tiles early."),
    reason=N_("[0|1] fits too, but it is worth 1 pip and [6|6] is worth 12: shed the heavy one."),
    part="play",
)

_K0 = ("3-5", "0-1", "3-3", "3-4", "3-6", "2-3", "1-2")
_K1 = ("0-5", "4-4", "4-5", "5-5", "5-6", "6-6", "4-6")
KEEP = Lesson(
    id="keep",
    rule="R4.1",
    title=N_("Keep your numbers on the ends"),
    text=N_(
        "The ends show 0 and 5. [3|5] and [0|1] both fit. Think of your next turn: which"
        " number would you like to see on the end?"
    ),
    rules=TWO,
    hands=(_K0, _K1),
    boneyard=rest(_K0, _K1),
    leader=1,
    history=("L0-5",),
    answers=("R3-5",),
    after=N_(
        "Right: the end now shows 3, and you hold four more tiles with a 3. You will have a"
        " tile to lay next turn."
    ),
    reason=N_(
        "[0|1] fits, but it puts a 1 on the end, and you hold only one other tile with a 1."
        " [3|5] puts a 3 there, and you hold four more."
    ),
    part="play",
)

_R0 = ("4-6", "2-4", "4-5", "0-0", "0-1", "1-1", "1-3")
_R1 = ("2-6", "3-5", "5-6", "6-6", "3-6", "0-6", "3-3")
READ = Lesson(
    id="read",
    rule="R9.1",
    title=N_("Read a draw"),
    text=N_(
        "Everyone sees who draws and who passes. When the ends showed 2 and 4, your opponent"
        " drew: they most likely hold no 2 and no 4. Make them draw again."
    ),
    rules=TWO,
    hands=(_R0, _R1),
    boneyard=rest(_R0, _R1, first=("5-5",)),
    leader=1,
    history=("L2-6", "R4-6", "draw"),
    answers=("L2-4", "R2-4"),
    after=N_(
        "Right: the ends still show only the numbers your opponent lacks. A pass says the same"
        " as a draw, unless it is a bluff: a player may pass holding a tile that fits."
    ),
    reason=N_(
        "Your opponent drew on 2 and 4: keep those numbers on the ends with [2|4], on either end."
    ),
    reasons=(
        (
            "R4-5",
            N_(
                "[4|5] fits, but it puts a 5 on the end, a number your opponent may hold. [2|4]"
                " keeps 2 and 4 there."
            ),
        ),
    ),
    part="play",
)

_F0 = ("0-2", "0-4", "0-5", "1-2", "1-3", "3-4", "5-6")
_F1 = ("0-0", "1-5", "2-3", "2-5", "3-3", "4-4", "5-5")
BLUFF = Lesson(
    id="bluff",
    rule="R4.4",
    title=N_("The pass that bluffs"),
    text=N_(
        "The ends show 4 and 2. Every 4 but your [4|6] is on the train: nobody else can ever"
        " lay on the 4. Your opponent just drew the last tile that could be drawn, with 4 and"
        " 2 showing. [4|6] fits: lay it, or pass?"
    ),
    rules=TWO,
    hands=(_F0, _F1),
    boneyard=(
        *("0-6", "4-5", "4-6", "2-2", "1-4", "3-5", "0-3", "6-6", "1-1", "2-4", "3-6", "1-6"),
        *("2-6", "0-1"),
    ),
    leader=1,
    history=(
        *("draw", "L0-2", "draw", "draw", "R2-3", "L0-5", "L5-5", "R1-3", "R1-5", "L5-6"),
        *("L0-6", "L0-4", "R4-5", "L3-4", "L3-3", "draw", "R4-4", "draw", "draw", "R1-4"),
        *("L3-5", "draw", "L2-5", "R1-2", "draw", "L2-2", "draw", "draw", "draw", "L2-4"),
        "draw",
    ),
    answers=("pass",),
    after=N_(
        "Right: you keep the last 4, so the 4 stays closed to your opponent, and your pass"
        " tells them you had nothing to lay: a bluff. If they hold no 2, they can only pass"
        " too, and the round ends: your 2 tiles against their 5."
    ),
    reason=N_(
        "Pass and keep [4|6]: while you hold the last 4, your opponent can never lay on the 4."
    ),
    reasons=(
        (
            "L4-6",
            N_(
                "[4|6] fits, but it gives up the last 4 and puts a 6 on the end, where your"
                " opponent may lay again. Pass and keep it: the 4 stays closed to them."
            ),
        ),
    ),
    part="play",
)

_W0 = ("0-6", "1-1", "1-3", "1-4", "1-5", "3-5", "4-4")
_W1 = ("1-2", "2-2", "2-4", "2-5", "3-4", "4-6", "5-6")
HURTS = Lesson(
    id="hurts",
    rule="R4.3",
    title=N_("When a draw hurts"),
    text=N_(
        "Nothing of yours fits the 6 or the 0, and your opponent has a single tile left. If it"
        " fits, they lay it and the round is over before your next turn. Draw or pass?"
    ),
    rules=TWO,
    hands=(_W0, _W1),
    boneyard=(
        *("1-6", "3-6", "6-6", "0-0", "0-2", "2-6", "0-3", "2-3", "5-5", "0-1", "4-5", "0-5"),
        *("0-4", "3-3"),
    ),
    leader=1,
    history=(
        *("L2-2", "draw", "L2-5", "L1-5", "draw", "L1-6", "R1-2", "L0-6", "draw", "draw"),
        *("draw", "R1-4", "R2-4", "L0-0", "L0-2", "draw", "draw", "L2-6", "L4-6", "L4-4"),
        *("L3-4", "L3-5", "L5-6", "draw", "L6-6", "R2-3", "R0-3"),
    ),
    answers=("pass",),
    after=N_(
        "Right: if their last tile fits, they go out and score the 6 pips in your hand. A draw"
        " could not have helped: it ends your turn, and its pips would have been theirs too."
    ),
    reason=N_(
        "Pass: your opponent may go out on their turn, and anything you draw only adds to the"
        " pips they score."
    ),
    reasons=(
        (
            "draw",
            N_(
                "A draw ends your turn, so you could not lay the new tile before your opponent"
                " plays; if their last tile fits, its pips are points for them. Pass."
            ),
        ),
    ),
    part="play",
)

#: The play lessons, after the basics.
PLAY: tuple[Lesson, ...] = (HEAVY, KEEP, READ, BLUFF, HURTS)
