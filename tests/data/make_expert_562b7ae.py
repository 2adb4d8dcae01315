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

from make_expert_5f2ff52 import about, main

if __name__ == "__main__":
    main(about("562b7ae"))
