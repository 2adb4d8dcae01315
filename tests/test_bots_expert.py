"""The ``expert`` level of issue 16: the fitted model of play where there is
one (2 players; 4 in partnerships), the tuned model elsewhere, and opponents
in the tree that follow the playout policy half of the time; since issue 28
(P67), with 2 players, playouts by that model of play."""

from __future__ import annotations

import random

import pytest

from passing_game import Round, Rules
from passing_game.bots import FROZEN, LEVELS, IsmctsBot, kernel, make
from passing_game.bots.ismcts import TUNED_PLAYOUTS, summed
from passing_game.bots.playmodel import FITTED, REFITTED, fitted_for
from passing_game.bots.sampling import TUNED, tuned_model

pytestmark = pytest.mark.skipif(not kernel.AVAILABLE, reason="compiled kernel not built")


def test_the_tuned_model_is_for_two_players_only() -> None:
    two = Round.new(Rules(players=2), seed=1).view(0)
    partners = Round.new(Rules(players=4, partnerships=True), seed=1).view(0)
    assert tuned_model(two, 0.3, 0.15) == TUNED[(2, False)] == (0.05, 1.0)
    assert tuned_model(partners, 0.3, 0.15) == (0.3, 0.15)
    assert FROZEN["expert-5f2ff52"][1]["model"] is None


def test_the_expert_level_reads_with_the_fitted_model_and_half_policy_opponents() -> None:
    name, options = LEVELS["expert"]
    assert name == "ismcts"
    assert options["model"] == "fitted" and options["opponent_policy"] == 0.5
    two = Round.new(Rules(players=2), seed=1).view(0)
    assert make("expert").sampler(two).reader is not None  # type: ignore[attr-defined]


def test_with_four_players_in_partnerships_the_expert_reads_with_its_own_fit() -> None:
    """Partnerships (D6) have their own fit; 3 players and 4 without partners
    have none and search as the frozen expert but for ``opponent_policy`` (each
    of the level's trees, P71)."""
    partners = Round.new(Rules(players=4, partnerships=True), seed=1).view(0)
    assert fitted_for(Rules(players=4, partnerships=True)) == FITTED[(4, True)]
    assert make("expert").sampler(partners).reader is not None  # type: ignore[attr-defined]
    rules = Rules(players=4)
    assert fitted_for(rules) is None
    old = dict(FROZEN["expert-5f2ff52"][1])
    old["opponent_policy"] = 0.5
    for seed in range(6):
        rnd = Round.new(rules, seed=seed)
        for _ in range(3):
            rnd.play(rnd.legal_moves()[0])
        view = rnd.view(rnd.to_move)
        level = make("expert", seed=seed, trees=1)
        assert level.choose(view) == make("ismcts", seed=seed, **old).choose(view)


# -- issue 28: the playouts follow the model of play (P67) ---------------------


def _views(rules: Rules, count: int, seed: int) -> list[object]:
    """Positions a few uniformly random moves into seeded rounds, seen by the seat to move."""
    rng = random.Random(seed)
    views = []
    while len(views) < count:
        rnd = Round.new(rules, seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(1, 8)):
            if rnd.is_over:
                break
            rnd.play(rng.choice(rnd.legal_moves()))
        if not rnd.is_over and len(rnd.legal_moves()) > 1:
            views.append(rnd.view(rnd.to_move))
    return views


def test_the_expert_levels_playouts_follow_the_model_of_play_with_two_players() -> None:
    """With 2 players the level's playouts are the fitted model's moves (R4.4,
    R4.5: it passes and draws as the expert does); elsewhere (4 in
    partnerships, where the arena found no gain, and formats without a fit)
    they are the heaviest tile's, so there each of the level's trees (P71)
    searches as ``expert-562b7ae``."""
    _name, options = LEVELS["expert"]
    assert options["playout_model"] == "tuned" and {(2, False)} == TUNED_PLAYOUTS
    bot = make("expert")
    assert isinstance(bot, IsmctsBot)
    assert bot.playout_coefficients(Rules(players=2)) == FITTED[(2, False)]
    for rules in (Rules(players=4, partnerships=True), Rules(players=3), Rules(players=4)):
        assert bot.playout_coefficients(rules) is None
    for i, view in enumerate(_views(Rules(players=4, partnerships=True), 4, seed=2)):
        one = make("expert", seed=i, trees=1)
        assert one.choose(view) == make("expert-562b7ae", seed=i).choose(view)
    two = _views(Rules(players=2), 12, seed=3)
    differ = sum(
        make("expert", seed=i, trees=1).advise(v).values
        != make("expert-562b7ae", seed=i).advise(v).values
        for i, v in enumerate(two)
    )
    assert differ == len(two)


