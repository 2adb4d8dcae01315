"""Every code pointer in the docs names code that exists.

**Code: paragraphs.** A ``Code:`` paragraph of docs/DECISIONS.md or
docs/ARCHITECTURE.md lists, in backticks, what carries a decision out:
modules (``web.daily``), names in them (``match.Match.resign``, ``Round.view``),
names relative to the last module or class named (``legal_moves`` after
``passing_game.legality.plays``, ``Table.on_time`` after ``web.table.runner.Table``),
names in parentheses looked up in what comes before them (``web.daily``
(``daily_seed``)), and files (``_kernel.c``, ``web/static/i18n.js``,
``tests/test_records.py``; a C or JavaScript name in parentheses after one
must appear in it). A pointer that no longer resolves fails the test, named.

**The prose.** Every backticked span of docs/*.md and of each README.md of
the checkout, outside fenced code (the doctests run that), is one of:

- a **path**: no spaces or placeholders (``<``, ``{``, ``[``, ``…``), and a
  known file ending (``round.py``, ``_kernel.c``, ``docs/*.md``) or a first
  folder that the checkout or the package has (``web/static``, ``.ci/run``).
  Absolute, ``./``, ``../`` and ``~`` paths and routes (``/api/rules``) are
  not. It resolves when a file or folder of the checkout ends with it
  (``web/static/app.js``); a glob must match; ``bench/peers.py:53`` (or
  ``:10-53``) needs that many lines, ``path::name`` the name in the file.
- a **name**: a dotted Python name, a call's arguments dropped
  (``Round.view(seat)``) and a last ``*`` a prefix (``bots.kernel.F_*``),
  whose first part is ours: ``passing_game``, the tail of a module's path
  (``bots.ismcts``, ``web.store``, ``render``; a module or a package), a
  name ``passing_game`` exports (``Round.play``), a class of the package
  (``Match.resign``), or any CamelCase name, so that a class that is gone
  fails rather than passes for another project's. It resolves from the
  longest leading part that names a module, any module of that name, else
  from the exports and classes called like its first part. A function or
  class counts only in the module that defines it, a package or a module
  that lists it in ``__all__`` (``render.tile_text``, which the terminal
  imports from ``words``, does not); an attribute only instances have
  (``self.name =`` in the class) ends the check.
- a **literal**, anything else: commands (``make test``, ``passing-game
  serve``), options (``--seed 1000``, ``model=tuned``), numbers, JSON, moves
  (``L3-5``, ``[3|5]``), single words (``Round``, ``greedy``: as often a
  field or a value), and other projects' names (``np.where``).

A pointer that does not resolve fails, listed with its file and line, unless
it is **historical** (``formerly`` or ``then`` right before it, or struck
through: "(then `bots.search`, since split by P34)"), or **foreign** (its
sentence names, before it, another project whose code the docs quote,
``FOREIGN``: OpenSpiel's ``state.apply_action()``), or one of the few
``NOT_POINTERS``, each with its reason. One in a module whose extra is not
installed, or in a C extension that is not built, is skipped, named.

**The index of docs/DECISIONS.md** ("Index by area") lists every entry
exactly once, with its heading's title and anchor, an area and a status; an
entry "updated by Pn" or "(partly) superseded by Pn" says so in the first
line under its heading.
"""

from __future__ import annotations

import fnmatch
import importlib
import inspect
import os
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
    """``owner.name``, counting names a class only declares (slots, annotations).

    A function or class is named in the module that defines it: a module that
    only imports it does not count, unless it is a package (``__init__``) or
    lists the name in ``__all__``.
    """
    if hasattr(owner, name):
        value = getattr(owner, name)
        home = getattr(value, "__module__", None)
        if (
            isinstance(owner, ModuleType)
            and not hasattr(owner, "__path__")
            and (inspect.isfunction(value) or inspect.isclass(value))
            and home not in (None, owner.__name__)
            and name not in getattr(owner, "__all__", ())
        ):
            raise Missing(f"{owner.__name__} only imports {name} (from {home})")
        return value
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
        "Code: `match.Match.resign`, `Match.no_such_method`.",
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


# Every backticked pointer of the prose (the module docstring says what counts as one).

