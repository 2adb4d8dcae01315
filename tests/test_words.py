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

from passing_game import Match, Rules, l10n
from passing_game.i18n import using_language
from passing_game.moves import Draw, Pass, Play
from passing_game.round import Round, RoundResult
from passing_game.scoring import score
from passing_game.tiles import Placed, Tile
from passing_game.views import Turn
from passing_game.words import (
    Seats,
    advice_words,
    boneyard_line,
    describe_turn,
    match_ending,
    move_words,
    scoring_lines,
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
    from passing_game.web.review.replay import replay_data

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
        "import passing_game.web.table.frames\n"
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


# -- sentences other languages can say (the language review's S1, S3, S4, S7, S10) ----


def _tie(rules: Rules, pips: tuple[int, ...]) -> RoundResult:
    s = score(rules, pips)
    return RoundResult("block", pips, s.winner, s.points, s.side_pips, ((),) * len(pips), ())


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Ana (seat 1) and you tie for the lowest count (4): nobody scores this round."),
        ("gl", "Ana (posto 1) e ti empatades coa conta máis baixa (4): ninguén anota nesta rolda."),
        (
            "hr",
            "Ana (mjesto 1) i ti imate isti najmanji zbroj (4):"
            " u ovoj rundi nitko ne dobiva bodove.",
        ),
    ],
)
def test_a_tie_with_the_reader_names_you_last_with_its_own_verb(lang: str, said: str) -> None:
    """S1: "you" among the tied takes the verb's second person, in lower case, last in the list."""
    rules = Rules(players=3)
    seats = Seats(rules, ("Ana", "Ben", "Cris"), human=1)
    l10n.install()
    with using_language(lang):
        assert scoring_lines(_tie(rules, (4, 4, 9)), seats)[-1] == said


def test_team_labels_inside_a_sentence_are_in_lower_case() -> None:
    """S7: after a colon or inside a list, gl and hr write a team in lower case."""
    rules = Rules(players=4, partnerships=True)
    seats = Seats(rules, ("Ana", "Ben", "Cris", "Dora"), human=0)
    l10n.install()
    with using_language("gl"):
        lines = scoring_lines(_tie(rules, (3, 9, 8, 2)), seats)
    assert lines == [
        "Contas das parellas: a túa parella (postos 1+3): 3 + 8 = 11 · a parella 2+4: 9 + 2 = 11.",
        "A túa parella (postos 1+3) e a parella 2+4 empatan coa conta máis baixa (11):"
        " ninguén anota nesta rolda.",
    ]
    assert scoring_lines(_tie(rules, (3, 9, 8, 2)), seats)[-1].startswith(
        "Your team (seats 1+3) and Team 2+4 tie"
    )


@pytest.mark.parametrize(
    ("lang", "size", "said"),
    [
        ("en", 3, "Boneyard: 3 tiles. 1 can be drawn; the last 2 are locked."),
        ("gl", 3, "Monte: 3 fichas. Pódese roubar 1; as 2 últimas están bloqueadas."),
        ("gl", 7, "Monte: 7 fichas. Pódense roubar 5; as 2 últimas están bloqueadas."),
        ("hr", 5, "Zaliha: 5 pločica. Mogu se izvući 3; zadnje 2 su zaključane."),
        ("hr", 2, "Zaliha: 2 pločice, sve zaključane: u ovoj rundi više nema vučenja."),
    ],
)
def test_the_boneyard_line_counts_each_number_in_its_own_sentence(
    lang: str, size: int, said: str
) -> None:
    """S4: the drawable tiles have their own plural form, not the boneyard's."""
    with using_language(lang):
        assert boneyard_line(size) == said


def test_a_move_as_advice_and_as_a_decision_made() -> None:
    """S3: one English phrase, two uses; Croatian says advice as an imperative only."""
    play = Play(Tile(3, 5), "left")
    assert advice_words(play, (3, 1), decided=True) == advice_words(play, (3, 1)) == "play [3|5]"
    with using_language("hr"):
        assert advice_words(play, (3, 1)) == "odigraj [3|5]"
        assert advice_words(play, (3, 1), decided=True) == "odigrati [3|5]"
        assert move_words(Pass(), decided=True) == "reći „dalje”"
    with using_language("gl"):
        assert (
            advice_words(play, None) == advice_words(play, None, decided=True) == "saír coa [3|5]"
        )


def test_the_web_lists_the_seats_it_waits_for_as_the_language_does() -> None:
    """S10: "Ana (seat 2) and Ben (seat 3)", not a bare comma."""
    pytest.importorskip("starlette")
    from passing_game.web.table.frames import status_text

    match = Match(Rules(players=3, target=200), seed=4)
    while not match.results:
        match.play(match.round.legal_moves()[0])
    seats = Seats(match.rules, ("Cris", "Ana", "Ben"), human=0)
    args = {"started": True, "paused": True, "code": "K7M2QX", "waiting": [1, 2]}
    assert status_text(match, 0, seats, **args) == (  # type: ignore[arg-type]
        "Round 1 is over. Waiting for Ana (seat 2) and Ben (seat 3)."
    )
    with using_language("hr"):
        assert status_text(match, 0, seats, **args).endswith(  # type: ignore[arg-type]
            "Čeka se: Ana (mjesto 2) i Ben (mjesto 3)."
        )
