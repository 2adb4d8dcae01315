"""The agents of the ladder: who plays ``passing-game arena --ladder``.

Three sources, in this order (docs/STRENGTH.md "Ladder", DECISIONS.md P63):

* the registry's agents (``registry_agents``): every fair level and bot of
  ``bots.names()`` and every frozen expert, less the bots another agent
  already plays move for move (``SAME_AS``). ``omniscient`` sees hidden
  tiles: it is no agent of the ladder (``check_fair``);
* the outside programs of a ladder file (``read_file``; the repository's is
  ``LADDER_FILE``), a TOML list of ``[[agent]]`` tables with a label and a
  command, run over the protocol of docs/BOTS.md;
* any bot text given with ``--bot``.

Standard library, core and bots only: the statistics are ``arena.ladder``'s.
"""

from __future__ import annotations

import re
import shlex
import shutil
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from passing_game.arena import outside
from passing_game.bots import FROZEN, LEVELS, is_cheating, make, names

Kind = Literal["level", "bot", "frozen", "outside"]
KINDS: tuple[Kind, ...] = ("level", "bot", "frozen", "outside")

#: The repository's ladder file, from the repository's root (where its commands run).
LADDER_FILE = Path("examples/bots/ladder.toml")

#: Bots left out of the registry's agents because the agent named plays them
#: move for move: a level that is the bot at its defaults, or a frozen expert
#: whose pinned options are the bot's defaults (with the compiled kernel).
#: tests/test_ladder.py plays each pair on the same views.
SAME_AS: dict[str, str] = {"greedy": "easy", "heuristic": "medium", "ismcts": "expert-5f2ff52"}

#: A ladder file's label: what the report and the page show, and what a
#: ``cmd:label=...`` option can carry (no comma, colon or equals sign).
LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._+#()'-]{0,39}")
#: The keys an ``[[agent]]`` of a ladder file may have.
FILE_KEYS = ("label", "cmd", "timeout", "text", "optional")
#: The largest ladder file read.
MAX_FILE = 64 * 1024


class LadderError(ValueError):
    """A ladder that cannot be set up (a bad file, an unfair agent); says why."""


@dataclass(frozen=True)
class Agent:
    """One agent: the label it is shown by, what it is, and the arena's bot text."""

    label: str
    kind: Kind
    #: The text ``arena.runner.bot_specs`` reads: a registry name, or ``cmd:...``.
    text: str

    def to_dict(self) -> dict[str, Any]:
        """As the ladder's document lists it; an outside program also with its command."""
        found: dict[str, Any] = {"label": self.label, "kind": self.kind, "bot": self.text}
        if self.kind == "outside":
            argv = outside.parse_command(self.text[len("cmd:") :])[0]
            found["program"] = shlex.join(argv)
        return found


def kind_of(text: str) -> Kind:
    """What a bot text names: a level, a bot, a frozen expert, or an outside program.

    >>> [kind_of(t) for t in ("hard", "pimc:worlds=50", "expert-5f2ff52", "cmd:./bot")]
    ['level', 'bot', 'frozen', 'outside']
    """
    text = text.strip()
    if text.startswith("cmd:"):
        return "outside"
    name = text.partition(":")[0].strip()
    if name in LEVELS:
        return "level"
    if name in FROZEN:
        return "frozen"
    return "bot"


def label_of(text: str) -> str:
    """The label the arena shows a bot text by (``arena.runner.bot_specs``'s).

    >>> label_of("cmd:label=mine,timeout=2:./bot --fast"), label_of(" pimc:worlds=50 ")
    ('mine', 'pimc:worlds=50')
    """
    text = text.strip()
    if kind_of(text) == "outside":
        try:
            label = outside.parse_command(text[len("cmd:") :])[1].get("label")
        except outside.OutsideError as exc:
            raise LadderError(str(exc)) from None
        return str(label or text)
    return text


def check_fair(text: str) -> None:
    """Refuse a bot that sees hidden tiles: the ladder ranks agents that play by R9."""
    if kind_of(text) == "outside":
        return  # an outside program is only ever given its seat's view
    name = text.partition(":")[0].strip()
    if name in names() and is_cheating(name):
        raise LadderError(
            f"{name} sees every hidden tile: it is a yardstick, not an agent of the ladder "
            "(its figures are in docs/STRENGTH.md)"
        )


def registry_agents() -> tuple[list[Agent], list[str]]:
    """The registry's agents, and a note for each one that cannot play here.

    A frozen expert needs the compiled kernel (``bots.make`` refuses it
    without); where it cannot be built it is left out with a note.
    """
    agents: list[Agent] = []
    notes: list[str] = []
    for name in names():
        if name in SAME_AS or is_cheating(name):
            continue
        try:
            make(name, seed=0)
        except ValueError as exc:
            notes.append(f"{name} left out: {exc}")
            continue
        agents.append(Agent(name, kind_of(name), name))
    return agents, notes


