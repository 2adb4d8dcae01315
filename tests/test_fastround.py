"""The C ``FastRound`` against the pure-Python ``PyRound``, step by step (R2-R9, D1-D12).

``Round`` has two implementations (src/passing_game/round.py): ``FastRound``,
whose state lives in the optional C extension ``_fastround``, and
``PyRound``, the pure-Python reference. Every random round here is played
through both from the same deal, and before every move everything a caller
can observe is compared: the state, the legal moves, every seat's view,
the answer to every candidate move (legal or not, and the refusal's message),
copies, pickles and the result. The rules suites themselves run on both
implementations through the ``engine`` fixture (tests/conftest.py).
"""

from __future__ import annotations

import copy
import itertools
import os
import pickle
import random
import subprocess
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from passing_game import DRAW, PASS, TILES, Draw, IllegalMove, Move, Pass, Play, Round, Rules, Tile
from passing_game import round as round_module
from passing_game.dealing import seeded_deal
from passing_game.moves import PLAYS_LEFT, PLAYS_RIGHT
from passing_game.round import STATE_NAMES, PyRound
from passing_game.rules import DRAW_RULES, PASSING_RULES
from round_helpers import observable

# CI builds the extension, so there a missing one is a failure, not a skip.
if os.environ.get("CI") and not round_module.FAST_AVAILABLE:
    raise RuntimeError("CI: the C round passing_game._fastround was not built")
pytestmark = pytest.mark.skipif(
    not round_module.FAST_AVAILABLE, reason="C round (_fastround) not built"
)

ROOT = Path(__file__).resolve().parent.parent

VARIANTS = [
    Rules(players=p, draw=d, passing=f)
    for p, d, f in itertools.product((2, 3, 4), DRAW_RULES, PASSING_RULES)
] + [
    Rules(players=4, partnerships=True),
    Rules(players=4, partnerships=True, draw="continue", passing="forced"),
    Rules(players=3, scoring="pairwise"),
    Rules(players=3, scoring="pairwise", draw="continue"),
    Rules(players=2, hand_size=1),
    Rules(players=2, hand_size=13),
    Rules(players=3, hand_size=8, passing="forced"),
    Rules(players=4, hand_size=1, draw="continue"),
    Rules(players=4, hand_size=1),
]


def rules_id(rules: Rules) -> str:
    return (
        f"{rules.players}p-{rules.draw}-{rules.passing}-{rules.scoring}"
        f"{'-teams' if rules.partnerships else ''}-h{rules.hand_size}"
    )


def fast_class() -> type[Round]:
    cls = getattr(round_module, "FastRound", None)
    assert cls is not None
    return cls  # type: ignore[no-any-return]


def plain(value: Any) -> Any:
    """Containers as nested tuples, so a deque and a tuple of the same items agree."""
    if isinstance(value, (list, tuple, deque)) and not hasattr(value, "_fields"):
        return tuple(plain(v) for v in value)
    return value


#: Every move object a caller might hand to ``play``: the interned ones, equal
#: copies of them, and things that are not moves at all.
class OddPlay(Play):
    """A subclass of Play: the engines accept only the move classes themselves."""


CANDIDATES: list[Any] = [
    *PLAYS_LEFT,
    *PLAYS_RIGHT,
    DRAW,
    PASS,
    Draw(),
    Pass(),
    Play(Tile(3, 5), "right"),
    Play(Tile(6, 6)),
    OddPlay(Tile(0, 0)),
    None,
    "draw",
    3,
    Tile(2, 4),
    object(),
]


def light_snapshot(rnd: Round) -> tuple[Any, ...]:
    """The state and the legal moves: what a fast loop of rounds looks at."""
    return (
        rnd.to_move,
        rnd._hands,
        rnd.boneyard,
        rnd.ends,
        rnd.passes_in_row,
        rnd.is_over,
        rnd.result,
        rnd.legal_moves(),
        len(rnd.moves),
    )


def snapshot(rnd: Round) -> dict[str, Any]:
    """Everything observable about ``rnd``, internals included."""
    out = observable(rnd)
    out["type is a Round"] = isinstance(rnd, Round)
    out["why"] = [rnd.why_illegal(m) for m in CANDIDATES]
    for name in STATE_NAMES:
        out["state " + name] = plain(getattr(rnd, name))
    return out


def outcome(rnd: Round, move: Any) -> tuple[str, Any]:
    """What ``play(move)`` does to a copy: the error's type and text, or the new state."""
    trial = rnd.copy()
    try:
        trial.play(move)
    except IllegalMove as exc:
        return ("refused", str(exc))
    except Exception as exc:  # the two engines must fail alike, whatever the error
        return (type(exc).__name__, str(exc))
    return ("played", snapshot(trial))


Policy = Callable[[Round, random.Random], Move]


def uniform(rnd: Round, rng: random.Random) -> Move:
    return rng.choice(rnd.legal_moves())


