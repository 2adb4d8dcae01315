"""The words a player reads about tiles, moves, turns, round ends and scores.

Both apps say these sentences: the terminal game and replayer (dressed in
colour by ``terminal.render``) and the web (its log, round summaries,
replays and hints). So each is written here once, below both apps, as
plain strings, and both read the same catalogs. Only the standard library
and the core: numbers and lists go through ``passing_game.i18n``'s
formatters, which an app fills with Babel's (``passing_game.l10n``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from passing_game.i18n import _, format_list, format_number, ngettext, pgettext
from passing_game.match import Match
from passing_game.moves import Draw, Move, Pass, Play
from passing_game.round import RoundResult
from passing_game.rules import LOCKED_TILES, Rules
from passing_game.tiles import Placed, Tile
from passing_game.views import Turn

#: The dot between items and the minus sign of a sum, where the output can show them.
DOT = "·"
MINUS = "−"


def number(value: int) -> str:
    """A whole number as the current language writes it."""
    return format_number(value)


def tile_text(tile: Tile | Placed) -> str:
    """A domino as ``[3|5]``; a ``Placed`` tile keeps its orientation."""
    if isinstance(tile, Tile):
        return f"[{tile.low}|{tile.high}]"
    return f"[{tile.left}|{tile.right}]"


def tiles_text(tiles: Sequence[Tile | Placed]) -> str:
    """Several tiles side by side, or a dash for none."""
    return " ".join(tile_text(t) for t in tiles) if tiles else _("(none)")


def count_tiles(n: int) -> str:
    return ngettext("{n} tile", "{n} tiles", n).format(n=number(n))


def count_pips(n: int) -> str:
    return ngettext("{n} pip", "{n} pips", n).format(n=number(n))


def count_points(n: int) -> str:
    return ngettext("{n} point", "{n} points", n).format(n=number(n))


# -- who is who ---------------------------------------------------------


@dataclass(frozen=True)
class Seats:
    """How seats and sides are named; ``human`` is the seat the reader plays."""

    rules: Rules
    names: tuple[str, ...] | None = None
    human: int | None = None

    def is_you(self, seat: int) -> bool:
        return seat == self.human

    # Seats are numbered from 1 for people (seat index 0 is "seat 1").

    def label(self, seat: int, *, in_sentence: bool = False) -> str:
        """``You`` or ``greedy (seat 2)``: who did something, first in a sentence.

        ``in_sentence`` gives the form for anywhere after a sentence's start
        (after a colon, in a list): ``you``, where Galician and Croatian
        also write ``posto 2`` / ``mjesto 2`` in lowercase.
        """
        if seat == self.human:
            if in_sentence:
                # TRANSLATORS: the reader inside a sentence, e.g. last in "Ana (seat 2) and you".
                return pgettext("inside a sentence", "you")
            return _("You")
        if self.names is None:
            if in_sentence:
                # TRANSLATORS: a seat inside a sentence (in a list, after a colon).
                return pgettext("inside a sentence", "Seat {seat}").format(seat=seat + 1)
            return _("Seat {seat}").format(seat=seat + 1)
        return _("{name} (seat {seat})").format(name=self.names[seat], seat=seat + 1)

    def short(self, seat: int) -> str:
        """A compact name for table headings: the name alone where it is unique."""
        if seat == self.human:
            return _("You")
        if self.names is None:
            return _("Seat {seat}").format(seat=seat + 1)
        if self.names.count(self.names[seat]) == 1:
            return self.names[seat]
        return self.label(seat)

    def side_seats(self, side: int) -> tuple[int, ...]:
        if self.rules.partnerships:
            return (side, side + 2)
        return (side,)

    def side_is_you(self, side: int) -> bool:
        return self.human is not None and self.rules.side_of(self.human) == side

    def side_label(self, side: int, *, in_sentence: bool = False) -> str:
        """A side in a sentence: a seat's label, or a team named by its seats.

        ``in_sentence`` as for ``label``: the form after a sentence's start.
        """
        if not self.rules.partnerships:
            return self.label(side, in_sentence=in_sentence)
        a, b = self.side_seats(side)
        if self.side_is_you(side) and in_sentence:
            # TRANSLATORS: the reader's team inside a sentence (in a list, after a colon).
            text = pgettext("inside a sentence", "Your team (seats {a}+{b})")
        elif self.side_is_you(side):
            text = _("Your team (seats {a}+{b})")
        elif in_sentence:
            # TRANSLATORS: a team inside a sentence (in a list, after a colon).
            text = pgettext("inside a sentence", "Team {a}+{b}")
        else:
            text = _("Team {a}+{b}")
        return text.format(a=a + 1, b=b + 1)

    def side_short(self, side: int) -> str:
        if not self.rules.partnerships:
            return self.short(side)
        a, b = self.side_seats(side)
        if self.side_is_you(side):
            return _("Your team")
        return _("Team {a}+{b}").format(a=a + 1, b=b + 1)


# -- the table ----------------------------------------------------------


def ends_line(ends: tuple[int, int] | None) -> str:
    """The open ends in words, for players who skim past the drawing."""
    if ends is None:
        return _("Open ends: none yet; the first tile sets both.")
    return _("Open ends: left {left}, right {right}.").format(left=ends[0], right=ends[1])


def boneyard_line(size: int) -> str:
    """The boneyard's size, with how many of its tiles can still be drawn (R2.4)."""
    drawable = max(0, size - LOCKED_TILES)
    if drawable == 0:
        return ngettext(
            "Boneyard: {n} tile, locked: no more drawing this round.",
            "Boneyard: {n} tiles, all locked: no more drawing this round.",
            size,
        ).format(n=size)
    # Two sentences, each with its own count, so each agrees with its number.
    tiles = ngettext("Boneyard: {n} tile.", "Boneyard: {n} tiles.", size).format(n=size)
    draw = ngettext(
        "{n} can be drawn; the last 2 are locked.",
        "{n} can be drawn; the last 2 are locked.",
        drawable,
    ).format(n=drawable)
    return f"{tiles} {draw}"