#: The file name endings a backticked path may have (``round.py``, ``docs/*.md``).
EXTENSIONS = {"py", "c", "h", "js", "css", "html", "md", "toml", "cfg", "sh", "json", "csv"}
EXTENSIONS |= {"po", "pot", "mo", "png", "svg", "txt", "ini", "yml", "yaml"}
#: Folders that are not part of the checkout: tools' caches, environments, build output.
NOT_CHECKOUT = {".git", ".venv", ".hypothesis", "node_modules", "__pycache__", "build", "dist"}
#: Backticked spans that look like this project's code but are not, each with why.
NOT_POINTERS = {
    "round.pass_ends_round": "a field of a frame's `round` (web/README.md), not the module",
    "round.history": "a field of a frame's `round` (web/README.md), not the module",
    "Intl.NumberFormat": "the browser's",
}
#: Other projects whose code the docs name; named before a pointer in its sentence,
#: they make the pointer theirs (OpenSpiel's ``state.apply_action()``).
FOREIGN = re.compile(r"OpenSpiel|pyspiel|`dominoes\b|python-chess|lichess|lila-ws|boardgame\.io")
#: What marks a pointer as history: "formerly" or "then" right before it, or ~~struck~~.
HISTORICAL = re.compile(r"(\b(formerly|then)\s+|~~)$", re.IGNORECASE)
SENTENCE_END = re.compile(r"[.;!?](\s|$)|\n\s*\n|\n\s*[-*|]")
FENCE = re.compile(r"\s*(```|~~~)")
SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
CALL = re.compile(r"\((?:[^()]|\([^()]*\))*\)$")
PATH = re.compile(r"[\w.*\-/]+")
PLACE = re.compile(r"(?P<path>.+?)(?::(?P<first>\d+)(?:-(?P<last>\d+))?|::(?P<name>\w+))?")
CAMEL = re.compile(r"[A-Z]\w*[a-z]\w*")


def checkout() -> list[str]:
    """Every file and folder of the checkout, relative to it, in posix form."""
    found = []
    for folder, folders, files in os.walk(ROOT):
        folders[:] = sorted(
            f for f in folders if f not in NOT_CHECKOUT and not f.endswith(("_cache", ".egg-info"))
        )
        base = Path(folder).relative_to(ROOT)
        found += [(base / name).as_posix() for name in folders + files]
    return sorted(found)


def prose_docs() -> list[Path]:
    """docs/*.md and every README.md of the checkout."""
    readmes = [ROOT / p for p in CHECKOUT if p == "README.md" or p.endswith("/README.md")]
    return sorted((ROOT / "docs").glob("*.md")) + sorted(readmes)


def package_modules() -> dict[str, list[str]]:
    """Each dotted tail of each module of the package -> the modules it may name.

    ``web.store`` and ``store`` name ``web.store``, be it ``web/store.py`` or
    the package ``web/store/``; a C extension counts by its ``.c`` file.
    """
    found: dict[str, list[str]] = {}
    for path in CHECKOUT:
        file = ROOT / path
        if PACKAGE not in file.parents or file.suffix not in (".py", ".c"):
            continue
        if file.suffix == ".c" and file.parent != PACKAGE:
            continue
        parts = file.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not parts or parts[-1] == "__main__":
            continue
        module = ".".join(parts)
        for cut in range(len(parts)):
            names = found.setdefault(".".join(parts[cut:]), [])
            if module not in names:
                names.append(module)
    return found


def package_classes() -> dict[str, list[str]]:
    """The name of each class of the package -> the modules whose source defines one."""
    found: dict[str, list[str]] = {}
    for module in sorted({name for names in MODULES.values() for name in names}):
        source = PACKAGE.joinpath(*module.split("."))
        for path in (source / "__init__.py", source.with_suffix(".py")):
            if path.exists():
                for name in re.findall(r"^\s*class (\w+)", path.read_text(), re.MULTILINE):
                    found.setdefault(name, []).append(module)
    return found


CHECKOUT = checkout()
TOP_FOLDERS = {p for p in CHECKOUT if "/" not in p and (ROOT / p).is_dir()}
TOP_FOLDERS |= {p.name for p in PACKAGE.iterdir() if p.is_dir()}
MODULES = package_modules()
CLASSES = package_classes()


