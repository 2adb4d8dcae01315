"""``passing-game puzzles``: generate the puzzle file from the bots' self-play, re-prove one.

``generate`` deals seeded rounds, lets the project's bots play them out,
then walks each round back from its end and derives a puzzle at every
position (``puzzles.build.derive``), keeping the ones that qualify: the
answer ahead of every other move by at least 3 points, the greedy bot
wrong. Every round is a pure function of the seed, its category and its
number, so the file is the same whatever ``--jobs`` is; positions too large
for the search's budget (counted in positions searched, not in seconds, for
the same reason) are skipped. ``prove`` re-derives puzzles from their deal
and history and says which do not hold. docs/PUZZLES.md has the details.
"""

from __future__ import annotations

import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from passing_game.bots import make
from passing_game.bots.base import Bot
from passing_game.cli.options import cores, jobs_option
from passing_game.moves import DRAW_CODE, move_to_code
from passing_game.puzzles.build import Derived, derive, make_puzzle, qualifies, with_themes
from passing_game.puzzles.deals import count_deals
from passing_game.puzzles.files import read_puzzles, shipped, write_puzzles
from passing_game.puzzles.proof import prove
from passing_game.puzzles.record import Kind, Puzzle, PuzzleError
from passing_game.puzzles.solver import SearchLimit, Solver
from passing_game.round import Round
from passing_game.rules import Rules

#: The four kinds of puzzle shipped, with their share of ``--count``.
CATEGORIES: tuple[tuple[Kind, int, float], ...] = (
    ("open", 2, 0.3),
    ("open", 4, 0.25),
    ("view", 2, 0.2),
    ("view", 4, 0.25),
)
#: Who plays the rounds, by round number (turning through the list). Two
#: players: the heuristic and the greedy bot, and, for view puzzles (which
#: need a nearly empty boneyard, so rounds with many draws), the random bot
#: too. Four players: the seats in turn.
PAIRINGS: dict[tuple[Kind, int], tuple[tuple[str, ...], ...]] = {
    ("open", 2): (("heuristic", "heuristic"), ("greedy", "heuristic"), ("heuristic", "greedy")),
    ("view", 2): (("greedy", "greedy"), ("random", "heuristic"), ("heuristic", "random")),
    ("open", 4): (("heuristic",) * 4, ("greedy", "heuristic") * 2, ("heuristic", "greedy") * 2),
    ("view", 4): (("heuristic",) * 4, ("greedy", "heuristic") * 2, ("greedy",) * 4),
}
#: Positions one exact search may visit (open puzzles), per deal and in all
#: (view puzzles); the most deals of the unseen tiles a view puzzle may have.
OPEN_NODES = 40_000
VIEW_DEAL_NODES = 60_000
VIEW_NODES = 1_500_000
MAX_DEALS = {2: 1_000, 4: 1_500}
#: Puzzles kept from one round at most.
PER_ROUND = 2
#: The most puzzles of a kind whose answer is to pass, as a share of them.
PASS_SHARE = 0.3


@dataclass(frozen=True)
class Task:
    """One round to play and mine: everything it depends on."""

    seed: int
    kind: Kind
    players: int
    number: int


def rules_for(players: int) -> Rules:
    """Two players, or four in two partnerships (the two-sided games, D6)."""
    return Rules(players=2) if players == 2 else Rules(players=4, partnerships=True)


def self_play(task: Task) -> Round:
    """The round of ``task``, dealt from its seed and played out by its bots."""
    name = f"{task.seed}|{task.kind}|{task.players}|{task.number}"
    pairings = PAIRINGS[(task.kind, task.players)]
    names = pairings[task.number % len(pairings)]
    bots: list[Bot] = [make(bot, seed=f"{name}|{seat}") for seat, bot in enumerate(names)]
    rnd = Round.new(rules_for(task.players), seed=name)
    while not rnd.is_over:
        seat = rnd.to_move
        assert seat is not None
        rnd.play(bots[seat].choose(rnd.view(seat)))
    return rnd


