"""Replay and analysis of finished games in the browser (issue 13).

====================================  ==================================================
``GET  /replay``                      the page: open a downloaded record (an upload)
``GET  /replay/CODE/GAME``            the page: replay a table's finished game
                                      (``?seat=N&step=K``: a seat's view, a step)
``GET  /api/replay/CODE/GAME``        that game's steps (``replay_data``)
``POST /api/replay``                  the steps of an uploaded record (its JSON as the body)
``POST /api/analysis``                start, or find, the analysis of one seat:
                                      ``{"code", "game", "seat"}`` or ``{"record", "seat"}``
``GET  /api/analysis/HASH/SEAT``      its progress, or the analysis once done
====================================  ==================================================

**One rules implementation.** The server replays a record through the engine
(``load_record``, then ``steps.build_steps``, as ``passing-game replay`` does) and hands the page
every step: the train, every hand, the boneyard's size, the move and its log
sentence in the visitor's language, the scores, the marks of moves a bot made
for a person, and each round's result. The page draws them; it knows no rule.

**Only finished games.** A stored game is read with ``Store.game_record``,
which answers only once the game is over (the record download's rule: its
record shows every hand); a game that goes on and a table that does not exist
get the same 404. An uploaded record must be of a finished game too, and is
checked by ``load_record``; it is never stored.

**Analysis** (``passing_game.bots.analysis``: the expert, from the seat's
view only) runs in worker processes (``Analyst``: a bounded spawn-context
``ProcessPoolExecutor``, at most ``MAX_JOBS`` analyses at a time per server
process) and is kept in ``web_analyses`` per record and seat, keyed by a hash
of the canonical record and the method. While it runs its row holds its
progress, so a page polling any server process sees it; a row left by a
process that died goes stale after ``STALE_SECONDS`` and is taken over. The
result is kept in words for every language (the hint explainer's sentences
need the seat's views).

**Limits before work** (issue 22). A request is counted against its client's
address (``address_key``) before its body is read; records are parsed and
replayed in worker threads, never on the event loop, ``MAX_PARSES`` at once
(then 503); an address runs ``MAX_JOBS_PER_ADDRESS`` analysis at a time (then
429). A refusal is ``{"error": a sentence, "code"}``, whatever the body holds.

POSTs need the page's CSRF token (``X-CSRF-Token``, as ``/api/account``'s).
"""

from __future__ import annotations

import asyncio
import atexit
import contextvars
import hashlib
import json
import logging
import math
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from passing_game import words
from passing_game.bots import analysis
from passing_game.errors import PassingGameError
from passing_game.i18n import LANGUAGES, _, current_language, ngettext, using_language
from passing_game.match import Match
from passing_game.moves import Play
from passing_game.records import load_record, match_to_record, record_marks, record_names
from passing_game.steps import build_steps
from passing_game.web import frames
from passing_game.web import i18n as page_i18n
from passing_game.web.account_api import change_refused
from passing_game.web.addresses import AddressLimits, client_key
from passing_game.web.protocol import MAX_NAME, ProtocolError, clean_code, shown
from passing_game.web.store import Store

log = logging.getLogger("passing_game.web")

#: The largest record file the page may open.
MAX_RECORD_BYTES = 256 * 1024
#: The most decisions one analysis searches (its time: docs/PERFORMANCE.md).
MAX_DECISIONS = 600
#: Analyses running or waiting at once in one server process.
MAX_JOBS = 4
#: A running analysis whose row has not moved for this long was left by a dead process.
STALE_SECONDS = 120.0
#: Worker processes for the searches (``PASSING_GAME_ANALYSIS_WORKERS``; 0: in a thread).
DEFAULT_WORKERS = 2
#: The highest game number looked up (an SQL ``INTEGER``).
MAX_GAME = 2**31 - 1
#: Per address, a second and in a burst: replays; ``POST /api/analysis`` (even a cached
#: one parses the record); analyses started. The first two are counted before any work.
REPLAY_REQUESTS, ANALYSIS_REQUESTS, ANALYSIS_STARTS = (2.0, 20.0), (0.5, 10.0), (1 / 20, 4.0)
#: Analyses one address (``address_key``) may have running at once in one process
#: (then 429, ``Retry-After: HELD_RETRY``).
MAX_JOBS_PER_ADDRESS, HELD_RETRY = 1, 10
#: Records parsed or replayed at once in one server process, in worker threads (then
#: 503, ``Retry-After: PARSE_RETRY``).
MAX_PARSES, PARSE_RETRY = 2, 2