def leader_text(seats: Seats, seat: int) -> str:
    """Who leads a round, before its first move (a replay's deal)."""
    return _("{player} leads.").format(player=seats.label(seat))


# -- moves and turns ----------------------------------------------------


def needs_end(tile: Tile, ends: tuple[int, int] | None) -> bool:
    """Whether a tile fits both ends with different results, so the end must be said."""
    return ends is not None and ends[0] != ends[1] and tile.has(ends[0]) and tile.has(ends[1])


def _move_texts(decided: bool) -> dict[str, str]:
    """The phrases for a move: advice (a hint) or, ``decided``, a decision made.

    English says both alike; other languages may not (an imperative or an
    infinitive for advice, an infinitive or a noun for what was played).
    """
    if decided:
        return {
            # TRANSLATORS: a decision made, after "Played", "The expert's choice" or "Decision:".
            "left": pgettext("a decision made", "play {tile} on the left"),
            # TRANSLATORS: a decision made, after "Played", "The expert's choice" or "Decision:".
            "right": pgettext("a decision made", "play {tile} on the right"),
            # TRANSLATORS: a decision made, after "Played", "The expert's choice" or "Decision:".
            "play": pgettext("a decision made", "play {tile}"),
            # TRANSLATORS: a decision made: the round's first tile; {tile} is like [3|5].
            "lead": pgettext("a decision made", "lead {tile}"),
            # TRANSLATORS: a decision made, after "Played", "The expert's choice" or "Decision:".
            "draw": pgettext("a decision made", "draw a tile"),
            # TRANSLATORS: a decision made, after "Played", "The expert's choice" or "Decision:".
            "pass": pgettext("a decision made", "pass"),
        }
    return {
        # TRANSLATORS: a move as advice, after "Hint:"; {tile} is like [3|5].
        "left": _("play {tile} on the left"),
        # TRANSLATORS: a move as advice, after "Hint:"; {tile} is like [3|5].
        "right": _("play {tile} on the right"),
        # TRANSLATORS: a move as advice, after "Hint:"; {tile} is like [3|5].
        "play": _("play {tile}"),
        # TRANSLATORS: a move as advice, after "Hint:": the round's first tile.
        "lead": _("lead {tile}"),
        # TRANSLATORS: a move as advice, after "Hint:".
        "draw": _("draw a tile"),
        # TRANSLATORS: a move as advice, after "Hint:"; also a word the player may type.
        "pass": _("pass"),
    }


