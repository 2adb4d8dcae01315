"""Measuring the engine: ``passing-game bench`` and ``make bench``.

* ``ours``: the public API (``Round.new``, ``legal_moves``, ``play``) random
  against random, ``Round.copy``, the search kernel, ``ismcts``, memory per
  1,000 live states, start-up time and arena scaling;
* ``peers``: small drivers for the peer engines (PyPI ``dominoes`` and
  OpenSpiel's ``python_block_dominoes``), which run in a throwaway virtual
  environment (``venv``) as subprocesses (``driver``) printing JSON;
* ``suite``: runs the engines alternately (ABCABC...) and takes medians;
* ``report``: the rich table, the Markdown table and the targets of issue 4;
* ``beliefs`` (``bench --beliefs``, issue 16): the log-likelihood of the
  true hidden hands under the search bots' beliefs, against uniform;
  ``beliefs_report``: its tables and Markdown block.

Importing this package loads only the standard library: the peers are
imported inside their drivers, rich only by ``report`` and ``beliefs_report``.
"""

from __future__ import annotations

from passing_game.bench.common import CLOCK, Sample

__all__ = ["CLOCK", "Sample"]
