"""Drawing the game as text: tiles, the train, a hand, the score pad.

Every function returns lines (``rich.text.Text``) and never prints, so the
live game and the replayer share one look and tests can read ``.plain``.
Styles are only hints: without a colour terminal the same characters still
say everything (open ends are marked with arrows, playable tiles with marks).
The sentences themselves are ``passing_game.words``', which the web says too;
this module only lays them out and colours them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from passing_game import l10n
from passing_game.i18n import _
from passing_game.round import RoundResult
from passing_game.tiles import Placed, Tile
from passing_game.words import (
    Seats,
    count_pips,
    count_tiles,
    number,
    reason_text,
    reason_word,
    scoring_lines,
    tile_text,
    tiles_text,
)

l10n.install()  # the words' numbers and lists, as the language writes them

# Styles, named by what they mean so the look is changed in one place.
S_END = "bold yellow"
S_DOUBLE = "cyan"
S_PLAYABLE = "bold green"
S_BLOCKED = "dim"
S_NEW = "bold underline"
S_HEAD = "bold"
S_YOU = "bold magenta"


@dataclass(frozen=True)
class Glyphs:
    """The characters used for drawing; ``ASCII`` when the output can't do Unicode."""

    top: str
    side: str
    middle: str
    bottom: str
    left_arrow: str
    right_arrow: str
    fits_left: str
    fits_right: str
    fits_both: str
    fits_any: str
    more: str
    rule: str
    dot: str
    minus: str


UNICODE = Glyphs(
    top="┌─┐",
    side="│",
    middle="├─┤",
    bottom="└─┘",
    left_arrow="◀",
    right_arrow="▶",
    fits_left="◀",
    fits_right="▶",
    fits_both="◀▶",
    fits_any="✓",
    more="…",
    rule="─",
    dot="·",
    minus="−",
)

ASCII = Glyphs(
    top="+-+",
    side="|",
    middle="+-+",
    bottom="+-+",
    left_arrow="<",
    right_arrow=">",
    fits_left="<",
    fits_right=">",
    fits_both="<>",
    fits_any="*",
    more="...",
    rule="-",
    dot="/",
    minus="-",
)


def make_console() -> Console:
    """The console the game prints to: colour and wrapping only on a terminal.

    Piped output is left unwrapped so paths and long lines stay whole for
    whatever reads it; rich already drops colour codes there.
    """
    console = Console(highlight=False, markup=False, emoji=False)
    if not console.is_terminal:
        console.soft_wrap = True
    return console


def glyphs_for(encoding: str | None) -> Glyphs:
    """Unicode drawing if ``encoding`` can write it, else plain ASCII."""
    sample = UNICODE.top + UNICODE.middle + UNICODE.bottom + UNICODE.fits_both
    sample += UNICODE.fits_any + UNICODE.more + UNICODE.dot + UNICODE.minus
    try:
        sample.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return ASCII
    return UNICODE


#: A hyphen written as the sign of a number: "-4,0", "(-3", not "3-5" nor "hand_size-1".
_NEGATIVE = re.compile(r"(?<![\w-])-(?=\d)")


def with_minus(text: str, g: Glyphs) -> str:
    """``text`` with its negative numbers signed by ``g.minus``, as the round summaries' sums.

    Babel writes a negative decimal with a hyphen (``-4,0``); on a console that
    can show it, the terminal writes the minus sign (``−4,0``) everywhere.
    """
    return _NEGATIVE.sub(g.minus, text) if g.minus != "-" else text


# -- headings -----------------------------------------------------------


def heading(title: str, g: Glyphs, width: int) -> Text:
    """``── Round 2 ─────────``: a rule with a title, to separate sections."""
    lead = g.rule * 2 + " "
    body = lead + title + " "
    fill = max(3, width - len(body))
    return Text(body + g.rule * fill, style=S_HEAD)


# -- the train ----------------------------------------------------------


def _piece_rows(placed: Placed, g: Glyphs) -> tuple[list[str], bool]:
    """Five rows for one tile: a double stands crosswise across the line (R5.1)."""
    if placed.left == placed.right:
        half = f"{g.side}{placed.left}{g.side}"
        return [g.top, half, g.middle, half, g.bottom], True
    text = tile_text(placed)
    blank = " " * len(text)
    return [blank, blank, text, blank, blank], False


