"""The two simplest opponents: ``random`` and ``greedy``."""

from __future__ import annotations

from typing import ClassVar

from passing_game.bots.base import SeededBot
from passing_game.moves import Draw, Move, Pass, Play
from passing_game.views import View


def _legal(view: View) -> list[Move]:
    moves = view.legal_moves()
    if not moves:
        raise ValueError(f"it is not seat {view.seat}'s turn (seat {view.to_move} is to move)")
    return moves


class RandomBot(SeededBot):
    """Picks uniformly among the legal moves."""

    name: ClassVar[str] = "random"

    def choose(self, view: View) -> Move:
        moves = _legal(view)
        return moves[self.rng(view).randrange(len(moves))]


class GreedyBot(SeededBot):
    """Plays the heaviest playable tile; draws only when it cannot play, then passes.

    Ties between equally heavy tiles go to the double (it is harder to place
    later), then to the end that leaves the higher open number.
    """

    name: ClassVar[str] = "greedy"

    def choose(self, view: View) -> Move:
        moves = _legal(view)
        plays = [m for m in moves if isinstance(m, Play)]
        if plays:
            return max(plays, key=lambda m: (m.tile.pips, m.tile.is_double, _open_after(view, m)))
        for m in moves:
            if isinstance(m, Draw):
                return m
        return next(m for m in moves if isinstance(m, Pass))


def _open_after(view: View, move: Play) -> int:
    if view.ends is None:
        return move.tile.high
    end = view.ends[0] if move.end == "left" else view.ends[1]
    return move.tile.other(end)
