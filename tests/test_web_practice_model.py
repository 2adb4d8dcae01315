"""Practice from a replay's position: the deal and the match, pure (issue 25, item 3;
web/practice/model.py).

- a step of the replay is found (the deal, each move), and refused past the end
  or where the round is over;
- "as they were" is the round's own deal; "dealt again" keeps everything the
  seat sees (R9.1): its own hand, the train, the history with its own draws'
  tiles, every hand's size, the boneyard's size, who moves; every unseen tile
  lies somewhere (R1.3: the 28 tiles, once each), and the deal differs from the
  real one for some seed;
- the history stays possible: once nothing can be drawn, the round would have
  ended had no hand fitted an end (R6.2), and a forced pass there means the
  passer had no other move (D2);
- a practice match is one round from its deal, then over.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from passing_game import Match, Rules
from passing_game.legality import legal_codes
from passing_game.moves import PASS_CODE, Draw, Pass, Play
from passing_game.rules import LOCKED_TILES
from passing_game.state import blocked
from passing_game.tiles import TILES, mask_of
from passing_game.web.practice import model

VARIANTS = [
    Rules(players=2),
    Rules(players=3),
    Rules(players=4),
    Rules(players=4, partnerships=True),
    Rules(players=2, passing="forced"),
    Rules(players=3, draw="continue", passing="forced"),
]


def played_match(rules: Rules, seed: int) -> Match:
    """A finished match, its moves chosen at random (drawing often, so that late
    positions with little left to draw come up)."""
    rng = random.Random(seed)
    match = Match(Rules.from_dict({**rules.to_dict(), "target": 30}), seed=seed)
    while not match.is_over:
        moves = match.legal_moves()
        draws = [m for m in moves if isinstance(m, Draw)]
        match.play(draws[0] if draws and rng.random() < 0.5 else rng.choice(moves))
    return match


def steps(match: Match) -> list[tuple[int, model.Where]]:
    """Every replay step where the round goes on, with its round and move."""
    found = []
    step = 0
    for number, rnd in enumerate(match.rounds, start=1):
        for index in range(len(rnd.moves) + 1):
            if not (index == len(rnd.moves) and rnd.result is not None):
                found.append((step, model.Where(number, index)))
            step += 1
    return found


def test_a_step_is_a_round_and_a_move_and_a_step_past_the_end_is_refused() -> None:
    match = played_match(Rules(), 1)
    expected = steps(match)
    for step, where in expected:
        assert model.locate(match, step) == where
    total = sum(len(r.moves) + 1 for r in match.rounds)
    first_end = len(match.rounds[0].moves)  # the first round's last step: it is over
    for bad, code in [(total, "bad-step"), (-1, "bad-step"), ("3", "bad-step"),
                      (True, "bad-step"), (first_end, "round-over")]:  # fmt: skip
        with pytest.raises(model.PracticeError) as refused:
            model.locate(match, bad)
        assert refused.value.code == code
    with pytest.raises(model.PracticeError) as refused:
        model.setup(match, 0, 0, "shuffled", random.Random(1))
    assert refused.value.code == "bad-hidden"


def test_as_they_were_is_the_rounds_own_deal() -> None:
    match = played_match(Rules(players=3), 2)
    for step, where in steps(match)[::5]:
        found = model.setup(match, step, step % 3, "real", random.Random(step))
        played = match.rounds[where.number - 1]
        assert found.deal == played.deal
        assert found.moves == played.moves[: where.index]
        assert found.round().hands == model.position(match.rules, played.deal, found.moves).hands


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: str(r.to_dict()))
def test_dealt_again_keeps_what_the_seat_sees_and_the_history_possible(rules: Rules) -> None:
    differs = 0
    checked = 0
    for seed in range(6):
        match = played_match(rules, seed)
        for step, where in steps(match)[seed % 4 :: 4]:
            seat = (step + seed) % rules.players
            rng = random.Random(step * 31 + seed)
            found = model.setup(match, step, seat, "redeal", rng)
            played = match.rounds[where.number - 1]
            real = model.position(match.rules, played.deal, played.moves[: where.index])
            again = found.round()
            mine, theirs = again.view(seat), real.view(seat)
            # R9.1 and the seat's own tiles: everything it sees is the same.
            assert mine.hand == theirs.hand
            assert mine.train == theirs.train and mine.ends == theirs.ends
            assert mine.history == theirs.history  # its own draws show the same tiles
            assert mine.hand_sizes == theirs.hand_sizes
            assert mine.boneyard_size == theirs.boneyard_size
            assert mine.to_move == theirs.to_move and mine.leader == theirs.leader
            assert model.same_view(mine, theirs)
            # R1.3: every tile once, the unseen ones in the other hands and the boneyard.
            everywhere = [t for hand in again.hands for t in hand] + list(again.boneyard)
            everywhere += [p.tile for p in again.train]
            assert Counter(everywhere) == Counter(TILES)
            hidden = {t for s, hand in enumerate(again.hands) if s != seat for t in hand}
            assert hidden | set(again.boneyard) == set(mine.unseen)
            # R2.2, R2.3: the first deal is a deal of these rules.
            assert [len(h) for h in found.deal.hands] == [rules.hand_size] * rules.players
            assert len(found.deal.boneyard) == rules.boneyard_size
            assert again.result is None  # R6: the round goes on, as it did
            checked += 1
            differs += again.hands != real.hands or again.boneyard != real.boneyard
    assert checked > 20
    assert differs > checked // 2  # dealt again, not the same deal


def test_late_in_a_round_the_hidden_hands_agree_with_the_history() -> None:
    """R6.2 and D2: from the moment no tile can be drawn, each moment of the history
    had a hand that fitted an end, and a forced pass had no other move."""
    checked = 0
    for seed in range(40):
        rules = Rules(players=2, passing="forced" if seed % 2 else "free")
        match = played_match(rules, seed)
        for step, where in steps(match):
            rnd = match.rounds[where.number - 1]
            real = model.position(match.rules, rnd.deal, rnd.moves[: where.index])
            if len(real.boneyard) > LOCKED_TILES or where.index < 3:
                continue
            found = model.setup(match, step, step % 2, "redeal", random.Random(step))
            # Replay on the new deal and check every moment once nothing can be drawn.
            again = model.position(match.rules, found.deal, ())
            for move in found.moves:
                ends, size = again.ends, len(again.boneyard)
                hands = [mask_of(h) for h in again.hands]
                if ends is not None and size <= LOCKED_TILES:
                    assert not blocked(hands, *ends)  # R6.2: someone could still play
                    if rules.passing == "forced" and isinstance(move, Pass):
                        mover = again.to_move
                        assert mover is not None
                        codes = legal_codes(hands[mover], ends[0], ends[1], size, True)
                        assert codes == [PASS_CODE]  # D2: the pass was forced
                again.play(move)
            checked += 1
    assert checked > 10


def test_the_first_deal_replays_the_same_tiles_played() -> None:
    """Each seat lays the very tiles it laid (R9.1: which tile went where is public)."""
    match = played_match(Rules(players=4), 5)
    for step, where in steps(match)[::3]:
        found = model.setup(match, step, 1, "redeal", random.Random(step))
        rnd = match.rounds[where.number - 1]
        real_plays = [
            (t.seat, t.move) for t in rnd.history[: where.index] if isinstance(t.move, Play)
        ]
        again = found.round()
        assert [(t.seat, t.move) for t in again.history if isinstance(t.move, Play)] == real_plays


def test_a_practice_match_is_one_round_then_over() -> None:
    match = played_match(Rules(players=3), 3)
    found = model.setup(match, 4, 0, "redeal", random.Random(4))
    practice = model.practice_match(found.rules, 77, model.deal_json(found.deal))
    assert model.parse_deal(found.rules, model.deal_json(found.deal)) == found.deal
    for move in found.moves:
        practice.play(move)
    assert practice.round.view(0).hand == found.round().view(0).hand
    while not practice.is_over:
        practice.play(practice.legal_moves()[0])
    assert len(practice.rounds) == len(practice.results) == 1
    result = practice.results[0]
    assert practice.winner == (0 if result.winner is None else result.winner)
    assert sum(practice.scores) == result.points * (result.winner is not None)
