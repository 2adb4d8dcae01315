"""The rules core imports only the standard library and other core modules."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import passing_game

CORE = [
    "tiles",
    "rules",
    "moves",
    "round",
    "match",
    "views",
    "records",
    "scoring",
    "legality",
    "outcome",
    "state",
    "errors",
    "i18n",
    "words",
    "steps",
]
PACKAGE = Path(passing_game.__file__).parent
HEAVY = ("click", "rich", "passing_game.bots", "passing_game.cli", "passing_game.terminal")


def imported_names(path: Path) -> set[str]:
    """Every module a source file imports, at any depth (also under TYPE_CHECKING)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            assert node.module is not None
            names.add(node.module)
    return names


@pytest.mark.parametrize("name", [*CORE, "__init__"])
def test_core_source_imports_only_stdlib_and_core(name: str) -> None:
    for module in imported_names(PACKAGE / f"{name}.py"):
        top = module.split(".")[0]
        if top == "passing_game":
            assert module == "passing_game" or module.split(".")[1] in CORE, (name, module)
        else:
            assert top in sys.stdlib_module_names or top == "__future__", (name, module)


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
