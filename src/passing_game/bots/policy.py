"""The playout policy: how the search bots finish a round quickly.

The policy lays its heaviest playable tile (doubles first on equal pips);
when it cannot play it passes if its side's count is the lowest, else draws;
it passes to end the round when everybody else has passed and its side is
lowest (D3). ``playout`` plays a ``State`` to the end with it, optionally
with random plays mixed in; ``policy_move`` is the same policy one move at a
time. The compiled kernel runs the same policy (tests/test_kernel.py).

The learned policy (``weights``, trained by ``bots.training``) chooses its
play by a linear score of a few features of each play (``FEATURES``)
instead of by weight alone; it passes and draws by the same rule.
"""

from __future__ import annotations

import math
import random

from passing_game.bots.playmodel import DRAW_KEY, FULL, PASS_KEY, ends_after, option_features
from passing_game.bots.utility import utility
from passing_game.moves import DRAW_CODE, PASS_CODE
from passing_game.outcome import ALL_PASS, BLOCK, DOMINO, GOING
from passing_game.rules import LOCKED_TILES
from passing_game.state import State, blocked
from passing_game.tiles import BIT, DOUBLE, HIGH, LOW, OTHER, PIPS, SUIT_MASKS, bits

#: What the learned policy scores a play by, in the order of its weights: the
#: tile's pips / 12; whether it is a double; how many of the mover's other
#: tiles fit the new ends / 7; whether the next seat holds nothing for the new
#: ends (in a guessed world it sees that seat's hand); how many numbers the
#: mover's other tiles still show / 7. ``play_score`` in _kernel.c is the same.
FEATURES: tuple[str, ...] = ("pips", "double", "follow", "block", "variety")

#: The learned policy's weights, trained by self-play:
#: ``python -m passing_game.bots.training --seed 1 --generations 40
#: --population 32 --deals 10000`` (docs/STRENGTH.md has its curve).
LEARNED_WEIGHTS: tuple[float, ...] = (0.4217, 0.233, 0.3807, 0.7727, 0.7233)

#: Whether the playout policy passes to end the round (D3) when every other
#: seat has passed and its side is lowest, even though it could play.
PASS_TO_END = True

# Lazily filled caches for the playout policy: for a mask of playable tiles,
# the heaviest tile (doubles first on equal pips) and the tile list.
_HEAVIEST: dict[int, int] = {}
_BITS: dict[int, tuple[int, ...]] = {}


def _heaviest(mask: int) -> int:
    best = -1
    key = -1
    for t in bits(mask):
        k = PIPS[t] * 2 + DOUBLE[t]
        if k > key:
            key = k
            best = t
    _HEAVIEST[mask] = best
    return best


def _bits_tuple(mask: int) -> tuple[int, ...]:
    out = tuple(bits(mask))
    _BITS[mask] = out
    return out


def check_weights(weights: object) -> tuple[float, ...] | None:
    """Validate a learned policy's weights: None or ``"heaviest"`` (the heaviest
    tile), ``"learned"`` (``LEARNED_WEIGHTS``), or one number a feature."""
    if weights is None or weights == "heaviest":
        return None
    if weights == "learned":
        return LEARNED_WEIGHTS
    if not isinstance(weights, (tuple, list)) or len(weights) != len(FEATURES):
        raise ValueError(f"weights must be None or {len(FEATURES)} numbers ({', '.join(FEATURES)})")
    if not all(isinstance(w, (int, float)) and not isinstance(w, bool) for w in weights):
        raise ValueError(f"weights must be numbers, got {weights!r}")
    if not all(math.isfinite(w) for w in weights):
        raise ValueError(f"weights must be finite, got {weights!r}")
    return tuple(float(w) for w in weights)


