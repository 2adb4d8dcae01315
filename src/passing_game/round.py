"""One round (hand) of play: the full-information state and its reducer.

``Round`` holds everything, hidden tiles included; players and bots see it
only through ``Round.view(seat)``. Every change goes through ``play``, which
checks the move first and so leaves the round untouched when it refuses one.

>>> from passing_game import Rules, Round, parse_move
>>> r = Round.from_deal(Rules(players=4), [
...     ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5"],
...     ["0-6", "1-1", "1-2", "1-3", "1-4", "1-5"],
...     ["1-6", "2-2", "2-3", "2-4", "2-5", "2-6"],
...     ["3-3", "3-4", "3-5", "3-6", "4-4", "4-5"]],
...     ["4-6", "5-5", "5-6", "6-6"], leader=0)
>>> r.play(parse_move("L0-3")); r.ends, r.to_move
((0, 3), 1)
>>> r.play(parse_move("L6-6"))
Traceback (most recent call last):
...
passing_game.errors.IllegalMove: seat 2 does not hold 6-6
"""

from __future__ import annotations

import os
import random
import secrets
from collections import deque
from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, NoReturn

from passing_game import legality
from passing_game.dealing import check_leader, checked_deal, deal_digest, shuffled_deal
from passing_game.dealing import seeded_deal as seeded_deal  # it lived here before dealing.py
from passing_game.errors import IllegalMove
from passing_game.i18n import _, ngettext
from passing_game.moves import (
    DRAW,
    DRAW_CODE,
    PASS,
    PLAYS_LEFT,
    PLAYS_RIGHT,
    Draw,
    Move,
    Pass,
    Play,
    move_to_code,
)
from passing_game.outcome import GOING, REASONS
from passing_game.outcome import Deal as Deal  # these three lived here before outcome.py
from passing_game.outcome import Reason as Reason
from passing_game.outcome import RoundResult as RoundResult
from passing_game.rules import Rules
from passing_game.scoring import score
from passing_game.state import State
from passing_game.tiles import TILES, Placed, Tile, mask_of, mask_pips, tiles_of
from passing_game.views import Turn, View

#: The internal state names every implementation provides, read by the shared
#: code (``view``, ``why_illegal``, ...) and compared by the differential tests.
STATE_NAMES = (
    "_boneyard",
    "_deal",
    "_ends",
    "_hands",
    "_history",
    "_passes",
    "_players",
    "_result",
    "_to_move",
    "_train",
    "rules",
)


