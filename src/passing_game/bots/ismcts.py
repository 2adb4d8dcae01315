"""``ismcts``: Information Set Monte Carlo Tree Search (single observer).

After Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree
Search" (IEEE TCIAIG 4(2), 2012), SO-ISMCTS: one tree over the moves as the
searching seat sees them. Every iteration

1. guesses the hidden tiles (``sampling.Sampler``: the deals the view
   allows, weighted by how likely the others' passes, draws and plays were),
2. walks down the tree, choosing its own moves by UCB1 among the children
   legal in that guess, counting each legal child's *availability* (the "N"
   of its UCB term), and adds one new child,
3. finishes the round with the quick default policy of ``policy.playout``,
4. adds what the round was worth to each side to the nodes on the path,
   each node scoring for the side that chose the move leading to it.

The searching seat sees its own draws, so below its own ``draw`` the tree
branches on the tile drawn (a chance node) and its later choices know it.
Others' draws and all passes are public and need no such branching.

The other seats' moves in the tree: plain SO-ISMCTS chooses them by UCB1
too, on statistics pooled over every guess, which plays each opponent as if
it did not know its own hand. With ``opponent_policy=p`` (default 1) an
opponent's move is instead, with probability ``p``, the default policy's
move for the hand it holds in that guess (an opponent model that sees its
own tiles); ``p=0`` is the textbook algorithm. The best ``p`` depends on
who sits there: the default ``p=1`` suits opponents that play as the
policy does (``greedy``), a mix suits strong ones, whose passes and plays
UCB1 then searches too; the ``expert`` level uses ``p=0.5``
(docs/STRENGTH.md has the measurements).

Budgets: ``iterations`` (deterministic: same seed and view, same move) and
``seconds`` (stops at the first of the two; a wall-clock budget depends on
the machine, so its choices are not reproducible). Levels use iterations.

Engines: with ``engine="auto"`` (the default) the whole search runs in the
compiled kernel when it is built (``bots.fast``, far faster: see
docs/PERFORMANCE.md); ``engine="python"`` forces the pure-Python
``search_tree`` below, which is also the fallback. The two draw different
random numbers, so they agree in strength, not move for move.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable
from typing import ClassVar

from passing_game.bots import kernel
from passing_game.bots.explain import Advice, SearchBot
from passing_game.bots.fast import MAX_NODES, guess_world, seed_from, use_kernel, view_worlds
from passing_game.bots.playmodel import REFITTED, fitted_for
from passing_game.bots.policy import check_weights, model_move, playout, policy_move
from passing_game.bots.sampling import Sampler, check_belief, check_trust, tuned_model
from passing_game.bots.utility import utilities
from passing_game.moves import DRAW_CODE, Move, code_to_move
from passing_game.outcome import GOING
from passing_game.rules import Rules
from passing_game.state import State
from passing_game.views import View

#: Rewards are points divided by this, so UCB's constant has a sensible scale.
REWARD_SCALE = 20.0
#: Keys of chance children under the searching seat's own draw: ``DRAWN + tile``.
DRAWN = 100
#: The default budget (also the ``expert`` level's), well within the level's
#: 1 s on the compiled kernel (docs/STRENGTH.md); the pure-Python fallback
#: gets what fits in 1 s.
DEFAULT_ITERATIONS = 20000 if kernel.AVAILABLE else 6000
#: The formats ``(players, partnerships)`` whose playouts follow the model of
#: play with ``playout_model="tuned"`` (the ``expert`` level): those where the
#: arena found it stronger than the heaviest tile (docs/STRENGTH.md, "What
#: the solution teaches the expert"; DECISIONS P67).
TUNED_PLAYOUTS: frozenset[tuple[int, bool]] = frozenset({(2, False)})


class Node:
    """Statistics of one move in the tree, for the side that chose it."""

    __slots__ = ("avails", "children", "reward", "side", "visits")

    def __init__(self, side: int) -> None:
        self.side = side
        self.visits = 0
        self.avails = 1
        self.reward = 0.0
        self.children: dict[int, Node] = {}


def search_tree(
    determinize: Callable[[random.Random], State],
    seat: int,
    rng: random.Random,
    iterations: int | None,
    seconds: float | None,
    exploration: float = 0.7,
    eps: float = 0.1,
    relative: bool = True,
    opponent_policy: float = 0.0,
    weights: tuple[float, ...] | None = None,
    opponent_weights: tuple[float, ...] | None = None,
    opponent_model: tuple[float, ...] | None = None,
    playout_model: tuple[float, ...] | None = None,
) -> tuple[Node, int]:
    """Run ISMCTS from ``seat``'s point of view; returns the root and the iterations run.

    ``determinize`` returns a fresh full state for each iteration (a guess
    for the fair bot, the true state for the omniscient one).
    """
    root = Node(-1)
    deadline = None if seconds is None else time.perf_counter() + seconds
    done = 0
    log = math.log
    sqrt = math.sqrt
    while True:
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and (done & 15) == 0 and time.perf_counter() >= deadline:
            break
        state = determinize(rng)
        node = root
        path = [root]
        while state.reason == GOING:
            mover = state.to_move
            children = node.children
            if (
                opponent_policy > 0.0
                and mover != seat
                and (opponent_policy >= 1.0 or rng.random() < opponent_policy)
            ):
                if opponent_model is not None:
                    code = model_move(state, rng, opponent_model)
                else:
                    code = policy_move(state, rng, eps, opponent_weights)
                child = children.get(code)
                if child is None:
                    child = Node(state.side_of(mover))
                    children[code] = child
                state.apply(code)
                node = child
                path.append(node)
                continue
            moves = state.legal()
            untried = None
            best_child = None
            best_code = -1
            best_score = -1e18
            for code in moves:
                child = children.get(code)
                if child is None:
                    if untried is None:
                        untried = [code]
                    else:
                        untried.append(code)
                    continue
                child.avails += 1
                if untried is None:
                    score = child.reward / child.visits + exploration * sqrt(
                        log(child.avails) / child.visits
                    )
                    if score > best_score:
                        best_score = score
                        best_child = child
                        best_code = code
            if untried is not None:
                best_code = untried[int(rng.random() * len(untried))]
                best_child = Node(state.side_of(mover))
                children[best_code] = best_child
                expanded = True
            else:
                expanded = False
            assert best_child is not None
            state.apply(best_code)
            node = best_child
            path.append(node)
            if best_code == DRAW_CODE and mover == seat:
                key = DRAWN + state.bone[state.bpos - 1]
                outcome = node.children.get(key)
                if outcome is None:
                    outcome = Node(node.side)
                    node.children[key] = outcome
                node = outcome
                path.append(node)
            if expanded:
                break
        if state.reason == GOING:
            if playout_model is not None:
                while state.reason == GOING:
                    state.apply(model_move(state, rng, playout_model))
            else:
                playout(state, rng, eps, weights)
        values = utilities(state, relative)
        for n in path:
            n.visits += 1
            if n.side >= 0:
                n.reward += values[n.side] / REWARD_SCALE
        done += 1
    return root, done


class IsmctsBot(SearchBot):
    """Information Set MCTS with an iteration and/or time budget.

    ``iterations`` (default ``DEFAULT_ITERATIONS``) keeps the bot deterministic; ``seconds``
    adds a wall-clock limit (not reproducible). ``trust`` and ``heavy`` set
    the opponent model of the sampler (``sampling.Sampler``);
    ``opponent_policy`` how often opponents in the tree follow the default
    policy instead of UCB1; ``exploration`` is UCB1's constant and ``eps``
    the share of random plays in playouts. ``weights`` make the playouts
    follow the learned policy (``bots.policy.FEATURES``; None: the heaviest
    tile), ``opponent_weights`` the opponents' moves in the tree. ``model="tuned"``
    replaces ``trust`` and ``heavy`` by ``sampling.TUNED``'s for the
    round's format, where it has one; ``model="fitted"`` reads the other
    seats' moves with ``playmodel.FITTED``'s model of play where the format
    has a fit, else as ``"tuned"``. ``playout_model="fitted"`` plays the
    playouts, every seat's moves, by that model of play instead of the
    heaviest-tile policy (each move drawn from its softmax for the hand the
    seat holds in the guess: it passes and draws as the expert does, R4.4,
    R4.5) where the format has a fit; ``"tuned"`` only in the formats of
    ``TUNED_PLAYOUTS`` (where the arena found it stronger); ``"refitted"``
    by ``playmodel.REFITTED``, the model fitted to the play of the level
    with ``"tuned"``, where the format has that fit (P68: not the level's).
    ``opponent_model="fitted"`` draws the opponents' moves in the tree that
    follow a policy from the model too. Elsewhere the heaviest-tile policy
    plays; each excludes the learned policy's weights for the same moves.

    Three variants of the search, measured and not the level's (P69; each
    needs the compiled kernel): ``worlds=K`` searches K guesses drawn by
    weight one by one, every hand fixed in each (PIMC over searches), and
    sums their root statistics; ``opponent_split=1`` keeps an opponent's
    statistics in the tree apart by how many of its tiles fit (``2``: per
    end); ``disguise=p`` deals the searcher's own hand again in that share
    of the iterations, as its opponents would guess it, and lets those
    iterations teach only the opponents' choices. ``belief=b`` weighs every
    guessed deal by its weight to the power ``b`` (P70: 1 is the level's);
    ``trees=N`` runs N searches in turn, each with its own guesses and the
    whole budget, and sums their root statistics (an ensemble: N times the
    work, and N times ``seconds``).
    """

    name: ClassVar[str] = "ismcts"

    def __init__(
        self,
        seed: int | str = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.7,
        eps: float = 0.1,
        trust: float = 0.3,
        heavy: float = 0.15,
        opponent_policy: float = 1.0,
        engine: str = "auto",
        pool: int = 400,
        weights: tuple[float, ...] | list[float] | str | None = None,
        model: str | None = None,
        opponent_weights: tuple[float, ...] | list[float] | str | None = None,
        opponent_model: str | None = None,
        playout_model: str | None = None,
        worlds: int = 0,
        opponent_split: int = 0,
        disguise: float = 0.0,
        belief: float = 1.0,
        trees: int = 1,
    ) -> None:
        super().__init__(seed)
        if isinstance(trees, bool) or not isinstance(trees, int) or trees < 1:
            raise ValueError(f"trees must be a whole number >= 1, got {trees!r}")
        self.trees = trees
        self.belief = check_belief(belief)
        if opponent_split not in (0, 1, 2) or isinstance(opponent_split, bool):
            raise ValueError(f"opponent_split must be 0, 1 or 2, got {opponent_split!r}")
        self.opponent_split = opponent_split
        if not 0.0 <= disguise < 1.0:
            raise ValueError(f"disguise must be in [0, 1), got {disguise!r}")
        self.disguise = float(disguise)
        if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 0:
            raise ValueError(f"worlds must be a whole number >= 0, got {worlds!r}")
        self.worlds = worlds
        if model not in (None, "tuned", "fitted"):
            raise ValueError(f"model must be None, 'tuned' or 'fitted', got {model!r}")
        self.model = model
        self.weights = check_weights(weights)
        self.opponent_weights = check_weights(opponent_weights)
        for option, value, policy, allowed in (
            (
                "playout_model",
                playout_model,
                self.weights,
                (None, "fitted", "tuned", "refitted"),
            ),
            ("opponent_model", opponent_model, self.opponent_weights, (None, "fitted")),
        ):
            if value not in allowed:
                listed = ", ".join(repr(a) for a in allowed)
                raise ValueError(f"{option} must be one of {listed}, got {value!r}")
            if value is not None and policy is not None:
                raise ValueError(f"{option} and the learned policy's weights exclude each other")
        self.playout_model = playout_model
        self.opponent_model = opponent_model
        self.engine = engine
        self.use_kernel = use_kernel(engine)
        if (worlds or opponent_split or disguise) and not self.use_kernel:
            raise ValueError(
                "worlds, opponent_split and disguise need the compiled kernel (engine='c')"
            )
        if isinstance(pool, bool) or not isinstance(pool, int) or pool < 1:
            raise ValueError(f"pool must be a whole number >= 1, got {pool!r}")
        self.pool = pool
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations!r}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive, got {seconds!r}")
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.eps = eps
        self.trust = check_trust(trust)
        if heavy < 0:
            raise ValueError(f"heavy must be at least 0, got {heavy!r}")
        self.heavy = heavy
        if not 0.0 <= opponent_policy <= 1.0:
            raise ValueError(f"opponent_policy must be in [0, 1], got {opponent_policy!r}")
        self.opponent_policy = opponent_policy

    def sampler(self, view: View) -> Sampler:
        """The guesses of the hidden tiles this bot searches, with its opponent model
        (``model="tuned"``: ``sampling.TUNED``'s for the view's format;
        ``model="fitted"``: ``playmodel.FITTED``'s model of play for it, else
        as ``"tuned"``)."""
        trust, heavy = self.trust, self.heavy
        if self.model in ("tuned", "fitted"):
            trust, heavy = tuned_model(view, trust, heavy)
        fitted = "fitted" if self.model == "fitted" else None
        return Sampler(
            view, trust=trust, heavy=heavy, pool=self.pool, model=fitted, belief=self.belief
        )

    def advise(self, view: View) -> Advice:
        moves = view.legal_moves()
        if not moves:
            raise ValueError(f"it is not seat {view.seat}'s turn (seat {view.to_move} is to move)")
        if len(moves) == 1:
            return Advice(moves[0], {}, 0)
        stats, done = self.search_stats(view)
        return advice_from_stats(stats, done, moves)

    def search_stats(self, view: View) -> tuple[dict[int, tuple[int, float]], int]:
        """One search of ``view`` (the seat to move's): ``{code: (visits, summed
        reward)}`` of the root's moves, rewards in points / ``REWARD_SCALE``, and
        the iterations run. ``advise`` and the game analysis both read it.
        With ``trees`` above 1, that many searches, each with its own guesses
        and the bot's whole budget (iterations or seconds), their statistics
        summed."""
        rng = self.rng(view)
        return summed(self.one_search(view, rng) for _ in range(self.trees))

    def one_search(
        self, view: View, rng: random.Random
    ) -> tuple[dict[int, tuple[int, float]], int]:
        """One tree's statistics (``search_stats``), its guesses drawn with ``rng``."""
        sampler = self.sampler(view)
        if self.use_kernel and self.worlds:
            return self.guessed_stats(view, sampler, rng)
        if self.use_kernel:
            return self.kernel_stats(view_worlds(view, sampler, rng), rng, view.rules)
        root, done = search_tree(
            sampler.sample,
            view.seat,
            rng,
            self.iterations,
            self.seconds,
            self.exploration,
            self.eps,
            opponent_policy=self.opponent_policy,
            weights=self.weights,
            opponent_weights=self.opponent_weights,
            opponent_model=self.opponent_coefficients(view.rules),
            playout_model=self.playout_coefficients(view.rules),
        )
        return {code: (child.visits, child.reward) for code, child in root.children.items()}, done

    def guessed_stats(
        self, view: View, sampler: Sampler, rng: random.Random
    ) -> tuple[dict[int, tuple[int, float]], int]:
        """PIMC over searches: ``worlds`` guesses drawn by weight, each searched
        with every hand fixed (the boneyard's order still chance), their root
        statistics summed."""
        budget = max(1, self.iterations // self.worlds) if self.iterations else None
        seconds = self.seconds / self.worlds if self.seconds else None

        def one() -> tuple[dict[int, tuple[int, float]], int]:
            hands, bone = sampler.deal(rng)
            world = guess_world(view, hands, bone)
            return self.kernel_stats(world, rng, view.rules, budget, seconds)

        return summed(one() for _ in range(self.worlds))

    def kernel_stats(
        self,
        worlds: tuple[object, ...],
        rng: random.Random,
        rules: Rules | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
    ) -> tuple[dict[int, tuple[int, float]], int]:
        """``search_stats`` on the compiled kernel from the given worlds of a
        round of ``rules`` (which picks the model of play, if any); ``iterations``
        and ``seconds`` replace the bot's budget (one guess's share of it)."""
        done, _nodes, children = kernel.search_ismcts(
            worlds,
            iterations or (self.iterations if self.iterations is not None else 2**62),
            seconds or self.seconds or 0.0,
            self.exploration,
            self.eps,
            self.opponent_policy,
            True,
            seed_from(rng),
            MAX_NODES,
            self.weights,
            self.opponent_weights,
            self.opponent_coefficients(rules),
            self.playout_coefficients(rules),
            self.opponent_split,
            self.disguise,
        )
        return {code: (visits, reward) for code, visits, reward in children}, done

    def playout_coefficients(self, rules: Rules | None) -> tuple[float, ...] | None:
        """The model of play the playouts follow (``playout_model``) in a round of
        ``rules``, or None: the heaviest-tile policy (or ``weights``')."""
        if self.playout_model is None or rules is None:
            return None
        if self.playout_model == "refitted":
            return fitted_for(rules, REFITTED)
        if (
            self.playout_model == "tuned"
            and (rules.players, rules.partnerships) not in TUNED_PLAYOUTS
        ):
            return None
        return fitted_for(rules)

    def opponent_coefficients(self, rules: Rules | None) -> tuple[float, ...] | None:
        """The model of play the opponents in the tree follow when they follow a
        policy (``opponent_model``), or None: the heaviest-tile policy."""
        if self.opponent_model != "fitted" or rules is None:
            return None
        return fitted_for(rules)

    def kernel_advice(
        self,
        worlds: tuple[object, ...],
        rng: random.Random,
        moves: list[Move],
        rules: Rules | None = None,
    ) -> Advice:
        """Run the search on the compiled kernel from the given worlds."""
        stats, done = self.kernel_stats(worlds, rng, rules)
        return advice_from_stats(stats, done, moves)

    def __repr__(self) -> str:
        return (
            f"IsmctsBot(seed={self.seed!r}, iterations={self.iterations!r}, "
            f"seconds={self.seconds!r})"
        )


def summed(
    searches: Iterable[tuple[dict[int, tuple[int, float]], int]],
) -> tuple[dict[int, tuple[int, float]], int]:
    """Several searches' root statistics and iterations, added up (run in turn)."""
    total: dict[int, tuple[int, float]] = {}
    done = 0
    for stats, n in searches:
        done += n
        for code, (visits, reward) in stats.items():
            v, r = total.get(code, (0, 0.0))
            total[code] = (v + visits, r + reward)
    return total, done


def advice_from_root(root: Node, done: int, moves: list[Move]) -> Advice:
    """The most visited root move, with every root move's mean value in points."""
    return advice_from_stats(
        {code: (child.visits, child.reward) for code, child in root.children.items()}, done, moves
    )


def advice_from_stats(
    children: dict[int, tuple[int, float]], done: int, moves: list[Move]
) -> Advice:
    """As ``advice_from_root``, from ``{code: (visits, summed reward)}``."""
    stats: dict[Move, tuple[float, int]] = {}
    for code, (visits, reward) in children.items():
        if visits:
            stats[code_to_move(code)] = (reward / visits * REWARD_SCALE, visits)
    best = max(
        (m for m in moves if m in stats),
        key=lambda m: (stats[m][1], stats[m][0]),
        default=moves[0],
    )
    return Advice(best, {m: v for m, (v, _n) in stats.items()}, done)
