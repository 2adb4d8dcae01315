"""Replay and analysis against a hostile client (issue 22, "also measured"; web/review/api.py).

- every hostile body (too deep, not JSON, lone surrogates, huge numbers,
  wrong types, too large) gets a 4xx with a sentence, never a 500;
- a record is parsed and replayed in a worker thread, never on the event
  loop, at most ``MAX_PARSES`` at once (then 503), and an address over its
  limit is refused before its body is parsed;
- one address (an IPv4 address, an IPv6 /64) runs one analysis at a time,
  while another address still gets a slot.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")

from starlette.testclient import TestClient

from passing_game import Match, Rules, records, steps
from passing_game.bots import analysis as an
from passing_game.bots import make
from passing_game.records import dump_record
from passing_game.web.http.app import create_app
from passing_game.web.review import analyses
from passing_game.web.review import api as review
from passing_game.web.review import replay as replays
from passing_game.web.store import SqliteStore
from site_helpers import addressed
from test_web_review import csrf, tables
from web_helpers import time_limit

LIMIT = review.MAX_RECORD_BYTES


def finished_record(seed: int = 5) -> dict[str, Any]:
    """A finished two-player game between random bots (quick to play)."""
    match = Match(Rules(players=2, target=10), seed=seed)
    bots = [make("random", seed=f"{seed}/{seat}") for seat in range(2)]
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        match.play(bots[seat].choose(match.view(seat)))
    data: dict[str, Any] = json.loads(dump_record(match, names=["Ana", "Ben"]))
    return data


RECORD = finished_record()


def with_(**changes: Any) -> bytes:
    """The record's JSON text with top-level fields changed."""
    return json.dumps({**RECORD, **changes}).encode()


def with_result(result: Any) -> bytes:
    data = json.loads(json.dumps(RECORD))
    data["rounds"][0]["result"] = result
    return json.dumps(data).encode()


def deep(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def chunked(body: bytes) -> Iterator[bytes]:
    """A body sent without Content-Length (chunked), 64 KB at a time."""
    for start in range(0, len(body), 65536):
        yield body[start : start + 65536]


#: Bodies both POSTs must refuse; for /api/analysis each also goes in as ``{"record": ...}``.
HOSTILE: dict[str, bytes] = {
    "empty": b"",
    "not-json": b"{not json",
    "a-list": b"[1, 2]",
    "a-string": b'"text"',
    "not-utf-8": b'{"format": "\xff\xfe"}',
    "deep-list": deep(100_000),
    "deep-object": b'{"a":' * 40_000 + b"1" + b"}" * 40_000,
    "deep-field": with_(names="X").replace(b'"X"', deep(100_000)),
    "escaped-lone-surrogate": with_(format="\ud800"),
    "raw-lone-surrogate": with_(format="X").replace(b'"X"', b'"\xed\xa0\x80"'),
    "lone-surrogate-name": with_(names=["\udfff", "Ben"]),
    "lone-surrogate-result": with_result("\ud800"),
    "nan": with_(scores="X").replace(b'"X"', b"[NaN, Infinity]"),
    "huge-int": with_(seed=1).replace(b'"seed": 1', b'"seed": ' + b"9" * 5000),
    "huge-float": with_(rules="X").replace(b'"X"', b"1e999"),
    "long-echo": with_(format="x" * 200_000),
    "too-large": b" " * (LIMIT + 8192),
    "too-large-chunked": b" " * (LIMIT + 8192),  # sent without Content-Length
}

#: Bodies only /api/analysis reads: seats, codes and games of every wrong type.
ANALYSIS_ONLY: dict[str, bytes] = {
    "record-a-list": json.dumps({"record": [RECORD], "seat": 0}).encode(),
    "record-a-string": json.dumps({"record": "x", "seat": 0}).encode(),
    **{
        f"seat-{name}": json.dumps({"record": RECORD}).encode()[:-1] + b', "seat": ' + seat + b"}"
        for name, seat in {
            "missing": b"null",
            "text": b'"0"',
            "list": b"[0]",
            "object": b'{"seat": 0}',
            "float": b"0.0",
            "bool": b"true",
            "negative": b"-1",
            "too-high": b"2",
            "huge": b"9" * 5000,
            "infinite": b"1e999",
            "nan": b"NaN",
        }.items()
    },
    "code-list": json.dumps({"code": ["ABCDEF"], "game": 1, "seat": 0}).encode(),
    "code-number": json.dumps({"code": 7, "game": 1, "seat": 0}).encode(),
    "code-surrogate": json.dumps({"code": "\ud800", "game": 1, "seat": 0}).encode(),
    "game-list": json.dumps({"code": "ABCDEF", "game": [1], "seat": 0}).encode(),
    "game-float": json.dumps({"code": "ABCDEF", "game": 1e300, "seat": 0}).encode(),
    "game-text": json.dumps({"code": "ABCDEF", "game": "1e5", "seat": 0}).encode(),
    "nothing": b"{}",
}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    opened = SqliteStore(str(tmp_path / "hardening.sqlite3"))
    yield opened
    opened.close()


@pytest.fixture
def analyst(monkeypatch: pytest.MonkeyPatch) -> Iterator[review.Analyst]:
    """An analyst in threads whose analyses search nothing (the tests need none)."""
    searched = an.analyse_decisions
    monkeypatch.setattr(an, "analyse_decisions", lambda turns, seat, **kw: searched([], seat, **kw))
    monkeypatch.setattr(analyses, "luck_and_skill", lambda *args: None)  # nor play every deal
    mine = review.Analyst(workers=0)
    old = review.set_analyst(mine)
    yield mine
    review.set_analyst(old)
    mine.close()


def client_for(store: SqliteStore) -> TestClient:
    return TestClient(addressed(create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))))


