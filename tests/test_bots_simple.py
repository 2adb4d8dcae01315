"""The two simple opponents, ``random`` and ``greedy``, and the bot registry."""

from __future__ import annotations

import pytest

from passing_game import DRAW, PASS, TILES, Draw, Pass, Play, Round, Rules, Tile
from passing_game.bots import Bot, GreedyBot, RandomBot, make, names

RULES = [
    Rules(players=2),
    Rules(players=3, draw="continue"),
    Rules(players=4, partnerships=True),
    Rules(players=4, passing="forced", scoring="pairwise"),
]


def play_out(rnd: Round, bots: list[Bot]) -> list[tuple[object, object]]:
    """Let bots play the round from views only; every (view, move) pair on the way."""
    seen = []
    for _ in range(500):
        if rnd.is_over:
            return seen
        seat = rnd.to_move
        assert seat is not None
        view = rnd.view(seat)
        move = bots[seat].choose(view)
        assert move in view.legal_moves(), (move, view.legal_moves())
        seen.append((view, move))
        rnd.play(move)
    raise AssertionError("round did not end")


@pytest.mark.parametrize("rules", RULES, ids=repr)
@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_bots_always_play_legal_moves(rules: Rules, kind: str) -> None:
    for seed in range(15):
        bots = [make(kind, seed=seed * 10 + s) for s in range(rules.players)]
        rnd = Round.new(rules, seed=seed)
        play_out(rnd, bots)
        assert rnd.is_over


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_same_seed_and_view_give_the_same_move(kind: str) -> None:
    for seed in range(10):
        rnd = Round.new(Rules(players=3), seed=seed)
        pairs = play_out(rnd, [make(kind, seed=seed)] * 3)
        for view, move in pairs:
            assert make(kind, seed=seed).choose(view) == move  # type: ignore[arg-type]
            bot = make(kind, seed=seed)
            assert [bot.choose(view) for _ in range(3)] == [move] * 3  # type: ignore[arg-type]


def test_random_bot_uses_its_seed_and_varies() -> None:
    rnd = Round.new(Rules(players=2), seed=1, leader=0)
    view = rnd.view(0)
    picks = {RandomBot(seed=s).choose(view) for s in range(60)}
    assert len(picks) > 3
    assert picks <= set(view.legal_moves())
    assert DRAW in picks and PASS in picks


def test_random_bot_same_seed_same_whole_round() -> None:
    def run() -> tuple[object, ...]:
        rnd = Round.new(Rules(players=4), seed=7)
        play_out(rnd, [RandomBot(seed=s) for s in range(4)])
        return rnd.history

    assert run() == run()


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_greedy_plays_heaviest_else_draws_else_passes(rules: Rules) -> None:
    """Greedy: the heaviest playable tile; never passes or draws while it can play;
    draws before it passes."""
    checked = {"play": 0, "draw": 0, "pass": 0}
    for seed in range(20):
        rnd = Round.new(rules, seed=seed)
        bots: list[Bot] = [GreedyBot(seed=s) for s in range(rules.players)]
        for view, move in play_out(rnd, bots):
            legal = view.legal_moves()  # type: ignore[attr-defined]
            plays = [m for m in legal if isinstance(m, Play)]
            if plays:
                assert isinstance(move, Play)
                assert move.tile.pips == max(m.tile.pips for m in plays)
                checked["play"] += 1
            elif DRAW in legal:
                assert isinstance(move, Draw)
                checked["draw"] += 1
            else:
                assert isinstance(move, Pass)
                checked["pass"] += 1
    assert all(checked.values()), checked


def test_greedy_heaviest_on_a_known_position() -> None:
    hands = [["1-2", "5-6", "4-4"], ["0-0", "0-1", "0-6"]]
    rest = [str(t) for t in TILES if str(t) not in hands[0] + hands[1]]
    rnd = Round.from_deal(Rules(players=2, hand_size=3), hands, rest, leader=0)
    assert GreedyBot().choose(rnd.view(0)) == Play(Tile(5, 6), "left")
    rnd.play(Play(Tile(5, 6), "left"))
    # seat 1 holds 0-6 (fits) and two tiles that do not: it plays, never draws
    assert GreedyBot().choose(rnd.view(1)) == Play(Tile(0, 6), "right")
    rnd.play(PASS)
    # seat 0 holds 1-2 and 4-4, neither fits 5 or 6: it draws rather than passes
    assert GreedyBot().choose(rnd.view(0)) == DRAW


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_bot_refuses_when_not_its_turn(kind: str) -> None:
    rnd = Round.new(Rules(players=2), seed=2, leader=0)
    with pytest.raises(ValueError):
        make(kind).choose(rnd.view(1))


def test_registry_names_and_make() -> None:
    assert {"random", "greedy"} <= set(names())
    assert make("random").name == "random"
    assert make("greedy", seed=3).name == "greedy"
    assert isinstance(make("greedy", seed=3), GreedyBot)
    assert make("greedy", seed=3).seed == 3  # type: ignore[attr-defined]
    assert isinstance(make("random"), Bot)
    for name in names():
        assert isinstance(make(name), Bot)


@pytest.mark.parametrize("name", ["nonsense", "", "Random", "GREEDY "])
def test_make_with_a_bad_name(name: str) -> None:
    with pytest.raises(ValueError) as info:
        make(name)
    message = str(info.value)
    assert repr(name) in message
    assert "random" in message and "greedy" in message


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_make_with_bad_options(name: str) -> None:
    with pytest.raises(ValueError, match=name):
        make(name, colour="red")
    with pytest.raises(ValueError):
        make(name, seed=1, depth=2)


def test_make_level_with_bad_options() -> None:
    from passing_game.bots import LEVELS

    for level in LEVELS:
        with pytest.raises(ValueError, match=level):
            make(level, colour="red")
