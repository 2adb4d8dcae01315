"""A puzzle as the page shows it, and a judged move in words: from any ``Puzzle``.

``puzzle_json`` turns a ``passing_game.puzzles.Puzzle`` into the page's JSON,
whatever it came from (the shipped set, or later the blunders of one's own
games), so the solving page and its flow never ask where a puzzle was made.

**What it holds before the answer.** An open puzzle shows everything (it is
open): every hand and the boneyard in the order it is drawn. A view puzzle
shows what ``Puzzle.view()`` gives the seat to move and nothing else (R9):
its hand, the train, every hand's size, the boneyard's size and the public
moves (its own drawn tiles named to it alone). ``reveal_json``, the whole
deal, is sent only with the answer (``tests/test_web_puzzles.py`` looks for
hidden tiles in every answer before it).
"""

from __future__ import annotations

from typing import Any

from passing_game.i18n import N_, _, ngettext
from passing_game.puzzles import Puzzle
from passing_game.views import View
from passing_game.web.puzzles.glicko import Glicko
from passing_game.web.puzzles.model import Judged, settling, start_rating
from passing_game.words import Seats, advice_words, describe_turn

#: A theme's name as people read it (``passing_game.puzzles.THEMES``).
THEME_WORDS: dict[str, str] = {
    # TRANSLATORS: a puzzle's theme: with best play the round ends blocked.
    "block": N_("Block"),
    # TRANSLATORS: a puzzle's theme: with best play the side to move lays its last tile.
    "domino-out": N_("Domino out"),
    # TRANSLATORS: a puzzle's theme: the best move is to pass.
    "pass-that-wins": N_("A pass that wins"),
    # TRANSLATORS: a puzzle's theme: drawing would lose the round.
    "draw-that-loses": N_("A draw that loses"),
    # TRANSLATORS: a puzzle's theme: count the tiles to see that nobody can play on an end.
    "count-the-tiles": N_("Count the tiles"),
    # TRANSLATORS: a puzzle's theme: the partner finishes the round.
    "partnership": N_("Partners"),
}


def shown_rating(rating: Glicko) -> int:
    """A rating as people read it: a whole number."""
    return round(rating.rating)


def rating_json(rating: Glicko) -> dict[str, Any]:
    return {"rating": shown_rating(rating), "settling": settling(rating)}


def _tiles(tiles: Any) -> list[str]:
    return [str(t) for t in tiles]


def _log(puzzle: Puzzle, view: View) -> list[str]:
    """The moves from the deal to the puzzle, in words, as the seat to move knew them."""
    seats = Seats(puzzle.rules, None, human=puzzle.to_move)
    history = puzzle.position().history if puzzle.kind == "open" else view.history
    return [
        describe_turn(turn, seats, led=i == 0, show_drawn=puzzle.kind == "open")
        for i, turn in enumerate(history)
    ]


def puzzle_json(puzzle: Puzzle, rating: Glicko | None = None) -> dict[str, Any]:
    """The page's JSON for a puzzle before its answer (see the module's notes)."""
    view = puzzle.view()
    rnd = puzzle.position() if puzzle.kind == "open" else None
    shown = rating if rating is not None else start_rating(puzzle)
    return {
        "id": puzzle.id,
        "kind": puzzle.kind,
        "proof": puzzle.proof,
        "players": puzzle.rules.players,
        "partnerships": puzzle.rules.partnerships,
        "seat": puzzle.to_move,
        "themes": [{"id": t, "name": _(THEME_WORDS.get(t, t))} for t in puzzle.themes],
        **rating_json(shown),
        "hand": _tiles(view.hand),
        "hands": [_tiles(h) for h in rnd.hands] if rnd is not None else None,
        "hand_sizes": list(view.hand_sizes),
        "train": [[p.left, p.right] for p in view.train],
        "ends": list(view.ends) if view.ends else None,
        "boneyard": view.boneyard_size,
        "drawable": max(0, view.boneyard_size - 2),
        "boneyard_tiles": _tiles(rnd.boneyard) if rnd is not None else None,
        "legal": [str(m) for m, _v in puzzle.values],
        "log": _log(puzzle, view),
    }


def reveal_json(puzzle: Puzzle) -> dict[str, Any]:
    """The deal at the puzzle: every hand, the boneyard in draw order (after the answer)."""
    rnd = puzzle.position()
    return {"hands": [_tiles(h) for h in rnd.hands], "boneyard_tiles": _tiles(rnd.boneyard)}


def loss_text(puzzle: Puzzle, loss: float, best: bool, estimate: bool = False) -> str:
    """Why a move is (not) the best, one sentence with its number; ``estimate``: the
    values are an analysis's estimates (``mine``), not a proof."""
    n = round(loss)
    if estimate:
        if best:
            return _("By the analysis, no mistake.")
        return ngettext(
            "By the analysis, this move loses about {n} point against the best.",
            "By the analysis, this move loses about {n} points against the best.",
            n,
        ).format(n=n)
    if best:
        return _("The best move.")
    if puzzle.kind == "view":
        if n == 0:
            return _("On average this move is nearly as good as the best, but not quite.")
        return ngettext(
            "On average this move loses {n} point against the best.",
            "On average this move loses {n} points against the best.",
            n,
        ).format(n=n)
    if n == 0:
        return _("This move is nearly as good as the best, but not quite.")
    return ngettext(
        "This move loses {n} point against the best.",
        "This move loses {n} points against the best.",
        n,
    ).format(n=n)


def judged_json(puzzle: Puzzle, judged: Judged, estimate: bool = False) -> dict[str, Any]:
    """Every legal move: its words, its value for the side to move, its loss and why
    (``estimate``: as ``loss_text``)."""
    ends = puzzle.position().ends
    return {
        "correct": judged.correct,
        "move": str(judged.move),
        "answer": [str(m) for m in puzzle.answer],
        "best_value": judged.best,
        "values": [
            {
                "move": str(row.move),
                "words": advice_words(row.move, ends, decided=True),
                "value": round(row.value, 2),
                "loss": round(row.loss, 2),
                "best": row.best,
                "text": loss_text(puzzle, row.loss, row.best, estimate),
            }
            for row in judged.moves
        ],
    }


def change_json(before: Glicko, after: Glicko) -> dict[str, Any]:
    """A rating's change as people read it."""
    return {
        "before": shown_rating(before),
        "after": shown_rating(after),
        "delta": shown_rating(after) - shown_rating(before),
        "settling": settling(after),
    }


__all__ = [
    "THEME_WORDS",
    "change_json",
    "judged_json",
    "loss_text",
    "puzzle_json",
    "rating_json",
    "reveal_json",
    "shown_rating",
]
