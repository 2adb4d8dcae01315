"""What the replay and analysis page says (issue 13: ``web/review/api.py``,
``static/replay.js``). Listed in the page's catalog through
``web.http.texts.PAGE_TEXTS``.
"""

from __future__ import annotations

from passing_game.i18n import N_

#: Page text key -> English text (the keys are the texts themselves).
REVIEW_TEXTS: dict[str, str] = {
    # Luck and skill (issue 26, item 2; docs/DECISIONS.md P53).
    "Luck and skill": N_("Luck and skill"),
    "Result (net points)": N_("Result (net points)"),
    "Luck: the deals, with the expert in every seat": N_(
        "Luck: the deals, with the expert in every seat"
    ),
    "Skill: what your decisions cost against the expert's": N_(
        "Skill: what your decisions cost against the expert's"
    ),
    "The rest: the others' play and the hidden tiles": N_(
        "The rest: the others' play and the hidden tiles"
    ),
    "Replay and analysis": N_("Replay and analysis"),
    "Open a game record": N_("Open a game record"),
    "Replay a game": N_("Replay a game"),
    "Open a game record downloaded at the end of a game to step through it and analyse it.": N_(
        "Open a game record downloaded at the end of a game to step through it and analyse it."
    ),
    "Game record (a .json file)": N_("Game record (a .json file)"),
    "The file is too large: a game record is at most {n} KB.": N_(
        "The file is too large: a game record is at most {n} KB."
    ),
    "First move": N_("First move"),
    "Previous move (←)": N_("Previous move (←)"),
    "Next move (→)": N_("Next move (→)"),
    "Last move": N_("Last move"),
    # TRANSLATORS: the replay's slider, which chooses the move shown.
    "Move": N_("Move"),
    "Round {n} · the deal": N_("Round {n} · the deal"),
    "Round {n} · move {i} of {total}": N_("Round {n} · move {i} of {total}"),
    # TRANSLATORS: the replay shows one seat's view (its own hand only) or every hand.
    "Whose view": N_("Whose view"),
    "Every hand open": N_("Every hand open"),
    "Analysis": N_("Analysis"),
    "The expert judges each decision of one seat from what that seat could see, and marks the costly ones.": N_(  # noqa: E501
        "The expert judges each decision of one seat from what that seat could see,"
        " and marks the costly ones."
    ),
    "Seat to analyse": N_("Seat to analyse"),
    # TRANSLATORS: a button: start the analysis of one seat's decisions.
    "Analyse": N_("Analyse"),
    "Analysing…": N_("Analysing…"),
    "Analysing… {done} of {total}": N_("Analysing… {done} of {total}"),
    "The analysis failed; try again.": N_("The analysis failed; try again."),
    "Decisions": N_("Decisions"),
    "As the expert would play": N_("As the expert would play"),
    "Mistakes": N_("Mistakes"),
    "Blunders": N_("Blunders"),
    "Points lost in all": N_("Points lost in all"),
    "A loss of {mistake} points or more is a mistake, {blunder} or more a blunder (expected points at the end of the round).": N_(  # noqa: E501
        "A loss of {mistake} points or more is a mistake, {blunder} or more a blunder"
        " (expected points at the end of the round)."
    ),
    "The costliest decisions": N_("The costliest decisions"),
    "Round {n}, move {i}": N_("Round {n}, move {i}"),
    # TRANSLATORS: a button that shows the position of one decision in the replay.
    "Show": N_("Show"),
    # TRANSLATORS: {move} is like "play [3|5] on the left"; {points} like +2.5.
    "Decision: {move} (points: {points})": N_("Decision: {move} (points: {points})"),
    # TRANSLATORS: {move} is like "play [3|5] on the left"; {points} like +2.5.
    "The expert's choice: {move} (points: {points})": N_(
        "The expert's choice: {move} (points: {points})"
    ),
    "No mistakes and no blunders.": N_("No mistakes and no blunders."),
    "Every decision": N_("Every decision"),
    "Played": N_("Played"),
    "The expert's choice": N_("The expert's choice"),
    "Points lost": N_("Points lost"),
    "The expert's evaluation over the game": N_("The expert's evaluation over the game"),
    "One point per decision, at its move's value; a dotted line rises to the expert's choice.": N_(
        "One point per decision, at its move's value; a dotted line rises to the expert's choice."
    ),
    "Points lost: {points}": N_("Points lost: {points}"),
    # TRANSLATORS: a mark on a decision that lost points (a loss of 5 or more).
    "mistake": N_("mistake"),
    # TRANSLATORS: a mark on a decision that lost many points (a loss of 12 or more).
    "blunder": N_("blunder"),
}

__all__ = ["REVIEW_TEXTS"]
