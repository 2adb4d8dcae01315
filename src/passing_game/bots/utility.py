"""What a finished round is worth to each side, as the search bots score it.

Points from ``State.result`` (R7): with two sides the zero-sum margin, with
more the side's points against the mean of the others' (or its own alone).
"""

from __future__ import annotations

from passing_game.state import State


def utility(state: State, side: int, relative: bool = True) -> float:
    """What the finished round is worth to ``side``, in points.

    With two sides: its points minus the other side's (so ``pips_other -
    pips_own``, the zero-sum margin). With more sides and ``relative``: its
    points minus the mean of the others' points; otherwise its own points.
    """
    winner, points, counts = state.result()
    sides = len(counts)
    if sides == 2:
        return float(counts[1 - side] - counts[side])
    mine = points if winner == side else 0
    if not relative:
        return float(mine)
    others = points - mine if winner is not None else 0
    return mine - others / (sides - 1)


def utilities(state: State, relative: bool = True) -> list[float]:
    """``utility`` for every side."""
    winner, points, counts = state.result()
    sides = len(counts)
    if sides == 2:
        d = float(counts[1] - counts[0])
        return [d, -d]
    out = []
    for side in range(sides):
        mine = points if winner == side else 0
        if relative:
            others = points - mine if winner is not None else 0
            out.append(mine - others / (sides - 1))
        else:
            out.append(float(mine))
    return out
