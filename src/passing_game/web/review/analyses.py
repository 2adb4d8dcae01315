"""The analyses of one server process: jobs, their worker processes, their rows.

An analysis (``passing_game.bots.analysis``: the expert, from the seat's
view only) runs in a thread of ``Analyst``, its searches in a bounded pool
of spawned worker processes, at most ``MAX_JOBS`` at a time (and
``MAX_JOBS_PER_ADDRESS`` of one address); its row in ``web_analyses`` holds
its progress, then the result in words for every language. Apart from the
endpoints (``web/review/api.py``): this is the work, they only ask for it.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import threading
import time
from collections import Counter
from collections.abc import Mapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from passing_game.bots import analysis, luck
from passing_game.i18n import LANGUAGES, current_language, using_language
from passing_game.match import Match
from passing_game.records import record_marks
from passing_game.web.puzzles import exact
from passing_game.web.review.replay import Asked
from passing_game.web.server import workers
from passing_game.web.store import Store
from passing_game.web.store import analyses as analysis_rows
from passing_game.web.table import frames

log = logging.getLogger("passing_game.web")

#: Analyses running or waiting at once in one server process.
MAX_JOBS = 4
#: A running analysis whose row has not moved for this long was left by a dead process.
STALE_SECONDS = 120.0
#: Worker processes for the searches (``PASSING_GAME_ANALYSIS_WORKERS``; 0: in a thread).
DEFAULT_WORKERS = 2
#: Analyses one address (``address_key``) may have running at once in one process.
MAX_JOBS_PER_ADDRESS = 1


def _running(done: int, total: int, owner: str) -> str:
    return json.dumps({"status": "running", "done": done, "total": total, "owner": owner})


@dataclass
class Job:
    """One analysis running in this process."""

    key: str
    seat: int
    address: str  # whose it is (``address_key``)
    done: int = 0
    total: int = 0
    error: str | None = None
    finished: threading.Event = field(default_factory=threading.Event)


class Analyst:
    """The analyses of one server process: at most ``MAX_JOBS`` at a time (and
    ``MAX_JOBS_PER_ADDRESS`` of one address), their searches in a bounded pool of
    spawned worker processes."""

    def __init__(self, workers: int = DEFAULT_WORKERS) -> None:
        self.workers = max(0, workers)
        self.owner = f"{os.getpid()}-{id(self):x}"
        self.jobs: dict[tuple[str, int], Job] = {}
        self.failed: dict[tuple[str, int], str] = {}
        self._held: Counter[str] = Counter()  # address -> its analyses starting or running
        self._lock = threading.Lock()
        self._threads = ThreadPoolExecutor(max_workers=MAX_JOBS, thread_name_prefix="analysis")
        self._pool: ProcessPoolExecutor | None = None
        #: How many analyses this process has run (tests read it: a cache hit runs none).
        self.started = 0

    def pool(self) -> Executor | None:
        if self.workers == 0:
            return None
        with self._lock:
            if self._pool is None:
                self._pool = workers.pool(self.workers)
            return self._pool

    def job(self, key: str, seat: int) -> Job | None:
        with self._lock:
            return self.jobs.get((key, seat))

    def claim(self, store: Store, key: str, seat: int, total: int) -> tuple[str, dict[str, Any]]:
        """Who does this analysis: ``("mine", {})`` when this process should start it,
        else ``("done" | "running", the stored row's state)``."""
        now = time.time()
        with store.transaction() as tx:
            inserted = analysis_rows.claim(tx, key, seat, _running(0, total, self.owner), now)
        if inserted:
            return "mine", {}
        with store.transaction() as tx:
            row = analysis_rows.analysis(tx, key, seat)
            if row is None:  # removed in between (a failed run): try again next time
                return "running", {"status": "running", "done": 0, "total": total}
            state = json.loads(row.result)
            if state.get("status") == "done":
                return "done", state
            if row.created < now - STALE_SECONDS:
                running = _running(0, total, self.owner)
                if analysis_rows.take_over(tx, key, seat, running, now, row.created):
                    return "mine", {}
            return "running", state

    def hold(self, address: str) -> bool:
        """Count one more analysis of ``address``, unless it has ``MAX_JOBS_PER_ADDRESS``."""
        with self._lock:
            if self._held[address] >= MAX_JOBS_PER_ADDRESS:
                return False
            self._held[address] += 1
            return True

    def let_go(self, address: str) -> None:
        with self._lock:
            self._held[address] -= 1
            if self._held[address] <= 0:
                del self._held[address]

    def start(self, store: Store, asked: Asked, address: str) -> Job:
        """Run the analysis ``asked`` for in a thread of this process, its searches in the
        pool; ``address`` holds it (``hold``) until it ends."""
        job = Job(asked.key, asked.seat, address)
        with self._lock:
            self.jobs[(job.key, job.seat)] = job
            self.failed.pop((job.key, job.seat), None)
            self.started += 1
        self._threads.submit(self._run, job, store, asked.match, asked.data)
        return job

    def busy(self) -> bool:
        with self._lock:
            return len(self.jobs) >= MAX_JOBS

    def _run(self, job: Job, store: Store, match: Match, data: Mapping[str, Any]) -> None:
        last = 0.0

        def progress(done: int, total: int) -> None:
            nonlocal last
            job.done, job.total = done, total
            now = time.monotonic()
            if now - last >= 1.0 or done == total:
                last = now
                with store.transaction() as tx:
                    running = _running(done, total, self.owner)
                    analysis_rows.save(tx, job.key, job.seat, running, time.time())

        try:
            marks = record_marks(data)
            turns = analysis.decisions(match, job.seat, marks)
            result = analysis.analyse_decisions(
                turns,
                job.seat,
                seed=analysis.record_seed(data),
                executor=self.pool(),
                progress=progress,
            )
            words: dict[str, list[str]] = {}
            for language in LANGUAGES:
                with using_language(language):
                    words[language] = [text for _e, text in analysis.explain(result, match)]
            # The blunders valued exactly where few deals allow it: puzzles of one's own games.
            proved = exact.exact_values(match, result, self.pool())
            state = {
                "status": "done",
                "analysis": result.to_dict(),
                "explanations": words,
                "exact": proved,
                "luck": luck_and_skill(
                    match, job.seat, result, analysis.record_seed(data), self.pool()
                ),
            }
            with store.transaction() as tx:
                analysis_rows.save(tx, job.key, job.seat, json.dumps(state), time.time())
        except Exception as exc:
            log.exception("an analysis failed")
            job.error = str(exc) or type(exc).__name__
            with self._lock:
                if len(self.failed) > 256:
                    self.failed.clear()
                self.failed[(job.key, job.seat)] = job.error
            try:
                with store.transaction() as tx:
                    analysis_rows.forget(tx, job.key, job.seat)
            except Exception:
                log.exception("could not clear a failed analysis")
        finally:
            with self._lock:
                self.jobs.pop((job.key, job.seat), None)
            self.let_go(job.address)
            job.finished.set()

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._pool is not None:
            workers.stop(self._pool)


_ANALYST: Analyst | None = None
_ANALYST_LOCK = threading.Lock()


def analyst() -> Analyst:
    """This process's analyst (made on first use)."""
    global _ANALYST
    with _ANALYST_LOCK:
        if _ANALYST is None:
            text = os.environ.get("PASSING_GAME_ANALYSIS_WORKERS", "")
            workers = int(text) if text.isdigit() else min(DEFAULT_WORKERS, os.cpu_count() or 1)
            _ANALYST = Analyst(workers)
            atexit.register(_ANALYST.close)
        return _ANALYST


def set_analyst(replacement: Analyst | None) -> Analyst | None:
    """Put another analyst in place (tests); returns the one it replaces."""
    global _ANALYST
    with _ANALYST_LOCK:
        old, _ANALYST = _ANALYST, replacement
    return old


def luck_and_skill(
    match: Match,
    seat: int,
    result: analysis.Analysis,
    seed: str,
    executor: Executor | None = None,
) -> dict[str, float] | None:
    """The seat's result split into luck, skill and the rest (issue 26, item 2; P53), for
    a game of two sides with a finished round; ``None`` otherwise. The expert's play of
    every deal runs in ``executor`` (a worker process), as the searches do."""
    if match.rules.sides != 2 or not any(r.result is not None for r in match.rounds):
        return None
    if executor is not None:
        worth = executor.submit(luck.deal_values, match, seed).result()
    else:
        worth = luck.deal_values(match, seed)
    part = luck.split(match, worth, {seat: result})[seat]
    return {"result": part.result, "luck": part.luck, "skill": part.skill, "rest": part.rest}


def peek(store: Store, key: str, seat: int) -> tuple[str, dict[str, Any]]:
    """The stored state of an analysis: ``("done" | "running" | "none", state)``."""
    with store.transaction() as tx:
        row = analysis_rows.analysis(tx, key, seat)
    if row is None:
        return "none", {}
    state = json.loads(row.result)
    if state.get("status") == "done":
        return "done", state
    if row.created < time.time() - STALE_SECONDS:
        return "none", {}  # left by a dead process: the next start takes it over
    return "running", state


def shown_values(e: analysis.Evaluation) -> tuple[dict[str, float], float]:
    """A decision's values and loss as the page shows them (one decimal), with the
    expert's value the played one's plus the loss shown: the two values a person
    reads differ by exactly the loss, in the list, the table and the graph alike
    (rounded apart, -5.17 and 3.26 would read 8.5 lost against a loss of 8.4).

    >>> e = analysis.Evaluation(1, 4, 3, "L3-5", "R6-6", {"L3-5": -5.17, "R6-6": 3.26}, loss=8.43)
    >>> shown_values(e)
    ({'L3-5': -5.2, 'R6-6': 3.2}, 8.4)

    Nor does a loss read as reaching a mark's threshold that it did not reach: 11.95,
    a mistake, reads 11.9, not 12.0 (a blunder's number).
    """
    values = {m: round(v, 1) for m, v in e.values.items()}
    loss = round(e.loss, 1)
    for limit in (analysis.MISTAKE, analysis.BLUNDER):
        if e.loss < limit <= loss:
            loss = round(limit - 0.1, 1)
    played = values.get(e.played)
    if loss > 0 and played is not None and e.best in values:
        values[e.best] = round(played + loss, 1)
    return values, loss


def worded(state: Mapping[str, Any], key: str, seat: int) -> dict[str, Any]:
    """A stored analysis as the page shows it, in the current language."""
    result = analysis.Analysis.from_dict(state["analysis"])
    language = current_language()
    texts = state.get("explanations", {})
    explanations = texts.get(language) or texts.get("en") or []

    def row(e: analysis.Evaluation) -> dict[str, Any]:
        values, loss = shown_values(e)
        return {
            "round": e.round,
            "index": e.index,
            "step": e.step,
            "played": e.played,
            "best": e.best,
            "played_words": frames.decision_words(e.played),
            "best_words": frames.decision_words(e.best),
            "played_value": values.get(e.played),
            "best_value": values.get(e.best),
            "loss": loss,
            "mark": e.mark,
            "auto": e.auto,
            "values": values,
        }

    shown = [row(e) for e in result.evaluations if not e.forced]

    costliest = []
    for e, text in zip(result.costliest(), explanations, strict=False):
        costliest.append({**row(e), "text": text})
    return {
        "hash": key,
        "seat": seat,
        "status": "done",
        "analysis": {
            "seat": result.seat,
            "method": result.method,
            "thresholds": {"mistake": analysis.MISTAKE, "blunder": analysis.BLUNDER},
            "decisions": len(result.choices),
            "agreed": result.agreed,
            "mistakes": result.count("mistake"),
            "blunders": result.count("blunder"),
            "total_loss": round(result.total_loss, 1),
            "evaluations": shown,
            "costliest": costliest,
            "luck": state.get("luck"),
        },
    }


__all__ = [
    "DEFAULT_WORKERS",
    "MAX_JOBS",
    "MAX_JOBS_PER_ADDRESS",
    "STALE_SECONDS",
    "Analyst",
    "Job",
    "analyst",
    "luck_and_skill",
    "peek",
    "set_analyst",
    "shown_values",
    "worded",
]