def busy(rnd: Round, rng: random.Random) -> Move:
    """Plays and draws when it can: rounds end by domino or block."""
    moves = [m for m in rnd.legal_moves() if not isinstance(m, Pass)]
    return rng.choice(moves) if moves else PASS


def stalling(rnd: Round, rng: random.Random) -> Move:
    """Passes whenever passing is open: rounds end by a full circle of passes (D3)."""
    moves = rnd.legal_moves()
    return PASS if PASS in moves and rng.random() < 0.8 else rng.choice(moves)


def longest(rnd: Round, rng: random.Random) -> Move:
    """Passes until the circle is one short, then draws before it plays: long rounds."""
    moves = rnd.legal_moves()
    if PASS in moves and rnd.passes_in_row < rnd.rules.players - 1:
        return PASS
    if DRAW in moves:
        return DRAW
    return rng.choice(moves)


POLICIES: list[Policy] = [uniform, busy, stalling, longest]


def play_both(
    rules: Rules, seed: int, policy: Policy, check_every_candidate: bool, full: bool = True
) -> tuple[Round, Round, int]:
    """One round through both engines, compared before and after every move."""
    rng = random.Random(seed)
    fast = fast_class().new(rules, seed)
    slow = PyRound.new(rules, seed)
    assert type(fast) is not type(slow)
    steps = 0
    while not full:
        assert light_snapshot(fast) == light_snapshot(slow), f"seed {seed}, step {steps}"
        if fast.is_over:
            assert snapshot(fast) == snapshot(slow)
            return fast, slow, steps
        move = policy(fast, rng)
        fast.play(move)
        slow.play(move)
        steps += 1
    while True:
        before = snapshot(fast)
        assert before == snapshot(slow), f"seed {seed}, step {steps}"
        if check_every_candidate:
            for move in CANDIDATES:
                assert outcome(fast, move) == outcome(slow, move), f"{move!r} at step {steps}"
        # a refused move leaves the round exactly as it was
        for move in rng.sample(CANDIDATES, 3):
            if fast.why_illegal(move) is not None:
                with pytest.raises(IllegalMove) as fast_error:
                    fast.play(move)
                with pytest.raises(IllegalMove) as slow_error:
                    slow.play(move)
                assert str(fast_error.value) == str(slow_error.value)
                assert snapshot(fast) == before
        if fast.is_over:
            return fast, slow, steps
        move = policy(fast, rng)
        # an equal move object, not the interned one, half of the time
        if isinstance(move, Play) and rng.random() < 0.5:
            move = Play(Tile(move.tile.low, move.tile.high), move.end)
        fast.play(move)
        slow.play(move)
        steps += 1


@pytest.mark.slow  # 200 random rounds in each variant
@pytest.mark.parametrize("rules", VARIANTS, ids=rules_id)
def test_fast_and_pure_rounds_agree_at_every_step(rules: Rules) -> None:
    """R2-R9, D1-D12 through both engines: identical at every step, every ending seen."""
    reasons = set()
    total = 0
    for seed in range(200):
        full = seed < 12  # everything compared; then the state and moves only
        fast, slow, steps = play_both(rules, seed, POLICIES[seed % 4], seed < 2, full)
        assert fast.result is not None and fast.result == slow.result
        assert len(fast.history) <= rules.max_round_moves
        reasons.add(fast.result.reason)
        total += steps
    assert total > 2000
    assert "domino" in reasons or rules.hand_size > 8
    assert ("all-pass" in reasons) == (rules.passing == "free")  # P12


@pytest.mark.parametrize("rules", VARIANTS, ids=rules_id)
def test_copies_pickles_and_replays_agree(rules: Rules) -> None:
    """``copy``, ``copy.copy``, ``deepcopy`` and pickle give independent, equal rounds."""
    rng = random.Random(7)
    for seed in range(6):
        fast = Round.new(rules, seed)
        slow = PyRound.new(rules, seed)
        saved: list[tuple[Round, dict[str, Any]]] = []
        while not fast.is_over:
            if rng.random() < 0.3:
                for twin in (fast.copy(), copy.copy(fast), copy.deepcopy(fast)):
                    assert type(twin) is type(fast)
                    saved.append((twin, snapshot(fast)))
                again = pickle.loads(pickle.dumps(fast))
                assert type(again) is type(fast)
                assert snapshot(again) == snapshot(fast)
                assert snapshot(pickle.loads(pickle.dumps(slow))) == snapshot(slow)
            move = uniform(fast, rng)
            fast.play(move)
            slow.play(move)
        assert snapshot(fast) == snapshot(slow)
        for twin, then in saved:  # later moves never reached the copies
            assert snapshot(twin) == then
            while not twin.is_over:  # and the copies play on by themselves
                twin.play(uniform(twin, rng))