def move_words(move: Move, *, decided: bool = False) -> str:
    """A move as a player reads it, its end always named: ``play [3|5] on the right``.

    Worded as advice (a hint), or with ``decided`` as a decision already made
    (the analysis' "Played" and "The expert's choice").
    """
    texts = _move_texts(decided)
    if isinstance(move, Play):
        return texts[move.end].format(tile=tile_text(move.tile))
    if isinstance(move, Draw):
        return texts["draw"]
    return texts["pass"]


def advice_words(move: Move, ends: tuple[int, int] | None, *, decided: bool = False) -> str:
    """A move at these open ends: the end is named only when it matters (R4.2).

    Advice, or a decision made with ``decided`` (as for ``move_words``).
    """
    if isinstance(move, Play):
        tile = tile_text(move.tile)
        if ends is None:
            return _move_texts(decided)["lead"].format(tile=tile)
        if not needs_end(move.tile, ends):
            return _move_texts(decided)["play"].format(tile=tile)
    return move_words(move, decided=decided)


def describe_turn(turn: Turn, seats: Seats, led: bool = False, show_drawn: bool = False) -> str:
    """One action in words: ``greedy (seat 1) played [5|3] on the right.``

    A play's tile is named as it was laid (``turn.placed``); ``led`` says it
    was the first tile of the train. A drawn tile is named only to the drawer
    or when ``show_drawn`` (a replay, where every tile is open).
    """
    move = turn.move
    you = seats.is_you(turn.seat)
    who = seats.label(turn.seat)
    if isinstance(move, Play):
        tile = tile_text(turn.placed if turn.placed is not None else move.tile)
        if led:
            text = _("You led {tile}.") if you else _("{player} led {tile}.")
        elif move.end == "left":
            text = (
                _("You played {tile} on the left.")
                if you
                else _("{player} played {tile} on the left.")
            )
        else:
            text = (
                _("You played {tile} on the right.")
                if you
                else _("{player} played {tile} on the right.")
            )
        return text.format(player=who, tile=tile)
    if isinstance(move, Draw):
        if turn.drawn is not None and (you or show_drawn):
            text = _("You drew {tile}.") if you else _("{player} drew {tile}.")
            return text.format(player=who, tile=tile_text(turn.drawn))
        text = _("You drew a tile.") if you else _("{player} drew a tile.")
        return text.format(player=who)
    if isinstance(move, Pass):
        return (_("You passed.") if you else _("{player} passed.")).format(player=who)
    return str(move)


def auto_mark(kind: str | None) -> str:
    """Who really made a move a bot made for a person (a record's marks), or nothing."""
    if kind == "timeout":
        return _("(auto-played: time ran out)")
    if kind == "stand-in":
        return _("(played by a stand-in)")
    return ""


# -- the end of a round --------------------------------------------------


def reason_text(result: RoundResult, seats: Seats) -> str:
    """Why the round ended (R6.1, R6.2, D3), in a sentence."""
    if result.reason == "domino":
        seat = next((s for s, hand in enumerate(result.hands) if not hand), None)
        if seat is not None and seats.is_you(seat):
            return _("Domino! You played your last tile.")
        who = seats.label(seat) if seat is not None else "?"
        return _("Domino! {player} played their last tile.").format(player=who)
    if result.reason == "block":
        return _("Blocked: no tile in any hand fits either open end, and none can be drawn.")
    return _("Everyone passed in turn: the round ends and is scored like a block.")


def reason_word(reason: str) -> str:
    words = {"domino": _("domino"), "block": _("block"), "all-pass": _("all pass")}
    return words.get(reason, reason)


