"""A tournament's facts and its standings, pure (issue 26, item 1; docs/DECISIONS.md P54).

Nothing here reads a clock, a store or a socket: the service hands in the
tournament's settings (``Event``), its people (``Entry``) and its games
(``Game``, each one table's match as the store keeps it), and gets back the
standings (``standings``). The same function runs on every process and on a
replay of the stored games, so the page, the API and a test agree.

Three kinds (``KINDS``):

- **arena**: for ``minutes`` from the start, each person is paired again as
  soon as their game ends; a win scores 2, a tie 1, a loss 0, and a win or a
  tie after two wins in a row scores double (the streak, as lichess's arenas);
- **swiss**: ``rounds`` rounds, paired by score, never the same two people
  at one table twice where it can be helped (``pairing.swiss``); 2, 1, 0 a
  game, a bye 2; ties broken by Buchholz (the sum of the opponents' points);
- **duplicate**: ``rounds`` rounds; every table of a round plays the same
  deals (one seed a round, ``director.round_fairness``), and each person
  is compared with everyone else who held the same seat's cards that round
  (``matchpoints``).

**Bots as entrants** (``Event.bots``, P65): a tournament may have computer
players of one level (``bot_entries``); each is an entry like a person's
(``bot:1``, ``bot:2``...), paired, scored and ranked as anyone, and plays its
games at the table as a duplicate's filling bot does. Bots never meet only
bots (``pairing``): a table without a person is not made.

A game's **result** for a side is read from its final scores: the side
with the most points wins, equal points tie, and a side with a person who
forfeited (left, or timed out and was replaced by a stand-in for the rest)
loses whatever the scores say; the standings count it (``forfeits``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from passing_game.bots import LEVELS as BOT_LEVELS
from passing_game.i18n import _, ngettext

#: The kinds of tournament, in the order the page offers them.
KINDS = ("arena", "swiss", "duplicate")
#: The people at one table: 2 players, or 4 in two partnerships (seats 1+3, 2+4).
TABLE_SIZES = (2, 4)
#: Points of a game, by result (arena and Swiss); a bye scores a win.
WIN, TIE, LOSS = 2, 1, 0
#: Arena: after this many wins in a row, a game's points count double.
STREAK = 2
#: Duplicate: a comparison won, tied, lost (bridge's matchpoints).
MP_WIN, MP_TIE = 2, 1
#: The most computer players one tournament may have.
MOST_BOTS = 8
#: A computer player's entry is ``bot:`` and its number (an account's id never is).
BOT_PREFIX = "bot:"


def is_bot(who: str | None) -> bool:
    """Whether an entry is one of the tournament's computer players (``None``, a
    duplicate's filling bot, is not an entry at all)."""
    return who is not None and who.startswith(BOT_PREFIX)


class TournamentError(ValueError):
    """A setting, an entry or a game that a tournament cannot have."""


@dataclass(frozen=True)
class Event:
    """A tournament's settings, fixed when it is created."""

    id: str
    kind: str
    name: str
    #: People at each table: 2, or 4 in partnerships.
    size: int = 2
    #: Swiss and duplicate: how many rounds; arena: ignored.
    rounds: int = 3
    #: Arena: how long pairing goes on, from the start; Swiss and duplicate: ignored.
    minutes: int = 30
    #: The clock of every game (a key of ``protocol.CLOCK_PRESETS``).
    clock: str = "45"
    #: When pairing begins (seconds since the epoch).
    starts: float = 0.0
    rated: bool = False
    #: Listed on the lobby (scheduled by a moderator) or reached by its link only.
    public: bool = False
    #: The account that created it (a moderator for a public one).
    creator: str = ""
    #: Duplicate: each round's deals follow from this (``director.round_fairness``); secret.
    seed: int = 0
    #: Duplicate: the secret (64 hex digits) committed on the page from the start, mixed
    #: with the people's parts into each round's deals (``parts.py``); "": made before.
    secret: str = ""
    #: The share of games a person must have finished to join (issue 26, item 4).
    min_finished: float = 0.0
    #: Each game's target score (R8), ``None``: the rules' own for the table (D10).
    target: int | None = None
    #: Computer players taking part as entrants (``bot_entries``), and their level.
    bots: int = 0
    bot_level: str = "medium"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise TournamentError(
                _("A tournament is one of {kinds}.").format(kinds=", ".join(KINDS))
            )
        checks = (
            (
                self.size in TABLE_SIZES,
                _("A tournament's tables seat 2 people, or 4 in partnerships."),
            ),
            (1 <= self.rounds <= 15, _("A tournament has 1 to 15 rounds.")),
            (5 <= self.minutes <= 240, _("An arena lasts 5 to 240 minutes.")),
            (
                self.target is None or 10 <= self.target <= 500,
                _("A game's target is 10 to 500 points."),
            ),
            (
                0.0 <= self.min_finished <= 1.0,
                _("The share of games finished asked for is between 0 and 1."),
            ),
            (
                0 <= self.bots <= MOST_BOTS,
                ngettext(
                    "A tournament has 0 to {n} computer player.",
                    "A tournament has 0 to {n} computer players.",
                    MOST_BOTS,
                ).format(n=MOST_BOTS),
            ),
            (
                self.bot_level in BOT_LEVELS,
                _("The computer players' level is one of {levels}.").format(
                    levels=", ".join(BOT_LEVELS)
                ),
            ),
        )
        for holds, message in checks:
            if not holds:
                raise TournamentError(message)

    @property
    def ends(self) -> float | None:
        """When an arena stops pairing (``None``: a Swiss or duplicate ends with its rounds)."""
        return self.starts + self.minutes * 60 if self.kind == "arena" else None


