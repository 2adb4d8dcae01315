"""A player's statistics from finished games' records (issue 27, item 3; P60): pure.

``tally(match, seat, marks)`` counts one finished game for the player in ``seat``
(the engine's ``Match``, as ``load_record`` makes it; ``marks`` as
``record_marks`` reads them); ``Tally``'s add up. What each count is, with the rule
it rests on:

* ``games``, ``games_won``: the match went to its end (a record is kept only then);
  won when the player's side won it (a seat alone, or a team with partnerships).
  ``finished``: games the player was there for at the end: they did not resign
  (P25) and their last turn was not a stand-in bot's (the ratings' rule).
* ``rounds``, ``rounds_won``: rounds with a result (a resigned match's last round
  has none); won when the player's side won the round (R6, R7; a tie, D5, is not won).
* ``points``: the points the player's side scored in those rounds (R7); points per
  round are ``points / rounds``.
* ``dominoes``: rounds the player ended by playing their last tile themselves (R6.1:
  their own hand empty at the end, a partner's going out not counted).
* ``blocks``, ``blocks_won``: rounds that ended with nobody able to move (R6.2) or
  every seat passing in a row (D3), and those the player's side won.
* ``pips_left``: the pips in the player's own hand at each round's end (R7), summed;
  the average is ``pips_left / rounds``.
* ``decisions``, ``passes``, ``draws``: the player's own turns that offered a choice
  (two legal moves or more, R4; a turn whose only move was to pass is forced, as the
  analysis calls it), and how many of those were a pass or a draw. A move a bot made
  for the person (a mark: ``"timeout"``, ``"stand-in"``) is not theirs, and not counted.

Where an analysis of the player's seat was kept (``analysed``), its own choices (not
forced, not a bot's: ``Analysis.choices``) give ``analysed_decisions`` with their
``mistakes`` and ``blunders``, and the passes and draws among them with how many were
marked a mistake or a blunder (``pass_errors``, ``draw_errors``).

Partnership games (``rules.partnerships``) are also counted per partner
(``partners``: the partner's name -> games, games won, rounds, rounds won).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from passing_game.match import Match
from passing_game.moves import Draw, Pass
from passing_game.round import Round

#: The outcomes of a round that count as blocked: R6.2 and D3.
BLOCKED = ("block", "all-pass")


@dataclass
class PartnerTally:
    games: int = 0
    games_won: int = 0
    rounds: int = 0
    rounds_won: int = 0

    def add(self, other: PartnerTally) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


@dataclass
class Tally:
    """Counts over some finished games of one player (see the module's text)."""

    games: int = 0
    games_won: int = 0
    finished: int = 0
    rounds: int = 0
    rounds_won: int = 0
    points: int = 0
    dominoes: int = 0
    blocks: int = 0
    blocks_won: int = 0
    pips_left: int = 0
    decisions: int = 0
    passes: int = 0
    draws: int = 0
    analysed: int = 0
    analysed_decisions: int = 0
    mistakes: int = 0
    blunders: int = 0
    analysed_passes: int = 0
    pass_errors: int = 0
    analysed_draws: int = 0
    draw_errors: int = 0
    partners: dict[str, PartnerTally] = field(default_factory=dict)

    def add(self, other: Tally) -> Tally:
        """``other`` added into this one; returns this one."""
        for f in fields(self):
            if f.name != "partners":
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))
        for name, counts in other.partners.items():
            self.partners.setdefault(name, PartnerTally()).add(counts)
        return self


