"""``passing-game learn``: the tutorial's basic lessons in the terminal (issue 25).

The same lessons as the page (``passing_game.learn``), drawn as the terminal
game draws a position (``terminal.render``); the learner types a tile's
number (``2``, or ``2l`` / ``2r`` for an end), ``d``, ``p`` or a move in the
notation (``L3-5``), and reads the lesson's sentence. A wrong move is
answered and asked again; ``q`` stops.
"""

from __future__ import annotations

import re

import click
from rich.console import Console

from passing_game.cli.options import TranslatedCommand, option
from passing_game.errors import ParseError
from passing_game.i18n import N_, _
from passing_game.learn import BASICS, Lesson, check, position
from passing_game.moves import Move, Play, parse_move
from passing_game.round import Round
from passing_game.terminal import render
from passing_game.words import Seats, boneyard_line, count_pips, count_tiles, ends_line, needs_end

#: ``3``, ``3l``, ``3 r``: a tile of the hand by its number, maybe with its end.
_NUMBER = re.compile(r"^(\d+)\s*([lr])?$")


class Stop(Exception):
    """The learner typed q (or the input ended)."""


def show(console: Console, lesson: Lesson, rnd: Round, number: int) -> None:
    g = render.glyphs_for(console.encoding)
    width = min(console.width, 100)
    view = rnd.view(lesson.seat)
    console.print()
    title = _("Lesson {n} of {total}").format(n=number, total=len(BASICS))
    console.print(render.heading(title, g, width))
    console.print(_(lesson.title), style="bold")
    console.print(_(lesson.text))
    console.print()
    seats = Seats(lesson.rules, human=lesson.seat)
    console.print(render.counts_line(view.hand_sizes, seats, g))
    console.print(boneyard_line(view.boneyard_size))
    console.print(*render.train_lines(view.train, view.ends, g, width), sep="\n")
    console.print(ends_line(view.ends), style="dim")
    console.print(
        _("Your hand: {tiles}, {pips}.").format(
            tiles=count_tiles(len(view.hand)), pips=count_pips(sum(t.pips for t in view.hand))
        )
    )
    console.print(*render.hand_lines(view.hand, view.ends, g, width), sep="\n")


def read_move(text: str, rnd: Round, seat: int) -> str | None:
    """The move a typed line names, in the notation; ``None`` if it names none."""
    word = text.strip().lower()
    hand = rnd.hands[seat]
    found = _NUMBER.match(word)
    if found:
        index = int(found.group(1)) - 1
        if not 0 <= index < len(hand):
            return None
        tile = hand[index]
        end = found.group(2)
        if end is None:
            ends = rnd.ends
            if needs_end(tile, ends):
                return "?" + str(tile)
            fits_left = ends is None or tile.has(ends[0])
            end = "l" if fits_left else "r"
        return str(Play(tile, "left" if end == "l" else "right"))
    if word in ("d", "draw"):
        return "draw"
    if word in ("p", "pass"):
        return "pass"
    try:
        move: Move = parse_move(text)
    except ParseError:
        return None
    return str(move)


def take(console: Console, lesson: Lesson, number: int) -> None:
    """One lesson: ask until the move asked for is made."""
    rnd = position(lesson)
    show(console, lesson, rnd, number)
    size = len(rnd.hands[lesson.seat])
    while True:
        choices = _(", ").join(
            [_("1-{n} play").format(n=size), _("d draw"), _("p pass"), _("q quit")]
        )
        try:
            text = click.prompt(
                _("Your move ({choices}): ").format(choices=choices).rstrip(),
                default="",
                show_default=False,
                prompt_suffix=" ",
            )
        except click.Abort:
            raise Stop from None
        if text.strip().lower() in ("q", "quit"):
            raise Stop
        move = read_move(text, rnd, lesson.seat)
        if move is None:
            console.print(
                _(
                    "I don't understand “{text}”. Type a tile's number (1-{n}), d to draw,"
                    " p to pass or q to quit."
                ).format(text=text.strip(), n=size),
                style="yellow",
            )
            continue
        if move.startswith("?"):
            console.print(
                _(
                    "That tile fits both ends: add l for the left end or r for the right,"
                    " like {example}."
                ).format(example=f"{text.strip()}l"),
                style="yellow",
            )
            continue
        ok, sentence = check(lesson, move)
        console.print(sentence, style="green" if ok else "yellow")
        if ok:
            return


@click.command(
    "learn",
    cls=TranslatedCommand,
    help=N_("Learn the game: short lessons, one move each."),
)
@option(
    "--lesson",
    "start",
    type=click.IntRange(1, len(BASICS)),
    default=1,
    show_default=True,
    help=N_("The lesson to start at."),
)
def learn_command(start: int) -> None:
    """Learn the game: short lessons, one move each."""
    console = render.make_console()
    try:
        for number, lesson in enumerate(BASICS[start - 1 :], start):
            take(console, lesson, number)
    except Stop:
        console.print(_("See you next time: passing-game learn --lesson {n}").format(n=number))
        return
    console.print()
    console.print(
        _("That was the last lesson. Now play a real game: passing-game play"), style="bold"
    )
