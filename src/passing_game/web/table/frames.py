"""What each client is sent: one seat's view of a table as JSON.

Every frame is built from ``Match.view(seat)`` (a copy holding only what
that seat may know, R9) and from finished rounds' results, which are public
once their round is over. A spectator's frame is a seat's view with the hand
and the drawn tiles taken out. Nothing here reads another hand, the
boneyard or the seed of a game that goes on.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from passing_game import l10n, words
from passing_game.i18n import N_, _, current_language, format_list
from passing_game.match import Match
from passing_game.moves import Pass, Play, parse_move
from passing_game.round import RoundResult
from passing_game.rules import LOCKED_TILES, Rules
from passing_game.tiles import Placed, Tile
from passing_game.views import Turn, View
from passing_game.web.game.model import SeatRow
from passing_game.words import Seats

l10n.install()  # the words' numbers and lists, as the visitor's language writes them

#: Bot levels and names as players read them.
LEVEL_WORDS: dict[str, str] = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
    "random": N_("random"),
    "greedy": N_("greedy"),
    "heuristic": N_("heuristic"),
    "pimc": N_("pimc"),
    "ismcts": N_("ismcts"),
}


def level_word(level: str) -> str:
    return _(LEVEL_WORDS[level]) if level in LEVEL_WORDS else level


#: The name a deleted account's seats keep, translated when shown (web/accounts/flows.py).
DELETED_NAME = N_("Deleted player")

#: How a bot seat is called, by its level or bot name.
BOT_NAMES: dict[str, str] = {
    "easy": N_("Easy bot"),
    "medium": N_("Medium bot"),
    "hard": N_("Hard bot"),
    "expert": N_("Expert bot"),
    "random": N_("Random bot"),
    "greedy": N_("Greedy bot"),
}


def seat_name(kind: str, name: str, level: str | None) -> str:
    """How a seat is called on the page: the person's name, a bot's level, or open."""
    if kind == "bot":
        key = level or name
        if key in BOT_NAMES:
            return _(BOT_NAMES[key])
        return _("Bot ({level})").format(level=level_word(key))
    if kind == "open":
        return _("Open seat")
    if name == DELETED_NAME:  # a deleted account's seat (accounts.DELETED_NAME)
        return _(DELETED_NAME)
    return name


def seat_names(rows: Sequence[SeatRow]) -> list[str]:
    """How each seat is called; two bots of one level get distinct names (A, B...)."""
    plain = [seat_name(r.kind, r.name, r.level) for r in rows]
    names = list(plain)
    for i, row in enumerate(rows):
        if row.kind != "bot":
            continue
        same = [j for j, other in enumerate(plain) if other == plain[i] and rows[j].kind == "bot"]
        if len(same) > 1:
            names[i] = _("{name} {letter}").format(name=plain[i], letter="ABCD"[same.index(i)])
    return names


def error_frame(state: int, message: str, code: str = "bad-request") -> dict[str, Any]:
    """An error for one client; ``state`` is the number of its table's last frame."""
    return {"type": "error", "state": state, "code": code, "message": message}


def joined_frame(code: str, state: int, seat: int | None, token: str | None) -> dict[str, Any]:
    """A client sits at table ``code`` (``seat`` ``None``: it watches); ``token``
    only when the seat was just taken (the page keeps it to come back)."""
    frame: dict[str, Any] = {
        "type": "joined",
        "state": state,
        "table": code,
        "seat": seat,
        "link": f"/t/{code}",
    }
    if token is not None:
        frame["token"] = token
    return frame


#: The sentence the log adds after a move its seat's player did not make.
PLAYED_BY_WORDS: dict[str, str] = {
    "timeout": N_("Time ran out: a bot made this move."),
    "stand-in": N_("A stand-in bot made this move."),
}


def turn_data(turn: Turn, played_by: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"seat": turn.seat, "move": str(turn.move)}
    if turn.drawn is not None:
        data["drawn"] = str(turn.drawn)
    if played_by is not None:
        data["auto"] = played_by
    return data


def tiles(items: Sequence[Tile]) -> list[str]:
    return [str(t) for t in items]


