"""What the tournament pages say (``static/tournament.js``, ``static/tournaments.js``).

Listed in the page's catalog through ``web.http.texts.PAGE_TEXTS`` (plain)
and ``web.http.i18n.PAGE_PLURALS`` (counted).
"""

from __future__ import annotations

from collections.abc import Callable

from passing_game.i18n import N_, ngettext

#: Page text key -> English text (the keys are the texts themselves).
TOURNAMENT_TEXTS: dict[str, str] = {
    "Start now": N_("Start now"),
    # A duplicate's deals that nobody chooses alone (tournament/parts.py).
    "Every round's deals follow from this tournament's secret, committed here before it began, and from each person's random part, given with their join.": N_(  # noqa: E501
        "Every round's deals follow from this tournament's secret, committed here before it"
        " began, and from each person's random part, given with their join."
    ),
    "Verified: the commitment shown before the tournament began matches its secret, and every round's deals follow from the secret and the people's parts.": N_(  # noqa: E501
        "Verified: the commitment shown before the tournament began matches its secret, and"
        " every round's deals follow from the secret and the people's parts."
    ),
    # TRANSLATORS: the least share of their games a person must have finished to join.
    "Games finished, at least": N_("Games finished, at least"),
    "anyone may join": N_("anyone may join"),
    "games finished: at least {n} %": N_("games finished: at least {n} %"),
    "Show this player's games": N_("Show this player's games"),
    "Games of {name}": N_("Games of {name}"),
    "Show all": N_("Show all"),
    "Back to the tournament": N_("Back to the tournament"),
    "Rated: its games change the players' ratings": N_(
        "Rated: its games change the players' ratings"
    ),
    "The server could not be reached; trying again.": N_(
        "The server could not be reached; trying again."
    ),
    "Your game has started: table {code}.": N_("Your game has started: table {code}."),
    "The tournament is over.": N_("The tournament is over."),
    "Starting: waiting for enough people.": N_("Starting: waiting for enough people."),
    "Round {n} of {total}": N_("Round {n} of {total}"),
    "4 a table, in partnerships": N_("4 a table, in partnerships"),
    "2 a table": N_("2 a table"),
    "clock: {move} s a move": N_("clock: {move} s a move"),
    "rated": N_("rated"),
    "casual": N_("casual"),
    "Sign in to join a tournament.": N_("Sign in to join a tournament."),
    "Join again": N_("Join again"),
    "Withdraw": N_("Withdraw"),
    "Come back": N_("Come back"),
    "Pause": N_("Pause"),
    # TRANSLATORS: a Swiss tournament's tie-break: the sum of the opponents' points.
    "Buchholz": N_("Buchholz"),
    # TRANSLATORS: a duplicate tournament's tie-break: the share of the most matchpoints possible.
    "Share": N_("Share"),
    "Wins": N_("Wins"),
    "withdrawn": N_("withdrawn"),
    "paused": N_("paused"),
    # TRANSLATORS: an arena player who won the last two games: the next ones count double.
    "on a streak": N_("on a streak"),
    "a bot": N_("a bot"),
    # TRANSLATORS: a Swiss round with an odd number of people: one sits out and scores a win.
    "{name}: a bye (counts as a win)": N_("{name}: a bye (counts as a win)"),
    "being played": N_("being played"),
    "forfeited: {names}": N_("forfeited: {names}"),
    "Tables": N_("Tables"),
    "Go to your game": N_("Go to your game"),
    "Standings": N_("Standings"),
    # TRANSLATORS: a kind of tournament: for a fixed time, paired again as soon as a game ends.
    "Arena": N_("Arena"),
    # TRANSLATORS: a kind of tournament: a fixed number of rounds, paired by score.
    "Swiss": N_("Swiss"),
    # TRANSLATORS: a kind of tournament, as in bridge: every table plays the same deals.
    "Duplicate": N_("Duplicate"),
    "Tournaments": N_("Tournaments"),
    "No public tournament is on now.": N_("No public tournament is on now."),
    "Minutes": N_("Minutes"),
    "Rounds": N_("Rounds"),
    "Name": N_("Name"),
    "Friends' tournament": N_("Friends' tournament"),
    "Kind": N_("Kind"),
    "People at a table": N_("People at a table"),
    "4, in partnerships": N_("4, in partnerships"),
    "{move} s a move": N_("{move} s a move"),
    "Starts in (minutes)": N_("Starts in (minutes)"),
    "Create a tournament": N_("Create a tournament"),
    "Create a tournament for friends": N_("Create a tournament for friends"),
    # TRANSLATORS: an arena's pairing time is over; the games under way are played out.
    "The last games are being played.": N_("The last games are being played."),
    # TRANSLATORS: the create form: how many computer players take part as entrants.
    "Bots playing": N_("Bots playing"),
    "The bots' level": N_("The bots' level"),
}

#: Counted texts: key -> the text for a count.
TOURNAMENT_PLURALS: dict[str, Callable[[int], str]] = {
    "Starts in {n} minute": lambda n: ngettext("Starts in {n} minute", "Starts in {n} minutes", n),
    "Starts in {n} second": lambda n: ngettext("Starts in {n} second", "Starts in {n} seconds", n),
    "Starts in {n} hour": lambda n: ngettext("Starts in {n} hour", "Starts in {n} hours", n),
    "Starts in {n} day": lambda n: ngettext("Starts in {n} day", "Starts in {n} days", n),
    # TRANSLATORS: a tournament's settings: computer players taking part as entrants.
    "{n} bot playing": lambda n: ngettext("{n} bot playing", "{n} bots playing", n),
    "Pairing for {n} more minute": lambda n: ngettext(
        "Pairing for {n} more minute", "Pairing for {n} more minutes", n
    ),
    "{n} minute": lambda n: ngettext("{n} minute", "{n} minutes", n),
    "{n} round": lambda n: ngettext("{n} round", "{n} rounds", n),
    "{n} game forfeited": lambda n: ngettext("{n} game forfeited", "{n} games forfeited", n),
}

__all__ = ["TOURNAMENT_PLURALS", "TOURNAMENT_TEXTS"]
