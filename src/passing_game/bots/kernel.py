"""The compiled search kernel, and how to hand it a position.

``passing_game._kernel`` is a small C extension built when the package is
installed (docs/PERFORMANCE.md says why C); it plays the rules of
``_rules.h``, which the C ``FastRound`` shares. It is optional: ``AVAILABLE`` is
false where no compiler was found, and callers fall back to pure Python.
Positions cross over as plain integers: each hand a 28-bit mask of tile
indices, the boneyard a list of tile indices (next draw first).
"""

from __future__ import annotations

from typing import Any

from passing_game.moves import DRAW_CODE, PASS_CODE  # noqa: F401 - the kernel's move codes
from passing_game.outcome import REASONS
from passing_game.round import Round
from passing_game.rules import Rules

try:
    from passing_game import _kernel  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - exercised only without a compiler
    _kernel = None

AVAILABLE: bool = _kernel is not None


#: The flag bits of _rules.h (the C FastRound sets the same bits from a
#: ``Rules``): the rules variants, and the playout policy's pass that ends a
#: round it leads (D3).
F_DRAW_CONTINUE = 1
F_FORCED = 2
F_PARTNERSHIPS = 4
F_PAIRWISE = 8
F_PASS_TO_END = 16


def flags(rules: Rules, pass_to_end: bool = False) -> int:
    """The rules variants as the kernel's bit flags (D1, D2, D4, D6).

    ``pass_to_end`` switches on the playout policy's D3 pass, as
    ``bots.policy.policy_move`` makes it; the search bots always use it.
    """
    return (
        (F_DRAW_CONTINUE if rules.draw == "continue" else 0)
        | (F_FORCED if rules.passing == "forced" else 0)
        | (F_PARTNERSHIPS if rules.partnerships else 0)
        | (F_PAIRWISE if rules.scoring == "pairwise" else 0)
        | (F_PASS_TO_END if pass_to_end else 0)
    )


def position(rnd: Round, pass_to_end: bool = False) -> tuple[Any, ...]:
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
        flags(rnd.rules, pass_to_end),
    )


def _need() -> Any:
    if _kernel is None:
        raise RuntimeError("the compiled kernel is not built; reinstall with a C compiler")
    return _kernel


def random_rounds(rules: Rules, rounds: int, seed: int) -> int:
    """Deal and play ``rounds`` rounds of uniformly random moves; the actions played."""
    return int(_need().random_rounds(rules.players, rules.hand_size, flags(rules), rounds, seed))


def playout(
    rnd: Round,
    seed: int,
    eps: float = 0.0,
    pass_to_end: bool = False,
    weights: tuple[float, ...] | None = None,
) -> tuple[str, tuple[int, ...], int]:
    """Play ``rnd`` (unchanged) to the end with the playout policy (``weights``:
    the learned one's, ``bots.policy.FEATURES``).

    Returns the reason, each seat's pips and the number of actions.
    """
    reason, pips, actions = _need().playout(*position(rnd, pass_to_end), eps, seed, weights)
    return REASONS[reason], pips, actions


def duel(
    rules: Rules,
    weights_a: tuple[float, ...] | None,
    weights_b: tuple[float, ...] | None,
    eps: float,
    deals: int,
    seed: int,
) -> int:
    """Playout policy A's points less B's over ``deals`` duplicate deals (each
    played with A on either side); two sides only: 2 players, or partnerships."""
    return int(
        _need().duel(
            rules.players,
            rules.hand_size,
            flags(rules, pass_to_end=True),
            weights_a,
            weights_b,
            eps,
            deals,
            seed,
        )
    )


def trace(rnd: Round, seed: int) -> tuple[list[tuple[Any, ...]], str, tuple[int, ...]]:
    """Random legal moves from ``rnd`` to the end, each step recorded."""
    steps, reason, pips = _need().trace(*position(rnd), seed)
    return steps, REASONS[reason], pips


# -- the search entry points (used by passing_game.bots.fast) -------------------
#
# A search starts from "worlds": ``(hands_pool, bones_pool, cum, mode, left,
# right, to_move, passes, players, flags, seat)``. ``hands_pool[k]`` holds a
# mask per seat and ``bones_pool[k]`` a boneyard for deal ``k``; ``mode`` says
# how each iteration guesses: 0 deal 0 as it is (the truth), 1 a deal drawn by
# the cumulative weights ``cum`` with its boneyard shuffled, 2 everything
# outside ``seat``'s hand dealt afresh uniformly, 3 deal 0's hands with its
# boneyard shuffled. See ``Worlds`` in _kernel.c.

WORLD_FIXED, WORLD_POOL, WORLD_UNIFORM, WORLD_HANDS = 0, 1, 2, 3


def sample_worlds(worlds: tuple[Any, ...], count: int, seed: int) -> list[tuple[Any, ...]]:
    """``count`` guesses ``(hands, bone)`` as the searches draw them (for tests)."""
    return list(_need().sample_worlds(*worlds, count, seed))


def search_flat(
    worlds: tuple[Any, ...],
    moves: list[int],
    count: int,
    playouts: int,
    eps: float,
    relative: bool,
    seed: int,
) -> list[float]:
    """Each move's summed value over ``count`` guessed worlds (flat Monte Carlo)."""
    return list(_need().search_flat(*worlds, moves, count, playouts, eps, relative, seed))


def search_ismcts(
    worlds: tuple[Any, ...],
    iterations: int,
    seconds: float,
    exploration: float,
    eps: float,
    opponent_policy: float,
    relative: bool,
    seed: int,
    max_nodes: int,
    weights: tuple[float, ...] | None = None,
    opponent_weights: tuple[float, ...] | None = None,
    opponent_model: tuple[float, ...] | None = None,
    playout_model: tuple[float, ...] | None = None,
    opponent_split: int = 0,
    disguise: float = 0.0,
) -> tuple[int, int, list[tuple[int, int, float]]]:
    """ISMCTS; ``(iterations run, tree nodes, [(code, visits, summed reward)])``;
    ``weights``: the learned policy's in the playouts, ``opponent_weights`` for
    the opponents' moves in the tree (None: the heaviest tile)."""
    done, nodes, children = _need().search_ismcts(
        *worlds,
        iterations,
        seconds,
        exploration,
        eps,
        opponent_policy,
        relative,
        seed,
        max_nodes,
        weights,
        opponent_weights,
        opponent_model,
        playout_model,
        opponent_split,
        disguise,
    )
    return int(done), int(nodes), list(children)
