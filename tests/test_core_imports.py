"""The layers: core <- bots <- apps and integrations, read from every source file's imports.

core is every module directly in ``passing_game`` but ``l10n`` (Babel's
formatting, which only the apps install, above core and bots); the bots are
``passing_game.bots`` (with the compiled kernel's wrapper, ``bots.kernel``);
the apps are ``cli`` (and the ``__main__`` launcher), ``terminal`` and
``web``; the integrations are ``rl``, ``arena`` and ``bench``. Imports are
read from the source (``ast``), so an import inside a function or under
``TYPE_CHECKING`` counts too.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import passing_game

PACKAGE = Path(passing_game.__file__).parent
#: Modules directly in the package that are not core: shared by the apps, above core and bots.
APPS_SHARED = ("l10n",)
CORE = sorted(
    p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__", *APPS_SHARED)
)
BOTS = "bots"
APPS = ("cli", "terminal", "web")
INTEGRATIONS = ("rl", "arena", "bench", "solve")
#: Core-side packages: data and logic over the core (the tutorial's lessons, the
#: puzzles and their exact search). No I/O but the puzzles' own JSON-lines files
#: (``puzzles.files``: the shipped set is package data).
CORE_SIDE = ("learn", "puzzles")
SUBPACKAGES = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))
HEAVY = ("click", "rich", "passing_game.bots", "passing_game.cli", "passing_game.terminal")


def imported_names(path: Path) -> set[str]:
    """Every module a source file imports, at any depth (also under TYPE_CHECKING).

    ``from passing_game import kernel`` counts as ``passing_game.kernel`` when
    that is a module, as ``passing_game`` otherwise.
    """
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            assert node.module is not None
            names.add(node.module)
            for alias in node.names:
                inner = PACKAGE.parent.joinpath(*f"{node.module}.{alias.name}".split("."))
                if inner.with_suffix(".py").exists() or (inner / "__init__.py").exists():
                    names.add(f"{node.module}.{alias.name}")
    return names


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield module_name(path), path


def part(module: str) -> str | None:
    """Which part of the package a module is in: a subpackage, "core", or None if outside."""
    names = module.split(".")
    if names[0] != "passing_game":
        return None
    if len(names) == 1:
        return "core"
    if names[1] == "__main__":
        return "cli"  # the launcher, ``python -m passing_game``
    if names[1] in APPS_SHARED:
        return names[1]
    return names[1] if names[1] in SUBPACKAGES else "core"


def imports_of(parts: tuple[str, ...]) -> list[tuple[str, str]]:
    """(module, what it imports from this package) for every module in ``parts``."""
    return [
        (module, name)
        for module, path in sources()
        if part(module) in parts
        for name in sorted(imported_names(path))
        if part(name) is not None
    ]


def test_every_subpackage_has_a_layer() -> None:
    assert sorted((BOTS, *APPS, *INTEGRATIONS, *CORE_SIDE)) == SUBPACKAGES


@pytest.mark.parametrize("name", [*CORE, "__init__"])
def test_core_source_imports_only_stdlib_and_core(name: str) -> None:
    for module in imported_names(PACKAGE / f"{name}.py"):
        top = module.split(".")[0]
        if top == "passing_game":
            assert part(module) == "core", (name, module)
        else:
            assert top in sys.stdlib_module_names or top == "__future__", (name, module)


@pytest.mark.parametrize("name", CORE_SIDE)
def test_core_side_packages_import_only_stdlib_core_and_themselves(name: str) -> None:
    for path in sorted((PACKAGE / name).glob("*.py")):
        for module in imported_names(path):
            top = module.split(".")[0]
            if top == "passing_game":
                assert part(module) in ("core", name), (path.name, module)
            else:
                assert top in sys.stdlib_module_names or top == "__future__", (path.name, module)


def test_bots_import_only_core_and_bots() -> None:
    wrong = [(m, n) for m, n in imports_of((BOTS,)) if part(n) not in ("core", BOTS)]
    assert wrong == []


def test_the_kernel_wrapper_sits_under_the_bots() -> None:
    assert (PACKAGE / "bots" / "kernel.py").exists()
    assert not (PACKAGE / "kernel.py").exists()


def test_integrations_import_core_bots_and_themselves() -> None:
    wrong = [(m, n) for m, n in imports_of(INTEGRATIONS) if part(n) not in ("core", BOTS, part(m))]
    assert wrong == []


def test_the_terminal_does_not_import_the_web() -> None:
    assert [(m, n) for m, n in imports_of(("terminal",)) if part(n) == "web"] == []


def test_the_web_does_not_import_the_terminal() -> None:
    assert [(m, n) for m, n in imports_of(("web",)) if part(n) == "terminal"] == []


def test_apps_import_no_integration_but_the_launcher() -> None:
    """Only ``cli``, the launcher, reaches the other apps and the integrations."""
    wrong = [
        (m, n) for m, n in imports_of(("terminal", "web")) if part(n) in (*INTEGRATIONS, "cli")
    ]
    assert wrong == []


@pytest.mark.parametrize("name", APPS_SHARED)
def test_what_the_apps_share_imports_only_core(name: str) -> None:
    wrong = [n for n in imported_names(PACKAGE / f"{name}.py") if part(n) not in (None, "core")]
    assert wrong == []


def core_graph() -> dict[str, set[str]]:
    """Which core modules each core module imports (not counting the package's ``__init__``)."""
    graph = {}
    for name in CORE:
        imported = imported_names(PACKAGE / f"{name}.py")
        graph[name] = {
            n.split(".")[1] for n in imported if part(n) == "core" and n != "passing_game"
        } - {name}
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle (its modules in order, the first again at the end), or []."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return []


def test_cycle_finds_a_cycle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_no_cycle_among_core_modules() -> None:
    """Not even for typing: the core is a stack, each module importing only ones below it."""
    assert cycle(core_graph()) == []


def test_importing_the_core_loads_no_heavy_module() -> None:
    """In a fresh interpreter: importing the core pulls in no click, rich, bots, cli or terminal."""
    code = (
        "import sys, json\n"
        "import passing_game\n"
        + "".join(f"import passing_game.{name}\n" for name in CORE)
        + "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = json.loads(out.stdout)
    assert "passing_game.round" in loaded and "passing_game.records" in loaded
    heavy = [m for m in loaded if m in HEAVY or m.startswith(tuple(h + "." for h in HEAVY))]
    assert heavy == []
    third_party = [
        m
        for m in loaded
        if m.split(".")[0] not in sys.stdlib_module_names
        and m.split(".")[0] not in ("passing_game", "__main__", "_distutils_hack", "sitecustomize")
        and not m.startswith("_")
    ]
    assert third_party == []


def test_importtime_shows_no_heavy_module() -> None:
    """``python -X importtime`` lists every module imported; none of the heavy ones."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import passing_game"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    modules = {line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines() if "|" in line}
    assert "passing_game.round" in modules
    assert not [m for m in modules if m.split(".")[0] in ("click", "rich")]
    assert not [m for m in modules if m.startswith(HEAVY[2:])]
