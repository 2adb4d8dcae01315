"""Outside bots: a program in any language plays a seat over the protocol.

``cmd:PROGRAM ARGS`` in the arena starts ``PROGRAM`` once per seat it
takes in each arena process and keeps it for the whole run: starting a
process costs tens of milliseconds (Node more), a decision over a pipe
well under one, so one process per game would cost more than the games
(docs/PERFORMANCE.md). Each game begins with a ``start`` line, so a program
can keep state or ignore it: every decision line carries the whole view.

A bad answer never stops the arena: the seat plays its first legal move
for that decision (``fallback``), the fault is counted by kind
(``FAULTS``), and a program that died or answered late is restarted. A
late answer restarts the program too: that is the one way to be sure a
stale line is never read as the next decision's answer.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import shlex
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Mapping
from multiprocessing import util
from typing import IO, Any, ClassVar

from passing_game.bots import protocol
from passing_game.i18n import _, ngettext
from passing_game.moves import Move
from passing_game.outcome import RoundResult
from passing_game.rules import Rules
from passing_game.views import View

#: The kinds of fault counted per bot, in the report's order.
FAULTS = ("late", "nonsense", "illegal", "died", "restarts")
#: Seconds a move may take, unless the spec says ``timeout=``.
DEFAULT_TIMEOUT = 5.0
#: Seconds a program may take to start and say hello.
HELLO_TIMEOUT = 20.0
#: Options a ``cmd:`` spec takes before its command.
OPTIONS = ("label", "timeout", "text")


class OutsideError(ValueError):
    """A program that cannot be started, or does not say hello."""


def parse_command(text: str) -> tuple[list[str], dict[str, Any]]:
    """The command and the options of the text after ``cmd:``.

    Options come first, as ``KEY=VALUE,KEY=VALUE:`` (``label``,
    ``timeout``, ``text``); the rest is the command, split as a shell would
    but run without one.

    >>> parse_command("label=js,timeout=2:node examples/bots/greedy_bot.js")
    (['node', 'examples/bots/greedy_bot.js'], {'label': 'js', 'timeout': 2.0})
    >>> parse_command("python3 -u bot.py")
    (['python3', '-u', 'bot.py'], {})
    """
    options: dict[str, Any] = {}
    head, colon, rest = text.partition(":")
    pairs = [p.strip().partition("=") for p in head.split(",")] if colon else []
    if pairs and all(eq and key.strip() in OPTIONS for key, eq, _ in pairs):
        for key, _, value in pairs:
            key = key.strip()
            if key == "timeout":
                try:
                    options[key] = float(value)
                except ValueError:
                    raise OutsideError(f"timeout={value!r} is not a number of seconds") from None
                if options[key] <= 0:
                    raise OutsideError("the timeout must be more than 0 seconds")
            elif key == "text":
                options[key] = value.strip().lower() in ("1", "true", "yes")
            else:
                options[key] = value.strip()
        text = rest
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise OutsideError(f"cannot read the command {text!r}: {exc}") from None
    if not argv:
        raise OutsideError("cmd: needs a program to run, e.g. cmd:python3 bot.py")
    return argv, options


class Program:
    """One running outside program, its answers read by a thread into a queue."""

    def __init__(self, argv: list[str], timeout: float) -> None:
        self.argv = argv
        self.timeout = timeout
        self.process: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.hello: dict[str, Any] = {}

    def start(self) -> None:
        """Start the program and read its hello; ``OutsideError`` if it does not."""
        self.stop()
        try:
            process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as exc:
            raise OutsideError(f"cannot start {shlex.join(self.argv)}: {exc}") from None
        self.process = process
        self.lines = queue.Queue()
        assert process.stdout is not None
        threading.Thread(target=_pump, args=(process.stdout, self.lines), daemon=True).start()
        line = self._line(HELLO_TIMEOUT)
        if line is None:
            self.stop()
            raise OutsideError(f"{shlex.join(self.argv)} said no hello")
        try:
            self.hello = protocol.read_hello(line)
        except protocol.AnswerError as exc:
            self.stop()
            raise OutsideError(f"{shlex.join(self.argv)}: {exc}") from None

    def _line(self, timeout: float) -> str | None:
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return None

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def send(self, message: dict[str, Any]) -> bool:
        """Write one line; False if the program is gone."""
        if self.process is None or self.process.stdin is None:
            return False
        try:
            self.process.stdin.write(protocol.dumps(message) + "\n")
            self.process.stdin.flush()
        except (OSError, ValueError):
            return False
        return True

    def ask(self, message: dict[str, Any]) -> tuple[str | None, str | None]:
        """Send a decision, wait for the answer: ``(line, None)`` or ``(None, fault)``.

        A line that names another decision's ``id`` is not this one's
        answer (a program's note, or a stale line): it is dropped, and the
        wait goes on to the same deadline.
        """
        if not self.send(message):
            return None, "died"
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return None, "late"
            if line is None:
                return None, "died"
            if not _names_other(line, message.get("id")):
                return line, None

    def stop(self, *, kindly: bool = True) -> None:
        """Say quit, then end the program if it does not go by itself.

        Not ``kindly`` (a late program, about to be started again): end it at once.
        """
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None and not kindly:
            process.kill()
            process.wait()
        if process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write(protocol.dumps(protocol.QUIT) + "\n")
                process.stdin.close()
            except (OSError, ValueError):
                pass
            try:
                process.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for stream in (process.stdin, process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except (OSError, ValueError):
                pass


def _names_other(line: str, ident: object) -> bool:
    """Whether an answer line carries an ``id`` that is not ``ident``."""
    if '"id"' not in line:
        return False
    try:
        message = json.loads(line)
    except ValueError:
        return False
    other = message.get("id") if isinstance(message, dict) else None
    return isinstance(other, int) and other != ident


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """The reader thread: every line of the program's stdout, then None at its end."""
    try:
        for line in stream:
            if line.strip():
                lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)


