"""The one error the table authority (and the protocol before it) refuses with."""

from __future__ import annotations

from passing_game.i18n import N_

#: The refusal of a seat's token that is not (or no longer) the seat's: worded
#: for the person whose page kept it, not as the protocol calls it (issue 24).
NOT_YOUR_SEAT = N_(
    "This page can no longer take that seat back: it was handed over, or its link was replaced."
)


class ProtocolError(ValueError):
    """A message or event the server refuses; ``str(exc)`` is shown to the player.

    ``code`` is a short machine word for the client (``not-your-turn``).
    Refusing leaves the table as it was.
    """

    def __init__(self, message: str, code: str = "bad-request") -> None:
        super().__init__(message)
        self.code = code
