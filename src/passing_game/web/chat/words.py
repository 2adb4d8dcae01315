"""What the chat panel says (``static/chat.js``; P58).

Listed in the page's catalog through ``web.http.texts.PAGE_TEXTS``. The ready
messages themselves are the server's (``chat.model.PRESETS``), worded for each
reader where they are delivered.
"""

from __future__ import annotations

from passing_game.i18n import N_

#: Page text key -> English text (the keys are the texts themselves).
CHAT_TEXTS: dict[str, str] = {
    # TRANSLATORS: the chat panel's title and its button that opens or closes it.
    "Chat": N_("Chat"),
    "Chat messages": N_("Chat messages"),
    # TRANSLATORS: one tap that hides every chat message (remembered in this browser).
    "Chat off": N_("Chat off"),
    "Chat on": N_("Chat on"),
    "The chat is off: nobody's messages are shown.": N_(
        "The chat is off: nobody's messages are shown."
    ),
    "No messages yet.": N_("No messages yet."),
    # TRANSLATORS: the row of buttons with messages ready to send ("Hello!", "Good luck!").
    "Ready messages": N_("Ready messages"),
    "Message to the table": N_("Message to the table"),
    "Message to the spectators": N_("Message to the spectators"),
    "Message to the tournament's players": N_("Message to the tournament's players"),
    # TRANSLATORS: the button that sends a chat message.
    "Send": N_("Send"),
    "Not sent.": N_("Not sent."),
    "Sign in to write your own messages; everyone may send the ready ones.": N_(
        "Sign in to write your own messages; everyone may send the ready ones."
    ),
    "The tournament's players write here.": N_("The tournament's players write here."),
    # TRANSLATORS: a button beside a chat message: hide its author's messages from you.
    "Mute": N_("Mute"),
    "Mute {name}": N_("Mute {name}"),
    # TRANSLATORS: a button beside a chat message: tell the moderators about it.
    "Report": N_("Report"),
    "Report this message by {name}": N_("Report this message by {name}"),
    "Reported": N_("Reported"),
    "Reported: a moderator will look at it.": N_("Reported: a moderator will look at it."),
    "You muted {name}: their messages no longer reach you.": N_(
        "You muted {name}: their messages no longer reach you."
    ),
    "You muted {name} in this browser.": N_("You muted {name} in this browser."),
    # TRANSLATORS: the list of people whose chat messages you hid, each with a button.
    "Muted people": N_("Muted people"),
    "Unmute {name}": N_("Unmute {name}"),
    "You hear {name} again.": N_("You hear {name} again."),
    # TRANSLATORS: the name shown for a guest who watches a table and says something.
    "A spectator": N_("A spectator"),
    # TRANSLATORS: a mark beside a message from the spectators' channel.
    "spectator": N_("spectator"),
}

__all__ = ["CHAT_TEXTS"]