#: The programs of this process, by (label, slot): kept for the whole run. The
#: slot tells apart the seats one bot holds in a game (partners, with four
#: players), so a bot that sits at any one seat is always the same process.
_PROGRAMS: dict[tuple[str, int], Program] = {}
_LOCK = threading.Lock()


def program_for(label: str, slot: int, argv: list[str], timeout: float) -> Program:
    """The running program of a bot's ``slot``-th seat in a game, started on first use."""
    with _LOCK:
        program = _PROGRAMS.get((label, slot))
        if program is None:
            _register_exit()
            program = _PROGRAMS[(label, slot)] = Program(argv, timeout)
        return program


def close_all() -> None:
    """End every program this process started (at the end of a run or the process)."""
    with _LOCK:
        programs = list(_PROGRAMS.values())
        _PROGRAMS.clear()
    for program in programs:
        program.stop()


_REGISTERED: list[int] = []


def _register_exit() -> None:
    """End the programs when this process ends, once per process.

    Worker processes end through multiprocessing, which skips ``atexit``: a
    finalizer with a priority runs there. Registered at the first program,
    not at import, since a worker clears the finalizers it inherits.
    """
    if os.getpid() not in _REGISTERED:
        _REGISTERED.append(os.getpid())
        atexit.register(close_all)
        util.Finalize(None, close_all, exitpriority=10)


