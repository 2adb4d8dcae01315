"""Write tests/data/expert-5f2ff52.json: the moves the ``expert`` level chose at commit 5f2ff52.

The golden file of tests/test_expert_frozen.py. It was written once, by this
script run on a checkout of commit 5f2ff52 with the compiled kernel built::

    git worktree add /tmp/wt-old 5f2ff52
    cd /tmp/wt-old && python3 -m venv .venv && .venv/bin/pip install -e '.[all]'
    .venv/bin/python /path/to/this/tests/data/make_expert_5f2ff52.py > expert-5f2ff52.json

Rerunning it on later code answers "does today's ``expert`` still play as
5f2ff52's?"; the file itself is never regenerated (it is the yardstick).

It uses only what both that commit and later ones have (``Round``,
``Rules``, ``make``, the move notation), so it runs on either. Each position
is a seeded deal played some moves into the round by ``greedy`` and uniformly
random moves; the seat to move must have at least two legal moves. Beside
the move the file keeps what the search thought (``advise``: iterations run,
each root move's mean value), which a change of the budget or of the
sampler moves even where the chosen move stays.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from passing_game import Round, Rules
from passing_game.bots import make

#: The rules of the positions and how many of each: the two most played
#: tables, then a few variants whose flags the kernel reads.
RULES: list[tuple[Rules, int]] = [
    (Rules(players=2), 26),
    (Rules(players=4, partnerships=True), 26),
    (Rules(players=3, scoring="pairwise"), 3),
    (Rules(players=2, draw="continue"), 3),
    (Rules(players=4, passing="forced"), 2),
]


def kernel_built() -> bool:
    """Whether the compiled kernel is there (its module moved after 5f2ff52)."""
    try:
        from passing_game.bots import kernel
    except ImportError:
        from passing_game import kernel  # type: ignore[no-redef]
    return bool(kernel.AVAILABLE)


def position(rules: Rules, seed: int, rng: random.Random) -> tuple[Round, list[str]] | None:
    """A deal played a random number of moves in; None if the round ends first."""
    rnd = Round.new(rules, seed=seed)
    greedy = make("greedy")
    moves: list[str] = []
    target = rng.randrange(0, 4 * rules.players + 4)
    while not rnd.is_over:
        seat = rnd.to_move
        assert seat is not None
        legal = rnd.legal_moves()
        if len(moves) >= target and len(legal) >= 2:
            return rnd, moves
        move = greedy.choose(rnd.view(seat)) if rng.random() < 0.6 else rng.choice(legal)
        rnd.play(move)
        moves.append(str(move))
    return None


def about(commit: str) -> str:
    """What the golden file of the ``expert`` level at ``commit`` says it holds."""
    return (
        f"The expert level's moves at commit {commit} (kernel built): each position is "
        "Round.from_deal(rules, deal) then the moves; chosen is "
        "make('expert', seed=bot_seed).choose(view of the seat to move); samples and "
        "values are its advise(view): iterations run and each root move's mean points. "
        f"Written by tests/data/make_expert_{commit}.py; checked by "
        "tests/test_expert_frozen.py."
    )


ABOUT = about("5f2ff52")


def generate(about: str = ABOUT) -> dict[str, Any]:
    """The golden positions and the expert's choice in each (``about`` says whose)."""
    if not kernel_built():
        sys.exit("the golden moves are the compiled kernel's: build it first")
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    rng = random.Random(16)
    out: list[dict[str, Any]] = []
    seed = 0
    for rules, count in RULES:
        made = 0
        while made < count:
            seed += 1
            found = position(rules, seed, rng)
            if found is None:
                continue
            rnd, moves = found
            seat = rnd.to_move
            assert seat is not None
            bot_seed = len(out)
            bot: Any = make("expert", seed=bot_seed)
            chosen = bot.choose(rnd.view(seat))
            advice = bot.advise(rnd.view(seat))
            assert advice.move == chosen
            deal = rnd.deal
            out.append(
                {
                    "rules": rules.to_dict(),
                    "seed": seed,
                    "deal": {
                        "hands": [[str(t) for t in hand] for hand in deal.hands],
                        "boneyard": [str(t) for t in deal.boneyard],
                        "leader": deal.leader,
                    },
                    "moves": moves,
                    "bot_seed": bot_seed,
                    "chosen": str(chosen),
                    "samples": advice.samples,
                    "values": {str(m): v for m, v in advice.values.items()},
                }
            )
            made += 1
    return {
        "about": about,
        "commit": commit,
        "positions": out,
    }


def dumps(data: dict[str, Any]) -> str:
    """JSON with one position a line, so a diff shows which moved."""
    head = {k: v for k, v in data.items() if k != "positions"}
    lines = [json.dumps(p, separators=(",", ":")) for p in data["positions"]]
    text = json.dumps(head, indent=1)[:-2]
    return text + ',\n "positions": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n"


def main(about_text: str = ABOUT) -> None:
    """Write the golden file to the path given, else print it."""
    text = dumps(generate(about_text))
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
