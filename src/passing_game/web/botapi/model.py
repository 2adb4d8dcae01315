"""Bot accounts' rules, pure: tokens, the socket's credentials, decisions (P62).

A bot account's API token is 32 random bytes behind a prefix that says what
it is (``pgbot_``), shown once to its owner; the store keeps its SHA-256
(``accounts.flows.hash_secret``), as it keeps a session's. A bot's socket
presents it as ``Authorization: Bearer TOKEN`` and in no other way: a
query string lands in logs and histories, a cookie would let any page of
any site open the socket in the owner's browser.

A decision's ``id`` on the site is what the arena's is: the seat's decisions
in this game, counted from 1 (docs/BOTS.md), here counted from the game's
moves (``decision_id``), so every process and a bot that reconnects count
alike. A decision the table settled for the seat (its clock ran out, a
stand-in played) counts too: the next one's id is one more.

>>> from passing_game.match import Match
>>> match = Match(seed=3)
>>> decision_id(match, match.to_move)
1
>>> bearer("Bearer pgbot_abc"), bearer("bearer  pgbot_abc "), bearer("Basic x"), bearer(None)
('pgbot_abc', 'pgbot_abc', None, None)
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from passing_game.match import Match
from passing_game.moves import Move

#: What every bot token starts with (a leaked one is recognisable in a log or a diff).
TOKEN_PREFIX = "pgbot_"
#: The most bot accounts one person may have.
MOST_BOTS = 5
#: The most games a bot plays at once; a challenge past it is answered by the site.
MOST_GAMES = 8
#: The longest token read from a header (anything longer is no token of ours).
MAX_TOKEN = 100
#: How long a bot that went (its socket closed, nothing took over) is "recently seen".
RECENT_SECONDS = 60.0


def new_token() -> str:
    """A fresh API token (shown once; only its hash is kept).

    >>> token = new_token()
    >>> token.startswith(TOKEN_PREFIX), len(token) > 40, token != new_token()
    (True, True, True)
    """
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or ``None``."""
    if not header or len(header) > MAX_TOKEN + 20:
        return None
    scheme, _sep, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN:
        return None
    usable = token.isascii() and token.isprintable() and not any(c.isspace() for c in token)
    return token if usable else None


def decision_id(match: Match, seat: int) -> int:
    """The number of the seat's decision now open in this game: its moves so far, plus one."""
    return 1 + sum(1 for rnd in match.rounds for turn in rnd.history if turn.seat == seat)


@dataclass(frozen=True)
class Decision:
    """A decision sent to a bot and not answered yet."""

    game: int
    ident: int
    legal: tuple[Move, ...]


def legal_words(legal: tuple[Move, ...]) -> str:
    """The legal moves as an error line lists them.

    >>> from passing_game.moves import DRAW, PASS
    >>> legal_words((DRAW, PASS))
    'draw, pass'
    """
    return ", ".join(str(m) for m in legal)


__all__ = [
    "MAX_TOKEN",
    "MOST_BOTS",
    "MOST_GAMES",
    "RECENT_SECONDS",
    "TOKEN_PREFIX",
    "Decision",
    "bearer",
    "decision_id",
    "legal_words",
    "new_token",
]