_T = TypeVar("_T")
_PARSER = ThreadPoolExecutor(max_workers=MAX_PARSES, thread_name_prefix="review-parse")
_PARSE_SLOTS = threading.BoundedSemaphore(MAX_PARSES)


# -- replaying a record ----------------------------------------------------------------


def record_hash(match: Match, marks: Mapping[tuple[int, int], str]) -> str:
    """What identifies an analysis: the canonical record (names left out) and the method."""
    canonical = json.dumps(
        match_to_record(match, marks=marks), sort_keys=True, separators=(",", ":")
    )
    text = f"{analysis.METHOD}|{analysis.engine()}|{canonical}"
    return hashlib.sha256(text.encode()).hexdigest()


def display_names(data: Mapping[str, Any], players: int) -> tuple[str, ...] | None:
    """The record's seat names, cut to a display name's length, if there is one per seat."""
    try:
        names = record_names(data)
    except Exception:
        return None
    if not names or len(names) != players:
        return None
    return tuple(shown(name, MAX_NAME) or "?" for name in names)


def replay_data(data: Mapping[str, Any], match: Match) -> dict[str, Any]:
    """Every step of a finished game for the page, worded in the current language."""
    rules = match.rules
    names = display_names(data, rules.players)
    seats = words.Seats(rules, names)
    marks = record_marks(data)
    steps = []
    for step in build_steps(match):
        rnd = step.state
        item: dict[str, Any] = {
            "round": step.number,
            "index": step.index,
            "total": step.total,
            "train": [[p.left, p.right] for p in rnd.train],
            "ends": list(rnd.ends) if rnd.ends is not None else None,
            "hands": [frames.tiles(hand) for hand in rnd.hands],
            "pips": [sum(t.pips for t in hand) for hand in rnd.hands],
            "boneyard": len(rnd.boneyard),
            "to_move": rnd.to_move,
            "scores": list(step.scores),
            "finished": len(step.results),
            "turn": None,
            # The deal: who leads. A move: what it was, every tile named (an open replay).
            "line": words.leader_text(seats, rnd.leader),
        }
        turn = step.turn
        if turn is not None:
            auto = marks.get((step.number, step.index))
            led = len(rnd.train) == 1 and isinstance(turn.move, Play)
            line = words.describe_turn(turn, seats, led=led, show_drawn=True)
            public = words.describe_turn(turn.public(), seats, led=led)
            if auto in frames.PLAYED_BY_WORDS:
                extra = _(frames.PLAYED_BY_WORDS[auto])
                line, public = f"{line} {extra}", f"{public} {extra}"
            item["turn"] = frames.turn_data(turn, auto)
            item["line"] = line
            item["line_public"] = public
        if rnd.result is not None and step.index == step.total:
            item["summary"] = frames.summary(rnd.result, step.number, seats, rnd.train)
        steps.append(item)
    results = match.results
    return {
        "language": current_language(),
        "hash": record_hash(match, marks),
        "rules": rules.to_dict(),
        "players": rules.players,
        "target": rules.target,
        "names": [seats.short(s) for s in range(rules.players)],
        "labels": [seats.label(s) for s in range(rules.players)],
        "sides": frames.side_names(seats, rules.sides),
        "side_of": [rules.side_of(s) for s in range(rules.players)],
        "steps": steps,
        "pad": [
            {
                "round": i + 1,
                "points": list(r.points_by_side()),
                "reason": r.reason,
                "reason_word": words.reason_word(r.reason),
                "winner": r.winner,
            }
            for i, r in enumerate(results)
        ],
        "scores": list(match.scores),
        "winner": match.winner,
        "resigned": match.resigned,
        "over": match.is_over,
        "ending": words.match_ending(match, seats),
        "thresholds": {"mistake": analysis.MISTAKE, "blunder": analysis.BLUNDER},
    }


