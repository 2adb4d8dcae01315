"""Your data (issue 27, item 4): every game of one's account, to take away.

``GET /api/account/export``: the record of every finished game at a table
where the signed-in account holds a seat, as JSON lines (one record a line,
as the server wrote it, made compact: ``passing_game.load_record`` reads
each and ``passing-game verify`` checks each), in order of table code and
game; a file to download. It is read from the store a page at a time, so
an account of many games never holds a transaction open or the memory.
Other people's seats are in the records as they are in every finished
game's record (every hand is shown at a game's end); no game under way is
ever in it.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from passing_game.i18n import _
from passing_game.web.accounts.api import current_user
from passing_game.web.game.errors import SIGN_IN_FIRST
from passing_game.web.http.addresses import AddressLimits, too_many
from passing_game.web.store import Store
from passing_game.web.store import history as history_rows

#: Records read from the store at a time.
PAGE = 100
FILENAME = "passing-game-games.jsonl"


def page_of(
    store: Store, user_id: str, after: tuple[str, int] | None
) -> list[tuple[str, int, str]]:
    """One page of the account's finished games, after ``after`` (``None``: the first)."""
    with store.transaction() as tx:
        return history_rows.records_of(tx, user_id, after, PAGE)


async def export(request: Request) -> Response:
    user = await current_user(request)
    if user is None:
        return JSONResponse({"error": _(SIGN_IN_FIRST), "code": "signed-out"}, 401)
    limits: AddressLimits = request.app.state.record_limits
    wait = limits.wait(request.client.host if request.client else None)
    if wait > 0:
        message, seconds = too_many(wait)
        return JSONResponse({"error": message}, 429, headers={"Retry-After": str(seconds)})
    db = request.app.state.lobby.db

    async def lines() -> AsyncIterator[str]:
        after: tuple[str, int] | None = None
        while True:
            page = await db.run(page_of, db.store, user.id, after)
            for _code, _game, record in page:
                yield json.dumps(json.loads(record), ensure_ascii=False, separators=(",", ":"))
                yield "\n"
            if len(page) < PAGE:
                return
            after = page[-1][0], page[-1][1]

    headers = {
        "Content-Disposition": f'attachment; filename="{FILENAME}"',
        "Cache-Control": "no-store",
    }
    return StreamingResponse(lines(), media_type="application/x-ndjson", headers=headers)


ROUTES = [Route("/api/account/export", export)]

__all__ = ["ROUTES", "page_of"]
