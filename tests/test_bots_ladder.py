"""The bot ladder: key decisions, fairness, legality and determinism.

Positions are built with ``Round.from_deal`` and scripted moves, and each bot
sees only ``round.view(seat)``. Budgets are small so the file stays fast;
the levels are checked at their real budgets on a few positions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from passing_game import Round, Rules, parse_move
from passing_game.bots import (
    BOTS,
    LEVELS,
    CheatingBotError,
    Explainer,
    fair_names,
    is_cheating,
    kernel,
    make,
    names,
)
from passing_game.bots.heuristic import HeuristicBot
from passing_game.bots.sampling import Sampler
from passing_game.moves import DRAW, PASS, Move, Play
from passing_game.tiles import SUIT_MASKS, Tile
from passing_game.views import View

#: Small budgets for the search bots in this file.
FAST: dict[str, dict[str, Any]] = {
    "pimc": {"worlds": 12},
    "ismcts": {"iterations": 150},
    "omniscient": {"iterations": 150},
}
FAIR_BOTS = [name for name in BOTS if not is_cheating(name)]
EXPLAINERS = ["heuristic", "pimc", "ismcts"]


def fast(name: str, seed: int = 0) -> Any:
    return make(name, seed=seed, **FAST.get(name, {}))


def position(
    hands: Sequence[Sequence[str]],
    boneyard: Sequence[str] | str,
    leader: int,
    moves: Sequence[str],
    rules: Rules | None = None,
) -> Round:
    if isinstance(boneyard, str):
        boneyard = boneyard.split()
    rnd = Round.from_deal(rules or Rules(), hands, boneyard, leader)
    for text in moves:
        rnd.play(parse_move(text))
    return rnd


# -- key decisions ------------------------------------------------------------

LOW_HAND = ["0-0", "0-1", "0-2", "1-1", "1-2", "0-3", "2-2"]
HIGH_HAND = ["6-6", "5-6", "5-5", "4-6", "4-5", "4-4", "3-5"]
BONE = ["3-6", "1-3", "2-3", "0-4", "1-4", "2-4", "3-4", "0-5", "1-5", "2-5", "0-6", "1-6"]
BONE += ["2-6", "3-3"]


def won_round_view() -> View:
    """Seat 1 laid 6-6, seat 0 drew 3-6, seat 1 passed: a pass by seat 0 ends the round (D3).

    Seat 0 holds 24 pips in 8 tiles, seat 1 holds 57 in 6 tiles; laying 3-6
    would open 3 and 6 to seat 1's heavy tiles.
    """
    rnd = position([LOW_HAND, HIGH_HAND], BONE, 1, ["L6-6", "draw", "pass"])
    view = rnd.view(0)
    assert view.passes_in_row == 1 and Play(Tile(3, 6), "left") in view.legal_moves()
    return view


@pytest.mark.parametrize("name", ["heuristic", "pimc", "ismcts", "hard", "expert"])
def test_pass_ends_a_won_round(name: str) -> None:
    """D3: with the lowest count and everybody else passed, pass to end the round."""
    bot = make(name, **FAST.get(name, {}))
    assert bot.choose(won_round_view()) == PASS


def starve_view() -> View:
    """Seat 1 drew at ends 6/6 and again at 2/6: it seems to lack 2 and 6.

    Seat 0 may lay 2-2 (keeps 2 / 6 open: a block) or the heavier 2-5.
    """
    rnd = position(
        [
            ["6-6", "2-6", "2-2", "2-5", "1-3", "3-4", "0-4"],
            ["0-0", "0-1", "1-1", "1-4", "1-5", "3-5", "4-5"],
        ],
        "0-3 1-2 0-5 3-3 4-4 5-5 0-6 1-6 3-6 4-6 5-6 2-3 2-4 0-2",
        0,
        ["L6-6", "draw", "L2-6", "draw"],
    )
    view = rnd.view(0)
    assert Play(Tile(2, 5), "left") in view.legal_moves()
    return view


@pytest.mark.parametrize("name", ["heuristic", "pimc", "ismcts", "hard", "expert"])
def test_block_that_starves_an_opponent(name: str) -> None:
    bot = make(name, **FAST.get(name, {}))
    assert bot.choose(starve_view()) == Play(Tile(2, 2), "left")


def heavy_view() -> View:
    """Ends 1 / 6; seat 0 may dump 6-6 or lay light tiles on the 1."""
    rnd = position(
        [
            ["6-6", "0-1", "0-0", "0-2", "1-2", "2-2", "0-3"],
            ["1-6", "1-1", "1-3", "1-4", "1-5", "3-5", "4-5"],
        ],
        "0-4 0-5 0-6 2-3 2-4 2-5 2-6 3-3 3-4 3-6 4-4 4-6 5-5 5-6",
        1,
        ["L1-6"],
    )
    return rnd.view(0)


@pytest.mark.parametrize("name", ["heuristic", "ismcts", "hard", "expert"])
def test_dumps_a_heavy_tile(name: str) -> None:
    """At least four of five seeded searches: the expert, which searches its
    opponent's replies (``opponent_policy=0.5``), values the light 1-2 (which
    leaves ends this opponent may not match) close behind, and one seed of
    five prefers it."""
    view = heavy_view()
    choices = [make(name, seed=seed, **FAST.get(name, {})).choose(view) for seed in range(5)]
    assert choices.count(Play(Tile(6, 6), "right")) >= 4, choices


def test_heuristic_draws_when_behind_and_passes_when_ahead() -> None:
    bot = HeuristicBot()
    ahead = position([LOW_HAND, HIGH_HAND], BONE, 1, ["L6-6"]).view(0)
    assert ahead.legal_moves() == [DRAW, PASS]
    assert bot.choose(ahead) == PASS
    behind = position([HIGH_HAND, LOW_HAND], BONE, 1, ["L0-0"]).view(0)
    assert behind.legal_moves() == [DRAW, PASS]
    assert bot.choose(behind) == DRAW
    # under forced passing it must draw while it can (D2)
    forced = position([LOW_HAND, HIGH_HAND], BONE, 1, ["L6-6"], Rules(passing="forced")).view(0)
    assert bot.choose(forced) == DRAW


def test_heuristic_prefers_ends_nobody_else_can_match() -> None:
    """Seat 0 holds every 0 but 0-6; after 0-0, 0-6 and 5-6, laying 0-5 shuts both ends."""
    rnd = position(
        [
            ["0-0", "0-1", "0-2", "0-3", "0-5", "5-6", "1-4"],
            ["0-6", "5-5", "2-2", "3-3", "1-1", "2-3", "4-4"],
        ],
        "0-4 1-2 1-3 1-5 1-6 2-4 2-5 2-6 3-4 3-5 3-6 4-5 4-6 6-6",
        0,
        ["L0-0", "L0-6", "L5-6", "L5-5"],
    )
    view = rnd.view(0)
    assert view.ends == (5, 0)
    move = HeuristicBot().choose(view)
    assert move == Play(Tile(0, 5), "left")


def test_explanations_are_one_line_and_match_the_move() -> None:
    for name in [*EXPLAINERS, "expert"]:
        bot: Any = make(name, **FAST.get(name, {}))
        for view in (won_round_view(), starve_view(), heavy_view()):
            move, reason = bot.explain(view)
            assert move == bot.choose(view)
            assert reason and "\n" not in reason
    _, reason = HeuristicBot().explain(won_round_view())
    assert reason == "This ends the round, and your 24 pips are likely the lowest."


# -- fairness: hidden information never changes a choice -----------------------


def _scramble_hidden(rnd: Round, seat: int, rng: random.Random) -> Round:
    """The same round with the tiles ``seat`` has not seen dealt differently.

    Tiles unseen by ``seat`` keep their places in the deal only as a set: they
    are shuffled among those places (other hands, boneyard), so every public
    move stays legal and ``seat``'s view stays the same.
    """
    deal = rnd.deal
    unseen = set(rnd.view(seat).unseen)
    slots: list[tuple[int, int]] = []  # (hand or -1 for boneyard, index)
    for h, hand in enumerate(deal.hands):
        slots += [(h, i) for i, t in enumerate(hand) if t in unseen]
    slots += [(-1, i) for i, t in enumerate(deal.boneyard) if t in unseen]
    tiles = [deal.hands[h][i] if h >= 0 else deal.boneyard[i] for h, i in slots]
    rng.shuffle(tiles)
    hands = [list(hand) for hand in deal.hands]
    bone = list(deal.boneyard)
    for (h, i), tile in zip(slots, tiles, strict=True):
        if h >= 0:
            hands[h][i] = tile
        else:
            bone[i] = tile
    other = Round.from_deal(rnd.rules, hands, bone, deal.leader)
    for move in rnd.moves:
        other.play(move)
    return other


def _random_positions(count: int, seed: int) -> list[tuple[Round, int]]:
    """Positions over every player count and some variants, each with the seat to move."""
    rng = random.Random(seed)
    variants = [
        Rules(players=2),
        Rules(players=3),
        Rules(players=4),
        Rules(players=4, partnerships=True),
        Rules(players=3, draw="continue", scoring="pairwise"),
        Rules(players=2, passing="forced"),
    ]
    out: list[tuple[Round, int]] = []
    while len(out) < count:
        rules = variants[len(out) % len(variants)]
        rnd = Round.new(rules, rng=rng)
        for _ in range(rng.randrange(14)):
            moves = rnd.legal_moves()
            plays = [m for m in moves if isinstance(m, Play)]
            rnd.play(rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(moves))
            if rnd.is_over:
                break
        seat = rnd.to_move
        if seat is not None:
            out.append((rnd, seat))
    return out


@pytest.mark.parametrize("name", FAIR_BOTS)
def test_choice_ignores_hidden_tiles(name: str) -> None:
    rng = random.Random(7)
    for rnd, seat in _random_positions(10, seed=11):
        other = _scramble_hidden(rnd, seat, rng)
        view = rnd.view(seat)
        assert other.view(seat) == view
        assert other.hands != rnd.hands or other.boneyard != rnd.boneyard or not view.unseen
        assert fast(name, seed=3).choose(view) == fast(name, seed=3).choose(other.view(seat))


# -- legality and determinism ---------------------------------------------------


@pytest.mark.parametrize("name", FAIR_BOTS)
def test_fair_bots_always_play_legal_moves(name: str) -> None:
    bot = fast(name, seed=5)
    for rnd, seat in _random_positions(30, seed=23):
        move = bot.choose(rnd.view(seat))
        assert rnd.is_legal(move), (name, rnd, move)


def test_omniscient_plays_legal_moves_from_the_state() -> None:
    bot = fast("omniscient", seed=5)
    for rnd, _seat in _random_positions(12, seed=29):
        assert rnd.is_legal(bot.choose_with_state(rnd))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_full_rounds_with_every_bot(players: int) -> None:
    """Whole rounds where every seat is a different bot end normally."""
    lineup = ["heuristic", "pimc", "ismcts", "greedy"][:players]
    for seed in range(2):
        rnd = Round.new(Rules(players=players), seed=seed)
        bots = [fast(name, seed=seed) for name in lineup]
        while not rnd.is_over:
            seat = rnd.to_move
            assert seat is not None
            rnd.play(bots[seat].choose(rnd.view(seat)))


@pytest.mark.parametrize("name", [*FAIR_BOTS, "hard", "expert"])
def test_same_seed_same_view_same_move(name: str) -> None:
    positions = _random_positions(6 if name in BOTS else 3, seed=41)
    first = fast(name, seed=9) if name in BOTS else make(name, seed=9)
    again = fast(name, seed=9) if name in BOTS else make(name, seed=9)
    answers = [first.choose(rnd.view(seat)) for rnd, seat in positions]
    # asked in another order, with other questions in between
    for (rnd, seat), answer in reversed(list(zip(positions, answers, strict=True))):
        again.choose(won_round_view())
        assert again.choose(rnd.view(seat)) == answer


def test_a_bot_refuses_to_move_out_of_turn() -> None:
    rnd = Round.new(Rules(), seed=1)
    seat = (rnd.to_move + 1) % 2  # type: ignore[operator]
    for name in FAIR_BOTS:
        with pytest.raises(ValueError, match="turn"):
            fast(name).choose(rnd.view(seat))


# -- registry --------------------------------------------------------------------


def test_registry_and_levels() -> None:
    assert set(BOTS) >= {"random", "greedy", "heuristic", "pimc", "ismcts", "omniscient"}
    assert list(LEVELS) == ["easy", "medium", "hard", "expert"]
    for name in names():
        bot = make(name, seed=1)
        assert bot.name in BOTS
    # levels use iteration budgets, so they are deterministic
    for bot_name, options in LEVELS.values():
        assert "seconds" not in options
        assert bot_name in BOTS


def test_omniscient_is_refused_from_views_and_in_fair_lists() -> None:
    assert "omniscient" not in fair_names()
    assert {"random", "greedy", "heuristic", "pimc", "ismcts", *LEVELS} <= set(fair_names())
    assert is_cheating("omniscient") and not is_cheating("expert")
    bot = make("omniscient")
    with pytest.raises(CheatingBotError, match="choose_with_state"):
        bot.choose(won_round_view())


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError):
        make("ismcts", iterations=0)
    with pytest.raises(ValueError):
        make("pimc", worlds=0)
    with pytest.raises(ValueError):
        make("heuristic", weights={"nonsense": 1.0})
    with pytest.raises(ValueError):
        make("pimc", trust=0)
    with pytest.raises(ValueError, match="unknown bot"):
        make("grandmaster")


def test_time_budgets_answer_legally() -> None:
    view = heavy_view()
    for name in ("pimc", "ismcts"):
        move: Move = make(name, seconds=0.05).choose(view)
        assert move in view.legal_moves()


def test_explainers_are_marked() -> None:
    for name in ["heuristic", "pimc", "ismcts", "medium", "hard", "expert"]:
        assert isinstance(make(name), Explainer), name
    assert not isinstance(make("greedy"), Explainer)


def test_sampled_deals_respect_the_facts_and_weigh_the_evidence() -> None:
    """Guesses keep every hard fact (R9); a draw on open 2 / 6 makes 2s and 6s rarer."""
    view = starve_view()
    sampler = Sampler(view)
    rng = random.Random(3)
    sixes_or_twos = 0
    total = 200
    for _ in range(total):
        state = sampler.sample(rng)
        assert state.hands[0] == sum(1 << t.index for t in view.hand)
        assert state.sizes == list(view.hand_sizes)
        assert state.boneyard_size == view.boneyard_size
        seen = state.hands[0] | state.hands[1] | sum(1 << i for i in state.bone)
        assert seen | sum(1 << t.index for t in view.played) == (1 << 28) - 1
        sixes_or_twos += (state.hands[1] & (SUIT_MASKS[2] | SUIT_MASKS[6])).bit_count()
    uniform = Sampler(view, trust=1.0, heavy=0.0)
    assert not uniform.informed
    plain = sum(
        (uniform.sample(rng).hands[1] & (SUIT_MASKS[2] | SUIT_MASKS[6])).bit_count()
        for _ in range(total)
    )
    assert sixes_or_twos < plain * 0.95, (sixes_or_twos, plain)


# -- the compiled search (bots.fast) ---------------------------------------------


needs_kernel = pytest.mark.skipif(not kernel.AVAILABLE, reason="compiled kernel not built")


@needs_kernel
@pytest.mark.parametrize("name", ["pimc", "ismcts"])
def test_kernel_and_python_engines_agree_on_key_decisions(name: str) -> None:
    """D3 and R7: both engines find the pass that ends a won round and the heavy dump."""
    for engine in ("c", "python"):
        bot = make(name, engine=engine, **FAST[name])
        assert bot.choose(won_round_view()) == PASS, engine
        if name == "ismcts":
            assert bot.choose(heavy_view()) == Play(Tile(6, 6), "right"), engine


def test_engine_option_is_checked() -> None:
    with pytest.raises(ValueError, match="engine"):
        make("ismcts", engine="fortran")
    with pytest.raises(ValueError, match="engine"):
        make("pimc", engine="gpu")
    with pytest.raises(ValueError, match="pool"):
        make("ismcts", pool=0)
    with pytest.raises(ValueError, match="sees_boneyard"):
        make("omniscient", sees_boneyard="maybe")


@pytest.mark.parametrize("engine", ["auto", "python"])
def test_second_yardstick_sees_hands_but_not_the_boneyard_order(engine: str) -> None:
    """R9.2: with sees_boneyard=false the yardstick's move ignores the boneyard's order."""
    if engine == "auto" and not kernel.AVAILABLE:
        pytest.skip("compiled kernel not built")
    rng = random.Random(5)
    for rnd, seat in _random_positions(8, seed=17):
        if len(rnd.boneyard) < 2:
            continue
        bone = list(rnd.deal.boneyard)
        drawn = len(bone) - len(rnd.boneyard)
        rest = bone[drawn:]
        rng.shuffle(rest)
        other = Round.from_deal(rnd.rules, rnd.deal.hands, bone[:drawn] + rest, rnd.deal.leader)
        for move in rnd.moves:
            other.play(move)
        assert other.hands == rnd.hands
        bot = make("omniscient", seed=2, iterations=200, sees_boneyard=False, engine=engine)
        assert bot.choose_with_state(rnd) == bot.choose_with_state(other)
        assert rnd.is_legal(bot.choose_with_state(rnd)), seat


@pytest.mark.parametrize("name", ["pimc", "ismcts"])
def test_python_fallback_ignores_hidden_tiles_too(name: str) -> None:
    """R9: the pure-Python search (the fallback without the kernel) is fair as well."""
    rng = random.Random(8)
    for rnd, seat in _random_positions(4, seed=13):
        other = _scramble_hidden(rnd, seat, rng)
        bot = make(name, seed=3, engine="python", **FAST[name])
        assert bot.choose(rnd.view(seat)) == bot.choose(other.view(seat))
