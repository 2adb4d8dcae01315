#!/usr/bin/env python3
"""OpenSpiel's own ISMCTS bot against our ``greedy`` in the arena.

The adapter ``openspiel-ismcts`` (``passing_game.rl.openspiel_bot``) plays
from a ``View`` only: it deals the hidden tiles consistently with the view,
rebuilds that position as a ``python_passing_game`` state and runs
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` on it, unchanged. The arena
plays duplicate deals (each deal once in each seating) and prints its usual
report:

    .venv/bin/python examples/openspiel_ismcts_vs_greedy.py --rounds 100

``register_bot()`` at the top level adds ``openspiel-ismcts`` to the bot
registry, in this process and in the arena's worker processes (``--jobs``),
which import this script again.
Needs the ``rl`` and ``arena`` extras.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from passing_game.arena import report
from passing_game.arena.runner import ArenaConfig, bot_specs, run
from passing_game.arena.summary import summarize
from passing_game.rl.openspiel_bot import register_bot
from passing_game.rules import Rules

register_bot()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=200, help="ISMCTS simulations")
    parser.add_argument("--uct-c", type=float, default=20.0, help="ISMCTS exploration constant")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, action="append", default=[], help="JSON/CSV report")
    args = parser.parse_args(argv)

    ismcts = f"openspiel-ismcts:simulations={args.simulations},uct_c={args.uct_c}"
    config = ArenaConfig(
        tuple(bot_specs([ismcts, args.opponent])),
        rules=Rules(players=args.players),
        games=args.rounds,
        seed=args.seed,
    )
    result = run(config, jobs=args.jobs)
    summary = summarize(
        config,
        result.outcomes,
        interrupted=result.interrupted,
        stopped_early=result.stopped_early,
        seconds=result.seconds,
    )
    report.render(summary, Console(width=120), jobs=args.jobs)
    for path in args.out:
        report.write(summary, path)


if __name__ == "__main__":
    main()