def learned_play(state: State, ml: int, mr: int, weights: tuple[float, ...]) -> int:
    """The learned policy's play among the tiles fitting the left (``ml``) and
    right (``mr``) ends: the best score, ties to the lower tile, then the left end."""
    p = state.to_move
    hand = state.hands[p]
    following = state.hands[(p + 1) % state.players]
    left, right = state.left, state.right
    w0, w1, w2, w3, w4 = weights
    best = -1
    key = -math.inf
    for t in bits(ml | mr):
        for end in (0, 1):
            if not ((mr if end else ml) >> t & 1):
                continue
            if left < 0:
                nl, nr = LOW[t], HIGH[t]
            elif end == 0:
                nl, nr = OTHER[t * 7 + left], right
            else:
                nl, nr = left, OTHER[t * 7 + right]
            rest = hand & ~BIT[t]
            ends = SUIT_MASKS[nl] | SUIT_MASKS[nr]
            variety = sum(1 for a in range(7) if rest & SUIT_MASKS[a])
            k = (
                w0 * PIPS[t] / 12.0
                + w1 * DOUBLE[t]
                + w2 * (rest & ends).bit_count() / 7.0
                + w3 * ((following & ends) == 0)
                + w4 * variety / 7.0
            )
            if k > key:
                key = k
                best = t * 2 + end
    return best


def policy_move(
    state: State,
    rng: random.Random | None = None,
    eps: float = 0.0,
    weights: tuple[float, ...] | None = None,
) -> int:
    """The playout policy's move (see ``playout``), without making it; with
    ``weights`` the learned policy's."""
    s = state.to_move
    h = state.hands[s]
    left = state.left
    if left < 0:
        ml = h
        mr = 0
    else:
        ml = h & SUIT_MASKS[left]
        mr = h & SUIT_MASKS[state.right] if state.right != left else 0
    m = ml | mr
    if (
        m
        and PASS_TO_END
        and state.passes == state.players - 1
        and not state.forced
        and _lowest(state, s)
    ):
        return PASS_CODE
    if m:
        if rng is not None and eps > 0.0 and rng.random() < eps:
            tiles = _BITS.get(m) or _bits_tuple(m)
            t = tiles[int(rng.random() * len(tiles))]
        elif weights is not None:
            return learned_play(state, ml, mr, weights)
        else:
            t = _HEAVIEST.get(m, -1)
            if t < 0:
                t = _heaviest(m)
        if ml >> t & 1:
            return t << 1
        return (t << 1) | 1
    if len(state.bone) - state.bpos > LOCKED_TILES and (state.forced or not _lowest(state, s)):
        return DRAW_CODE
    return PASS_CODE


def model_scores(state: State, coefficients: tuple[float, ...]) -> list[tuple[int, float]]:
    """Each legal move of the seat to move, scored by the model of play
    (``bots.playmodel``, its ``coefficients``) for the hand it holds in this
    state: what it cannot see is the other hands and the boneyard (the tiles
    of neither count as laid). The kernel's ``model_scores`` is the same."""
    p = state.to_move
    hand = state.hands[p]
    unseen = 0
    partner = rivals = 0
    for seat in range(state.players):
        if seat == p:
            continue
        unseen |= state.hands[seat]
        if state.side_of(seat) == state.side_of(p):
            partner += state.sizes[seat]
        else:
            rivals += state.sizes[seat]
    for t in state.bone[state.bpos :]:
        unseen |= BIT[t]
    train = FULL & ~unseen & ~hand
    can_draw = len(state.bone) - state.bpos > LOCKED_TILES
    closes = state.passes >= state.players - 1
    scored = {
        key: sum(c * x for c, x in zip(coefficients, f, strict=True))
        for key, f in option_features(
            hand, state.left, state.right, train, can_draw, closes, partner, rivals
        )
    }
    out = []
    for code in state.legal():
        if code == PASS_CODE:
            key = PASS_KEY
        elif code == DRAW_CODE:
            key = DRAW_KEY
        else:
            t = code >> 1
            a, b = ends_after(t, "right" if code & 1 else "left", state.left, state.right)
            key = (t, min(a, b), max(a, b))
        out.append((code, scored[key]))
    return out


def model_move(state: State, rng: random.Random, coefficients: tuple[float, ...]) -> int:
    """A move drawn from the model of play's softmax over ``model_scores``."""
    scored = model_scores(state, coefficients)
    top = max(score for _code, score in scored)
    weights = [math.exp(score - top) for _code, score in scored]
    u = rng.random() * sum(weights)
    for (code, _score), weight in zip(scored[:-1], weights, strict=False):
        if u < weight:
            return code
        u -= weight
    return scored[-1][0]


def _lowest(state: State, seat: int) -> bool:
    """Whether ``seat``'s side has strictly the lowest count now."""
    return _side_lowest(state.pips, seat, state.players, state.partnerships)


