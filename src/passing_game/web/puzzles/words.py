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
    **{
        # Puzzles from one's own games (mine.py, mine_api.py; puzzles.js's "mine" mode).
        # TRANSLATORS: the puzzles' tab: puzzles made of the blunders in your own games.
        "From your games": N_("From your games"),
        "Puzzles from your games": N_("Puzzles from your games"),
        "The moves the analysis of your games marked as blunders: find the better move.": N_(
            "The moves the analysis of your games marked as blunders: find the better move."
        ),
        # TRANSLATORS: {date} is a date; {round} and {move} are numbers.
        "Game of {date}: round {round}, move {move}": N_(
            "Game of {date}: round {round}, move {move}"
        ),
        # TRANSLATORS: a puzzle from your games that you solved.
        "Found again": N_("Found again"),
        # TRANSLATORS: a puzzle from your games that you tried and got wrong.
        "Missed again": N_("Missed again"),
        # TRANSLATORS: a puzzle from your games not tried yet.
        "Not tried yet": N_("Not tried yet"),
        "Proved over every deal": N_("Proved over every deal"),
        "Estimated by the analysis": N_("Estimated by the analysis"),
        "Solve": N_("Solve"),
        "A position from one of your games: the analysis marked the move you made here as a blunder.": N_(  # noqa: E501
            "A position from one of your games: the analysis marked the move you made here as"
            " a blunder."
        ),
        "These values are the analysis's estimates from your view, not a proof.": N_(
            "These values are the analysis's estimates from your view, not a proof."
        ),
        "Right: the analysis finds no mistake in that move.": N_(
            "Right: the analysis finds no mistake in that move."
        ),
        "Points for your side, as the analysis estimated them.": N_(
            "Points for your side, as the analysis estimated them."
        ),
        "In your game you played": N_("In your game you played"),
        "See it in the replay": N_("See it in the replay"),
        "Back to your puzzles": N_("Back to your puzzles"),
        "Sign in to make puzzles of your own games.": N_(
            "Sign in to make puzzles of your own games."
        ),
    },
}

#: What the list of one's own puzzles says when it is empty (the server's, ``mine_api``).
MINE_NONE = N_(
    "No puzzles from your games yet: open a finished game's replay, press “Analyse”,"
    " and its blunders come here."
)

#: Counted page texts: key -> the form for ``n``.
PUZZLE_PLURALS: dict[str, Callable[[int], str]] = {
    "The streak ends: {n} puzzle solved.": lambda n: ngettext(
        "The streak ends: {n} puzzle solved.", "The streak ends: {n} puzzles solved.", n
    ),
    "{n} puzzle solved": lambda n: ngettext("{n} puzzle solved", "{n} puzzles solved", n),
}

__all__ = ["MINE_NONE", "PUZZLE_PLURALS", "PUZZLE_TEXTS"]
