#!/usr/bin/env python3
"""An outside bot in plain Python (standard library only), for docs/BOTS.md.

It plays the heaviest legal tile, else draws, else passes: the arena's
``greedy`` in about thirty lines of the protocol. Run it in the arena with

    passing-game arena "cmd:python3 examples/bots/greedy_bot.py" random
"""

import json
import sys


def weight(move: str, ends: list | None) -> tuple:
    """A play ``L3-5`` by its pips, then a double first, then the number it leaves open.

    The same order as the project's ``greedy``, so the two play alike.
    """
    low, high = (int(n) for n in move[1:].split("-"))
    if ends is None:
        left_open = high
    else:
        end = ends[0] if move[0] == "L" else ends[1]
        left_open = high if end == low else low
    return (low + high, low == high, left_open)


def choose(decision: dict) -> str:
    legal = decision["legal"]
    plays = [m for m in legal if m[0] in "LR"]
    if plays:
        return max(plays, key=lambda m: weight(m, decision["ends"]))
    return "draw" if "draw" in legal else "pass"


def main() -> None:
    print(json.dumps({"type": "hello", "protocol": 1, "name": "greedy.py"}), flush=True)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "decision":
            answer = {"id": message["id"], "move": choose(message)}
            print(json.dumps(answer), flush=True)
        elif message["type"] == "quit":
            break


if __name__ == "__main__":
    main()
