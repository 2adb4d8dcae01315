"""Stepping through a saved game record, move by move.

The replayer rebuilds every round from its recorded deal and re-plays the
recorded moves through the engine, so what it shows is what the engine
computes, not what the file claims. A replay is for study after the game:
every hand is shown open, and so is every drawn tile. A move a bot made
for a person (a version-2 record's marks) says so, and a resigned match
says who resigned.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from passing_game.i18n import _, ngettext
from passing_game.match import Match
from passing_game.moves import Play
from passing_game.round import Round, RoundResult
from passing_game.terminal import l10n, render
from passing_game.terminal.render import Glyphs, Seats
from passing_game.views import Turn


@dataclass(frozen=True)
class Step:
    """The position after ``index`` moves of round ``number`` (0: the deal)."""

    number: int
    index: int
    total: int
    state: Round
    turn: Turn | None
    #: Every side's score once this step is made (a round's last move scores it).
    scores: tuple[int, ...]
    #: Every round result up to and including this step.
    results: tuple[RoundResult, ...]


def build_steps(match: Match) -> list[Step]:
    """Re-run every round of ``match`` from its deal, one step per move."""
    rules = match.rules
    scores = [0] * rules.sides
    results: list[RoundResult] = []
    steps: list[Step] = []
    for number, played in enumerate(match.rounds, start=1):
        rnd = Round.from_deal(rules, *played.deal)
        moves = played.moves
        steps.append(Step(number, 0, len(moves), rnd.copy(), None, tuple(scores), tuple(results)))
        for index, move in enumerate(moves, start=1):
            rnd.play(move)
            if rnd.result is not None:
                results.append(rnd.result)
                if rnd.result.winner is not None:
                    scores[rnd.result.winner] += rnd.result.points
            steps.append(
                Step(
                    number,
                    index,
                    len(moves),
                    rnd.copy(),
                    rnd.history[-1],
                    tuple(scores),
                    tuple(results),
                )
            )
    return steps


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
            lines.append(_("{player} leads.").format(player=self.seats.label(rnd.leader)))
        else:
            # A play that leaves one tile on the train was the lead.
            led = len(rnd.train) == 1 and isinstance(step.turn.move, Play)
            line = Text(
                render.describe_turn(
                    step.turn,
                    self.seats,
                    render.placed_by(step.turn, rnd.train),
                    led=led,
                    show_drawn=True,
                ),
                style="bold",
            )
            mark = self.mark_text(step)
            if mark:
                line.append(" " + mark, style="yellow")
            lines.append(line)
        lines.extend(render.train_lines(rnd.train, rnd.ends, g, self.width))
        labels = [self.seats.label(s) for s in range(rnd.rules.players)]
        pad = max(len(label) for label in labels) + 1
        for seat, hand in enumerate(rnd.hands):
            line = Text("  " + (labels[seat] + ":").ljust(pad + 1))
            line.append(render.tiles_text(hand) if hand else _("(empty)"))
            tiles = render.count_tiles(len(hand))
            pips = render.count_pips(sum(t.pips for t in hand))
            line.append(f"  ({tiles}, {pips})", style="dim")
            lines.append(line)
        lines.append(render.boneyard_line(len(rnd.boneyard)))
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

    def mark_text(self, step: Step) -> str:
        """Who really made the move of ``step``, when a bot made it for a person."""
        kind = self.marks.get((step.number, step.index))
        if kind == "timeout":
            return _("(auto-played: time ran out)")
        if kind == "stand-in":
            return _("(played by a stand-in)")
        return ""

    def ending_lines(self) -> list[str]:
        """How the record ends: the match winner, or that it stops early."""
        match = self.match
        scores = _(", ").join(
            f"{self.seats.side_label(s)} {l10n.number(p)}" for s, p in enumerate(match.scores)
        )
        if match.resigned is not None and match.winner is not None:
            return [
                _("{player} resigned; {side} wins the match. Scores: {scores}.").format(
                    player=self.seats.label(match.resigned),
                    side=self.seats.side_label(match.winner),
                    scores=scores,
                )
            ]
        if match.winner is not None:
            return [
                ngettext(
                    "{side} wins the match with {n} point.",
                    "{side} wins the match with {n} points.",
                    match.scores[match.winner],
                ).format(
                    side=self.seats.side_label(match.winner),
                    n=l10n.number(match.scores[match.winner]),
                )
            ]
        return [_("The record ends before the match does. Scores: {scores}.").format(scores=scores)]

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
