"""The one error the table authority (and the protocol before it) refuses with."""

from __future__ import annotations

from passing_game.i18n import N_

#: The refusal of a seat's token that is not (or no longer) the seat's: worded
#: for the person whose page kept it, not as the protocol calls it (issue 24).
NOT_YOUR_SEAT = N_(
    "This page can no longer take that seat back: it was handed over, or its link was replaced."
)


#: Refusals several modules send, each worded once here (issue 24, item 6: a
#: sentence a person reads, capitalized, with no word of the protocol's).
SIGN_IN_RATED = N_("Sign in to play a rated game.")
SIGN_IN_FIRST = N_("Please sign in first.")
GIVE_A_NAME = N_("Please give a name.")
NOT_READ = N_("The server could not read that; try again.")
NOT_SAVED = N_("The server could not save that; try again.")
OUT_OF_DATE = N_("This page is out of date: reload it and try again.")
UNREADABLE = N_("The server could not read what the page sent: reload the page and try again.")
UNKNOWN_REQUEST = N_(
    "The server does not know the request “{type}”: reload the page to get its latest version."
)
NO_SUCH_SEAT = N_("This table has no seat {seat}.")
NOT_A_CHOICE = N_("That choice is not on offer: choose one of {choices}.")
GAME_NUMBER = N_("A table's games are numbered from 1 to {n}.")
HINT_ON_YOUR_TURN = N_("Hints are given on your turn.")
SUSPENDED = N_("This account is suspended.")


class ProtocolError(ValueError):
    """A message or event the server refuses; ``str(exc)`` is shown to the player.

    ``code`` is a short machine word for the client (``not-your-turn``).
    Refusing leaves the table as it was.
    """

    def __init__(self, message: str, code: str = "bad-request") -> None:
        super().__init__(message)
        self.code = code


#: Tables whose one game is all there is: no rematch (each origin's refusal and code).
PLAYED_ONCE = {
    "daily": (N_("The daily deal is played once a day."), "daily-once"),
    "practice": (N_("A practice round is played once."), "practice-once"),
    "tournament": (
        N_("A tournament's game is played once: the tournament pairs the next one."),
        "tournament-once",
    ),
}
#: Tables where no hint is given, whoever plays: each origin's refusal.
NO_HINTS = {
    "daily": N_("Hints are not given in the daily deal."),
    "tournament": N_("Hints are not given in tournaments."),
}
#: A browser's random part of a deal that is not one (the protocol's and a tournament's).
BAD_PART = N_("A contribution is 16 to 64 lowercase hexadecimal digits.")
