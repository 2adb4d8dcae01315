"""Write tests/data/expert-f3f7ee4.json: the moves the ``expert`` level chose at commit f3f7ee4.

The golden file of the frozen ``expert-f3f7ee4`` (tests/test_expert_frozen.py,
docs/DECISIONS.md P71): the same positions as tests/data/expert-5f2ff52.json
(``make_expert_5f2ff52.generate``), asked of the level of P67 (one search,
the model of play in its playouts), the last before the level became an
ensemble of four searches. It was written once, run on commit f3f7ee4 with
the compiled kernel built::

    git checkout f3f7ee4 && .venv/bin/pip install -e '.[all]'
    .venv/bin/python tests/data/make_expert_f3f7ee4.py tests/data/expert-f3f7ee4.json

and is never regenerated (it is the yardstick).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from make_expert_5f2ff52 import about, main

if __name__ == "__main__":
    main(about("f3f7ee4"))
