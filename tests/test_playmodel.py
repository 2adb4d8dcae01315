"""The model of play fitted to the expert, and the beliefs it weighs (issue 16)."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from passing_game.bots import make
from passing_game.bots.fitting import design, fit, log_likelihood, play_rounds
from passing_game.bots.fitting import uniform_log_likelihood as uniform_choice
from passing_game.bots.ismcts import IsmctsBot
from passing_game.bots.playmodel import (
    DRAW_KEY,
    FEATURES,
    FITTED,
    PASS_KEY,
    check_coefficients,
    decision_log_prob,
    decisions,
    fitted_for,
    log_prob,
    option_features,
)
from passing_game.bots.reader import Reader
from passing_game.bots.sampling import Sampler, uniform_marginals
from passing_game.moves import DRAW, PASS, Play
from passing_game.round import Round
from passing_game.rules import Rules
from passing_game.tiles import Tile, mask_of


def coefficients(**values: float) -> tuple[float, ...]:
    return tuple(values.get(name, 0.0) for name in FEATURES)


def tiles(*texts: str) -> list[Tile]:
    return [Tile.parse(t) for t in texts]


SEAT0 = tiles("6-6", "0-0", "0-1", "0-2", "1-1", "1-2", "2-2")
SEAT1 = tiles("6-1", "6-5", "3-3", "3-4", "4-4", "4-5", "5-5")


def opening(*moves: object) -> Round:
    """2 players, seat 0 leads [6|6]; the rest of the tiles in the boneyard."""
    rest = sorted(set(Tile.parse(f"{a}-{b}") for a in range(7) for b in range(a, 7)))
    bone = [t for t in rest if t not in SEAT0 and t not in SEAT1]
    rnd = Round.from_deal(Rules(players=2), [SEAT0, SEAT1], bone, leader=0)
    rnd.play(Play(Tile(6, 6)))
    for move in moves:
        rnd.play(move)  # type: ignore[arg-type]
    return rnd


def test_the_weight_of_a_pass_is_its_softmax_probability() -> None:
    """R4.4: seat 1 passed on 6|6; the weight is P(pass) for the hand it held."""
    rnd = opening(PASS)
    view = rnd.view(0)
    c = coefficients(pips=1.2, **{"pass": 0.5, "pass_fits": -1.0, "draw": -0.3})
    sampler = Sampler(view, model=c)
    me = mask_of(view.hand)
    # a hand with two sixes: plays [6|1] (7 pips) and [6|5] (11), draw, pass
    with_sixes = mask_of(SEAT1)
    p = math.exp(-0.5) / (math.exp(-0.5) + math.exp(-0.3) + math.exp(0.7) + math.exp(1.1))
    assert sampler.weight([me, with_sixes]) == pytest.approx(p)
    # no six: only draw and pass
    no_six = mask_of(tiles("3-3", "3-4", "4-4", "4-5", "5-5", "1-3", "2-3"))
    q = math.exp(0.5) / (math.exp(0.5) + math.exp(-0.3))
    assert sampler.weight([me, no_six]) == pytest.approx(q)
    assert sampler.weight([me, no_six]) > sampler.weight([me, with_sixes])


def test_the_fast_reader_is_the_plain_definition() -> None:
    rng = random.Random(3)
    c = tuple(rng.uniform(-2.0, 2.0) for _ in FEATURES)
    for players, partnerships in ((2, False), (4, True)):
        rules = Rules(players=players, partnerships=partnerships)
        rnd = Round.new(rules, seed="reader")
        bots = [make("heuristic", seed=s) for s in range(players)]
        while not rnd.is_over:
            view = rnd.view(rnd.to_move)  # type: ignore[arg-type]
            found = decisions(view)
            reader = Reader(c, found)
            sampler = Sampler(view, trust=1.0, heavy=0.0)
            for _ in range(3):
                hands, _bone = sampler.uniform(rng)
                plain = sum(decision_log_prob(c, hands, d) for d in found)
                assert reader.log_weight(hands) == pytest.approx(plain, abs=1e-9)
            rnd.play(bots[view.seat].choose(view))


def test_a_light_play_weighs_less_where_a_heavier_tile_was_held() -> None:
    """Seat 1 laid [6|1]: a deal where it also held [6|5], which a seat that
    sheds its heaviest tile would surely have laid, weighs less."""
    rnd = opening(Play(Tile(6, 1)))
    view = rnd.view(0)
    sampler = Sampler(view, model=coefficients(pips=20.0))
    me = mask_of(view.hand)
    held_heavier = mask_of(tiles("6-5", "3-3", "3-4", "4-4", "4-5", "5-5"))
    held_lighter = mask_of(tiles("6-0", "3-3", "3-4", "4-4", "4-5", "5-5"))
    heavy, light = sampler.weight([me, held_heavier]), sampler.weight([me, held_lighter])
    assert heavy < 0.05 * light


def test_draws_since_temper_the_evidence() -> None:
    """Seat 1 drew on 6|6: its hand then is its hand now less one unknown tile."""
    rnd = opening(DRAW)
    view = rnd.view(0)
    (d,) = decisions(view)
    assert d.choice == DRAW_KEY and d.draws_after == 1 and d.can_draw
    c = coefficients(**{"draw": -1.0, "draw_fits": -2.0})
    hands = [mask_of(view.hand), mask_of(SEAT1) | 1 << Tile(2, 3).index]
    direct = log_prob(c, hands[1], 6, 6, d.train, True, DRAW_KEY)
    assert Reader(c, [d]).log_weight(hands) == pytest.approx(direct / 2)


def test_options_follow_the_move_generator() -> None:
    """R4.1-R4.5: each distinct play, the draw while allowed (R4.3), the pass always (R4.4)."""
    hand = mask_of(tiles("6-1", "1-3", "3-3"))
    keys = [k for k, _f in option_features(hand, 1, 3, 0, True)]
    plays = [k for k in keys if k[0] >= 0]
    # [6|1] on the 1 leaves 6,3; [1|3] leaves 3,3 or 1,1; [3|3] leaves 1,3
    assert sorted(plays) == sorted(
        [
            (Tile(1, 6).index, 3, 6),
            (Tile(1, 3).index, 3, 3),
            (Tile(1, 3).index, 1, 1),
            (Tile(3, 3).index, 1, 3),
        ]
    )
    assert keys[-2:] == [PASS_KEY, DRAW_KEY]
    assert [k for k, _f in option_features(hand, 1, 3, 0, False)][-1] == PASS_KEY


def test_without_evidence_the_fitted_beliefs_are_uniform() -> None:
    rnd = Round.from_deal(Rules(players=2), [SEAT0, SEAT1], opening().boneyard, leader=0)
    view = rnd.view(0)
    sampler = Sampler(view, model=coefficients(pips=3.0))
    assert not sampler.informed
    assert sampler.marginals(random.Random(1)) == uniform_marginals(view)


def test_the_fitted_pool_serves_the_kernel_and_the_marginals() -> None:
    rnd = opening(PASS)
    view = rnd.view(0)
    sampler = Sampler(view, pool=50, model=coefficients(**{"pass_fits": -3.0}))
    mode, hands, bones, cum = sampler.kernel_pool(random.Random(2))
    assert mode == 1 and len(hands) == len(bones) == len(cum) == 50
    assert all(b >= a for a, b in itertools.pairwise(cum)) and max(cum) > 0
    marginals = sampler.marginals(random.Random(2))
    six_five = Tile(5, 6).index
    assert marginals[six_five][1] < uniform_marginals(view)[six_five][1]


def test_model_and_coefficients_are_validated() -> None:
    with pytest.raises(ValueError, match="model must be None, 'tuned' or 'fitted'"):
        IsmctsBot(model="bogus")
    with pytest.raises(ValueError, match=f"coefficients must be {len(FEATURES)} finite numbers"):
        check_coefficients((1.0, 2.0))
    with pytest.raises(ValueError, match="model must be None, 'fitted' or coefficients"):
        Sampler(opening(PASS).view(0), model="tuned")
    with pytest.raises(ValueError, match="finite"):
        Sampler(opening(PASS).view(0), model=(math.nan,) * len(FEATURES))
    assert IsmctsBot(model="fitted").model == "fitted"


def test_fitted_model_is_used_where_there_is_a_fit() -> None:
    assert fitted_for(Rules(players=3)) is FITTED.get((3, False))
    assert fitted_for(Rules(players=2, passing="forced")) is None
    bot = IsmctsBot(model="fitted", iterations=50)
    sampler = bot.sampler(opening(PASS).view(0))
    assert (sampler.reader is not None) == ((2, False) in FITTED)
    assert bot.choose(opening(PASS).view(0)) in opening(PASS).view(0).legal_moves()


def test_the_fit_beats_uniform_choice_on_a_fixed_dataset() -> None:
    """Greedy lays its heaviest tile and never passes or draws while a tile
    fits: the fitted model must describe that far better than a uniform choice."""
    games = play_rounds(Rules(players=2), "greedy", seed=7, rounds=12)
    records = [r for g in games for r in g]
    d = design(records)
    beta = fit(d)
    ll = log_likelihood(beta, d)[0]
    assert ll > uniform_choice(d) + 0.3 * d.decisions
    assert beta[FEATURES.index("pips")] > 0
    assert beta[FEATURES.index("pass_fits")] < 0


def test_a_pass_that_ends_the_round_is_marked() -> None:
    """D3: after the other seat's pass, a pass ends the round."""
    rnd = opening(Play(Tile(6, 1)), Play(Tile(1, 1)), PASS, PASS)
    assert rnd.is_over
    first, second = decisions(rnd.view(1), seats={0, 1})[-2:]
    assert first.choice == second.choice == PASS_KEY
    assert not first.closes and second.closes
    assert (first.seat, first.partner, first.rivals) == (1, 0, 5)


