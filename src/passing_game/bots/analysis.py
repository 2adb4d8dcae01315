"""Analysis of a finished game: what each decision of one seat cost, in points.

The analyst is the ``expert`` level, seeded as the tables and the terminal
game seed the bot that would sit in that seat (``"{game seed}/{seat}"``).
For every turn of the seat with more than one legal move it is handed that
seat's ``View`` of the moment (R9: its own hand and the public history,
never another hand or the boneyard's order) and searches it:

1. the **expert's choice** is the move the expert would have played there,
   its own search with its own seed and budget, exactly as at a table;
2. the **values** are the expected points of each legal move for the seat's
   side (the search's utilities: for two players the pip difference at the
   end of the round), pooled over ``RUNS`` runs of the expert with
   different seeds (each run the level's searches: four on the kernel, P71), the first
   being the expert's own, each move weighted by its visits;
3. the **loss** of the move played is the pooled value of the expert's
   choice minus that of the move played, never below 0: a move as good as
   the expert's by the pooled values costs nothing.

A single ISMCTS search is a good player but a noisy judge: a move it visits
little keeps the pessimistic mean of its first few playouts, and another
seed may rank the moves differently by many points. Pooling by visits
steadies the values, and measuring against the expert's own choice keeps
the analysis consistent with the expert: a seat that played the expert's
moves loses nothing anywhere (docs/DECISIONS.md P32).

A loss of ``MISTAKE`` points or more marks a **mistake**, ``BLUNDER`` or more
a **blunder**. Moves a bot made for a person (a record's ``timeout`` and
``stand-in`` marks) are evaluated but never marked or counted. The three
costliest of the seat's own moves are explained in words by the hint
explainer (``explain.describe``), for the expert's choice.

Everything is a function of the record and the seat: the same record gives
the same analysis every time (on the same search engine, see ``METHOD``).
The searches run in worker processes when an executor is given; each is a
pure function of its view and seed, so the order they finish in changes
nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future, as_completed
from dataclasses import dataclass, field
from typing import Any

from passing_game.bots import kernel, make
from passing_game.bots.explain import Advice, describe
from passing_game.bots.ismcts import REWARD_SCALE, IsmctsBot, advice_from_stats
from passing_game.match import Match
from passing_game.moves import Move, code_to_move, parse_move
from passing_game.round import Round
from passing_game.views import View

#: A loss of this many points or more is a mistake.
MISTAKE = 5.0
#: A loss of this many points or more is a blunder.
BLUNDER = 12.0
#: Runs of the expert pooled per decision: its own, then ``RUNS - 1`` more seeds.
#: Each run is the level's searches: four on the kernel (P71), so two runs pool eight.
RUNS = 2
#: How many of the costliest decisions are explained in words.
COSTLIEST = 3
#: The bot level that analyses.
ANALYST = "expert"
#: Names the method; a change to it (thresholds, runs, the search) must change this.
METHOD = "expert-pooled-6"
#: Marks, weakest first.
MARKS = ("mistake", "blunder")


def engine() -> str:
    """Which search engine runs here: its numbers differ, so the cache must know it."""
    return "c" if kernel.AVAILABLE else "python"


def mark_for(loss: float) -> str | None:
    """``"blunder"``, ``"mistake"`` or ``None`` for a loss in points.

    >>> mark_for(0.0), mark_for(MISTAKE), mark_for(BLUNDER + 1)
    (None, 'mistake', 'blunder')
    """
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    return None


def record_seed(data: Mapping[str, Any]) -> str:
    """The seed a record's analysis uses: the game's seed, else a digest of its deals.

    A record without a seed (its deals were given) still analyses the same
    every time.
    """
    seed = data.get("seed")
    if isinstance(seed, int) and not isinstance(seed, bool):
        return str(seed)
    rounds = [r.get("deal") if isinstance(r, Mapping) else None for r in data.get("rounds") or []]
    digest = hashlib.sha256(json.dumps(rounds, sort_keys=True, default=str).encode()).hexdigest()
    return "deals-" + digest[:16]


def seat_seed(seed: str | int, seat: int) -> str:
    """The seed of the bot in ``seat`` of a game seeded ``seed`` (web tables, terminal)."""
    return f"{seed}/{seat}"


# -- the decisions -------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One turn of the seat: what it knew then (``view``) and what it did."""

    #: The round, from 1.
    round: int
    #: The move's number in its round, from 1 (as a record's marks count).
    index: int
    #: The replay step showing the position before the move (0: round 1's deal).
    step: int
    view: View
    played: Move
    #: ``"timeout"`` or ``"stand-in"`` when a bot made the move for a person.
    auto: str | None = None

    @property
    def forced(self) -> bool:
        return len(self.view.legal_moves()) < 2


