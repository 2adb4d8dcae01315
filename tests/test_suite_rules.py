"""Rules for the test suite itself, learnt from CI runs that failed on them.

A test that calls ``asyncio.run`` in its own body passes alone and fails in
the whole suite: the browser tests that ran before it leave Playwright's event
loop running on pytest's main thread, where ``asyncio.run`` refuses to start
(CI failed so twice, in ``test_web_recovery.py`` and ``test_web_social.py``).
A coroutine is run to its end through ``web_helpers.blocking`` instead, which
runs it on a thread of its own; a function nested in the test (a thread's
target) may call ``asyncio.run`` itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent


def _direct_asyncio_runs(tree: ast.AST) -> list[tuple[str, int]]:
    """(test name, line) of every ``asyncio.run(...)`` in a test function's own body."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not node.name.startswith("test"):
            continue
        stack: list[ast.AST] = list(node.body)
        while stack:
            item = stack.pop()
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                continue  # a nested function runs where it is called: maybe a thread
            if (
                isinstance(item, ast.Call)
                and isinstance(item.func, ast.Attribute)
                and item.func.attr == "run"
                and isinstance(item.func.value, ast.Name)
                and item.func.value.id == "asyncio"
            ):
                found.append((node.name, item.lineno))
            stack.extend(ast.iter_child_nodes(item))
    return found


def test_the_check_finds_a_direct_call_and_lets_a_threads_be() -> None:
    source = (
        "import asyncio\n"
        "def test_direct():\n"
        "    asyncio.run(work())\n"
        "def test_in_a_thread():\n"
        "    def attempt():\n"
        "        asyncio.run(work())\n"
        "    start(attempt)\n"
        "def helper():\n"
        "    asyncio.run(work())\n"
    )
    assert _direct_asyncio_runs(ast.parse(source)) == [("test_direct", 3)]


def test_no_test_calls_asyncio_run_on_the_main_thread() -> None:
    found = [
        f"{path.name}:{line} ({name})"
        for path in sorted(TESTS.glob("test_*.py"))
        for name, line in _direct_asyncio_runs(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert found == [], "use web_helpers.blocking(...) instead of asyncio.run in: " + ", ".join(
        found
    )
