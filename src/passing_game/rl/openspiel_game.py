"""The Passing Game as an OpenSpiel Python game: ``python_passing_game``.

Importing this module registers the game with ``pyspiel``; load it with
``pyspiel.load_game("python_passing_game")`` or with parameters,
``pyspiel.load_game("python_passing_game", {"players": 4, "partnerships": True})``.

One OpenSpiel episode is one round (R2-R7), played by the rules engine's own
``Round``:

* **Chance deals.** The game starts at chance nodes: one per tile dealt (the
  outcome is the tile's index; seat 0's hand first, then seat 1's, ...), then
  one for the leader (outcome = seat, R3.1).
* **Draws are chance nodes.** A player's ``Draw`` action (56) leads to a
  chance node whose outcomes are the tiles still in the boneyard, equally
  likely; so the boneyard's order is never part of the state, and the tile a
  draw brings is decided only when it is drawn. (Drawing uniformly from what
  is left is the same as a shuffled boneyard whose last two tiles are locked,
  R2.4.)
* **Actions** are the shared encoding (``passing_game.rl.encoding``): 58
  player-independent ids, ``tile.index * 2 + end`` for plays, 56 draw, 57 pass.
* **Returns** (zero-sum): each player gets the points its side won in the
  round minus the mean of the points the other sides won. With two sides this
  is "my points minus theirs"; with three sides the loser's share is half the
  winner's points.
* **Tensors.** ``observation_tensor`` is ``encoding.encode`` of the player's
  view; ``information_state_tensor`` is ``encoding.encode_information_state``
  (the same vector followed by the whole public history, perfect recall).
* ``resample_from_infostate(player, sampler)`` returns a state that player
  cannot tell from this one: the hidden tiles are dealt again consistently
  with its view (``passing_game.rl.worlds``). OpenSpiel's ISMCTS bot
  (``open_spiel.python.algorithms.ismcts``) uses it.

Game parameters: ``players`` (2-4), ``partnerships`` (bool), ``draw``
(``"ends-turn"`` or ``"continue"``, D1), ``passing`` (``"free"`` or
``"forced"``, D2), ``scoring`` (``"literal"`` or ``"pairwise"``, D4), and for
the smaller sets of issue 28 ``max_pip`` (2-6: double-two to double-six) and
``hand_size`` (0: the rules' default for the set and the players).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from passing_game.moves import DRAW, Draw, Move
from passing_game.rl import encoding
from passing_game.rl.worlds import sample_round
from passing_game.round import Round
from passing_game.rules import Rules
from passing_game.tiles import TILES, Tile
from passing_game.views import View

SHORT_NAME = "python_passing_game"

#: The game's parameters and their defaults (the defaults of RULES.md).
DEFAULT_PARAMS: dict[str, Any] = {
    "players": 2,
    "partnerships": False,
    "draw": "ends-turn",
    "passing": "free",
    "scoring": "literal",
    "max_pip": 6,
    "hand_size": 0,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="The Passing Game (one round)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


def rules_from_params(params: Mapping[str, Any] | None) -> Rules:
    """The ``Rules`` a parameter dict stands for (missing keys take defaults)."""
    merged = {**DEFAULT_PARAMS, **(params or {})}
    unknown = sorted(set(merged) - set(DEFAULT_PARAMS))
    if unknown:
        raise ValueError(f"unknown {SHORT_NAME} parameter(s): {', '.join(unknown)}")
    return Rules(
        players=int(merged["players"]),
        partnerships=bool(merged["partnerships"]),
        draw=str(merged["draw"]),  # type: ignore[arg-type]
        passing=str(merged["passing"]),  # type: ignore[arg-type]
        scoring=str(merged["scoring"]),  # type: ignore[arg-type]
        max_pip=int(merged["max_pip"]),
        hand_size=int(merged["hand_size"]) or None,  # type: ignore[arg-type]
    )


def params_from_rules(rules: Rules) -> dict[str, Any]:
    """The game parameters for ``rules`` (leader and target do not apply to one round)."""
    return {
        "players": rules.players,
        "partnerships": rules.partnerships,
        "draw": rules.draw,
        "passing": rules.passing,
        "scoring": rules.scoring,
        "max_pip": rules.max_pip,
        "hand_size": rules.hand_size,
    }


def max_points(rules: Rules) -> int:
    """No round can be worth more than all the pips of the set (168, R1.3)."""
    return sum(t.pips for t in rules.tiles)


def returns_of(rules: Rules, points_by_side: tuple[int, ...]) -> list[float]:
    """Zero-sum returns per player: own side's points minus the others' mean.

    >>> returns_of(Rules(players=2), (0, 12))
    [-12.0, 12.0]
    >>> returns_of(Rules(players=3), (20, 0, 0))
    [20.0, -10.0, -10.0]
    """
    sides = len(points_by_side)
    total = sum(points_by_side)
    out = []
    for seat in range(rules.players):
        own = points_by_side[rules.side_of(seat)]
        out.append(float(own - (total - own) / (sides - 1)))
    return out


class PassingGame(pyspiel.Game):  # type: ignore[misc]
    """The game object: rules from the parameters, states, observers."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        self.rules = rules_from_params(params)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.NUM_ACTIONS,
            max_chance_outcomes=len(TILES),
            num_players=self.rules.players,
            min_utility=-float(max_points(self.rules)),
            max_utility=float(max_points(self.rules)),
            utility_sum=0.0,
            max_game_length=self.rules.max_round_moves,
        )
        super().__init__(_GAME_TYPE, info, params_from_rules(self.rules))

    def new_initial_state(self, *args: Any) -> PassingGameState:
        return PassingGameState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> PassingGameObserver:
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return PassingGameObserver(self.rules, iig_obs_type, params)

    def max_chance_nodes_in_history(self) -> int:
        """The deal, the leader, and one chance node per possible draw."""
        return self.rules.players * self.rules.hand_size + 1 + self.rules.max_draws


