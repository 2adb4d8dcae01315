"""Bot accounts in the store: made, listed, their tokens replaced or revoked (P62).

Each function is one transaction on a ``Store``, run off the event loop
(``AsyncStore.run``); a refusal is a ``BotRefused`` worded in the current
language and changes nothing. A bot account is made with the names' rules of
every account (``accounts.flows.insert_account``: length, look-alikes,
reserved names, taken), in the transaction that keeps its bot row: there is
never an account without its owner. Its token is returned once and only its
SHA-256 is kept (``accounts.flows.hash_secret``).

``hub_read`` is what each process's hub (``botapi/hub.py``) reads every
second for the bots connected to it: the bots as stored now (revoked,
suspended, taken over by another socket), the seats they hold at games
not over, and the challenges waiting for them.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from passing_game.i18n import N_, _, ngettext
from passing_game.web.accounts.flows import (
    User,
    check_user_name,
    hash_secret,
    insert_account,
    name_key,
)
from passing_game.web.botapi.model import MOST_BOTS, RECENT_SECONDS, new_token
from passing_game.web.protocol import ProtocolError
from passing_game.web.store import bots as bot_rows
from passing_game.web.store import social as social_rows
from passing_game.web.store.bots import BotRow
from passing_game.web.store.social import ChallengeRow

if TYPE_CHECKING:
    from passing_game.web.store import Store

NO_SUCH_BOT = N_("You have no bot account called {name}.")
NOT_FOR_BOTS = N_("A bot account cannot make bot accounts.")


class BotRefused(ProtocolError):
    """A refused request about a bot account; ``str(exc)`` is shown to its owner."""

    def __init__(self, message: str, code: str, status: int = 400) -> None:
        super().__init__(message, code)
        self.status = status


def bot_json(row: BotRow, now: float) -> dict[str, Any]:
    """A bot account as its owner's page shows it (never its token, which is not kept)."""
    return {
        "name": row.name,
        "created": row.created,
        "token": row.token,
        "token_made": row.token_made,
        "suspended": row.suspended,
        "held": row.held,
        "connected": row.link is not None and (row.seen or 0) > now - RECENT_SECONDS,
        "seen": row.seen,
    }


def create(
    store: Store, owner_id: str, name: object, now: float, address_hash: str
) -> tuple[dict[str, Any], str]:
    """A new bot account of ``owner_id`` called ``name``: its JSON and its token."""
    checked = check_user_name(name)
    token = new_token()
    with store.transaction() as tx:
        if bot_rows.bot(tx, owner_id) is not None:
            raise BotRefused(_(NOT_FOR_BOTS), "bot-owner", 403)
        count = bot_rows.count_of(tx, owner_id)
        if count >= MOST_BOTS:
            raise BotRefused(
                ngettext(
                    "You have {n} bot account already: that is the most.",
                    "You have {n} bot accounts already: that is the most.",
                    count,
                ).format(n=count),
                "too-many-bots",
            )
        user = User(secrets.token_hex(8), checked, now)
        insert_account(tx, user, None, address_hash)
        bot_rows.insert_bot(tx, user.id, owner_id, hash_secret(token), now)
        row = bot_rows.bot(tx, user.id)
    assert row is not None
    return bot_json(row, now), token


def listing(store: Store, owner_id: str, now: float) -> list[dict[str, Any]]:
    """The owner's bot accounts, oldest first."""
    with store.transaction() as tx:
        return [bot_json(row, now) for row in bot_rows.bots_of(tx, owner_id)]


def _owned(store_rows: list[BotRow], name: object) -> BotRow:
    typed = name.strip() if isinstance(name, str) else ""
    for row in store_rows:
        if typed and name_key(row.name) == name_key(typed):
            return row
    raise BotRefused(_(NO_SUCH_BOT).format(name=typed[:40] or "?"), "no-such-bot", 404)


def replace_token(
    store: Store, owner_id: str, name: object, now: float
) -> tuple[dict[str, Any], str]:
    """A new token for the owner's bot: the old one stops working (its sockets close
    within seconds, on every process); the bot's JSON and the new token."""
    token = new_token()
    with store.transaction() as tx:
        row = _owned(bot_rows.bots_of(tx, owner_id), name)
        bot_rows.set_token(tx, row.id, hash_secret(token), now)
        found = bot_rows.bot(tx, row.id)
    assert found is not None
    return bot_json(found, now), token


def revoke(store: Store, owner_id: str, name: object, now: float) -> dict[str, Any]:
    """No token works for the owner's bot any more (until a new one is made)."""
    with store.transaction() as tx:
        row = _owned(bot_rows.bots_of(tx, owner_id), name)
        bot_rows.set_token(tx, row.id, None, now)
        found = bot_rows.bot(tx, row.id)
    assert found is not None
    return bot_json(found, now)


def login(store: Store, token: str, link: str, now: float) -> BotRow | None:
    """The bot whose token this is, if it may play; its socket is ``link`` from now
    (another socket of the bot, on any process, is taken over)."""
    with store.transaction() as tx:
        row = bot_rows.by_token(tx, hash_secret(token))
        if row is None or not row.usable:
            return row
        bot_rows.set_link(tx, row.id, link, now)
        return bot_rows.bot(tx, row.id)


def logout(store: Store, bot_id: str, link: str, now: float) -> None:
    """The socket ``link`` closed."""
    with store.transaction() as tx:
        bot_rows.drop_link(tx, bot_id, link, now)


@dataclass(frozen=True)
class HubRead:
    """What a hub reads each second for the bots connected to its process."""

    #: Each bot as stored now (missing: deleted).
    bots: dict[str, BotRow]
    #: (bot, table code, seat) of their seats at games not over.
    seats: list[tuple[str, str, int]]
    #: The challenges open for each bot.
    challenges: dict[str, list[ChallengeRow]]


def hub_read(store: Store, bot_ids: list[str], now: float) -> HubRead:
    with store.transaction() as tx:
        bots = bot_rows.linked(tx, bot_ids, now)
        seats = bot_rows.seats_at_play(tx, bot_ids)
        challenges = {
            bot: social_rows.open_challenges(tx, bot, now, incoming=True) for bot in bot_ids
        }
    return HubRead(bots, seats, challenges)


__all__ = [
    "NOT_FOR_BOTS",
    "NO_SUCH_BOT",
    "BotRefused",
    "HubRead",
    "bot_json",
    "create",
    "hub_read",
    "listing",
    "login",
    "logout",
    "replace_token",
    "revoke",
]
