"""What one seat may know (R9): views expose the seat's own hand and public facts only."""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import deque
from collections.abc import Iterator
from typing import Any

import pytest

from passing_game import DRAW, PASS, TILES, Draw, Match, Play, Round, Rules, Tile, View
from passing_game.dealing import seeded_deal

#: The rules suites run on both implementations of ``Round``.
pytestmark = pytest.mark.usefixtures("engine")

LEAF = (type(None), bool, int, float, str, bytes, Tile)
MUTABLE = (list, dict, set, bytearray, deque)
FORBIDDEN = (Round, Match, random.Random, deque)


def reachable(root: object) -> Iterator[tuple[str, object]]:
    """Every (path, value) reachable from ``root`` through its data.

    Follows tuples/lists/sets/dicts, dataclass fields, ``__slots__`` along the
    MRO, ``__dict__`` and every property of the object's class. Methods are
    not called; tiles and scalars are leaves.
    """
    seen: set[int] = set()
    keep: list[object] = []  # property results stay alive, so ids stay unique
    stack: list[tuple[str, object]] = [("view", root)]
    while stack:
        path, obj = stack.pop()
        yield path, obj
        if isinstance(obj, LEAF) or id(obj) in seen:
            continue
        seen.add(id(obj))
        keep.append(obj)
        if isinstance(obj, (tuple, list, deque)):
            stack.extend((f"{path}[{i}]", v) for i, v in enumerate(obj))
        elif isinstance(obj, (set, frozenset)):
            stack.extend((f"{path}{{}}", v) for v in obj)
        elif isinstance(obj, dict):
            for k, v in obj.items():
                stack.append((f"{path}<key>", k))
                stack.append((f"{path}[{k!r}]", v))
        names: set[str] = set()
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            names.update(f.name for f in dataclasses.fields(obj))
        for klass in type(obj).__mro__:
            slots = klass.__dict__.get("__slots__", ())
            names.update([slots] if isinstance(slots, str) else slots)
            names.update(k for k, v in klass.__dict__.items() if isinstance(v, property))
        if hasattr(obj, "_fields"):  # NamedTuple
            names.update(obj._fields)
        names.update(getattr(obj, "__dict__", {}))
        names.discard("__weakref__")
        names.discard("__dict__")
        for name in sorted(names):
            try:
                value = getattr(obj, name)
            except AttributeError:
                continue
            if callable(value) and not isinstance(value, type):
                # a bound method or function stored as data would be a way out
                assert not hasattr(value, "__self__") or value.__self__ is obj, f"{path}.{name}"
                continue
            stack.append((f"{path}.{name}", value))


def hidden_tiles(rnd: Round, seat: int) -> set[Tile]:
    """Tiles seat may not know the place of: other hands and the boneyard (R9.2).

    Once the round is over the hands and the two locked tiles are revealed (D8);
    the undrawn, unlocked rest of the boneyard stays hidden.
    """
    out = set(rnd.boneyard)
    if rnd.is_over:
        return out - set(rnd.locked)
    for other, hand in enumerate(rnd.hands):
        if other != seat:
            out.update(hand)
    return out


def check_view_leaks_nothing(rnd: Round, seat: int) -> None:
    view = rnd.view(seat)
    hidden = hidden_tiles(rnd, seat)
    train = {p.tile for p in rnd.train}
    public_unknown = frozenset(TILES) - train - set(rnd.hands[seat])
    for path, value in reachable(view):
        assert not isinstance(value, FORBIDDEN), f"{path} is a {type(value).__name__}"
        assert not isinstance(value, MUTABLE), f"{path} is a mutable {type(value).__name__}"
        assert not isinstance(value, type), f"{path} leads to a class"
        if isinstance(value, Tile) and value in hidden:
            # the only places a hidden tile may appear are the set of tiles the
            # seat has not seen, which is the complement of public facts and own
            # hand, and the rules' list of the set's tiles (R1.3, public)
            assert path.startswith(("view.unseen{", "view.rules.tiles[")), (
                f"{path} shows hidden tile {value}"
            )
    assert view.unseen == public_unknown
    if not rnd.is_over:
        assert view.result is None