def positions(finished: Round) -> list[Round]:
    """The round at each of its positions, the last first."""
    rnd = Round.from_deal(
        finished.rules, finished.deal.hands, finished.deal.boneyard, finished.deal.leader
    )
    found = []
    for move in finished.moves:
        found.append(rnd.copy())
        rnd.play(move)
    return found[::-1]


def mine(task: Task) -> list[str]:
    """The puzzles (as lines of JSON) one round yields: at most ``PER_ROUND``."""
    greedy = make("greedy")
    rng = random.Random(f"{task.seed}|{task.kind}|{task.players}|{task.number}|pick")
    solver = Solver(max_nodes=OPEN_NODES if task.kind == "open" else VIEW_DEAL_NODES)
    found: list[tuple[Round, Derived]] = []
    for rnd in positions(self_play(task)):
        if len(rnd.legal_moves()) < 2:
            continue
        screen = None
        if task.kind == "view":
            view = rnd.view(rnd.to_move or 0)
            deals = count_deals(view)
            if deals > MAX_DEALS[task.players]:
                continue
            screen = _keep_going(move_to_code(greedy.choose(view)), deals)
            solver.budget(VIEW_NODES)
        try:
            derived = derive(task.kind, rnd, solver, False, rng, screen)
        except SearchLimit:
            if task.kind == "open":
                break  # earlier positions are larger still
            continue
        finally:
            solver.budget(None)
        if qualifies(rnd, derived, greedy.choose):
            found.append((rnd, derived))
    chosen = _pick(found, rng)
    solver.max_nodes = None
    return [make_puzzle(rnd, with_themes(d, rnd, solver)).to_json() for rnd, d in chosen]


def _pick(found: list[tuple[Round, Derived]], rng: random.Random) -> list[tuple[Round, Derived]]:
    """Up to ``PER_ROUND`` of a round's puzzles, those whose answer is a play first.

    The greedy bot never passes while it can play or draw, so "pass" would
    be the answer of most puzzles if they were taken as they come.
    """
    rng.shuffle(found)
    found.sort(key=lambda item: min(item[1].answer) >= DRAW_CODE)
    return found[:PER_ROUND]


