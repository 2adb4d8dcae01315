"""The Passing Game: a domino game for 2-4 players.

The rules core (tiles, rules, moves, round, match, views, records) uses only
the standard library. Start with ``Round.new`` for one hand or ``Match`` for a
game to the target score.

>>> from passing_game import Match, Rules
>>> m = Match(Rules(players=3), seed=7)
>>> m.round.to_move in (0, 1, 2), len(m.round.hands[0])
(True, 7)
"""

from passing_game.errors import IllegalMove, ParseError, PassingGameError, RecordError
from passing_game.match import Match
from passing_game.moves import DRAW, PASS, Draw, Move, Pass, Play, parse_move
from passing_game.outcome import Deal, RoundResult
from passing_game.records import RECORD_VERSION, dump_record, load_record, match_to_record
from passing_game.round import Round
from passing_game.rules import TARGET_PRESETS, Rules, RulesError
from passing_game.scoring import Score, score
from passing_game.tiles import TILES, Placed, Tile
from passing_game.views import Turn, View

__version__ = "0.1.0"

__all__ = [
    "DRAW",
    "PASS",
    "RECORD_VERSION",
    "TARGET_PRESETS",
    "TILES",
    "Deal",
    "Draw",
    "IllegalMove",
    "Match",
    "Move",
    "ParseError",
    "Pass",
    "PassingGameError",
    "Placed",
    "Play",
    "RecordError",
    "Round",
    "RoundResult",
    "Rules",
    "RulesError",
    "Score",
    "Tile",
    "Turn",
    "View",
    "__version__",
    "dump_record",
    "load_record",
    "match_to_record",
    "parse_move",
    "score",
]
