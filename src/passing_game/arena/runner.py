"""Playing the arena's games, on as many worker processes as asked for.

Every game is described by a ``GameSpec`` fixed in advance from the arena's
seed and the game's place in the schedule (its block, its seating), so the
outcome of each game does not depend on which worker played it or when. The
runner keeps a bounded number of games in flight, hands each finished game to
a callback (the progress bar, the sequential test) and stops early when the
callback says so or when the user presses Ctrl-C.

Workers are started with "forkserver" (or "spawn"), never by forking the
threaded main process; so a script that calls ``run(..., jobs=2)`` needs the
usual ``if __name__ == "__main__":`` guard, as with any multiprocessing code.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Literal

from passing_game.arena import outside
from passing_game.arena.schedule import Orders, derive_seed, seatings
from passing_game.bots import Bot, make, parse_spec
from passing_game.errors import IllegalMove
from passing_game.match import Match
from passing_game.moves import Move
from passing_game.round import Round, RoundResult
from passing_game.rules import Rules

Mode = Literal["rounds", "matches"]


class ArenaError(ValueError):
    """A bad arena setup, or a bot that broke the rules during a game."""


@dataclass(frozen=True)
class BotSpec:
    """A bot by registry name with its options, and the label it is shown by."""

    label: str
    name: str
    options: tuple[tuple[str, Any], ...] = ()

    def build(self, seed: int) -> Bot:
        if self.name == outside.OutsideBot.name:
            opts = dict(self.options)
            return outside.OutsideBot(
                self.label,
                list(opts["argv"]),
                timeout=opts.get("timeout", outside.DEFAULT_TIMEOUT),
                text=opts.get("text", False),
            )
        return make(self.name, seed=seed, **dict(self.options))

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "name": self.name, "options": dict(self.options)}


def parse_bot(text: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """A bot name with options, ``NAME`` or ``NAME:KEY=VALUE,KEY=VALUE``
    (``bots.parse_spec``; a bad text is an ``ArenaError``).

    >>> parse_bot("ismcts:seconds=0.5,iterations=200")
    ('ismcts', (('seconds', 0.5), ('iterations', 200)))
    >>> parse_bot("greedy")
    ('greedy', ())
    """
    try:
        return parse_spec(text)
    except ValueError as exc:
        raise ArenaError(str(exc)) from None


def bot_specs(texts: Sequence[str], *, timeout: float | None = None) -> list[BotSpec]:
    """Bot specs from command-line texts, with unique labels.

    ``cmd:`` texts are outside programs (docs/BOTS.md); ``timeout`` is their
    seconds per move where the text sets none (default ``DEFAULT_TIMEOUT``).

    The same bot given twice is labelled ``greedy`` and ``greedy#2``.
    Every spec is built once here, so an unknown bot or a bad option is
    reported before any game starts.

    >>> [s.label for s in bot_specs(["greedy", "random", "greedy"])]
    ['greedy', 'random', 'greedy#2']
    """
    specs: list[BotSpec] = []
    seen: dict[str, int] = {}
    for text in texts:
        if text.strip().startswith("cmd:"):
            specs.append(_outside_spec(text.strip(), seen, timeout))
            continue
        name, options = parse_bot(text)
        try:
            make(name, seed=0, **dict(options))
        except ValueError as exc:
            raise ArenaError(str(exc)) from None
        label = text.strip()
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            label = f"{label}#{seen[label]}"
        specs.append(BotSpec(label, name, options))
    return specs


def _outside_spec(text: str, seen: dict[str, int], timeout: float | None) -> BotSpec:
    """``cmd:[OPTIONS:]PROGRAM ARGS``: started once here, so a bad command fails now."""
    try:
        argv, options = outside.parse_command(text[len("cmd:") :])
        if timeout is not None and timeout <= 0:
            raise outside.OutsideError("the timeout must be more than 0 seconds")
        options.setdefault("timeout", timeout or outside.DEFAULT_TIMEOUT)
        outside.check(argv, options["timeout"])
    except outside.OutsideError as exc:
        raise ArenaError(str(exc)) from None
    label = options.pop("label", None) or text
    seen[label] = seen.get(label, 0) + 1
    if seen[label] > 1:
        label = f"{label}#{seen[label]}"
    kept = (("argv", tuple(argv)), *sorted(options.items()))
    return BotSpec(label, outside.OutsideBot.name, kept)


@dataclass(frozen=True)
class ArenaConfig:
    """Everything that fixes an arena run, and so its results."""

    bots: tuple[BotSpec, ...]
    rules: Rules = field(default_factory=Rules)
    mode: Mode = "rounds"
    #: Games asked for (rounds or matches), rounded up to whole blocks.
    games: int = 100
    seed: int = 0
    orders: Orders = "rotate"

    def __post_init__(self) -> None:
        if len(self.bots) < 2:
            raise ArenaError("the arena needs at least two bots")
        if len({b.label for b in self.bots}) != len(self.bots):
            raise ArenaError("bot labels must be unique")
        if self.games < 1:
            raise ArenaError(f"the number of games must be at least 1, got {self.games}")

    @property
    def seatings(self) -> list[tuple[int, ...]]:
        return seatings(
            len(self.bots),
            self.rules.players,
            partnerships=self.rules.partnerships,
            orders=self.orders,
        )

    @property
    def blocks(self) -> int:
        per = len(self.seatings)
        return max(1, -(-self.games // per))

    @property
    def total_games(self) -> int:
        return self.blocks * len(self.seatings)

    def to_dict(self) -> dict[str, Any]:
        return {
            "bots": [b.to_dict() for b in self.bots],
            "rules": self.rules.to_dict(),
            "mode": self.mode,
            "games_asked": self.games,
            "blocks": self.blocks,
            "seatings": [list(s) for s in self.seatings],
            "total_games": self.total_games,
            "seed": self.seed,
            "orders": self.orders,
        }


@dataclass(frozen=True)
class GameSpec:
    """One game of the schedule: a deal (by seed) and who sits where."""

    index: int
    block: int
    seating: int
    lineup: tuple[int, ...]
    deal_seed: int
    bot_seeds: tuple[int, ...]


def game_specs(config: ArenaConfig) -> Iterator[GameSpec]:
    """The schedule's games in order, block after block.

    All seatings of a block share the deal seed: the same deals for every
    order of the bots. In matches the seed fixes the whole sequence of deals,
    which stays the same whatever is played, except under ``leader="winner"``:
    there a tied round draws a random leader and so shifts later deals.
    """
    table = config.seatings
    index = 0
    for block in range(config.blocks):
        deal_seed = derive_seed(config.seed, "deal", block)
        for seating, lineup in enumerate(table):
            bot_seeds = tuple(
                derive_seed(config.seed, "bot", block, seating, seat) for seat in range(len(lineup))
            )
            yield GameSpec(index, block, seating, lineup, deal_seed, bot_seeds)
            index += 1


@dataclass(frozen=True)
class RoundOutcome:
    """One round's result, per side (a seat, or a team with partnerships)."""

    points: tuple[int, ...]
    pips: tuple[int, ...]
    winner: int | None
    reason: str

    @classmethod
    def of(cls, result: RoundResult) -> RoundOutcome:
        return cls(result.points_by_side(), result.side_pips, result.winner, result.reason)