def spans(text: str) -> list[tuple[int, str, str]]:
    """(line, the span's text, its paragraph's text before it) for each code span.

    Fenced code blocks are left out: the doctests run them. A span may go on
    over a line end, which reads as a space.
    """
    found = []
    paragraph: list[str] = []
    start = 0

    def end_paragraph() -> None:
        text = "\n".join(paragraph)
        for match in SPAN.finditer(text):
            line = start + text.count("\n", 0, match.start())
            found.append((line, " ".join(match.group(2).split()), text[: match.start()]))
        paragraph.clear()

    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            end_paragraph()
            fenced = not fenced
        elif not fenced and line.strip():
            start = start if paragraph else number
            paragraph.append(line)
        elif not fenced:
            end_paragraph()
    end_paragraph()
    return found


def is_path(text: str) -> bool:
    """A file or folder: a known file ending, or a first folder the checkout has."""
    place = PLACE.fullmatch(text)
    path = place["path"] if place else text
    if not PATH.fullmatch(path) or path.startswith(("/", "./", "../", "~")):
        return False
    stem, dot, extension = path.rstrip("/").rsplit("/", 1)[-1].rpartition(".")
    if dot and stem and extension in EXTENSIONS:
        return True
    return "/" in path and path.split("/")[0] in TOP_FOLDERS


def dotted_name(text: str) -> str | None:
    """The dotted name a span points at (a call's arguments dropped), if it is one of ours."""
    name = CALL.sub("", text)
    if not NAME.fullmatch(name.removesuffix("*")) or "." not in name:
        return None
    first = name.split(".")[0]
    ours = first == "passing_game" or first in MODULES or first in CLASSES
    return name if ours or hasattr(passing_game, first) or CAMEL.fullmatch(first) else None


def pointer_kind(text: str) -> str | None:
    """``"path"``, ``"name"``, or None for a span that is not a pointer."""
    if text in NOT_POINTERS:
        return None
    if is_path(text):
        return "path"
    return "name" if dotted_name(text) else None


def check_path(text: str) -> None:
    """The file or folder exists (a glob: something matches), with its line or name."""
    place = PLACE.fullmatch(text)
    assert place is not None
    path = place["path"].rstrip("/")
    found = [
        p for p in CHECKOUT if fnmatch.fnmatchcase(p, path) or fnmatch.fnmatchcase(p, f"*/{path}")
    ]
    if not found:
        raise Missing(f"no {place['path']} in the checkout")
    if place["first"]:
        wanted = int(place["last"] or place["first"])
        lines = max(len((ROOT / p).read_text(errors="replace").splitlines()) for p in found)
        if lines < wanted:
            raise Missing(f"{found[0]} has {lines} lines, not {wanted}")
    if place["name"]:
        pattern = re.compile(rf"\b{place['name']}\b")
        if not any(pattern.search((ROOT / p).read_text(errors="replace")) for p in found):
            raise Missing(f"{place['name']} not in {found[0]}")


def instance_attribute(cls: type, name: str) -> bool:
    """Whether a class in ``cls``'s MRO sets ``self.name``, which only its instances have."""
    pattern = re.compile(rf"\bself\.{re.escape(name)}\s*(:[^=\n]*)?=[^=]")
    for base in cls.__mro__:
        try:
            if pattern.search(inspect.getsource(base)):
                return True
        except (OSError, TypeError):
            continue
    return False


def look_up(obj: object, parts: list[str]) -> None:
    """``obj.a.b...``; a last ``prefix*`` needs a name that starts so."""
    for part in parts:
        if part.endswith("*"):
            if not any(name.startswith(part[:-1]) for name in dir(obj)):
                raise Missing(f"{getattr(obj, '__name__', obj)} has no {part}")
            return
        try:
            obj = attribute(obj, part)
        except Missing:
            if isinstance(obj, type) and instance_attribute(obj, part):
                return  # what the instance holds is not known here
            raise


