"""A two-player round on a small set, whole: its tree, its information sets,
policies over them, best responses and exploitability.

``SolvedGame`` wraps the C tree (``passing_game._solve``, docs/DECISIONS.md
P66). A policy is an ``array('d')`` with one probability per action of
every information set, in the tree's order (``offsets``); the values are
points of the round for seat 0 (R7), and the game is zero-sum.

>>> game = SolvedGame(Rules(max_pip=2, hand_size=2))
>>> game.run(300)
300
>>> abs(game.value(game.average(), game.average())) < 1e-3  # R3.1: a random leader
True
>>> game.exploitability(game.average()) < 1e-3
True
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from passing_game.bots.kernel import flags
from passing_game.moves import DRAW_CODE, PASS_CODE, Move, Play, code_to_move, move_to_code
from passing_game.round import Round
from passing_game.rules import Rules
from passing_game.tiles import TILES, ends_after, tiles_of
from passing_game.views import View

try:
    from passing_game import _solve  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - only without a C compiler
    _solve = None

if TYPE_CHECKING:
    Policy: TypeAlias = array[float]  # array('d'): a probability per action
else:
    Policy = array


class SolveError(ValueError):
    """A game the solver does not take (players, partnerships, no C extension)."""


def available() -> bool:
    """Whether the C solver (``passing_game._solve``) is built."""
    return _solve is not None


@dataclass(frozen=True)
class Infoset:
    """One information set: whose, its key (see ``infoset_key``), its legal move codes."""

    index: int
    seat: int
    key: bytes
    codes: tuple[int, ...]


def infoset_key(view: View) -> bytes:
    """What ``view``'s seat knows, as the C tree keys its information sets (R9).

    The seat, its dealt hand (a 32-bit mask, little-endian), the leader, then
    every move's code, a draw of the seat's own followed by the tile it took.
    A play whose end does not matter (the empty train, or both ends showing
    one number) is coded on the left, as ``legal_moves`` lists it (P2).
    """
    played: set[int] = set()
    drawn: set[int] = set()
    ends: tuple[int, int] | None = None
    codes = bytearray()
    for turn in view.history:
        move, placed = turn.move, turn.placed
        code = move_to_code(move)
        if isinstance(move, Play) and placed is not None:
            if turn.seat == view.seat:
                played.add(move.tile.index)
            if ends is None or ends[0] == ends[1]:
                code &= ~1
            ends = ends_after(ends, placed, move.end)
        codes.append(code)
        if turn.drawn is not None and turn.seat == view.seat:
            drawn.add(turn.drawn.index)
            codes.append(turn.drawn.index)
    dealt = ({t.index for t in view.hand} | played) - drawn
    mask = sum(1 << i for i in dealt)
    return bytes([view.seat, *mask.to_bytes(4, "little"), view.leader]) + bytes(codes)


class SolvedGame:
    """The whole tree of one two-player round of ``rules`` (a small set).

    ``leader`` fixes who leads (0 or 1) instead of chance (R3.1); the value
    for seat 0 is then the leader's advantage.
    """

    def __init__(self, rules: Rules, leader: int | None = None) -> None:
        if _solve is None:
            raise SolveError("the C solver (passing_game._solve) is not built")
        if rules.players != 2:
            raise SolveError(f"the solver plays two players, got {rules.players}")
        self.rules = rules
        self.leader = leader
        started = time.perf_counter()
        self._tree = _solve.Tree(
            rules.max_pip, rules.hand_size, flags(rules), -1 if leader is None else leader
        )
        self.build_seconds = time.perf_counter() - started
        self.run_seconds = 0.0
        offsets = array("q")
        offsets.frombytes(self._tree.offsets())
        self.offsets = offsets

    # -- sizes and sets ----------------------------------------------------------

    def stats(self) -> dict[str, int]:
        """Nodes, decisions, terminals, chance nodes, information sets, actions, deals, bytes."""
        return dict(self._tree.stats())

    @property
    def size(self) -> int:
        """How many information sets the game has."""
        return len(self.offsets) - 1

    def infoset(self, index: int) -> Infoset:
        seat, key, codes, *_ = self._tree.infoset(index)
        return Infoset(index, seat, bytes(key), tuple(codes))

    def find(self, view: View) -> int:
        """The index of ``view``'s information set, or -1 if the tree has none."""
        return int(self._tree.find(infoset_key(view)))

    def round_at(self, index: int) -> Round:
        """A round at one decision of set ``index``: its example deal and moves."""
        seat, key, _codes, hands, leader, draws = self._tree.infoset(index)
        dealt = [tiles_of(mask) for mask in hands]
        drawn = [TILES[i] for i in draws]
        rest = [t for t in self.rules.tiles if t not in (*dealt[0], *dealt[1], *drawn)]
        rnd = Round.from_deal(self.rules, dealt, [*drawn, *rest], leader)
        position = 6
        while position < len(key):
            code = key[position]
            mover = rnd.to_move
            rnd.play(code_to_move(code))
            position += 2 if code == DRAW_CODE and mover == seat else 1
        return rnd

    def view_at(self, index: int) -> View:
        """The view of set ``index``'s seat at its example decision."""
        return self.round_at(index).view(self.infoset(index).seat)

    def action_of(self, index: int, move: Move) -> int:
        """The index of ``move`` among set ``index``'s actions."""
        codes = self.infoset(index).codes
        code = move_to_code(move)
        if code not in codes and isinstance(move, Play):
            code &= ~1  # the same play listed on the left (P2)
        return codes.index(code)

    # -- solving -------------------------------------------------------------------

    def run(self, iterations: int) -> int:
        """Run CFR+ iterations; returns how many have run in all."""
        started = time.perf_counter()
        done = int(self._tree.run(iterations))
        self.run_seconds += time.perf_counter() - started
        return done

    def average(self) -> Policy:
        """CFR+'s average strategy: the approximate equilibrium."""
        return self._policy(self._tree.average_policy())

    def uniform(self) -> Policy:
        """Every legal move equally likely (the ``random`` bot's policy)."""
        out = array("d", bytes(8 * self.offsets[-1]))
        for i in range(self.size):
            start, end = self.offsets[i], self.offsets[i + 1]
            for a in range(start, end):
                out[a] = 1.0 / (end - start)
        return out

    def _policy(self, raw: bytes) -> Policy:
        out = array("d")
        out.frombytes(raw)
        return out

    # -- measuring -----------------------------------------------------------------

    def value(self, seat0: Policy, seat1: Policy) -> float:
        """Seat 0's expected points when each seat plays its policy."""
        return float(self._tree.value(seat0, seat1))

    def best_response_value(self, policy: Policy, seat: int) -> float:
        """Seat ``seat``'s expected points when it best responds to ``policy``."""
        value, _ = self._tree.best_response(policy, seat)
        return float(value) if seat == 0 else -float(value)

    def exploitability(self, policy: Policy) -> float:
        """Half the points a best response gains against each seat of ``policy``
        (OpenSpiel's ``exploitability``: NashConv over the two players)."""
        return (self.best_response_value(policy, 0) + self.best_response_value(policy, 1)) / 2

    def reach(self, seat0: Policy, seat1: Policy) -> Policy:
        """Each information set's probability of being reached in that play."""
        out = array("d")
        out.frombytes(self._tree.infoset_reach(seat0, seat1))
        return out

    def action_values(self, seat0: Policy, seat1: Policy) -> tuple[bytes, bytes, bytes, bytes]:
        """Sums over each set's decisions, each weighed by chance and the other
        seat's reach when each seat plays its policy: per action, the weight
        times seat 0's value after that move; per set, the weight, the weight
        times the count margin (the other seat's pips less the mover's), and
        the weight where the mover holds the lower count (doubles, as bytes;
        ``solve.lessons.action_values`` turns them into values)."""
        q, w, m, low = self._tree.action_values(seat0, seat1)
        return bytes(q), bytes(w), bytes(m), bytes(low)

    def frontier(self, policy: Policy, known: bytearray, seat: int) -> list[int]:
        """Seat's sets its own ``policy`` reaches whose ``known`` byte is still 0."""
        return list(self._tree.frontier(policy, known, seat))

    def probabilities(self, policy: Policy, index: int) -> Sequence[float]:
        return policy[self.offsets[index] : self.offsets[index + 1]]


def legal_codes(view: View) -> list[int]:
    """The codes of a view's legal moves, as the tree lists them."""
    return [move_to_code(m) for m in view.legal_moves()]


__all__ = [
    "DRAW_CODE",
    "PASS_CODE",
    "Infoset",
    "Policy",
    "SolveError",
    "SolvedGame",
    "available",
    "infoset_key",
    "legal_codes",
]
