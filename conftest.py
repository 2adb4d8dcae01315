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

``--quick`` (``make check``) is the quick loop's smaller parametrization:
every test function still runs, on fewer of its cases (``quick_sample``). Of
a parametrized function it keeps a tenth of the cases, at least
``QUICK_CASES``, spread evenly over the list and keeping every value of a short
parameter list (each language, each player count, ...); the rules suites'
tests alternate between the two engines (the ``engine`` fixture,
tests/conftest.py) instead of running on both. When ``-m`` leaves out ``web``
the web app's files are not even collected. ``make test`` runs the full
parametrization.
"""

from __future__ import annotations

import importlib
import math
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"
TESTS = ROOT / "tests"

#: Module (or folder) -> the missing package that keeps it from importing.
LEFT_OUT: dict[str, str] = {}

#: ``--quick``: the fewest cases kept of a parametrized test function (a tenth if more).
QUICK_CASES = 4
#: The ``engine`` fixture's values (tests/conftest.py ``ENGINES``).
ENGINES = ("PyRound", "FastRound")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--quick",
        action="store_true",
        default=False,
        help="the quick loop's smaller parametrization (make check): every test function, "
        "fewer of its cases, the rules suites on one engine each (conftest.py)",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("quick"):
        config.pluginmanager.register(Quick(), "passing-game-quick")


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


def web_marks(path: Path) -> tuple[str, ...]:
    """The markers the tests of ``path`` get for where they are (none outside the web app)."""
    web = SRC / "passing_game" / "web"
    if not (path.name.startswith("test_web_") or path == web or web in path.parents):
        return ()
    if path.stem.endswith(("_e2e", "_cluster")) or path.stem == "test_web_ci":
        return ("web", "slow")
    return ("web",)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for mark in web_marks(item.path):
            item.add_marker(getattr(pytest.mark, mark))


def deselected_by_mark(config: pytest.Config, marks: tuple[str, ...]) -> bool:
    """Whether ``-m`` leaves out every test with ``marks``, whatever other markers it has
    (tried with all of them absent and with all present)."""
    markexpr = config.getoption("markexpr")
    if not marks or not markexpr:
        return False
    try:
        from _pytest.mark.expression import Expression
    except ImportError:  # pragma: no cover - pytest moved it: collect as usual
        return False

    def matcher(others: bool) -> Callable[..., bool]:
        return lambda name, /, **kwargs: name in marks or (others and not kwargs)

    expression = Expression.compile(markexpr)
    return not any(expression.evaluate(matcher(others)) for others in (False, True))


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if config.getoption("quick") and deselected_by_mark(config, web_marks(collection_path)):
        return True  # --quick: not imported only to be deselected
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


def spread(keys: list[tuple[tuple[str, str], ...]]) -> list[tuple[tuple[str, str], ...]]:
    """``--quick``'s cases of one test function: a tenth of ``keys`` (at least ``QUICK_CASES``),
    evenly spread, and each value of a parameter that takes at most that many values."""
    limit = max(QUICK_CASES, math.ceil(len(keys) / 10))
    if len(keys) <= limit:
        return keys
    picks = {round(i * (len(keys) - 1) / (limit - 1)) for i in range(limit)}
    for name in dict.fromkeys(name for key in keys for name, _ in key):
        first: dict[str | None, int] = {}
        for index, key in enumerate(keys):
            first.setdefault(dict(key).get(name), index)
        if len(first) <= limit:
            seen = {dict(keys[i]).get(name) for i in picks}
            picks.update(index for value, index in first.items() if value not in seen)
    return [keys[i] for i in sorted(picks)]


def quick_sample(items: list[pytest.Item], engines: list[str]) -> list[pytest.Item]:
    """The items ``--quick`` keeps: every test function, on fewer of its cases (``spread``);
    of each case of a rules suite's test, one engine of ``engines``, taking turns."""
    functions: dict[str, list[pytest.Item]] = {}
    for item in items:
        functions.setdefault(item.nodeid.split("[")[0], []).append(item)
    kept: set[int] = set()
    turn = 0
    for cases in functions.values():
        # The cases that differ only in the engine are one variant.
        variants: dict[tuple[tuple[str, str], ...], dict[str | None, pytest.Item]] = {}
        for item in cases:
            params = getattr(item, "callspec", None)
            values = params.params if params is not None else {}
            engine = values.get("engine")
            engine = engine if isinstance(engine, str) and engine in ENGINES else None
            key = tuple(
                (name, repr(value))
                for name, value in values.items()
                if not (name == "engine" and engine is not None)
            )
            variants.setdefault(key, {})[engine] = item
        engined = False
        for number, key in enumerate(spread(list(variants))):
            by_engine = variants[key]
            usable: list[str | None] = [e for e in engines if e in by_engine] or list(by_engine)
            kept.add(id(by_engine[usable[(turn + number) % len(usable)]]))
            engined = engined or None not in by_engine
        turn += engined
    return [item for item in items if id(item) in kept]


class Quick:
    """``--quick``, registered by ``pytest_configure``."""

    @pytest.hookimpl(trylast=True)  # after -m and -k have deselected theirs
    def pytest_collection_modifyitems(
        self, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        from passing_game.round import FAST_AVAILABLE

        engines = list(ENGINES if FAST_AVAILABLE else ENGINES[:1])
        kept = quick_sample(items, engines)
        if len(kept) < len(items):
            chosen = {id(item) for item in kept}
            config.hook.pytest_deselected(items=[i for i in items if id(i) not in chosen])
            items[:] = kept
