"""The search bots' hot loops on the compiled kernel (``passing_game._kernel``).

The search bots (``pimc``, ``ismcts``, ``omniscient``) describe a position
and how to guess its hidden tiles as "worlds" (see ``passing_game.bots.kernel``)
and let the C kernel run the whole search: flat Monte Carlo for ``pimc``,
the ISMCTS tree for ``ismcts``. The kernel plays the same rules and the same
default policy as ``bots.policy`` (tests/test_kernel.py and
tests/test_search_kernel.py check it against the rules engine), far faster
than the pure-Python search (docs/PERFORMANCE.md), which stays as the
fallback when the extension is not built.

The guesses come from ``sampling.Sampler``: the weighting of deals by the
others' actions (soft evidence) stays in Python, computed once per move on a
pool of deals; the kernel draws from that pool by weight and reshuffles the
boneyard for every guess. Every random number the kernel uses comes from a
seed drawn from the bot's per-decision generator, so the same seed and view
give the same move.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from passing_game.bots import kernel
from passing_game.bots.sampling import Sampler
from passing_game.views import View

if TYPE_CHECKING:
    from passing_game.round import Round

#: Engine options the search bots accept.
ENGINES = ("auto", "c", "python")
#: A bound on the ISMCTS tree (32 bytes a node): the walk ends in a playout
#: once the tree is full.
MAX_NODES = 2_000_000


def use_kernel(engine: str) -> bool:
    """Whether a bot with this ``engine`` option runs on the compiled kernel."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == "c" and not kernel.AVAILABLE:
        raise ValueError("engine='c' needs the compiled kernel, which is not built")
    return engine == "c" or (engine == "auto" and kernel.AVAILABLE)


def seed_from(rng: random.Random) -> int:
    return rng.getrandbits(64)


def view_worlds(view: View, sampler: Sampler, rng: random.Random) -> tuple[Any, ...]:
    """The kernel's world arguments for a fair bot: guesses from ``sampler``."""
    mode, hands, bones, cum = sampler.kernel_pool(rng)
    return (hands, bones, cum, mode, *_view_position(view))


def guess_world(view: View, hands: list[int], bone: list[int]) -> tuple[Any, ...]:
    """The kernel's world arguments for one guess of ``view``'s hidden tiles:
    every hand fixed, the boneyard's order chance (``kernel.WORLD_HANDS``)."""
    return ([tuple(hands)], [sorted(bone)], [], kernel.WORLD_HANDS, *_view_position(view))


def _view_position(view: View) -> tuple[Any, ...]:
    """The public position of ``view`` as the kernel's world arguments end."""
    ends = view.ends or (-1, -1)
    to_move = view.to_move if view.to_move is not None else view.seat
    return (
        ends[0],
        ends[1],
        to_move,
        view.passes_in_row,
        view.rules.players,
        kernel.flags(view.rules, pass_to_end=True),
        view.seat,
    )


def round_worlds(rnd: Round, boneyard_known: bool = True) -> tuple[Any, ...]:
    """The kernel's world arguments for the omniscient yardstick: the truth.

    With ``boneyard_known`` false the hands are the true ones but the
    boneyard's order is reshuffled for every iteration (chance, not known).
    """
    hands, bone, _bpos, left, right, seat, passes, players, flags = kernel.position(
        rnd, pass_to_end=True
    )
    mode = kernel.WORLD_FIXED if boneyard_known else kernel.WORLD_HANDS
    if not boneyard_known:
        bone = sorted(bone)  # so the shuffles cannot depend on the true order
    return ([hands], [bone], [], mode, left, right, seat, passes, players, flags, seat)
