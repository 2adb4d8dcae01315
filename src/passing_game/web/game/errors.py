"""The one error the table authority (and the protocol before it) refuses with."""

from __future__ import annotations


class ProtocolError(ValueError):
    """A message or event the server refuses; ``str(exc)`` is shown to the player.

    ``code`` is a short machine word for the client (``not-your-turn``).
    Refusing leaves the table as it was.
    """

    def __init__(self, message: str, code: str = "bad-request") -> None:
        super().__init__(message)
        self.code = code