def decisions(
    match: Match, seat: int, marks: Mapping[tuple[int, int], str] | None = None
) -> list[Decision]:
    """Every turn of ``seat`` in ``match``, each with the seat's view of that moment.

    The rounds are replayed from their deals; the views are the ones a table
    hands the bot in that seat (``Match.view``: the scores before the round,
    the round's number). Nothing else of the round leaves this function.
    """
    rules = match.rules
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rules.players:
        raise ValueError(f"seat must be 0 to {rules.players - 1}, got {seat!r}")
    marks = marks or {}
    scores = [0] * rules.sides
    found: list[Decision] = []
    step = 0
    for number, played in enumerate(match.rounds, start=1):
        rnd = Round.from_deal(rules, *played.deal)
        for index, move in enumerate(played.moves, start=1):
            if rnd.to_move == seat:
                view = rnd.view(seat, scores=scores, round_number=number)
                auto = marks.get((number, index))
                found.append(Decision(number, index, step + index - 1, view, move, auto))
            rnd.play(move)
        step += len(played.moves) + 1
        result = rnd.result
        if result is not None and result.winner is not None:
            scores[result.winner] += result.points
    return found


# -- one decision's searches (runs in a worker process) -----------------------------


def search_stats(bot: IsmctsBot, view: View) -> tuple[dict[int, tuple[int, float]], int]:
    """One ISMCTS search of ``view`` as ``bot.advise`` runs it: ``{code: (visits, summed
    points)}`` of the root's moves and the iterations run."""
    stats, done = bot.search_stats(view)
    return {code: (visits, reward * REWARD_SCALE) for code, (visits, reward) in stats.items()}, done


def evaluate(
    view: View, seed: str, runs: int = RUNS, iterations: int | None = None
) -> dict[str, Any]:
    """The expert's choice for ``view`` and every legal move's pooled value.

    Returns ``{"best", "values", "visits", "samples"}`` (moves in notation).
    A pure function of the view, the seed and the budget: a worker process
    computes exactly what this process would.
    """
    moves = view.legal_moves()
    if len(moves) < 2:
        only = str(moves[0]) if moves else ""
        return {"best": only, "values": {}, "visits": {}, "samples": 0}
    options = {} if iterations is None else {"iterations": iterations}
    pooled: dict[int, list[float]] = {}
    best: Move | None = None
    samples = 0
    for run in range(max(1, runs)):
        bot = make(ANALYST, seed=seed if run == 0 else f"{seed}#{run}", **options)
        assert isinstance(bot, IsmctsBot)
        stats, done = search_stats(bot, view)
        samples += done
        if run == 0:
            # The expert's move, chosen from its statistics as ``IsmctsBot.advise`` does.
            own = {code: (n, reward / REWARD_SCALE) for code, (n, reward) in stats.items()}
            best = advice_from_stats(own, done, moves).move
        for code, (count, reward) in stats.items():
            entry = pooled.setdefault(code, [0, 0.0])
            entry[0] += count
            entry[1] += reward
    assert best is not None
    values = {str(code_to_move(c)): r / n for c, (n, r) in pooled.items() if n}
    visits = {str(code_to_move(c)): int(n) for c, (n, _r) in pooled.items() if n}
    return {"best": str(best), "values": values, "visits": visits, "samples": samples}


# -- the result ----------------------------------------------------------------------


