"""Outside bots against the same bot in process: the protocol's cost, in one run.

    PYTHONPATH=src python benchmarks/outside_bots.py [ROUNDS]

Plays ``greedy`` against ``random`` for ROUNDS rounds (default 100) on one
core, then the same deals with ``greedy`` replaced by the Python example
over the protocol (examples/bots/greedy_bot.py), and by the Node example
when node is installed; prints each run's wall time, time per move and the
ratios (docs/PERFORMANCE.md). Also the cost of one process per game: a
start and hello of the Python example, timed alone.
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

from passing_game.arena import outside
from passing_game.arena.runner import ArenaConfig, bot_specs, run

ROOT = Path(__file__).resolve().parents[1]


def measure(bot: str, rounds: int) -> tuple[float, float, int]:
    config = ArenaConfig(bots=tuple(bot_specs([bot, "random"])), games=rounds, seed=1)
    result = run(config, jobs=1)
    decisions = sum(o.decisions[o.lineup.index(0)] for o in result.outcomes)
    think = sum(o.seconds[o.lineup.index(0)] for o in result.outcomes)
    return result.seconds, think / decisions, len(result.outcomes)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    bots = {
        "greedy (in process)": "greedy",
        "greedy_bot.py (protocol)": f"cmd:{sys.executable} {ROOT / 'examples/bots/greedy_bot.py'}",
    }
    if shutil.which("node"):
        bots["greedy_bot.js (protocol)"] = f"cmd:node {ROOT / 'examples/bots/greedy_bot.js'}"
    base = None
    for name, bot in bots.items():
        wall, per_move, games = measure(bot, rounds)
        base = base or (wall, per_move)
        print(
            f"{name}: {games} rounds in {wall:.3f} s, {per_move * 1e3:.3f} ms a move; "
            f"{wall / base[0]:.1f}× the wall time, {per_move / base[1]:.1f}× the time a move"
        )
    starts = []
    for _ in range(5):
        started = time.perf_counter()
        outside.check([sys.executable, str(ROOT / "examples/bots/greedy_bot.py")], 5.0)
        starts.append(time.perf_counter() - started)
    print(f"one start, hello and quit of greedy_bot.py: {min(starts) * 1e3:.1f} ms (best of 5)")


if __name__ == "__main__":
    main()
