"""Worker processes for bots and analyses that never outlive their server.

A pool's processes are started with ``spawn`` and each watches the server
that started it: when that process is gone (stopped, or killed with
SIGKILL, which leaves no chance to shut a pool down), the worker ends
itself within a second instead of staying behind as an orphan.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

#: How often a worker looks whether its server is still there, in seconds.
WATCH_EVERY = 0.5


def pool(workers: int) -> ProcessPoolExecutor:
    """A process pool whose workers end when this process does."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=get_context("spawn"),
        initializer=watch_parent,
        initargs=(os.getpid(),),
    )


def watch_parent(parent: int) -> None:
    """In a worker: end this process as soon as ``parent`` is no longer its parent."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_EVERY)
        os._exit(0)

    threading.Thread(target=watch, name="watch-server", daemon=True).start()


def stop(workers: ProcessPoolExecutor) -> None:
    """Stop a pool cleanly: nothing new starts, a running call finishes, the
    workers exit and their queues are released (a pool left behind without
    this makes the interpreter warn of leaked semaphores at exit). Blocks."""
    workers.shutdown(wait=True, cancel_futures=True)