@dataclass(frozen=True)
class Evaluation:
    """What one decision was worth; moves in notation, values in points for the seat's side."""

    round: int
    index: int
    step: int
    played: str
    best: str
    values: dict[str, float] = field(default_factory=dict)
    visits: dict[str, int] = field(default_factory=dict)
    samples: int = 0
    loss: float = 0.0
    mark: str | None = None
    auto: str | None = None
    forced: bool = False

    @property
    def played_value(self) -> float | None:
        return self.values.get(self.played)

    @property
    def best_value(self) -> float | None:
        return self.values.get(self.best)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "index": self.index,
            "step": self.step,
            "played": self.played,
            "best": self.best,
            "values": {m: round(v, 3) for m, v in self.values.items()},
            "visits": dict(self.visits),
            "samples": self.samples,
            "loss": round(self.loss, 3),
            "mark": self.mark,
            "auto": self.auto,
            "forced": self.forced,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Evaluation:
        return cls(
            round=int(data["round"]),
            index=int(data["index"]),
            step=int(data["step"]),
            played=str(data["played"]),
            best=str(data["best"]),
            values={str(k): float(v) for k, v in data.get("values", {}).items()},
            visits={str(k): int(v) for k, v in data.get("visits", {}).items()},
            samples=int(data.get("samples", 0)),
            loss=float(data.get("loss", 0.0)),
            mark=data.get("mark"),
            auto=data.get("auto"),
            forced=bool(data.get("forced", False)),
        )


def judge(decision: Decision, found: Mapping[str, Any]) -> Evaluation:
    """An ``Evaluation`` from a decision and what ``evaluate`` found for it."""
    played = str(decision.played)
    values = {str(k): round(float(v), 3) for k, v in found["values"].items()}
    forced = not values
    loss = 0.0
    if not forced and played != found["best"]:
        mine = values.get(played)
        theirs = values.get(found["best"], 0.0)
        # A move the searches never tried: no number to compare, so no loss is claimed.
        loss = round(max(0.0, theirs - mine), 3) if mine is not None else 0.0
    return Evaluation(
        round=decision.round,
        index=decision.index,
        step=decision.step,
        played=played,
        best=str(found["best"]) if not forced else played,
        values=values,
        visits={str(k): int(v) for k, v in found["visits"].items()},
        samples=int(found["samples"]),
        loss=loss,
        mark=None if decision.auto else mark_for(loss),
        auto=decision.auto,
        forced=forced,
    )


@dataclass(frozen=True)
class Analysis:
    """Every decision of one seat, evaluated; see the module's docstring."""

    seat: int
    seed: str
    evaluations: tuple[Evaluation, ...]
    method: str = METHOD

    @property
    def choices(self) -> list[Evaluation]:
        """The seat's own decisions with more than one legal move."""
        return [e for e in self.evaluations if not e.forced and e.auto is None]

    def count(self, mark: str) -> int:
        return sum(1 for e in self.choices if e.mark == mark)

    @property
    def total_loss(self) -> float:
        return sum(e.loss for e in self.choices)

    @property
    def agreed(self) -> int:
        """How many of the seat's own choices were the expert's too."""
        return sum(1 for e in self.choices if e.played == e.best)

    def costliest(self, most: int = COSTLIEST) -> list[Evaluation]:
        """The seat's own costliest decisions (a loss of at least half a point), dearest first."""
        costly = [e for e in self.choices if e.loss >= 0.5]
        return sorted(costly, key=lambda e: (-e.loss, e.step))[:most]

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "seat": self.seat,
            "seed": self.seed,
            "thresholds": {"mistake": MISTAKE, "blunder": BLUNDER},
            "evaluations": [e.to_dict() for e in self.evaluations],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Analysis:
        return cls(
            seat=int(data["seat"]),
            seed=str(data["seed"]),
            evaluations=tuple(Evaluation.from_dict(e) for e in data["evaluations"]),
            method=str(data.get("method", METHOD)),
        )


Progress = Callable[[int, int], None]