def check_name(text: str) -> None:
    """The name resolves from a module it may name, else from a class of the package."""
    name = dotted_name(text)
    assert name is not None
    parts = name.removeprefix("passing_game").removeprefix(".").split(".")
    if parts == [""]:
        return
    errors: list[str] = []
    for cut in range(len(parts), 0, -1):  # the longest tail that names a module decides
        for module_name in MODULES.get(".".join(parts[:cut]), ()):
            module = import_module(module_name)
            if module is None and (PACKAGE / f"{module_name}.c").exists():
                raise NeedsExtra(f"the C extension passing_game.{module_name} is not built")
            try:
                if module is None:
                    raise Missing(f"no module passing_game.{module_name}")
                look_up(module, parts[cut:])
                return
            except Missing as error:
                errors.append(str(error))
        if errors:
            raise Missing("; ".join(errors))
    roots = [getattr(passing_game, parts[0])] if hasattr(passing_game, parts[0]) else []
    for module_name in CLASSES.get(parts[0], ()):
        module = import_module(module_name)
        if module is not None and hasattr(module, parts[0]):
            roots.append(getattr(module, parts[0]))
    for root in roots:
        try:
            look_up(root, parts[1:])
            return
        except Missing as error:
            errors.append(str(error))
    raise Missing("; ".join(dict.fromkeys(errors)) or f"nothing is called {parts[0]}")


def excused(before: str) -> bool:
    """Whether the text before a span marks it historical, or names another project."""
    sentence = SENTENCE_END.split(before)[-1]
    return bool(HISTORICAL.search(before) or FOREIGN.search(sentence))


def prose_problems(text: str, where: str) -> tuple[list[str], list[str]]:
    """``where:line: `pointer`: why`` for each pointer that does not resolve, and those
    not checked for want of an extra."""
    broken: list[str] = []
    extras: list[str] = []
    for line, span, before in spans(text):
        kind = pointer_kind(span)
        try:
            if kind == "path":
                check_path(span)
            elif kind == "name":
                check_name(span)
        except Missing as error:
            if not excused(before):
                broken.append(f"{where}:{line}: `{span}`: {error}")
        except NeedsExtra as error:
            extras.append(f"{where}:{line}: {error}")
    return broken, extras


PROSE = prose_docs()


def test_the_prose_has_pointers() -> None:
    kinds = [pointer_kind(span) for doc in PROSE for _, span, _ in spans(doc.read_text())]
    assert {"docs/DECISIONS.md", "README.md", "src/passing_game/web/README.md"} <= {
        doc.relative_to(ROOT).as_posix() for doc in PROSE
    }
    assert kinds.count("path") >= 150 and kinds.count("name") >= 250


@pytest.mark.parametrize("doc", PROSE, ids=[d.relative_to(ROOT).as_posix() for d in PROSE])
def test_prose_pointer_resolves(doc: Path) -> None:
    broken, extras = prose_problems(doc.read_text(), doc.relative_to(ROOT).as_posix())
    assert not broken, f"{len(broken)} pointers do not resolve:\n" + "\n".join(broken)
    if extras:
        pytest.skip("; ".join(extras))


@pytest.mark.parametrize(
    ("span", "kind"),
    [
        ("passing_game.web.store.Store", "name"),
        ("bots.ismcts", "name"),
        ("Round.play", "name"),
        ("Round.view(seat)", "name"),
        ("words.tile_text", "name"),
        ("bots.kernel.F_*", "name"),
        ("src/passing_game/web/http/app.py", "path"),
        ("web/static/app.js", "path"),
        ("bench/peers.py:53", "path"),
        ("tests/test_core_imports.py::test_no_cycle_among_core_modules", "path"),
        ("_kernel.c", "path"),
        ("docs/img/learning-curve-*.csv", "path"),
        ("web/static", "path"),
        ("--seed 1000", None),
        ("make test", None),
        ("passing-game serve --db postgresql://…", None),
        ("0.3 ms", None),
        ("0.3", None),
        ('{"move": s, "bank": s}', None),
        ("[3|5]", None),
        ("L3-5", None),
        ("model=tuned,opponent_policy=0.5", None),
        ("Round", None),
        ("np.where", None),
        ("info.seat", None),
        ("/api/rules", None),
        ("../shared/RULES.md", None),
        ("passing_game/PassingGame-v0", None),
        ("round.history", None),
    ],
)
def test_what_counts_as_a_pointer(span: str, kind: str | None) -> None:
    assert pointer_kind(span) == kind


