"""What the terminal and language tests share: the environment a game runs in, and
the script of input lines that plays a seeded game by tile numbers.

The script is worked out in-process: the same seed gives the same deals and
the same bots (``make_bots``) give the same replies, so a test knows which
tile numbers to type and what the game must end with.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from passing_game import PASS, Draw, Match, Move, Play, Rules
from passing_game.terminal.game import make_bots, opponent_names
from passing_game.views import View
from passing_game.words import needs_end

TIMEOUT = 30
ENV = {
    **os.environ,
    "COLUMNS": "80",
    "LANGUAGE": "en",
    "LC_ALL": "C.UTF-8",
    "PYTHONIOENCODING": "utf-8",
    "NO_COLOR": "1",
}


# -- working out a script -------------------------------------------------


Chooser = Callable[[View, list[Move]], Move]


def last_play(view: View, legal: list[Move]) -> Move:
    """Play the last listed play (for a tile fitting both ends: the right one)."""
    plays = [m for m in legal if isinstance(m, Play)]
    if plays:
        return plays[-1]
    return next((m for m in legal if isinstance(m, Draw)), PASS)


def keys_for(move: Move, view: View) -> list[str]:
    """The lines a person types for ``move``: a tile number, then l/r when asked."""
    if isinstance(move, Play):
        keys = [str(view.hand.index(move.tile) + 1)]
        if needs_end(move.tile, view.ends):
            keys.append("l" if move.end == "left" else "r")
        return keys
    return ["d" if isinstance(move, Draw) else "p"]


def script_for(
    rules: Rules,
    seed: int,
    *,
    seat: int = 0,
    bots: Sequence[str] = ("greedy",),
    rounds: int | None = None,
    choose: Chooser = last_play,
) -> tuple[list[str], Match, int]:
    """The input lines that play ``rounds`` (or the whole match) by number.

    Mirrors the game: a turn whose only legal move is a pass is passed for
    the person, and Enter deals each next round. Returns the lines, the match
    as it ends, and how many times the game asks left or right.
    """
    match = Match(rules, seed)
    names = opponent_names(bots, rules.players, seat)
    players = make_bots(names, seat, match.seed)
    lines: list[str] = []
    questions = 0
    played = 0
    while True:
        rnd = match.round
        while not rnd.is_over:
            to_move = rnd.to_move
            assert to_move is not None
            view = match.view(to_move)
            if to_move != seat:
                match.play(players[to_move].choose(view))
                continue
            legal = view.legal_moves()
            if legal == [PASS]:
                match.play(PASS)
                continue
            move = choose(view, legal)
            keys = keys_for(move, view)
            questions += len(keys) - 1
            lines += keys
            match.play(move)
        played += 1
        if match.is_over or (rounds is not None and played >= rounds):
            return lines, match, questions
        lines.append("")


def first_seed(test: Callable[[int], bool], limit: int = 400) -> int:
    for seed in range(limit):
        if test(seed):
            return seed
    raise AssertionError("no seed found")  # pragma: no cover
