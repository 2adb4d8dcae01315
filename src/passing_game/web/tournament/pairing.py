"""Who meets whom, pure (issue 26, item 1; docs/DECISIONS.md P54).

Every function takes the people to seat best first (the standings' order)
and who has met whom, and returns tables: tuples of accounts in seat order.
None of them reads a clock or a store; the service calls them under the
tournament's lock, so two processes never pair the same person twice.

``bots`` are the tournament's computer players (P65): they are paired as
anyone, but never only among themselves. Two bots count as having met
already, so they sit apart where they can, and a table of bots alone is not
made: those bots sit the round (or the arena's wait) out.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

#: Met is who each person has sat with (any number of times).
Met = Mapping[str, Collection[str]]


def _repeats(table: Sequence[str], met: Met) -> int:
    return sum(1 for i, a in enumerate(table) for b in table[i + 1 :] if b in met.get(a, ()))


def _pairs(people: list[str], met: Met) -> list[tuple[str, str]] | None:
    """Pairs in order, each the best with the next best not met; ``None`` if impossible."""
    if not people:
        return []
    first, rest = people[0], people[1:]
    for i, other in enumerate(rest):
        if other in met.get(first, ()):
            continue
        tail = _pairs(rest[:i] + rest[i + 1 :], met)
        if tail is not None:
            return [(first, other), *tail]
    return None


def _fours(people: list[str], met: Met) -> list[tuple[str, ...]]:
    """Tables of four in order: each the best left with the three of the next
    ones that make the fewest repeated meetings (nearest in rank on a tie)."""
    tables: list[tuple[str, ...]] = []
    left = list(people)
    while len(left) >= 4:
        first = left[0]
        window = left[1:10]
        best: tuple[str, ...] | None = None
        best_key: tuple[int, int] | None = None
        for a in range(len(window)):
            for b in range(a + 1, len(window)):
                for c in range(b + 1, len(window)):
                    table = (first, window[a], window[b], window[c])
                    key = (_repeats(table, met), a + b + c)
                    if best_key is None or key < best_key:
                        best, best_key = table, key
        assert best is not None
        tables.append(best)
        left = [p for p in left if p not in best]
    if left:
        tables.append(tuple(left))
    return tables


def tables(
    ranked: Sequence[str], size: int, met: Met, bots: Collection[str] = ()
) -> list[tuple[str, ...]]:
    """The people in tables of ``size``, best first, no two who met at one
    table again where it can be helped; a last table may be short (bots fill it).
    No table of ``bots`` alone.

    >>> tables(["a", "b", "c", "d"], 2, {"a": {"b"}, "b": {"a"}})
    [('a', 'c'), ('b', 'd')]
    >>> tables(["a", "b", "c"], 2, {})
    [('a', 'b'), ('c',)]
    >>> tables(list("abcdef"), 4, {})
    [('a', 'b', 'c', 'd'), ('e', 'f')]
    >>> tables(["x", "y", "a", "b"], 2, {}, bots={"x", "y"})
    [('x', 'a'), ('y', 'b')]
    >>> tables(["x", "y", "z", "a"], 2, {}, bots={"x", "y", "z"})
    [('x', 'a')]
    >>> tables(["a", "x", "y", "z", "w"], 4, {}, bots={"x", "y", "z", "w"})
    [('a', 'x', 'y', 'z')]
    """
    if not bots:
        return _tables(ranked, size, met)
    robots = set(bots)
    # No more bots than the people can sit with: the best ranked play, the rest sit out.
    room = (size - 1) * sum(1 for who in ranked if who not in robots)
    playing = set([who for who in ranked if who in robots][:room])
    ranked = [who for who in ranked if who not in robots or who in playing]
    apart = {
        who: set(met.get(who, ())) | (robots - {who} if who in robots else set()) for who in ranked
    }
    return [t for t in _tables(ranked, size, apart) if not robots.issuperset(t)]


def _tables(ranked: Sequence[str], size: int, met: Met) -> list[tuple[str, ...]]:
    people = list(dict.fromkeys(ranked))
    if size == 4:
        return _fours(people, met)
    # With an odd number, the one left over is the lowest ranked who leaves
    # the others a pairing without a repeat (the lowest of all if none does).
    outs: list[str | None] = list(reversed(people)) if len(people) % 2 else [None]
    for out in outs:
        even = [p for p in people if p != out]
        found = _pairs(even, met) if len(even) <= 40 else None
        if found is not None:
            return [*found, *([(out,)] if out is not None else [])]
    out = outs[0]
    even = [p for p in people if p != out]
    # Everyone has met everyone (or too many to search): in order.
    paired: list[tuple[str, ...]] = [(even[i], even[i + 1]) for i in range(0, len(even), 2)]
    return paired + ([(out,)] if out is not None else [])


def swiss(
    ranked: Sequence[str], size: int, met: Met, byes: Collection[str], bots: Collection[str] = ()
) -> tuple[list[tuple[str, ...]], str | None]:
    """A Swiss round: the tables and, with 2 a table and an odd number of
    people, the bye (the lowest ranked who has had none; it scores a win).
    With bots among them, the lowest ranked bot sits the round out instead,
    unscored: a bot needs no free win, and a person is not left out for it.

    >>> swiss(["a", "b", "c"], 2, {}, byes={"c"})
    ([('a', 'c')], 'b')
    >>> swiss(["x", "a", "y", "b", "c"], 2, {}, byes=(), bots={"x", "y"})
    ([('x', 'a'), ('b', 'c')], None)
    """
    people = list(dict.fromkeys(ranked))
    bye: str | None = None
    if size == 2 and len(people) % 2:
        robots = [p for p in people if p in set(bots)]
        if robots:
            people.remove(robots[-1])
        else:
            bye = next((p for p in reversed(people) if p not in byes), people[-1])
            people.remove(bye)
    return tables(people, size, met, bots), bye


def arena(
    idle: Sequence[str], size: int, last: Mapping[str, str | None], bots: Collection[str] = ()
) -> list[tuple[str, ...]]:
    """An arena's pairing of the people waiting now, best first: full tables
    only (the rest wait for the next game to end), never the opponent of
    one's last game when another is waiting.

    >>> arena(["a", "b", "c"], 2, {"a": "b", "b": "a"})
    [('a', 'c')]
    >>> arena(["a", "b"], 2, {"a": "b", "b": "a"})
    [('a', 'b')]
    >>> arena(["x", "a", "b"], 2, {"a": "x", "x": "a"}, bots={"x"})
    [('x', 'b')]
    """
    met = {who: {o} for who, o in last.items() if o is not None}
    made = tables(idle, size, met, bots)
    return [t for t in made if len(t) == size]


def seat_order(table: Sequence[str], number: int) -> tuple[str, ...]:
    """A duplicate round's seats: turned by the round, so a person holds a
    different seat's cards from round to round.

    >>> seat_order(("a", "b"), 1), seat_order(("a", "b"), 2)
    (('a', 'b'), ('b', 'a'))
    """
    shift = (number - 1) % len(table) if table else 0
    return tuple(table[shift:]) + tuple(table[:shift])


__all__ = ["Met", "arena", "seat_order", "swiss", "tables"]
