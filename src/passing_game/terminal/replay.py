"""Stepping through a saved game record, move by move, in a terminal.

The steps are ``passing_game.steps``': every round rebuilt from its recorded
deal and re-played through the engine, so what it shows is what the engine
computes, not what the file claims. A replay is for study after the game:
every hand is shown open, and so is every drawn tile. A move a bot made
for a person (a version-2 record's marks) says so, and a resigned match
says who resigned.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence

from rich.console import Console
from rich.text import Text

from passing_game import words
from passing_game.i18n import _
from passing_game.match import Match
from passing_game.moves import Play
from passing_game.steps import Step, build_steps
from passing_game.terminal import render
from passing_game.terminal.render import Glyphs
from passing_game.words import Seats


class Replayer:
    """Shows the steps of a record, one at a time or all at once."""

    def __init__(
        self,
        match: Match,
        names: Sequence[str] | None = None,
        console: Console | None = None,
        read: Callable[[], str] | None = None,
        marks: Mapping[tuple[int, int], str] | None = None,
    ) -> None:
        self.match = match
        #: ``(round_number, move_index)`` to a mark kind (``records.record_marks``).
        self.marks = dict(marks or {})
        self.console = console or render.make_console()
        self._read = read or input
        self.echo = read is None and not sys.stdin.isatty()
        self.g: Glyphs = render.glyphs_for(self.console.encoding)
        usable = names is not None and len(names) == match.rules.players
        self.seats = Seats(match.rules, tuple(names) if usable and names else None)
        self.steps = build_steps(match)

    @property
    def width(self) -> int:
        return max(40, self.console.width)

    def say(self, *lines: Text | str, style: str = "") -> None:
        for line in lines:
            self.console.print(line, style=style or None)

    def step_lines(self, step: Step) -> list[Text | str]:
        """The heading, what just happened, and the board after it."""
        rnd = step.state
        g = self.g
        lines: list[Text | str] = []
        if step.index == 0:
            title = _("Round {n} {dot} the deal").format(n=step.number, dot=g.dot)
        else:
            title = _("Round {n} {dot} move {i} of {total}").format(
                n=step.number, dot=g.dot, i=step.index, total=step.total
            )
        lines.append(render.heading(title, g, self.width))
        if step.turn is None:
            lines.append(words.leader_text(self.seats, rnd.leader))
        else:
            # A play that leaves one tile on the train was the lead.
            led = len(rnd.train) == 1 and isinstance(step.turn.move, Play)
            line = Text(
                words.describe_turn(step.turn, self.seats, led=led, show_drawn=True),
                style="bold",
            )
            mark = words.auto_mark(self.marks.get((step.number, step.index)))
            if mark:
                line.append(" " + mark, style="yellow")
            lines.append(line)
        lines.extend(render.train_lines(rnd.train, rnd.ends, g, self.width))
        labels = [self.seats.label(s) for s in range(rnd.rules.players)]
        pad = max(len(label) for label in labels) + 1
        for seat, hand in enumerate(rnd.hands):
            line = Text("  " + (labels[seat] + ":").ljust(pad + 1))
            line.append(words.tiles_text(hand) if hand else _("(empty)"))
            tiles = words.count_tiles(len(hand))
            pips = words.count_pips(sum(t.pips for t in hand))
            line.append(f"  ({tiles}, {pips})", style="dim")
            lines.append(line)
        lines.append(words.boneyard_line(len(rnd.boneyard)))
        result = rnd.result
        if result is not None:
            lines.append("")
            lines.extend(render.round_summary(result, step.number, self.seats, g, self.width))
            lines.append("")
            lines.extend(render.score_pad(step.results, self.seats, rnd.rules.target, g))
        elif rnd.to_move is not None:
            lines.append(
                Text(
                    _("Next: {player}.").format(player=self.seats.label(rnd.to_move)),
                    style="dim",
                )
            )
        return lines

    def ending_lines(self) -> list[str]:
        """How the record ends: the match winner, or that it stops early."""
        return [words.match_ending(self.match, self.seats)]

    def show(self, step: Step) -> None:
        self.say("")
        self.say(*self.step_lines(step))

    def run_all(self) -> int:
        """Print the whole game, no questions asked."""
        for step in self.steps:
            self.show(step)
        self.say("")
        self.say(*self.ending_lines(), style="bold")
        return 0

    def ask(self, prompt: str) -> str | None:
        self.console.print(Text(prompt, style="bold"), end="")
        try:
            line = self._read()
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            return None
        if self.echo:
            self.console.print(line, style="dim")
        return line.strip().lower()

    def run(self) -> int:
        """Step with Enter, go back with ``b``, stop with ``q``."""
        position = 0
        self.show(self.steps[position])
        prompt = _("[Enter] next, b back, q quit: ")
        while True:
            answer = self.ask(prompt)
            if answer is None or answer in ("q", "quit", _("quit")):
                self.say(_("Replay stopped."))
                return 0
            if answer in ("", "n", "next", _("next")):
                if position + 1 >= len(self.steps):
                    self.say("")
                    self.say(*self.ending_lines(), style="bold")
                    self.say(_("That is the end of the record."))
                    return 0
                position += 1
                self.show(self.steps[position])
            elif answer in ("b", "back", _("back")):
                if position == 0:
                    self.say(_("This is the start of the record."), style="yellow")
                    continue
                position -= 1
                self.show(self.steps[position])
            else:
                self.say(
                    _("Press Enter for the next move, b to go back, q to quit."),
                    style="yellow",
                )
