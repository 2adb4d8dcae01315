"""A lesson of the tutorial: a position, the move it asks for, and why.

A lesson is data: the rules, the deal and the moves from the deal to the
position, replayed through the real engine (``position``), so a lesson whose
position or answer breaks a rule cannot be built and fails its test. ``check``
says whether a move is the one asked for and, right or wrong, the sentence to
show. The texts are marked with ``N_`` and translated where they are shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from passing_game.i18n import _
from passing_game.moves import Move, Play, parse_move
from passing_game.round import Round
from passing_game.rules import Rules
from passing_game.tiles import TILES
from passing_game.words import tile_text

#: The tutorial's parts, in order: the rules a round needs (a newcomer's path to
#: the first real round, P47), the game's rules (the target, partnerships), then
#: playing well.
PARTS: tuple[str, ...] = ("basics", "game", "play")


@dataclass(frozen=True)
class Lesson:
    """One lesson: a set-up position in which the learner must make one move.

    ``reasons`` maps a move in the notation (``L3-5``, ``draw``, ``pass``) to
    why it is not the move asked for; a move not listed gets ``reason``. A
    move the engine refuses is answered by ``reasons`` if listed, else by the
    engine's own reason (``Round.why_illegal``).
    """

    id: str
    rule: str
    title: str
    text: str
    rules: Rules
    hands: tuple[tuple[str, ...], ...]
    boneyard: tuple[str, ...]
    leader: int
    history: tuple[str, ...]
    answers: tuple[str, ...]
    after: str
    reason: str
    reasons: tuple[tuple[str, str], ...] = ()
    seat: int = 0
    #: Where the lesson stands in the tutorial (``PARTS``): the rules a round needs,
    #: then the game's (the target, partners), then playing well.
    part: str = "basics"
    #: The match's scores before this round, when the lesson is about them (R8).
    scores: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.part not in PARTS:
            raise ValueError(f"lesson {self.id}: no part {self.part!r}; the parts: {PARTS}")

    @property
    def basic(self) -> bool:
        """A lesson on a rule (the terminal's lessons), not on playing well."""
        return self.part != "play"


def rest(*given: Sequence[str], first: Sequence[str] = ()) -> tuple[str, ...]:
    """The boneyard of a deal: ``first`` on top, then every tile not in ``given``."""
    used = {str(t) for hand in given for t in hand} | set(first)
    return (*first, *(str(t) for t in TILES if str(t) not in used))


def position(lesson: Lesson) -> Round:
    """The lesson's position, replayed from its deal through the engine."""
    rnd = Round.from_deal(lesson.rules, lesson.hands, lesson.boneyard, lesson.leader)
    for text in lesson.history:
        rnd.play(parse_move(text))
    if rnd.is_over or rnd.to_move != lesson.seat:
        raise ValueError(f"lesson {lesson.id}: the position is not the learner's turn")
    return rnd


def same_move(rnd: Round, move: Move) -> Move:
    """``move`` as the engine lists it: a play whose end does not matter goes left."""
    if isinstance(move, Play) and (rnd.ends is None or rnd.ends[0] == rnd.ends[1]):
        return Play(move.tile, "left")
    return move


def answers(lesson: Lesson, rnd: Round | None = None) -> list[Move]:
    """The moves the lesson accepts, in the engine's form."""
    rnd = position(lesson) if rnd is None else rnd
    return [same_move(rnd, parse_move(text)) for text in lesson.answers]


def check(lesson: Lesson, move_text: str) -> tuple[bool, str]:
    """Whether ``move_text`` is the move asked for, and the sentence to show.

    Raises ``ParseError`` for text that is not a move at all.
    """
    move = parse_move(move_text)
    rnd = position(lesson)
    wanted = same_move(rnd, move)
    if wanted in answers(lesson, rnd):
        return True, _(lesson.after)
    reasons = dict(lesson.reasons)
    listed = next(
        (r for text, r in reasons.items() if same_move(rnd, parse_move(text)) == wanted), None
    )
    if listed is not None:
        return False, _(listed)
    why = rnd.why_illegal(move)
    ends = rnd.ends
    if (
        why is not None
        and isinstance(move, Play)
        and ends is not None
        and move.tile in rnd.hands[lesson.seat]
        and not (move.tile.has(ends[0]) or move.tile.has(ends[1]))
    ):
        return False, _("{tile} does not fit: the open ends show {left} and {right}.").format(
            tile=tile_text(move.tile), left=ends[0], right=ends[1]
        )
    if why is not None:
        return False, why[:1].upper() + why[1:] + "."
    return False, _(lesson.reason)


def after(lesson: Lesson) -> Round:
    """The position after the lesson's (first) answer: for the tests' claims."""
    rnd = position(lesson)
    rnd.play(answers(lesson, rnd)[0])
    return rnd


__all__ = ["PARTS", "Lesson", "after", "answers", "check", "position", "rest", "same_move"]