@dataclass(frozen=True)
class GameOutcome:
    """A finished game: a round, or a match of several rounds.

    ``scores`` and ``match_winner`` are set for matches only. ``decisions``
    and ``seconds`` (time spent choosing moves) are per seat; the time is the
    one measurement that differs from run to run.
    """

    index: int
    block: int
    seating: int
    lineup: tuple[int, ...]
    rounds: tuple[RoundOutcome, ...]
    scores: tuple[int, ...] | None
    match_winner: int | None
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]
    #: Per seat, an outside bot's faults by kind (``outside.FAULTS``).
    faults: tuple[tuple[tuple[str, int], ...], ...] = ()

    def key(self) -> tuple[Any, ...]:
        """Everything but the timings: equal keys mean the same game was played."""
        return (
            self.index,
            self.block,
            self.seating,
            self.lineup,
            self.rounds,
            self.scores,
            self.match_winner,
            self.decisions,
        )


class _Clock:
    def __init__(self, players: int) -> None:
        self.decisions = [0] * players
        self.seconds = [0.0] * players

    def ask(self, bot: Bot, seat: int, round_: Round, view_of: Callable[[int], Any]) -> Move:
        start = time.perf_counter()
        if getattr(bot, "cheats", False):
            move: Move = bot.choose_with_state(round_.copy())  # type: ignore[attr-defined]
        else:
            move = bot.choose(view_of(seat))
        self.seconds[seat] += time.perf_counter() - start
        self.decisions[seat] += 1
        return move


