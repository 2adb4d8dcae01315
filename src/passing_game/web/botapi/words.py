"""What the page says of bot accounts (``static/bots.js`` and the bot marks; P62).

Listed in the page's catalog through ``web.http.texts.PAGE_TEXTS``.
"""

from __future__ import annotations

from passing_game.i18n import N_

#: Page text key -> English text (the keys are the texts themselves).
BOT_TEXTS: dict[str, str] = {
    # TRANSLATORS: a small mark beside a name: a program plays this account (a bot account).
    "bot": N_("bot"),
    "A program plays this account.": N_("A program plays this account."),
    # TRANSLATORS: the account menu's item, and the dialog's title: your bot accounts.
    "My bots": N_("My bots"),
    "A bot account is played by a program you run, on your computer, through the site's bot socket. It has no password: it connects with a token, shown once.": N_(  # noqa: E501
        "A bot account is played by a program you run, on your computer, through the"
        " site's bot socket. It has no password: it connects with a token, shown once."
    ),
    "You have no bot account yet.": N_("You have no bot account yet."),
    "Bot name": N_("Bot name"),
    "Make the bot account": N_("Make the bot account"),
    # TRANSLATORS: a button: make a new secret token for a bot (the old one stops working).
    "New token": N_("New token"),
    # TRANSLATORS: a button: the bot's token stops working; the bot stops playing.
    "Revoke the token": N_("Revoke the token"),
    "The token of {name}, shown only now: keep it secret. Anyone who has it plays as the bot.": N_(
        "The token of {name}, shown only now: keep it secret. Anyone who has it plays as the bot."
    ),
    "Copy the token": N_("Copy the token"),
    "Copied.": N_("Copied."),
    "Save it in a file only you can read, then run your program with it, for example:": N_(
        "Save it in a file only you can read, then run your program with it, for example:"
    ),
    "I have kept it": N_("I have kept it"),
    "Connected": N_("Connected"),
    "Not connected": N_("Not connected"),
    "No token: make a new one to play again.": N_("No token: make a new one to play again."),
    "Suspended": N_("Suspended"),
    "Suspended with your account": N_("Suspended with your account"),
    "The old token stops working at once.": N_("The old token stops working at once."),
    "The token of {name} is revoked: the bot stops playing.": N_(
        "The token of {name} is revoked: the bot stops playing."
    ),
    # TRANSLATORS: quick play's choice: bot accounts may sit at the table too.
    "Meet bot accounts too": N_("Meet bot accounts too"),
    "Programs that people run. A rated game with one counts in the bots' ratings, apart from the people's.": N_(  # noqa: E501
        "Programs that people run. A rated game with one counts in the bots' ratings,"
        " apart from the people's."
    ),
    # TRANSLATORS: the leaderboard's second row of pools: ratings of games with a bot account.
    "Games with bots": N_("Games with bots"),
    "Two players, with bots": N_("Two players, with bots"),
    "Three players, with bots": N_("Three players, with bots"),
    "Four players, with bots": N_("Four players, with bots"),
    "Four players in teams, with bots": N_("Four players in teams, with bots"),
    # TRANSLATORS: on a bot account's profile: {owner} is the person who runs it.
    "Bot account run by {owner}": N_("Bot account run by {owner}"),
}

__all__ = ["BOT_TEXTS"]
