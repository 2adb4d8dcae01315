"""The web tier's Python modules in layers: no import circle (issue 23).

Every import counts, at the top of a module, inside a function (a lazy one)
or under ``if TYPE_CHECKING:``: a circle closed only for the type checker
is still two modules that cannot be read, changed or tested one without the
other. A part of a table (``seating``, ``outbox``, ``autoplay``,
``replica``) names what it uses of its table in a ``Protocol`` of its own
and never imports the runner (``tables``), nor the runner the lobby.

Also: the authority (``web/game/``) imports nothing else of the web, the
store (``web/store/``) only itself and the authority's values, and no
module of the web is over 500 lines (one job each).
"""

from __future__ import annotations

import ast
from pathlib import Path

import passing_game.web
from graph_helpers import circles

WEB = Path(passing_game.web.__file__).parent
PACKAGE = "passing_game.web"
#: The most lines a module of the web may have.
MOST_LINES = 500


def module_name(path: Path) -> str:
    parts = list(path.relative_to(WEB.parent.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of the web, by its dotted name (a package by its ``__init__``)."""
    return {module_name(path): path for path in sorted(WEB.rglob("*.py"))}


def imported(name: str, path: Path, known: dict[str, Path]) -> dict[str, int]:
    """The web's modules ``name`` imports, each with the line of its first import.

    ``from P import n`` names the module ``P.n`` when there is one (a
    submodule), else ``P`` itself; relative imports count as well.
    """
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.append(sub if sub in known else base)
        for target in targets:
            if target in known and target != name:
                found.setdefault(target, node.lineno)
    return found


def graph() -> dict[str, dict[str, int]]:
    known = modules()
    return {name: imported(name, path, known) for name, path in known.items()}


def short(name: str) -> str:
    return name.removeprefix(f"{PACKAGE}.")


def described(part: list[str], edges: dict[str, dict[str, int]]) -> str:
    """A circle named module by module, with the import lines that close it."""
    lines = [" <-> ".join(short(m) for m in part)]
    for module in part:
        for other, line in sorted(edges[module].items()):
            if other in part:
                lines.append(f"    {short(module)}:{line} imports {short(other)}")
    return "\n".join(lines)


def test_the_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    """Top-level, lazy, ``TYPE_CHECKING`` and relative imports all count."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "from passing_game.web.table import frames\n"
        "from passing_game.web.store import Store\n"
        "from .table.conn import Conn\n"
        "if TYPE_CHECKING:\n"
        "    from passing_game.web.table.runner import Table\n"
        "def later() -> None:\n"
        "    import passing_game.web.lobby\n"
        "    from passing_game.web.store.rows import SeatRow\n"
    )
    path = tmp_path / "example.py"  # read as if it were web/example.py
    path.write_text(source)
    known = {**modules(), f"{PACKAGE}.example": path}
    edges = imported(f"{PACKAGE}.example", path, known)
    assert sorted(short(m) for m in edges) == [
        "lobby",
        "store",
        "store.rows",
        "table.conn",
        "table.frames",
        "table.runner",
    ]
    two = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}}
    assert circles(two) == [["a", "b", "c"]]


def test_no_import_circle_in_the_web() -> None:
    """Issue 23: the web's modules import each other in one direction only."""
    edges = graph()
    assert len(edges) > 40 and f"{PACKAGE}.table.runner" in edges
    found = circles(edges)
    assert not found, "import circles:\n" + "\n".join(described(p, edges) for p in found)


def test_the_authority_imports_nothing_else_of_the_web() -> None:
    """``web/game/`` is pure (P41): of the web it imports only itself."""
    edges = graph()
    game = f"{PACKAGE}.game"
    wrong = [
        f"{short(module)}:{line} imports {short(other)}"
        for module, found in edges.items()
        if module == game or module.startswith(f"{game}.")
        for other, line in found.items()
        if not (other == game or other.startswith(f"{game}."))
    ]
    assert not wrong, "\n".join(wrong)


def test_the_store_imports_only_itself_and_the_authority() -> None:
    """``web/store/`` keeps the authority's values (P42) and knows nothing above
    it but its threads (``web.offloop``, P43)."""
    edges = graph()
    store, game = f"{PACKAGE}.store", f"{PACKAGE}.game"
    allowed = (store, game, f"{PACKAGE}.offloop")
    wrong = [
        f"{short(module)}:{line} imports {short(other)}"
        for module, found in edges.items()
        if module == store or module.startswith(f"{store}.")
        for other, line in found.items()
        if not any(other == a or other.startswith(f"{a}.") for a in allowed)
    ]
    assert not wrong, "\n".join(wrong)


def test_each_module_of_the_web_is_small() -> None:
    """Issue 23: a module holds one job; none is over ``MOST_LINES`` lines."""
    long = {
        short(name): count
        for name, path in modules().items()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert not long, long
