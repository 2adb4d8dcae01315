"""Guessing the hidden tiles: deals consistent with one seat's ``View``.

The hard facts are few (R9): the unseen tiles (not in my hand, not on the
train) are split among the other hands, whose sizes are public, and the
boneyard, whose size is public and whose order (the two locked tiles
included, R2.4) nobody knows. Every such split is possible, and the sampler
never rules one out.

What the others did is soft evidence, weighed by an opponent model:

* a pass or a draw proves nothing (R4.4, R4.5), but a player who held a
  fitting tile passed or drew only with probability ``trust``. A deal is
  weighted by the chance of what was seen: if the seat's tiles then (its
  hand now plus what it laid since, less the tiles it drew since, which we
  cannot tell apart) held a fitting tile the factor is ``trust``, else 1;
* players mostly shed heavy tiles, so a play that was lighter than the
  heaviest fitting tile the seat then held has factor ``exp(-heavy * gap)``
  (``gap`` in pips).

A seat shown to have passed or drawn while holding a fitting tile (it laid
more fitting tiles afterwards than it drew) is a deliberate passer, and its
pass and draw evidence counts only half as much (``sqrt(trust)``).

Deals are drawn by sampling-importance-resampling: a pool of uniform deals
is weighted once, then each guess is drawn from the pool by weight.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from itertools import accumulate

from passing_game.bots.knowledge import Knowledge, read
from passing_game.state import State
from passing_game.tiles import BIT, PIPS, bits
from passing_game.views import View


#: Opponent models fitted against the expert's own play, by format
#: ``(players, partnerships)``: ``(trust, heavy)``. With two players an
#: expert's passes and draws with a fitting tile in hand are rare and it
#: seldom lays a light tile while holding a heavier one, so the sharp model
#: reads them (docs/STRENGTH.md, issue 16: chosen on duplicate deals against
#: the expert of 5f2ff52). Other formats keep the soft default: in
#: partnerships a player may pass on purpose to let its partner play.
FITTED: dict[tuple[int, bool], tuple[float, float]] = {(2, False): (0.05, 1.0)}


def fitted_model(view: View, trust: float, heavy: float) -> tuple[float, float]:
    """``FITTED``'s ``(trust, heavy)`` for the view's format, else the given ones."""
    return FITTED.get((view.rules.players, view.rules.partnerships), (trust, heavy))


def check_trust(trust: float) -> float:
    """Validate a ``trust`` option: a probability in (0, 1]."""
    if isinstance(trust, bool) or not isinstance(trust, (int, float)) or not 0.0 < trust <= 1.0:
        raise ValueError(f"trust must be a number in (0, 1], got {trust!r}")
    return float(trust)


def _chance_all_drawn(held: int, fitting: int, drawn: int) -> float:
    """Chance that all ``fitting`` of ``held`` tiles are among ``drawn`` random ones."""
    if fitting > drawn:
        return 0.0
    return math.comb(held - fitting, drawn - fitting) / math.comb(held, drawn)


class Sampler:
    """Draws full ``State`` guesses for one view.

    ``trust`` and ``heavy`` set the opponent model (``trust=1`` and
    ``heavy=0`` give uniform deals); ``pool`` is how many uniform deals are
    weighted before drawing.
    """

    def __init__(
        self, view: View, trust: float = 0.3, heavy: float = 0.15, pool: int = 400
    ) -> None:
        self.trust = check_trust(trust)
        self.heavy = float(heavy)
        self.view = view
        self.know: Knowledge = read(view)
        self.unseen = bits(self.know.unseen)
        self.seat = view.seat
        self.others = [
            (seat, size) for seat, size in enumerate(view.hand_sizes) if seat != view.seat
        ]
        self.my_mask = self.know.my_mask
        self.pool_size = max(1, pool)
        deliberate = {
            ev.seat
            for ev in self.know.evidence
            if (ev.later & ev.open_mask).bit_count() > ev.draws_after
        }
        # (seat, open mask, tiles laid later, draws after, trust)
        self.events: list[tuple[int, int, int, int, float]] = []
        if self.trust < 1.0:
            for ev in self.know.evidence:
                factor = math.sqrt(self.trust) if ev.seat in deliberate else self.trust
                self.events.append((ev.seat, ev.open_mask, ev.later, ev.draws_after, factor))
        # (seat, open mask, tiles laid later, draws after, pips of the tile laid)
        self.play_events: list[tuple[int, int, int, int, int]] = []
        if self.heavy > 0.0:
            for pe in self.know.plays:
                self.play_events.append(
                    (pe.seat, pe.open_mask, pe.later, pe.draws_after, PIPS[pe.tile])
                )
        self._deals: list[tuple[list[int], list[int]]] = []
        self._cum: list[float] = []

    @property
    def informed(self) -> bool:
        """Whether any evidence weighs the deals (else they are uniform)."""
        return bool(self.events or self.play_events)

    def uniform(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """A deal drawn uniformly: a hand mask per seat (mine included) and the boneyard."""
        pool = self.unseen[:]
        rng.shuffle(pool)
        hands = [0] * len(self.view.hand_sizes)
        hands[self.seat] = self.my_mask
        pos = 0
        for seat, size in self.others:
            m = 0
            for t in pool[pos : pos + size]:
                m |= BIT[t]
            hands[seat] = m
            pos += size
        return hands, pool[pos:]

    def weight(self, hands: list[int]) -> float:
        """How likely the others' actions were, had they held ``hands``."""
        w = 1.0
        for seat, open_mask, later, drawn, factor in self.events:
            held = hands[seat] | later
            fitting = (held & open_mask).bit_count()
            if fitting:
                q = _chance_all_drawn(held.bit_count(), fitting, drawn) if drawn else 0.0
                w *= q + (1.0 - q) * factor
        heavy = self.heavy
        for seat, open_mask, later, drawn, pips in self.play_events:
            m = (hands[seat] | later) & open_mask
            best = 0
            while m:
                low = m & -m
                p = PIPS[low.bit_length() - 1]
                if p > best:
                    best = p
                m ^= low
            if best > pips:
                w *= math.exp(-heavy * (best - pips) / (1 + drawn))
        return w

    def _fill(self, rng: random.Random) -> None:
        deals = [self.uniform(rng) for _ in range(self.pool_size)]
        weights = [self.weight(hands) for hands, _bone in deals]
        self._deals = deals
        self._cum = list(accumulate(weights))

    def deal(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """One guess, drawn by weight (uniform when nothing is known)."""
        if not self.informed:
            return self.uniform(rng)
        if not self._deals:
            self._fill(rng)
        cum = self._cum
        i = bisect_right(cum, rng.random() * cum[-1])
        hands, bone = self._deals[min(i, len(cum) - 1)]
        bone = bone[:]
        rng.shuffle(bone)  # the boneyard order is never evidence
        return hands, bone

    def effective_size(self) -> float:
        """Kish's effective sample size of the weighted pool (a diagnostic)."""
        if not self._cum:
            return float(self.pool_size)
        weights = [b - a for a, b in zip([0.0, *self._cum[:-1]], self._cum, strict=True)]
        total = sum(weights)
        return total * total / sum(w * w for w in weights)

    def sample(self, rng: random.Random) -> State:
        hands, bone = self.deal(rng)
        return State.from_view(self.view, hands, bone)

    def kernel_pool(
        self, rng: random.Random
    ) -> tuple[int, list[tuple[int, ...]], list[list[int]], list[float]]:
        """The guesses as the compiled search draws them: ``(mode, hands, bones, cum)``.

        With evidence, the weighted pool (``kernel.WORLD_POOL``: a deal by
        weight, its boneyard reshuffled each time); without, one deal that the
        kernel re-deals uniformly for every guess (``kernel.WORLD_UNIFORM``).
        """
        if not self.informed:
            hands, bone = self.uniform(rng)
            return 2, [tuple(hands)], [bone], []
        if not self._deals:
            self._fill(rng)
        hands_pool = [tuple(hands) for hands, _bone in self._deals]
        bones = [bone for _hands, bone in self._deals]
        return 1, hands_pool, bones, self._cum