def _illegal(config: ArenaConfig, spec: GameSpec, seat: int, move: Move, exc: Exception) -> None:
    label = config.bots[spec.lineup[seat]].label
    raise ArenaError(
        f"bot {label} (seat {seat}, game {spec.index}, deal seed {spec.deal_seed}) "
        f"played the illegal move {move}: {exc}"
    ) from None


def play_game(config: ArenaConfig, spec: GameSpec) -> GameOutcome:
    """Play one game of the schedule; a pure function of its arguments."""
    rules = config.rules
    bots = [config.bots[b].build(s) for b, s in zip(spec.lineup, spec.bot_seeds, strict=True)]
    names = [config.bots[b].label for b in spec.lineup]
    # Outside bots are told of the game's start and of each round's and the
    # game's end; the registry's bots have no such hooks.
    told = [bot for bot in bots if isinstance(bot, outside.OutsideBot)]
    for at, bot in enumerate(bots):
        if isinstance(bot, outside.OutsideBot):
            slot = spec.lineup[:at].count(spec.lineup[at])
            bot.begin(rules, at, names, spec.index, slot)
    clock = _Clock(rules.players)
    if config.mode == "rounds":
        round_ = Round.new(rules, seed=spec.deal_seed)
        while (seat := round_.to_move) is not None:
            move = clock.ask(bots[seat], seat, round_, round_.view)
            try:
                round_.play(move)
            except IllegalMove as exc:
                _illegal(config, spec, seat, move, exc)
        assert round_.result is not None
        for bot in told:
            bot.end_round(round_.result)
            bot.end_game(None, None)
        rounds: tuple[RoundOutcome, ...] = (RoundOutcome.of(round_.result),)
        scores: tuple[int, ...] | None = None
        winner: int | None = None
    else:
        match = Match(rules, seed=spec.deal_seed)
        while (seat := match.to_move) is not None:
            move = clock.ask(bots[seat], seat, match.round, match.view)
            ended = len(match.results)
            try:
                match.play(move)
            except IllegalMove as exc:
                _illegal(config, spec, seat, move, exc)
            for result in match.results[ended:]:
                for bot in told:
                    bot.end_round(result)
        rounds = tuple(RoundOutcome.of(r) for r in match.results)
        scores = tuple(match.scores)
        winner = match.winner
        for bot in told:
            bot.end_game(scores, winner)
    return GameOutcome(
        spec.index,
        spec.block,
        spec.seating,
        spec.lineup,
        rounds,
        scores,
        winner,
        tuple(clock.decisions),
        tuple(clock.seconds),
        tuple(b.fault_counts() if isinstance(b, outside.OutsideBot) else () for b in bots),
    )


# -- worker processes ----------------------------------------------------

_worker_config: ArenaConfig | None = None


def _watch_parent(pid: int) -> None:
    """End this worker once the arena's main process is gone (killed outright)."""
    while True:
        time.sleep(1.0)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            os._exit(1)
        except PermissionError:
            pass