def refused_with_a_sentence(answer: Any, statuses: range = range(400, 500)) -> dict[str, Any]:
    """The answer is an error in ``statuses`` with ``{"error": a sentence, "code"}``."""
    assert answer.status_code in statuses, (answer.status_code, answer.text[:300])
    body: dict[str, Any] = answer.json()
    error, code = body.get("error"), body.get("code")
    assert isinstance(error, str) and isinstance(code, str) and code, body
    assert 10 <= len(error) <= 400 and error.isprintable(), error[:300]
    return body


def on_the_loop() -> bool:
    """Whether an asyncio event loop runs in this thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def spying(monkeypatch: pytest.MonkeyPatch, calls: list[tuple[str, bool]]) -> None:
    """Each parse and replay step records its name and whether it ran on the loop."""

    def spy(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls.append((name, on_the_loop()))
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(replays, "load_record", spy("load_record", records.load_record))
    monkeypatch.setattr(replays, "build_steps", spy("build_steps", steps.build_steps))
    monkeypatch.setattr(an, "decisions", spy("decisions", an.decisions))
    monkeypatch.setattr(replays, "record_hash", spy("record_hash", replays.record_hash))


def hostile_cases() -> Iterator[Any]:
    """(path, body, sent chunked) for both POSTs; for /api/analysis also each body as
    its record."""
    for name, body in HOSTILE.items():
        chunks = name.endswith("chunked")
        yield pytest.param("/api/replay", body, chunks, id=f"replay-{name}")
        yield pytest.param("/api/analysis", body, chunks, id=f"analysis-{name}")
        if body and not name.startswith(("not-", "too-large")):
            wrapped = b'{"seat": 0, "record": ' + body + b"}"
            yield pytest.param("/api/analysis", wrapped, False, id=f"analysis-record-{name}")
    for name, body in ANALYSIS_ONLY.items():
        yield pytest.param("/api/analysis", body, False, id=f"analysis-{name}")


@pytest.mark.parametrize(("path", "body", "chunks"), list(hostile_cases()))
def test_every_hostile_body_gets_a_4xx_with_a_sentence(
    store: SqliteStore, analyst: review.Analyst, path: str, body: bytes, chunks: bool
) -> None:
    """Issue 22, also measured: a deeply nested record (and any other hostile body)
    answered HTTP 500; each must be a 4xx with {"error": a sentence, "code"}."""
    with time_limit(60), client_for(store) as client:
        sent = chunked(body) if chunks else body
        answer = client.post(path, content=sent, headers=csrf(client))
        refused_with_a_sentence(answer)
        assert analyst.started == 0


def test_records_are_parsed_and_replayed_off_the_event_loop(
    store: SqliteStore, analyst: review.Analyst, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22, also measured: a 199 KB record was parsed, replayed and counted on
    the event loop (a table's round trip went from 56 ms to over a second); every
    parse (load_record), decisions count, record_hash and build_steps of the four
    endpoints now runs in a worker thread."""
    calls: list[tuple[str, bool]] = []
    with time_limit(120), client_for(store) as client:
        done, _live = tables(client)
        spying(monkeypatch, calls)
        token = csrf(client)
        answers = [
            client.post("/api/replay", content=with_(), headers=token),
            client.get(f"/api/replay/{done}/1"),
            client.post("/api/analysis", json={"record": RECORD, "seat": 0}, headers=token),
            client.post("/api/analysis", json={"code": done, "game": 1, "seat": 1}, headers=token),
        ]
        assert [a.status_code for a in answers] == [200, 200, 202, 202], [
            a.text[:200] for a in answers
        ]
    names = {name for name, _loop in calls}
    assert names == {"load_record", "build_steps", "decisions", "record_hash"}, calls
    on_loop = [name for name, loop in calls if loop]
    assert on_loop == [], f"ran on the event loop: {on_loop}"


