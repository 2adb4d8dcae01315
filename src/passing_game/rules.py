"""Which rules a game is played by: the defaults of RULES.md and its variants.

Every open point of the seeds (D1-D12) that a table may decide differently is
a field here, so that one frozen value describes a whole game.

>>> Rules().hand_size, Rules().target, Rules(players=4).target
(7, 101, 61)
>>> Rules(max_pip=3).tile_count, Rules(max_pip=3).hand_size
(10, 2)
>>> Rules(players=5)
Traceback (most recent call last):
...
passing_game.rules.RulesError: players must be one of 2, 3, 4, got “5”
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from passing_game.errors import PassingGameError
from passing_game.i18n import _, ngettext
from passing_game.tiles import MAX_PIP, MIN_PIP, SET_MASKS, Tile, set_tiles

DrawRule = Literal["ends-turn", "continue"]
PassingRule = Literal["free", "forced"]
ScoringRule = Literal["literal", "pairwise"]
LeaderRule = Literal["random", "rotate", "winner"]

PLAYERS = (2, 3, 4)
DRAW_RULES: tuple[DrawRule, ...] = ("ends-turn", "continue")
PASSING_RULES: tuple[PassingRule, ...] = ("free", "forced")
SCORING_RULES: tuple[ScoringRule, ...] = ("literal", "pairwise")
LEADER_RULES: tuple[LeaderRule, ...] = ("random", "rotate", "winner")

#: Tiles that stay in the boneyard and can never be drawn (R2.4).
LOCKED_TILES = 2


class RulesError(PassingGameError):
    """A rules value or combination that the game does not have."""


def _seeds_target(players: int, partnerships: bool) -> int:
    """R8.1 / D10: 101 with 2 or 3 players, 61 with 4 (partnerships too)."""
    return 101 if players < 4 else 61


def _alternate_target(players: int, partnerships: bool) -> int:
    """D10's other write-up: 101 for two players or partnerships, 61 for 3-4."""
    return 101 if players == 2 or partnerships else 61


#: Named target-score schemes (D10); ``"seeds"`` is the default.
TARGET_PRESETS: Mapping[str, Callable[[int, bool], int]] = {
    "seeds": _seeds_target,
    "alternate": _alternate_target,
}


def _choice(name: str, value: object, allowed: tuple[object, ...]) -> None:
    if (
        value not in allowed
        or isinstance(value, bool) != isinstance(allowed[0], bool)
        or not isinstance(value, type(allowed[0]))
    ):
        shown = ", ".join(str(a) for a in allowed)
        raise RulesError(
            _("{name} must be one of {shown}, got “{value}”").format(
                name=name, shown=shown, value=value
            )
        )