def train_lines(
    train: Sequence[Placed],
    ends: tuple[int, int] | None,
    g: Glyphs,
    width: int = 80,
    indent: int = 2,
) -> list[Text]:
    """The train left to right, open ends marked, wrapped to ``width``.

    Normal tiles lie on the middle row; a double is drawn upright across it
    so it reads as crosswise. Rows above and below are printed only when a
    piece of the train holds a double.
    """
    if not train or ends is None:
        return [Text(" " * indent + _("(the train is empty: any tile may lead)"), style="dim")]
    left_mark = f"{ends[0]} {g.left_arrow} "
    right_mark = f" {g.right_arrow} {ends[1]}"
    pieces = [_piece_rows(p, g) for p in train]
    room = max(20, width - indent)

    chunks: list[list[tuple[list[str], bool]]] = [[]]
    used = len(left_mark)
    for index, piece in enumerate(pieces):
        size = len(piece[0][0])
        tail = len(right_mark) if index == len(pieces) - 1 else len(g.more) + 1
        if chunks[-1] and used + size + tail > room:
            chunks.append([])
            used = len(g.more) + 1
        chunks[-1].append(piece)
        used += size

    lines: list[Text] = []
    for index, chunk in enumerate(chunks):
        first, last = index == 0, index == len(chunks) - 1
        has_double = any(is_double for _rows, is_double in chunk)
        rows = [Text(" " * indent) for _row in range(5)]
        start = left_mark if first else g.more + " "
        for r, row in enumerate(rows):
            if r == 2:
                if first:
                    row.append(f"{ends[0]}", style=S_END)
                    row.append(f" {g.left_arrow} ")
                else:
                    row.append(start, style="dim")
            else:
                row.append(" " * len(start))
        for piece_rows, is_double in chunk:
            for r, row in enumerate(rows):
                row.append(piece_rows[r], style=S_DOUBLE if is_double else "")
        if last:
            rows[2].append(f" {g.right_arrow} ")
            rows[2].append(f"{ends[1]}", style=S_END)
        else:
            rows[2].append(" " + g.more, style="dim")
        for row in rows:
            row.rstrip()
        lines.extend(rows if has_double else [rows[2]])
    return lines


# -- a hand -------------------------------------------------------------


def fits_mark(tile: Tile, ends: tuple[int, int] | None, g: Glyphs) -> str:
    """Which ends a tile fits: ◀, ▶, ◀▶, ✓ on an empty train, blank if none."""
    if ends is None:
        return g.fits_any
    left, right = tile.has(ends[0]), tile.has(ends[1])
    if left and right:
        return g.fits_both
    if left:
        return g.fits_left
    if right:
        return g.fits_right
    return ""


