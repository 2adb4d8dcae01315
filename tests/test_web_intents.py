"""Each intent is routed once (issue 23): ``intents.ROUTES`` against ``protocol.SCHEMA``.

The schema says what an intent may hold (``parse_intent``); its route says
what this process does with it and whether the table's leader carries it
out. An intent with a schema but no route would be accepted and then lost;
a route without a schema could never be reached.
"""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from passing_game.web.intents import ROUTES, Route
from passing_game.web.protocol import SCHEMA


def test_every_intent_type_has_exactly_one_route_and_every_route_a_schema() -> None:
    assert sorted(ROUTES) == sorted(SCHEMA)
    for kind, route in ROUTES.items():
        assert route.schema is SCHEMA[kind], kind


def test_every_route_does_something() -> None:
    """A route has a handler here, or is carried out by the table's leader."""
    for kind, route in ROUTES.items():
        assert route.handler is not None or route.leader, kind
    with pytest.raises(ValueError):
        Route(SCHEMA["sync"])


def test_the_intents_that_change_a_table_go_to_its_leader() -> None:
    """The leader-or-not decision is the route's: what changes a table is the
    leader's, what only reads or seats a watcher is not."""
    leader = {kind for kind, route in ROUTES.items() if route.leader}
    assert leader == {
        "join",
        "play",
        "draw",
        "pass",
        "hint",
        "continue",
        "rematch",
        "leave",
        "back",
        "resign",
        "invite",
        "hand_over",
        "contribute",
    }
    # Only the leader's part: the lobby sends these on as they are.
    plain = {kind for kind, route in ROUTES.items() if route.handler is None}
    assert plain == leader - {"join", "hint", "invite"}
