"""The one encoding shared by the PettingZoo, Gymnasium and OpenSpiel interfaces.

**Actions** are 58 integers, the same for every seat (the seat is never part
of an action id) and the same codes the compiled kernel and the search bots
use (the move codes of ``passing_game.moves``):

* ``tile.index * 2 + end`` for a play, ``end`` 0 for the left end and 1 for
  the right end (``tile.index`` runs 0..27 over ``0-0, 0-1, ..., 6-6``);
* ``56`` (``DRAW_ACTION``) for a draw, ``57`` (``PASS_ACTION``) for a pass.

A play whose outcome is the same on either end (any play on the empty train,
or a tile fitting both ends when they show the same number) is an action only
on the left, exactly as ``Round.legal_moves`` lists it, so the legal actions
of a position are its distinct moves.

>>> from passing_game import Tile, Play, Round, Rules
>>> move_to_action(Play(Tile(3, 5), "right")), str(action_to_move(41))
(41, 'R3-5')
>>> r = Round.new(Rules(players=2), seed=42)
>>> view = r.view(r.to_move)
>>> legal_actions(view) == [move_to_action(m) for m in r.legal_moves()]
True
>>> int(action_mask(view).sum()) == len(r.legal_moves())
True

**Observations** are one flat ``float32`` vector per seat, every entry in
``[0, 1]``, built by ``encode(view)`` from that seat's ``View`` alone, so it
cannot depend on hidden tiles. Seats are *relative*: entry ``r`` of a
per-seat part is the seat ``r`` places clockwise from the observer (0 is the
observer itself); sides likewise (0 is the observer's side). The parts, in
order, are listed by ``observation_layout(rules)`` and documented in
docs/RESEARCH.md:

>>> [(name, size) for name, size, _ in observation_layout(Rules(players=2))][:4]
[('hand', 28), ('drawn', 28), ('played', 56), ('train_position', 28)]
>>> observation_size(Rules(players=2)), observation_size(Rules(players=4))
(198, 294)
>>> obs = encode(view)
>>> obs.shape, obs.dtype, float(obs.min()) >= 0.0, float(obs.max()) <= 1.0
((198,), dtype('float32'), True, True)
>>> parts = split(obs, Rules(players=2))
>>> int(parts["hand"].sum()), float(parts["empty_train"][0])
(7, 1.0)
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import cache
from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from passing_game.moves import (
    DRAW_CODE,
    NUM_CODES,
    PASS_CODE,
    Draw,
    Move,
    Play,
    code_to_move,
    move_to_code,
)
from passing_game.rules import Rules
from passing_game.views import View

#: The action ids are the move codes (``passing_game.moves``): how many there
#: are, the id of a draw and the id of a pass.
NUM_ACTIONS = NUM_CODES
DRAW_ACTION = DRAW_CODE
PASS_ACTION = PASS_CODE

Observation = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


def action_to_move(action: SupportsIndex) -> Move:
    """The move an action id stands for (any integer type, numpy's too).

    >>> action_to_move(0), action_to_move(56), action_to_move(57)
    (Play(Tile(0, 0), 'left'), Draw(), Pass())
    >>> action_to_move(58)
    Traceback (most recent call last):
    ...
    ValueError: an action is an integer from 0 to 57, got 58
    """
    try:
        index = operator.index(action)
    except TypeError:
        raise ValueError(f"an action is an integer from 0 to 57, got {action!r}") from None
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"an action is an integer from 0 to 57, got {action!r}")
    return code_to_move(index)


def move_to_action(move: Move) -> int:
    """The action id of a move: ``tile.index * 2 + end``, 56 draw, 57 pass.

    >>> from passing_game import parse_move
    >>> [move_to_action(parse_move(m)) for m in ("L0-0", "R0-0", "L6-6", "draw", "pass")]
    [0, 1, 54, 56, 57]
    """
    return move_to_code(move)


def legal_actions(view: View) -> list[int]:
    """The legal action ids of the seat that ``view`` belongs to, ascending.

    Empty when it is not that seat's turn (or the round is over).
    """
    return sorted(move_to_action(m) for m in view.legal_moves())


def action_mask(view: View) -> Mask:
    """A 58-entry ``int8`` mask: 1 for each legal action of the viewing seat."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for action in legal_actions(view):
        mask[action] = 1
    return mask


# -- observations -------------------------------------------------------------

#: Each part: name, shape as a function of (players, sides), meaning.
_PARTS: tuple[tuple[str, str, str], ...] = (
    ("hand", "28", "1 for each tile in the observer's hand"),
    ("drawn", "28", "1 for each tile the observer drew this round (in hand or laid since)"),
    ("played", "n*28", "row r: 1 for each tile relative seat r laid on the train"),
    ("train_position", "28", "for a tile on the train: (place from the left + 1) / 28"),
    ("left_end", "7", "one-hot number on the left open end (all 0 on the empty train)"),
    ("right_end", "7", "one-hot number on the right open end (all 0 on the empty train)"),
    ("empty_train", "1", "1 while the train is empty"),
    ("hand_sizes", "n", "tiles in the hand of relative seat r / 28"),
    ("boneyard", "1", "tiles in the boneyard / tiles it held after the deal"),
    ("can_draw", "1", "1 while a draw is allowed (more than 2 tiles left, R4.3)"),
    ("to_move", "n", "one-hot relative seat to move (all 0 once the round is over)"),
    ("leader", "n", "one-hot relative seat that led the round"),
    ("passes", "n", "passes by relative seat r this round / (max round moves / n)"),
    ("draws", "n", "draws by relative seat r this round / most draws a round allows"),
    ("passed_on", "n*7", "row r: 1 for each number open when relative seat r passed"),
    ("drew_on", "n*7", "row r: 1 for each number open when relative seat r drew"),
    ("passes_in_row", "1", "passes since the last play or draw / players (D3)"),
    ("scores", "s", "match score of relative side r / target, at most 1 (0 outside a match)"),
)

#: Part names in layout order.
PART_NAMES: tuple[str, ...] = tuple(name for name, _, _ in _PARTS)
#: What each part holds, by name (the table of docs/RESEARCH.md).
PART_MEANINGS: dict[str, str] = {name: meaning for name, _, meaning in _PARTS}


def _shape(spec: str, players: int, sides: int) -> tuple[int, ...]:
    dims = {"n": players, "s": sides}
    return tuple(dims[d] if d in dims else int(d) for d in spec.split("*"))


def observation_layout(rules: Rules) -> list[tuple[str, int, tuple[int, ...]]]:
    """The observation's parts in order: ``(name, size, shape)``."""
    return list(_layout(rules.players, rules.sides))


@cache
def _layout(players: int, sides: int) -> tuple[tuple[str, int, tuple[int, ...]], ...]:
    out = []
    for name, spec, _ in _PARTS:
        shape = _shape(spec, players, sides)
        out.append((name, int(np.prod(shape)), shape))
    return tuple(out)


def observation_size(rules: Rules) -> int:
    """Length of the observation vector for ``rules``."""
    return sum(size for _, size, _ in _layout(rules.players, rules.sides))


def split(obs: npt.NDArray[Any], rules: Rules) -> dict[str, npt.NDArray[Any]]:
    """Named, reshaped views into ``obs`` (no copy), one per part of the layout."""
    out: dict[str, npt.NDArray[Any]] = {}
    start = 0
    for name, size, shape in _layout(rules.players, rules.sides):
        out[name] = obs[start : start + size].reshape(shape)
        start += size
    return out


def encode(view: View, out: Observation | None = None) -> Observation:
    """The observation vector of ``view``'s seat (see the module notes).

    Only ``view`` is read. ``out`` (zeroed here) may be given to reuse a buffer.
    """
    rules = view.rules
    n = rules.players
    me = view.seat
    if out is None:
        out = np.zeros(observation_size(rules), dtype=np.float32)
    else:
        out.fill(0.0)
    p = split(out, rules)

    for t in view.hand:
        p["hand"][t.index] = 1.0
    for place, placed in enumerate(view.train):
        p["train_position"][placed.tile.index] = (place + 1) / 28.0
    if view.ends is None:
        p["empty_train"][0] = 1.0
    else:
        p["left_end"][view.ends[0]] = 1.0
        p["right_end"][view.ends[1]] = 1.0
    for seat, size in enumerate(view.hand_sizes):
        p["hand_sizes"][(seat - me) % n] = size / 28.0
    if rules.boneyard_size:
        p["boneyard"][0] = view.boneyard_size / rules.boneyard_size
    p["can_draw"][0] = 1.0 if view.can_draw else 0.0
    if view.to_move is not None:
        p["to_move"][(view.to_move - me) % n] = 1.0
    p["leader"][(view.leader - me) % n] = 1.0

    # Replay the public history for who laid what, and the passes and draws.
    pass_scale = rules.max_round_moves / n
    draw_scale = max(1, rules.max_draws)
    ends: tuple[int, int] | None = None
    for turn in view.history:
        r = (turn.seat - me) % n
        move = turn.move
        if isinstance(move, Play):
            tile = move.tile
            p["played"][r, tile.index] = 1.0
            if ends is None:
                ends = (tile.low, tile.high)
            elif move.end == "left":
                ends = (tile.other(ends[0]), ends[1])
            else:
                ends = (ends[0], tile.other(ends[1]))
        elif isinstance(move, Draw):
            p["draws"][r] += 1.0 / draw_scale
            if turn.drawn is not None:
                p["drawn"][turn.drawn.index] = 1.0
            if ends is not None:
                p["drew_on"][r, ends[0]] = 1.0
                p["drew_on"][r, ends[1]] = 1.0
        else:
            p["passes"][r] += 1.0 / pass_scale
            if ends is not None:
                p["passed_on"][r, ends[0]] = 1.0
                p["passed_on"][r, ends[1]] = 1.0
    p["passes_in_row"][0] = view.passes_in_row / n

    if view.scores is not None:
        sides = rules.sides
        mine = rules.side_of(me)
        for side, points in enumerate(view.scores):
            p["scores"][(side - mine) % sides] = min(1.0, points / rules.target)
    return out


# -- the perfect-recall information state (OpenSpiel) ----------------------------


def history_row_size(rules: Rules) -> int:
    """One history row: relative seat one-hot, action one-hot, drawn tile one-hot."""
    return rules.players + NUM_ACTIONS + 28


def information_state_size(rules: Rules) -> int:
    """The observation plus one history row per possible move of a round."""
    return observation_size(rules) + rules.max_round_moves * history_row_size(rules)


def encode_information_state(view: View, out: Observation | None = None) -> Observation:
    """``encode(view)`` followed by the whole public history, one row per turn.

    Row ``i`` (zeros past the last turn): the relative seat that made turn
    ``i`` (``players`` entries, one-hot), its action id (58, one-hot) and, for
    the observer's own draws, the tile drawn (28, one-hot). This is perfect
    recall: two positions with equal tensors are the same information state.
    """
    rules = view.rules
    size = information_state_size(rules)
    if out is None:
        out = np.zeros(size, dtype=np.float32)
    obs_size = observation_size(rules)
    encode(view, out[:obs_size])
    rows = out[obs_size:].reshape(rules.max_round_moves, history_row_size(rules))
    rows.fill(0.0)
    n = rules.players
    for i, turn in enumerate(view.history):
        rows[i, (turn.seat - view.seat) % n] = 1.0
        rows[i, n + move_to_action(turn.move)] = 1.0
        if turn.drawn is not None:
            rows[i, n + NUM_ACTIONS + turn.drawn.index] = 1.0
    return out


def information_state_string(view: View) -> str:
    """A text that identifies the seat's information state (perfect recall).

    >>> from passing_game import Round, Rules
    >>> information_state_string(Round.new(Rules(), seed=1).view(0))[:24]
    'seat 0 | hand 0-0 1-4 1-'
    """
    hand = " ".join(map(str, view.hand))
    history = " ".join(
        f"{t.seat}:{t.move}" + (f"({t.drawn})" if t.drawn is not None else "") for t in view.history
    )
    return f"seat {view.seat} | hand {hand} | leader {view.leader} | history {history}"


def observation_string(view: View) -> str:
    """A short text of what the seat sees now (not perfect recall)."""
    hand = " ".join(map(str, view.hand))
    train = "".join(map(str, view.train)) or "(empty)"
    sizes = ",".join(map(str, view.hand_sizes))
    return (
        f"seat {view.seat} | hand {hand} | train {train} | hands {sizes} | "
        f"boneyard {view.boneyard_size} | to move {view.to_move}"
    )


def part_rows(rules: Rules) -> Sequence[tuple[str, int, int, str]]:
    """``(name, start, size, meaning)`` for every part: the layout table."""
    rows = []
    start = 0
    for name, size, _ in observation_layout(rules):
        rows.append((name, start, size, PART_MEANINGS[name]))
        start += size
    return rows