def summary(
    result: RoundResult,
    number: int,
    seats: Seats,
    train: Sequence[Placed] = (),
    ended_by: str | None = None,
) -> dict[str, Any]:
    """A finished round, every hand revealed, and how it was scored (R6, R7).

    ``ended_by`` marks a round whose last move a bot made for the person
    (``PLAYED_BY_WORDS``): the summary says so, as the log does.
    """
    reason = words.reason_text(result, seats)
    if ended_by in PLAYED_BY_WORDS:
        reason = f"{reason} {_(PLAYED_BY_WORDS[ended_by])}"
    return {
        "round": number,
        "train": [[p.left, p.right] for p in train],
        "reason": result.reason,
        "reason_text": reason,
        "hands": [tiles(hand) for hand in result.hands],
        "pips": list(result.pips),
        "side_pips": list(result.side_pips),
        "winner": result.winner,
        "points": result.points,
        "points_by_side": list(result.points_by_side()),
        "locked": tiles(result.locked),
        "lines": words.scoring_lines(result, seats),
    }


@functools.lru_cache(maxsize=256)
def _rules_dict(rules: Rules) -> dict[str, Any]:
    return rules.to_dict()


class FrameCache:
    """What a table's frames share from one move to the next.

    Within a round a viewer's history only grows, so its JSON turns and its
    log sentences are extended, not rebuilt; a finished round's summary and
    the score pad never change. Keys hold the game, the round and the seat
    names, so nothing stale is ever reused.
    """

    def __init__(self) -> None:
        self._logs: dict[tuple[int | None, str], _Log] = {}
        self._summaries: dict[tuple[Any, ...], dict[str, Any]] = {}
        self._pads: dict[tuple[int, int, str], list[dict[str, Any]]] = {}
        self._names: dict[tuple[Any, ...], list[str]] = {}
        self._sides: dict[tuple[Any, ...], list[str]] = {}

    def names(self, rows: Sequence[SeatRow]) -> list[str]:
        """``seat_names(rows)``, worked out once per seating and language."""
        key = (*((r.kind, r.name, r.level) for r in rows), current_language())
        found = self._names.get(key)
        if found is None:
            if len(self._names) > 8:
                self._names.clear()
            found = self._names[key] = seat_names(rows)
        return found

    def sides(self, seats: Seats) -> list[str]:
        """``side_names`` for ``seats``, worked out once per seating, reader and language."""
        key = (seats.rules, seats.names, seats.human, current_language())
        found = self._sides.get(key)
        if found is None:
            if len(self._sides) > 8:
                self._sides.clear()
            found = self._sides[key] = side_names(seats, seats.rules.sides)
        return found

    def history(
        self,
        viewer: int | None,
        key: tuple[Any, ...],
        history: Sequence[Turn],
        seats: Seats,
        played_by: Sequence[str | None] = (),
    ) -> tuple[list[dict[str, Any]], list[str]]:
        """The round's turns and log sentences; ``played_by`` marks each turn's mover."""
        slot = (viewer, current_language())  # the log's sentences are in one language
        entry = self._logs.get(slot)
        if entry is None or entry.key != key or len(history) < len(entry.turns):
            entry = self._logs[slot] = _Log(key)
        for index in range(len(entry.turns), len(history)):
            turn = history[index]
            by = played_by[index] if index < len(played_by) else None
            led = turn.placed is not None and not entry.played
            if turn.placed is not None:
                entry.played = True
            entry.turns.append(turn_data(turn, by))
            line = words.describe_turn(turn, seats, led=led)
            if by in PLAYED_BY_WORDS:
                line = f"{line} {_(PLAYED_BY_WORDS[by])}"
            entry.lines.append(line)
        return list(entry.turns), list(entry.lines)

    def summary(
        self,
        viewer: int | None,
        key: tuple[Any, ...],
        match: Match,
        seats: Seats,
        ended_by: str | None = None,
    ) -> dict[str, Any]:
        full = (viewer, current_language(), *key)
        found = self._summaries.get(full)
        if found is None:
            number = len(match.results)
            train = match.rounds[number - 1].train
            found = summary(match.results[-1], number, seats, train, ended_by)
            if len(self._summaries) > 64:
                self._summaries.clear()
            self._summaries[full] = found
        return found

    def pad(self, key: tuple[int, int], finished: Sequence[RoundResult]) -> list[dict[str, Any]]:
        found = self._pads.get((*key, current_language()))
        if found is None:
            found = [
                {
                    "round": i + 1,
                    "points": list(r.points_by_side()),
                    "reason": r.reason,
                    "reason_word": words.reason_word(r.reason),
                    "winner": r.winner,
                }
                for i, r in enumerate(finished)
            ]
            if len(self._pads) > 8:
                self._pads.clear()
            self._pads[(*key, current_language())] = found
        return found


