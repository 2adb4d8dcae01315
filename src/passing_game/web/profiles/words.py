"""What the profile page says (``static/profile.js``; issue 27, item 3).

Listed in the page's catalog through ``web.http.texts.PAGE_TEXTS`` (plain) and
``web.http.i18n.PAGE_PLURALS`` (counted). A statistic is a label and a number in a
row of a table, never a number spliced into a phrase; a count in a sentence goes
through ``ngettext``. The server's own refusals (no such account) are in
``web/profiles/api.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from passing_game.i18n import N_, ngettext

#: Page text key -> English text (the keys are the texts themselves).
PROFILE_TEXTS: dict[str, str] = {
    # TRANSLATORS: the account menu's item that opens one's own public profile page.
    "My profile": N_("My profile"),
    # TRANSLATORS: a link beside a player's name in a tournament's standings.
    "Profile": N_("Profile"),
    # TRANSLATORS: what a link to a player's public profile says to screen readers.
    "Profile of {name}": N_("Profile of {name}"),
    # TRANSLATORS: a profile page's line under the name; {date} is like "4 Dec 2026".
    "Playing since {date}": N_("Playing since {date}"),
    # TRANSLATORS: a profile's card of ratings, one per kind of game.
    "Ratings": N_("Ratings"),
    "No rated games yet.": N_("No rated games yet."),
    # TRANSLATORS: what the rating graph shows, for screen readers; numbers are ratings.
    "Rating over time: from {first} to {last}": N_("Rating over time: from {first} to {last}"),
    # TRANSLATORS: the graph's points as a table (opens under the graph).
    "The rating's history as a table": N_("The rating's history as a table"),
    # TRANSLATORS: a column of the rating history: the rated game's number (1, 2, 3...).
    "Rated game": N_("Rated game"),
    # TRANSLATORS: the first row of the rating history, before any rated game.
    "Start": N_("Start"),
    "Recent games": N_("Recent games"),
    "No finished games yet.": N_("No finished games yet."),
    "Statistics": N_("Statistics"),
    "Games won": N_("Games won"),
    # TRANSLATORS: games the player did not resign or leave to a bot.
    "Games played to the end": N_("Games played to the end"),
    "Rounds played": N_("Rounds played"),
    "Rounds won": N_("Rounds won"),
    "Points per round": N_("Points per round"),
    # TRANSLATORS: rounds the player ended by playing their last tile (a "domino").
    "Dominoes (went out)": N_("Dominoes (went out)"),
    # TRANSLATORS: rounds that ended with nobody able to move, or everyone passing.
    "Blocked rounds": N_("Blocked rounds"),
    "Blocked rounds won": N_("Blocked rounds won"),
    "Pips left in hand at a round's end, on average": N_(
        "Pips left in hand at a round's end, on average"
    ),
    # TRANSLATORS: the player's turns that had more than one legal move.
    "Turns with a choice": N_("Turns with a choice"),
    # TRANSLATORS: the share of the turns with a choice in which the player passed.
    "Passes, of those turns": N_("Passes, of those turns"),
    "Draws, of those turns": N_("Draws, of those turns"),
    "How the analysed decisions fared": N_("How the analysed decisions fared"),
    "Decisions analysed": N_("Decisions analysed"),
    "Passes marked a mistake or a blunder": N_("Passes marked a mistake or a blunder"),
    "Draws marked a mistake or a blunder": N_("Draws marked a mistake or a blunder"),
    "None of these games has been analysed yet: a game's replay can ask for its analysis.": N_(
        "None of these games has been analysed yet: a game's replay can ask for its analysis."
    ),
    # TRANSLATORS: a profile's table of partnership games, one row per partner.
    "With a partner": N_("With a partner"),
    "Partner": N_("Partner"),
    # TRANSLATORS: a statistic's column heading (its number).
    "Value": N_("Value"),
    # TRANSLATORS: a statistic's column heading (what is counted).
    "Statistic": N_("Statistic"),
    # TRANSLATORS: a share and the counts behind it, like "25 % (2 of 8)".
    "{share} ({part} of {whole})": N_("{share} ({part} of {whole})"),
}

#: Counted page texts: key -> the form for ``n``.
PROFILE_PLURALS: dict[str, Callable[[int], str]] = {
    "{n} rated game": lambda n: ngettext("{n} rated game", "{n} rated games", n),
    "{n} finished game": lambda n: ngettext("{n} finished game", "{n} finished games", n),
    "Counted from {n} finished game.": lambda n: ngettext(
        "Counted from {n} finished game.", "Counted from all {n} finished games.", n
    ),
    "Counted from the newest {n} finished game; older games are left out.": lambda n: ngettext(
        "Counted from the newest {n} finished game; older games are left out.",
        "Counted from the newest {n} finished games; older games are left out.",
        n,
    ),
    "From {n} analysed game.": lambda n: ngettext(
        "From {n} analysed game.", "From {n} analysed games.", n
    ),
}

__all__ = ["PROFILE_PLURALS", "PROFILE_TEXTS"]
