"""Re-proving a puzzle: derive it again from its deal and history, and compare.

``prove`` trusts nothing in the puzzle but the deal, the rules and the
history: it replays them through the engine, values every legal move again
(``build.derive``, a full search) and says which of the file's claims do
not hold. Given the greedy bot's chooser it also checks that the greedy bot
still gets it wrong (the bots are not imported here: the caller hands it in).
"""

from __future__ import annotations

from dataclasses import dataclass

from passing_game.moves import code_to_move, move_to_code
from passing_game.puzzles.build import MARGIN, Chooser, derive, greedy_is_wrong, puzzle_id
from passing_game.puzzles.record import Puzzle
from passing_game.puzzles.solver import Solver

#: How far a stored value may be from the derived one (the contract's 1e-6).
TOLERANCE = 1e-6


@dataclass(frozen=True)
class Proof:
    """The outcome of ``prove``: the puzzle's id and what did not hold (nothing: proved)."""

    id: str
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def prove(puzzle: Puzzle, greedy: Chooser | None = None, solver: Solver | None = None) -> Proof:
    """Re-derive ``puzzle``'s values, answer, proof and themes and compare them."""
    rnd = puzzle.position()
    derived = derive(puzzle.kind, rnd, solver)
    problems: list[str] = []
    for move, stored in puzzle.values:
        found = derived.value(move_to_code(move))
        if abs(found - stored) > TOLERANCE:
            problems.append(f"value of {move} is {found!r}, the file says {stored!r}")
    answer = sorted(str(code_to_move(c)) for c in derived.answer)
    if answer != sorted(str(m) for m in puzzle.answer):
        shown = ", ".join(map(str, puzzle.answer))
        problems.append(f"the best moves are {', '.join(answer)}, the file says {shown}")
    if not derived.beats_by(MARGIN):
        problems.append(f"the answer is ahead by {derived.margin:g} points, less than {MARGIN}")
    if derived.proof != puzzle.proof:
        problems.append(f"the proof is {derived.proof}, the file says {puzzle.proof}")
    if derived.themes != puzzle.themes:
        problems.append(
            f"the themes are {list(derived.themes)}, the file says {list(puzzle.themes)}"
        )
    if puzzle_id(puzzle.kind, rnd) != puzzle.id:
        problems.append(f"the id of this content is {puzzle_id(puzzle.kind, rnd)}")
    if greedy is not None and not greedy_is_wrong(rnd, derived, greedy):
        problems.append("the greedy bot finds the answer")
    return Proof(puzzle.id, tuple(problems))
