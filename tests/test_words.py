"""The words a player reads (passing_game.words), said once for both apps.

- a play names its tile as the history says it was laid (R4.1), never by
  replaying the history;
- advice names the end only when the tile fits both differently (R4.2);
- a drawn tile is named only to its drawer, or in an open replay (R9.2);
- the terminal replayer and the web's replay page say the same sentences;
- the web writes numbers as the visitor's language does without importing
  the terminal.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from passing_game import Match, Rules
from passing_game.moves import Draw, Pass, Play
from passing_game.round import Round
from passing_game.tiles import Placed, Tile
from passing_game.views import Turn
from passing_game.words import (
    Seats,
    advice_words,
    describe_turn,
    match_ending,
    move_words,
    tile_text,
)

TWO = Seats(Rules(players=2))


def test_a_play_names_its_tile_as_it_was_laid() -> None:
    """R4.1: the matching half faces the train, so [3|5] on a left end of 3 reads [5|3]."""
    turn = Turn(0, Play(Tile(3, 5), "left"), placed=Placed(5, 3))
    assert describe_turn(turn, TWO) == "Seat 1 played [5|3] on the left."
    assert describe_turn(turn, Seats(Rules(players=2), human=0)) == "You played [5|3] on the left."
    lead = Turn(1, Play(Tile(3, 5), "left"), placed=Placed(3, 5))
    assert describe_turn(lead, TWO, led=True) == "Seat 2 led [3|5]."


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_play_of_a_round_reads_as_the_train_shows_it(players: int) -> None:
    """R4.1, R9.1: the sentence's tile is the train's piece at the end it went to."""
    rng = random.Random(players)
    for seed in range(10):
        rnd = Round.new(Rules(players=players), seed=seed)
        while not rnd.is_over:
            rnd.play(rng.choice(rnd.legal_moves()))
            turn = rnd.history[-1]
            if not isinstance(turn.move, Play):
                continue
            piece = rnd.train[0] if turn.move.end == "left" else rnd.train[-1]
            assert tile_text(piece) in describe_turn(turn, TWO, led=len(rnd.train) == 1)


def test_advice_names_the_end_only_when_it_matters() -> None:
    """R4.2: a tile that fits both ends differently needs its end said; others do not."""
    left = Play(Tile(3, 5), "left")
    assert advice_words(left, None) == "lead [3|5]"
    assert advice_words(left, (3, 1)) == "play [3|5]"
    assert advice_words(left, (3, 5)) == "play [3|5] on the left"
    assert advice_words(Play(Tile(3, 5), "right"), (3, 5)) == "play [3|5] on the right"
    assert advice_words(Draw(), (3, 5)) == move_words(Draw()) == "draw a tile"
    assert advice_words(Pass(), (3, 5)) == move_words(Pass()) == "pass"
    # Without the ends (a move sent as text), the end is always said.
    assert move_words(left) == "play [3|5] on the left"


def test_a_drawn_tile_is_named_only_to_its_drawer() -> None:
    """R9.2: the others read that a tile was drawn; an open replay names it."""
    turn = Turn(0, Draw(), drawn=Tile(1, 2))
    assert describe_turn(turn, Seats(Rules(players=2), human=0)) == "You drew [1|2]."
    assert describe_turn(turn, Seats(Rules(players=2), human=1)) == "Seat 1 drew a tile."
    assert describe_turn(turn, TWO, show_drawn=True) == "Seat 1 drew [1|2]."
    assert describe_turn(turn.public(), TWO, show_drawn=True) == "Seat 1 drew a tile."


def test_a_resigned_match_says_who_resigned() -> None:
    match = Match(Rules(players=2, target=10), seed=3)
    match.resign(1)
    assert match_ending(match, TWO) == (
        "Seat 2 resigned; Seat 1 wins the match. Scores: Seat 1 0, Seat 2 0."
    )


def test_the_terminal_and_the_web_replay_a_record_in_the_same_words() -> None:
    """One sentence per move and one ending, whichever app replays the record."""
    pytest.importorskip("starlette")
    from passing_game.records import match_to_record
    from passing_game.terminal.replay import Replayer
    from passing_game.web.review import replay_data

    match = Match(Rules(players=3, target=30), seed=11)
    rng = random.Random(11)
    while not match.is_over:
        match.play(rng.choice(match.round.legal_moves()))
    replayer = Replayer(match)
    page = replay_data(match_to_record(match), match)
    assert len(page["steps"]) == len(replayer.steps)
    for step, item in zip(replayer.steps, page["steps"], strict=True):
        said = replayer.step_lines(step)[1]
        assert (said if isinstance(said, str) else said.plain) == item["line"]
    assert replayer.ending_lines() == [page["ending"]]


def test_the_web_writes_numbers_per_language_without_the_terminal() -> None:
    """In a fresh interpreter: the web's frames fill the number formatter with Babel's."""
    code = (
        "import json, sys\n"
        "import passing_game.web.frames\n"
        "from passing_game.i18n import format_number, using_language\n"
        "with using_language('hr'):\n"
        "    shown = format_number(1234), format_number(2.25, 1, sign=True)\n"
        "apps = sorted(m for m in sys.modules"
        " if m.split('.')[0] == 'rich' or m.startswith('passing_game.terminal'))\n"
        "print(json.dumps([shown, apps]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    shown, apps = json.loads(out.stdout)
    assert shown == ["1.234", "+2,2"]
    assert apps == []