class _Log:
    """One viewer's turns and sentences so far in one round."""

    def __init__(self, key: tuple[Any, ...]) -> None:
        self.key = key
        self.turns: list[dict[str, Any]] = []
        self.lines: list[str] = []
        #: Whether a tile was laid yet: the first play of a round is its lead.
        self.played = False


def side_names(seats: Seats, sides: int) -> list[str]:
    return [seats.side_short(side) for side in range(sides)]


def state_frame(
    match: Match,
    viewer: int | None,
    *,
    code: str,
    state: int,
    game: int,
    seat_rows: Sequence[dict[str, Any]],
    started: bool,
    paused: bool,
    waiting: Sequence[int],
    cache: FrameCache | None = None,
    played_by: Sequence[str | None] = (),
    holding: bool = False,
    ended_by: str | None = None,
) -> dict[str, Any]:
    """The whole table as ``viewer`` may see it; ``None`` is a spectator.

    ``ended_by`` says who made the last finished round's last move, when a
    bot made it for the person (the summary credits the bot).

    ``seat_rows`` are the seats' public facts (name, kind, level, connected).
    ``cache`` (one per table) keeps what earlier frames already worked out.
    ``played_by`` marks the current round's moves a bot made for a person;
    ``holding`` is true while a stand-in plays the viewer's seat (the viewer
    may not move then).
    """
    rules = match.rules
    own: View = match.view(0 if viewer is None else viewer)
    names = tuple(str(row["name"]) for row in seat_rows)
    seats = Seats(rules, names, human=viewer)
    if viewer is None:
        history = tuple(t.public() for t in own.history)
        hand: list[str] = []
    else:
        history = own.history
        hand = tiles(own.hand)
    cache = cache if cache is not None else FrameCache()
    turns, log = cache.history(viewer, (game, match.round_number, names), history, seats, played_by)
    last: dict[str, Any] | None = None
    if history:
        turn = history[-1]
        last = dict(turns[-1])
        if isinstance(turn.move, Play):
            last["index"] = (
                0 if turn.move.end == "left" or len(own.train) == 1 else len(own.train) - 1
            )
    over = match.is_over
    my_turn = (
        viewer is not None
        and started
        and not over
        and own.is_my_turn
        and not waiting
        and not holding
    )
    legal = [str(m) for m in own.legal_moves()] if my_turn else []
    # A pass that would end the round deserves a warning first (issue 11).
    pass_ends_round = "pass" in legal and _pass_ends_round(match)
    finished = match.results
    last_summary = None
    if over and match.round.result is None:
        # Resigned mid-round: the summary is of the game's end, not of a round before.
        last_summary = ended_summary(match, seats)
    elif finished:
        key = (game, len(finished), names, ended_by)
        last_summary = cache.summary(viewer, key, match, seats, ended_by)
    pad = cache.pad((game, len(finished)), finished)
    to_move = None if over else own.to_move
    frame: dict[str, Any] = {
        "type": "state",
        "state": state,
        "table": code,
        "game": game,
        "you": viewer,
        "spectator": viewer is None,
        "rules": _rules_dict(rules),
        "started": started,
        "paused": paused,
        "waiting": list(waiting),
        "over": over,
        "winner": match.winner,
        "seats": [
            {**row, "tiles": own.hand_sizes[i], "side": rules.side_of(i), "you": i == viewer}
            for i, row in enumerate(seat_rows)
        ],
        "sides": cache.sides(seats),
        "scores": list(match.scores),
        "target": rules.target,
        "round": {
            "number": match.round_number,
            "train": [[p.left, p.right] for p in own.train],
            "ends": list(own.ends) if own.ends is not None else None,
            "leader": own.leader,
            "to_move": to_move,
            "boneyard": own.boneyard_size,
            "drawable": max(0, own.boneyard_size - LOCKED_TILES),
            "locked": min(own.boneyard_size, LOCKED_TILES),
            "hand": hand,
            "pips": sum(t.pips for t in own.hand) if viewer is not None else 0,
            "legal": legal,
            "can_draw": "draw" in legal,
            "can_pass": "pass" in legal,
            "pass_ends_round": pass_ends_round,
            "history": turns,
            "log": log,
            "last": last,
            "passes": own.passes_in_row,
        },
        "pad": pad,
        "summary": last_summary,
        "status": (
            _("A stand-in bot plays for you. Take your seat back when you are ready.")
            if holding and not over
            else status_text(
                match, viewer, seats, started=started, paused=paused, code=code, waiting=waiting
            )
        ),
    }
    return frame


