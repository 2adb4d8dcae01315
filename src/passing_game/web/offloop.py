"""Work handed to threads of its own and awaited on the event loop.

Every move crosses to a thread at least once (the store; a bot's choice).
``loop.run_in_executor`` pays for a ``concurrent.futures.Future`` (a lock, a
condition, callbacks chained back to an asyncio future) on every call;
here a call is one queue entry and one ``call_soon_threadsafe`` back, for
the same guarantees: calls run in order of arrival, an exception comes back
to the awaiting task, and ``shutdown`` lets the calls in flight finish
(DECISIONS P43).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

_P = ParamSpec("_P")
_T = TypeVar("_T")

_Job = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any], asyncio.AbstractEventLoop, Any]


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # the awaiting task was cancelled meanwhile
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class Threads:
    """``count`` threads, started on the first call, fed by one queue:
    ``await threads.run(fn, *args)`` (tests/test_web_offloop.py)."""

    def __init__(self, count: int, name: str) -> None:
        self._count = max(1, count)
        self._name = name
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = False

    async def run(self, fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """``fn(*args, **kwargs)`` in one of the threads; its result or its exception."""
        if self._closed:
            raise RuntimeError(f"the {self._name} threads are shut down")
        if len(self._threads) < self._count:
            self._start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[_T] = loop.create_future()
        self._jobs.put((fn, args, kwargs, loop, future))
        return await future

    def _start(self) -> None:
        with self._lock:
            while len(self._threads) < self._count:
                thread = threading.Thread(
                    target=self._work, name=f"{self._name}_{len(self._threads)}", daemon=True
                )
                thread.start()
                self._threads.append(thread)

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            fn, args, kwargs, loop, future = job
            result: Any = None
            error: BaseException | None = None
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:  # it goes back to the awaiting task
                error = exc
            with contextlib.suppress(RuntimeError):  # the loop closed while the call ran
                loop.call_soon_threadsafe(_settle, future, result, error)
            del job, fn, args, kwargs, result, error  # nothing held while waiting

    def shutdown(self) -> None:
        """Let the calls in flight and queued finish, then stop the threads."""
        self._closed = True
        with self._lock:
            threads, self._threads = self._threads, []
        for _ in threads:
            self._jobs.put(None)
        for thread in threads:
            thread.join()


__all__ = ["Threads"]