def _init_worker(config: ArenaConfig, parent: int) -> None:
    """Runs in each worker: Ctrl-C is the main process's to handle."""
    global _worker_config
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_config = config
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _play_in_worker(specs: list[GameSpec]) -> tuple[list[GameOutcome], float]:
    """Play a chunk of games; also say how long they took."""
    assert _worker_config is not None
    start = time.perf_counter()
    outcomes = [play_game(_worker_config, spec) for spec in specs]
    return outcomes, time.perf_counter() - start


#: Seconds of play one task aims at: fast games go to the workers in chunks,
#: so that handing them over does not cost more than playing them.
TASK_SECONDS = 0.1
MAX_CHUNK = 64


def _context() -> multiprocessing.context.BaseContext:
    # Not "fork": the main process runs threads (the progress bar, the pool's
    # manager), and forking a threaded process can deadlock.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    processes: Mapping[int, Any] = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        if process.is_alive():
            process.terminate()


#: Told of every finished game; returning True stops the run.
OnGame = Callable[[GameOutcome], bool]


@dataclass
class RunResult:
    """The games that finished, in schedule order, and why the run ended."""

    outcomes: list[GameOutcome]
    interrupted: bool = False
    stopped_early: bool = False
    seconds: float = 0.0


def run(
    config: ArenaConfig,
    *,
    jobs: int = 1,
    on_game: OnGame | None = None,
) -> RunResult:
    """Play the schedule, ``jobs`` games at a time.

    With ``jobs == 1`` the games run in this process. Ctrl-C ends the run
    with the games finished so far (``interrupted``); games in progress are
    dropped and the worker processes are ended. ``on_game`` returning True
    (the sequential test has decided) ends it the same way (``stopped_early``).
    """
    if jobs < 1:
        raise ArenaError(f"jobs must be at least 1, got {jobs}")
    started = time.perf_counter()
    done: list[GameOutcome] = []
    result = RunResult(done)
    specs = game_specs(config)
    if jobs == 1:
        try:
            for spec in specs:
                outcome = play_game(config, spec)
                done.append(outcome)
                if on_game is not None and on_game(outcome):
                    result.stopped_early = True
                    break
        except KeyboardInterrupt:
            result.interrupted = True
        finally:
            outside.close_all()
    else:
        _run_pool(config, jobs, specs, on_game, result)
    done.sort(key=lambda o: o.index)
    result.seconds = time.perf_counter() - started
    return result


def _run_pool(
    config: ArenaConfig,
    jobs: int,
    specs: Iterator[GameSpec],
    on_game: OnGame | None,
    result: RunResult,
) -> None:
    window = jobs * 3
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=_context(),
        initializer=_init_worker,
        initargs=(config, os.getpid()),
    )
    pending: set[Future[tuple[list[GameOutcome], float]]] = set()
    clean = False
    chunk = 1
    try:
        exhausted = False
        while True:
            while not exhausted and len(pending) < window:
                batch = list(itertools.islice(specs, chunk))
                if batch:
                    pending.add(pool.submit(_play_in_worker, batch))
                else:
                    exhausted = True
            if not pending:
                break
            finished, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
            stop = False
            for outcomes, elapsed in sorted(
                (f.result() for f in finished), key=lambda r: r[0][0].index
            ):
                chunk = max(
                    1, min(MAX_CHUNK, int(TASK_SECONDS * len(outcomes) / max(elapsed, 1e-6)))
                )
                for outcome in outcomes:
                    result.outcomes.append(outcome)
                    if on_game is not None and on_game(outcome):
                        stop = True
            if stop:
                result.stopped_early = True
                break
        clean = not pending
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        # A second Ctrl-C while shutting down would only leave a traceback.
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            # Games still in flight are dropped: end the workers at once (the
            # pool then fails the pending futures itself; cancelling them too
            # would race with that), and wait for the pool to wind down.
            if not clean:
                _kill_workers(pool)
            pool.shutdown(wait=True)
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)