def test_an_address_over_its_limit_is_refused_before_parsing(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22, also measured: /api/analysis parsed the whole record before any
    rate limit was consulted, so an address that floods made the server parse for
    free; now its requests are counted before the body is read."""
    calls: list[tuple[str, bool]] = []
    spying(monkeypatch, calls)
    body = json.dumps({"record": RECORD, "seat": 7}).encode()  # parsed, then a bad seat
    flooder = {"X-Test-Address": "198.51.100.7"}
    with time_limit(60), client_for(store) as client:
        token = csrf(client)
        for _ in range(100):
            parsed = len(calls)
            answer = client.post("/api/analysis", content=body, headers={**token, **flooder})
            if answer.status_code != 400:
                break
            assert answer.json()["code"] == "bad-seat"
        refused = refused_with_a_sentence(answer, range(429, 430))
        assert refused["code"] == "rate-limit" and int(answer.headers["Retry-After"]) >= 1
        assert len(calls) == parsed, "the refused request was parsed"
        # Another address is still served (and parsed).
        other = {"X-Test-Address": "192.0.2.44"}
        served = client.post("/api/analysis", content=body, headers={**token, **other})
        assert served.status_code == 400 and served.json()["code"] == "bad-seat"
        assert len(calls) > parsed


def test_parses_at_once_are_bounded(store: SqliteStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22, also measured: parses ran on the event loop without bound; now the
    loop answers while a parse runs (in a worker thread), at most MAX_PARSES run at
    once per process, and one more is a 503 with Retry-After."""
    inside, go, gave_up = threading.Semaphore(0), threading.Event(), threading.Event()
    real = records.load_record

    def held(source: Any) -> Any:
        inside.release()
        if not go.wait(10):
            gave_up.set()
            raise AssertionError("the test never let the parse go")
        return real(source)

    monkeypatch.setattr(replays, "load_record", held)
    answers: list[int] = []
    with time_limit(90), client_for(store) as client:
        token = csrf(client)

        def replay() -> None:
            answers.append(client.post("/api/replay", content=with_(), headers=token).status_code)

        threads: list[threading.Thread] = []
        try:
            threads.append(threading.Thread(target=replay))
            threads[0].start()
            assert inside.acquire(timeout=20), "the parse did not run"
            # While it parses, the event loop still answers.
            assert client.get("/api/account").status_code == 200
            assert not gave_up.is_set(), "the loop answered only once the parse gave up"
            threads += [threading.Thread(target=replay) for _ in range(review.MAX_PARSES - 1)]
            for thread in threads[1:]:
                thread.start()
                assert inside.acquire(timeout=20), "the parse did not run"
            busy = client.post("/api/replay", content=with_(), headers=token)
            assert refused_with_a_sentence(busy, range(503, 504))["code"] == "busy"
            assert int(busy.headers["Retry-After"]) >= 1
        finally:
            go.set()
            for thread in threads:
                thread.join(30)
        assert answers == [200] * review.MAX_PARSES
        # The slots are free again.
        assert client.post("/api/replay", content=with_(), headers=token).status_code == 200


def test_one_address_runs_one_analysis_at_a_time(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22, also measured: one address could take every analysis slot
    (MAX_JOBS a process); now it runs one at a time (an IPv6 /64 counts as one
    address), answered 429 with a sentence, while another address starts one."""
    go = threading.Event()
    searched = an.analyse_decisions

    def held(turns: Any, seat: int, **kwargs: Any) -> an.Analysis:
        assert go.wait(60)
        return searched([], seat, **kwargs)

    monkeypatch.setattr(an, "analyse_decisions", held)
    mine = review.Analyst(workers=0)
    old = review.set_analyst(mine)
    one, same, other = "2001:db8:5::1", "2001:db8:5::ffff", "203.0.113.5"

    def ask(client: TestClient, address: str, seat: int, record: Any = RECORD) -> Any:
        return client.post(
            "/api/analysis",
            json={"record": record, "seat": seat},
            headers={**csrf(client), "X-Test-Address": address},
        )

    try:
        with time_limit(90), client_for(store) as client:
            assert ask(client, one, 0).status_code == 202
            held_back = ask(client, same, 1)  # another analysis, the same /64
            assert refused_with_a_sentence(held_back, range(429, 430))["code"] == "one-at-a-time"
            assert int(held_back.headers["Retry-After"]) >= 1
            assert ask(client, one, 0).json()["status"] == "running"  # joining is not starting
            assert ask(client, other, 1).status_code == 202  # another address gets a slot
            assert mine.started == 2
            go.set()
            for job in list(mine.jobs.values()):
                assert job.finished.wait(30)
            # Once its analysis is done, the address may start another.
            assert ask(client, one, 1).json()["status"] == "done"  # a cached one costs nothing
            assert ask(client, same, 0, finished_record(6)).status_code == 202
            assert mine.started == 3
            for job in list(mine.jobs.values()):
                assert job.finished.wait(30)
    finally:
        go.set()
        review.set_analyst(old)
        mine.close()