def _file_error(path: Path, where: str, message: str) -> LadderError:
    return LadderError(f"{path}: {where}{message}")


def read_file(path: Path) -> tuple[list[Agent], list[str]]:
    """The outside programs a ladder file lists, and a note for each one left out.

    An agent marked ``optional = true`` whose program is not on this
    machine (say ``node``) is left out with a note; anything else wrong in
    the file is a ``LadderError`` naming the file, the agent and the fault.
    """
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise LadderError(f"cannot read the ladder file {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE:
        raise LadderError(f"{path} is larger than {MAX_FILE // 1024} KB: not a ladder file")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise _file_error(path, "", f"not a TOML file: {exc}") from None
    unknown = sorted(set(data) - {"agent"})
    if unknown:
        raise _file_error(path, "", f"unknown key {unknown[0]!r}: a ladder file lists [[agent]]")
    entries = data.get("agent", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise _file_error(path, "", "'agent' must be a list of tables, written [[agent]]")
    agents: list[Agent] = []
    notes: list[str] = []
    seen: set[str] = set()
    for number, entry in enumerate(entries, start=1):
        where = f"agent {number}: "
        agent, note = _file_agent(path, where, entry)
        if agent.label in seen:
            raise _file_error(path, where, f"the label {agent.label!r} is used twice")
        seen.add(agent.label)
        if note is not None:
            notes.append(note)
        else:
            agents.append(agent)
    return agents, notes


def _file_agent(path: Path, where: str, entry: dict[str, Any]) -> tuple[Agent, str | None]:
    unknown = sorted(set(entry) - set(FILE_KEYS))
    if unknown:
        allowed = ", ".join(FILE_KEYS)
        raise _file_error(path, where, f"unknown key {unknown[0]!r} (allowed: {allowed})")
    label, cmd = entry.get("label"), entry.get("cmd")
    if not isinstance(label, str) or not LABEL.fullmatch(label):
        raise _file_error(
            path,
            where,
            "'label' must be 1 to 40 letters, digits, spaces or ._+#()'- "
            f"(starting with a letter or digit), got {label!r}",
        )
    if not isinstance(cmd, str) or not cmd.strip():
        raise _file_error(path, where, f"{label}: 'cmd' must be the program's command line")
    try:
        argv = shlex.split(cmd)
    except ValueError as exc:
        raise _file_error(path, where, f"{label}: cannot read the command: {exc}") from None
    if not argv:
        raise _file_error(path, where, f"{label}: 'cmd' must be the program's command line")
    options = [f"label={label}"]
    timeout = entry.get("timeout")
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            raise _file_error(path, where, f"{label}: 'timeout' must be seconds above 0")
        options.append(f"timeout={float(timeout)}")
    for key in ("text", "optional"):
        if not isinstance(entry.get(key, False), bool):
            raise _file_error(path, where, f"{label}: '{key}' must be true or false")
    if entry.get("text", False):
        options.append("text=yes")
    agent = Agent(label, "outside", f"cmd:{','.join(options)}:{cmd.strip()}")
    if entry.get("optional", False) and shutil.which(argv[0]) is None:
        return agent, f"{label} left out: {argv[0]} is not installed here"
    return agent, None


def gather(
    given: Sequence[str],
    extra: Sequence[str],
    ladder_file: Path | None,
    *,
    file_given: bool,
) -> tuple[list[Agent], list[str]]:
    """Every agent of a ladder run, and the notes to print before it starts.

    With bot texts ``given`` the ladder is those agents, and a ladder file's
    programs only when a file is given (``file_given``). Without them it is
    the registry's agents and the programs of ``ladder_file`` (the
    repository's ``LADDER_FILE``; when that one is not here, a note says
    so). Then ``extra`` (``--bot``). Every agent must play fair; a label met
    twice is refused.
    """
    agents: list[Agent] = []
    notes: list[str] = []
    if given:
        agents = [Agent(label_of(t), kind_of(t), t.strip()) for t in given]
    else:
        agents, notes = registry_agents()
    if ladder_file is not None and (file_given or not given):
        if file_given or ladder_file.exists():
            found, left_out = read_file(ladder_file)
            agents += found
            notes += left_out
        else:
            notes.append(f"no ladder file at {ladder_file}: no outside programs from a file")
    agents += [Agent(label_of(t), kind_of(t), t.strip()) for t in extra]
    for agent in agents:
        check_fair(agent.text)
    labels = [a.label for a in agents]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise LadderError(f"the agent {twice[0]} is named twice: each agent plays once")
    if len(agents) < 2:
        raise LadderError("a ladder needs at least two agents")
    return agents, notes


__all__ = [
    "KINDS",
    "LADDER_FILE",
    "SAME_AS",
    "Agent",
    "Kind",
    "LadderError",
    "check_fair",
    "gather",
    "kind_of",
    "label_of",
    "read_file",
    "registry_agents",
]