def ended_summary(match: Match, seats: Seats) -> dict[str, Any]:
    """The summary of a game resigned in the middle of a round: the position it
    ended in, every hand revealed, and who resigned (P25, P41)."""
    rnd = match.round
    hands = [rnd.view(seat).hand for seat in range(match.rules.players)]
    quitter = match.resigned
    if quitter is not None and seats.is_you(quitter):
        text = _("You resigned in round {n}: the game ends here.").format(n=match.round_number)
    else:
        who = seats.label(quitter) if quitter is not None else "?"
        text = _("{player} resigned in round {n}: the game ends here.").format(
            player=who, n=match.round_number
        )
    pips = [sum(t.pips for t in hand) for hand in hands]
    sides = match.rules.sides
    side_pips = [
        sum(p for seat, p in enumerate(pips) if match.rules.side_of(seat) == side)
        for side in range(sides)
    ]
    return {
        "round": match.round_number,
        "train": [[p.left, p.right] for p in rnd.train],
        "reason": "resigned",
        "reason_text": text,
        "hands": [tiles(hand) for hand in hands],
        "pips": pips,
        "side_pips": side_pips,
        "winner": match.winner,
        "points": 0,
        "points_by_side": [0] * sides,
        "locked": [],
        "lines": [],
    }


def _pass_ends_round(match: Match) -> bool:
    """Whether a pass by the seat to move would end the round (D3, R6.2).

    Only public facts decide it (the passes in a row, the ends, the
    boneyard's size), so telling the player leaks nothing.
    """
    trial = match.round.copy()
    trial.play(Pass())
    return trial.is_over


def status_text(
    match: Match,
    viewer: int | None,
    seats: Seats,
    *,
    started: bool,
    paused: bool,
    code: str,
    waiting: Sequence[int],
) -> str:
    """One sentence: whose turn it is, or what the table waits for."""
    if match.is_over:
        winner = match.winner
        assert winner is not None
        if seats.side_is_you(winner):
            return _("You win the game!")
        return _("{side} wins the game.").format(side=seats.side_label(winner))
    if not started:
        return _("Waiting for players: share the code {code}.").format(code=code)
    if paused:
        if viewer is not None and viewer in waiting:
            return _("Round {n} is over. Continue when you are ready.").format(n=len(match.results))
        who = format_list([seats.label(s, in_sentence=True) for s in waiting])
        return _("Round {n} is over. Waiting for {players}.").format(
            n=len(match.results), players=who
        )
    to_move = match.round.to_move
    if to_move is None:
        return ""
    if to_move == viewer:
        return _("Your turn.")
    return _("{player} is to move.").format(player=seats.label(to_move))


def decision_words(move_text: str) -> str:
    """A move sent as text, as a decision made (the analysis' "Played", "The expert's choice")."""
    return words.move_words(parse_move(move_text), decided=True)
