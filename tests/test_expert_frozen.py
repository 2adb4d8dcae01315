"""The frozen experts play as the ``expert`` level did at their commits.

``expert-5f2ff52`` (issue 16, docs/DECISIONS.md P36), ``expert-562b7ae``
(issue 28, P67) and ``expert-f3f7ee4`` (issue 28, P71) are rungs of the
ladder and the arena's yardsticks for a stronger expert, so their moves must
not drift when the expert's defaults change. tests/data/expert-<commit>.json
holds 60 positions and the move the ``expert`` level chose in each at that
commit; each was written by tests/data/make_expert_<commit>.py run on a
checkout of that commit with the compiled kernel built (the scripts'
docstrings have the commands), and is never regenerated. Each position is
replayed here and ``make("expert-<commit>", seed=...)`` must choose the same
move, after the same number of iterations and with the same value for every
root move.

The moves are the compiled kernel's, so without the kernel the replay is
skipped (under CI, which builds it, that is a failure).
"""

from __future__ import annotations

import inspect
import itertools
import json
import os
from pathlib import Path
from typing import Any

import pytest

from passing_game import Round, Rules
from passing_game.bots import BOTS, FROZEN, fair_names, is_cheating, kernel, make, names
from passing_game.bots.ismcts import IsmctsBot
from passing_game.bots.sampling import Sampler
from passing_game.moves import parse_move

#: The frozen experts and the commits whose ``expert`` level they are.
FROZEN_EXPERTS = {
    "expert-5f2ff52": "5f2ff52",
    "expert-562b7ae": "562b7ae",
    "expert-f3f7ee4": "f3f7ee4",
}
NAME = "expert-5f2ff52"
DATA: dict[str, dict[str, Any]] = {
    name: json.loads((Path(__file__).parent / "data" / f"{name}.json").read_text())
    for name in FROZEN_EXPERTS
}
CASES: list[tuple[str, dict[str, Any]]] = [
    (name, position) for name in FROZEN_EXPERTS for position in DATA[name]["positions"]
]


def label(case: tuple[str, dict[str, Any]]) -> str:
    """A test id: the frozen bot's commit, players, partnerships, the bot's seed."""
    name, position = case
    rules = position["rules"]
    team = "p" if rules["partnerships"] else ""
    return f"{FROZEN_EXPERTS[name]}-{rules['players']}{team}-{position['bot_seed']:02d}"


def replay(position: dict[str, Any]) -> Round:
    """The golden position: its deal, then the moves that reach it."""
    deal = position["deal"]
    rnd = Round.from_deal(
        Rules.from_dict(position["rules"]), deal["hands"], deal["boneyard"], deal["leader"]
    )
    for text in position["moves"]:
        rnd.play(parse_move(text))
    return rnd


@pytest.fixture(scope="module")
def needs_kernel() -> None:
    """Skip without the compiled kernel, whose moves the golden file holds; fail under CI."""
    if not kernel.AVAILABLE:
        if os.environ.get("CI"):
            pytest.fail("CI: the compiled kernel passing_game._kernel was not built")
        pytest.skip("compiled kernel not built: the golden moves are the kernel's")


@pytest.mark.parametrize("name", FROZEN_EXPERTS)
def test_golden_file_is_from_its_commit(name: str) -> None:
    data = DATA[name]
    assert data["commit"].startswith(FROZEN_EXPERTS[name])
    assert len(data["positions"]) == 60
    for position in data["positions"]:
        assert str(parse_move(position["chosen"])) == position["chosen"]
    # the same positions for both: only the choices differ
    assert [p["deal"] for p in data["positions"]] == [p["deal"] for p in DATA[NAME]["positions"]]


@pytest.mark.parametrize("pair", list(itertools.combinations(FROZEN_EXPERTS, 2)), ids="-".join)
def test_the_frozen_experts_are_different_bots(pair: tuple[str, str]) -> None:
    first, second = (DATA[name]["positions"] for name in pair)
    differ = sum(
        a["chosen"] != b["chosen"] or a["values"] != b["values"]
        for a, b in zip(first, second, strict=True)
    )
    # P67 changed the playouts of two players only: the 26 positions with two
    # players tell expert-562b7ae from expert-f3f7ee4; the others differ more.
    assert differ >= 26


@pytest.mark.usefixtures("needs_kernel")
@pytest.mark.parametrize("case", CASES, ids=label)
def test_frozen_expert_chooses_the_moves_of_its_commit(case: tuple[str, dict[str, Any]]) -> None:
    name, position = case
    rnd = replay(position)
    seat = rnd.to_move
    assert seat is not None
    bot: Any = make(name, seed=position["bot_seed"])
    chosen = bot.choose(rnd.view(seat))
    assert str(chosen) == position["chosen"]
    # What the search thought too: a smaller budget or another sampler
    # mostly keeps the most visited move but moves these.
    advice = bot.advise(rnd.view(seat))
    assert advice.samples == position["samples"]
    values = {str(move): value for move, value in advice.values.items()}
    assert values == pytest.approx(position["values"], rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("name", FROZEN_EXPERTS)
def test_every_option_of_its_bot_is_pinned(name: str) -> None:
    """A new option of ``IsmctsBot`` (or of its sampler) must be pinned at the value
    that plays as the frozen commit did.

    Its default might be changed later; pinned, it cannot move the yardstick.
    """
    bot_name, pinned = FROZEN[name]
    assert BOTS[bot_name] is IsmctsBot
    options = set(inspect.signature(IsmctsBot.__init__).parameters) - {"self", "seed"}
    assert options - set(pinned) == set(), "pin these options in bots.FROZEN"
    sampler = set(inspect.signature(Sampler.__init__).parameters) - {"self", "view"}
    assert sampler <= set(pinned), "pass the sampler's new options through IsmctsBot and pin them"
    assert pinned["engine"] == "c" and pinned["seconds"] is None


@pytest.mark.parametrize("name", FROZEN_EXPERTS)
def test_reachable_by_name_but_not_offered_to_people(name: str) -> None:
    assert name in names()
    assert name not in fair_names()
    assert not is_cheating(name)
    assert make(name, seed=4).name == "ismcts"


@pytest.mark.parametrize("name", FROZEN_EXPERTS)
def test_refuses_every_option_but_seed(name: str) -> None:
    with pytest.raises(ValueError, match="frozen"):
        make(name, iterations=100)
    with pytest.raises(ValueError, match="frozen"):
        make(name, seed=1, trust=0.5)


@pytest.mark.parametrize("name", FROZEN_EXPERTS)
def test_not_a_level_in_the_web_or_terminal_choices(name: str) -> None:
    from passing_game.terminal.game import fair_bot_names
    from passing_game.web.table.botplay import bot_choices, level_choices

    assert name not in level_choices()
    assert name not in bot_choices()
    assert name not in fair_bot_names()


@pytest.mark.parametrize("name", FROZEN_EXPERTS)
def test_the_arena_accepts_it_by_name_only(name: str) -> None:
    from passing_game.arena.runner import ArenaError, bot_specs

    assert [spec.name for spec in bot_specs([name, "expert"])] == [name, "expert"]
    with pytest.raises(ArenaError, match="frozen"):
        bot_specs([f"{name}:iterations=50", "greedy"])