def analyse(
    match: Match,
    seat: int,
    *,
    seed: str | int | None = None,
    marks: Mapping[tuple[int, int], str] | None = None,
    runs: int = RUNS,
    iterations: int | None = None,
    executor: Executor | None = None,
    progress: Progress | None = None,
) -> Analysis:
    """Evaluate every decision of ``seat`` in ``match`` (see the module's docstring).

    ``seed`` is the game's seed (``record_seed``; default ``match.seed``);
    ``marks`` the record's marks; ``runs`` and ``iterations`` the searches'
    budget (default: ``RUNS`` runs of the expert's). With ``executor`` (a
    process pool) the decisions are searched there; ``progress(done, total)``
    is called as they finish. Nothing but each decision's view is searched.
    """
    turns = decisions(match, seat, marks)
    return analyse_decisions(
        turns,
        seat,
        seed=seed if seed is not None else match.seed,
        runs=runs,
        iterations=iterations,
        executor=executor,
        progress=progress,
    )


def analyse_decisions(
    turns: Sequence[Decision],
    seat: int,
    *,
    seed: str | int,
    runs: int = RUNS,
    iterations: int | None = None,
    executor: Executor | None = None,
    progress: Progress | None = None,
) -> Analysis:
    """``analyse`` from decisions already made: only their views are searched."""
    bot_seed = seat_seed(seed, seat)
    found: list[dict[str, Any] | None] = [None] * len(turns)
    searched = [i for i, turn in enumerate(turns) if not turn.forced]
    for i, turn in enumerate(turns):
        if turn.forced:
            found[i] = evaluate(turn.view, bot_seed, runs, iterations)
    total, done = len(searched), 0
    if progress is not None:
        progress(0, total)
    if executor is None:
        for i in searched:
            found[i] = evaluate(turns[i].view, bot_seed, runs, iterations)
            done += 1
            if progress is not None:
                progress(done, total)
    else:
        futures: dict[Future[dict[str, Any]], int] = {
            executor.submit(evaluate, turns[i].view, bot_seed, runs, iterations): i
            for i in searched
        }
        try:
            for future in as_completed(futures):
                found[futures[future]] = future.result()
                done += 1
                if progress is not None:
                    progress(done, total)
        finally:
            for future in futures:
                future.cancel()
    evaluations = []
    for turn, result in zip(turns, found, strict=True):
        assert result is not None
        evaluations.append(judge(turn, result))
    return Analysis(seat=seat, seed=str(seed), evaluations=tuple(evaluations))


# -- words ---------------------------------------------------------------------------


def explain(
    analysis: Analysis, match: Match, most: int = COSTLIEST
) -> list[tuple[Evaluation, str]]:
    """The costliest decisions, each with the hint explainer's reason for the expert's
    choice (in the current language), from the seat's view of that moment."""
    views = {(d.round, d.index): d.view for d in decisions(match, analysis.seat)}
    out = []
    for evaluation in analysis.costliest(most):
        view = views[(evaluation.round, evaluation.index)]
        values: dict[Move, float] = {parse_move(m): v for m, v in evaluation.values.items()}
        advice = Advice(parse_move(evaluation.best), values, evaluation.samples)
        out.append((evaluation, bracket_tiles(describe(view, advice))))
    return out


_TILE = re.compile(r"(?<![\d.,|\[])([0-6])-([0-6])(?![\d.,|\]])")


def bracket_tiles(text: str) -> str:
    """Tiles in a sentence written as players read them (P27): ``6-6`` becomes ``[6|6]``.

    >>> bracket_tiles("play 3-5: dumps a heavy tile (about -2.5 points)")
    'play [3|5]: dumps a heavy tile (about -2.5 points)'
    """
    return _TILE.sub(r"[\1|\2]", text)


__all__ = [
    "ANALYST",
    "BLUNDER",
    "COSTLIEST",
    "MARKS",
    "METHOD",
    "MISTAKE",
    "RUNS",
    "Analysis",
    "Decision",
    "Evaluation",
    "analyse",
    "analyse_decisions",
    "bracket_tiles",
    "decisions",
    "engine",
    "evaluate",
    "explain",
    "judge",
    "mark_for",
    "record_seed",
    "seat_seed",
]
