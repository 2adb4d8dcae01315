"""What the friends card and the challenge notices say (``static/social.js``).

Listed in the page's catalog through ``web.http.texts.PAGE_TEXTS``; its counted
texts ("{n} player", "to {n} point", "{n} second per move") are the lobby's.
"""

from __future__ import annotations

from passing_game.i18n import N_

#: Page text key -> English text (the keys are the texts themselves).
SOCIAL_TEXTS: dict[str, str] = {
    # TRANSLATORS: the lobby's card of the accounts one follows.
    "Friends": N_("Friends"),
    "Account name": N_("Account name"),
    # TRANSLATORS: a button: follow an account (see when it is online).
    "Follow": N_("Follow"),
    "Unfollow": N_("Unfollow"),
    # TRANSLATORS: a button: invite an account to a game with chosen rules.
    "Challenge": N_("Challenge"),
    # TRANSLATORS: a button: no chat and no challenges from this account.
    "Block account": N_("Block account"),
    "Unblock": N_("Unblock"),
    # TRANSLATORS: a heading: the list of accounts the reader blocks.
    "Accounts you block": N_("Accounts you block"),
    "Accept": N_("Accept"),
    "Decline": N_("Decline"),
    "Cancel the challenge": N_("Cancel the challenge"),
    "Challenge an account": N_("Challenge an account"),
    "Challenges for you": N_("Challenges for you"),
    "Send the challenge": N_("Send the challenge"),
    # TRANSLATORS: who sits in the seats that are neither yours nor the challenged person's.
    "The other seats": N_("The other seats"),
    "Empty: the rules' usual target": N_("Empty: the rules' usual target"),
    "Rated: the game changes both ratings": N_("Rated: the game changes both ratings"),
    "Offline": N_("Offline"),
    "Online": N_("Online"),
    # TRANSLATORS: {code} is a six-letter table code.
    "Online — playing at table {code}": N_("Online — playing at table {code}"),
    "Sign in to follow people and challenge them.": N_(
        "Sign in to follow people and challenge them."
    ),
    "You follow nobody yet: type an account's name.": N_(
        "You follow nobody yet: type an account's name."
    ),
    "Your challenges": N_("Your challenges"),
    "Waiting for {name} to answer.": N_("Waiting for {name} to answer."),
    "Challenge sent to {name}. It waits 10 minutes for the answer.": N_(
        "Challenge sent to {name}. It waits 10 minutes for the answer."
    ),
    "You follow {name}.": N_("You follow {name}."),
    "You no longer follow {name}.": N_("You no longer follow {name}."),
    "You block {name}: no chat and no challenges from this account.": N_(
        "You block {name}: no chat and no challenges from this account."
    ),
    "You no longer block {name}.": N_("You no longer block {name}."),
    "{name} challenges you.": N_("{name} challenges you."),
    "{name} accepted your challenge.": N_("{name} accepted your challenge."),
    "{name} declined your challenge.": N_("{name} declined your challenge."),
    "Your challenge to {name} expired.": N_("Your challenge to {name} expired."),
}

__all__ = ["SOCIAL_TEXTS"]
