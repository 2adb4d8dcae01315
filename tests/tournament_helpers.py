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
