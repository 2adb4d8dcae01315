"""The frozen expert ``expert-5f2ff52`` plays as the ``expert`` level did at commit 5f2ff52.

It is a rung of the ladder and the arena's yardstick for a stronger expert
(issue 16, docs/DECISIONS.md P36), so its moves must not drift when the
expert's defaults change. tests/data/expert-5f2ff52.json holds 60 positions
and the move the ``expert`` level chose in each at commit 5f2ff52; it was
written by tests/data/make_expert_5f2ff52.py run on a checkout of that
commit with the compiled kernel built (the script's docstring has the
commands), and is never regenerated. Each position is replayed here and
``make("expert-5f2ff52", seed=...)`` must choose the same move, after the
same number of iterations and with the same value for every root move.

The moves are the compiled kernel's, so without the kernel the replay is
skipped (under CI, which builds it, that is a failure).
"""

from __future__ import annotations

import inspect
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

NAME = "expert-5f2ff52"
GOLDEN = Path(__file__).parent / "data" / "expert-5f2ff52.json"
DATA: dict[str, Any] = json.loads(GOLDEN.read_text())
POSITIONS: list[dict[str, Any]] = DATA["positions"]


def label(position: dict[str, Any]) -> str:
    """A test id: players, partnerships, the bot's seed."""
    rules = position["rules"]
    team = "p" if rules["partnerships"] else ""
    return f"{rules['players']}{team}-{position['bot_seed']:02d}"


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


def test_golden_file_is_from_5f2ff52() -> None:
    assert DATA["commit"].startswith("5f2ff52")
    assert len(POSITIONS) == 60
    for position in POSITIONS:
        assert str(parse_move(position["chosen"])) == position["chosen"]


@pytest.mark.usefixtures("needs_kernel")
@pytest.mark.parametrize("position", POSITIONS, ids=label)
def test_frozen_expert_chooses_the_moves_of_5f2ff52(position: dict[str, Any]) -> None:
    rnd = replay(position)
    seat = rnd.to_move
    assert seat is not None
    bot: Any = make(NAME, seed=position["bot_seed"])
    chosen = bot.choose(rnd.view(seat))
    assert str(chosen) == position["chosen"]
    # What the search thought too: a smaller budget or another sampler
    # mostly keeps the most visited move but moves these.
    advice = bot.advise(rnd.view(seat))
    assert advice.samples == position["samples"]
    values = {str(move): value for move, value in advice.values.items()}
    assert values == pytest.approx(position["values"], rel=1e-9, abs=1e-9)


def test_every_option_of_its_bot_is_pinned() -> None:
    """A new option of ``IsmctsBot`` (or of its sampler) must be pinned at the value of 5f2ff52.

    Its default might be changed later; pinned, it cannot move the yardstick.
    """
    bot_name, pinned = FROZEN[NAME]
    assert BOTS[bot_name] is IsmctsBot
    options = set(inspect.signature(IsmctsBot.__init__).parameters) - {"self", "seed"}
    assert options - set(pinned) == set(), "pin these options in bots.FROZEN"
    sampler = set(inspect.signature(Sampler.__init__).parameters) - {"self", "view"}
    assert sampler <= set(pinned), "pass the sampler's new options through IsmctsBot and pin them"
    assert pinned["engine"] == "c" and pinned["seconds"] is None


def test_reachable_by_name_but_not_offered_to_people() -> None:
    assert NAME in names()
    assert NAME not in fair_names()
    assert not is_cheating(NAME)
    assert make(NAME, seed=4).name == "ismcts"


def test_refuses_every_option_but_seed() -> None:
    with pytest.raises(ValueError, match="frozen"):
        make(NAME, iterations=100)
    with pytest.raises(ValueError, match="frozen"):
        make(NAME, seed=1, trust=0.5)


def test_not_a_level_in_the_web_or_terminal_choices() -> None:
    from passing_game.terminal.game import fair_bot_names
    from passing_game.web.table.botplay import bot_choices, level_choices

    assert NAME not in level_choices()
    assert NAME not in bot_choices()
    assert NAME not in fair_bot_names()


def test_the_arena_accepts_it_by_name_only() -> None:
    from passing_game.arena.runner import ArenaError, bot_specs

    assert [spec.name for spec in bot_specs([NAME, "expert"])] == [NAME, "expert"]
    with pytest.raises(ArenaError, match="frozen"):
        bot_specs([f"{NAME}:iterations=50", "greedy"])