class Refused(Exception):
    """A request this module answers with an error: ``status``, ``message``, ``code``."""

    def __init__(self, status: int, message: str, code: str, retry_after: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.retry_after = retry_after


def not_found() -> Refused:
    # No such table, or its game goes on (its record would show every hand): one answer.
    return Refused(
        404,
        _(
            "there is no finished game to replay: check the table code,"
            " or wait until the game is over"
        ),
        "not-found",
    )


def decode(raw: bytes) -> Any:
    r"""An uploaded body's JSON data; ``ValueError``, as for text that is not JSON, for
    one nested past the recursion limit, not UTF-8, holding lone surrogates (no answer
    could quote them: UTF-8 has none) or a number of thousands of digits.

    >>> decode(b'["\\ud800"]')
    Traceback (most recent call last):
    ValueError: it holds text that is not valid UTF-8
    """
    try:
        data = json.loads(raw)
        json.dumps(data, ensure_ascii=False).encode()
    except RecursionError:
        raise ValueError(_("it nests too deeply")) from None
    except UnicodeError:  # not UTF-8 when decoded, a lone surrogate when encoded
        raise ValueError(_("it holds text that is not valid UTF-8")) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # int() past sys.get_int_max_str_digits()
        raise ValueError(_("it holds a number too long to read")) from None
    return data


def parse_record(source: bytes | Mapping[str, Any]) -> tuple[Mapping[str, Any], Match]:
    """An uploaded record's data and its match, if it is a finished game's record
    (long for a large record: called off the event loop, ``_off_loop``)."""
    try:
        data = decode(source) if isinstance(source, bytes) else source
        if not isinstance(data, Mapping):
            raise PassingGameError(_("the record must be a JSON object"))
        match = load_record(data)
    except (ValueError, RecursionError) as exc:  # RecordError, decode's refusals
        # Quoted back cut short, unprintable characters replaced (the record's text).
        reason = shown(str(exc), 200)
        message = _("this file is not a usable game record: {reason}").format(reason=reason)
        raise Refused(400, message, "record") from None
    if not match.is_over:
        raise Refused(
            400,
            _("this record's game is not over: only finished games are replayed and analysed"),
            "not-over",
        )
    return data, match


async def _off_loop(fn: Callable[..., _T], *args: Any) -> _T:
    """``fn(*args)`` in one of this module's worker threads, in this request's context
    (its language), so that no parse or replay holds the event loop; 503 when all
    ``MAX_PARSES`` are taken."""
    if not _PARSE_SLOTS.acquire(blocking=False):
        busy = _("the server is busy reading other game records: try again in a few seconds")
        raise Refused(503, busy, "busy", PARSE_RETRY)
    try:
        future = _PARSER.submit(contextvars.copy_context().run, fn, *args)
    except BaseException:
        _PARSE_SLOTS.release()
        raise
    # Freed when the work ends, or is cancelled before it starts (never twice).
    future.add_done_callback(lambda _done: _PARSE_SLOTS.release())
    return await asyncio.wrap_future(future)


async def _stored_text(request: Request, code_text: Any, game_text: Any) -> str:
    """The record of a table's finished game (``not_found`` otherwise)."""
    try:
        code = clean_code(code_text)
    except ProtocolError as exc:
        raise Refused(400, str(exc), "bad-code") from None
    if isinstance(game_text, int) and not isinstance(game_text, bool):
        game = game_text
    elif isinstance(game_text, str) and game_text.isdigit() and len(game_text) <= 10:
        game = int(game_text)
    else:
        game = 0
    if not 1 <= game <= MAX_GAME:
        raise Refused(
            400, _("game must be a whole number from 1 to {n}").format(n=MAX_GAME), "bad-game"
        )
    record: str | None = await request.app.state.lobby.db.game_record(code, game)
    if record is None:
        raise not_found()
    return record


@dataclass(frozen=True)
class Asked:
    """The seat of a finished game an analysis is asked for, and what finding it needs."""

    data: Mapping[str, Any]
    match: Match
    seat: int
    key: str  # record_hash
    total: int  # the seat's decisions that are not forced


def _asked(data: Mapping[str, Any], match: Match, seat_value: Any) -> Asked:
    seat = _seat_of(seat_value, match.rules.players)
    marks = record_marks(data)
    total = sum(1 for t in analysis.decisions(match, seat, marks) if not t.forced)
    if total > MAX_DECISIONS:
        raise Refused(
            413,
            ngettext(
                "this game is too long to analyse here (at most {most} decision; it has {n})",
                "this game is too long to analyse here (at most {most} decisions; it has {n})",
                MAX_DECISIONS,
            ).format(n=total, most=MAX_DECISIONS),
            "too-long",
        )
    return Asked(data, match, seat, record_hash(match, marks), total)


def _analysis_message(raw: bytes) -> Asked | dict[str, Any]:
    """What ``POST /api/analysis`` asks for: the game, when the body holds its record;
    else the body, whose ``code`` and ``game`` name a table's game."""
    try:
        asked = decode(raw)
    except ValueError as exc:
        message = _("the request is not a usable JSON object: {reason}")
        raise Refused(400, message.format(reason=shown(str(exc), 200)), "bad-request") from None
    if not isinstance(asked, dict):
        raise Refused(400, _("a message must be a JSON object"), "bad-request")
    if "record" not in asked:
        return asked
    record = asked["record"]
    if not isinstance(record, Mapping):
        raise Refused(400, _("the record must be a JSON object"), "record")
    return _asked(*parse_record(record), asked.get("seat"))


def _stored_record(text: str) -> tuple[Any, Match]:
    data = json.loads(text)
    return data, load_record(data)


# -- analysis jobs ---------------------------------------------------------------------


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
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=get_context("spawn")
                )
            return self._pool

    def job(self, key: str, seat: int) -> Job | None:
        with self._lock:
            return self.jobs.get((key, seat))

    def claim(self, store: Store, key: str, seat: int, total: int) -> tuple[str, dict[str, Any]]:
        """Who does this analysis: ``("mine", {})`` when this process should start it,
        else ``("done" | "running", the stored row's state)``."""
        now = time.time()
        with store.transaction() as tx:
            inserted = tx.run(
                "INSERT INTO web_analyses (record_hash, seat, result, created) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (record_hash, seat) DO NOTHING",
                (key, seat, _running(0, total, self.owner), now),
            )
        if inserted == 1:
            return "mine", {}
        with store.transaction() as tx:
            row = tx.one(
                "SELECT result, created FROM web_analyses WHERE record_hash = ? AND seat = ?",
                (key, seat),
            )
            if row is None:  # removed in between (a failed run): try again next time
                return "running", {"status": "running", "done": 0, "total": total}
            state = json.loads(row[0])
            if state.get("status") == "done":
                return "done", state
            if float(row[1]) < now - STALE_SECONDS:
                taken = tx.run(
                    "UPDATE web_analyses SET result = ?, created = ?"
                    " WHERE record_hash = ? AND seat = ? AND created = ?",
                    (_running(0, total, self.owner), now, key, seat, row[1]),
                )
                if taken == 1:
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
                    tx.run(
                        "UPDATE web_analyses SET result = ?, created = ?"
                        " WHERE record_hash = ? AND seat = ?",
                        (_running(done, total, self.owner), time.time(), job.key, job.seat),
                    )

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
            state = {"status": "done", "analysis": result.to_dict(), "explanations": words}
            with store.transaction() as tx:
                tx.run(
                    "UPDATE web_analyses SET result = ?, created = ?"
                    " WHERE record_hash = ? AND seat = ?",
                    (json.dumps(state), time.time(), job.key, job.seat),
                )
        except Exception as exc:
            log.exception("an analysis failed")
            job.error = str(exc) or type(exc).__name__
            with self._lock:
                if len(self.failed) > 256:
                    self.failed.clear()
                self.failed[(job.key, job.seat)] = job.error
            try:
                with store.transaction() as tx:
                    tx.run(
                        "DELETE FROM web_analyses WHERE record_hash = ? AND seat = ?",
                        (job.key, job.seat),
                    )
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
            self._pool.shutdown(wait=False, cancel_futures=True)


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


