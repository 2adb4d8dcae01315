"""Every ``Code:`` pointer in docs/DECISIONS.md and docs/ARCHITECTURE.md names code that exists.

A ``Code:`` paragraph lists, in backticks, what carries a decision out:
modules (``web.daily``), names in them (``match.Match.resign``, ``Round.view``),
names relative to the last module or class named (``legal_moves`` after
``passing_game.legality.plays``, ``Table.on_time`` after ``web.tables.Table``),
names in parentheses looked up in what comes before them (``web.daily``
(``daily_seed``)), and files (``_kernel.c``, ``web/static/i18n.js``,
``tests/test_records.py``; a C or JavaScript name in parentheses after one
must appear in it). A pointer that no longer resolves fails the test, named.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

import passing_game

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(passing_game.__file__).parent
DOCS = [ROOT / "docs" / "DECISIONS.md", ROOT / "docs" / "ARCHITECTURE.md"]
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
TOKEN = re.compile(r"`([^`]+)`|(\()|(\))")


class Missing(Exception):
    """A name that does not resolve; the message says which part."""


class NeedsExtra(Exception):
    """The module imports a package of an extra that is not installed."""


def code_paragraphs() -> list[tuple[str, str]]:
    """(the heading above, the paragraph's text) for every ``Code:`` paragraph."""
    found = []
    for doc in DOCS:
        heading = doc.name
        lines = doc.read_text().splitlines()
        for i, line in enumerate(lines):
            if line.startswith("#"):
                heading = f"{doc.name} {line.lstrip('#').strip()}"
            elif line.startswith("Code:"):
                text = []
                for more in lines[i:]:
                    if not more.strip():
                        break
                    text.append(more)
                found.append((heading, " ".join(text)))
    return found


def import_module(name: str) -> ModuleType | None:
    """``passing_game.<name>``, None if there is no such module."""
    full = name if name.startswith("passing_game") else f"passing_game.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as error:
        missing = error.name or ""
        if missing == full or full.startswith(missing + "."):
            return None
        if missing.split(".")[0] == "passing_game":
            raise
        raise NeedsExtra(f"{full} needs {missing}") from error


def attribute(owner: object, name: str) -> object:
    """``owner.name``, counting names a class only declares (slots, annotations)."""
    if hasattr(owner, name):
        return getattr(owner, name)
    for cls in getattr(owner, "__mro__", ()):
        if name in getattr(cls, "__annotations__", {}) or name in getattr(cls, "__slots__", ()):
            return f"{cls.__name__}.{name}"
    raise Missing(f"{getattr(owner, '__name__', owner)} has no {name}")


def resolve_dotted(name: str, known: dict[str, object], last_module: object) -> object:
    """A dotted name: a module path and attributes, or a name known from before."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module = import_module(".".join(parts[:cut]))
        if module is not None:
            obj: object = module
            for part in parts[cut:]:
                obj = attribute(obj, part)
            return obj
    first, rest = parts[0], parts[1:]
    if first in known:
        obj = known[first]
    elif hasattr(passing_game, first):
        obj = getattr(passing_game, first)
    elif last_module is not None:
        obj = attribute(last_module, first)
    else:
        raise Missing(f"no module or known name {first}")
    for part in rest:
        obj = attribute(obj, part)
    return obj


def find_file(path: str) -> Path:
    for base in (ROOT, PACKAGE):
        if (base / path).exists():
            return base / path
    raise Missing(f"no file {path}")


def file_has(path: Path, name: str) -> None:
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    pattern = re.compile(rf"\b{re.escape(name)}\b")
    if not any(pattern.search(f.read_text(errors="replace")) for f in files):
        raise Missing(f"{name} not in {path.relative_to(ROOT)}")


def check_paragraph(text: str) -> tuple[list[str], list[str]]:
    """The pointers that do not resolve, and those not checked for want of an extra.

    After a module that needs a missing extra, a name that does not resolve
    may be one relative to that module: it counts as not checked.
    """
    broken: list[str] = []
    extras: list[str] = []
    known: dict[str, object] = {}
    last_module: object = None
    previous: object = None  # what a parenthesised name is looked up in
    inside: object = None
    for match in TOKEN.finditer(text.removeprefix("Code:")):
        pointer, opening, closing = match.groups()
        if opening:
            inside = previous
            continue
        if closing:
            inside = None
            continue
        try:
            if "/" in pointer or re.search(r"\.(c|h|js|py|md|sh|toml)$", pointer):
                previous = find_file(pointer)
            elif not NAME.fullmatch(pointer):
                raise Missing(f"not a name or a file: {pointer}")
            elif isinstance(inside, Path):
                file_has(inside, pointer)
            elif inside is not None:
                try:
                    attribute(inside, pointer)
                except Missing:  # a name in a method's parentheses belongs to its class
                    owner = known.get(getattr(inside, "__qualname__", ".").split(".")[0])
                    if owner is None:
                        raise
                    attribute(owner, pointer)
            else:
                obj = resolve_dotted(pointer, known, last_module)
                previous = obj
                if isinstance(obj, ModuleType):
                    last_module = obj
                else:
                    last_module = importlib.import_module(
                        getattr(obj, "__module__", None) or "passing_game"
                    )
                for part in pointer.split("."):
                    candidate = getattr(last_module, part, None)
                    if isinstance(candidate, type):
                        known[part] = candidate
        except Missing as error:
            if extras:  # it may be relative to what could not be imported
                extras.append(f"`{pointer}` not checked")
            else:
                broken.append(f"`{pointer}`: {error}")
        except NeedsExtra as error:
            extras.append(str(error))
            previous = None
    return broken, extras


PARAGRAPHS = code_paragraphs()


def paragraph_id(heading: str) -> str:
    """``DECISIONS.md P2`` for a numbered section, else the whole heading."""
    numbered = re.match(r"(\S+) (P\d+)\.", heading)
    return " ".join(numbered.groups()) if numbered else heading


def test_the_docs_have_code_pointers() -> None:
    assert len(PARAGRAPHS) >= 30


@pytest.mark.parametrize(
    ("heading", "text"), PARAGRAPHS, ids=[paragraph_id(h) for h, _ in PARAGRAPHS]
)
def test_code_pointer_resolves(heading: str, text: str) -> None:
    broken, extras = check_paragraph(text)
    assert not broken, f"{heading}: " + "; ".join(broken)
    if extras:
        pytest.skip("; ".join(extras))


@pytest.mark.parametrize(
    "text",
    [
        "Code: `Round._apply`.",
        "Code: `web.clocks.Clocks.wanted`, `Clocks.no_such_method`.",
        "Code: `_kernel.c` (`no_such_function`).",
        "Code: `match.Match.resign`; checked by `tests/test_no_such_file.py`.",
        "Code: `bots.no_such_module`.",
    ],
)
def test_a_stale_pointer_is_caught(text: str) -> None:
    broken, extras = check_paragraph(text)
    if extras:
        pytest.skip("; ".join(extras))
    assert len(broken) == 1
