"""The interactive game: one person against computer opponents, line by line.

The loop reads plain lines from stdin, so a script can play as well as a
person can. Every way out (``q``, end of input, Ctrl-C, the match's end)
goes through one place that saves the record when asked, so nothing is lost.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

from passing_game import bots as bot_registry
from passing_game import words
from passing_game.bots import Bot
from passing_game.i18n import _, format_list, ngettext
from passing_game.match import Match
from passing_game.moves import PASS, Draw, Move, Play
from passing_game.records import dump_record
from passing_game.round import RoundResult
from passing_game.rules import Rules
from passing_game.terminal import render, typed
from passing_game.terminal.render import Glyphs
from passing_game.tiles import Tile
from passing_game.views import View
from passing_game.words import Seats

#: The name the person's seat carries in a saved record.
HUMAN_NAME = "human"


class Quit(Exception):
    """The person stopped the game: ``why`` is ``quit``, ``eof`` or ``interrupt``."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@dataclass(frozen=True)
class GameOptions:
    """Everything ``passing-game play`` can set, already checked."""

    rules: Rules
    seed: int | None = None
    #: One bot name for every opponent, or one per opponent in seat order.
    bots: tuple[str, ...] = ("greedy",)
    seat: int = 0
    save: Path | None = None
    rounds: int | None = None
    delay: float = 0.0


def opponent_names(bots: Sequence[str], players: int, seat: int) -> list[str]:
    """The bot name for every seat but ``seat``: one name for all, or one each."""
    opponents = players - 1
    if len(bots) == 1:
        chosen = list(bots) * opponents
    elif len(bots) == opponents:
        chosen = list(bots)
    else:
        raise ValueError(
            _("give one bot name for all opponents or {n}, one per opponent").format(n=opponents)
        )
    names = []
    for s in range(players):
        names.append(HUMAN_NAME if s == seat else chosen.pop(0))
    return names


def make_bots(names: Sequence[str], seat: int, seed: int) -> dict[int, Bot]:
    """One bot per opponent seat, seeded from the match seed and the seat.

    Seeding by seat keeps a whole game reproducible from ``--seed`` alone.
    """
    made: dict[int, Bot] = {}
    for s, name in enumerate(names):
        if s == seat:
            continue
        try:
            made[s] = bot_registry.make(name, seed=f"{seed}/{s}")
        except ValueError:
            made[s] = bot_registry.make(name)
    return made


def hint_bot() -> tuple[str, Bot]:
    """The strongest adviser available, with its name: ``expert`` if it exists, else ``greedy``."""
    name = "expert" if "expert" in bot_registry.names() else "greedy"
    return name, bot_registry.make(name)


def fair_bot_names() -> list[str]:
    """Bots a person may play against: every one that plays from a view (R9)."""
    fair: Callable[[], list[str]] = getattr(bot_registry, "fair_names", bot_registry.names)
    return fair()


def generic_reason(move: Move, view: View) -> str:
    """A reason for an adviser that cannot explain itself."""
    if isinstance(move, Play):
        return ngettext(
            "It takes {n} pip out of your hand.",
            "It takes {n} pips out of your hand.",
            move.tile.pips,
        ).format(n=move.tile.pips)
    if isinstance(move, Draw):
        return _("A new tile gives you more to play with.")
    return _("Nothing better is open to you now.")


