"""Write tests/data/expert-562b7ae.json: the moves the ``expert`` level chose at commit 562b7ae.

The golden file of the frozen ``expert-562b7ae`` (tests/test_expert_frozen.py,
docs/DECISIONS.md P67): the same positions as tests/data/expert-5f2ff52.json
(``make_expert_5f2ff52.generate``), asked of the level of issue 16 (P39). It
was written once, run on a checkout of commit 562b7ae with the compiled
kernel built, this directory copied beside it::

    git worktree add /tmp/wt-562b7ae 562b7ae
    cp tests/data/make_expert_*.py /tmp/wt-562b7ae/tests/data/
    cd /tmp/wt-562b7ae && python3 -m venv .venv && .venv/bin/pip install -e '.[all]'
    .venv/bin/python tests/data/make_expert_562b7ae.py expert-562b7ae.json

and is never regenerated (it is the yardstick).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from make_expert_5f2ff52 import dumps, generate

ABOUT = (
    "The expert level's moves at commit 562b7ae (kernel built): each position is "
    "Round.from_deal(rules, deal) then the moves; chosen is "
    "make('expert', seed=bot_seed).choose(view of the seat to move); samples and "
    "values are its advise(view): iterations run and each root move's mean points. "
    "Written by tests/data/make_expert_562b7ae.py; checked by "
    "tests/test_expert_frozen.py."
)

if __name__ == "__main__":
    text = dumps(generate(ABOUT))
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text(text)
    else:
        sys.stdout.write(text)
