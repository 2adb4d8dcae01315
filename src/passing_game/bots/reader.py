"""Weighing guessed deals by the model of play (issue 16): ``Reader``.

``bots.playmodel`` defines the model (its features, its fitted
coefficients, the plain computation of a decision's probability); this
module holds the fast computation of the same numbers that the sampler
(``bots.sampling.Sampler``) runs on every guessed deal, kept apart so that
each module holds one thing. It imports ``playmodel``, never the reverse.
"""

from __future__ import annotations

import math

from passing_game.bots.playmodel import (
    DBL,
    DRAW,
    DRAW_FITS,
    DRAW_FITTING,
    DRAW_LEAD,
    DRAW_MARGIN,
    DRAW_SIZE,
    FOLLOW,
    FULL,
    HEAVIEST,
    OPEN,
    PASS,
    PASS_CLOSES,
    PASS_CLOSES_FITS,
    PASS_CLOSES_MARGIN,
    PASS_FITS,
    PASS_FITTING,
    PASS_KEY,
    PASS_LEAD,
    PASS_MARGIN,
    PASS_SIZE,
    PIP,
    VARIETY,
    Decision,
    check_coefficients,
    margin,
    open_mask,
    outcomes,
)
from passing_game.tiles import BIT, DOUBLE, HIGH, LOW, PIPS, SUIT_MASKS


class Reader:
    """Weighs deals by how likely the decisions ``decisions`` were under the
    model with ``coefficients``: the product of each decision's probability
    for the hand the deal gives the seat then, each raised to
    ``1 / (1 + draws since)`` (the hand then is known less well after draws).

    The same numbers as ``playmodel.decision_log_prob``, computed with what
    does not depend on the deal worked out once.
    """

    def __init__(self, coefficients: tuple[float, ...], found: list[Decision]) -> None:
        c = check_coefficients(coefficients)
        self.coefficients = c
        self.decisions = found
        self._follow_open = (c[FOLLOW] - c[OPEN]) / 7
        self._heaviest = c[HEAVIEST]
        self._variety = c[VARIETY] / 7
        # per decision: (seat, later | tile laid, open mask, lead?, can draw?,
        #   {tile: [(ends mask, static score, chosen?)]}, choice kind, temper,
        #   closes?, train, partner, rivals)
        self._prepared = [self._prepare(d) for d in found]

    def _prepare(
        self, d: Decision
    ) -> tuple[
        int,
        int,
        int,
        float,
        bool,
        dict[int, list[tuple[int, float, bool]]],
        int,
        float,
        float,
        int,
        int,
        int,
    ]:
        c = self.coefficients
        mask = open_mask(d.left, d.right)
        per_tile: dict[int, list[tuple[int, float, bool]]] = {}
        for t in range(28):
            if not mask >> t & 1 or d.train >> t & 1:
                continue
            rows = []
            for a, b in outcomes(t, d.left, d.right):
                ends = SUIT_MASKS[a] | SUIT_MASKS[b]
                unseen = (FULL & ~d.train & ends).bit_count()
                static = (
                    c[PIP] * PIPS[t] / 12
                    + c[DBL] * DOUBLE[t]
                    - c[FOLLOW] / 7
                    + c[OPEN] * unseen / 7
                )
                rows.append((ends, static, d.choice == (t, a, b)))
            per_tile[t] = rows
        fixed = d.later | (BIT[d.choice[0]] if d.choice[0] >= 0 else 0)
        kind = 0 if d.choice[0] >= 0 else (1 if d.choice == PASS_KEY else 2)
        lead = 1.0 if d.left < 0 else 0.0
        return (
            d.seat,
            fixed,
            mask,
            lead,
            d.can_draw,
            per_tile,
            kind,
            1.0 / (1 + d.draws_after),
            1.0 if d.closes else 0.0,
            d.train,
            d.partner,
            d.rivals,
        )

    def log_weight(self, hands: list[int]) -> float:
        """The tempered log-likelihood of the decisions, had the seats held ``hands``."""
        c = self.coefficients
        k_follow = self._follow_open
        k_heavy = self._heaviest
        k_var = self._variety
        total = 0.0
        exp = math.exp
        for (
            seat,
            fixed,
            mask,
            lead,
            can_draw,
            per_tile,
            kind,
            temper,
            close,
            train,
            partner,
            rivals,
        ) in self._prepared:
            hand = hands[seat] | fixed
            fit = hand & mask
            nfit = 0
            heaviest = -1
            m = fit
            while m:
                low = m & -m
                t = low.bit_length() - 1
                if PIPS[t] > heaviest:
                    heaviest = PIPS[t]
                nfit += 1
                m ^= low
            size = hand.bit_count() / 7
            fits = 1.0 if nfit else 0.0
            ahead = margin(hand, train, partner, rivals)
            count = nfit / 7
            s_pass = (
                c[PASS]
                + c[PASS_FITS] * fits
                + c[PASS_FITTING] * count
                + c[PASS_SIZE] * size
                + c[PASS_LEAD] * lead
                + c[PASS_CLOSES] * close
                + c[PASS_CLOSES_FITS] * close * fits
                + (c[PASS_MARGIN] + c[PASS_CLOSES_MARGIN] * close) * ahead
            )
            chosen = s_pass if kind == 1 else 0.0
            z = exp(s_pass)
            if can_draw:
                s_draw = (
                    c[DRAW]
                    + c[DRAW_FITS] * fits
                    + c[DRAW_FITTING] * count
                    + c[DRAW_SIZE] * size
                    + c[DRAW_LEAD] * lead
                    + c[DRAW_MARGIN] * ahead
                )
                z += exp(s_draw)
                if kind == 2:
                    chosen = s_draw
            if nfit:
                shown = 0
                single = 0
                for n in range(7):
                    held = (hand & SUIT_MASKS[n]).bit_count()
                    if held:
                        shown += 1
                        if held == 1:
                            single |= 1 << n
                m = fit
                while m:
                    low = m & -m
                    t = low.bit_length() - 1
                    m ^= low
                    lo, hi = LOW[t], HIGH[t]
                    variety = shown - (single >> lo & 1) - (lo != hi and single >> hi & 1)
                    base = k_var * variety + (k_heavy if PIPS[t] == heaviest else 0.0)
                    for ends, static, is_choice in per_tile[t]:
                        s = static + base + k_follow * (hand & ends).bit_count()
                        z += exp(s)
                        if is_choice:
                            chosen = s
            total += temper * (chosen - math.log(z))
        return total

    def weight(self, hands: list[int]) -> float:
        """``exp(log_weight(hands))``: a deal's weight, up to a common factor."""
        return math.exp(self.log_weight(hands))