@dataclass(frozen=True)
class Entry:
    """A person in a tournament."""

    user_id: str
    name: str
    joined: float
    #: Withdrawn: never paired again; their games stand.
    withdrawn: bool = False
    #: Paused: not paired until they come back (arena, and Swiss rounds meanwhile).
    paused: bool = False


def bot_entries(event: Event) -> list[Entry]:
    """The tournament's computer players as entries, in the order they are named
    (their ``name`` is their level; the page words it). Never withdrawn or paused.

    >>> [e.user_id for e in bot_entries(Event("t", "swiss", "T", bots=2))]
    ['bot:1', 'bot:2']
    """
    return [
        Entry(f"{BOT_PREFIX}{n}", event.bot_level, joined=0.0) for n in range(1, event.bots + 1)
    ]


@dataclass(frozen=True)
class Game:
    """One table of a tournament: who sat where, and how its match ended."""

    code: str
    #: Swiss and duplicate: the round; arena: the order the games were made in.
    round: int
    #: Each seat's account, ``None`` for a bot.
    seats: tuple[str | None, ...]
    started: float = 0.0
    #: Each side's final points, ``None`` while it is played.
    points: tuple[int, ...] | None = None
    #: The people who forfeited it (left, or a stand-in played on for them).
    forfeited: frozenset[str] = frozenset()

    @property
    def finished(self) -> bool:
        return self.points is not None

    @property
    def is_bye(self) -> bool:
        """A Swiss bye: one person, no table (``code`` empty), scored as a win."""
        return len(self.seats) == 1

    def results(self) -> dict[str, int]:
        """Each person's points from this game: ``WIN``, ``TIE`` or ``LOSS``.

        >>> Game("ABCDEF", 1, ("ana", "bo"), points=(101, 40)).results()
        {'ana': 2, 'bo': 0}
        >>> left = frozenset({"ana"})
        >>> Game("ABCDEF", 1, ("ana", "bo"), points=(101, 40), forfeited=left).results()
        {'ana': 0, 'bo': 2}
        """
        if self.points is None:
            return {}
        sides = len(self.points)
        lost = {s % sides for s, who in enumerate(self.seats) if who in self.forfeited}
        out: dict[str, int] = {}
        for seat, who in enumerate(self.seats):
            if who is None:
                continue
            side = seat % sides
            others = [p for s, p in enumerate(self.points) if s != side]
            if side in lost:
                out[who] = LOSS
            elif (lost and set(range(sides)) - lost == {side}) or all(
                self.points[side] > p for p in others
            ):
                out[who] = WIN
            elif any(self.points[side] < p for p in others):
                out[who] = LOSS
            else:
                out[who] = TIE
        return out

    def margin(self, seat: int) -> int:
        """The seat's side's points minus the best other side's (duplicate's comparison)."""
        assert self.points is not None
        side = seat % len(self.points)
        return self.points[side] - max(p for s, p in enumerate(self.points) if s != side)


