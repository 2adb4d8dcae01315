"""Which themes a puzzle shows, decided from its values and the line of perfect play.

A theme is a tag for people choosing puzzles, so each is a plain rule about
the position, the answer and how the round ends when everyone plays
perfectly after it (``solver.Solver.line``, on the puzzle's own deal; for a
view puzzle, the deal as it really was). docs/PUZZLES.md has the same list.

- ``block``: that line ends blocked (R6.2) or with every seat passing (D3,
  scored as a block);
- ``domino-out``: it ends with the side to move laying its last tile (R6.1);
- ``pass-that-wins``: the answer is to pass (R4.4);
- ``draw-that-loses``: drawing is legal and loses the round (its value is
  below 0) where the answer does not (value 0 or more);
- ``count-the-tiles``: the answer is a play after which an open end shows a
  number whose every tile is on the train or in the mover's own hand: the
  mover can count that nobody else can play there;
- ``partnership``: partnerships, and the line ends with the mover's partner
  laying its last tile or blocking the round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from passing_game.moves import DRAW_CODE, PASS_CODE, Play, code_to_move
from passing_game.round import Round
from passing_game.tiles import SUIT_MASKS, mask_of


def themes_of(
    rnd: Round, values: Mapping[int, float], answer: Sequence[int], line: Sequence[int]
) -> tuple[str, ...]:
    """The themes, in the order of ``record.THEMES``, of the puzzle at ``rnd``.

    ``values`` and ``answer`` are move codes as the puzzle has them; ``line``
    is the answer's first move and perfect play after it, on ``rnd``'s deal.
    """
    mover = rnd.to_move
    assert mover is not None
    rules = rnd.rules
    end = rnd.copy()
    for code in line:
        end.play(code_to_move(code))
    result = end.result
    assert result is not None, "a line of perfect play ends the round"
    last = end.history[-1].seat
    found: list[str] = []
    if result.reason in ("block", "all-pass"):
        found.append("block")
    if result.reason == "domino" and rules.side_of(last) == rules.side_of(mover):
        found.append("domino-out")
    if PASS_CODE in answer:
        found.append("pass-that-wins")
    best = max(values[c] for c in answer)
    if DRAW_CODE in values and DRAW_CODE not in answer and values[DRAW_CODE] < 0 <= best:
        found.append("draw-that-loses")
    if any(_counted(rnd, code) for code in answer):
        found.append("count-the-tiles")
    if (
        rules.partnerships
        and last == (mover + 2) % rules.players
        and result.reason in ("domino", "block")
    ):
        found.append("partnership")
    return tuple(found)


def _counted(rnd: Round, code: int) -> bool:
    """Whether after the play ``code`` an end shows a number the mover can count out."""
    move = code_to_move(code)
    if not isinstance(move, Play):
        return False
    after = rnd.copy()
    after.play(move)
    if after.ends is None:
        return False
    seen = mask_of(p.tile for p in after.train) | mask_of(after.hands[rnd.to_move or 0])
    return any(SUIT_MASKS[number] & ~seen == 0 for number in set(after.ends))
