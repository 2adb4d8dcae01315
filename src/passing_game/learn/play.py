"""The play lessons: not what is allowed but what is good (issue 25, item 1).

Each position has more than one allowed move; the lesson asks for the one a
good player makes and says why the others are weaker.
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
    basic=False,
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
    basic=False,
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
    basic=False,
)

#: The play lessons, after the basics.
PLAY: tuple[Lesson, ...] = (HEAVY, KEEP, READ)
