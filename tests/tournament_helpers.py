"""What the tournament tests share (not collected: no test_ prefix): a tournament made
in the store, and a stored table's game played out by bots and kept as the server
keeps it; the points a replay of the stored records gives."""

from __future__ import annotations

import json
from typing import Any

from passing_game import Match, Rules, load_record
from passing_game.bots import make
from passing_game.records import dump_record
from passing_game.web.store import Store
from passing_game.web.tournament import director

NOW = 1_800_000_000.0


def new_event(store: Store, kind: str, **settings: object) -> str:
    given = {"kind": kind, "name": f"Test {kind}", "starts": NOW + 60, **settings}
    event = director.parse_settings(given, creator="u-ana", now=NOW)
    director.create(store, event, NOW)
    return event.id


def play_out(store: Store, code: str, level: str = "greedy") -> Match:
    """The table's match, played to its end by bots from the stored seed, kept."""
    table = store.load_table(code)
    assert table is not None and not table.finished
    match = Match(Rules.from_dict(table.rules), table.seed)
    bots = [make(level, seed=f"{code}/{s}") for s in range(match.rules.players)]
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        match.play(bots[seat].choose(match.view(seat)))
    store.finish_game(code, 1, dump_record(match))
    return match


def replayed_points(store: Store, seen: dict[str, Any]) -> dict[str, int]:
    """Swiss points (2 a win, 1 a tie, 2 a bye) of every line, from the stored records
    read again by the engine: each side's final score, sides by seat (seat % sides)."""
    points = {line["name"]: 0 for line in seen["standings"]}
    for table in seen["tables"]:
        if table.get("bye"):
            points[table["seats"][0]] += 2
            continue
        if not table["finished"]:
            continue
        scores = load_record(json.loads(store.game_record(table["code"], 1) or "")).scores
        sides = len(scores)
        for seat, name in enumerate(table["seats"]):
            if name is None:
                continue
            mine = scores[seat % sides]
            best_other = max(p for side, p in enumerate(scores) if side != seat % sides)
            got = 2 if mine > best_other else 1 if mine == best_other else 0
            points[name] += 0 if name in table["forfeited"] else got
    return points


def progress(frame: dict[str, Any]) -> tuple[int, int]:
    return (frame["round"]["number"], len(frame["round"]["history"]))


def play_own(person: Any, seat: int, timeout: float = 30) -> dict[str, Any]:
    """A person (``cluster_helpers.Person``) plays their own seat to the game's end:
    the first legal move each turn, the round's summary closed; the last frame.
    Whoever else sits there (a bot, a stand-in, another person) moves meanwhile."""
    frame = person.now(lambda f: f["started"], timeout=timeout)
    for _ in range(5000):
        if frame["over"]:
            return frame
        if frame["paused"] and seat in frame["waiting"]:
            person.send(type="continue")
            frame = person.state(lambda f: seat not in f["waiting"] or f["over"], timeout)
            continue
        if frame["round"]["to_move"] == seat and frame["round"]["legal"]:
            at = progress(frame)
            person.act(frame["round"]["legal"][0])
            frame = person.state(
                lambda f, at=at: progress(f) != at or f["over"] or f["paused"], timeout
            )
            continue
        frame = person.state(timeout=timeout)
    raise AssertionError("the game did not end")
