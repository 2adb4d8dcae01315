"""Practice from any position (issue 25, item 3): the deal and the match, pure.

A practice round continues one position of a finished game's record: the
round it belongs to, after its first ``index`` moves, with the person at the
seat they were viewing and bots at the others. A table plays it as any other
game, from an explicit deal and a prefix of moves (``Setup``): its first game
is ``PracticeMatch`` (that deal, one round, then over), and the prefix is
stored as the table's first moves, so every process rebuilds the position
from the store as it rebuilds any table (``Match`` and ``play``).

**The hidden tiles.** ``"real"``: the round's own deal, as it was.
``"redeal"``: a deal of the tiles the seat has not seen (R9.2) dealt again at
random, consistent with everything the seat's view shows (``redeal``): its own
hand, the train, the history (who played what, who drew, who passed), every
hand's size and the boneyard's size are the same (R9.1), and the history is
still possible: once nothing can be drawn the round would have ended had no
hand fitted an end (R6.2), and with forced passing a pass there says the
passer had no other move (D2). Those checks are the view puzzles' own
(``passing_game.puzzles.deals.checks`` and ``consistent``); a deal is drawn
uniformly among the consistent ones by drawing uniformly among all deals of
the unseen tiles until one passes.

The deal found is of the position *now*; the table needs the round's first
deal, from which the prefix replays to it. Each other seat's first hand is
its hand now plus the tiles it laid, less those it drew; which of its tiles
it drew is hidden (R9.2) and changes nothing ahead, so the real round's draws
say it: a drawn tile it laid later stays its draw, a drawn tile it still
holds is one of its new hand's tiles. The first boneyard is every draw in
order, then the boneyard now. ``Setup.check`` replays the prefix on the new
deal and compares the seat's view with the real one, field by field.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from passing_game import words
from passing_game.i18n import _
from passing_game.match import Match
from passing_game.moves import Draw, Move, Play
from passing_game.puzzles import deals as view_deals
from passing_game.round import Deal, Round
from passing_game.rules import Rules
from passing_game.tiles import TILES, Tile, mask_of, tiles_of
from passing_game.views import View

#: A practice table's ``web_tables.origin``.
ORIGIN = "practice"
#: The two ways to deal the hidden tiles.
HIDDEN = ("real", "redeal")
#: Deals of the unseen tiles drawn before ``redeal`` enumerates the consistent ones.
TRIES = 4000
#: The consistent deals ``redeal`` may enumerate when drawing found none.
ENUMERATED = 20000


class PracticeError(ValueError):
    """A position that cannot be practised: ``code`` says why (``bad-step``,
    ``round-over``)."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code


@dataclass(frozen=True)
class Where:
    """A step of a record's replay: round ``number`` (from 1) after ``index`` moves."""

    number: int
    index: int


def locate(match: Match, step: object, rounds: int | None = None) -> Where:
    """The round and move of replay step ``step`` (the replay page's numbering:
    one step for each round's deal, then one for each move) among the first
    ``rounds`` rounds (the record's: ``load_record`` may have dealt one more);
    ``PracticeError`` past the end, or where the round is over (nothing is
    left to play)."""
    if isinstance(step, bool) or not isinstance(step, int) or step < 0:
        raise PracticeError("bad-step")
    left = step
    for number, rnd in enumerate(match.rounds[:rounds], start=1):
        moves = len(rnd.moves)
        if left <= moves:
            if left == moves and rnd.result is not None:
                raise PracticeError("round-over")
            return Where(number, left)
        left -= moves + 1
    raise PracticeError("bad-step")


def position(rules: Rules, deal: Deal, moves: Sequence[Move]) -> Round:
    """The round dealt ``deal`` after ``moves``."""
    rnd = Round.from_deal(rules, *deal)
    for move in moves:
        rnd.play(move)
    return rnd


def same_view(a: View, b: View) -> bool:
    """Whether two views show the same (the result aside: neither round is over)."""
    fields = (
        "rules",
        "seat",
        "hand",
        "train",
        "ends",
        "hand_sizes",
        "boneyard_size",
        "history",
        "to_move",
        "leader",
    )
    return all(getattr(a, name) == getattr(b, name) for name in fields)


@dataclass(frozen=True)
class Setup:
    """A practice round: its first deal, the moves already made, the person's seat."""

    rules: Rules
    deal: Deal
    moves: tuple[Move, ...]
    seat: int
    hidden: str

    def round(self) -> Round:
        return position(self.rules, self.deal, self.moves)

    def check(self, real: Round) -> None:
        """``AssertionError`` unless the seat sees exactly what it saw in ``real``."""
        if not same_view(self.round().view(self.seat), real.view(self.seat)):
            raise AssertionError("the practice deal does not show the seat's view")


def setup(
    match: Match,
    step: object,
    seat: int,
    hidden: str,
    rng: random.Random,
    *,
    rounds: int | None = None,
) -> Setup:
    """The practice round of ``match``'s replay step ``step`` for ``seat``
    (``rounds``: as for ``locate``)."""
    rules = match.rules
    if hidden not in HIDDEN:
        raise PracticeError("bad-hidden")
    where = locate(match, step, rounds)
    played = match.rounds[where.number - 1]
    moves = tuple(played.moves[: where.index])
    real = position(rules, played.deal, moves)
    deal = played.deal if hidden == "real" else redeal(real, seat, rng)
    found = Setup(rules, deal, moves, seat, hidden)
    found.check(real)
    return found


