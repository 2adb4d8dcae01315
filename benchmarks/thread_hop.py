"""What one crossing to a thread costs the server (not a test; P43).

Every accepted move crosses to a thread at least once: the store writes it,
and a quick bot chooses it off the event loop. This measures, on uvloop as
the server runs, the CPU time (both threads, user and system) and the wall
time of one awaited call of a function that does nothing, three ways:
``web.offloop.Threads`` (what the server uses), ``asyncio.to_thread`` (what
it used before), and the call made on the loop itself (the floor).

    .venv/bin/python benchmarks/thread_hop.py --calls 20000
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import time
from collections.abc import Awaitable, Callable

import uvloop

from passing_game.web.offloop import Threads


def nothing(value: int) -> int:
    return value


async def measure(name: str, hop: Callable[[], Awaitable[int]], calls: int) -> None:
    for _ in range(min(1000, calls)):  # threads started, caches warm
        await hop()
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    for _ in range(calls):
        await hop()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"{name:<22} CPU {1e6 * cpu / calls:6.1f} µs a call, wall {1e6 * wall / calls:6.1f} µs")


async def main(calls: int) -> None:
    threads = Threads(1, "hop")

    async def offloop() -> int:
        return await threads.run(nothing, 1)

    async def to_thread() -> int:
        return await asyncio.to_thread(nothing, 1)

    async def on_the_loop() -> int:
        value = nothing(1)
        await asyncio.sleep(0)
        return value

    try:
        await measure("web.offloop.Threads", offloop, calls)
        await measure("asyncio.to_thread", to_thread, calls)
        await measure("on the loop (floor)", on_the_loop, calls)
    finally:
        threads.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args()
    if not 1 <= args.calls <= 10_000_000:
        parser.error("--calls: 1 to 10,000,000")
    uvloop.run(main(args.calls))
