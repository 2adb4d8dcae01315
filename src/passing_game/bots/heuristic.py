"""``heuristic``: a weighted rule set, no search.

Every play is scored by a weighted sum of features read from the view:

* ``pips``: dump heavy tiles (what is left in hand counts against you, R7.1);
* ``double``: doubles fit only one number, so lay them while they fit;
* ``follow``: keep tiles that fit the ends the play leaves (so the next turn
  has a play);
* ``variety``: keep many different numbers in hand;
* ``block``: leave ends nobody else can match (all their tiles are seen) or
  that opponents seem short of (they passed or drew while that number was
  open and have not laid it since; soft evidence, R4.4);
* ``feed``: avoid leaving ends that many unseen tiles match.

And the pip race (D3, R7.2):

* when a pass ends the round (everybody else has passed since the last play
  or draw) and its side's count is likely the lowest, it passes, unless its
  best play leaves ends nobody else can match (a free gain);
* when it cannot play it passes if its side is likely lowest, and otherwise
  draws while the boneyard allows it (always under forced passing).

"Likely lowest" compares its side's count with the others' expected counts
(the mean pips of the unseen tiles per tile held) with a safety ``margin``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from passing_game.bots.base import SeededBot
from passing_game.bots.explain import ends_after, likely_lowest, reason_for
from passing_game.bots.knowledge import Knowledge, read
from passing_game.moves import DRAW, PASS, Move, Play
from passing_game.tiles import SUIT_MASKS
from passing_game.views import View

#: Feature weights for scoring a play.
WEIGHTS: dict[str, float] = {
    "pips": 1.0,
    "double": 2.0,
    "follow": 1.5,
    "variety": 0.8,
    "block": 3.0,
    "shut": 6.0,
    "feed": 0.25,
}


class HeuristicBot(SeededBot):
    """A weighted rule set: shed heavy tiles, keep options, block, race the count."""

    name: ClassVar[str] = "heuristic"

    def __init__(
        self,
        seed: int | str = 0,
        margin: float = 0.85,
        weights: Mapping[str, float] | None = None,
    ) -> None:
        super().__init__(seed)
        self.margin = margin
        self.weights = {**WEIGHTS, **(weights or {})}
        unknown = set(self.weights) - set(WEIGHTS)
        if unknown:
            raise ValueError(f"unknown heuristic weights: {', '.join(sorted(unknown))}")

    def score_play(self, view: View, know: Knowledge, move: Play) -> float:
        """The weighted score of laying ``move`` (higher is better)."""
        w = self.weights
        tile = move.tile
        left, right = ends_after(view, move)
        open_mask = SUIT_MASKS[left] | SUIT_MASKS[right]
        rest = know.my_mask & ~(1 << tile.index)
        follow = min(2, (rest & open_mask).bit_count())
        variety = sum(1 for n in range(7) if rest & SUIT_MASKS[n])
        others_can = (know.unseen & open_mask).bit_count()
        score = w["pips"] * tile.pips + w["double"] * tile.is_double
        score += w["follow"] * follow + w["variety"] * variety
        score -= w["feed"] * others_can
        if rest == 0:
            return score + 100.0  # domino
        if view.ends is not None and others_can == 0:
            score += w["shut"]
        else:
            numbers = {left, right}
            mine = view.rules.side_of(view.seat)
            for seat in range(view.rules.players):
                if view.rules.side_of(seat) == mine:
                    continue
                if all(know.short[seat][n] for n in numbers):
                    score += w["block"]
        return score

    def ranked(self, view: View) -> list[tuple[float, Move]]:
        """Every legal move with its score, best first (stable on ties)."""
        moves = view.legal_moves()
        if not moves:
            raise ValueError(f"it is not seat {view.seat}'s turn (seat {view.to_move} is to move)")
        know = read(view)
        plays = [m for m in moves if isinstance(m, Play)]
        scored = [(self.score_play(view, know, m), m) for m in plays]
        scored.sort(key=lambda sm: -sm[0])
        lowest = likely_lowest(view, know, self.margin)
        can_pass = PASS in moves
        can_draw = DRAW in moves
        ends_round = view.passes_in_row == view.rules.players - 1
        out: list[tuple[float, Move]] = []
        if scored:
            best = scored[0][1]
            assert isinstance(best, Play)
            left, right = ends_after(view, best)
            free_gain = (
                not (know.unseen & (SUIT_MASKS[left] | SUIT_MASKS[right])) or len(view.hand) == 1
            )
            if can_pass and ends_round and lowest and not free_gain:
                out.append((1000.0, PASS))
            out.extend(scored)
            if can_draw:
                out.append((-100.0, DRAW))
            if can_pass and (not out or out[0][1] != PASS):
                out.append((-200.0, PASS))
            return out
        if can_draw and (view.rules.passing == "forced" or not lowest):
            out.append((0.0, DRAW))
            if can_pass:
                out.append((-1.0, PASS))
        else:
            if can_pass:
                out.append((0.0, PASS))
            if can_draw:
                out.append((-1.0, DRAW))
        return out

    def choose(self, view: View) -> Move:
        return self.ranked(view)[0][1]

    def explain(self, view: View) -> tuple[Move, str]:
        move = self.choose(view)
        return move, reason_for(view, move)

    def __repr__(self) -> str:
        return f"HeuristicBot(seed={self.seed!r}, margin={self.margin!r})"