def _keep_going(greedy: int, deals: int) -> Callable[[dict[int, int], int], bool]:
    """Give up a view position once enough deals say it will not qualify.

    After an eighth of the deals (shuffled, so a fair sample), the best move
    so far must not be the greedy bot's and must lead by 2 points a deal.
    It only saves time: a position kept is valued over every deal.
    """

    def check(totals: dict[int, int], count: int) -> bool:
        if count < max(50, deals // 8):
            return True
        (best, first), (_, second) = sorted(totals.items(), key=lambda kv: -kv[1])[:2]
        return best != greedy and first - second >= 2 * count

    return check


def _quotas(
    count: int, kinds: tuple[str, ...], players: tuple[int, ...]
) -> list[tuple[Kind, int, int]]:
    chosen = [(k, p, share) for k, p, share in CATEGORIES if k in kinds and p in players]
    total = sum(share for _, _, share in chosen)
    quotas = [(k, p, int(count * share / total)) for k, p, share in chosen]
    short = count - sum(q for _, _, q in quotas)
    return [(k, p, q + (1 if i < short else 0)) for i, (k, p, q) in enumerate(quotas)]


@click.group("puzzles")
def puzzles_command() -> None:
    """Puzzles with proven answers: generate the file, re-prove it (docs/PUZZLES.md)."""


@puzzles_command.command("generate")
@click.option("--seed", type=int, default=0, show_default=True, help="Fixes every round.")
@click.option(
    "--count",
    type=click.IntRange(min=1),
    default=2000,
    show_default=True,
    help="Puzzles to write, split over the kinds and player counts.",
)
@click.option(
    "--out",
    "out",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    required=True,
    help="The JSON-lines file to write.",
)
@click.option(
    "--kinds",
    type=click.Choice(["open", "view", "both"]),
    default="both",
    show_default=True,
    help="Which kinds of puzzle.",
)
@click.option(
    "--players",
    type=click.Choice(["2", "4", "both"]),
    default="both",
    show_default=True,
    help="Two players, four in partnerships, or both.",
)
@jobs_option
def generate_command(
    seed: int, count: int, out: Path, kinds: str, players: str, jobs: int | None
) -> None:
    """Generate puzzles from the bots' self-play and write them, one a line."""
    if not out.parent.is_dir():
        raise click.ClickException(f"the folder {out.parent} does not exist")
    jobs = jobs or cores()
    quotas = _quotas(
        count,
        ("open", "view") if kinds == "both" else (kinds,),
        (2, 4) if players == "both" else (int(players),),
    )
    started = time.perf_counter()
    lines: list[str] = []
    seen: set[str] = set()  # the ids taken
    console = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        for kind, n_players, quota in quotas:
            bar = progress.add_task(f"{kind} {n_players}p", total=quota)
            rounds = _rounds(seed, kind, n_players, jobs)
            for puzzle in collect(rounds, quota, seen):
                lines.append(puzzle.to_json())
                progress.advance(bar)
            rounds.close()  # stops the workers
    written = write_puzzles(out, (Puzzle.from_json(line) for line in lines))
    seconds = time.perf_counter() - started
    click.echo(f"wrote {written} puzzles to {out} in {seconds:.0f} s (seed {seed}, {jobs} jobs)")


def collect(rounds: Iterator[list[str]], quota: int, seen: set[str]) -> Iterator[Puzzle]:
    """``quota`` puzzles from the rounds' lines, in order, at most ``PASS_SHARE`` passes.

    A puzzle whose answer is to pass is taken only while fewer than
    ``PASS_SHARE`` of the quota are; a puzzle already ``seen`` is left out.
    """
    got = passes = 0
    for found in rounds:
        for line in found:
            puzzle = Puzzle.from_json(line)
            is_pass = all(str(m) == "pass" for m in puzzle.answer)
            if puzzle.id in seen or (is_pass and passes >= PASS_SHARE * quota):
                continue
            seen.add(puzzle.id)
            got += 1
            passes += is_pass
            yield puzzle
            if got == quota:
                return


def _rounds(seed: int, kind: Kind, players: int, jobs: int) -> Generator[list[str], None, None]:
    """Each round's puzzles in round order, on ``jobs`` processes."""
    tasks = (Task(seed, kind, players, number) for number in range(1_000_000))
    if jobs == 1:
        yield from map(mine, tasks)
        return
    with multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn").Pool(
        jobs
    ) as pool:
        yield from pool.imap(mine, tasks, chunksize=1)
        pool.terminate()


@puzzles_command.command("prove")
@click.argument(
    "path", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=False
)
@click.option(
    "--sample",
    type=click.IntRange(min=1),
    default=None,
    help="Re-prove only this many puzzles, chosen at random (default: all).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Chooses the sample.")
def prove_command(path: Path | None, sample: int | None, seed: int) -> None:
    """Re-derive puzzles from deal and history; exit 1 if any does not hold.

    PATH is a puzzle file (default: the puzzles shipped with the package).
    """
    try:
        puzzles = read_puzzles(path) if path is not None else shipped()
    except PuzzleError as exc:
        raise click.ClickException(f"{path or 'the shipped file'}: {exc}") from None
    if sample is not None and sample < len(puzzles):
        puzzles = random.Random(seed).sample(puzzles, sample)
    greedy = make("greedy")
    failed = 0
    with Progress(
        TextColumn("proving"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
    ) as progress:
        for puzzle in progress.track(puzzles):
            proof = prove(puzzle, greedy.choose)
            if not proof.ok:
                failed += 1
                click.echo(f"{proof.id}: " + "; ".join(proof.problems))
    click.echo(f"proved {len(puzzles) - failed} of {len(puzzles)} puzzles")
    if failed:
        sys.exit(1)
