"""What the puzzle tests share: hand-made positions, and late positions of random play."""

from __future__ import annotations

from passing_game import Round, Rules, Tile
from passing_game.bots import make
from passing_game.moves import code_to_move, move_to_code, parse_move
from passing_game.state import State
from passing_game.tiles import mask_of


def position(
    rules: Rules,
    hands: list[list[str]],
    boneyard: list[str],
    ends: tuple[int, int] | None,
    to_move: int = 0,
    passes: int = 0,
) -> State:
    """A position written by hand: the hands, the boneyard (next draw first), the open ends.

    The tiles on the train are the ones listed nowhere; only the ends matter.
    """
    return State(
        rules,
        [mask_of(Tile.parse(t) for t in hand) for hand in hands],
        [Tile.parse(t).index for t in boneyard],
        ends,
        to_move,
        passes,
    )


def named(values: dict[int, int]) -> dict[str, int]:
    """Move codes to notation, for readable assertions."""
    return {str(code_to_move(code)): value for code, value in values.items()}


def codes(*moves: str) -> list[int]:
    return [move_to_code(parse_move(m)) for m in moves]


def late_round(rules: Rules, seed: int, tiles: int, boneyard: int, bot: str = "random") -> Round:
    """A round played by ``bot`` until the hands hold at most ``tiles`` tiles in all
    and the boneyard at most ``boneyard`` (or the round is nearly over)."""
    rnd = Round.new(rules, seed=seed)
    player = make(bot, seed=seed)
    while not rnd.is_over:
        if sum(map(len, rnd.hands)) <= tiles and len(rnd.boneyard) <= boneyard:
            return rnd
        seat = rnd.to_move
        assert seat is not None
        rnd.play(player.choose(rnd.view(seat)))
    return rnd


def a_late_round(rules: Rules, seed: int, tiles: int, boneyard: int, bot: str = "random") -> Round:
    """``late_round`` from the first seed from ``seed`` on whose round is still going."""
    for tried in range(seed, seed + 1000):
        rnd = late_round(rules, tried, tiles, boneyard, bot)
        if not rnd.is_over:
            return rnd
    raise AssertionError("no round in progress")