class TerminalGame:
    """A match between one person (``options.seat``) and bots, in a terminal."""

    def __init__(
        self,
        options: GameOptions,
        console: Console | None = None,
        read: Callable[[], str] | None = None,
    ) -> None:
        self.options = options
        self.console = console or render.make_console()
        self._read = read or input
        self.echo = read is None and not sys.stdin.isatty()
        self.g: Glyphs = render.glyphs_for(self.console.encoding)
        self.match = Match(options.rules, options.seed)
        self.seat = options.seat
        self.names = opponent_names(options.bots, options.rules.players, options.seat)
        self.seats = Seats(options.rules, tuple(self.names), human=options.seat)
        self.bots = make_bots(self.names, options.seat, self.match.seed)
        self._hint_bot: tuple[str, Bot] | None = None
        self._new_tile: Tile | None = None

    # -- output and input ------------------------------------------------

    @property
    def width(self) -> int:
        return max(40, self.console.width)

    def say(self, *lines: Text | str, style: str = "") -> None:
        for line in lines:
            self.console.print(line, style=style or None)

    def ask(self, prompt: str) -> str:
        """One line from the player; end of input and Ctrl-C become ``Quit``."""
        self.console.print(Text(prompt, style="bold"), end="")
        try:
            line = self._read()
        except EOFError:
            self.console.print()
            raise Quit("eof") from None
        except KeyboardInterrupt:
            self.console.print()
            raise Quit("interrupt") from None
        if self.echo:
            self.console.print(line, style="dim")
        return line.strip()

    def pause(self) -> None:
        if self.options.delay > 0:
            time.sleep(self.options.delay)

    # -- the whole game --------------------------------------------------

    def run(self) -> int:
        """Play until the match ends or the person stops; the exit code."""
        code = 0
        try:
            self.banner()
            self.play_match()
        except Quit as stop:
            messages = {
                "quit": _("You left the game."),
                "eof": _("Input ended, so the game stops here."),
                "interrupt": _("Interrupted, so the game stops here."),
            }
            self.say(messages.get(stop.why, stop.why), style="bold")
        except KeyboardInterrupt:
            self.console.print()
            self.say(_("Interrupted, so the game stops here."), style="bold")
        finally:
            if not self.save():
                code = 1
        return code

    def save(self) -> bool:
        """Write the record if ``--save`` was given; ``False`` if that failed."""
        path = self.options.save
        if path is None:
            return True
        try:
            path.write_text(dump_record(self.match, names=self.names) + "\n", encoding="utf-8")
        except OSError as exc:
            self.console.print(
                _("Could not save the game to {path}: {reason}").format(
                    path=path, reason=exc.strerror or exc
                ),
                style="bold red",
            )
            return False
        self.say(_("Game record saved to {path}.").format(path=path))
        return True

    def banner(self) -> None:
        rules = self.options.rules
        self.say(render.heading(_("The Passing Game"), self.g, self.width))
        if rules.partnerships:
            partner = (self.seat + 2) % 4
            others = [self.seats.label(s) for s in range(4) if s % 2 != self.seat % 2]
            self.say(
                _("You play seat {seat}, partnered with {partner} sitting opposite you.").format(
                    seat=self.seat + 1, partner=self.seats.label(partner)
                )
            )
            self.say(
                _("Your team plays against {opponents}.").format(opponents=format_list(others))
            )
        else:
            others = [self.seats.label(s) for s in range(rules.players) if s != self.seat]
            self.say(
                _("You play seat {seat} against {opponents}.").format(
                    seat=self.seat + 1, opponents=format_list(others)
                )
            )
        self.say(
            ngettext(
                "First to {target} point wins. Lowest pip count when a round ends wins it.",
                "First to {target} points wins. Lowest pip count when a round ends wins it.",
                rules.target,
            ).format(target=words.number(rules.target))
        )
        self.say(_("Rules: {rules}.").format(rules=rules_summary(rules)))
        self.say(
            _("Seed {seed}: play the same deals again with --seed {seed}.").format(
                seed=self.match.seed
            ),
            style="dim",
        )
        self.say(_("Type ? at your turn for help, h for a hint, q to quit."), style="dim")

    def play_match(self) -> None:
        limit = self.options.rounds
        while True:
            number = self.match.round_number
            result = self.play_round()
            self.say("")
            self.say(*render.round_summary(result, number, self.seats, self.g, self.width))
            self.say("")
            self.say(
                *render.score_pad(self.match.results, self.seats, self.match.rules.target, self.g)
            )
            self.say("")
            if self.match.is_over:
                self.announce_winner()
                return
            if limit is not None and number >= limit:
                self.say(
                    ngettext(
                        "That was the one round you asked for.",
                        "That was the last of the {n} rounds you asked for.",
                        limit,
                    ).format(n=limit),
                    style="bold",
                )
                self.announce_leader()
                return
            answer = self.ask(_("Press Enter to deal round {n} (q to quit): ").format(n=number + 1))
            if answer.lower() in ("q", "quit", _("quit")):
                raise Quit("quit")

    def announce_winner(self) -> None:
        winner = self.match.winner
        assert winner is not None
        self.say(words.match_won(self.seats, winner, self.match.scores[winner]), style="bold")

    def announce_leader(self) -> None:
        scores = self.match.scores
        best = max(scores)
        leaders = [s for s, p in enumerate(scores) if p == best]
        if len(leaders) > 1:
            self.say(
                _("Nobody leads: the top scores are level at {points}.").format(
                    points=words.number(best)
                )
            )
            return
        side = leaders[0]
        if self.seats.side_is_you(side) and not self.match.rules.partnerships:
            text = ngettext("You lead with {n} point.", "You lead with {n} points.", best)
        else:
            text = ngettext("{side} leads with {n} point.", "{side} leads with {n} points.", best)
        self.say(text.format(side=self.seats.side_label(side), n=words.number(best)))

    # -- one round -------------------------------------------------------

    def play_round(self) -> RoundResult:
        rnd = self.match.round
        number = self.match.round_number
        self.say("")
        self.say(render.heading(_("Round {n}").format(n=number), self.g, self.width))
        if self.seats.is_you(rnd.leader):
            self.say(_("You lead this round."))
        else:
            self.say(_("{player} leads this round.").format(player=self.seats.label(rnd.leader)))
        self._new_tile = None
        while rnd.result is None:
            seat = rnd.to_move
            assert seat is not None
            if seat == self.seat:
                self.human_turn()
            else:
                self.bot_turn(seat)
        self.say("")
        self.say(Text(_("The train at the end:")))
        self.say(*render.train_lines(rnd.train, rnd.ends, self.g, self.width))
        assert rnd.result is not None
        return rnd.result

    def apply(self, seat: int, move: Move) -> None:
        """Make a move and tell the table what happened."""
        rnd = self.match.round
        led = not rnd.train
        self.match.play(move)
        turn = rnd.history[-1]
        text = words.describe_turn(turn, self.seats, led=led and turn.placed is not None)
        if seat == self.seat:
            self._new_tile = turn.drawn
            self.say(text, style="bold")
        else:
            self.say("  " + text, style="cyan")

    def bot_turn(self, seat: int) -> None:
        view = self.match.view(seat)
        move = self.bots[seat].choose(view)
        if not self.match.round.is_legal(move):
            # A bot bug must not end a person's game: say so and play safe.
            self.say(
                _("{player} chose an illegal move ({move}); it is replaced.").format(
                    player=self.seats.label(seat), move=move
                ),
                style="red",
            )
            move = self.match.round.legal_moves()[0]
        self.apply(seat, move)
        self.pause()

    # -- the person's turn -----------------------------------------------

    def show_board(self, view: View) -> None:
        rules = self.options.rules
        self.say("")
        last = view.history[-1] if view.history else None
        if last is not None and last.seat == self.seat and isinstance(last.move, Draw):
            title = _("Round {n} {dot} your turn goes on after your draw")
        else:
            title = _("Round {n} {dot} your turn")
        self.say(
            render.heading(title.format(n=view.round_number, dot=self.g.dot), self.g, self.width)
        )
        self.say(render.scores_line(view.scores or (), self.seats, rules.target, self.g))
        self.say(render.counts_line(view.hand_sizes, self.seats, self.g))
        self.say(words.boneyard_line(view.boneyard_size))
        self.say("")
        self.say(*render.train_lines(view.train, view.ends, self.g, self.width))
        self.say(words.ends_line(view.ends), style="dim")
        self.say("")
        self.say(
            _("Your hand: {tiles}, {pips}.").format(
                tiles=words.count_tiles(len(view.hand)),
                pips=words.count_pips(sum(t.pips for t in view.hand)),
            )
        )
        self.say(*render.hand_lines(view.hand, view.ends, self.g, self.width, new=self._new_tile))
        if view.ends is not None and not any(
            render.fits_mark(t, view.ends, self.g) for t in view.hand
        ):
            self.say(_("No tile of yours fits either end."), style="yellow")

    def human_turn(self) -> None:
        view = self.match.view(self.seat)
        self.show_board(view)
        legal = view.legal_moves()
        if legal == [PASS]:
            self.say(_("You cannot play a tile or draw, so you pass."), style="yellow")
            self.apply(self.seat, PASS)
            return
        while True:
            move = self.interpret(self.ask(typed.move_prompt(legal, len(view.hand))), view)
            if move is not None:
                break
        self.apply(self.seat, move)

    def interpret(self, text: str, view: View) -> Move | None:
        """Turn a typed line into a legal move, or answer it and return ``None``."""
        reading = typed.read_move(text, view, self.match.round.why_illegal)
        if isinstance(reading, typed.Refusal):
            self.say(reading.text, style="yellow")
        elif isinstance(reading, typed.AskEnd):
            return self.ask_end(reading.tile, reading.ends)
        elif reading == "quit":
            raise Quit("quit")
        elif reading == "help":
            self.show_help(view)
        elif reading == "hint":
            self.show_hint(view)
        elif reading == "board":
            self.show_board(view)
        elif reading == "scores":
            self.say(*render.score_pad(self.match.results, self.seats, view.rules.target, self.g))
        else:
            return reading
        return None

    def ask_end(self, tile: Tile, ends: tuple[int, int]) -> Move | None:
        """Ask left or right for a tile that fits both ends differently (R4.2)."""
        self.say(typed.both_ends_text(tile, ends))
        while True:
            answer = typed.read_end(self.ask(_("Left or right? (l/r, c to choose again): ")), tile)
            if isinstance(answer, typed.Refusal):
                self.say(answer.text, style="yellow")
            elif answer == "quit":
                raise Quit("quit")
            else:
                return None if answer == "cancel" else answer

    def show_hint(self, view: View) -> None:
        """Ask the adviser bot; its own reason if it can explain, else a generic one."""
        try:
            if self._hint_bot is None:
                self._hint_bot = hint_bot()
            name, bot = self._hint_bot
            explain = getattr(bot, "explain", None)
            if callable(explain):
                move, reason = explain(view)
            else:
                move = bot.choose(view)
                reason = generic_reason(move, view)
        except Exception:  # an adviser's bug must not end the game
            self.say(_("No hint is available right now."), style="yellow")
            return
        text = _("Hint ({bot}): {move} (type {keys}).").format(
            bot=name, move=words.advice_words(move, view.ends), keys=typed.move_keys(move, view)
        )
        self.say(render.with_minus(f"{text} {reason}", self.g), style="green")

    def show_help(self, view: View) -> None:
        n = len(view.hand)
        rows = typed.help_rows()
        self.say(Text(_("Your tiles are numbered 1 to {n}. You can type:").format(n=n)))
        width = max(len(key) for key, _text in rows)
        for key, text in rows:
            line = Text("  ")
            line.append(key.ljust(width), style="bold")
            line.append("  " + text)
            self.say(line)
        self.say(
            _(
                "Under each tile {left} means it fits the left end, {right} the right end, "
                "{any} that any tile may lead."
            ).format(left=self.g.fits_left, right=self.g.fits_right, any=self.g.fits_any)
        )
        self.say(_("Rules at this table: {rules}.").format(rules=rules_summary(view.rules)))


def rules_summary(rules: Rules) -> str:
    """The variants in force (D1, D2, D4, D5), in words."""
    parts = [
        _("a draw ends your turn")
        if rules.draw == "ends-turn"
        else _("after a draw you act again"),
        _("you may pass at any time")
        if rules.passing == "free"
        else _("you may pass only when you cannot play or draw"),
        _("the winner scores the others' total minus their own")
        if rules.scoring == "literal"
        else _("the winner scores the difference to each other player"),
        {
            "random": _("a random player leads each round"),
            "rotate": _("the lead passes to the left each round"),
            "winner": _("the last round's winner leads"),
        }[rules.leader],
    ]
    return _("; ").join(parts)