@pytest.mark.parametrize("rules", VARIANTS[:12], ids=rules_id)
def test_from_deal_and_given_leaders_agree(rules: Rules) -> None:
    """``from_deal`` (any deal, any leader) and ``new(leader=...)`` in both engines (R3.1, D9)."""
    rng = random.Random(rules.players)
    for seed in range(10):
        tiles = list(TILES)
        rng.shuffle(tiles)
        size = rules.hand_size
        hands = [tiles[i * size : (i + 1) * size] for i in range(rules.players)]
        pile = tiles[rules.players * size :]
        leader = seed % rules.players
        pairs = [
            (
                Round.from_deal(rules, hands, pile, leader),
                PyRound.from_deal(rules, hands, pile, leader),
            ),
            (Round.new(rules, seed, leader=leader), PyRound.new(rules, seed, leader=leader)),
        ]
        for fast, slow in pairs:
            assert type(fast) is fast_class()
            while True:
                assert snapshot(fast) == snapshot(slow)
                if fast.is_over:
                    break
                move = uniform(fast, rng)
                fast.play(move)
                slow.play(move)


def test_d9_the_c_shuffle_deals_what_seeded_deal_deals() -> None:
    """The seeded deal (P9) is dealt in C for ``Round.new``: same tiles, same seat."""
    rng = random.Random(3)
    seeds: list[int | str] = [0, 1, 2**63, -5, "abc", "", "passing", 10**40]
    seeds += [rng.getrandbits(64) for _ in range(300)]
    digests = [bytes(24), b"\xff" * 24, bytes(range(24))]
    for rules in VARIANTS:
        for seed in seeds:
            hands, boneyard, seat = seeded_deal(rules, seed)
            deal = Round.new(rules, seed).deal
            assert deal.hands == tuple(map(tuple, hands))
            assert deal.boneyard == tuple(boneyard)
            assert deal.leader == seat
        for digest in digests:
            expected = PyRound._from_digest(rules, digest, -1)
            assert fast_class()._from_digest(rules, digest, -1).deal == expected.deal


def test_r7_d4_d6_d11_results_scored_in_c_match_scoring() -> None:
    """Small random hands passed out at once (D3, P11): ties and winners scored alike."""
    rng = random.Random(11)
    rule_sets = [
        Rules(players=p, hand_size=h, scoring=s)
        for p, h, s in itertools.product((2, 3, 4), (1, 2, 3), ("literal", "pairwise"))
    ] + [Rules(players=4, partnerships=True, hand_size=h) for h in (1, 2, 3)]
    ties = wins = 0
    for rules in rule_sets:
        for _ in range(40):
            tiles = list(TILES)
            rng.shuffle(tiles)
            size = rules.hand_size
            hands = [tiles[i * size : (i + 1) * size] for i in range(rules.players)]
            pile = tiles[rules.players * size :]
            fast = Round.from_deal(rules, hands, pile, 0)
            slow = PyRound.from_deal(rules, hands, pile, 0)
            for _seat in range(rules.players):
                fast.play(PASS)
                slow.play(PASS)
            assert fast.result is not None and fast.result.reason == "all-pass"
            assert fast.result == slow.result
            assert fast.result is fast.result  # built once
            ties += fast.result.winner is None
            wins += fast.result.winner is not None
    assert ties > 20 and wins > 200


def test_bad_input_is_refused_alike_and_changes_nothing() -> None:
    """Bad constructor arguments: the same clear errors from both engines."""
    bad_calls: list[Callable[[type[Round]], object]] = [
        lambda cls: cls.new("rules"),  # type: ignore[arg-type]
        lambda cls: cls.new(Rules(), 1, leader=2),
        lambda cls: cls.new(Rules(), 1, leader=True),
        lambda cls: cls.new(Rules(), 1, leader=-1),
        lambda cls: cls.from_deal(Rules(), [["0-0"]], [], 0),
        lambda cls: cls.from_deal(Rules(), "hands", [], 0),
    ]
    for call in bad_calls:
        messages = []
        for cls in (fast_class(), PyRound, Round):
            with pytest.raises(ValueError) as error:
                call(cls)
            messages.append(str(error.value))
        assert len(set(messages)) == 1, messages
    fast = Round.new(Rules(), 5)
    for seat in (-1, 2, True, "0", None):
        with pytest.raises(ValueError):
            fast.view(seat)  # type: ignore[arg-type]


def test_round_new_builds_the_fast_round_and_both_are_rounds() -> None:
    rnd = Round.new(Rules(), 1)
    assert type(rnd) is fast_class()
    assert isinstance(rnd, Round) and isinstance(PyRound.new(), Round)
    assert type(PyRound.new(Rules(), 1)) is PyRound
    assert type(fast_class().from_deal(Rules(), *seeded_deal(Rules(), 1)[:2], 0)) is fast_class()


def _pure_python_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PASSING_GAME_PURE_PYTHON"] = "1"
    return env


def test_the_switch_selects_pure_python() -> None:
    """``PASSING_GAME_PURE_PYTHON=1`` makes ``Round`` build ``PyRound`` everywhere."""
    code = (
        "from passing_game import Match, Round, Rules\n"
        "print(type(Round.new()).__name__, type(Match(Rules(), 1).round).__name__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=_pure_python_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split() == ["PyRound", "PyRound"]
