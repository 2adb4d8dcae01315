"""What a person types in the terminal game, read without a console
(``terminal.typed``): keys, tile numbers with an end, notation, and the
refusals that say what is wrong (R4.1–R4.4)."""

from __future__ import annotations

from passing_game import Round, Rules
from passing_game.moves import Draw, Pass, Play
from passing_game.terminal.typed import (
    AskEnd,
    Refusal,
    move_keys,
    read_end,
    read_move,
)
from passing_game.tiles import Tile


def _round_with_train() -> Round:
    """A seeded round a few plays in, with the seat to move holding a playable tile."""
    for seed in range(200):
        rnd = Round.new(Rules(players=2), seed=seed)
        while not rnd.is_over:
            plays = [m for m in rnd.legal_moves() if isinstance(m, Play)]
            if rnd.view(rnd.to_move).ends is not None and plays:
                return rnd
            rnd.play(plays[0] if plays else rnd.legal_moves()[0])
    raise AssertionError("no seeded round reached a train with a play")


def test_keys_ask_for_commands_and_the_draw_and_pass_moves() -> None:
    rnd = _round_with_train()
    view = rnd.view(rnd.to_move)
    assert read_move("?", view, rnd.why_illegal) == "help"
    assert read_move(" H ", view, rnd.why_illegal) == "hint"
    assert read_move("q", view, rnd.why_illegal) == "quit"
    assert read_move("p", view, rnd.why_illegal) == Pass()  # R4.4: always open
    assert read_move("d", view, rnd.why_illegal) == Draw()  # R4.3: the boneyard is full


def test_a_tile_number_reads_as_its_play_and_round_trips_with_move_keys() -> None:
    """Every legal play's keys (``move_keys``) read back as that play, R4.1, R4.2."""
    rnd = _round_with_train()
    view = rnd.view(rnd.to_move)
    for move in rnd.legal_moves():
        assert read_move(move_keys(move, view), view, rnd.why_illegal) == move


def test_bad_lines_are_refused_with_what_is_wrong() -> None:
    rnd = _round_with_train()
    view = rnd.view(rnd.to_move)
    empty = read_move("", view, rnd.why_illegal)
    assert isinstance(empty, Refusal) and "d to draw" in empty.text
    assert isinstance(read_move("zz", view, rnd.why_illegal), Refusal)
    too_far = read_move(str(len(view.hand) + 1), view, rnd.why_illegal)
    assert isinstance(too_far, Refusal) and "no tile" in too_far.text
    missing = next(
        t for t in (Tile(a, b) for a in range(7) for b in range(a, 7)) if t not in view.hand
    )
    refused = read_move(str(missing), view, rnd.why_illegal)
    assert isinstance(refused, Refusal) and "don't hold" in refused.text


def test_a_tile_that_fits_both_ends_differently_asks_which() -> None:
    """R4.2: the player chooses the end; ``read_end`` reads the answer."""
    for seed in range(400):
        rnd = Round.new(Rules(players=2), seed=seed)
        while not rnd.is_over:
            view = rnd.view(rnd.to_move)
            both = [
                m.tile
                for m in rnd.legal_moves()
                if isinstance(m, Play)
                and m.end == "right"
                and Play(m.tile, "left") in rnd.legal_moves()
            ]
            if both:
                tile = both[0]
                asked = read_move(str(view.hand.index(tile) + 1), view, rnd.why_illegal)
                assert asked == AskEnd(tile, view.ends)
                assert read_end("l", tile) == Play(tile, "left")
                assert read_end("R", tile) == Play(tile, "right")
                assert read_end("", tile) == "cancel"
                assert isinstance(read_end("x", tile), Refusal)
                return
            rnd.play(rnd.legal_moves()[0])
    raise AssertionError("no seeded round offered a tile for both ends")
