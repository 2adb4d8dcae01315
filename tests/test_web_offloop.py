"""P43: calls handed to ``web.offloop.Threads`` run off the event loop, in the
order they were made, and come back with their result or their exception."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import pytest

from passing_game.web.offloop import Threads

_T = TypeVar("_T")


def run(main: Callable[[], Coroutine[Any, Any, _T]]) -> _T:
    """``run(main)`` on a thread of its own: other tests (the browser's)
    may leave an event loop running on this one."""
    found: list[_T] = []
    failed: list[BaseException] = []

    def go() -> None:
        try:
            found.append(asyncio.run(main()))
        except BaseException as exc:
            failed.append(exc)

    thread = threading.Thread(target=go)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return found[0]


def test_calls_run_in_another_thread_in_order() -> None:
    threads = Threads(1, "order")
    seen: list[tuple[int, str]] = []

    def note(i: int) -> int:
        seen.append((i, threading.current_thread().name))
        return i * i

    async def main() -> list[int]:
        return list(await asyncio.gather(*(threads.run(note, i) for i in range(50))))

    try:
        assert run(main) == [i * i for i in range(50)]
    finally:
        threads.shutdown()
    assert [i for i, _name in seen] == list(range(50))
    assert {name for _i, name in seen} == {"order_0"}


def test_an_exception_reaches_the_caller_and_the_thread_goes_on() -> None:
    threads = Threads(1, "errors")

    def fail() -> None:
        raise LookupError("no such row")

    async def main() -> int:
        with pytest.raises(LookupError, match="no such row"):
            await threads.run(fail)
        return await threads.run(int, "7")

    try:
        assert run(main) == 7
    finally:
        threads.shutdown()


def test_a_cancelled_caller_leaves_the_call_to_finish() -> None:
    threads = Threads(1, "cancel")
    done = threading.Event()

    def slow() -> str:
        time.sleep(0.05)
        done.set()
        return "stored"

    async def main() -> str:
        task = asyncio.ensure_future(threads.run(slow))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return await threads.run(str, "after")

    try:
        assert run(main) == "after"
    finally:
        threads.shutdown()
    assert done.is_set()  # the write the caller gave up on was still made


def test_shutdown_finishes_the_queued_calls_then_refuses_new_ones() -> None:
    threads = Threads(2, "stop")
    finished: list[int] = []

    def work(i: int) -> None:
        time.sleep(0.01)
        finished.append(i)

    calls: list[asyncio.Future[None]] = []

    async def start() -> None:
        calls.extend(asyncio.ensure_future(threads.run(work, i)) for i in range(6))
        await asyncio.sleep(0)

    async def main() -> None:
        await start()
        threads.shutdown()  # the six calls were queued: all of them run
        assert sorted(finished) == list(range(6))
        with pytest.raises(RuntimeError, match="shut down"):
            await threads.run(work, 7)

    run(main)
