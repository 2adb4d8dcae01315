"""Puzzles from your own games (issue 25): the blunders the analysis found, to find again.

A signed-in person's finished games (``store/history.py``, the newest
``MOST_GAMES``), each with an analysis of the person's own seat that is done
(``review.analyses.peek``: the same row the replay's "Analyse" made), give
one puzzle for each decision the analysis marked as a blunder (never a move
a bot made for the person, never a forced one): the position just before
that move, from that seat's view only (a view puzzle, R9).

**Its values.** Where the analysis could value the position exactly
(``exact``: every deal the view allows, each solved), the puzzle is proved
as the shipped view puzzles are (``proof`` every-deal or average), and a
position where the move played turns out to be among the best is no puzzle
at all. Elsewhere the values are the analysis's own estimates (``valued``
``"estimate"``), and a move is right when the analysis would not have called
it a mistake: within ``MISTAKE`` points of the expert's choice. Only games of
two sides (2 players, or 4 in partnerships) make puzzles, as every puzzle's.

Nothing here is stored: the list is rebuilt from the games and analyses in
the store on every request, on any process. A puzzle's id names the
analysis, the seat and the step (``mine-<hash>-<seat>-<step>``); one of
another account's games is not in this account's list, so it is not found.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from passing_game.bots.analysis import MISTAKE, Analysis, Evaluation
from passing_game.errors import PassingGameError
from passing_game.match import Match
from passing_game.moves import Move
from passing_game.puzzles import Puzzle, PuzzleError
from passing_game.puzzles.build import BASE_RATING
from passing_game.records import record_marks
from passing_game.rules import Rules
from passing_game.web.history import MOST_GAMES
from passing_game.web.puzzles.exact import blunders, position
from passing_game.web.review.analyses import peek
from passing_game.web.review.replay import record_hash, stored_record
from passing_game.web.store import Store
from passing_game.web.store import history as history_rows


@dataclass(frozen=True)
class Mine:
    """One blunder of the person's, as a puzzle, and where it was made."""

    puzzle: Puzzle
    valued: str
    code: str
    game: int
    seat: int
    round: int
    #: The blunder's number in its round, from 1 (as the analysis counts).
    index: int
    step: int
    played: str
    loss: float
    date: float

    @property
    def link(self) -> str:
        """The replay of the game at the position (the seat counts from 1 there)."""
        return f"/replay/{self.code}/{self.game}?seat={self.seat + 1}&step={self.step}"


def mine_id(key: str, seat: int, step: int) -> str:
    return f"mine-{key[:20]}-{seat}-{step}"


def _estimated(legal: list[Move], e: Evaluation) -> tuple[Any, ...] | None:
    """Values and answer from the analysis's estimates (``None``: a legal move has none)."""
    if any(str(m) not in e.values for m in legal) or e.best not in e.values:
        return None
    reference = e.values[e.best]
    values = tuple((m, float(e.values[str(m)])) for m in legal)
    answer = tuple(m for m, v in values if v > reference - MISTAKE)
    return values, answer, "average", ()


def _exact(legal: list[Move], found: dict[str, Any]) -> tuple[Any, ...]:
    """Values, answer, proof and themes from the exact valuation (``exact.value_position``)."""
    values = tuple((m, float(found["values"][str(m)])) for m in legal)
    wanted = set(found["answer"])
    answer = tuple(m for m in legal if str(m) in wanted)
    return values, answer, str(found["proof"]), tuple(found.get("themes", ()))


def puzzles_of_game(
    match: Match, state: dict[str, Any], key: str, code: str, game: int, date: float
) -> list[Mine]:
    """The blunders of one analysed game as puzzles (see the module's notes)."""
    result = Analysis.from_dict(state["analysis"])
    proved = state.get("exact") or {}
    found = []
    for e in blunders(result):
        rnd = position(match, e)
        if rnd.to_move != result.seat:
            continue
        legal = list(rnd.legal_moves())
        exact = proved.get(str(e.step))
        if exact is not None:
            if e.played in exact["answer"]:
                continue  # every deal solved: the move played was as good as any
            values, answer, proof, themes = _exact(legal, exact)
            valued = proof
        else:
            estimated = _estimated(legal, e)
            if estimated is None:
                continue
            values, answer, proof, themes = estimated
            valued = "estimate"
        deal = rnd.deal
        try:
            puzzle = Puzzle(
                id=mine_id(key, result.seat, e.step),
                kind="view",
                rules=rnd.rules,
                hands=deal.hands,
                boneyard=deal.boneyard,
                leader=deal.leader,
                history=rnd.moves,
                to_move=result.seat,
                answer=answer,
                values=values,
                themes=themes,
                rating=BASE_RATING,
                proof=proof,
            )
        except PuzzleError:
            continue
        found.append(
            Mine(
                puzzle,
                valued,
                code,
                game,
                result.seat,
                e.round,
                e.index,
                e.step,
                e.played,
                e.loss,
                date,
            )
        )
    return found


def puzzles_of(store: Store, user_id: str, limit: int = MOST_GAMES) -> list[Mine]:
    """Every puzzle of the account's own blunders, newest game first (blocking)."""
    with store.transaction() as tx:
        games = history_rows.games_of(tx, user_id, limit)
    found: list[Mine] = []
    for entry in games:
        if not entry.finished or entry.record is None:
            continue
        if Rules.from_dict(json.loads(entry.rules)).sides != 2:
            continue
        try:
            data, match = stored_record(entry.record)
            key = record_hash(match, record_marks(data))
        except (PassingGameError, ValueError, KeyError, TypeError):
            continue  # a record this code cannot read makes no puzzle
        status, state = peek(store, key, entry.seat)
        if status != "done":
            continue
        found.extend(puzzles_of_game(match, state, key, entry.code, entry.game, entry.created))
    return found


def mine_by_id(store: Store, user_id: str, wanted: str) -> Mine | None:
    """One of the account's puzzles, by id (``None``: not one of its own)."""
    return next((m for m in puzzles_of(store, user_id) if m.puzzle.id == wanted), None)


__all__ = ["Mine", "mine_by_id", "mine_id", "puzzles_of", "puzzles_of_game"]
