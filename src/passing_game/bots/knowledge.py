"""What a seat can infer from its ``View``: unseen tiles, evidence, estimates.

Everything here reads the view only (R9). The one soft inference is about
passes and draws: a seat that passed or drew while a number was open *may*
lack that number, but passing and drawing are free choices (R4.4, R4.5), so
this is evidence, never a fact. ``Evidence`` lists those moments; the
heuristic bot counts them and the samplers weight hidden deals by them.
"""

from __future__ import annotations

from dataclasses import dataclass

from passing_game.moves import Draw, Pass, Play
from passing_game.tiles import PIPS, SUIT_MASKS, mask_of, mask_pips
from passing_game.views import View


@dataclass(frozen=True, slots=True)
class Evidence:
    """Seat ``seat`` passed or drew while ``open_mask`` tiles would have fitted.

    ``later`` holds the tiles it laid afterwards (it held those at the time,
    unless it drew them), ``draws_after`` how many tiles it drew from then on,
    the draw of this very turn included (that tile was not in hand yet).
    """

    seat: int
    open_mask: int
    numbers: tuple[int, ...]
    drew: bool
    later: int
    draws_after: int


@dataclass(frozen=True, slots=True)
class PlayEvidence:
    """Seat ``seat`` laid ``tile`` (an index) while ``open_mask`` tiles fitted.

    Most players shed heavy tiles, so a light play hints that no heavier
    fitting tile was in hand. ``later`` and ``draws_after`` as in ``Evidence``.
    """

    seat: int
    open_mask: int
    tile: int
    later: int
    draws_after: int


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Facts and soft evidence one seat has about a round."""

    seat: int
    my_mask: int
    unseen: int
    evidence: tuple[Evidence, ...]
    plays: tuple[PlayEvidence, ...]
    #: ``short[seat][n]``: the seat passed or drew on an open ``n`` and has
    #: not laid an ``n`` since.
    short: tuple[tuple[bool, ...], ...]

    @property
    def unseen_count(self) -> int:
        return self.unseen.bit_count()

    def unseen_with(self, number: int) -> int:
        """How many unseen tiles show ``number``."""
        return (self.unseen & SUIT_MASKS[number]).bit_count()

    def mean_unseen_pips(self) -> float:
        n = self.unseen.bit_count()
        return mask_pips(self.unseen) / n if n else 0.0


def afterwards(
    turns: list[tuple[int, int, bool]], position: int, seat: int, laid: int
) -> tuple[int, int]:
    """What ``seat`` did from history ``position`` on, ``turns`` giving per
    position the seat, the tile laid (-1: none) and whether it drew: the
    tiles it laid, ``laid`` left out, as a mask (``Evidence.later``), and how
    many tiles it drew, the draw at ``position`` included (``draws_after``)."""
    later = 0
    draws_after = 0
    for s, t, drew in turns[position:]:
        if s == seat:
            if t >= 0 and t != laid:
                later |= 1 << t
            draws_after += drew
    return later, draws_after


def read(view: View) -> Knowledge:
    """Replay the public history of ``view`` and collect what it shows."""
    players = view.rules.players
    my_mask = mask_of(view.hand)
    played = mask_of(view.played)
    unseen = view.rules.tile_mask & ~my_mask & ~played
    ends: tuple[int, int] | None = None
    # per history position: (seat, tile laid or -1, drew?)
    turns: list[tuple[int, int, bool]] = []
    # (kind, seat, open mask, numbers, position, tile); kind "pass", "draw" or "play"
    moments: list[tuple[str, int, int, tuple[int, ...], int, int]] = []
    for position, turn in enumerate(view.history):
        move = turn.move
        mine = turn.seat == view.seat
        open_mask = -1 if ends is None else SUIT_MASKS[ends[0]] | SUIT_MASKS[ends[1]]
        numbers: tuple[int, ...] = () if ends is None else tuple(sorted(set(ends)))
        if isinstance(move, Play):
            tile = move.tile
            turns.append((turn.seat, tile.index, False))
            if not mine and ends is not None:
                moments.append(("play", turn.seat, open_mask, numbers, position, tile.index))
            if ends is None:
                ends = (tile.low, tile.high)
            elif move.end == "left":
                ends = (tile.other(ends[0]), ends[1])
            else:
                ends = (ends[0], tile.other(ends[1]))
            continue
        drew = isinstance(move, Draw)
        turns.append((turn.seat, -1, drew))
        if not mine and ends is not None and isinstance(move, (Pass, Draw)):
            moments.append(
                ("draw" if drew else "pass", turn.seat, open_mask, numbers, position, -1)
            )
    evidence = []
    plays = []
    for kind, seat, open_mask, numbers, position, laid in moments:
        later, draws_after = afterwards(turns, position, seat, laid)
        if kind == "play":
            plays.append(PlayEvidence(seat, open_mask, laid, later, draws_after))
        else:
            evidence.append(Evidence(seat, open_mask, numbers, kind == "draw", later, draws_after))
    short = [[False] * 7 for _ in range(players)]
    for ev in evidence:
        for n in ev.numbers:
            if not ev.later & SUIT_MASKS[n]:
                short[ev.seat][n] = True
    return Knowledge(
        seat=view.seat,
        my_mask=my_mask,
        unseen=unseen,
        evidence=tuple(evidence),
        plays=tuple(plays),
        short=tuple(tuple(row) for row in short),
    )


def estimated_pips(view: View, know: Knowledge) -> list[float]:
    """Each seat's expected count: its own exactly, others' from the unseen mean."""
    mean = know.mean_unseen_pips()
    out = []
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            out.append(float(sum(PIPS[t.index] for t in view.hand)))
        else:
            out.append(size * mean)
    return out


def side_estimates(view: View, know: Knowledge) -> list[float]:
    """``estimated_pips`` summed per side (partners add up, D6)."""
    per_seat = estimated_pips(view, know)
    if not view.rules.partnerships:
        return per_seat
    return [per_seat[0] + per_seat[2], per_seat[1] + per_seat[3]]
