"""Write tests/data/expert-fe7f04a.json: the moves the ``expert`` level chose at commit fe7f04a.

The golden file of the frozen ``expert-fe7f04a`` (tests/test_expert_frozen.py,
docs/DECISIONS.md P68): the same positions as tests/data/expert-5f2ff52.json
(``make_expert_5f2ff52.generate``), asked of the level of issue 28 (P67:
the model of play in its playouts). It was written once, on a clean
checkout of commit fe7f04a with the compiled kernel built::

    git checkout fe7f04a && .venv/bin/pip install -e '.[all]'
    .venv/bin/python tests/data/make_expert_fe7f04a.py tests/data/expert-fe7f04a.json

and is never regenerated (it is the yardstick).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from make_expert_5f2ff52 import dumps, generate

ABOUT = (
    "The expert level's moves at commit fe7f04a (kernel built): each position is "
    "Round.from_deal(rules, deal) then the moves; chosen is "
    "make('expert', seed=bot_seed).choose(view of the seat to move); samples and "
    "values are its advise(view): iterations run and each root move's mean points. "
    "Written by tests/data/make_expert_fe7f04a.py; checked by "
    "tests/test_expert_frozen.py."
)

if __name__ == "__main__":
    text = dumps(generate(ABOUT))
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text(text)
    else:
        sys.stdout.write(text)
