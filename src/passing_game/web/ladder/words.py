"""What the ladder page says (``static/ladder.js``; issue 28, item 5).

Listed in the page's catalog through ``web.http.texts.PAGE_TEXTS`` (plain) and
``web.http.i18n.PAGE_PLURALS`` (counted). A figure
is a label and a number (a table's cell, a line of the run's details), never
a number spliced into a phrase; an interval's two ends go through one text
("{low} to {high}") so each language writes its own range. The server's
own answer before any ladder is published is in ``web/ladder/api.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from passing_game.i18n import N_, ngettext

#: Page text key -> English text (the keys are the texts themselves).
LADDER_TEXTS: dict[str, str] = {
    # TRANSLATORS: the ladder page's title, and the lobby's link to it: every computer
    # player (the site's levels, earlier experts, programs from outside) ranked.
    "The computer players' ladder": N_("The computer players' ladder"),
    "Every computer player meets every other on the same deals, each deal played once from "
    "each seat, so the luck of the deal cancels out. Programs from outside play by the same "
    "rules and see only their own seat.": N_(
        "Every computer player meets every other on the same deals, each deal played once from "
        "each seat, so the luck of the deal cancels out. Programs from outside play by the same "
        "rules and see only their own seat."
    ),
    # TRANSLATORS: the ladder's main column: a player's points minus its opponent's, per round.
    "Net points a round": N_("Net points a round"),
    # TRANSLATORS: {level} is the interval's confidence, as the language writes a percentage.
    "Net points a round: the points a player's side scored minus its opponent's, over every "
    "round against all the others. The line is the {level} confidence interval: a line "
    "clear of zero is a lead, or a deficit, that luck does not explain.": N_(
        "Net points a round: the points a player's side scored minus its opponent's, over every "
        "round against all the others. The line is the {level} confidence interval: a line "
        "clear of zero is a lead, or a deficit, that luck does not explain."
    ),
    # TRANSLATORS: a confidence interval's two ends, e.g. "+2.1 to +4.3".
    "{low} to {high}": N_("{low} to {high}"),
    # TRANSLATORS: read out for a ladder's row or cell: a figure and its confidence interval;
    # {level} is the interval's confidence, as the language writes a percentage ("95 %").
    "{value}, {level} interval {low} to {high}": N_("{value}, {level} interval {low} to {high}"),
    # TRANSLATORS: a kind of computer player on the ladder: one of the site's levels.
    "Level “{title}” on this site": N_("Level “{title}” on this site"),
    # TRANSLATORS: a kind of computer player on the ladder: an earlier version of the expert.
    "Frozen expert": N_("Frozen expert"),
    "An earlier expert, kept unchanged as a yardstick.": N_(
        "An earlier expert, kept unchanged as a yardstick."
    ),
    # TRANSLATORS: a kind of computer player on the ladder: a program written by anyone,
    # playing through the site's protocol.
    "Program from outside": N_("Program from outside"),
    # TRANSLATORS: the ladder's second table: how each pair of players did against each other.
    "Who beats whom": N_("Who beats whom"),
    "Each cell is the row's net points a round against the column's player, with its {level} "
    "interval. The columns are numbered by rank.": N_(
        "Each cell is the row's net points a round against the column's player, with its {level} "
        "interval. The columns are numbered by rank."
    ),
    "Ahead, beyond luck": N_("Ahead, beyond luck"),
    "Behind, beyond luck": N_("Behind, beyond luck"),
    "Not told apart yet": N_("Not told apart yet"),
    # TRANSLATORS: read out for a cell of "Who beats whom": the row's player against the
    # column's; the figure follows.
    "{a} against {b}": N_("{a} against {b}"),
    # TRANSLATORS: the ladder page's card on how the ladder was measured.
    "How it was played": N_("How it was played"),
    # TRANSLATORS: when the ladder's games were played (a date and time follow).
    "Played on": N_("Played on"),
    "Time taken": N_("Time taken"),
    # TRANSLATORS: the command line that played the ladder (shown as typed).
    "Command": N_("Command"),
    "Deals": N_("Deals"),
    "Rounds per pair": N_("Rounds per pair"),
    # TRANSLATORS: when the ladder was put on the site (a date follows).
    "Published": N_("Published"),
    # TRANSLATORS: instead of a date under "Published": the ladder shipped with the program,
    # shown until the site's moderators publish their own.
    "Measured by the project for this version": N_("Measured by the project for this version"),
    "Version": N_("Version"),
}

#: Counted page texts: key -> the form for ``n``.
LADDER_PLURALS: dict[str, Callable[[int], str]] = {
    # TRANSLATORS: how long a short ladder run took (longer ones are counted in minutes).
    "{n} second": lambda n: ngettext("{n} second", "{n} seconds", n),
}

__all__ = ["LADDER_PLURALS", "LADDER_TEXTS"]