@pytest.mark.skipif((2, False) not in FITTED, reason="no fit for 2 players")
def test_the_fit_reads_the_experts_passes() -> None:
    """R4.4: a pass with a six in hand is less likely than without; less so
    when the pass ends the round (D3), which the expert also does holding tiles."""
    c = FITTED[(2, False)]
    six, no_six = mask_of(tiles("6-1", "3-3")), mask_of(tiles("1-3", "3-3"))
    gaps = []
    for closes in (False, True):
        with_fit = log_prob(c, six, 6, 6, 0, False, PASS_KEY, closes, 0, 2)
        without = log_prob(c, no_six, 6, 6, 0, False, PASS_KEY, closes, 0, 2)
        assert with_fit < without == 0.0  # no six and no draw: the pass is the only option
        gaps.append(without - with_fit)
    assert gaps[1] < gaps[0]


def pool_weights(sampler: Sampler) -> list[float]:
    _mode, _hands, _bones, cum = sampler.kernel_pool(random.Random(5))
    return [b - a for a, b in zip([0.0, *cum[:-1]], cum, strict=True)]


@pytest.mark.parametrize("model", ["fitted", None])
def test_belief_is_a_power_on_every_guess_weight(model: str | None) -> None:
    """R4.4: seat 1 passed on 6|6. ``belief`` b weighs each guessed deal by its
    likelihood to the power b: the same deals, their weights' ratios powered."""
    view = opening(PASS).view(0)
    plain = pool_weights(Sampler(view, pool=60, model=model))
    assert len(set(plain)) > 1  # the pass is evidence: the deals differ
    for belief in (0.5, 2.0):
        powered = pool_weights(Sampler(view, pool=60, model=model, belief=belief))
        top = max(plain)
        expected = [(w / top) ** belief for w in plain]
        scale = max(powered)
        assert [w / scale for w in powered] == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("belief", [0.0, -1.0, 4.5])
def test_a_belief_out_of_range_is_refused(belief: float) -> None:
    view = opening(PASS).view(0)
    with pytest.raises(ValueError, match="belief must be in"):
        Sampler(view, belief=belief)
    with pytest.raises(ValueError, match="belief must be in"):
        IsmctsBot(belief=belief)


def test_the_bot_searches_with_its_belief() -> None:
    view = opening(PASS).view(0)
    assert IsmctsBot(model="fitted", belief=0.6).sampler(view).belief == 0.6
    assert make("expert").sampler(view).belief == 1.0  # type: ignore[attr-defined]
