"""One-line reasons for a bot's move, for the terminal game's hint key.

``describe`` turns a move (and, for the search bots, what the search found)
into a short sentence a player can act on, e.g. "pass: your 9 pips are
likely lowest". Every sentence goes through ``passing_game.i18n._`` with
``str.format`` placeholders, so translations can reorder the parts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from passing_game.bots.base import SeededBot
from passing_game.bots.knowledge import Knowledge, read, side_estimates
from passing_game.i18n import _, format_number, ngettext
from passing_game.moves import Draw, Move, Pass, Play
from passing_game.tiles import SUIT_MASKS, pip_count
from passing_game.views import View


@dataclass(frozen=True)
class Advice:
    """A chosen move and what a search thought of the moves it tried.

    ``values`` maps moves to their mean worth in points for the mover's side;
    ``samples`` is how many deals or iterations the search used.
    """

    move: Move
    values: dict[Move, float] = field(default_factory=dict)
    samples: int = 0


class SearchBot(SeededBot):
    """A bot whose search gives ``Advice``: its move and its hint both come from it."""

    def advise(self, view: View) -> Advice:
        raise NotImplementedError

    def choose(self, view: View) -> Move:
        return self.advise(view).move

    def explain(self, view: View) -> tuple[Move, str]:
        advice = self.advise(view)
        return advice.move, describe(view, advice)


def likely_lowest(view: View, know: Knowledge | None = None, margin: float = 0.85) -> bool:
    """Whether the seat's side probably has the lowest count (R7.2).

    Others are estimated at the mean pips of the unseen tiles per tile held;
    "probably" means below ``margin`` times the lowest such estimate.
    """
    know = know or read(view)
    est = side_estimates(view, know)
    mine = view.rules.side_of(view.seat)
    others = [v for side, v in enumerate(est) if side != mine]
    return est[mine] < margin * min(others)


def ends_after(view: View, move: Play) -> tuple[int, int]:
    """The open ends once ``move`` is laid."""
    tile = move.tile
    if view.ends is None:
        return tile.low, tile.high
    left, right = view.ends
    if move.end == "left":
        return tile.other(left), right
    return left, tile.other(right)


def describe(view: View, advice: Advice) -> str:
    """A one-line reason for ``advice.move``, with the search's estimate if any."""
    reason = reason_for(view, advice.move)
    value = advice.values.get(advice.move)
    if value is None or advice.samples == 0:
        return reason
    samples = ngettext("{n} simulation", "{n} simulations", advice.samples).format(
        n=format_number(advice.samples)
    )
    return _("{reason} Estimate: {value} points ({samples}).").format(
        reason=reason, value=format_number(value, 1, sign=True), samples=samples
    )


def reason_for(view: View, move: Move) -> str:
    """Why ``move`` is sensible here, in words (no search needed)."""
    know = read(view)
    pips = pip_count(view.hand)
    moves = view.legal_moves()
    can_play = any(isinstance(m, Play) for m in moves)
    if isinstance(move, Pass):
        if not can_play and not view.can_draw:
            return _("Nothing fits and the boneyard is closed.")
        if likely_lowest(view, know):
            if view.passes_in_row == view.rules.players - 1:
                return ngettext(
                    "This ends the round, and your {pips} pip is likely the lowest.",
                    "This ends the round, and your {pips} pips are likely the lowest.",
                    pips,
                ).format(pips=pips)
            return ngettext(
                "Your {pips} pip is likely the lowest.",
                "Your {pips} pips are likely the lowest.",
                pips,
            ).format(pips=pips)
        if not can_play:
            return ngettext(
                "Drawing would only add to your {pips} pip.",
                "Drawing would only add to your {pips} pips.",
                pips,
            ).format(pips=pips)
        return _("Every play here helps the others more.")
    if isinstance(move, Draw):
        if can_play:
            return _("None of your plays leaves a good position.")
        return ngettext(
            "Nothing fits, and your {pips} pip is probably not the lowest.",
            "Nothing fits, and your {pips} pips are probably not the lowest.",
            pips,
        ).format(pips=pips)
    if isinstance(move, Play):
        tile = move.tile
        if len(view.hand) == 1:
            return _("Your last tile ends the round.")
        left, right = ends_after(view, move)
        open_numbers = sorted({left, right})
        rest = [t for t in view.hand if t is not tile]
        others_can = (know.unseen & (SUIT_MASKS[left] | SUIT_MASKS[right])).bit_count()
        if view.ends is not None and others_can == 0:
            return _("Nobody else can match {numbers}.").format(
                numbers=" / ".join(map(str, open_numbers))
            )
        short_seats = [
            seat
            for seat in range(view.rules.players)
            if view.rules.side_of(seat) != view.rules.side_of(view.seat)
            and all(know.short[seat][n] for n in open_numbers)
        ]
        if view.ends is not None and short_seats:
            return _("It leaves {numbers} open, which the others seem to lack.").format(
                numbers=" / ".join(map(str, open_numbers))
            )
        if tile.pips >= 8:
            return ngettext(
                "You get rid of a heavy tile ({pips} pip).",
                "You get rid of a heavy tile ({pips} pips).",
                tile.pips,
            ).format(pips=tile.pips)
        if tile.is_double:
            return _("You get rid of a double while it fits.")
        if any(t.has(left) or t.has(right) for t in rest):
            return _("You can follow on the ends it leaves.")
        return ngettext(
            "You shed {pips} pip and keep your numbers varied.",
            "You shed {pips} pips and keep your numbers varied.",
            tile.pips,
        ).format(pips=tile.pips)
    return str(move)