def test_refitted_playouts_follow_the_second_fit_with_two_players_only() -> None:
    """``playout_model="refitted"`` (P68, not the level's): the model fitted to
    the level's own self-play, where there is that fit (2 players, free
    passing, R4.4); elsewhere the heaviest tile's playouts."""
    bot = make("expert", playout_model="refitted")
    assert isinstance(bot, IsmctsBot)
    assert set(REFITTED) == {(2, False)} and REFITTED[(2, False)] != FITTED[(2, False)]
    assert bot.playout_coefficients(Rules(players=2)) == REFITTED[(2, False)]
    assert fitted_for(Rules(players=2), REFITTED) == REFITTED[(2, False)]
    for rules in (Rules(players=4, partnerships=True), Rules(players=2, passing="forced")):
        assert bot.playout_coefficients(rules) is None
    view = _views(Rules(players=2), 1, seed=5)[0]
    refitted = make("expert", seed=1, playout_model="refitted").advise(view).values
    assert make("expert", seed=1).advise(view).values != refitted
    with pytest.raises(ValueError, match="playout_model"):
        make("ismcts", playout_model="refit")


def test_fitted_playouts_apply_wherever_there_is_a_fit() -> None:
    bot = make("ismcts", playout_model="fitted", opponent_model="fitted")
    assert isinstance(bot, IsmctsBot)
    partners = Rules(players=4, partnerships=True)
    assert bot.playout_coefficients(partners) == FITTED[(4, True)]
    assert bot.opponent_coefficients(partners) == FITTED[(4, True)]
    assert bot.playout_coefficients(Rules(players=3)) is None
    assert bot.playout_coefficients(Rules(players=2, passing="forced")) is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"playout_model": "learned"}, "playout_model must be one of"),
        ({"opponent_model": "tuned"}, "opponent_model must be one of"),
        ({"playout_model": "fitted", "weights": "learned"}, "exclude each other"),
        ({"opponent_model": "fitted", "opponent_weights": "learned"}, "exclude each other"),
    ],
)
def test_bad_model_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make("ismcts", **options)


@pytest.mark.parametrize("option", ["playout_model", "opponent_model"])
def test_the_python_search_plays_the_model_too(option: str) -> None:
    """Without the kernel the pure-Python search (P23) follows the same model:
    its moves are legal and its statistics differ from the heaviest tile's."""
    for i, view in enumerate(_views(Rules(players=2), 3, seed=4)):
        plain = make("ismcts", engine="python", iterations=300, seed=i)
        modelled = make("ismcts", engine="python", iterations=300, seed=i, **{option: "fitted"})
        assert modelled.choose(view) in view.legal_moves()
        assert modelled.advise(view).values != plain.advise(view).values


# -- issue 28, tried and measured (docs/STRENGTH.md, DECISIONS P69) -------------


def test_worlds_searches_each_guess_with_the_hands_fixed_and_sums_them() -> None:
    """``worlds=K``: PIMC over searches, each of K guesses searched with every
    hand fixed (the boneyard's order still chance); the root's statistics
    are their sums, the iterations split among the guesses."""
    view = _views(Rules(players=2), 1, seed=6)[0]
    bot = make("expert", seed=2, worlds=5, iterations=1000, trees=1)
    advice = bot.advise(view)
    assert advice.move in view.legal_moves()
    assert advice.samples == 1000
    plain = make("expert", seed=2, iterations=1000, trees=1).advise(view).values
    assert advice.values != plain