class Round:
    """One round of The Passing Game, with every tile known.

    ``Round.new`` and ``Round.from_deal`` build a round of the fastest
    implementation available: ``FastRound`` (its state in the optional C
    extension ``_fastround``) or else ``PyRound`` (pure Python, the
    reference). Both are ``Round``s with the same behaviour to the last
    detail (tests/test_fastround.py plays them side by side); this class
    holds everything they share. Set ``PASSING_GAME_PURE_PYTHON=1`` to use
    ``PyRound`` everywhere.
    """

    __slots__ = ()

    # What the shared code reads; each implementation provides these, some
    # as attributes, some worked out from its state.
    rules: Rules
    _train: Sequence[tuple[int, int]]
    # (seat, move, tile drawn, how a play's tile was laid), as ``Turn`` holds them
    _history: Sequence[tuple[int, Move, Tile | None, Placed | None]]
    _result: RoundResult | None
    _deal: Deal

    if TYPE_CHECKING:
        # each hand as a bit mask of tile indices
        @property
        def _hands(self) -> Sequence[int]: ...
        @property
        def _boneyard(self) -> Sequence[Tile]: ...
        @property
        def _ends(self) -> tuple[int, int] | None: ...
        @property
        def _to_move(self) -> int: ...
        @property
        def _passes(self) -> int: ...
        @property
        def _players(self) -> int: ...

    # -- construction ---------------------------------------------------

    @classmethod
    def _impl(cls) -> type[Round]:
        """The class to build: the default implementation for ``Round`` itself."""
        return _IMPL if cls is Round else cls

    @classmethod
    def new(
        cls,
        rules: Rules | None = None,
        seed: int | str | None = None,
        *,
        rng: random.Random | None = None,
        leader: int | None = None,
    ) -> Round:
        """A shuffled deal; the leader is drawn at random unless given (R3.1).

        The same ``seed`` always gives the same deal and leader (D9): the
        first round of ``Match(rules, seed)``. Without a seed one is taken
        from ``rng`` when given, else from the operating system.
        """
        if rules is None:
            rules = Rules()
        elif not isinstance(rules, Rules):
            raise ValueError(_("rules must be a Rules value, got “{value}”").format(value=rules))
        if seed is None:
            seed = rng.getrandbits(64) if rng is not None else secrets.randbits(64)
        digest = deal_digest(seed, 1)
        if leader is not None:
            check_leader(rules, leader)
        return cls._impl()._from_digest(rules, digest, -1 if leader is None else leader)

    @classmethod
    def from_deal(
        cls,
        rules: Rules,
        hands: Sequence[Iterable[Tile | str]],
        boneyard: Iterable[Tile | str],
        leader: int,
    ) -> Round:
        """An exact starting position; ``boneyard[0]`` is the next tile drawn.

        Tiles may be given as ``Tile`` or as text like ``"3-5"``. The deal
        must hold the set's tiles (the 28 of the double-six unless
        ``rules.max_pip`` is smaller) exactly once with the hand sizes of ``rules``.
        """
        got_hands, pile = checked_deal(rules, hands, boneyard, leader)
        return cls._start(rules, got_hands, pile, leader)

    @classmethod
    def _start(cls, rules: Rules, hands: list[list[Tile]], pile: list[Tile], leader: int) -> Round:
        """A round from a deal already known to be valid, each hand sorted."""
        return cls._impl()._start(rules, hands, pile, leader)

    @classmethod
    def _from_digest(cls, rules: Rules, digest: bytes, leader: int) -> Round:
        """The seeded deal of ``digest`` (see ``seeded_deal``); ``leader`` -1: its seat."""
        hands, boneyard, drawn = shuffled_deal(rules, digest)
        return cls._start(rules, hands, boneyard, drawn if leader < 0 else leader)

    def copy(self) -> Round:
        """An independent copy; playing on it leaves this round unchanged."""
        raise NotImplementedError

    def __copy__(self) -> Round:
        return self.copy()

    def __deepcopy__(self, memo: object) -> Round:
        return self.copy()

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its deal and moves, replayed on loading."""
        return (_replay, (type(self), self.rules, self.deal, self.moves))

    # -- reading the state ----------------------------------------------

    @property
    def deal(self) -> Deal:
        return self._deal

    @property
    def leader(self) -> int:
        return self._deal.leader

    @property
    def to_move(self) -> int | None:
        """The seat to act, or ``None`` once the round is over."""
        return None if self._result is not None else self._to_move

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Every seat's tiles, each hand sorted."""
        return tuple(tiles_of(h) for h in self._hands)

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The tiles not yet drawn, next draw first; the last two are locked."""
        return tuple(self._boneyard)

    @property
    def locked(self) -> tuple[Tile, ...]:
        """The two tiles that can never be drawn (R2.4)."""
        return self.deal.locked

    @property
    def train(self) -> tuple[Placed, ...]:
        """The tiles laid, left to right, each oriented as it lies."""
        return tuple(map(Placed._make, self._train))

    @property
    def ends(self) -> tuple[int, int] | None:
        """``(left, right)`` open numbers, or ``None`` on an empty train."""
        return self._ends

    @property
    def history(self) -> tuple[Turn, ...]:
        """Every move so far, with the tile each draw took and how each play was laid."""
        return tuple(map(Turn._make, self._history))

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(t[1] for t in self._history)

    @property
    def passes_in_row(self) -> int:
        """Passes since the last play or draw (D3)."""
        return self._passes

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> RoundResult | None:
        """How the round ended, or ``None`` while it goes on."""
        return self._result

    def pips(self) -> tuple[int, ...]:
        """Each seat's count of pips in hand (R7.1)."""
        return tuple(map(mask_pips, self._hands))

    # -- moves ----------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """The moves open to the seat to move: plays, then draw, then pass.

        A play that has the same outcome on either end (empty train, or both
        ends showing one number) is listed once, on the left; ``play`` also
        accepts it on the right and lays it there, and so does ``in`` on the
        list: ``move in round.legal_moves()`` is a complete legality check.
        """
        raise NotImplementedError

    def why_illegal(self, move: Move) -> str | None:
        """``None`` if ``move`` is legal now, else the reason in words."""
        if self._result is not None:
            return _("the round is over")
        legal = self.legal_moves()
        if move in legal:
            return None
        # Illegal: say why.
        seat = self._to_move
        if isinstance(move, Play):
            tile = move.tile
            if not self._hands[seat] >> tile.index & 1:
                # Seats as people count them, from 1 (the terminal and the page show this).
                return _("seat {seat} does not hold {tile}").format(seat=seat + 1, tile=tile)
            if self._ends is not None:
                number = self._ends[0] if move.end == "left" else self._ends[1]
                return (
                    _("{tile} does not fit the left end, which shows {number}")
                    if move.end == "left"
                    else _("{tile} does not fit the right end, which shows {number}")
                ).format(tile=tile, number=number)
        elif isinstance(move, Draw):
            return ngettext(
                "the boneyard holds {count} tile and the last two can never be drawn",
                "the boneyard holds {count} tiles and the last two can never be drawn",
                len(self._boneyard),
            ).format(count=len(self._boneyard))
        elif isinstance(move, Pass):
            if any(isinstance(m, Play) for m in legal):
                return _("with forced passing you may pass only when you cannot play or draw")
            return _("with forced passing you must draw while the boneyard allows it")
        else:
            return _("“{move}” is not a move (Play, Draw or Pass)").format(move=move)
        return _("that move cannot be made now")

    def is_legal(self, move: Move) -> bool:
        return self.why_illegal(move) is None

    def play(self, move: Move) -> None:
        """Make ``move`` for the seat to move.

        Raises ``IllegalMove`` saying why, with the round left as it was.
        """
        raise NotImplementedError

    # -- what a seat may know -------------------------------------------

    def view(
        self,
        seat: int,
        *,
        scores: Sequence[int] | None = None,
        round_number: int | None = None,
    ) -> View:
        """What ``seat`` may know (R9): its own hand and the public facts."""
        if (
            isinstance(seat, bool)
            or not isinstance(seat, int)
            or not 0 <= seat < self.rules.players
        ):
            raise ValueError(
                _(
                    "seat must be an index from 0 to {last} (seat 1 is index 0), got “{value}”"
                ).format(last=self.rules.players - 1, value=seat)
            )
        hands = self._hands
        return View(
            rules=self.rules,
            seat=seat,
            hand=tiles_of(hands[seat]),
            train=tuple(map(Placed._make, self._train)),
            ends=self._ends,
            hand_sizes=tuple(h.bit_count() for h in hands),
            boneyard_size=len(self._boneyard),
            history=tuple(Turn(s, m, d if s == seat else None, p) for s, m, d, p in self._history),
            to_move=self.to_move,
            leader=self.leader,
            scores=None if scores is None else tuple(scores),
            round_number=round_number,
            result=self._result,
        )

    def __repr__(self) -> str:
        result = self.result
        state = f"over: {result.reason}" if result else f"to move: {self._to_move}"
        train = " ".join(map(str, self.train)) or "(empty)"
        return f"<Round {self.rules.players} players, {state}, train {train}>"


def _refuse(rnd: Round, move: Move) -> NoReturn:
    """Raise the ``IllegalMove`` for a refused move (the C engine calls this too)."""
    raise IllegalMove(rnd.why_illegal(move) or _("that move cannot be made now"))


def _result_of(rnd: Round, reason: Reason) -> RoundResult:
    """The scored result of a round that just ended (R7)."""
    pips = rnd.pips()
    scored = score(rnd.rules, pips)
    return RoundResult(
        reason=reason,
        pips=pips,
        winner=scored.winner,
        points=scored.points,
        side_pips=scored.side_pips,
        hands=rnd.hands,
        locked=rnd.locked,
    )


def _replay(cls: type[Round], rules: Rules, deal: Deal, moves: Sequence[Move]) -> Round:
    """A round rebuilt from its deal and moves (how rounds are pickled)."""
    rnd = cls.from_deal(rules, deal.hands, deal.boneyard, deal.leader)
    for move in moves:
        rnd.play(move)
    return rnd


_MOVE_TYPES = (Play, Draw, Pass)


class PyRound(Round):
    """The pure-Python ``Round``: the reference, and the fallback without the C extension.

    Its position (hands, ends, boneyard, seat to move, passes, how the round
    ended) is a ``State``, the model the search bots run on, moved by the
    same ``apply``; beside it the round keeps what only a ``Round`` shows:
    the train as laid, the history and the scored result.
    """

    __slots__ = ("_deal", "_history", "_result", "_state", "_train", "rules")

    _state: State
    _train: deque[Placed]
    _history: list[tuple[int, Move, Tile | None, Placed | None]]

    @classmethod
    def _start(cls, rules: Rules, hands: list[list[Tile]], pile: list[Tile], leader: int) -> Round:
        self = object.__new__(cls)
        self.rules = rules
        self._deal = Deal(tuple(tuple(h) for h in hands), tuple(pile), leader)
        self._state = State(
            rules, [mask_of(h) for h in hands], [t.index for t in pile], None, leader
        )
        self._train = deque()
        self._history = []
        self._result = None
        return self

    def copy(self) -> PyRound:
        """An independent copy; playing on it leaves this round unchanged."""
        other = object.__new__(type(self))
        other.rules = self.rules
        other._deal = self._deal
        other._state = self._state.copy()
        other._train = self._train.copy()
        other._history = list(self._history)
        other._result = self._result
        return other

    # The state names the shared ``Round`` code reads, from the ``State``.
    _hands = property(attrgetter("_state.hands"))
    _ends = property(attrgetter("_state.ends"))
    _to_move = property(attrgetter("_state.to_move"))
    _passes = property(attrgetter("_state.passes"))
    _players = property(attrgetter("_state.players"))

    @property
    def _boneyard(self) -> list[Tile]:
        state = self._state
        return [TILES[i] for i in state.bone[state.bpos :]]

    def legal_moves(self) -> list[Move]:
        if self._result is not None:
            return []
        state = self._state
        return legality.legal_moves(
            state.hands[state.to_move], state.ends, state.boneyard_size, state.forced
        )

    def play(self, move: Move) -> None:
        """Make ``move`` for the seat to move.

        Raises ``IllegalMove`` saying why, with the round left as it was.
        """
        state = self._state
        if self._result is not None or type(move) not in _MOVE_TYPES:  # as FastRound
            _refuse(self, move)
        code = move_to_code(move)
        if not legality.allows(state.legal(), code, state.left, state.right):
            _refuse(self, move)
        seat, ends = state.to_move, state.ends
        drawn = TILES[state.bone[state.bpos]] if code == DRAW_CODE else None
        state.apply(code)
        placed = self._lay(ends, code & 1) if code < DRAW_CODE else None
        self._history.append((seat, move, drawn, placed))
        if state.reason != GOING:
            self._result = _result_of(self, REASONS[state.reason])

    def _lay(self, before: tuple[int, int] | None, end: int) -> Placed:
        """Put the tile just played on the train as it lies, left half facing left."""
        left, right = self._state.left, self._state.right
        if before is None:
            placed = Placed(left, right)
            self._train.append(placed)
        elif end == 0:
            placed = Placed(left, before[0])
            self._train.appendleft(placed)
        else:
            placed = Placed(before[1], right)
            self._train.append(placed)
        return placed


try:
    from passing_game import _fastround  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - exercised only without a C compiler
    _fastround = None

#: Whether the C ``FastRound`` is built (it may still be switched off, see ``Round``).
FAST_AVAILABLE: bool = _fastround is not None
_IMPL: type[Round] = PyRound

if _fastround is not None:
    _fastround._setup(
        TILES,
        PLAYS_LEFT,
        PLAYS_RIGHT,
        DRAW,
        PASS,
        Play,
        Draw,
        Pass,
        Deal,
        _refuse,
        RoundResult,
        Placed,
        legality.EitherEnd,
    )

    class FastRound(_fastround.RoundCore, Round):  # type: ignore[misc]
        """The ``Round`` whose state lives in C (``_fastround.c``); same API as ``PyRound``."""

        __slots__ = ()

        @classmethod
        def _start(
            cls, rules: Rules, hands: list[list[Tile]], pile: list[Tile], leader: int
        ) -> Round:
            made: Round = cls._create(
                rules, [mask_of(h) for h in hands], [t.index for t in pile], leader
            )
            return made

    if os.environ.get("PASSING_GAME_PURE_PYTHON", "") in ("", "0"):
        _IMPL = FastRound


def implementation() -> str:
    """Which class ``Round.new`` builds, and why (for reports such as the bench's)."""
    if _IMPL is not PyRound:
        return "FastRound (state in the C extension passing_game._fastround)"
    if FAST_AVAILABLE:
        return "PyRound (pure Python: PASSING_GAME_PURE_PYTHON is set)"
    return "PyRound (pure Python: the C extension passing_game._fastround is not built)"
