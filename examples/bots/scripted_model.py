#!/usr/bin/env python3
"""A scripted "language model" playing through the outside-bot protocol.

It stands where a real model would: it asks for the view as text (``"text":
true`` in its hello), reads only that text, and answers in loose words,
which the arena reads with ``passing_game.bots.text.parse_loose``. Its
"thinking" is a script: take the first legal move the text lists, and say
it in the next of a few phrasings. Standard library only; run it with

    passing-game arena "cmd:label=model:python3 examples/bots/scripted_model.py" random

A real model goes where ``think`` is: send it the text, send back its words.
"""

import json
import re
import sys

#: How the "model" words its answers, in turn: loose on purpose.
SCRIPT = (
    "I will play {tile} on the {end}.",
    "{tile} {end}",
    "Play {numbers} on the {END}!",
    "  {tile}   {end}  ",
)
SAY = {"draw": ("I draw.", "DRAW", "draw a tile"), "pass": ("I pass.", "Pass", "pass")}


def think(text: str, turn: int) -> str:
    """The answer to one position, read from its text alone."""
    legal = re.search(r"^Legal moves: (.*)\.$", text, re.MULTILINE)
    if legal is None:
        return "pass"
    first = legal.group(1).split(", ")[0]
    play = re.fullmatch(r"play (\[\d\|\d\])(?: on the (left|right))?", first)
    if play is None:
        return SAY[first][turn % 3]
    tile, end = play.group(1), play.group(2) or "left"
    numbers = tile.strip("[]").replace("|", "-")
    return SCRIPT[turn % len(SCRIPT)].format(tile=tile, end=end, END=end.upper(), numbers=numbers)


def main() -> None:
    hello = {"type": "hello", "protocol": 1, "name": "scripted-model", "text": True}
    print(json.dumps(hello), flush=True)
    turn = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "decision":
            print(
                json.dumps({"id": message["id"], "move": think(message["text"], turn)}), flush=True
            )
            turn += 1
        elif message["type"] == "quit":
            break


if __name__ == "__main__":
    main()
