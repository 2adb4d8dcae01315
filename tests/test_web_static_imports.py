"""The page's ES modules (``web/static/*.js``) import in layers, with no circle.

Issue 23 (the page): no screen imports another screen. The widgets the
screens share sit below them, and ``state.js``'s ``changed()`` is the one
render scheduler, so nothing below the top imports ``page.js`` to draw. The
top (``app.js``) wires what a lower module hands up: ``page.js``'s drawing to
``state.js``, the server's messages and the account's seats to ``socket.js``.

Imports are read from the source text: ``import ... from "./x.js"`` (one line
or several), ``import "./x.js"``, ``export ... from "./x.js"`` and the dynamic
``import("./x.js")``. The page's modules import one another only as
``./name.js``.
"""

from __future__ import annotations

import re
from pathlib import Path

from graph_helpers import circles

STATIC = Path(__file__).parent.parent / "src" / "passing_game" / "web" / "static"

#: From the bottom up. A module may import from the layers below its own, and
#: from the modules listed before it in its own layer; in "screens" no module
#: imports another (screens never import screens).
LAYERS: dict[str, list[str]] = {
    # Elements, words, countdowns, movement, sounds, the state and its render
    # scheduler, the connection: none of them knows a screen.
    "base": ["dom.js", "i18n.js", "clock.js", "motion.js", "sound.js", "state.js", "socket.js"],
    # What several screens share: seats' words and cards, the account (its
    # tool-bar button and dialog) and the ratings in words, the tool bars and the
    # rules, the table's dialogs.
    "widgets": ["reputation.js", "seat.js", "ratings.js", "account.js", "tools.js", "dialogs.js"],
    # One screen's own pieces: what just happened, the hand, the train, the summary, quick
    # play, the tile tracker, your games, the replay's analysis graph and board marks.
    "parts": [
        "announce.js",
        "hand.js",
        "train.js",
        # Practice from a replay's position: the replay's dialog, the table's marks.
        "practice.js",
        # The tutorial's progress in this browser and the lobby's offers of it.
        "lessons.js",
        # The deal's commitment at the table, and its check in the replay.
        "fairness.js",
        "summary.js",
        "quickplay.js",
        "tracker.js",
        "yours.js",
        "evalgraph.js",
        # Puzzles from your own games: their list and what a solve says of the game.
        "minepuzzles.js",
        # The lobby's card of tournaments, and the kinds in words.
        "tournaments.js",
        # Friends, who is online, challenges and blocks: the lobby's card, the notices.
        "social.js",
        # The chat panel of a table and of a tournament's page.
        "chat.js",
        # The account's "My bots": bot accounts and their tokens (issue 28, P62).
        "bots.js",
    ],
    "screens": [
        "lobby.js",
        "table.js",
        "replay.js",
        "learn.js",
        "puzzles.js",
        "tournament.js",
        "profile.js",
        "ladder.js",
    ],
    # What the server says, the keys, the page's render, and app.js, which starts
    # and wires the rest.
    "top": ["messages.js", "keys.js", "page.js", "app.js"],
}
UNORDERED = {"screens"}

_SPECIFIER = r"""["']([^"'\n]+)["']"""
_IMPORTS = (
    # import {a, b} from "./x.js"; import * as x from "./x.js"; export {a} from "./x.js"
    re.compile(r"^\s*(?:import|export)\b[^;\"'`]*?\bfrom\s*" + _SPECIFIER, re.M),
    # import "./x.js";
    re.compile(r"^\s*import\s*" + _SPECIFIER, re.M),
    # import("./x.js")
    re.compile(r"\bimport\s*\(\s*" + _SPECIFIER + r"\s*\)"),
)


def specifiers(text: str) -> set[str]:
    """Every module a script imports, as written (full-line ``//`` comments left out)."""
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return {m.group(1) for pattern in _IMPORTS for m in pattern.finditer(code)}


def import_graph() -> dict[str, set[str]]:
    """Module -> the page's modules it imports (by file name)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(STATIC.glob("*.js")):
        names = set()
        for spec in specifiers(path.read_text()):
            found = re.fullmatch(r"\./([\w.-]+\.js)", spec)
            assert found, (
                f"{path.name} imports {spec!r}: the page's modules import each other as ./name.js"
            )
            names.add(found.group(1))
        graph[path.name] = names
    return graph


def one_cycle(graph: dict[str, set[str]], group: list[str]) -> list[str]:
    """A shortest import path from the group's first module back to it, inside the group."""
    start, members = group[0], set(group)
    paths = {nxt: [start, nxt] for nxt in sorted(graph[start]) if nxt in members}
    frontier = list(paths)
    while start not in paths:
        step = []
        for node in frontier:
            for nxt in sorted(graph[node]):
                if nxt in members and nxt not in paths:
                    paths[nxt] = paths[node] + [nxt]
                    step.append(nxt)
        frontier = step
    return paths[start]


def test_the_reader_sees_every_kind_of_import() -> None:
    text = """
import { a, b } from "./one.js";
import {
  c,
} from './two.js';
import "./three.js";
export { d } from "./four.js";
// import { e } from "./commented.js";
const later = () => import("./five.js");
const words = "import from here";
"""
    assert specifiers(text) == {"./one.js", "./two.js", "./three.js", "./four.js", "./five.js"}


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a.js": {"b.js"}, "b.js": {"c.js"}, "c.js": {"a.js"}, "d.js": {"a.js"}}
    assert circles(graph) == [["a.js", "b.js", "c.js"]]
    assert one_cycle(graph, ["a.js", "b.js", "c.js"]) == ["a.js", "b.js", "c.js", "a.js"]


def test_every_module_has_a_layer_and_every_import_is_there() -> None:
    graph = import_graph()
    placed = [name for names in LAYERS.values() for name in names]
    assert len(placed) == len(set(placed)), "a module is in two layers"
    assert sorted(placed) == sorted(graph), (
        f"not in a layer: {sorted(set(graph) - set(placed))}; "
        f"in a layer but not in static/: {sorted(set(placed) - set(graph))}"
    )
    missing = {
        f"{name} -> {dep}" for name, deps in graph.items() for dep in deps if dep not in graph
    }
    assert not missing, sorted(missing)


def test_no_import_circle_among_the_page_modules() -> None:
    graph = import_graph()
    found = circles(graph)
    assert not found, "import circles: " + "; ".join(
        f"{len(group)} modules {', '.join(group)} (e.g. {' -> '.join(one_cycle(graph, group))})"
        for group in found
    )


def test_each_module_imports_only_from_below() -> None:
    graph = import_graph()
    where = {
        name: (rank, layer, at)
        for rank, (layer, names) in enumerate(LAYERS.items())
        for at, name in enumerate(names)
    }
    wrong = []
    for name, deps in sorted(graph.items()):
        if name not in where:
            continue  # reported by the test above
        rank, layer, at = where[name]
        for dep in sorted(deps):
            if dep not in where:
                continue
            dep_rank, dep_layer, dep_at = where[dep]
            if dep_rank < rank or (dep_rank == rank and layer not in UNORDERED and dep_at < at):
                continue
            if layer != dep_layer:
                why = "upward"
            elif layer in UNORDERED:
                why = "a screen imports a screen"
            else:
                why = "listed after it in its layer"
            wrong.append(f"{name} ({layer}) imports {dep} ({dep_layer}): {why}")
    assert not wrong, "\n".join(wrong)
