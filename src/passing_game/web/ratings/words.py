"""What the page says of ratings (issue 24, item 9): a change in words, the help.

The page's texts of the summary's rating lines and of the leaderboard
(``static/ratings.js``), kept beside the ratings they explain and listed in
the page's catalog through ``web.http.texts.PAGE_TEXTS`` (plain) and
``web.http.i18n.PAGE_PLURALS`` (counted). A change is one sentence with the
signed number in it (``{delta}``), never a phrase spliced into another; which
sentence is the page's choice from ``frame["ratings"]``'s ``delta`` and
``settling`` (``model.settling``).
"""

from __future__ import annotations

from collections.abc import Callable

from passing_game.i18n import N_, ngettext

#: Page text key -> English text (the keys are the texts themselves).
RATING_TEXTS: dict[str, str] = {
    # TRANSLATORS: a rating change at the end of a rated game; {delta} is like +69 or −37.
    "{delta}: your first games move your rating more": N_(
        "{delta}: your first games move your rating more"
    ),
    # TRANSLATORS: another player's rating change; {delta} is like +69 or −37.
    "{delta}: first games move a rating more": N_("{delta}: first games move a rating more"),
    # TRANSLATORS: a settled rating's change; {delta} is like +8.
    "{delta}: a better result than the ratings expected": N_(
        "{delta}: a better result than the ratings expected"
    ),
    # TRANSLATORS: a settled rating's change; {delta} is like −8.
    "{delta}: a worse result than the ratings expected": N_(
        "{delta}: a worse result than the ratings expected"
    ),
    # TRANSLATORS: a rating that this game did not change.
    "No change": N_("No change"),
    "How ratings work": N_("How ratings work"),
    "A rating says how well you play, from the results of your rated games: one rating for each kind of game (two, three or four players, or teams). Everyone starts at 1000.": N_(  # noqa: E501
        "A rating says how well you play, from the results of your rated games: one rating"
        " for each kind of game (two, three or four players, or teams). Everyone starts at 1000."
    ),
    "The number shown is a careful guess: your skill as your games show it so far, less a margin for what they cannot show yet. Each game makes that margin smaller, so your first games move your rating more, and a first win gains more than a first loss costs.": N_(  # noqa: E501
        "The number shown is a careful guess: your skill as your games show it so far, less a"
        " margin for what they cannot show yet. Each game makes that margin smaller, so your"
        " first games move your rating more, and a first win gains more than a first loss costs."
    ),
    "Once your rating has settled, a game moves it less: up when your result is better than the ratings expected, down when it is worse. Beating a higher rating gains more.": N_(  # noqa: E501
        "Once your rating has settled, a game moves it less: up when your result is better"
        " than the ratings expected, down when it is worse. Beating a higher rating gains more."
    ),
    # TRANSLATORS: the leaderboard's note on its last column ("Games").
    "Games: how many rated games each rating rests on. A rating marked “still settling” rests on few games and still moves more.": N_(  # noqa: E501
        "Games: how many rated games each rating rests on. A rating marked “still settling”"
        " rests on few games and still moves more."
    ),
    # TRANSLATORS: a mark beside a leaderboard rating that rests on few games.
    "still settling": N_("still settling"),
}

#: Counted page texts: key -> the form for ``n``.
RATING_PLURALS: dict[str, Callable[[int], str]] = {
    "Your rating here rests on {n} game.": lambda n: ngettext(
        "Your rating here rests on {n} game.", "Your rating here rests on {n} games.", n
    ),
}

__all__ = ["RATING_PLURALS", "RATING_TEXTS"]
