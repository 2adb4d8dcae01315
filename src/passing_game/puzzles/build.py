"""From a position to a puzzle: the one derivation the generator and the proof share.

``derive`` values every legal move (open: one exact search of the real
deal; view: every deal the seat's view allows, ``deals.view_values``),
takes the best moves as the answer and decides the themes. ``qualifies``
holds the conditions of a puzzle worth shipping: the answer beats every
other move by at least ``MARGIN`` points and the greedy bot's move is not an
answer. The generator calls both and keeps what qualifies; ``proof.prove``
calls ``derive`` again on the file's puzzle and compares.

Values of view puzzles are sums over deals kept as integers, so which
moves are best, and by how much, is decided exactly, not in floating point.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from passing_game.moves import Move, code_to_move, move_to_code
from passing_game.puzzles.deals import ViewValues, view_values
from passing_game.puzzles.record import Kind, ProofKind, Puzzle
from passing_game.puzzles.solver import SearchLimit, Solver
from passing_game.puzzles.themes import themes_of
from passing_game.round import Round
from passing_game.state import State
from passing_game.views import View

#: The points by which the answer must beat every other move (issue 25).
MARGIN = 3
#: Every puzzle starts at this rating; solves in the web app refine it.
BASE_RATING = 1500

#: A greedy chooser: the move the greedy bot makes from a view.
Chooser = Callable[[View], Move]


@dataclass(frozen=True)
class Derived:
    """What a position's search says: each move's total over ``deals`` deals, and more.

    An open puzzle has one deal (the real one) and integer values.
    """

    kind: Kind
    totals: dict[int, int]
    deals: int
    answer: tuple[int, ...]
    proof: ProofKind | None
    themes: tuple[str, ...]

    def value(self, code: int) -> float:
        return self.totals[code] / self.deals

    @property
    def margin(self) -> float:
        """How far the answer is ahead of the best other move (0 if there is none)."""
        others = [t for c, t in self.totals.items() if c not in self.answer]
        if not others:
            return 0.0
        return (self.totals[self.answer[0]] - max(others)) / self.deals

    def beats_by(self, points: int) -> bool:
        """Whether the answer beats every other move by ``points`` or more, exactly."""
        others = [t for c, t in self.totals.items() if c not in self.answer]
        return bool(others) and self.totals[self.answer[0]] - max(others) >= points * self.deals


def derive(
    kind: Kind,
    rnd: Round,
    solver: Solver | None = None,
    themes: bool = True,
    rng: random.Random | None = None,
    keep_going: Callable[[dict[int, int], int], bool] | None = None,
) -> Derived:
    """Value the position ``rnd`` as a puzzle of ``kind`` (see the module's notes).

    ``themes=False`` leaves the themes out (the generator adds them, with
    ``with_themes``, only to the positions it keeps). ``rng`` and
    ``keep_going`` go to ``deals.view_values``; when it gives up, this raises
    ``SearchLimit``.
    """
    solver = solver or Solver()
    seat = rnd.to_move
    if seat is None:
        raise ValueError("the round is over")
    truth = State.from_round(rnd)
    proof: ProofKind | None = None
    found: ViewValues | None = None
    if kind == "open":
        totals = solver.values(truth)
        deals = 1
    else:
        found = view_values(rnd.view(seat), solver, rng, keep_going)
        if found is None:
            raise SearchLimit("given up: the deals so far say this cannot qualify")
        totals, deals = found.totals, found.deals
    best = max(totals.values())
    answer = tuple(c for c, t in totals.items() if t == best)
    if kind == "view":
        assert found is not None
        everywhere = all(c in found.best_everywhere for c in answer)
        proof = "every-deal" if everywhere else "average"
    derived = Derived(kind, totals, deals, answer, proof, ())
    return with_themes(derived, rnd, solver) if themes else derived


def with_themes(derived: Derived, rnd: Round, solver: Solver | None = None) -> Derived:
    """``derived`` with its themes, from the line of perfect play on ``rnd``'s deal."""
    solver = solver or Solver()
    line = solver.line(State.from_round(rnd), derived.answer[0])
    values = {c: t / derived.deals for c, t in derived.totals.items()}
    return replace(derived, themes=themes_of(rnd, values, derived.answer, line))


def greedy_is_wrong(rnd: Round, derived: Derived, greedy: Chooser) -> bool:
    """Whether the greedy bot's move from the seat's view is not an answer."""
    seat = rnd.to_move
    assert seat is not None
    return move_to_code(greedy(rnd.view(seat))) not in derived.answer


def qualifies(rnd: Round, derived: Derived, greedy: Chooser) -> bool:
    """The conditions for shipping: ahead by ``MARGIN`` or more, and greedy wrong."""
    return derived.beats_by(MARGIN) and greedy_is_wrong(rnd, derived, greedy)


def initial_rating(derived: Derived) -> int:
    """A first guess at how hard the puzzle is, on the web app's rating scale.

    More legal moves, a view (an average proof most), and a narrow margin make
    it harder; a wide margin easier. Solves refine it from there.
    """
    rating = BASE_RATING + 25 * min(len(derived.totals) - 2, 6)
    if derived.kind == "view":
        rating += 100 if derived.proof == "average" else 50
    margin = derived.margin
    if margin >= 10:
        rating -= 100
    elif margin < 5:
        rating += 50
    return rating


def puzzle_id(kind: Kind, rnd: Round) -> str:
    """A name fixed by the puzzle's content: kind, players and a digest of the position."""
    content = json.dumps(
        [
            kind,
            rnd.rules.to_dict(),
            [[str(t) for t in hand] for hand in rnd.deal.hands],
            [str(t) for t in rnd.deal.boneyard],
            rnd.deal.leader,
            [str(m) for m in rnd.moves],
        ]
    )
    digest = hashlib.blake2b(content.encode(), digest_size=5).hexdigest()
    return f"{kind}-{rnd.rules.players}p-{digest}"


def make_puzzle(rnd: Round, derived: Derived) -> Puzzle:
    """The puzzle of the position ``rnd`` with what ``derive`` found."""
    seat = rnd.to_move
    assert seat is not None
    return Puzzle(
        id=puzzle_id(derived.kind, rnd),
        kind=derived.kind,
        rules=rnd.rules,
        hands=rnd.deal.hands,
        boneyard=rnd.deal.boneyard,
        leader=rnd.deal.leader,
        history=rnd.moves,
        to_move=seat,
        answer=tuple(code_to_move(c) for c in derived.answer),
        values=tuple((code_to_move(c), derived.value(c)) for c in derived.totals),
        themes=derived.themes,
        rating=initial_rating(derived),
        proof=derived.proof,
    )