def random_round(seed: int, rules: Rules) -> Round:
    return Round.new(rules, seed=seed)


RULES = [
    Rules(players=2),
    Rules(players=3, draw="continue"),
    Rules(players=4),
    Rules(players=4, partnerships=True, passing="forced"),
    Rules(players=2, draw="continue", passing="forced"),
]


def random_moves(rnd: Round, rng: random.Random) -> Iterator[Round]:
    """Play random legal moves, preferring plays and draws so rounds last; yield each state."""
    yield rnd
    while not rnd.is_over:
        legal = rnd.legal_moves()
        active = [m for m in legal if not isinstance(m, type(PASS))]
        rnd.play(rng.choice(active) if active and rng.random() < 0.85 else rng.choice(legal))
        yield rnd


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_r9_walk_every_view_finds_no_hidden_tile(rules: Rules) -> None:
    """R9.2: no attribute path from a view reaches another seat's tiles or the boneyard."""
    for seed in range(8):
        rng = random.Random(seed)
        for rnd in random_moves(random_round(seed, rules), rng):
            for seat in range(rules.players):
                check_view_leaks_nothing(rnd, seat)


def test_walker_finds_a_planted_leak() -> None:
    """The walk is able to fail: a view built with another hand in it is caught."""
    rnd = Round.new(Rules(players=2), seed=1)
    view = rnd.view(0)
    leaky = dataclasses.replace(view, hand=view.hand + rnd.hands[1][:1])
    found = [p for p, v in reachable(leaky) if v == rnd.hands[1][0]]
    assert "view.hand[7]" in found
    boneyard_leak = dataclasses.replace(view, scores=(rnd.boneyard[0],))  # type: ignore[arg-type]
    assert any(
        v == rnd.boneyard[0] and p.startswith("view.scores") for p, v in reachable(boneyard_leak)
    )


def test_r9_1_view_shows_public_facts() -> None:
    """R9.1: train, hand sizes, boneyard size, history, scores are public."""
    rnd = Round.new(Rules(players=3), seed=12, leader=0)
    first = rnd.legal_moves()[0]
    rnd.play(first)
    rnd.play(DRAW)
    for seat in range(3):
        view = rnd.view(seat)
        assert view.seat == seat
        assert view.hand == rnd.hands[seat]
        assert view.train == rnd.train
        assert view.ends == rnd.ends
        assert view.hand_sizes == tuple(len(h) for h in rnd.hands) == (6, 8, 7)
        assert view.boneyard_size == len(rnd.boneyard) == 6
        assert view.to_move == rnd.to_move == 2
        assert view.leader == 0
        assert [t.move for t in view.history] == [first, DRAW]
        assert [t.seat for t in view.history] == [0, 1]
        assert view.scores is None and view.round_number is None


def test_r9_2_drawn_tile_shown_only_to_the_drawer() -> None:
    """R9.2: the identity of a drawn tile is known only to the drawer."""
    rnd = Round.new(Rules(players=3), seed=2, leader=1)
    tile = rnd.boneyard[0]
    rnd.play(DRAW)
    assert rnd.view(1).history[-1].drawn == tile
    assert tile in rnd.view(1).hand
    for seat in (0, 2):
        turn = rnd.view(seat).history[-1]
        assert turn.seat == 1 and isinstance(turn.move, Draw)
        assert turn.drawn is None
        assert tile not in rnd.view(seat).hand
        assert tile in rnd.view(seat).unseen


def test_r9_3_partners_do_not_see_each_others_hands() -> None:
    """R9.3: a partner's hand is as hidden as an opponent's."""
    rnd = Round.new(Rules(players=4, partnerships=True), seed=6, leader=0)
    for tile in rnd.hands[2]:
        assert tile not in rnd.view(0).hand
        assert not any(
            v == tile
            for p, v in reachable(rnd.view(0))
            if not p.startswith(("view.unseen", "view.rules.tiles["))
        )


