"""The bots connected to one server process, and their poll (P62).

Nothing about a bot lives only here: its token, its owner, its seats and its
challenges are in the store, and so is quick play's queue. Once a second
(and at once when a bot says something that calls for it) the hub reads, in
one transaction for all its bots (``service.hub_read``):

- each bot as stored now: a revoked or replaced token, a suspended bot or
  owner, a deleted account, or another socket of the bot (``link``) closes
  this socket, with a ``closed`` line saying why;
- the seats the bots hold at games not over: a table the bot is not sitting
  at yet is joined (``BotLink.attach``), whichever process made it (a
  challenge accepted, quick play, a game from before this socket); a table
  whose game ended a while ago is let go of;
- the challenges waiting for them: each new one is offered (``challenge``),
  and one no longer open is said to be over (``challenge_over``).

A bot that seeks quick play has a row in the queue like a waiting person
(``Ticket.bots`` ``A_BOT``), kept alive by this poll; a match made here is
led here (``QuickPlay.made``), and the bot's seat is found as any other.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from passing_game.bots import protocol
from passing_game.i18n import using_language
from passing_game.web.botapi import service
from passing_game.web.botapi.link import BotLink
from passing_game.web.botapi.model import MOST_GAMES
from passing_game.web.protocol import ProtocolError, parse_rules
from passing_game.web.quickplay.matching import (
    A_BOT,
    QueueRefused,
    enter_queue,
    forget_tickets,
    leave_queue,
    poll_queue,
)
from passing_game.web.social import model as social_model
from passing_game.web.social import service as social
from passing_game.web.social.model import SocialError
from passing_game.web.store import hash_token
from passing_game.web.store.bots import BotRow
from passing_game.web.store.rows import Ticket
from passing_game.web.store.social import ChallengeRow
from passing_game.web.table.conn import Conn

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from passing_game.web.lobby import Lobby

log = logging.getLogger("passing_game.web")

#: How often the hub reads the store for its bots.
POLL_SECONDS = 1.0
#: How long a table whose game ended stays joined (a rematch may come).
LINGER_SECONDS = 60.0


class BotHub:
    """This process's bot sockets (``BotLink``), and their poll of the store."""

    def __init__(self, lobby: Lobby, rate: tuple[float, float] = (20.0, 40.0)) -> None:
        self.lobby = lobby
        #: The lines a second each bot may send, and its burst (the pages' ``--rate-limit``).
        self.lobby_rate = rate
        self.links: dict[str, BotLink] = {}
        self.poll_every = POLL_SECONDS
        self._wake = asyncio.Event()
        self._task: asyncio.Task[Any] | None = None

    @classmethod
    def of(cls, app: Starlette) -> BotHub:
        """The application's hub, made with its first bot socket."""
        hub: BotHub | None = getattr(app.state, "bot_hub", None)
        if hub is None or hub.lobby is not app.state.lobby:
            hub = app.state.bot_hub = cls(app.state.lobby, app.state.rate_limit)
        return hub

    def add(self, link: BotLink) -> None:
        old = self.links.get(link.bot.id)
        if old is not None:
            old.close("replaced")
        self.links[link.bot.id] = link
        self.online(link.wire, True)
        if self._task is None or self._task.done():
            self._task = self.lobby.spawn(self._run())
        self.poke()

    def remove(self, link: BotLink) -> None:
        self.online(link.wire, False)
        if self.links.get(link.bot.id) is link:
            del self.links[link.bot.id]
        lobby = self.lobby
        if link.ticket is not None:
            lobby.spawn(lobby.db.run(leave_queue, lobby.store, link.ticket.ticket))
            link.ticket = None
        lobby.spawn(lobby.db.run(service.logout, lobby.store, link.bot.id, link.nonce, time.time()))

    def online(self, conn: Conn, on: bool) -> None:
        """The bot is online (at a table, or at none) for whoever follows it (P59)."""
        if on:
            self.lobby.sessions.conns.add(conn)
        else:
            self.lobby.sessions.conns.discard(conn)

    def poke(self) -> None:
        self._wake.set()

    async def _run(self) -> None:
        while self.links and not self.lobby.closing:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_every)
            self._wake.clear()
            try:
                await self.tick()
            except Exception:
                log.exception("could not read the store for the bots")
        for link in list(self.links.values()):
            link.close("server")

    async def tick(self) -> None:
        """One look at the store for every bot connected here."""
        links = dict(self.links)
        if not links:
            return
        now = time.time()
        read = await self.lobby.db.run(service.hub_read, self.lobby.store, list(links), now)
        for bot_id, link in links.items():
            why = _closing(read.bots.get(bot_id), link)
            if why is not None:
                link.close(why)
                continue
            link.bot = read.bots[bot_id]
        held: dict[str, set[str]] = {}
        for bot_id, code, seat in read.seats:
            held.setdefault(bot_id, set()).add(code)
            found = links.get(bot_id)
            if found is not None and found.hello and not found.closed and code not in found.games:
                self.lobby.spawn(found.attach(code, seat))
        for bot_id, link in links.items():
            if link.closed or not link.hello:
                continue
            self._let_go(link, held.get(bot_id, set()))
            self._offer(link, read.challenges.get(bot_id, []), now)
            await self._seek(link, now)

    def _let_go(self, link: BotLink, held: set[str]) -> None:
        """Stand up from tables whose game ended a while ago (no rematch came)."""
        late = time.monotonic() - LINGER_SECONDS
        for code, relay in list(link.games.items()):
            if code not in held and relay.ended_at is not None and relay.ended_at < late:
                del link.games[code]
                relay.close()

    def _offer(self, link: BotLink, rows: list[ChallengeRow], now: float) -> None:
        open_ids = {row.id for row in rows}
        for row in rows:
            if row.id not in link.offered:
                link.offered.add(row.id)
                link.send(challenge_line(row, link.bot.id, now))
        for gone in sorted(link.offered - open_ids):
            link.offered.discard(gone)
            link.send({"type": "challenge_over", "id": gone})

    async def answer_challenge(self, link: BotLink, challenge: str, accept: bool) -> None:
        """The bot accepts (its seat at the new table is taken at once) or declines."""
        lobby, now = self.lobby, time.time()
        if accept and len(link.games) >= MOST_GAMES:
            said = f"a bot plays at most {MOST_GAMES} games at once"
            link.send(protocol.site_error("too-many-games", said, challenge=challenge))
            return

        def worded() -> Any:
            with using_language(link.language):
                if accept:
                    return social.accept(lobby.store, link.bot.id, challenge, now)
                return social.answer(lobby.store, link.bot.id, challenge, "decline", now)

        try:
            done = await lobby.db.run(worded)
        except SocialError as exc:
            link.send(protocol.site_error(exc.code, str(exc), challenge=challenge))
            return
        link.offered.discard(challenge)
        if not accept:
            link.send({"type": "challenge_over", "id": challenge, "status": "declined"})
            return
        code, seat = done
        log.info("a bot accepted a challenge", extra={"table": code, "event": "bot-accepted"})
        await lobby.cluster.claim(code)  # as a person's accept: this process leads it
        await lobby.get(code)
        link.send({"type": "challenge_over", "id": challenge, "status": "accepted", "table": code})
        await link.attach(code, seat)

    async def _seek(self, link: BotLink, now: float) -> None:
        """Quick play for a bot that seeks it: its row entered, kept alive, its seat found."""
        lobby, ticket = self.lobby, link.ticket
        wanted = link.seek
        if ticket is not None and (wanted is None or (ticket.players, ticket.rated) != wanted):
            link.ticket = None
            await lobby.db.run(leave_queue, lobby.store, ticket.ticket)
            ticket = None
        if wanted is None:
            return
        if ticket is None:
            if len(link.games) >= MOST_GAMES or _quick_under_way(link):
                return  # one quick game at a time, as for a person
            made = Ticket(
                secrets.token_urlsafe(18),
                *(wanted[0], wanted[1], link.bot.id, link.bot.name),
                hash_token(secrets.token_urlsafe(24)),  # the seat is the account's
                now,
                A_BOT,
            )
            try:
                seated, _waiting = await lobby.db.run(enter_queue, lobby.store, made, now)
            except QueueRefused:
                return  # it waits or plays elsewhere: the next poll tries again
            if seated is None:
                link.ticket = made
                return
            await lobby.db.run(forget_tickets, lobby.store, [made.ticket])
            await lobby.quick.made(seated)
            self.poke()
            return
        found, _counts = await lobby.db.run(poll_queue, lobby.store, [ticket.ticket], now)
        spot = found.get(ticket.ticket)
        if spot is None or spot[0] is not None:
            link.ticket = None  # dropped (entered again next time), or seated: found next
            if spot is not None:
                await lobby.db.run(forget_tickets, lobby.store, [ticket.ticket])
                self.poke()


def _quick_under_way(link: BotLink) -> bool:
    return any(
        relay.table is not None and relay.table.origin == "quick" and relay.ended_at is None
        for relay in link.games.values()
    )


def _closing(row: BotRow | None, link: BotLink) -> str | None:
    """Why the store says this socket ends (``link.CLOSED_WORDS``'s keys), or ``None``."""
    if row is None:
        return "deleted"
    if row.suspended or row.owner_out:
        return "suspended"
    if not row.token or row.token_hash != link.token_hash:
        return "revoked"
    if row.link != link.nonce:
        return "replaced"
    return None


def challenge_line(row: ChallengeRow, bot_id: str, now: float) -> dict[str, Any]:
    """A challenge as a bot is told of it: the page's facts and the table's whole rules."""
    told = social_model.challenge_json(row, bot_id, now)
    for key in ("incoming", "to", "status"):
        told.pop(key, None)
    try:
        rules: dict[str, Any] | None = parse_rules(row.settings.get("rules")).to_dict()
    except ProtocolError:
        rules = None
    return {"type": "challenge", **told, "rules": rules}


__all__ = ["LINGER_SECONDS", "POLL_SECONDS", "BotHub", "challenge_line"]
