"""A model of how a seat plays, to read its moves with (issue 16).

Policy-based inference (after Rebstock, Solinas, Buro & Sturtevant,
"Policy Based Inference in Trick-Taking Card Games", IEEE CoG 2019): a guess
of the hidden hands is as likely as the others' actual moves would have been,
had they held the tiles it gives them. This module is the "how likely": a
conditional logit (softmax) over the seat's options at one decision, each
option scored by a linear function of ``FEATURES``. The features need only
the seat's hand at the time and public facts (the open ends, the train, the
boneyard), which is what a guessed deal supplies.

The options are the distinct outcomes of ``legality.legal_codes`` under the
default rules: each play by the ends it leaves (a tile that fits only one
number once; on an empty train each tile once), the draw while the boneyard
allows it (R4.3), and the pass, always open (R4.4). A pass or a draw with a
fitting tile in hand is a choice the model prices (R4.4, R4.5), not a fact.

The coefficients are fitted by maximum likelihood to the decisions of
seeded self-play (``bots.fitting``, which needs numpy) and ship as the
constants ``FITTED``, so reading moves needs no numpy. ``bots.reader``
weighs guessed deals by the model, fast (``reader.Reader``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from passing_game.bots.knowledge import afterwards
from passing_game.moves import Draw, Move, Play
from passing_game.rules import LOCKED_TILES, Rules
from passing_game.tiles import BIT, DOUBLE, HIGH, LOW, OTHER, PIPS, SUIT_MASKS, mask_pips
from passing_game.views import View

#: Every tile, as a mask.
FULL = (1 << 28) - 1

#: What an option is scored by, in the order of the coefficients. A play: its
#: pips / 12; whether it is a double; whether no fitting tile in hand has
#: more pips; how many of the seat's other tiles fit the new ends / 7; how
#: many tiles the seat cannot see (others' hands, boneyard) fit them / 7; how
#: many numbers the seat's other tiles still show / 7. A pass, a draw: an
#: intercept each (against the plays), and each crossed with whether a tile
#: in hand fits, how many fit / 7, the hand's size / 7 and the empty train
#: (the lead). Then the pass that ends the round (every other seat passed
#: since the last play or draw, D3), alone and with a fitting tile in hand;
#: and the margin: the seat's side's count less its rivals', as the seat can
#: estimate it (its own pips, the others' tiles at the mean pips of the tiles
#: it cannot see) / ``MARGIN_SCALE``, with the pass, the closing pass and
#: the draw: a seat ahead on the count gains by ending the round.
FEATURES: tuple[str, ...] = (
    "pips",
    "double",
    "heaviest",
    "follow",
    "open",
    "variety",
    "pass",
    "pass_fits",
    "pass_fitting",
    "pass_size",
    "pass_lead",
    "draw",
    "draw_fits",
    "draw_fitting",
    "draw_size",
    "draw_lead",
    "pass_closes",
    "pass_closes_fits",
    "pass_margin",
    "pass_closes_margin",
    "draw_margin",
)
(
    PIP,
    DBL,
    HEAVIEST,
    FOLLOW,
    OPEN,
    VARIETY,
    PASS,
    PASS_FITS,
    PASS_FITTING,
    PASS_SIZE,
    PASS_LEAD,
    DRAW,
    DRAW_FITS,
    DRAW_FITTING,
    DRAW_SIZE,
    DRAW_LEAD,
    PASS_CLOSES,
    PASS_CLOSES_FITS,
    PASS_MARGIN,
    PASS_CLOSES_MARGIN,
    DRAW_MARGIN,
) = range(len(FEATURES))

#: The margin's scale in pips.
MARGIN_SCALE = 20

#: The option keys of a pass and a draw; a play's key is ``(tile, a, b)``,
#: ``a <= b`` the ends it leaves.
PASS_KEY = (-1, -1, -1)
DRAW_KEY = (-2, -2, -2)

#: The fitted coefficients by format ``(players, partnerships)``, one per
#: feature. Formats without a fit read moves with the hand-made model.
#: 2 players: the ``expert`` level of commit bb0b281 (the tuned model,
#: ``opponent_policy=1``) on every seat, 2,000 rounds (the last fifth held
#: out), ``python -m passing_game.bots.fitting --seed 1000 --rounds 2000
#: --players 2`` run at that commit. 4 players in partnerships: the same
#: with ``--bot expert-5f2ff52 --rounds 800 --players 4 --partnerships``
#: (the level played as that frozen bot there then). docs/STRENGTH.md has
#: what they score.
FITTED: dict[tuple[int, bool], tuple[float, ...]] = {
    (2, False): (
        3.1875,
        1.0863,
        -0.2378,
        1.5057,
        -4.3464,
        1.0968,
        -1.7361,
        -4.5304,
        1.2072,
        2.0866,
        -6.4471,
        -6.4776,
        -3.6833,
        -6.1860,
        3.8207,
        -0.1516,
        -1.5023,
        2.2397,
        -1.6261,
        -1.2202,
        -0.0670,
    ),
    (4, True): (
        5.0894,
        1.1894,
        0.0672,
        2.5102,
        -3.4438,
        3.3134,
        0.5820,
        -1.4024,
        1.1892,
        -1.8449,
        -4.0652,
        -6.9556,
        -4.9713,
        -0.8501,
        1.8641,
        -0.0069,
        -1.9201,
        2.8582,
        -1.5455,
        -0.3000,
        0.8874,
    ),
}


#: The model of play fitted again, to the self-play of the ``expert`` level
#: of P67 (whose playouts follow ``FITTED``): the playouts of
#: ``playout_model="refitted"`` follow it. Tried as the level's playouts and
#: not adopted: the gain was inside the noise (DECISIONS P68). 2 players
#: only, ``python -m passing_game.bots.fitting --seed 1000 --rounds 2000
#: --players 2 --bot expert`` at commit fe7f04a; docs/STRENGTH.md has what
#: it scores.
REFITTED: dict[tuple[int, bool], tuple[float, ...]] = {
    (2, False): (
        4.3810,
        0.7746,
        -0.0714,
        1.5721,
        -5.0671,
        1.1080,
        -1.4994,
        -5.2934,
        2.2837,
        0.8709,
        -6.3353,
        -8.9136,
        -5.1196,
        3.4104,
        7.0743,
        -5.9473,
        -0.1376,
        1.1435,
        -2.1190,
        -2.5147,
        -1.0097,
    ),
}


def fitted_for(
    rules: Rules, fits: dict[tuple[int, bool], tuple[float, ...]] = FITTED
) -> tuple[float, ...] | None:
    """``FITTED``'s coefficients (or another table's, ``REFITTED``) for a format,
    or None (no fit: other players or partnerships, or a passing or drawing
    variant the fit did not play)."""
    if rules.passing != "free" or rules.draw != "ends-turn":
        return None
    return fits.get((rules.players, rules.partnerships))


def check_coefficients(coefficients: object) -> tuple[float, ...]:
    """Validate coefficients: one finite number per feature."""
    if (
        not isinstance(coefficients, (tuple, list))
        or len(coefficients) != len(FEATURES)
        or not all(
            isinstance(c, (int, float)) and not isinstance(c, bool) and math.isfinite(c)
            for c in coefficients
        )
    ):
        raise ValueError(f"coefficients must be {len(FEATURES)} finite numbers ({FEATURES})")
    return tuple(float(c) for c in coefficients)


def outcomes(tile: int, left: int, right: int) -> list[tuple[int, int]]:
    """The distinct ends (sorted pairs) laying ``tile`` can leave on ends
    ``left`` and ``right`` (``left < 0``: the empty train; [] if it fits none).

    >>> from passing_game.tiles import Tile
    >>> outcomes(Tile(2, 5).index, -1, -1), outcomes(Tile(2, 5).index, 2, 4)
    ([(2, 5)], [(4, 5)])
    """
    if left < 0:
        return [(LOW[tile], HIGH[tile])]
    out = []
    o = OTHER[tile * 7 + left]
    if o >= 0:
        out.append((min(o, right), max(o, right)))
    if right != left:
        o = OTHER[tile * 7 + right]
        if o >= 0:
            pair = (min(left, o), max(left, o))
            if pair not in out:
                out.append(pair)
    return out


def ends_after(tile: int, end: str, left: int, right: int) -> tuple[int, int]:
    """The ends once ``tile`` is laid at ``end`` on ends ``left``, ``right``
    (``-1``: the empty train)."""
    if left < 0:
        return LOW[tile], HIGH[tile]
    if end == "left":
        return OTHER[tile * 7 + left], right
    return left, OTHER[tile * 7 + right]


def option_key(move: Move, left: int, right: int) -> tuple[int, int, int]:
    """The option ``move`` is on ends ``left``, ``right``: a play by its tile
    and the ends it leaves (sorted), else ``PASS_KEY`` or ``DRAW_KEY``."""
    if isinstance(move, Play):
        a, b = ends_after(move.tile.index, move.end, left, right)
        return move.tile.index, min(a, b), max(a, b)
    return DRAW_KEY if isinstance(move, Draw) else PASS_KEY


def open_mask(left: int, right: int) -> int:
    """The tiles that fit ends ``left`` and ``right`` (every tile on the empty train)."""
    return FULL if left < 0 else SUIT_MASKS[left] | SUIT_MASKS[right]


def _shown(hand: int) -> int:
    return sum(1 for n in range(7) if hand & SUIT_MASKS[n])


def margin(hand: int, train: int, partner: int, rivals: int) -> float:
    """The count of the seat's side less its rivals' as the seat estimates it,
    / ``MARGIN_SCALE``: its pips, and ``partner`` and ``rivals`` tiles at the
    mean pips of the tiles it cannot see (others' hands, boneyard)."""
    unseen = FULL & ~train & ~hand
    count = unseen.bit_count()
    mean = mask_pips(unseen) / count if count else 0.0
    return (mask_pips(hand) + (partner - rivals) * mean) / MARGIN_SCALE


def option_features(
    hand: int,
    left: int,
    right: int,
    train: int,
    can_draw: bool,
    closes: bool = False,
    partner: int = 0,
    rivals: int = 0,
) -> list[tuple[tuple[int, int, int], list[float]]]:
    """Every option of a seat holding ``hand`` on ends ``left``, ``right``
    (``-1``: the empty train) with ``train`` laid: ``(key, features)``.
    ``closes``: a pass ends the round (D3); ``partner`` and ``rivals``: the
    tiles in the partner's hand and in the rivals' hands.

    The plain definition of the features (``bots.fitting`` fits on it);
    ``reader.Reader`` computes the same scores faster.
    """
    fitting = hand & open_mask(left, right)
    tiles = [t for t in range(28) if fitting >> t & 1]
    heaviest = max((PIPS[t] for t in tiles), default=-1)
    lead = 1.0 if left < 0 else 0.0
    out: list[tuple[tuple[int, int, int], list[float]]] = []
    for t in tiles:
        rest = hand & ~BIT[t]
        for a, b in outcomes(t, left, right):
            ends = SUIT_MASKS[a] | SUIT_MASKS[b]
            f = [0.0] * len(FEATURES)
            f[PIP] = PIPS[t] / 12
            f[DBL] = 1.0 if DOUBLE[t] else 0.0
            f[HEAVIEST] = 1.0 if PIPS[t] == heaviest else 0.0
            f[FOLLOW] = (rest & ends).bit_count() / 7
            f[OPEN] = (FULL & ~train & ~hand & ends).bit_count() / 7
            f[VARIETY] = _shown(rest) / 7
            out.append(((t, a, b), f))
    fits = 1.0 if tiles else 0.0
    count = len(tiles) / 7
    size = hand.bit_count() / 7
    f = [0.0] * len(FEATURES)
    f[PASS], f[PASS_FITS], f[PASS_FITTING], f[PASS_SIZE] = 1.0, fits, count, size
    f[PASS_LEAD] = lead
    ahead = margin(hand, train, partner, rivals)
    close = 1.0 if closes else 0.0
    f[PASS_CLOSES], f[PASS_CLOSES_FITS] = close, close * fits
    f[PASS_MARGIN], f[PASS_CLOSES_MARGIN] = ahead, close * ahead
    out.append((PASS_KEY, f))
    if can_draw:
        f = [0.0] * len(FEATURES)
        f[DRAW], f[DRAW_FITS], f[DRAW_FITTING], f[DRAW_SIZE] = 1.0, fits, count, size
        f[DRAW_LEAD], f[DRAW_MARGIN] = lead, ahead
        out.append((DRAW_KEY, f))
    return out


def log_prob(
    coefficients: tuple[float, ...],
    hand: int,
    left: int,
    right: int,
    train: int,
    can_draw: bool,
    choice: tuple[int, int, int],
    closes: bool = False,
    partner: int = 0,
    rivals: int = 0,
) -> float:
    """The log-probability of ``choice`` under the model (the plain computation)."""
    scores = {
        key: sum(c * x for c, x in zip(coefficients, f, strict=True))
        for key, f in option_features(hand, left, right, train, can_draw, closes, partner, rivals)
    }
    top = max(scores.values())
    total = sum(math.exp(s - top) for s in scores.values())
    return scores[choice] - top - math.log(total)


@dataclass(frozen=True, slots=True)
class Decision:
    """Seat ``seat`` chose ``choice`` (an option key) on ends ``left``, ``right``
    (``-1``: the empty train) with ``train`` laid and a draw allowed or not;
    a pass would have ended the round or not (``closes``); its partner and
    its rivals then held ``partner`` and ``rivals`` tiles.

    ``later`` holds the tiles it laid afterwards, ``draws_after`` how many it
    drew from then on, this turn's draw included (as ``knowledge.Evidence``):
    its hand then was its hand now plus ``later`` (plus the tile laid), less
    that many of its tiles, which cannot be told apart.
    """

    seat: int
    left: int
    right: int
    train: int
    can_draw: bool
    choice: tuple[int, int, int]
    later: int
    draws_after: int
    closes: bool = False
    partner: int = 0
    rivals: int = 0


def decisions(view: View, seats: set[int] | None = None) -> list[Decision]:
    """The decisions of the other seats (or of ``seats``) in ``view``'s history."""
    wanted = {s for s in range(view.rules.players) if s != view.seat} if seats is None else seats
    bone = view.boneyard_size + sum(isinstance(turn.move, Draw) for turn in view.history)
    players = view.rules.players
    sizes = [view.rules.hand_size] * players
    passes = 0
    left = right = -1
    train = 0
    # per turn: (seat, tile laid or -1, drew?)
    turns: list[tuple[int, int, bool]] = []
    raw: list[tuple[int, int, int, int, bool, tuple[int, int, int], int, bool, int, int]] = []
    for position, turn in enumerate(view.history):
        move = turn.move
        can_draw = bone > LOCKED_TILES
        closes = passes >= players - 1
        partner, rivals = sides(view.rules, turn.seat, sizes)
        choice = option_key(move, left, right)
        laid = move.tile.index if isinstance(move, Play) else -1
        turns.append((turn.seat, laid, isinstance(move, Draw)))
        if turn.seat in wanted:
            raw.append(
                (position, turn.seat, left, right, can_draw, choice, train, closes, partner, rivals)
            )
        if isinstance(move, Play):
            train |= BIT[move.tile.index]
            left, right = ends_after(move.tile.index, move.end, left, right)
            sizes[turn.seat] -= 1
            passes = 0
        elif isinstance(move, Draw):
            bone -= 1
            sizes[turn.seat] += 1
            passes = 0
        else:
            passes += 1
    out = []
    for (
        position,
        seat,
        left_then,
        right_then,
        can_draw,
        choice,
        train_then,
        closes,
        partner,
        rivals,
    ) in raw:
        later, draws_after = afterwards(turns, position, seat, choice[0])
        out.append(
            Decision(
                seat,
                left_then,
                right_then,
                train_then,
                can_draw,
                choice,
                later,
                draws_after,
                closes,
                partner,
                rivals,
            )
        )
    return out


def sides(rules: Rules, seat: int, sizes: list[int]) -> tuple[int, int]:
    """The tiles in ``seat``'s partner's hand (0 without partnerships) and in its rivals'."""
    side = rules.side_of(seat)
    partner = sum(n for s, n in enumerate(sizes) if s != seat and rules.side_of(s) == side)
    rivals = sum(n for s, n in enumerate(sizes) if rules.side_of(s) != side)
    return partner, rivals


def hand_then(hands: list[int], d: Decision) -> int:
    """The hand a deal gives ``d``'s seat at the time, blurred by its later draws."""
    hand = hands[d.seat] | d.later
    if d.choice[0] >= 0:
        hand |= BIT[d.choice[0]]
    return hand


def decision_log_prob(coefficients: tuple[float, ...], hands: list[int], d: Decision) -> float:
    """``d``'s log-probability for the hand ``hands`` gives its seat then,
    tempered by the seat's draws since (the plain computation of ``reader.Reader``)."""
    hand = hand_then(hands, d)
    p = log_prob(
        coefficients,
        hand,
        d.left,
        d.right,
        d.train,
        d.can_draw,
        d.choice,
        d.closes,
        d.partner,
        d.rivals,
    )
    return p / (1 + d.draws_after)
