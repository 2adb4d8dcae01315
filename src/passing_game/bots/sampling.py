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

With ``model="fitted"`` (``playmodel.FITTED``: a model of play fitted to
the expert's own play) the hand-made model gives way to policy-based
inference: a deal is weighted by the probability of every decision the
others made (plays, draws and passes alike, the lead included) under that
model of their play, for the hands the deal gives them then
(``reader.Reader``).

Deals are drawn by sampling-importance-resampling: a pool of uniform deals
is weighted once, then each guess is drawn from the pool by weight. The
same pool gives each unseen tile's chance of being in each hand or in the
boneyard (``Sampler.marginals``), which is how the beliefs are measured
against the true hands (``passing-game bench --beliefs``, issue 16).
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from itertools import accumulate

from passing_game.bots.knowledge import Knowledge, read
from passing_game.bots.playmodel import check_coefficients, decisions, fitted_for
from passing_game.bots.reader import Reader
from passing_game.state import State
from passing_game.tiles import BIT, PIPS, bits
from passing_game.views import View

#: The boneyard's place in a tile's marginals: the last entry, after one per seat.
BONEYARD = -1


def uniform_marginals(view: View) -> dict[int, list[float]]:
    """Where each unseen tile is when every consistent deal is equally likely.

    ``{tile index: [P(in seat 0's hand), ..., P(in seat n-1's hand),
    P(in the boneyard)]}`` (``BONEYARD`` indexes the last entry; the view's
    own seat has 0): a tile is in seat s's hand with probability
    ``size_s / unseen`` and in the boneyard with ``boneyard_size / unseen``,
    exactly. This is the baseline every belief model is measured against.

    >>> from passing_game.round import Round
    >>> m = uniform_marginals(Round.new(seed=1).view(0))
    >>> len(m), m[min(m)]
    (21, [0.0, 0.3333333333333333, 0.6666666666666666])
    """
    unseen = sorted(t.index for t in view.unseen)
    count = len(unseen)
    row = [0.0 if seat == view.seat else size / count for seat, size in enumerate(view.hand_sizes)]
    row.append(view.boneyard_size / count)
    return {t: row[:] for t in unseen}


#: The opponent model of the ``expert`` level, by format ``(players,
#: partnerships)``: ``(trust, heavy)``. Tuned on duplicate deals against the
#: expert of 5f2ff52 (with two players the sharp model scored more than the
#: soft one, with four in partnerships less); not a fit of the beliefs: as a
#: forecast of an expert's hidden hands the sharp model scores below uniform
#: (``passing-game bench --beliefs``). docs/STRENGTH.md, issue 16, has both.
#: Other formats keep the soft default.
TUNED: dict[tuple[int, bool], tuple[float, float]] = {(2, False): (0.05, 1.0)}


def tuned_model(view: View, trust: float, heavy: float) -> tuple[float, float]:
    """``TUNED``'s ``(trust, heavy)`` for the view's format, else the given ones."""
    return TUNED.get((view.rules.players, view.rules.partnerships), (trust, heavy))


def check_trust(trust: float) -> float:
    """Validate a ``trust`` option: a probability in (0, 1]."""
    if isinstance(trust, bool) or not isinstance(trust, (int, float)) or not 0.0 < trust <= 1.0:
        raise ValueError(f"trust must be a number in (0, 1], got {trust!r}")
    return float(trust)


def check_belief(belief: float) -> float:
    """Validate a ``belief`` option: a power on the deals' weights, in (0, 4]."""
    if isinstance(belief, bool) or not isinstance(belief, (int, float)) or not 0 < belief <= 4:
        raise ValueError(f"belief must be in (0, 4], got {belief!r}")
    return float(belief)


def _chance_all_drawn(held: int, fitting: int, drawn: int) -> float:
    """Chance that all ``fitting`` of ``held`` tiles are among ``drawn`` random ones."""
    if fitting > drawn:
        return 0.0
    return math.comb(held - fitting, drawn - fitting) / math.comb(held, drawn)


class Sampler:
    """Draws full ``State`` guesses for one view.

    ``trust`` and ``heavy`` set the opponent model (``trust=1`` and
    ``heavy=0`` give uniform deals); ``pool`` is how many uniform deals are
    weighted before drawing. ``model="fitted"`` replaces that model by the
    model of play fitted for the view's format (``playmodel.FITTED``; a
    format without a fit keeps ``trust`` and ``heavy``), and ``model`` given
    as coefficients of ``playmodel`` by that model of play. ``belief`` is a
    power on every deal's weight: below 1 the evidence counts for less (a
    hedge against a model of somebody else's play), above 1 for more.
    """

    def __init__(
        self,
        view: View,
        trust: float = 0.3,
        heavy: float = 0.15,
        pool: int = 400,
        model: str | tuple[float, ...] | None = None,
        belief: float = 1.0,
    ) -> None:
        self.belief = check_belief(belief)
        self.trust = check_trust(trust)
        self.heavy = float(heavy)
        self.reader: Reader | None = None
        if model == "fitted":
            policy = fitted_for(view.rules)
        elif model is None or isinstance(model, tuple):
            policy = model
        else:
            raise ValueError(f"model must be None, 'fitted' or coefficients, got {model!r}")
        if policy is not None:
            self.reader = Reader(check_coefficients(policy), decisions(view))
            # the fitted model reads every move; the hand-made one stays out
            trust, self.heavy = 1.0, 0.0
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
        if trust < 1.0:
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
        if self.reader is not None:
            return bool(self.reader.decisions)
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
        if self.reader is not None:
            return self.reader.weight(hands)
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
        if self.reader is not None:
            # in logs, scaled by the best deal's, so that no product underflows
            logs = [self.reader.log_weight(hands) for hands, _bone in deals]
            top = max(logs)
            weights = [math.exp(self.belief * (x - top)) for x in logs]
        else:
            weights = [self.weight(hands) ** self.belief for hands, _bone in deals]
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

    def marginals(self, rng: random.Random, prior: float = 1.0) -> dict[int, list[float]]:
        """Where each unseen tile is, as this sampler believes (issue 16's measure).

        The same shape as ``uniform_marginals``: per unseen tile, its chance
        of being in each seat's hand, then in the boneyard. Estimated from
        the weighted pool (filled from ``rng`` if it is not yet): each
        place's share of the pool's weight among the deals that put the
        tile there. ``prior`` pseudo-deals of the pool's mean weight, spread
        as ``uniform_marginals``, are added (add-one smoothing for the
        default 1), so a place no pooled deal used keeps a small chance
        instead of 0 and a log-likelihood stays finite. Without evidence the
        beliefs are uniform and the exact ``uniform_marginals`` come back.

        Each tile's entries sum to 1, and a place's entries summed over the
        tiles give that hand's (or the boneyard's) size, as in every deal.
        """
        exact = uniform_marginals(self.view)
        if not self.informed:
            return exact
        if not self._deals:
            self._fill(rng)
        players = len(self.view.hand_sizes)
        acc = [[0.0] * len(PIPS) for _ in range(players)]
        previous = 0.0
        for (hands, _bone), cum in zip(self._deals, self._cum, strict=True):
            w = cum - previous
            previous = cum
            for seat, _size in self.others:
                row = acc[seat]
                m = hands[seat]
                while m:
                    low = m & -m
                    row[low.bit_length() - 1] += w
                    m ^= low
        total = self._cum[-1]
        if not total > 0.0:
            return exact
        extra = max(0.0, prior) * total / len(self._deals)
        norm = total + extra
        out = {}
        for t, uniform in exact.items():
            probs = [(acc[seat][t] + extra * uniform[seat]) / norm for seat in range(players)]
            in_hands = sum(acc[seat][t] for seat in range(players))
            probs.append(max(0.0, total - in_hands + extra * uniform[BONEYARD]) / norm)
            out[t] = probs
        return out

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
