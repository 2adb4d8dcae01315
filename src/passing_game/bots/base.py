"""The bot interface: a bot sees one seat's ``View`` and returns a move.

Bots never get a ``Round``: whatever they know comes from the view (R9).
A bot is deterministic: the same seed and the same view give the same move.
"""

from __future__ import annotations

import random
from typing import ClassVar, Protocol, runtime_checkable

from passing_game.moves import Move
from passing_game.views import View


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``name`` and ``choose(view) -> Move``."""

    name: ClassVar[str]

    def choose(self, view: View) -> Move: ...


@runtime_checkable
class Explainer(Protocol):
    """A bot that can say why: ``explain(view) -> (move, one-line reason)``.

    The heuristic and search bots (and the levels built on them) are
    explainers; the hint key of the games asks ``make("expert")``.
    """

    def explain(self, view: View) -> tuple[Move, str]: ...


def view_key(view: View) -> str:
    """A stable text that identifies a view, for seeding per-decision randomness."""
    hand = ",".join(map(str, view.hand))
    history = ";".join(f"{t.seat}{t.move}{t.drawn or ''}" for t in view.history)
    return f"{view.round_number}|{view.seat}|{hand}|{view.leader}|{history}"


class SeededBot:
    """Base for bots that use randomness: one generator per decision.

    Seeding each decision from ``(seed, view)`` keeps a bot's choice a pure
    function of what it sees, whatever it was asked before.
    """

    name: ClassVar[str] = "bot"
    #: Fair bots see views only; the omniscient yardstick sets this.
    cheats: ClassVar[bool] = False

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed

    def rng(self, view: View) -> random.Random:
        return random.Random(f"{self.seed}|{view_key(view)}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"