@pytest.mark.parametrize("split", [1, 2])
def test_opponent_split_keeps_the_opponents_statistics_apart_by_their_hands(split: int) -> None:
    """``opponent_split``: an opponent's choices in the tree are kept per kind
    of hand it holds in the guess (how many of its tiles fit, in all or per
    end), so it need not play one way whatever it holds."""
    for i, view in enumerate(_views(Rules(players=2), 3, seed=7)):
        split_bot = make("expert", seed=i, iterations=3000, opponent_split=split)
        assert split_bot.choose(view) in view.legal_moves()
        plain = make("expert", seed=i, iterations=3000).advise(view).values
        assert split_bot.advise(view).values != plain


def test_disguise_lets_the_opponents_in_the_tree_answer_guessed_hands_of_ours() -> None:
    """``disguise=p``: that share of the iterations deals the searcher's hand
    again from its tiles and the boneyard's, as its opponents would guess it,
    and teaches only the opponents' choices; the move is still the searcher's
    own and legal for the hand it holds."""
    for i, view in enumerate(_views(Rules(players=2), 3, seed=8)):
        bot = make("expert", seed=i, iterations=3000, disguise=0.5)
        advice = bot.advise(view)
        assert advice.move in view.legal_moves()
        assert set(advice.values) <= set(view.legal_moves())
        assert advice.values != make("expert", seed=i, iterations=3000).advise(view).values


@pytest.mark.parametrize("engine", ["c", "python"])
def test_trees_sums_that_many_searches_each_with_its_own_guesses(engine: str) -> None:
    """``trees=N``: N searches of the view in turn, each drawing its own guesses
    from the one seeded generator; the root's statistics are their sums."""
    if engine == "c" and not kernel.AVAILABLE:
        pytest.skip("the compiled kernel is not built")
    view = _views(Rules(players=2), 1, seed=9)[0]
    bot = make("expert", seed=3, trees=3, iterations=500, engine=engine)
    stats, done = bot.search_stats(view)
    assert done == 1500
    single = make("expert", seed=3, iterations=500, engine=engine)
    rng = single.rng(view)
    parts = [single.one_search(view, rng) for _ in range(3)]
    assert (stats, done) == summed(parts)
    assert parts[0] != parts[1]  # each tree its own guesses and playouts
    assert bot.choose(view) in view.legal_moves()


@pytest.mark.parametrize("players", [2, 4])
def test_the_expert_level_is_four_searches_of_the_expert_before_it(players: int) -> None:
    """P71: the level sums four trees, each searched as ``expert-f3f7ee4`` (the
    level before) would search, drawing from one seeded generator in turn."""
    if not kernel.AVAILABLE:
        pytest.skip("the compiled kernel is not built (without it the level is one search)")
    assert LEVELS["expert"][1]["trees"] == 4
    rules = Rules(players=players, partnerships=players == 4)
    view = _views(rules, 1, seed=11)[0]
    level = make("expert", seed=5)
    before = make("expert-f3f7ee4", seed=5)
    assert isinstance(level, IsmctsBot) and isinstance(before, IsmctsBot)
    rng = before.rng(view)
    parts = [before.one_search(view, rng) for _ in range(4)]
    assert level.search_stats(view) == summed(parts)
    assert before.search_stats(view) == parts[0]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"disguise": 1.0}, r"disguise must be in \[0, 1\)"),
        ({"disguise": -0.1}, r"disguise must be in \[0, 1\)"),
        ({"disguise": 0.3, "engine": "python"}, "need the compiled kernel"),
        ({"worlds": -1}, "worlds must be a whole number"),
        ({"worlds": True}, "worlds must be a whole number"),
        ({"opponent_split": 3}, "opponent_split must be 0, 1 or 2"),
        ({"opponent_split": True}, "opponent_split must be 0, 1 or 2"),
        ({"worlds": 4, "engine": "python"}, "need the compiled kernel"),
        ({"opponent_split": 1, "engine": "python"}, "need the compiled kernel"),
        ({"trees": 0}, "trees must be a whole number"),
        ({"trees": True}, "trees must be a whole number"),
    ],
)
def test_bad_search_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make("ismcts", **options)
