"""A game of several rounds, played until a side reaches the target (R8).

The seed fixes every deal and every random leader (D9): round ``k`` is dealt
by ``seeded_deal(rules, seed, k)``. When a round ends the match scores it and deals
the next one at once; finished rounds stay in ``rounds`` and ``results``.

>>> from passing_game import Match, Rules
>>> m = Match(Rules(target=10), seed=3)
>>> while not m.is_over:
...     _ = m.play(m.round.legal_moves()[0])
>>> max(m.scores) >= 10, m.winner == m.scores.index(max(m.scores))
(True, True)

In a two-player match a seat may resign instead (docs/DECISIONS.md P25): the
other seat wins at once, the scores stay as they are, and the round being
played stays unfinished.

>>> m = Match(Rules(players=2), seed=3)
>>> _ = m.play(m.legal_moves()[0])
>>> m.resign(1)
>>> m.is_over, m.winner, m.resigned, m.scores, m.round.result
(True, 0, 1, [0, 0], None)
>>> m
<Match 2 players, round 1, scores [0, 0], over, seat 1 resigned>
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Iterator

from passing_game.dealing import seeded_deal
from passing_game.errors import IllegalMove
from passing_game.i18n import _
from passing_game.moves import Move
from passing_game.round import Deal, Round, RoundResult
from passing_game.rules import Rules
from passing_game.views import View


def winner_leader(rules: Rules, result: RoundResult) -> int | None:
    """The seat that leads after ``result`` under ``leader="winner"`` (D5).

    Without partnerships, the winning seat. With partnerships the winning
    team's partner with fewer pips leads, the lower seat on equal counts
    (a project decision: RULES.md is silent, see docs/DECISIONS.md).
    ``None`` after a tie, when the leader is drawn at random.
    """
    if result.winner is None:
        return None
    if not rules.partnerships:
        return result.winner
    a, b = result.winner, result.winner + 2
    return b if result.pips[b] < result.pips[a] else a


class Match:
    """Rounds of one game until a side reaches ``rules.target``.

    ``deals`` plays these exact deals first (a record, a study position);
    once they run out, deals come from the seeded generator.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int | None = None,
        *,
        deals: Iterable[Deal] | None = None,
    ) -> None:
        self.rules = rules or Rules()
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"seed must be a whole number or None, got {seed!r}")
        self.seed: int = secrets.randbits(63) if seed is None else seed
        self._deals: Iterator[Deal] | None = iter(deals) if deals is not None else None
        #: False when some deals were given rather than drawn from ``seed``.
        self.dealt_from_seed = deals is None
        self.scores: list[int] = [0] * self.rules.sides
        self.rounds: list[Round] = []
        self.results: list[RoundResult] = []
        self.winner: int | None = None
        #: The seat that resigned the match (P25), or None.
        self.resigned: int | None = None
        self._start_round()

    def _next_leader(self, drawn: int) -> int:
        rules = self.rules
        if self.rounds and rules.leader == "rotate":
            return (self.rounds[-1].leader + 1) % rules.players
        if self.results and rules.leader == "winner":
            seat = winner_leader(rules, self.results[-1])
            if seat is not None:
                return seat
        return drawn

    def _start_round(self) -> None:
        # Each round's deal and random seat are a function of the seed and the
        # round number alone, so a seed deals the same tiles whatever the
        # leader rule and whatever the earlier rounds' results (D9).
        hands, boneyard, drawn = seeded_deal(self.rules, self.seed, len(self.rounds) + 1)
        leader = self._next_leader(drawn)
        if self._deals is not None:
            given = next(self._deals, None)
            if given is not None:
                self.rounds.append(Round.from_deal(self.rules, *given))
                return
            self._deals = None
        self.rounds.append(Round._start(self.rules, hands, boneyard, leader))

    @property
    def round(self) -> Round:
        """The round being played (the last one, once the match is over)."""
        return self.rounds[-1]

    @property
    def round_number(self) -> int:
        """1 for the first round."""
        return len(self.rounds)

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.round.to_move

    def legal_moves(self) -> list[Move]:
        return [] if self.is_over else self.round.legal_moves()

    def play(self, move: Move) -> RoundResult | None:
        """Make ``move`` in the current round; returns the result if it ended it.

        Raises ``IllegalMove`` (state unchanged) for an illegal move or once
        the match is over.
        """
        if self.is_over:
            raise IllegalMove(_("the match is over"))
        current = self.round
        current.play(move)
        result = current.result
        if result is None:
            return None
        self.results.append(result)
        if result.winner is not None:
            self.scores[result.winner] += result.points
            if self.scores[result.winner] >= self.rules.target:
                self.winner = result.winner
                return result
        self._start_round()
        return result

    def resign(self, seat: int) -> None:
        """``seat`` concedes the match: the other seat wins it now (P25).

        Only in a two-player match (``rules.players == 2``, so two sides).
        The scores are left as they are and the round being played stays
        unfinished (its ``result`` stays ``None``); ``resigned`` holds
        ``seat``. Raises ``IllegalMove`` (state unchanged) with more than two
        players, once the match is over, or for a seat that is not 0 or 1.

        >>> from passing_game import Rules
        >>> Match(Rules(players=3), seed=1).resign(0)
        Traceback (most recent call last):
        ...
        passing_game.errors.IllegalMove: resigning is only for two-player games
        """
        rules = self.rules
        if rules.players != 2 or rules.sides != 2:
            raise IllegalMove(_("resigning is only for two-player games"))
        if self.is_over:
            raise IllegalMove(_("the match is over"))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rules.players:
            raise IllegalMove(
                _(
                    "seat must be an index from 0 to {last} (seat 1 is index 0), got “{value}”"
                ).format(last=rules.players - 1, value=seat)
            )
        self.resigned = seat
        self.winner = 1 - seat

    def view(self, seat: int) -> View:
        """The current round as ``seat`` sees it, with the match scores."""
        return self.round.view(seat, scores=self.scores, round_number=self.round_number)

    def __repr__(self) -> str:
        return (
            f"<Match {self.rules.players} players, round {self.round_number}, "
            f"scores {self.scores}{', over' if self.is_over else ''}"
            f"{'' if self.resigned is None else f', seat {self.resigned} resigned'}>"
        )