def tally(
    match: Match,
    seat: int,
    marks: Mapping[tuple[int, int], str] | None = None,
    partner: str | None = None,
) -> Tally:
    """One finished game counted for the player in ``seat``; ``partner`` names the
    partner of a partnership game (``None``: not counted per partner)."""
    rules = match.rules
    side = rules.side_of(seat)
    marks = marks or {}
    out = Tally(games=1, games_won=int(match.winner == side))
    last_own: str | None = "none"
    for number, played in enumerate(match.rounds, start=1):
        rnd = Round.from_deal(rules, *played.deal)
        for index, move in enumerate(played.moves, start=1):
            if rnd.to_move == seat:
                auto = marks.get((number, index))
                last_own = auto
                if auto is None and len(rnd.legal_moves()) >= 2:
                    out.decisions += 1
                    out.passes += isinstance(move, Pass)
                    out.draws += isinstance(move, Draw)
            rnd.play(move)
        result = played.result
        if result is None:
            continue
        won = result.winner == side
        out.rounds += 1
        out.rounds_won += won
        out.points += result.points if won else 0
        out.pips_left += result.pips[seat]
        if result.reason == "domino" and not result.hands[seat]:
            out.dominoes += 1
        if result.reason in BLOCKED:
            out.blocks += 1
            out.blocks_won += won
    out.finished = int(match.resigned != seat and last_own != "stand-in")
    if partner is not None and rules.partnerships:
        out.partners[partner] = PartnerTally(1, out.games_won, out.rounds, out.rounds_won)
    return out


def analysed(evaluations: Iterable[Mapping[str, Any]]) -> Tally:
    """One game's kept analysis of the player's seat, counted: its ``evaluations`` as
    ``Analysis.to_dict`` keeps them (``played``, ``mark``, ``forced``, ``auto``)."""
    out = Tally(analysed=1)
    for e in evaluations:
        if e.get("forced") or e.get("auto") is not None:
            continue
        wrong = e.get("mark") in ("mistake", "blunder")
        out.analysed_decisions += 1
        out.mistakes += e.get("mark") == "mistake"
        out.blunders += e.get("mark") == "blunder"
        if e.get("played") == "pass":
            out.analysed_passes += 1
            out.pass_errors += wrong
        elif e.get("played") == "draw":
            out.analysed_draws += 1
            out.draw_errors += wrong
    return out


def _share(part: int, whole: int) -> float | None:
    return None if whole == 0 else part / whole


def summary(t: Tally) -> dict[str, Any]:
    """The counts as the profile's JSON holds them, with each average or share (``None``
    where there is nothing to divide by)."""
    partners = [
        {"name": name, **vars(p)}
        for name, p in sorted(t.partners.items(), key=lambda item: (-item[1].games, item[0]))
    ]
    return {
        "games": t.games,
        "games_won": t.games_won,
        "finished": t.finished,
        "rounds": t.rounds,
        "rounds_won": t.rounds_won,
        "points": t.points,
        "points_per_round": _share(t.points, t.rounds),
        "dominoes": t.dominoes,
        "blocks": t.blocks,
        "blocks_won": t.blocks_won,
        "pips_left": t.pips_left,
        "pips_left_per_round": _share(t.pips_left, t.rounds),
        "decisions": t.decisions,
        "passes": t.passes,
        "draws": t.draws,
        "pass_share": _share(t.passes, t.decisions),
        "draw_share": _share(t.draws, t.decisions),
        "analysis": {
            "games": t.analysed,
            "decisions": t.analysed_decisions,
            "mistakes": t.mistakes,
            "blunders": t.blunders,
            "passes": t.analysed_passes,
            "pass_errors": t.pass_errors,
            "pass_error_share": _share(t.pass_errors, t.analysed_passes),
            "draws": t.analysed_draws,
            "draw_errors": t.draw_errors,
            "draw_error_share": _share(t.draw_errors, t.analysed_draws),
        },
        "partners": partners,
    }


def rating_series(
    steps: Iterable[tuple[str, float, int, int]],
) -> dict[str, list[dict[str, Any]]]:
    """Per pool, the points of its graph: ``steps`` are ``(pool, at, before, after)`` in
    order of time (ratings as people read them, ``ratings.model.display``); a pool's
    first point is its first change's rating before, each next one a change's after."""
    series: dict[str, list[dict[str, Any]]] = {}
    for pool, at, before, after in steps:
        points = series.get(pool)
        if points is None:
            points = series[pool] = [{"at": at, "rating": before, "game": 0}]
        points.append({"at": at, "rating": after, "game": len(points)})
    return series


__all__ = ["BLOCKED", "PartnerTally", "Tally", "analysed", "rating_series", "summary", "tally"]
