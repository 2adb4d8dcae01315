"""Whole rounds consistent with one seat's ``View``: the hidden tiles guessed.

A search that sees only a view (OpenSpiel's ISMCTS, through
``State.resample_from_infostate`` and the arena adapter) needs full
positions that the seat cannot tell from the real one. ``sample_round``
makes one: it deals the unseen tiles at random among the other hands (their
sizes are public) and the boneyard, picks which tiles the others drew (each
draw took a tile that its drawer still holds or laid later), rebuilds the
deal those guesses imply and replays the public history on it. A guess under
which the history could not have happened (a move illegal, or the round
blocked earlier than it did) is thrown away and drawn again, so every round
returned gives the seat exactly the view it had:

>>> import random
>>> from passing_game import Round, Rules
>>> real = Round.new(Rules(players=3), seed=5)
>>> for _ in range(12):
...     real.play(real.legal_moves()[0])
>>> guess = sample_round(real.view(1), random.Random(0))
>>> guess.view(1) == real.view(1)
True
"""

from __future__ import annotations

import random

from passing_game.errors import IllegalMove
from passing_game.moves import Draw, Play
from passing_game.round import Round
from passing_game.tiles import Tile
from passing_game.views import View


class NoConsistentWorld(RuntimeError):
    """No consistent deal was found within the allowed number of tries."""


def _guess(
    view: View, rng: random.Random, known: tuple[tuple[Tile, ...], ...] | None = None
) -> tuple[list[list[Tile]], list[Tile]]:
    """One guess at the deal (hands, boneyard order) behind ``view``.

    Satisfies every constraint but the one about blocked rounds, which the
    replay in ``sample_round`` checks. ``known`` gives every hand as it is now
    (after the round, when they are revealed).
    """
    rules = view.rules
    n = rules.players
    me = view.seat
    train = {p.tile for p in view.train}
    unseen = [t for t in view.rules.tiles if t not in train and t not in view.hand]
    rng.shuffle(unseen)
    current: list[list[Tile]] = [[] for _ in range(n)]
    current[me] = list(view.hand)
    if known is not None:
        current = [list(h) for h in known]
        held = {t for h in known for t in h}
        rest = [t for t in unseen if t not in held]
    else:
        pos = 0
        for seat in range(n):
            if seat != me:
                size = view.hand_sizes[seat]
                current[seat] = unseen[pos : pos + size]
                pos += size
        rest = unseen[pos:]

    # Per seat: the tiles it laid (with their place in the history), its draws.
    laid: list[list[tuple[int, Tile]]] = [[] for _ in range(n)]
    draws: list[list[int]] = [[] for _ in range(n)]
    for place, turn in enumerate(view.history):
        if isinstance(turn.move, Play):
            laid[turn.seat].append((place, turn.move.tile))
        elif isinstance(turn.move, Draw):
            draws[turn.seat].append(place)

    drawn_at: dict[int, Tile] = {}
    for place, turn in enumerate(view.history):
        if turn.drawn is not None:
            drawn_at[place] = turn.drawn
    for seat in range(n):
        if seat == me:
            continue
        taken: set[Tile] = set()
        # Latest draw first: its candidates are a subset of every earlier one's.
        for place in reversed(draws[seat]):
            candidates = [t for t in current[seat] if t not in taken]
            candidates += [t for p, t in laid[seat] if p > place and t not in taken]
            if not candidates:
                raise IllegalMove("no tile fits this draw")
            tile = candidates[rng.randrange(len(candidates))]
            taken.add(tile)
            drawn_at[place] = tile

    hands: list[list[Tile]] = []
    for seat in range(n):
        drawn = {drawn_at[p] for p in draws[seat]}
        start = set(current[seat]) | {t for _, t in laid[seat]}
        hands.append(sorted(start - drawn))
    order = [drawn_at[p] for p in sorted(drawn_at)]
    rng.shuffle(rest)
    return hands, order + rest


def sample_round(view: View, rng: random.Random, tries: int = 2000) -> Round:
    """A round whose ``view(view.seat)`` equals ``view``, hidden tiles guessed.

    The round's deal holds the guessed starting hands and a boneyard whose
    first tiles are the ones drawn so far, in order. Once the round is over
    every hand and the two locked tiles are public (``view.result``) and only
    the order of the draws and of the other undrawn tiles is guessed.
    Raises ``NoConsistentWorld`` after ``tries`` failed guesses.
    """
    if view.result is not None:
        return _replay_finished(view, rng)
    for _ in range(tries):
        try:
            hands, boneyard = _guess(view, rng)
        except IllegalMove:
            continue
        rnd = _replay(view, hands, boneyard)
        if rnd is not None:
            return rnd
    raise NoConsistentWorld(f"no deal consistent with seat {view.seat}'s view in {tries} tries")


def _replay(view: View, hands: list[list[Tile]], boneyard: list[Tile]) -> Round | None:
    rules = view.rules
    if any(len(h) != rules.hand_size for h in hands):
        return None
    rnd = Round.from_deal(rules, hands, boneyard, view.leader)
    try:
        for turn in view.history:
            rnd.play(turn.move)
    except IllegalMove:
        return None
    if rnd.to_move != view.to_move:
        return None
    return rnd


def _replay_finished(view: View, rng: random.Random) -> Round:
    """A finished round: hands and locked tiles are known, the rest of the order guessed."""
    assert view.result is not None
    for _ in range(200):
        try:
            hands, boneyard = _guess(view, rng, view.result.hands)
        except IllegalMove:
            continue
        # The two locked tiles are revealed too (D8): they close the boneyard.
        locked = view.result.locked
        boneyard = [t for t in boneyard if t not in locked] + list(locked)
        rnd = _replay(view, hands, boneyard)
        if rnd is not None and rnd.hands == view.result.hands:
            return rnd
    raise NoConsistentWorld("no deal matches the revealed hands")
