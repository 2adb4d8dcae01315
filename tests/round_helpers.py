"""What the rules suites share: everything a caller can observe about a round."""

from __future__ import annotations

from typing import Any

from passing_game import Round


def observable(rnd: Round) -> dict[str, Any]:
    """Everything a caller can observe about a round through its public API."""
    return {
        "rules": rnd.rules,
        "to_move": rnd.to_move,
        "hands": rnd.hands,
        "boneyard": rnd.boneyard,
        "train": rnd.train,
        "ends": rnd.ends,
        "history": rnd.history,
        "moves": rnd.moves,
        "passes": rnd.passes_in_row,
        "over": rnd.is_over,
        "result": rnd.result,
        "legal": rnd.legal_moves(),
        "deal": rnd.deal,
        "leader": rnd.leader,
        "locked": rnd.locked,
        "pips": rnd.pips(),
        "views": [rnd.view(s) for s in range(rnd.rules.players)],
        "repr": repr(rnd),
    }
