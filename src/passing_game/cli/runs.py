"""What the arena's long runs share: the progress bar, and SIGTERM stopping like Ctrl-C.

``passing-game arena`` and ``passing-game arena --ladder`` (cli/ladder.py)
both play for minutes; both show the same bar and both report what was
measured when stopped.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

#: Exit status after Ctrl-C, as shells report a process ended by SIGINT.
EXIT_INTERRUPTED = 130


def progress_bar(console: Console, *, show: bool) -> Progress:
    """The bar on standard error: what is played, how many of how many, the times."""
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not show,
    )


@contextmanager
def sigterm_stops(exit_status: dict[str, int]) -> Iterator[None]:
    """SIGTERM (kill) stops a run as Ctrl-C does; ``exit_status["code"]`` says which.

    The code starts as ``EXIT_INTERRUPTED`` (Ctrl-C); a SIGTERM makes it
    128 + 15, as shells report it.
    """
    exit_status.setdefault("code", EXIT_INTERRUPTED)

    def terminate(signum: int, frame: object) -> None:
        exit_status["code"] = 128 + signum
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


__all__ = ["EXIT_INTERRUPTED", "progress_bar", "sigterm_stops"]
