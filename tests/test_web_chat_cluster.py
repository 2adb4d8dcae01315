"""A table's chat across three server processes on one PostgreSQL (issue 27, item 1; P58).

Ana sits through process 1 (which leads the table), Bob (reading Galician)
through process 3, two guests watch through processes 2 and 3. A message said
on one process reaches the readers on the others, each preset in the reader's
language; a spectator's message never reaches a player while the game is on;
a mute filters where it is delivered; a moderator's mute (``passing-game admin
chat mute``, no bus) is refused on whichever process the account writes
through; a moderator's delete leaves the open pages of every process.
"""

from __future__ import annotations

import time
from typing import Any

from click.testing import CliRunner

from cluster_helpers import Browser, Person, start, stop
from passing_game.cli import main

PASSWORD = "correct horse battery"


class Reader:
    """A person's socket that keeps every chat message it was sent."""

    def __init__(self, person: Person) -> None:
        self.person = person
        self.seen: list[dict[str, Any]] = []

    def send(self, **message: Any) -> None:
        self.person.send(**message)

    def until(self, pred: Any, timeout: float = 20) -> dict[str, Any]:
        def keep(f: dict[str, Any]) -> bool:
            if f["type"] == "chat":
                self.seen.extend(f["messages"])
            return bool(pred(f))

        return self.person.until(keep, timeout)

    def message(self, pred: Any, timeout: float = 20) -> dict[str, Any]:
        frame = self.until(
            lambda f: f["type"] == "chat" and any(pred(m) for m in f["messages"]), timeout
        )
        return next(m for m in frame["messages"] if pred(m))

    def joined(self) -> dict[str, Any]:
        return self.until(lambda f: f["type"] == "joined")


def test_a_table_chat_on_three_processes(pg_url: str, tmp_path: Any) -> None:
    one, two, three = start(pg_url, tmp_path, 3, bot_delay=0.05)
    try:
        ana_web, bob_web = Browser(one), Browser(three)
        ana_web.post("/api/account/signup", {"name": "Ana", "password": PASSWORD})
        bob_web.post("/api/account/signup", {"name": "Bob", "password": PASSWORD})
        ana = Reader(ana_web.socket())
        ana.send(type="create", name="Ana", seats=["you", "person"], rules={"players": 2})
        code = ana.joined()["table"]
        bob = Reader(bob_web.socket(three, "gl"))  # Bob reads Galician, as his page asks
        bob.send(type="join", code=code, name="Bob")
        bob.joined()
        cy, dee = Reader(Person(two.port)), Reader(Person(three.port))
        for guest in (cy, dee):
            guest.send(type="watch", code=code)
            guest.joined()
            guest.send(type="chat_history")
            guest.until(lambda f: f["type"] == "chat" and f.get("history"))
        ana.person.now(lambda f: f["started"])

        # Said on process 1: read on 2 and 3, each in the reader's language.
        ana.send(type="say", preset="rematch")
        assert ana.message(lambda m: m["preset"] == "rematch")["mine"]
        assert bob.message(lambda m: m["preset"] == "rematch")["text"] == "Revancha"
        assert cy.message(lambda m: m["preset"] == "rematch")["text"] == "Rematch"
        said = dee.message(lambda m: m["preset"] == "rematch")
        assert said["name"] == "Ana" and not said["mine"]

        # A spectator's message (process 2) reaches the other spectator (process 3),
        # never the players while the game is on, neither live nor in the history.
        cy.send(type="say", preset="oops")
        assert dee.message(lambda m: m["preset"] == "oops")["channel"] == "spectators"
        time.sleep(0.5)
        bob.send(type="say", preset="thanks")
        ana.message(lambda m: m["preset"] == "thanks")
        bob.message(lambda m: m["preset"] == "thanks")
        for player in (ana, bob):
            assert all(m["preset"] != "oops" for m in player.seen)
            player.send(type="chat_history")
            shown = player.until(lambda f: f["type"] == "chat" and f.get("history"))
            assert [m["preset"] for m in shown["messages"]] == ["rematch", "thanks"]

        # Bob (process 3) mutes Ana: her next message reaches Dee on process 3, not Bob.
        bob.send(type="chat_mute", message=said["id"])
        bob.until(lambda f: f["type"] == "chat_muted")
        ana.send(type="say", text="hello from one")
        assert dee.message(lambda m: m["text"] == "hello from one")["name"] == "Ana"
        bob.send(type="say", preset="bye")
        bob.message(lambda m: m["preset"] == "bye")
        assert all(m["text"] != "hello from one" for m in bob.seen)
        greeting = cy.message(lambda m: m["text"] == "hello from one")

        # A moderator (no bus) mutes Bob: refused on process 3 as on any other.
        runner = CliRunner()
        admin = ["admin", "--db", pg_url, "--actor", "mod", "chat"]
        done = runner.invoke(main, [*admin, "mute", "Bob", "--for", "1h", "--reason", "spam"])
        assert done.exit_code == 0, done.output
        bob.send(type="say", preset="sorry")
        refused = bob.until(lambda f: f["type"] == "error")
        assert refused["code"] == "chat-muted"
        bob_on_one = Reader(bob_web.socket(one))
        bob_on_one.send(type="watch", code=code)
        bob_on_one.joined()
        bob_on_one.send(type="say", preset="sorry")
        assert bob_on_one.until(lambda f: f["type"] == "error")["code"] == "chat-muted"

        # Cy (a guest, process 2) reports Ana's text; the moderator sees it with its
        # context and deletes it: it leaves the open pages of processes 2 and 3.
        cy.send(type="chat_report", message=greeting["id"])
        cy.until(lambda f: f["type"] == "chat_reported")
        shown = runner.invoke(main, [*admin, "reports"])
        assert shown.exit_code == 0 and "hello from one" in shown.output
        gone = runner.invoke(main, [*admin, "delete", str(greeting["id"]), "--reason", "test"])
        assert gone.exit_code == 0, gone.output
        for reader in (cy, dee):
            frame = reader.until(lambda f: f["type"] == "chat_deleted", timeout=15)
            assert frame["ids"] == [greeting["id"]]
            reader.send(type="chat_history")
            again = reader.until(lambda f: f["type"] == "chat" and f.get("history"))
            assert greeting["id"] not in [m["id"] for m in again["messages"]]
    finally:
        stop([one, two, three])
