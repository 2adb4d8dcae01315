"""A signed-in socket lives only as long as its session (issue 22, point 1; P40).

A WebSocket learns who is there from the session cookie it opened with.
That is not enough: the session may end while the socket stays open (a
sign-out, a password change made elsewhere, the account deleted or
suspended by a moderator), and the socket would go on acting as the
account. So:

- every intent of a signed-in socket is preceded by a check of its session
  in the store (``check``); an ended session closes the socket at once;
- a process closes its own sockets of a session it ends (``end``), at once;
- every process re-checks the sessions of all its signed-in sockets in one
  query every ``SWEEP_SECONDS`` (``sweep``), so that a session ended by
  another process, or by ``passing-game admin`` (which has no bus), closes
  its sockets everywhere within that time.

A closed socket first gets ``{"type": "signed_out", "code", "message"}``,
the reason in the reader's language; the page then carries on as a guest.
"""

from __future__ import annotations

import logging

from passing_game.i18n import _, using_language
from passing_game.web.accounts.flows import ENDED_WORDS, Accounts, Runner
from passing_game.web.table.conn import Conn

log = logging.getLogger("passing_game.web")

#: How often every signed-in socket's session is checked again.
SWEEP_SECONDS = 2.0


class Sessions:
    """This process's signed-in sockets, and the closing of those whose session ended."""

    def __init__(self, accounts: Accounts, db_run: Runner) -> None:
        self.accounts = accounts
        self._db = db_run
        self.conns: set[Conn] = set()

    def add(self, conn: Conn) -> None:
        if conn.session_hash is not None:
            self.conns.add(conn)

    def discard(self, conn: Conn) -> None:
        self.conns.discard(conn)

    async def check(self, conn: Conn) -> bool:
        """Whether ``conn`` may act: a guest's always; a signed-in socket's only
        while its session lasts (else it is closed, with the reason)."""
        if conn.session_hash is None:
            return True
        user = await self._db(self.accounts.user_of_hash, conn.session_hash)
        if user is not None and user.id == conn.user_id:
            conn.user_name = user.name
            return True
        reasons = await self._db(self.accounts.ended, [(conn.session_hash, conn.user_id or "")])
        self.close(conn, reasons.get(conn.session_hash, "session-ended"))
        return False

    def end(
        self,
        code: str,
        *,
        user_id: str | None = None,
        session_hash: str | None = None,
        keep: str | None = None,
    ) -> int:
        """Close this process's sockets of one session, or of every session of an
        account but ``keep`` (the page that asked opens its socket again); how many."""
        hit = [
            c
            for c in self.conns
            if (session_hash is not None and c.session_hash == session_hash)
            or (user_id is not None and c.user_id == user_id and c.session_hash != keep)
        ]
        for conn in hit:
            self.close(conn, code)
        return len(hit)

    def close(self, conn: Conn, code: str) -> None:
        """Tell the socket why, then close it (the page goes on as a guest)."""
        self.conns.discard(conn)
        with using_language(conn.language):
            message = _(ENDED_WORDS.get(code, ENDED_WORDS["session-ended"]))
        conn.push({"type": "signed_out", "code": code, "message": message})
        conn.close()
        log.info("closed a socket whose session ended (%s)", code, extra={"event": "signed-out"})

    async def sweep(self) -> int:
        """Check every signed-in socket's session once; close those that ended."""
        pairs = sorted(
            {(c.session_hash, c.user_id or "") for c in self.conns if c.session_hash is not None}
        )
        if not pairs:
            return 0
        ended = await self._db(self.accounts.ended, pairs)
        closed = 0
        for conn in list(self.conns):
            code = ended.get(conn.session_hash or "")
            if code is not None:
                self.close(conn, code)
                closed += 1
        return closed


__all__ = ["SWEEP_SECONDS", "Sessions"]
