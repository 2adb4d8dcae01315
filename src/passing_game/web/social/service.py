"""Friends, challenges and blocks in the store (issue 27, item 2; P59).

Each function is one transaction on a ``Store`` (run off the event loop
through ``AsyncStore.run``); a refusal is a ``SocialError`` and changes
nothing. A challenge's table is checked by the lobby's own checks
(``lobby.table_choices``) when it is made and again when it is accepted;
the accept that wins the challenge's one conditional update
(``store.social.decide``) makes the table in the same transaction, so that
two accepts, from two processes at once, make one table.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from passing_game.fairness import Fairness
from passing_game.web.accounts.flows import name_key
from passing_game.web.lobby import table_choices
from passing_game.web.protocol import Intent, ProtocolError, random_code
from passing_game.web.social import model
from passing_game.web.social.model import SocialError, Standing
from passing_game.web.store import NewTable, SeatRow, hash_token, ignores, tables
from passing_game.web.store import bots as bot_rows
from passing_game.web.store import social as rows
from passing_game.web.table.fairness import awaiting
from passing_game.web.table.frames import seat_name

if TYPE_CHECKING:
    from passing_game.web.store import Store
    from passing_game.web.store.tx import Tx

#: Tables whose game is nobody else's to see: a daily deal's, a practice round's.
UNSHOWN_ORIGINS = ("daily", "practice")


def _target(tx: Tx, me: str, name: object) -> rows.Account:
    typed = model.clean_name(name)
    return model.check_target(me, rows.account_by_key(tx, name_key(typed)), typed)


def table_fields(body: dict[str, Any], user_id: str) -> dict[str, Any]:
    """A challenge's table, checked as the lobby checks a new table's, normalised."""
    fields = model.create_fields(body)
    try:
        rules, spec, clock, rated = table_choices(Intent("create", fields), user_id)
    except ProtocolError as exc:
        raise SocialError(str(exc), "bad-settings") from None
    shown = rules.to_dict()
    about = {k: shown.get(k) for k in ("players", "target", "partnerships")}
    # The rules as the page gave them (checked again at the accept), and what the
    # challenge says of them.
    return {**fields, "seats": list(spec), "clock": clock, "rated": rated, "about": about}


# -- reading ----------------------------------------------------------------------


def state(
    store: Store, me: str, now: float, *, alive_since: float | None, process: str
) -> dict[str, Any]:
    """What the friends panel shows: the accounts followed, online or not and at which
    table, the accounts blocked, the challenges open or just answered."""
    with store.transaction() as tx:
        friends = rows.following(tx, me)
        ids = [f.id for f in friends]
        hidden = rows.blockers_among(tx, me, ids)  # who blocks you is never shown online
        online = rows.online(tx, ids, alive_since=alive_since, process=process)
        codes = sorted({c for cs in online.values() for c in cs if c})
        seen = rows.tables_seen(tx, codes)
        blocked = rows.blocked_accounts(tx, me)
        incoming = rows.open_challenges(tx, me, now, incoming=True)
        outgoing = rows.open_challenges(tx, me, now, incoming=False)
        recent = rows.recent_challenges(tx, me, now - model.RECENT_SECONDS, now)
        blocking = ignores.ignored_by(tx, me)
        everyone = [*ids, *(c.from_id for c in incoming + outgoing + recent)]
        bots = bot_rows.bot_ids(tx, [*everyone, *(c.to_id for c in outgoing + recent)])
    incoming = [c for c in incoming if blocking.get(c.from_id) != "block"]
    out = []
    for friend in friends:
        where = set() if friend.id in hidden else online.get(friend.id)
        table = None
        for code in sorted(where or ()):
            shown = seen.get(code)
            if shown is not None and not shown.finished and shown.origin not in UNSHOWN_ORIGINS:
                players = [seat_name(*seat) for seat in shown.seats]
                table = {"code": code, "players": players, "rated": shown.rated}
                break
        out.append(
            {"name": friend.name, "online": bool(where), "table": table, "bot": friend.id in bots}
        )
    return {
        "friends": out,
        "blocked": [b.name for b in blocked],
        "challenges": [_shown(c, me, now, bots) for c in incoming + outgoing],
        "recent": [
            _shown(c, me, now, bots)
            for c in recent
            if not (c.to_id == me and blocking.get(c.from_id) == "block")
        ],
    }


def _shown(row: rows.ChallengeRow, me: str, now: float, bots: set[str]) -> dict[str, Any]:
    """A challenge's JSON, with which side is a bot account (P62)."""
    return {
        **model.challenge_json(row, me, now),
        "from_bot": row.from_id in bots,
        "to_bot": row.to_id in bots,
    }


# -- follows and blocks -----------------------------------------------------------


def follow(store: Store, me: str, name: object, now: float) -> str:
    with store.transaction() as tx:
        target = _target(tx, me, name)
        model.may_follow(target, blocked=ignores.blocks(tx, target.id, me))
        rows.follow(tx, me, target.id, now)
        return target.name


def unfollow(store: Store, me: str, name: object) -> str:
    with store.transaction() as tx:
        target = _target(tx, me, name)
        rows.unfollow(tx, me, target.id)
        return target.name