@dataclass
class Standing:
    """One person's line in the standings."""

    user_id: str
    name: str
    points: int = 0
    games: int = 0
    wins: int = 0
    #: Swiss: the opponents' points; duplicate: the matchpoints' share of the most possible.
    tiebreak: float = 0.0
    #: Arena: wins in a row now (the streak doubles points from ``STREAK`` on).
    streak: int = 0
    forfeits: int = 0
    byes: int = 0
    withdrawn: bool = False
    paused: bool = False
    #: The people met, in order (no pair twice in a Swiss).
    met: list[str] = field(default_factory=list)
    #: Each finished game's points as scored (a doubled one shows 4), for the page.
    scored: list[int] = field(default_factory=list)
    rank: int = 0


def matchpoints(games: Iterable[Game]) -> dict[str, tuple[int, int]]:
    """Duplicate: each person's matchpoints and the most they could have had.

    For every round and every seat, the people who held that seat's cards
    are compared two by two on their side's margin (``Game.margin``): 2 to
    the better, 1 each for equal margins. A forfeited game's margin counts
    as worse than any played one. Bots are compared with nobody.

    >>> g = [Game("A", 1, ("ana", "bo"), points=(100, 20)),
    ...      Game("B", 1, ("cy", "di"), points=(100, 60))]
    >>> sorted(matchpoints(g).items())  # margins: ana 80, cy 40; bo -80, di -40
    [('ana', (2, 2)), ('bo', (0, 2)), ('cy', (0, 2)), ('di', (2, 2))]
    """
    held: dict[tuple[int, int], list[tuple[str, float]]] = {}
    for game in games:
        if game.points is None:
            continue
        for seat, who in enumerate(game.seats):
            if who is None:
                continue
            margin = float("-inf") if who in game.forfeited else game.margin(seat)
            held.setdefault((game.round, seat), []).append((who, margin))
    out: dict[str, tuple[int, int]] = {}
    for group in held.values():
        for who, mine in group:
            got, most = out.get(who, (0, 0))
            for other, theirs in group:
                if other == who:
                    continue
                most += MP_WIN
                got += MP_WIN if mine > theirs else MP_TIE if mine == theirs else 0
            out[who] = (got, most)
    return out


def standings(event: Event, entries: Sequence[Entry], games: Sequence[Game]) -> list[Standing]:
    """Everyone's line, best first, from the games as stored (finished ones count).

    Arena ranks by points, then wins; Swiss by points, then Buchholz;
    duplicate by matchpoints, then their share. Equal lines share a rank.
    """
    lines = {
        e.user_id: Standing(e.user_id, e.name, withdrawn=e.withdrawn, paused=e.paused)
        for e in entries
    }
    ordered = sorted(games, key=lambda g: (g.round, g.started, g.code))
    for game in ordered:
        people = [who for who in game.seats if who is not None]
        if game.is_bye:
            line = lines.get(people[0])
            if line is not None:  # a bye: one seat, no opponent
                line.points += WIN
                line.byes += 1
                line.scored.append(WIN)
            continue
        for who in people:
            line = lines.get(who)
            if line is not None:
                line.met.extend(p for p in people if p != who)
        for who, result in game.results().items():
            line = lines.get(who)
            if line is None:
                continue
            line.games += 1
            line.wins += result == WIN
            line.forfeits += who in game.forfeited
            doubled = event.kind == "arena" and line.streak >= STREAK
            worth = result * 2 if doubled else result
            line.points += worth
            line.scored.append(worth)
            line.streak = line.streak + 1 if result == WIN else 0
    if event.kind == "swiss":
        for line in lines.values():
            line.tiebreak = float(sum(lines[o].points for o in line.met if o in lines))
    elif event.kind == "duplicate":
        for who, (got, most) in matchpoints(ordered).items():
            if who in lines:
                lines[who].points = got
                lines[who].tiebreak = round(100 * got / most, 1) if most else 0.0

    def same(line: Standing) -> tuple[float, float]:
        second = line.wins if event.kind == "arena" else line.tiebreak
        return (line.points, second)

    ranked = sorted(lines.values(), key=lambda s: (-same(s)[0], -same(s)[1], s.name))
    for place, line in enumerate(ranked, start=1):
        before = ranked[place - 2] if place > 1 else None
        line.rank = before.rank if before is not None and same(before) == same(line) else place
    return ranked


__all__ = [
    "BOT_LEVELS",
    "BOT_PREFIX",
    "KINDS",
    "LOSS",
    "MOST_BOTS",
    "STREAK",
    "TABLE_SIZES",
    "TIE",
    "WIN",
    "Entry",
    "Event",
    "Game",
    "Standing",
    "TournamentError",
    "bot_entries",
    "is_bot",
    "matchpoints",
    "standings",
]