def hand_lines(
    hand: Sequence[Tile],
    ends: tuple[int, int] | None,
    g: Glyphs,
    width: int = 80,
    *,
    new: Tile | None = None,
    marks: bool = True,
    indent: int = 2,
) -> list[Text]:
    """The hand numbered 1..n, with a row showing which ends each tile fits.

    The numbers are what a player types, so they sit right above the tiles.
    """
    if not hand:
        return [Text(" " * indent + _("(no tiles)"), style="dim")]
    cell = 7
    per_line = max(1, (width - indent) // cell)
    lines: list[Text] = []
    for start in range(0, len(hand), per_line):
        group = hand[start : start + per_line]
        numbers, tiles, fits = Text(" " * indent), Text(" " * indent), Text(" " * indent)
        for offset, tile in enumerate(group):
            mark = fits_mark(tile, ends, g) if marks else ""
            playable = bool(mark)
            style = S_PLAYABLE if playable and marks else (S_BLOCKED if marks else "")
            if tile is new:
                style = f"{style} underline".strip()
            numbers.append(str(start + offset + 1).center(cell), style="bold" if playable else "")
            tiles.append(tile_text(tile).center(cell), style=style)
            fits.append(mark.center(cell), style=S_PLAYABLE)
        lines.append(numbers)
        lines.append(tiles)
        if marks:
            lines.append(fits)
    for line in lines:
        line.rstrip()
    return lines


# -- the state of play ---------------------------------------------------


def counts_line(hand_sizes: Sequence[int], seats: Seats, g: Glyphs) -> Text:
    """Every seat's number of tiles: public knowledge (R9.1)."""
    line = Text(_("Tiles in hand:") + " ")
    for seat, size in enumerate(hand_sizes):
        if seat:
            line.append(f" {g.dot} ")
        style = S_YOU if seats.is_you(seat) else ""
        line.append(
            _("{player} {tiles}").format(player=seats.label(seat), tiles=count_tiles(size)),
            style=style,
        )
    return line


def scores_line(scores: Sequence[int], seats: Seats, target: int, g: Glyphs) -> Text:
    line = Text(_("Scores:") + " ")
    for side, points in enumerate(scores):
        if side:
            line.append(f" {g.dot} ")
        style = S_YOU if seats.side_is_you(side) else ""
        line.append(
            _("{side} {points}").format(side=seats.side_label(side), points=number(points)),
            style=style,
        )
    line.append("   ")
    line.append(_("(first to {target} wins)").format(target=number(target)), style="dim")
    return line


# -- the end of a round --------------------------------------------------


def hands_lines(result: RoundResult, seats: Seats, indent: int = 2) -> list[Text]:
    """Every hand revealed with its count: the round is over, nothing is hidden."""
    labels = [seats.label(s) for s in range(len(result.hands))]
    width = max(len(label) for label in labels) + 1
    shown = [tiles_text(hand) if hand else _("(empty)") for hand in result.hands]
    tiles_width = max(len(text) for text in shown)
    lines = []
    for seat in range(len(result.hands)):
        line = Text(" " * indent)
        line.append(
            (labels[seat] + ":").ljust(width + 1), style=S_YOU if seats.is_you(seat) else ""
        )
        line.append(shown[seat].ljust(tiles_width))
        line.append("  = " + count_pips(result.pips[seat]), style="bold")
        lines.append(line)
    return lines


def round_summary(
    result: RoundResult,
    number: int,
    seats: Seats,
    g: Glyphs,
    width: int = 80,
) -> list[Text]:
    """The whole end-of-round report: reason, hands, locked tiles, scoring."""
    lines = [heading(_("Round {n} is over").format(n=number), g, width)]
    lines.append(Text(reason_text(result, seats), style=S_HEAD))
    lines.append(Text(_("Hands revealed:")))
    lines.extend(hands_lines(result, seats))
    lines.append(
        Text(
            _("Locked in the boneyard, never drawn: {tiles}").format(
                tiles=tiles_text(result.locked)
            )
        )
    )
    lines.extend(Text(line) for line in scoring_lines(result, seats, dot=g.dot, minus=g.minus))
    return lines


def score_pad(
    results: Sequence[RoundResult],
    seats: Seats,
    target: int,
    g: Glyphs,
) -> list[Text]:
    """Points per round and totals, one column per side, like a paper pad."""
    sides = seats.rules.sides
    headers = [_("Round")] + [seats.side_short(s) for s in range(sides)] + [_("Ending")]
    rows: list[list[str]] = []
    totals = [0] * sides
    for index, result in enumerate(results, start=1):
        points = result.points_by_side()
        for side in range(sides):
            totals[side] += points[side]
        ending = reason_word(result.reason)
        if result.winner is None:
            ending = _("{ending}, tie").format(ending=ending)
        rows.append(
            [str(index)] + [number(p) if p else g.dot for p in points] + [ending],
        )
    total_row = [_("Total")] + [number(t) for t in totals] + [""]
    widths = [max(len(r[i]) for r in [headers, *rows, total_row]) for i in range(len(headers))]

    def row_text(cells: list[str], style: str = "") -> Text:
        parts = [cells[0].ljust(widths[0])]
        parts += [cells[i].rjust(widths[i]) for i in range(1, sides + 1)]
        parts.append(cells[-1].ljust(widths[-1]))
        return Text("  " + "  ".join(parts).rstrip(), style=style)

    lines = [
        Text(_("Score pad (first to {target} wins)").format(target=number(target)), style=S_HEAD)
    ]
    lines.append(row_text(headers, "bold"))
    lines.append(Text("  " + g.rule * (sum(widths) + 2 * (len(widths) - 1))))
    lines.extend(row_text(r) for r in rows)
    lines.append(Text("  " + g.rule * (sum(widths) + 2 * (len(widths) - 1))))
    lines.append(row_text(total_row, "bold"))
    return lines