def _consistent_now(view: View, rng: random.Random) -> tuple[list[list[Tile]], list[Tile]]:
    """Hidden hands (one list per seat; the viewer's is its own) and a boneyard
    (next draw first), drawn uniformly among those consistent with ``view``."""
    unseen = sorted(view.unseen)
    seats = [s for s in range(view.rules.players) if s != view.seat]
    found = view_deals.checks(view)
    forced = view.rules.passing == "forced"
    own = mask_of(view.hand)
    for _try in range(TRIES):
        pool = unseen[:]
        rng.shuffle(pool)
        hands: list[list[Tile]] = [list(view.hand) for _seat in range(view.rules.players)]
        at = 0
        for s in seats:
            hands[s] = pool[at : at + view.hand_sizes[s]]
            at += view.hand_sizes[s]
        masks = [own if s == view.seat else mask_of(hands[s]) for s in range(len(hands))]
        if view_deals.consistent(masks, found, forced):
            return hands, pool[at:]
    # Very few deals agree (late in a blocked-looking round): take one of them at random.
    states = list(islice(view_deals.deals(view, rng), ENUMERATED))
    if not states:  # pragma: no cover - the real deal always agrees
        raise AssertionError("no deal agrees with the view")
    state = rng.choice(states)
    hands = [
        list(view.hand) if s == view.seat else list(tiles_of(state.hands[s]))
        for s in range(len(state.hands))
    ]
    bone = [TILES[code] for code in state.bone[state.bpos :]]
    return hands, bone


def redeal(real: Round, seat: int, rng: random.Random) -> Deal:
    """A first deal whose round, after ``real``'s moves, shows ``seat`` what ``real``
    shows it, its hidden tiles dealt again at random (see the module's notes)."""
    rules = real.rules
    view = real.view(seat)
    hands_now, bone_now = _consistent_now(view, rng)
    laid: list[set[Tile]] = [set() for _seat in range(rules.players)]
    for turn in real.history:
        if isinstance(turn.move, Play):
            laid[turn.seat].add(turn.move.tile)
    # Each draw's tile on the new deal, in the order of the draws.
    spare = [sorted(hands_now[s], key=lambda t: t.index) for s in range(rules.players)]
    for s in range(rules.players):
        rng.shuffle(spare[s])
    drawn: list[Tile] = []
    for turn in real.history:
        if not isinstance(turn.move, Draw):
            continue
        tile = turn.drawn
        assert tile is not None  # the round's own history names every drawn tile
        if turn.seat != seat and tile not in laid[turn.seat]:
            tile = spare[turn.seat].pop()  # held now: one of the new hand's tiles
        drawn.append(tile)
    first: list[list[Tile]] = []
    for s in range(rules.players):
        mine = {t for t, turn in zip(drawn, _draws(real), strict=True) if turn == s}
        hand = (set(hands_now[s]) | laid[s]) - mine
        first.append(sorted(hand, key=lambda t: t.index))
    return Round.from_deal(rules, first, [*drawn, *bone_now], real.leader).deal


def _draws(rnd: Round) -> list[int]:
    """The seat of each draw of ``rnd``, in order."""
    return [turn.seat for turn in rnd.history if isinstance(turn.move, Draw)]


class PracticeMatch(Match):
    """One round from an explicit deal, then over: its ``winner`` is the round's
    winning side (side 0 on a tie, which the table's words never call a win)."""

    def __init__(self, rules: Rules, seed: int, deal: Deal) -> None:
        super().__init__(rules, seed, deals=[deal])

    def _start_round(self) -> None:
        if self.results:
            won = self.results[-1].winner
            self.winner = 0 if won is None else won
            return
        super()._start_round()


def deal_json(deal: Deal) -> str:
    """A deal as the store keeps it (``web_games.deal``)."""
    return json.dumps(
        {
            "hands": [[str(t) for t in hand] for hand in deal.hands],
            "boneyard": [str(t) for t in deal.boneyard],
            "leader": deal.leader,
        },
        separators=(",", ":"),
    )


def parse_deal(rules: Rules, text: str) -> Deal:
    """``deal_json``'s text read back, checked by ``Round.from_deal``."""
    data = json.loads(text)
    return Round.from_deal(rules, data["hands"], data["boneyard"], data["leader"]).deal


def practice_match(rules: Rules, seed: int, deal: str | None) -> Match:
    """A practice table's game: its stored deal, one round (no deal: a plain one-round
    match of the seed's first deal, as a table holds before its game is loaded)."""
    if deal is None:
        return PracticeMatch(rules, seed, Round.new(rules, seed=seed).deal)
    return PracticeMatch(rules, seed, parse_deal(rules, deal))


def practice_record(text: str) -> str:
    """A practice game's record: no ``winner`` (the plain engine, which
    ``load_record`` replays with, would deal a next round) and ``practice``."""
    data: dict[str, Any] = json.loads(text)
    data.pop("winner", None)
    data["practice"] = True
    return json.dumps(data, indent=1, ensure_ascii=False)


def ending_text(match: Match, viewer: int | None, names: Sequence[str]) -> str:
    """The status line of a practice round that is over: who won it, or nobody."""
    result = match.results[-1] if match.results else None
    if result is None or result.winner is None:
        return _("The practice round is over: nobody scores.")
    seats = words.Seats(match.rules, tuple(names), human=viewer)
    if seats.side_is_you(result.winner):
        return _("The practice round is over: you win it.")
    return _("The practice round is over: {side} wins it.").format(
        side=seats.side_label(result.winner, in_sentence=True)
    )


__all__ = [
    "HIDDEN",
    "ORIGIN",
    "PracticeError",
    "PracticeMatch",
    "Setup",
    "Where",
    "deal_json",
    "ending_text",
    "locate",
    "parse_deal",
    "position",
    "practice_match",
    "practice_record",
    "redeal",
    "same_view",
    "setup",
]