@pytest.mark.parametrize(
    "text",
    [
        "It is `bots.no_such_module`.",
        "See `bots.ismcts.NoSuchBot`.",
        "See `NoSuchClass.method`.",
        "The server's `render.tile_text`.",  # only imported there
        "In `src/passing_game/no_such.py`.",
        "At `bench/peers.py:99999`.",
        "By `tests/test_records.py::test_no_such_thing`.",
        "The `web/static/no_such.js`\nmodule.",
    ],
)
def test_a_stale_prose_pointer_is_caught(text: str) -> None:
    broken, extras = prose_problems(text, "doc.md")
    assert len(broken) == 1 and broken[0].startswith("doc.md:1: `"), broken
    assert not extras


@pytest.mark.parametrize(
    "text",
    [
        "The policy of `bots.policy` (then `bots.search`, since split by P34).",
        "Formerly `bots.search`.",
        "It was ~~`bots.search`~~.",
        "OpenSpiel's `state.apply_action()`.",
        "The `dominoes` package: `game.moves`.",
        "```\n`bots.search`\n```",
    ],
)
def test_a_historical_or_foreign_pointer_is_accepted(text: str) -> None:
    assert prose_problems(text, "doc.md") == ([], [])


# The index of docs/DECISIONS.md.

DECISIONS = ROOT / "docs" / "DECISIONS.md"
ENTRY = re.compile(r"## ([PD]\d+)\. (.+)")
STATUS = re.compile(r"(updated|superseded|partly superseded) by ((?:[PD]\d+)(?:, [PD]\d+)*)")
ROW = re.compile(r"\| \[([PD]\d+)\]\(#([^)]+)\) \| (.+?) \| (.+?) \| (.*?) \|")


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def decision_entries() -> dict[str, tuple[str, str]]:
    """Entry -> (its title, the first line of text under its heading)."""
    lines = DECISIONS.read_text().splitlines()
    entries = {}
    for i, line in enumerate(lines):
        if match := ENTRY.fullmatch(line):
            after = next((more for more in lines[i + 1 :] if more.strip()), "")
            entries[match[1]] = (match[2], after)
    return entries


def index_rows() -> list[tuple[str, ...]]:
    """(entry, anchor, title, area, status) for each row of the index's table."""
    text = DECISIONS.read_text()
    assert "\n## Index by area\n" in text, "docs/DECISIONS.md has no ## Index by area"
    section = text.split("\n## Index by area\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| [")]
    matches = [ROW.fullmatch(row) for row in rows]
    assert all(matches), f"not | [Pn](#anchor) | title | area | status |: {rows}"
    return [match.groups() for match in matches if match]


def test_the_decisions_index_lists_every_entry_once() -> None:
    entries = decision_entries()
    rows = index_rows()
    listed = [row[0] for row in rows]
    assert sorted(listed) == sorted(entries), (
        f"not in the index: {sorted(set(entries) - set(listed))}; "
        f"listed twice: {sorted({e for e in listed if listed.count(e) > 1})}; "
        f"no such entry: {sorted(set(listed) - set(entries))}"
    )
    for entry, anchor, title, area, _status in rows:
        assert title == entries[entry][0], f"{entry}'s title in the index: {title!r}"
        assert anchor == slug(f"{entry}. {title}"), f"{entry}'s link: #{anchor}"
        assert area.strip(), f"{entry} has no area"


def test_a_later_entry_that_changes_one_is_marked_under_its_heading() -> None:
    """A status is "updated by Pn" or "(partly) superseded by Pn" (later entries), and the
    entry says the same in its first line: *Updated by Pn: …* or *Superseded by Pn: …*."""
    entries = decision_entries()
    for entry, _anchor, _title, _area, status in index_rows():
        first = entries[entry][1]
        if not status:
            assert not re.match(r"\*(Updated|Superseded|Partly superseded) by", first), entry
            continue
        match = STATUS.fullmatch(status)
        assert match, f"{entry}'s status: {status!r}"
        later = match[2].split(", ")
        assert all(e in entries and int(e[1:]) > int(entry[1:]) for e in later), entry
        assert first.startswith(f"*{status[0].upper()}{status[1:]}: "), (
            f"{entry} should start with *{status}: …*, not {first!r}"
        )