@dataclass(frozen=True)
class Rules:
    """The rules of one game.

    ``hand_size`` and ``target`` are derived from the player count (R2.2,
    R8.1) when left as ``None``; after construction they always hold numbers.
    ``max_pip`` names the set: 6, the double-six of R1.3, or a smaller set
    for research (double-two to double-five, issue 28; docs/DECISIONS.md P64),
    whose default hands keep the double-six's share of the set.
    """

    players: int = 2
    partnerships: bool = False
    draw: DrawRule = "ends-turn"
    passing: PassingRule = "free"
    scoring: ScoringRule = "literal"
    leader: LeaderRule = "random"
    target: int = field(default=None)  # type: ignore[assignment]
    hand_size: int = field(default=None)  # type: ignore[assignment]
    max_pip: int = MAX_PIP

    def __post_init__(self) -> None:
        _choice("players", self.players, PLAYERS)
        _choice("partnerships", self.partnerships, (False, True))
        if self.partnerships and self.players != 4:
            raise RulesError(
                _(
                    "partnerships need 4 players (seats 1+3 against 2+4), got players={players}"
                ).format(players=self.players)
            )
        _choice("draw", self.draw, DRAW_RULES)
        _choice("passing", self.passing, PASSING_RULES)
        _choice("scoring", self.scoring, SCORING_RULES)
        _choice("leader", self.leader, LEADER_RULES)
        _choice("max_pip", self.max_pip, tuple(range(MIN_PIP, MAX_PIP + 1)))
        count = self.tile_count
        if self.hand_size is None:
            # R2.2 with the double-six; a smaller set keeps its share (P64).
            share = 7 if self.players < 4 else 6
            object.__setattr__(self, "hand_size", count * share // 28)
        elif (
            not isinstance(self.hand_size, int)
            or isinstance(self.hand_size, bool)
            or not 1 <= self.hand_size <= (count - LOCKED_TILES) // self.players
        ):
            most = (count - LOCKED_TILES) // self.players
            raise RulesError(
                ngettext(
                    "hand_size must be a whole number from 1 to {most} with "
                    "{players} player, got “{value}”",
                    "hand_size must be a whole number from 1 to {most} with "
                    "{players} players, got “{value}”",
                    self.players,
                ).format(most=most, players=self.players, value=self.hand_size)
            )
        if self.target is None:
            object.__setattr__(self, "target", _seeds_target(self.players, self.partnerships))
        elif not isinstance(self.target, int) or isinstance(self.target, bool) or self.target < 1:
            raise RulesError(
                _("target must be a whole number of at least 1, got “{value}”").format(
                    value=self.target
                )
            )

    @classmethod
    def with_target_preset(cls, preset: str, **fields: Any) -> Rules:
        """Rules whose target follows a named scheme of D10.

        >>> Rules.with_target_preset("alternate", players=3).target
        61
        """
        if preset not in TARGET_PRESETS:
            raise RulesError(
                _("target preset must be one of {shown}, got “{value}”").format(
                    shown=", ".join(TARGET_PRESETS), value=preset
                )
            )
        probe = cls(**fields)
        return cls(
            **{**fields, "target": TARGET_PRESETS[preset](probe.players, probe.partnerships)}
        )

    @property
    def sides(self) -> int:
        """How many sides score: one per player, or two teams (D6)."""
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat scores for: itself, or team ``seat % 2`` (R1.4)."""
        return seat % 2 if self.partnerships else seat

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The set's tiles in ``TILES`` order: all 28 unless ``max_pip`` < 6 (R1.3)."""
        return set_tiles(self.max_pip)

    @property
    def tile_count(self) -> int:
        """How many tiles the set holds: 28 for the double-six (R1.3)."""
        return (self.max_pip + 1) * (self.max_pip + 2) // 2

    @property
    def tile_mask(self) -> int:
        """The set's tiles as a bit mask of their indices."""
        return SET_MASKS[self.max_pip]

    @property
    def boneyard_size(self) -> int:
        """Tiles left after the deal (R2.3)."""
        return self.tile_count - self.players * self.hand_size

    @property
    def max_draws(self) -> int:
        """Draws possible in one round: all but the two locked tiles (R2.4)."""
        return self.boneyard_size - LOCKED_TILES

    @property
    def max_round_moves(self) -> int:
        """An upper bound on the moves of one round (R6, D3).

        At most ``tile_count - 2`` plays (the two locked tiles are never
        played; 26 with the double-six) and ``max_draws`` draws: ``A``
        actions. Passes come in runs between them; a run of ``players``
        passes ends the round (D3), so each of the at most ``A + 1`` runs
        holds at most ``players - 1`` passes, plus the one pass that may end
        the round: ``A + (A + 1)(players - 1) + 1 = players(A + 1)``.

        >>> [Rules(players=n).max_round_moves for n in (2, 3, 4)]
        [78, 96, 116]
        """
        actions = self.tile_count - LOCKED_TILES + self.max_draws
        return self.players * (actions + 1)

    def to_dict(self) -> dict[str, Any]:
        """The fields as a mapping; ``max_pip`` only for a smaller set.

        Leaving out the double-six's ``max_pip`` keeps every record, puzzle
        and message about the standard game as it was before the field (P64).

        >>> "max_pip" in Rules().to_dict(), Rules(max_pip=4).to_dict()["max_pip"]
        (False, 4)
        """
        data = asdict(self)
        if self.max_pip == MAX_PIP:
            del data["max_pip"]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a mapping, refusing unknown keys.

        >>> Rules.from_dict({"players": 3, "scoring": "pairwise"}).scoring
        'pairwise'
        """
        if not isinstance(data, Mapping):
            raise RulesError(
                _("rules must be a mapping of field names to values, got “{value}”").format(
                    value=data
                )
            )
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(
                _("unknown rules field(s) {unknown}; known: {known}").format(
                    unknown=", ".join(map(str, unknown)), known=", ".join(sorted(known))
                )
            )
        return cls(**data)