def test_r9_views_do_not_depend_on_hidden_information() -> None:
    """R9.2: deals that differ only in what seat 0 cannot see give seat 0 equal views,
    move after move (the boneyard's order and the other hands are invisible)."""
    rules = Rules(players=3)
    for seed in range(10):
        rng = random.Random(seed)
        hands, boneyard, _ = seeded_deal(rules, seed)
        hidden = [t for h in hands[1:] for t in h] + boneyard
        rng.shuffle(hidden)
        other_hands = [hands[0], hidden[:7], hidden[7:14]]
        a = Round.from_deal(rules, hands, boneyard, leader=0)
        b = Round.from_deal(rules, other_hands, hidden[14:], leader=0)
        assert a.deal != b.deal
        for step in range(12):
            if a.is_over or b.is_over:
                break
            assert a.view(0) == b.view(0), (seed, step)
            if a.to_move == 0:  # seat 0 plays or passes; a draw would differ
                move = rng.choice([m for m in a.legal_moves() if m != DRAW])
            else:  # the other seats only draw or pass: legal in both rounds
                move = DRAW if DRAW in a.legal_moves() and DRAW in b.legal_moves() else PASS
            a.play(move)
            b.play(move)


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_view_legal_moves_match_the_round(rules: Rules) -> None:
    """A view lists the round's legal moves on its seat's turn, and none otherwise."""
    for seed in range(10):
        for rnd in random_moves(random_round(seed, rules), random.Random(seed)):
            for seat in range(rules.players):
                view = rnd.view(seat)
                if seat == rnd.to_move:
                    assert view.legal_moves() == rnd.legal_moves()
                    assert view.legal_moves()
                    assert view.is_my_turn
                else:
                    assert view.legal_moves() == []
                    assert not view.is_my_turn
            if rnd.is_over:
                assert all(rnd.view(s).legal_moves() == [] for s in range(rules.players))


def test_views_are_immutable_snapshots() -> None:
    rnd = Round.new(Rules(players=2), seed=3, leader=0)
    view = rnd.view(0)
    frozen = copy.deepcopy(view)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        view.extra = 1  # type: ignore[attr-defined]
    assert isinstance(view.hand, tuple) and isinstance(view.history, tuple)
    rnd.play(rnd.legal_moves()[0])
    rnd.play(DRAW)
    assert view == frozen
    assert view.hand_sizes == (7, 7)
    assert rnd.view(0) != frozen


def test_view_after_the_round_reveals_hands() -> None:
    """D8: once the round is over the result (every hand, the locked tiles) is shown."""
    rnd = Round.new(Rules(players=2), seed=9)
    rnd.play(PASS)
    rnd.play(PASS)
    view = rnd.view(0)
    assert view.is_over
    assert view.result == rnd.result
    assert view.result is not None and view.result.hands == rnd.hands
    assert view.result.locked == rnd.deal.boneyard[-2:]
    assert view.to_move is None


def test_view_from_a_match_carries_scores() -> None:
    match = Match(Rules(players=4, partnerships=True), seed=4)
    view = match.view(1)
    assert view.scores == (0, 0)
    assert view.round_number == 1
    assert view.side_of(1) == 1 and view.side_of(2) == 0


def test_view_passes_in_row_and_played() -> None:
    rnd = Round.new(Rules(players=3), seed=5, leader=0)
    move = next(m for m in rnd.legal_moves() if isinstance(m, Play))
    rnd.play(move)
    rnd.play(PASS)
    assert rnd.view(2).passes_in_row == rnd.passes_in_row == 1
    assert rnd.view(2).played == frozenset({move.tile})
    assert rnd.view(2).can_draw


@pytest.mark.parametrize("seat", [-1, 2, True, "0", None])
def test_view_of_a_bad_seat(seat: Any) -> None:
    with pytest.raises(ValueError, match="seat"):
        Round.new(Rules(players=2), seed=1).view(seat)


def test_view_type() -> None:
    assert isinstance(Round.new(Rules(), seed=1).view(0), View)
