"""The tile tracker (issue 24, item 5): what one seat can know of the tiles.

It is read from the seat's view only (R9), through the reading the bots
make of it (``bots.knowledge.read``): the tiles on the train, the seat's
own hand, the tiles it has not seen (the other hands and the boneyard,
together: which is where, it cannot know), and for each other seat the
numbers it passed or drew on and has not laid since. Passing and drawing
are free choices (R4.4, R4.5), so those numbers are hints, never facts; the
page says so (DECISIONS P44).
"""

from __future__ import annotations

from typing import Any

from passing_game.bots.knowledge import read
from passing_game.tiles import TILES, Tile
from passing_game.views import View

#: The numbers on the tiles (a double-six set).
NUMBERS = range(7)


def _names(tiles: list[Tile]) -> list[str]:
    return [str(t) for t in sorted(tiles)]


def tracker(view: View) -> dict[str, Any]:
    """The tracker of ``view``'s seat, as the page draws it.

    ``numbers`` has, for each number, how many of the seven tiles that show it
    are on the train, in the seat's hand and unseen. ``short`` has, for each
    other seat, the numbers it passed or drew on and has not laid since.
    """
    know = read(view)
    played = sorted(view.played)
    hand = sorted(view.hand)
    unseen = sorted(view.unseen)
    numbers = [
        {
            "number": n,
            "played": sum(1 for t in played if n in (t.low, t.high)),
            "yours": sum(1 for t in hand if n in (t.low, t.high)),
            "unseen": sum(1 for t in unseen if n in (t.low, t.high)),
        }
        for n in NUMBERS
    ]
    short = [
        {"seat": seat, "numbers": [n for n in NUMBERS if know.short[seat][n]]}
        for seat in range(view.rules.players)
        if seat != view.seat
    ]
    assert len(played) + len(hand) + len(unseen) == len(TILES)
    return {
        "type": "tracker",
        "seat": view.seat,
        "played": _names(played),
        "hand": _names(hand),
        "unseen": _names(unseen),
        "numbers": numbers,
        "short": short,
    }


__all__ = ["tracker"]