class _Progress:
    """Everything that changes during an episode, in one object.

    OpenSpiel clones a Python state by deep-copying its attributes; this one
    copies itself with ``Round.copy`` instead, which is much faster.
    """

    __slots__ = ("dealt", "draws", "moves", "pending_draw", "plan", "round")

    def __init__(self, players: int) -> None:
        self.dealt: list[list[Tile]] = [[] for _ in range(players)]
        self.round: Round | None = None
        self.pending_draw = False
        #: Every move made so far, and the tiles drawn in order (to rebuild).
        self.moves: list[Move] = []
        self.draws: list[Tile] = []
        #: A boneyard order to start the round with (a hint, see from_round).
        self.plan: tuple[Tile, ...] | None = None

    def __deepcopy__(self, memo: object) -> _Progress:
        other = _Progress.__new__(_Progress)
        other.dealt = [list(h) for h in self.dealt]
        other.round = None if self.round is None else self.round.copy()
        other.pending_draw = self.pending_draw
        other.moves = list(self.moves)
        other.draws = list(self.draws)
        other.plan = self.plan
        return other

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)


class PassingGameState(pyspiel.State):  # type: ignore[misc]
    """One round in OpenSpiel: chance deals, then the players, chance draws."""

    def __init__(self, game: PassingGame) -> None:
        super().__init__(game)
        self.rules: Rules = game.rules
        self.p = _Progress(self.rules.players)

    # -- reading ---------------------------------------------------------------

    @property
    def round(self) -> Round | None:
        """The engine's round once the deal is done (hidden tiles included)."""
        return self.p.round

    def _dealt_count(self) -> int:
        return sum(len(h) for h in self.p.dealt)

    def current_player(self) -> int:
        rnd = self.p.round
        if rnd is None or self.p.pending_draw:
            return int(pyspiel.PlayerId.CHANCE)
        seat = rnd.to_move
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def is_terminal(self) -> bool:
        rnd = self.p.round
        return rnd is not None and rnd.is_over

    def view(self, player: int) -> View | None:
        """``player``'s view of the round (``None`` while dealing)."""
        rnd = self.p.round
        return None if rnd is None else rnd.view(player)

    def _legal_actions(self, player: int) -> list[int]:
        rnd = self.p.round
        assert rnd is not None and player == rnd.to_move
        return sorted(encoding.move_to_action(m) for m in rnd.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        rnd = self.p.round
        if rnd is None:
            if self._dealt_count() < self.rules.players * self.rules.hand_size:
                dealt = {t for h in self.p.dealt for t in h}
                left = [t.index for t in self.rules.tiles if t not in dealt]
                return [(i, 1.0 / len(left)) for i in left]
            n = self.rules.players
            return [(seat, 1.0 / n) for seat in range(n)]
        pile = sorted(t.index for t in rnd.boneyard)
        return [(i, 1.0 / len(pile)) for i in pile]

    # -- moves -------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        p = self.p
        rnd = p.round
        if rnd is None:
            rules = self.rules
            count = self._dealt_count()
            if count < rules.players * rules.hand_size:
                p.dealt[count // rules.hand_size].append(TILES[action])
                return
            dealt = {t for h in p.dealt for t in h}
            if p.plan is not None and set(p.plan) == set(rules.tiles) - dealt:
                pile = list(p.plan)
            else:
                pile = [t for t in rules.tiles if t not in dealt]
            p.round = Round.from_deal(rules, p.dealt, pile, int(action))
            return
        if p.pending_draw:
            tile = TILES[action]
            if rnd.boneyard[0] is not tile:
                rnd = self._rebuild(rnd, tile)
            rnd.play(DRAW)
            p.moves.append(DRAW)
            p.draws.append(tile)
            p.pending_draw = False
            return
        move = encoding.action_to_move(action)
        if isinstance(move, Draw):
            if not rnd.is_legal(move):
                rnd.play(move)  # raises IllegalMove with the reason
            p.pending_draw = True
            return
        rnd.play(move)
        p.moves.append(move)

    def _rebuild(self, rnd: Round, tile: Tile) -> Round:
        """The same round, with ``tile`` next in the boneyard (a chance outcome).

        Replays the moves on a deal whose boneyard starts with the tiles drawn
        so far, then ``tile``: through the engine's public API only.
        """
        p = self.p
        rest = [t for t in rnd.boneyard if t is not tile]
        new = Round.from_deal(self.rules, p.dealt, [*p.draws, tile, *rest], rnd.leader)
        for move in p.moves:
            new.play(move)
        p.round = new
        return new

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            rnd = self.p.round
            if rnd is None:
                if self._dealt_count() < self.rules.players * self.rules.hand_size:
                    return f"deal {TILES[action]}"
                return f"leader {action}"
            return f"draw {TILES[action]}"
        return str(encoding.action_to_move(action))

    # -- results -------------------------------------------------------------------

    def returns(self) -> list[float]:
        rnd = self.p.round
        if rnd is None or rnd.result is None:
            return [0.0] * self.rules.players
        return returns_of(self.rules, rnd.result.points_by_side())

    def __str__(self) -> str:
        rnd = self.p.round
        if rnd is None:
            return " / ".join(" ".join(map(str, h)) for h in self.p.dealt) + " (dealing)"
        hands = " / ".join(" ".join(map(str, h)) for h in rnd.hands)
        train = "".join(map(str, rnd.train)) or "(empty)"
        moves = " ".join(str(t) for t in rnd.history)
        pending = " (drawing)" if self.p.pending_draw else ""
        return f"hands {hands} | train {train} | history {moves}{pending}"

    # -- imperfect information ------------------------------------------------------

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float] | None = None
    ) -> PassingGameState:
        """A state with ``player_id``'s information state, hidden tiles dealt anew.

        The random numbers come from ``probability_sampler`` (a callable
        returning floats in [0, 1), as OpenSpiel's samplers are).
        """
        seed = probability_sampler() if probability_sampler is not None else random.random()
        rng = random.Random(seed)
        game = self.get_game()
        rnd = self.p.round
        if rnd is None:
            return self._resample_deal(player_id, rng)
        new = state_from_round(game, sample_round(rnd.view(player_id), rng))
        if self.p.pending_draw:
            new.apply_action(encoding.DRAW_ACTION)
        return new

    def _resample_deal(self, player: int, rng: random.Random) -> PassingGameState:
        """While dealing: the player's own tiles as dealt, the others at random."""
        mine = self.p.dealt[player]
        dealt_others = [t for seat, h in enumerate(self.p.dealt) if seat != player for t in h]
        pool = [t for t in self.rules.tiles if t not in mine]
        rng.shuffle(pool)
        replacement = iter(pool[: len(dealt_others)])
        new: PassingGameState = self.get_game().new_initial_state()
        for seat, hand in enumerate(self.p.dealt):
            for tile in hand:
                new.apply_action((tile if seat == player else next(replacement)).index)
        return new