def worded(state: Mapping[str, Any], key: str, seat: int) -> dict[str, Any]:
    """A stored analysis as the page shows it, in the current language."""
    result = analysis.Analysis.from_dict(state["analysis"])
    language = current_language()
    texts = state.get("explanations", {})
    explanations = texts.get(language) or texts.get("en") or []

    def row(e: analysis.Evaluation) -> dict[str, Any]:
        return {
            "round": e.round,
            "index": e.index,
            "step": e.step,
            "played": e.played,
            "best": e.best,
            "played_words": frames.move_words(e.played),
            "best_words": frames.move_words(e.best),
            "played_value": None if e.played_value is None else round(e.played_value, 1),
            "best_value": None if e.best_value is None else round(e.best_value, 1),
            "loss": round(e.loss, 1),
            "mark": e.mark,
            "auto": e.auto,
            "values": {m: round(v, 1) for m, v in e.values.items()},
        }

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
            "evaluations": [row(e) for e in result.evaluations if not e.forced],
            "costliest": costliest,
        },
    }


# -- the endpoints ---------------------------------------------------------------------


def _limit(request: Request, name: str, rate_burst: tuple[float, float]) -> None:
    """Count this request against its client's ``name`` limit; 429 when it is over."""
    state = request.app.state
    limits = getattr(state, name, None)
    if limits is None:
        limits = AddressLimits(*rate_burst)
        setattr(state, name, limits)
    wait = float(limits.wait(request.client.host if request.client else None))
    if wait > 0:
        raise _too_many(wait)