class OutsideBot:
    """A seat played by an outside program; counts its faults by kind."""

    name: ClassVar[str] = "cmd"
    cheats: ClassVar[bool] = False

    def __init__(self, label: str, argv: list[str], *, timeout: float, text: bool) -> None:
        self.label = label
        self.argv = argv
        self.timeout = timeout
        self.text = text
        self.faults: Counter[str] = Counter()
        self.program: Program | None = None
        self.started: dict[str, Any] | None = None
        self.decisions = 0
        self.down = False

    def begin(self, rules: Rules, seat: int, names: list[str], game: int, slot: int = 0) -> None:
        """The game starts: take (or start) this seat's program and tell it.

        ``slot`` counts this bot's earlier seats in the game (0 but for partners).
        """
        self.begin_line(protocol.start(rules, seat, names, game), slot)

    def begin_line(self, started: dict[str, Any], slot: int = 0) -> None:
        """``begin`` with the game's ``start`` line already made (the site's, P62)."""
        self.program = program_for(self.label, slot, self.argv, self.timeout)
        self.started = started
        if self.program.process is None:
            self._restart()
        elif not self.program.alive or not self.program.send(self.started):
            self.faults["died"] += 1
            self._restart()

    def _restart(self) -> bool:
        """Start the program again and resend the game's start; False if it will not."""
        assert self.program is not None
        if self.down:
            return False
        if self.program.process is not None:
            self.faults["restarts"] += 1
            self.program.stop(kindly=False)
        try:
            self.program.start()
        except OutsideError:
            self.down = True  # not again this game: each try could cost a timeout
            return False
        return self.started is None or self.program.send(self.started)

    def choose(self, view: View) -> Move:
        legal = view.legal_moves()
        self.decisions += 1
        if self.program is None:  # asked without a start (outside the arena)
            names = [f"seat {s + 1}" for s in range(view.rules.players)]
            self.begin(view.rules, view.seat, names, 0)
        if not self.ready():
            return legal[0]
        text = None
        if self.wants_text:
            from passing_game.bots.text import view_text

            text = view_text(view)
        return self.answer(protocol.decision(view, self.decisions, text=text), legal)

    def ready(self) -> bool:
        """Whether the program runs (started again if it died); False if it will not."""
        assert self.program is not None
        if self.program.alive:
            return True
        self.faults["died"] += 1
        return self._restart()

    @property
    def wants_text(self) -> bool:
        """Whether decisions carry the view as text (the spec's ``text=``, or the hello's)."""
        return self.text or bool(self.program is not None and self.program.hello.get("text"))

    def answer(self, decision: dict[str, Any], legal: list[Move]) -> Move:
        """The program's move for a decision line (``choose``'s, or the site's through
        the bridge, P62); a bad or late answer is counted and met by ``legal[0]``."""
        assert self.program is not None
        line, fault = self.program.ask(decision)
        if fault is not None:
            self.faults[fault] += 1
            self._restart()
            return legal[0]
        assert line is not None
        try:
            move = protocol.read_move(line, legal)
        except protocol.AnswerError:
            self.faults["nonsense"] += 1
            return legal[0]
        if move not in legal:
            self.faults["illegal"] += 1
            return legal[0]
        return move

    def end_round(self, result: RoundResult) -> None:
        self.tell(
            protocol.round_end(
                result.points_by_side(), result.side_pips, result.winner, result.reason
            )
        )

    def end_game(self, scores: tuple[int, ...] | None, winner: int | None) -> None:
        self.tell(protocol.game_end(scores, winner))

    def tell(self, line: dict[str, Any]) -> None:
        """A line the program only reads (a round's or the game's end)."""
        if self.program is not None:
            self.program.send(line)

    def fault_counts(self) -> tuple[tuple[str, int], ...]:
        return tuple((k, self.faults[k]) for k in FAULTS if self.faults[k])

    def __repr__(self) -> str:
        return f"OutsideBot({self.label!r}, {shlex.join(self.argv)!r})"


def fault_words(kind: str, n: int) -> str:
    """``n`` faults of one kind (``FAULTS``) in words, as the reports say them."""
    words = {
        "late": ngettext("{n} late answer", "{n} late answers", n),
        "nonsense": ngettext("{n} answer that was no move", "{n} answers that were no move", n),
        "illegal": ngettext("{n} illegal move", "{n} illegal moves", n),
        "died": ngettext("{n} exit or crash", "{n} exits or crashes", n),
        "restarts": ngettext("{n} restart", "{n} restarts", n),
    }
    return words.get(kind, f"{{n}} {kind}").format(n=n)


def fault_line(label: str, faults: Mapping[str, int]) -> str:
    """One bot's faults in a line: the arena's report, the bridge's (P62)."""
    kinds = ", ".join(fault_words(k, n) for k, n in faults.items() if n)
    return _("{bot}: {faults}; each bad answer was replaced by the first legal move").format(
        bot=label, faults=kinds
    )


def check(argv: list[str], timeout: float) -> dict[str, Any]:
    """Start a program once and read its hello, so a bad command fails before any game."""
    program = Program(argv, timeout)
    try:
        program.start()
        return program.hello
    finally:
        program.stop()


__all__ = [
    "OutsideBot",
    "OutsideError",
    "check",
    "close_all",
    "fault_line",
    "fault_words",
    "parse_command",
]