def state_from_round(game: PassingGame, rnd: Round) -> PassingGameState:
    """The OpenSpiel state of a ``Round``: its deal, leader and history replayed.

    The draws bring the tiles they brought in ``rnd``; the round's boneyard
    order is kept for the draws still to come.
    """
    state: PassingGameState = game.new_initial_state()
    state.p.plan = rnd.deal.boneyard
    for hand in rnd.deal.hands:
        for tile in hand:
            state.apply_action(tile.index)
    state.apply_action(rnd.leader)
    for turn in rnd.history:
        state.apply_action(encoding.move_to_action(turn.move))
        if turn.drawn is not None:
            state.apply_action(turn.drawn.index)
    return state


class PassingGameObserver:
    """OpenSpiel's observer interface, on top of the shared encoding.

    ``perfect_recall=False``: ``encoding.encode`` (the observation tensor);
    ``perfect_recall=True``: ``encoding.encode_information_state``. With
    ``private_info`` NONE the seat's own tiles (``hand``, ``drawn`` and the
    drawn tiles in the history) are left out (zero); with ``public_info``
    False only those are kept.
    """

    def __init__(self, rules: Rules, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observation with every player's private tiles is not offered")
        self.rules = rules
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        obs_size = encoding.observation_size(rules)
        size = encoding.information_state_size(rules) if self.perfect_recall else obs_size
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = dict(
            encoding.split(self.tensor[:obs_size], rules)
        )
        if self.perfect_recall:
            self.dict["history"] = self.tensor[obs_size:].reshape(
                rules.max_round_moves, encoding.history_row_size(rules)
            )

    def set_from(self, state: PassingGameState, player: int) -> None:
        view = state.view(player)
        if view is None:
            self.tensor.fill(0.0)
            if self.private:
                for tile in state.p.dealt[player]:
                    self.dict["hand"][tile.index] = 1.0
            return
        if self.perfect_recall:
            encoding.encode_information_state(view, self.tensor)
            if state.p.pending_draw and view.to_move is not None:
                # The draw was chosen (public); its tile is not known yet.
                n = self.rules.players
                row = self.dict["history"][len(view.history)]
                row[(view.to_move - player) % n] = 1.0
                row[n + encoding.DRAW_ACTION] = 1.0
        else:
            encoding.encode(view, self.tensor)
        if not self.private:
            self._clear_private()
        if not self.public:
            keep = {"hand": self.dict["hand"].copy(), "drawn": self.dict["drawn"].copy()}
            self.tensor.fill(0.0)
            self.dict["hand"][:] = keep["hand"]
            self.dict["drawn"][:] = keep["drawn"]
            if self.perfect_recall and self.private:
                self._own_draw_rows(view)

    def _clear_private(self) -> None:
        self.dict["hand"].fill(0.0)
        self.dict["drawn"].fill(0.0)
        if self.perfect_recall:
            start = self.rules.players + encoding.NUM_ACTIONS
            self.dict["history"][:, start:].fill(0.0)

    def _own_draw_rows(self, view: View) -> None:
        start = self.rules.players + encoding.NUM_ACTIONS
        for i, turn in enumerate(view.history):
            if turn.drawn is not None:
                self.dict["history"][i, start + turn.drawn.index] = 1.0

    def string_from(self, state: PassingGameState, player: int) -> str:
        view = state.view(player)
        if view is None:
            hand = " ".join(map(str, state.p.dealt[player])) if self.private else ""
            return f"seat {player} | dealing, {state._dealt_count()} dealt | hand {hand}"
        if not self.private:
            view = _public(view)
        text = (
            encoding.information_state_string(view)
            if self.perfect_recall
            else encoding.observation_string(view)
        )
        if state.p.pending_draw:
            text += f" | seat {view.to_move} draws"
        return text


def _public(view: View) -> View:
    """``view`` without the seat's own tiles (for ``private_info`` NONE)."""
    from dataclasses import replace

    return replace(view, hand=(), history=tuple(t.public() for t in view.history))


pyspiel.register_game(_GAME_TYPE, PassingGame)
