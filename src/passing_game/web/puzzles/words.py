"""What the puzzles' page says (``static/puzzles.js``), beside the feature.

Listed in the page's catalog through ``web.http.texts.PAGE_TEXTS`` (plain)
and ``web.http.i18n.PAGE_PLURALS`` (counted). The sentences about each move
and the themes' names are the server's (``shown.py``), in the request's language.
"""

from __future__ import annotations

from collections.abc import Callable

from passing_game.i18n import N_, ngettext

#: Page text key -> English text (the keys are the texts themselves).
PUZZLE_TEXTS: dict[str, str] = {
    "Puzzles": N_("Puzzles"),
    # TRANSLATORS: the lobby's card: what the puzzles are.
    "Find the best move in positions from real rounds, with answers proved by a full search.": N_(
        "Find the best move in positions from real rounds, with answers proved by a full search."
    ),
    "Solve a puzzle": N_("Solve a puzzle"),
    "Puzzle of the day": N_("Puzzle of the day"),
    # TRANSLATORS: puzzle mode: harder and harder puzzles until one wrong answer.
    "Streak": N_("Streak"),
    "Next puzzle": N_("Next puzzle"),
    "Start a streak": N_("Start a streak"),
    "Harder and harder puzzles: one wrong answer ends the streak.": N_(
        "Harder and harder puzzles: one wrong answer ends the streak."
    ),
    # TRANSLATORS: the streak's length so far; {n} is a number.
    "Streak: {n}": N_("Streak: {n}"),
    # TRANSLATORS: the longest streak so far; {n} is a number.
    "Best streak: {n}": N_("Best streak: {n}"),
    # TRANSLATORS: {rating} is a number like 1512.
    "Your puzzle rating: {rating}": N_("Your puzzle rating: {rating}"),
    # TRANSLATORS: {rating} is a number like 1512.
    "Puzzle rating: {rating}": N_("Puzzle rating: {rating}"),
    "Your puzzle rating": N_("Your puzzle rating"),
    "This puzzle's rating": N_("This puzzle's rating"),
    "Your move: find the best one.": N_("Your move: find the best one."),
    "Open hands: you see every hand and the order of the boneyard.": N_(
        "Open hands: you see every hand and the order of the boneyard."
    ),
    "Your view: you see your own hand and what everyone played, as at the table.": N_(
        "Your view: you see your own hand and what everyone played, as at the table."
    ),
    "The best move is the best in every possible deal of the tiles you cannot see.": N_(
        "The best move is the best in every possible deal of the tiles you cannot see."
    ),
    "The best move is the best on average over every possible deal of the tiles you cannot see.": N_(  # noqa: E501
        "The best move is the best on average over every possible deal of the tiles you cannot see."
    ),
    "Right: that is the best move.": N_("Right: that is the best move."),
    "Not the best move.": N_("Not the best move."),
    "The best move": N_("The best move"),
    "Your move": N_("Your move"),
    "Every move": N_("Every move"),
    "Move": N_("Move"),
    "Points for your side with best play after it.": N_(
        "Points for your side with best play after it."
    ),
    "Points for your side with best play after it, on average over the deals.": N_(
        "Points for your side with best play after it, on average over the deals."
    ),
    "You tried this puzzle before: this answer does not change the ratings.": N_(
        "You tried this puzzle before: this answer does not change the ratings."
    ),
    "Boneyard, in the order it is drawn": N_("Boneyard, in the order it is drawn"),
    "Moves so far": N_("Moves so far"),
    "Themes": N_("Themes"),
    "The puzzle could not be loaded.": N_("The puzzle could not be loaded."),
    "You have tried every puzzle. Come back tomorrow for the puzzle of the day.": N_(
        "You have tried every puzzle. Come back tomorrow for the puzzle of the day."
    ),
    "Start a new streak": N_("Start a new streak"),
}

#: Counted page texts: key -> the form for ``n``.
PUZZLE_PLURALS: dict[str, Callable[[int], str]] = {
    "The streak ends: {n} puzzle solved.": lambda n: ngettext(
        "The streak ends: {n} puzzle solved.", "The streak ends: {n} puzzles solved.", n
    ),
    "{n} puzzle solved": lambda n: ngettext("{n} puzzle solved", "{n} puzzles solved", n),
}

__all__ = ["PUZZLE_PLURALS", "PUZZLE_TEXTS"]
