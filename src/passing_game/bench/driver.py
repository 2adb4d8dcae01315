"""Run one engine's throughput loop and print its ``Sample`` as one JSON line.

``python -m passing_game.bench.driver ENGINE --seconds S --seed N``, with
ENGINE one of ``ENGINES``. The bench starts this in a fresh process for each
repetition of each engine, so every engine is measured on the same footing:
its own interpreter, one core, the same clock.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from passing_game.bench.common import Sample
from passing_game.bench.ours import OURS, OURS_4P, OURS_PURE, public_api_rounds
from passing_game.bench.peers import DRIVERS


def _ours(players: int) -> Callable[[float, int], Sample]:
    def run(seconds: float, seed: int) -> Sample:
        return public_api_rounds(seconds, seed, players)

    return run


#: Engine name -> its throughput loop ``(seconds, seed) -> Sample``.
ENGINES: dict[str, Callable[[float, int], Sample]] = {
    OURS: _ours(2),
    OURS_4P: _ours(4),
    OURS_PURE: lambda seconds, seed: public_api_rounds(seconds, seed, pure=True),
    **DRIVERS,
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m passing_game.bench.driver")
    parser.add_argument("engine", choices=sorted(ENGINES))
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    sample = ENGINES[args.engine](args.seconds, args.seed)
    sys.stdout.write(sample.to_json() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
