"""The game a person plays in a terminal, and the record replayer.

Everything here talks through plain lines of text on stdin/stdout (``rich``
only adds colour when stdout is a terminal), so a script can drive a game.
``render`` draws, ``game`` runs a match against bots (``typed`` reads what
the person types into a move), ``replay`` steps through a saved record; what
they say is ``passing_game.words``', shared with the web.
"""

from __future__ import annotations

from passing_game.terminal.game import GameOptions, TerminalGame
from passing_game.terminal.render import ASCII, UNICODE, Glyphs
from passing_game.terminal.replay import Replayer

__all__ = ["ASCII", "UNICODE", "GameOptions", "Glyphs", "Replayer", "TerminalGame"]
