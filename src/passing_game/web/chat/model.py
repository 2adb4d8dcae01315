"""The chat's rules, pure (issue 27, item 1; docs/DECISIONS.md P58).

Nothing here reads the store, the clock or a socket: the service
(``chat/service.py``) gives it what it needs (the time, the messages of the
rate window, who reads) and does what it says.

- **Presets** are kept as a key (``PRESETS``) and worded in each reader's
  own language where they are delivered (``render``).
- **Free text** is for signed-in people only: control characters go,
  whitespace collapses, at most ``MAX_TEXT`` characters (``clean_text``).
- **The rate** is counted per author in the store: at most ``RATE_COUNT``
  messages in ``RATE_SECONDS`` (``rate_ok``).
- **Channels** (``may_read``): the players' channel is read by everyone at
  the table; the spectators' channel by the spectators, and by the players
  only once the match is over.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Sequence
from typing import Any

from passing_game.i18n import N_, _, ngettext, using_language
from passing_game.web.store.chat import Channel, Message

#: Preset key -> its English text (``render`` words it in the reader's language).
PRESETS: dict[str, str] = {
    "hello": N_("Hello!"),
    "good-luck": N_("Good luck!"),
    "have-fun": N_("Have fun!"),
    "well-played": N_("Well played!"),
    "nice": N_("Nice move!"),
    "thanks": N_("Thanks!"),
    "oops": N_("Oops!"),
    "sorry": N_("Sorry!"),
    "one-moment": N_("One moment, please."),
    "good-game": N_("Good game!"),
    # The button's word: a rematch, please (the one preset older catalogs have already).
    "rematch": N_("Rematch"),
    "bye": N_("Bye!"),
}

#: The longest free text, in characters, once cleaned.
MAX_TEXT = 200
#: At most ``RATE_COUNT`` messages by one author in ``RATE_SECONDS`` seconds.
RATE_COUNT = 5
RATE_SECONDS = 20.0
#: Messages of a channel sent on (re)joining, and kept around a report.
HISTORY = 50
CONTEXT = 5

CHANNELS: tuple[Channel, ...] = ("players", "spectators", "tournament")

# The error codes, each with its sentence (``ChatError``).
NOT_PRESET = N_("That is not one of the chat's ready messages.")
EMPTY = N_("Write something first.")
SIGN_IN = N_("Sign in to write your own messages; everyone may send the ready ones.")
TOO_FAST = N_("You are sending messages too fast: wait a few seconds.")
MUTED = N_("A moderator has muted your chat until {when}.")
NO_MESSAGE = N_("That message is not there any more.")
ONE_OF = N_("Send either a ready message or your own text.")


class ChatError(ValueError):
    """A message refused: ``str(exc)`` says why in the asker's language, ``code`` for the page."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def author_key(user_id: str | None, guest: str) -> str:
    """The key a message's author is known by on the pages: a digest of the account's
    id (the id itself is never shown), else the guest's own key (its seat, or one drawn
    for a spectator's connection)."""
    if user_id is None:
        return "g:" + guest
    return "u:" + hashlib.sha256(f"passing-game/chat/{user_id}".encode()).hexdigest()[:16]


def clean_text(value: Any) -> str:
    """A person's text as it will be shown: controls dropped, whitespace collapsed.

    >>> clean_text("  Hi\\tthere\\x00!\\n ")
    'Hi there!'
    """
    if not isinstance(value, str):
        raise ChatError(_(EMPTY), "chat-empty")
    kept = []
    for char in value:
        kind = unicodedata.category(char)
        if char.isspace():
            kept.append(" ")
        elif kind[0] != "C" or kind == "Co":  # controls, formats, surrogates go
            kept.append(char)
    text = " ".join("".join(kept).split())
    if not text:
        raise ChatError(_(EMPTY), "chat-empty")
    if len(text) > MAX_TEXT:
        raise ChatError(
            ngettext(
                "A chat message has at most {n} character.",
                "A chat message has at most {n} characters.",
                MAX_TEXT,
            ).format(n=MAX_TEXT),
            "chat-too-long",
        )
    return text


def check_say(preset: Any, text: Any, signed_in: bool) -> tuple[str | None, str | None]:
    """What a ``say`` carries, checked: (preset, None) or (None, text)."""
    if (preset is None) == (text is None):
        raise ChatError(_(ONE_OF), "chat-bad")
    if preset is not None:
        if not isinstance(preset, str) or preset not in PRESETS:
            raise ChatError(_(NOT_PRESET), "chat-preset")
        return preset, None
    if not signed_in:
        raise ChatError(_(SIGN_IN), "chat-signed-out")
    return None, clean_text(text)


def rate_ok(recent: Sequence[float], now: float) -> bool:
    """Whether one more message may go, given the times of the author's messages."""
    return sum(1 for at in recent if now - RATE_SECONDS < at <= now) < RATE_COUNT


def check_rate(recent: Sequence[float], now: float) -> None:
    if not rate_ok(recent, now):
        raise ChatError(_(TOO_FAST), "chat-rate")


def channel_of(seated: bool) -> Channel:
    """The channel a person at a table writes in: the players' or the spectators'."""
    return "players" if seated else "spectators"


def may_read(channel: Channel, seated: bool, match_over: bool) -> bool:
    """Whether somebody at a table reads ``channel``: a player never reads the
    spectators' channel while the match is on."""
    if channel == "spectators":
        return not seated or match_over
    return True


def render(message: Message, language: str, mine: bool = False) -> dict[str, Any]:
    """The message as one reader's page shows it, worded in the reader's ``language``."""
    with using_language(language):
        if message.preset is not None:
            text = _(PRESETS[message.preset])
        else:
            text = message.text or ""
        name = message.name or _("A spectator")
    return {
        "id": message.id,
        "channel": message.channel,
        "author": message.author,
        "name": name,
        "preset": message.preset,
        "text": text,
        "at": message.at,
        "mine": mine,
    }


def presets_in(language: str) -> list[dict[str, str]]:
    """The ready messages for the page's buttons, worded in ``language``."""
    with using_language(language):
        return [{"key": key, "text": _(text)} for key, text in PRESETS.items()]


def around(messages: Sequence[Message], id: int, width: int = CONTEXT) -> list[Message]:
    """The messages around ``id`` (the ``width`` before and after it): a report's context."""
    index = next((i for i, m in enumerate(messages) if m.id == id), None)
    if index is None:
        return []
    return list(messages[max(0, index - width) : index + width + 1])


__all__ = [
    "CHANNELS",
    "CONTEXT",
    "HISTORY",
    "MAX_TEXT",
    "PRESETS",
    "RATE_COUNT",
    "RATE_SECONDS",
    "Channel",
    "ChatError",
    "Message",
    "around",
    "author_key",
    "channel_of",
    "check_rate",
    "check_say",
    "clean_text",
    "may_read",
    "presets_in",
    "rate_ok",
    "render",
]