def _too_many(wait: float) -> Refused:
    seconds = max(1, math.ceil(wait))
    return Refused(
        429,
        ngettext(
            "too many requests: try again in {n} second",
            "too many requests: try again in {n} seconds",
            seconds,
        ).format(n=seconds),
        "rate-limit",
        seconds,
    )


def _answer(exc: Refused) -> JSONResponse:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
    return JSONResponse({"error": exc.message, "code": exc.code}, exc.status, headers=headers)


async def _check_csrf(request: Request) -> None:
    """The site's own page and its CSRF token, as every POST (``account_api``)."""
    refused, _user = await change_refused(request)
    if refused is not None:
        raise Refused(403, _("this page is out of date: reload it and try again"), refused)


async def _body(request: Request, most: int) -> bytes:
    declared = request.headers.get("content-length")
    too_big = Refused(
        413,
        _("the file is too large: a game record is at most {n} KB").format(n=most // 1024),
        "too-large",
    )
    if declared is not None and declared.isdigit() and int(declared) > most:
        raise too_big
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            raise too_big
        chunks.append(chunk)
    return b"".join(chunks)


def _page(request: Request) -> Response:
    from passing_game.web.app import SECURITY_HEADERS  # app imports this module

    headers = {**SECURITY_HEADERS, "Vary": "Accept-Language, Cookie"}
    return HTMLResponse(page_i18n.page_html(current_language()), headers=headers)


async def replay_stored(request: Request) -> Response:
    """``GET /api/replay/CODE/GAME``: the steps of a table's finished game."""
    code, game = request.path_params["code"], request.path_params["game"]
    try:
        _limit(request, "replay_limits", REPLAY_REQUESTS)
        text = await _stored_text(request, code, game)
        body = await _off_loop(lambda: replay_data(*_stored_record(text)))
    except Refused as exc:
        return _answer(exc)
    body["code"], body["game"] = clean_code(code), int(game)
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def replay_upload(request: Request) -> Response:
    """``POST /api/replay``: the steps of a record the visitor opened (never stored)."""
    try:
        await _check_csrf(request)
        _limit(request, "replay_limits", REPLAY_REQUESTS)
        raw = await _body(request, MAX_RECORD_BYTES)
        body = await _off_loop(lambda: replay_data(*parse_record(raw)))
    except Refused as exc:
        return _answer(exc)
    body["code"], body["game"] = None, None
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


def _seat_of(value: Any, players: int) -> int:
    """The seat a request names: an index from 0, as everywhere in the protocol (P27)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise Refused(
            400,
            _("seat must be 0 to {last}, got {value!r}").format(
                last=players - 1, value=shown(value)
            ),
            "bad-seat",
        )
    return value


async def start_analysis(request: Request) -> Response:
    """``POST /api/analysis``: the analysis of one seat, started if nobody has it yet."""
    try:
        await _check_csrf(request)
        # Before the body is read: finding even a cached analysis parses the record.
        _limit(request, "analysis_requests", ANALYSIS_REQUESTS)
        raw = await _body(request, MAX_RECORD_BYTES + 4096)
        asked = await _off_loop(_analysis_message, raw)
        if isinstance(asked, dict):
            text = await _stored_text(request, asked.get("code"), asked.get("game"))
            seat_value = asked.get("seat")
            asked = await _off_loop(lambda: _asked(*_stored_record(text), seat_value))
        key, seat = asked.key, asked.seat
        worker = analyst()
        job = worker.job(key, seat)
        if job is not None:
            return JSONResponse(_progress(key, seat, job.done, job.total))
        db = request.app.state.lobby.db
        store: Store = db.store
        # A cached analysis first: no other limit, no work.
        kind, state = await db.run(_peek, store, key, seat)
        if kind != "none":
            return _known(kind, state, key, seat)
        if worker.busy():
            busy = _("the server is busy analysing other games: try again in a minute")
            raise Refused(503, busy, "busy", 60)
        address = client_key(request)
        if not worker.hold(address):
            held = _("your other analysis is still running: try again once it is done")
            raise Refused(429, held, "one-at-a-time", HELD_RETRY)
        started = False
        try:
            _limit(request, "analysis_limits", ANALYSIS_STARTS)
            kind, state = await db.run(worker.claim, store, key, seat, asked.total)
            if kind == "mine":
                worker.start(store, asked, address)
                started = True
                return JSONResponse(_progress(key, seat, 0, asked.total), 202)
        finally:
            if not started:
                worker.let_go(address)
        return _known(kind, state, key, seat)
    except Refused as exc:
        return _answer(exc)


def _known(kind: str, state: Mapping[str, Any], key: str, seat: int) -> JSONResponse:
    """The answer for an analysis found ``done`` or ``running`` in ``web_analyses``."""
    if kind == "done":
        return JSONResponse(worded(state, key, seat))
    return JSONResponse(_progress(key, seat, state.get("done", 0), state.get("total", 0)))


def _peek(store: Store, key: str, seat: int) -> tuple[str, dict[str, Any]]:
    """The stored state of an analysis: ``("done" | "running" | "none", state)``."""
    with store.transaction() as tx:
        row = tx.one(
            "SELECT result, created FROM web_analyses WHERE record_hash = ? AND seat = ?",
            (key, seat),
        )
    if row is None:
        return "none", {}
    state = json.loads(row[0])
    if state.get("status") == "done":
        return "done", state
    if float(row[1]) < time.time() - STALE_SECONDS:
        return "none", {}  # left by a dead process: the next start takes it over
    return "running", state


def _progress(key: str, seat: int, done: int, total: int) -> dict[str, Any]:
    return {"hash": key, "seat": seat, "status": "running", "done": done, "total": total}


async def analysis_status(request: Request) -> Response:
    """``GET /api/analysis/HASH/SEAT``: progress, or the analysis once done."""
    key = str(request.path_params["key"])
    seat_text = str(request.path_params["seat"])
    hexadecimal = len(key) == 64 and all(c in "0123456789abcdef" for c in key)
    if not hexadecimal or seat_text not in ("0", "1", "2", "3"):
        return JSONResponse({"error": _("no such analysis"), "code": "not-found"}, 404)
    seat = int(seat_text)
    worker = analyst()
    job = worker.job(key, seat)
    if job is not None:
        return JSONResponse(_progress(key, seat, job.done, job.total))
    kind, state = await request.app.state.lobby.db.run(
        _peek, request.app.state.lobby.db.store, key, seat
    )
    if kind != "none":
        return _known(kind, state, key, seat)
    failed = worker.failed.get((key, seat))
    if failed is not None:
        return JSONResponse(
            {
                "hash": key,
                "seat": seat,
                "status": "failed",
                "error": _("the analysis failed; try again"),
            },
            500,
        )
    return JSONResponse({"error": _("no such analysis"), "code": "not-found"}, 404)


ROUTES = [
    Route("/replay", _page),
    Route("/replay/{code}/{game}", _page),
    Route("/api/replay", replay_upload, methods=["POST"]),
    Route("/api/replay/{code}/{game}", replay_stored),
    Route("/api/analysis", start_analysis, methods=["POST"]),
    Route("/api/analysis/{key}/{seat}", analysis_status),
]