def _side_lowest(pips: list[int], seat: int, players: int, partnerships: bool) -> bool:
    """Whether ``seat``'s side has strictly the lowest count in ``pips`` (R7.2, D6)."""
    if partnerships:
        return pips[seat] + pips[(seat + 2) % 4] < pips[(seat + 1) % 4] + pips[(seat + 3) % 4]
    mine = pips[seat]
    return all(not (i != seat and pips[i] <= mine) for i in range(players))


def playout(
    state: State,
    rng: random.Random | None = None,
    eps: float = 0.0,
    weights: tuple[float, ...] | None = None,
) -> None:
    """Play ``state`` to the end with the default policy (no undo records).

    The policy lays its heaviest playable tile (doubles first on equal pips;
    with probability ``eps`` a random playable tile instead), except that
    when every other seat has passed since the last play or draw and its
    side's count is strictly the lowest it passes, ending the round (D3).
    When it cannot play it passes if its side's count is strictly the
    lowest, else draws if it may, else passes. Under forced passing it never
    passes while it can play or draw. The state is changed in place; copy it
    first to keep it. With ``weights`` the learned policy plays, one move at
    a time (slower: the compiled kernel is the fast path).
    """
    if weights is not None:
        while state.reason == GOING:
            state.apply(policy_move(state, rng, eps, weights))
        return
    hands = state.hands
    pips = state.pips
    sizes = state.sizes
    bone = state.bone
    bpos = state.bpos
    nb = len(bone)
    players = state.players
    partnerships = state.partnerships
    draw_continue = state.draw_continue
    forced = state.forced
    left = state.left
    right = state.right
    s = state.to_move
    passes = state.passes
    reason = state.reason
    rand = rng.random if rng is not None and eps > 0.0 else None
    heaviest = _HEAVIEST
    end_pass = PASS_TO_END and not forced
    while reason == GOING:
        h = hands[s]
        if left < 0:
            ml = h
            mr = 0
        else:
            ml = h & SUIT_MASKS[left]
            mr = h & SUIT_MASKS[right] if right != left else 0
        m = ml | mr
        # everybody else passed: end the round if this side is lowest (D3)
        if (
            m
            and passes == players - 1
            and end_pass
            and _side_lowest(pips, s, players, partnerships)
        ):
            passes += 1
            reason = ALL_PASS
            break
        if m:
            if rand is not None and rand() < eps:
                tiles = _BITS.get(m) or _bits_tuple(m)
                t = tiles[int(rand() * len(tiles))]
            else:
                t = heaviest.get(m, -1)
                if t < 0:
                    t = _heaviest(m)
            hands[s] = h ^ BIT[t]
            pips[s] -= PIPS[t]
            sizes[s] -= 1
            if left < 0:
                left = LOW[t]
                right = HIGH[t]
            elif ml >> t & 1:
                left = OTHER[t * 7 + left]
            else:
                right = OTHER[t * 7 + right]
            passes = 0
            if sizes[s] == 0:
                reason = DOMINO
                break
            s = (s + 1) % players
            if nb - bpos <= LOCKED_TILES and blocked(hands, left, right):
                reason = BLOCK
            continue
        # cannot play: pass when lowest, else draw when allowed
        lowest = _side_lowest(pips, s, players, partnerships)
        can_draw = nb - bpos > LOCKED_TILES
        if can_draw and (forced or not lowest):
            t = bone[bpos]
            bpos += 1
            hands[s] = h | BIT[t]
            pips[s] += PIPS[t]
            sizes[s] += 1
            passes = 0
            if not draw_continue:
                s = (s + 1) % players
            if nb - bpos <= LOCKED_TILES and left >= 0 and blocked(hands, left, right):
                reason = BLOCK
            continue
        passes += 1
        if passes >= players:
            reason = ALL_PASS
            break
        s = (s + 1) % players
    state.bpos = bpos
    state.left = left
    state.right = right
    state.to_move = s
    state.passes = passes
    state.reason = reason


def playout_value(
    state: State,
    side: int,
    rng: random.Random | None = None,
    eps: float = 0.0,
    relative: bool = True,
) -> float:
    """``utility`` for ``side`` after a playout from a copy of ``state``."""
    if state.reason != GOING:
        return utility(state, side, relative)
    sim = state.copy()
    playout(sim, rng, eps)
    return utility(sim, side, relative)