def scoring_lines(
    result: RoundResult, seats: Seats, *, dot: str = DOT, minus: str = MINUS
) -> list[str]:
    """Who won the round and how the points were reckoned (R7, D4, D6, D11)."""
    rules = seats.rules
    counts = result.side_pips
    lines: list[str] = []
    if rules.partnerships:
        parts = []
        for side, count in enumerate(counts):
            a, b = seats.side_seats(side)
            parts.append(
                _("{side}: {a} + {b} = {total}").format(
                    side=seats.side_label(side, in_sentence=True),
                    a=result.pips[a],
                    b=result.pips[b],
                    total=count,
                )
            )
        lines.append(_("Team counts: {counts}.").format(counts=f" {dot} ".join(parts)))
    low = min(counts)
    if result.winner is None:
        tied = [s for s, c in enumerate(counts) if c == low]
        you = seats.human
        with_you = not rules.partnerships and you is not None and you in tied
        if with_you:  # the reader last: "Ana (seat 2) and you"
            tied = [s for s in tied if s != you] + [s for s in tied if s == you]
        # The sentence starts with the first side; the others take their in-sentence form.
        sides = format_list([seats.side_label(s, in_sentence=i > 0) for i, s in enumerate(tied)])
        if with_you:
            # TRANSLATORS: {sides} lists the others who tie and last "you" (the reader),
            # e.g. "Ana (seat 2) and you": the verb agrees with all of them, "you" included.
            text = pgettext(
                "the reader among them",
                "{sides} tie for the lowest count ({low}): nobody scores this round.",
            )
        else:
            text = _("{sides} tie for the lowest count ({low}): nobody scores this round.")
        lines.append(text.format(sides=sides, low=number(low)))
        return lines
    winner = result.winner
    own = counts[winner]
    others = [c for s, c in enumerate(counts) if s != winner]
    you = seats.side_is_you(winner)
    who = seats.side_label(winner)
    lines.append(
        (
            _("You have the lowest count ({low}) and win the round.")
            if you and not rules.partnerships
            else _("{side} has the lowest count ({low}) and wins the round.")
        ).format(side=who, low=number(own))
    )
    if rules.scoring == "pairwise" and len(counts) > 2:
        rule = _("Pairwise scoring: the winner scores the difference to each other count.")
        sum_text = " + ".join(f"({c} {minus} {own})" for c in others)
    elif len(counts) == 2:
        rule = _("The winner scores the other side's count minus their own.")
        sum_text = f"{others[0]} {minus} {own}"
    else:
        rule = _("The winner scores the sum of the others' counts minus their own.")
        sum_text = f"{' + '.join(str(c) for c in others)} {minus} {own}"
    lines.append(rule)
    lines.append(
        (
            _("{sum} = {points}. You score {points}.")
            if you and not rules.partnerships
            else _("{sum} = {points}. {side} scores {points}.")
        ).format(sum=sum_text, points=number(result.points), side=who)
    )
    return lines


# -- the end of a match --------------------------------------------------


def match_won(seats: Seats, side: int, points: int) -> str:
    """The match's winner in a sentence, cheering when it is the reader's side."""
    if seats.side_is_you(side) and not seats.rules.partnerships:
        text = ngettext(
            "You win the match with {n} point! Well played.",
            "You win the match with {n} points! Well played.",
            points,
        )
    elif seats.side_is_you(side):
        text = ngettext(
            "{side} wins the match with {n} point! Well played.",
            "{side} wins the match with {n} points! Well played.",
            points,
        )
    else:
        text = ngettext(
            "{side} wins the match with {n} point.",
            "{side} wins the match with {n} points.",
            points,
        )
    return text.format(side=seats.side_label(side), n=number(points))


def match_ending(match: Match, seats: Seats) -> str:
    """How a record's match ends: who resigned, who won, or that the record stops early."""
    scores = _(", ").join(
        f"{seats.side_label(s, in_sentence=True)} {number(p)}" for s, p in enumerate(match.scores)
    )
    winner = match.winner
    if match.resigned is not None and winner is not None:
        return _("{player} resigned; {side} wins the match. Scores: {scores}.").format(
            player=seats.label(match.resigned),
            side=seats.side_label(winner, in_sentence=True),
            scores=scores,
        )
    if winner is not None:
        return match_won(seats, winner, match.scores[winner])
    return _("The record ends before the match does. Scores: {scores}.").format(scores=scores)
