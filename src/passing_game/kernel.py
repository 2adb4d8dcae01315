"""The compiled search kernel, and how to hand it a position.

``passing_game._kernel`` is a small C extension built when the package is
installed (docs/PERFORMANCE.md says why C). It is optional: ``AVAILABLE`` is
false where no compiler was found, and callers fall back to pure Python.
Positions cross over as plain integers: each hand a 28-bit mask of tile
indices, the boneyard a list of tile indices (next draw first).
"""

from __future__ import annotations

from typing import Any

from passing_game.round import Round
from passing_game.rules import Rules

try:
    from passing_game import _kernel  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - exercised only without a compiler
    _kernel = None

AVAILABLE: bool = _kernel is not None

DRAW_CODE = 56
PASS_CODE = 57
REASONS = {1: "domino", 2: "block", 3: "all-pass"}


def flags(rules: Rules) -> int:
    """The rules variants as the kernel's bit flags (D1, D2, D6)."""
    return (
        (1 if rules.draw == "continue" else 0)
        | (2 if rules.passing == "forced" else 0)
        | (4 if rules.partnerships else 0)
    )


def position(rnd: Round) -> tuple[Any, ...]:
    """A round as the kernel's nine position arguments."""
    ends = rnd.ends or (-1, -1)
    hands = tuple(sum(1 << t.index for t in hand) for hand in rnd.hands)
    seat = rnd.to_move
    if seat is None:
        raise ValueError("the round is over")
    return (
        hands,
        [t.index for t in rnd.boneyard],
        0,
        ends[0],
        ends[1],
        seat,
        rnd.passes_in_row,
        rnd.rules.players,
        flags(rnd.rules),
    )


def _need() -> Any:
    if _kernel is None:
        raise RuntimeError("the compiled kernel is not built; reinstall with a C compiler")
    return _kernel


def random_rounds(rules: Rules, rounds: int, seed: int) -> int:
    """Deal and play ``rounds`` rounds of uniformly random moves; the actions played."""
    return int(_need().random_rounds(rules.players, rules.hand_size, flags(rules), rounds, seed))


def playout(rnd: Round, seed: int, eps: float = 0.0) -> tuple[str, tuple[int, ...], int]:
    """Play ``rnd`` (unchanged) to the end with the playout policy.

    Returns the reason, each seat's pips and the number of actions.
    """
    reason, pips, actions = _need().playout(*position(rnd), eps, seed)
    return REASONS[reason], pips, actions


def trace(rnd: Round, seed: int) -> tuple[list[tuple[Any, ...]], str, tuple[int, ...]]:
    """Random legal moves from ``rnd`` to the end, each step recorded."""
    steps, reason, pips = _need().trace(*position(rnd), seed)
    return steps, REASONS[reason], pips