def block(store: Store, me: str, name: object, now: float) -> str:
    """``me`` blocks the account: it stops following ``me`` and its open challenges
    to ``me`` are cancelled; its chat is hidden from ``me`` (``web/chat/``)."""
    with store.transaction() as tx:
        target = _target(tx, me, name)
        ignores.ignore(tx, me, target.id, "block", now)
        rows.unfollow(tx, target.id, me)
        rows.cancel_between(tx, target.id, me, now)
        return target.name


def unblock(store: Store, me: str, name: object) -> str:
    with store.transaction() as tx:
        target = _target(tx, me, name)
        if not ignores.unignore(tx, me, target.id, "block"):
            raise model.refuse(model.NOT_BLOCKED, "not-blocked", name=target.name)
        return target.name


# -- challenges -------------------------------------------------------------------


def challenge(store: Store, me: str, body: dict[str, Any], now: float) -> dict[str, Any]:
    """A new challenge from ``me``; its JSON."""
    with store.transaction() as tx:
        target = _target(tx, me, body.get("name"))
        fields = table_fields(body, me)
        outgoing = rows.open_challenges(tx, me, now, incoming=False)
        standing = Standing(
            blocked=ignores.blocks(tx, target.id, me),
            blocking=ignores.blocks(tx, me, target.id),
            pending=any(c.to_id == target.id for c in outgoing),
            outgoing=len(outgoing),
            incoming=len(rows.open_challenges(tx, target.id, now, incoming=True)),
        )
        model.may_challenge(target, standing)
        if fields["clock"] is None and bot_rows.bot_ids(tx, [target.id]):
            raise model.refuse(model.BOT_CLOCK, "bot-clock")
        made = rows.ChallengeRow(
            id=secrets.token_urlsafe(9),
            from_id=me,
            to_id=target.id,
            settings=fields,
            created=now,
            expires=now + model.CHALLENGE_SECONDS,
            status="open",
        )
        rows.add_challenge(tx, made)
        found = rows.challenge(tx, made.id)
    assert found is not None
    return model.challenge_json(found, me, now)


def answer(store: Store, me: str, id: str, action: str, now: float) -> dict[str, Any]:
    """Decline (the account challenged) or cancel (the challenger) an open challenge."""
    incoming = action == "decline"
    with store.transaction() as tx:
        row = model.answerable(rows.challenge(tx, id), me, now, incoming=incoming)
        status = "declined" if incoming else "cancelled"
        if not rows.decide(tx, row.id, status, now, before=now):
            raise model.refuse(model.GONE, "gone", 404)
        found = rows.challenge(tx, id)
    assert found is not None
    return model.challenge_json(found, me, now)


def accept(store: Store, me: str, id: str, now: float) -> tuple[str, int]:
    """The account challenged accepts: the table's code and ``me``'s seat there. The
    same again for an accept already made (a second tap, another process)."""
    for _attempt in range(3):
        with store.transaction() as tx:
            row = rows.challenge(tx, id)
            if row is not None and row.to_id == me and row.status == "accepted" and row.code:
                return row.code, model.seat_of(row, me)
            row = model.answerable(row, me, now, incoming=True)
            if ignores.blocks(tx, me, row.from_id):
                raise model.refuse(model.GONE, "gone", 404)
            code = tables.free_code(tx, random_code)
            if rows.decide(tx, row.id, "accepted", now, code, before=now):
                tables.insert_table(tx, _new_table(tx, row, code, now))
                return code, model.seat_of(row, me)
        # Another accept won the row between the read and the update: read it again.
    raise model.refuse(model.GONE, "gone", 404)


def _new_table(tx: Tx, row: rows.ChallengeRow, code: str, now: float) -> NewTable:
    """The challenge's table: both accounts seated as themselves, bots in the rest."""
    fields = {k: v for k, v in row.settings.items() if k != "about"}
    fields["name"] = row.from_name
    try:
        rules, spec, clock, rated = table_choices(Intent("create", fields), row.from_id)
    except ProtocolError as exc:  # the rules changed since it was made (a new release)
        raise SocialError(str(exc), "bad-settings") from None
    people = {"you": rows.account(tx, row.from_id), "person": rows.account(tx, row.to_id)}
    seats = []
    for seat, entry in enumerate(spec):
        if entry in people:
            person = people[entry]
            if person is None or not person.usable:
                raise model.refuse(model.GONE, "gone", 404)
            # The seat is taken back without a token, as the account's own (check_owner).
            token = hash_token(secrets.token_urlsafe(24))
            seats.append(SeatRow(seat, "human", person.name, None, token, user_id=person.id))
        else:
            seats.append(SeatRow(seat, "bot", entry, entry))
    committed = Fairness.new(rules.players)
    return NewTable(
        code,
        rules.to_dict(),
        committed.seed,
        tuple(seats),
        created=now,
        creator=spec.index("you"),
        clock=clock,
        rated=rated,
        fairness=awaiting(committed) if rated else committed.to_json(),
    )


__all__ = ["accept", "answer", "block", "challenge", "follow", "state", "unblock", "unfollow"]
