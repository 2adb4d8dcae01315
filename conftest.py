"""Pytest, for the whole checkout: the web app's markers, and leaving out the sources
whose extra is not installed.

The web app's tests (``tests/test_web_*``) and doctests (``passing_game.web``)
are marked ``web``; those that drive a browser, start several server
processes or run pytest again (``*_e2e``, ``*_cluster``, ``test_web_ci``) are
``slow`` too. ``make check`` leaves out both markers (pyproject.toml).

``--doctest-modules`` imports every module under ``src`` and every helper
module in ``tests``; a module of an optional part (the web app, the arena's
statistics, the RL interfaces, the browser helpers) cannot be imported
without its extra. Such a module is not collected, and the report's header
says which and why. A module that fails to import for any other reason,
one of this package's own included, is still an error.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"
TESTS = ROOT / "tests"

#: Module (or folder) -> the missing package that keeps it from importing.
LEFT_OUT: dict[str, str] = {}


def module_of(path: Path) -> str | None:
    """The name ``path`` is imported under, or None if it is not a module pytest imports."""
    if path.suffix != ".py" and not (path / "__init__.py").exists():
        return None
    if path.name == "conftest.py":
        return None
    if SRC in path.parents:
        parts = path.relative_to(SRC).with_suffix("").parts
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    if path.parent == TESTS and not path.name.startswith("test_"):
        if str(TESTS) not in sys.path:  # where pytest puts it for the test modules
            sys.path.insert(0, str(TESTS))
        return path.stem
    return None


def missing_extra(name: str) -> str | None:
    """What ``name`` needs and cannot find, if that is why it does not import.

    A helper that checks for its packages itself (``web_helpers.require_module``)
    skips instead; its reason is returned the same way.
    """
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as error:
        missing = (error.name or "").split(".")[0]
        if missing and missing not in ("passing_game", name.split(".")[0]):
            return f"no module {error.name}"
        raise
    except pytest.skip.Exception as skipped:
        return str(skipped.msg)
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    web = SRC / "passing_game" / "web"
    for item in items:
        path = item.path
        if path.name.startswith("test_web_") or web in path.parents:
            item.add_marker(pytest.mark.web)
            if path.stem.endswith(("_e2e", "_cluster")) or path.stem == "test_web_ci":
                item.add_marker(pytest.mark.slow)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    name = module_of(collection_path)
    if name is None:
        return None
    missing = missing_extra(name)
    if missing is None:
        return None
    LEFT_OUT[str(collection_path.relative_to(ROOT))] = missing
    return True


def pytest_report_collectionfinish(config: pytest.Config) -> list[str]:
    return [f"not collected, {path}: {why}" for path, why in sorted(LEFT_OUT.items())]
