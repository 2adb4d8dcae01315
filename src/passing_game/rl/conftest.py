"""Pytest: skip this package's doctests when the ``rl`` extra is not installed."""

from __future__ import annotations

import importlib.util

_NEEDED = ("numpy", "gymnasium", "pettingzoo", "pyspiel")

collect_ignore_glob: list[str] = (
    ["*.py"] if any(importlib.util.find_spec(name) is None for name in _NEEDED) else []
)
