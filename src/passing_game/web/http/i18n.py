"""The page in the visitor's language: choosing it, its texts, its rules panel.

Every request and every WebSocket runs inside ``using_language`` for the
language chosen here (``LanguageMiddleware``), so whatever the server words
for that visitor (status lines, errors, scoring, hints) comes out of the
same gettext catalogs as the terminal game. The choice, first match wins:

1. ``?lang=xx`` on the request (the page's switch sends it),
2. the ``pg_lang`` cookie (the switch sets it, so a reload remembers it),
3. the browser's ``Accept-Language``, by its q-values,
4. English.

The page's own texts are ``texts.PAGE_TEXTS`` (plain) and ``PAGE_PLURALS``
(with a count) below, served by ``catalog`` at ``/api/i18n``; plurals go out
as every form of the language plus the catalog's ``Plural-Forms`` rule,
which ``static/i18n.js`` evaluates itself (the page's security policy
forbids ``eval``). The rules panel is the players' rules document
(``texts/rules*.md``) turned into a JSON tree of allowed elements, so the
page builds it with ``textContent`` and never parses HTML.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from babel import Locale
from babel.core import negotiate_locale
from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from passing_game.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    _,
    current_language,
    ngettext,
    plural_forms,
    translation,
    using_language,
)
from passing_game.web.http.texts import PAGE_TEXTS
from passing_game.web.ladder.words import LADDER_PLURALS
from passing_game.web.learn.words import LEARN_PLURALS
from passing_game.web.profiles.words import PROFILE_PLURALS
from passing_game.web.puzzles.words import PUZZLE_PLURALS
from passing_game.web.ratings.words import RATING_PLURALS
from passing_game.web.tournament.words import TOURNAMENT_PLURALS

#: The cookie that remembers the page's language switch.
COOKIE = "pg_lang"
#: The longest Accept-Language header read (longer ones are cut, not refused).
MAX_HEADER = 1024

#: Page texts with a count: key -> the message for a count, through ``ngettext``.
PAGE_PLURALS: dict[str, Callable[[int], str]] = {
    "{n} tile": lambda n: ngettext("{n} tile", "{n} tiles", n),
    "Seats taken: {taken} of {n}": lambda n: ngettext(
        "Seats taken: {taken} of {n}", "Seats taken: {taken} of {n}", n
    ),
    "{n} pip": lambda n: ngettext("{n} pip", "{n} pips", n),
    # A seat's score: "1 point", never "1 pts" (issue 24, item 6).
    "{n} point": lambda n: ngettext("{n} point", "{n} points", n),
    "{n} tile unseen (in other hands or the boneyard)": lambda n: ngettext(
        "{n} tile unseen (in other hands or the boneyard)",
        "{n} tiles unseen (in other hands or the boneyard)",
        n,
    ),
    "{n} tile on the train": lambda n: ngettext(
        "{n} tile on the train", "{n} tiles on the train", n
    ),
    "{n} hint taken": lambda n: ngettext("{n} hint taken", "{n} hints taken", n),
    "Empty: {n} point": lambda n: ngettext("Empty: {n} point", "Empty: {n} points", n),
    "Boneyard: {n} tile, {d} can be drawn, {l} locked": lambda n: ngettext(
        "Boneyard: {n} tile, {d} can be drawn, {l} locked",
        "Boneyard: {n} tiles, {d} can be drawn, {l} locked",
        n,
    ),
    "{n} second per move": lambda n: ngettext("{n} second per move", "{n} seconds per move", n),
    "{n} second left for this move": lambda n: ngettext(
        "{n} second left for this move", "{n} seconds left for this move", n
    ),
    "{n} second left in the bank": lambda n: ngettext(
        "{n} second left in the bank", "{n} seconds left in the bank", n
    ),
    "Next round in {n} second": lambda n: ngettext(
        "Next round in {n} second", "Next round in {n} seconds", n
    ),
    # Quick play, the public tables and the daily deal (issue 13).
    "{n} player": lambda n: ngettext("{n} player", "{n} players", n),
    "{n} person waiting for this game": lambda n: ngettext(
        "{n} person waiting for this game", "{n} people waiting for this game", n
    ),
    "Bots can fill the empty seats in {n} second": lambda n: ngettext(
        "Bots can fill the empty seats in {n} second",
        "Bots can fill the empty seats in {n} seconds",
        n,
    ),
    "to {n} point": lambda n: ngettext("to {n} point", "to {n} points", n),
    "Everyone plays the same tiles: {n} round against the {level} bot.": lambda n: ngettext(
        "Everyone plays the same tiles: {n} round against the {level} bot.",
        "Everyone plays the same tiles: {n} rounds against the {level} bot.",
        n,
    ),
    "{n} person still playing": lambda n: ngettext(
        "{n} person still playing", "{n} people still playing", n
    ),
    "Score pad · {n} round": lambda n: ngettext(
        "Score pad · {n} round", "Score pad · {n} rounds", n
    ),
    # Accounts (issue 13: static/account.js).
    "At least {n} character": lambda n: ngettext(
        "At least {n} character", "At least {n} characters", n
    ),
    # The leaderboard's games a rating rests on (issue 24, item 9).
    **RATING_PLURALS,
    **LEARN_PLURALS,
    **PUZZLE_PLURALS,
    **TOURNAMENT_PLURALS,
    **PROFILE_PLURALS,
    **LADDER_PLURALS,
}

_LANGUAGE_RANGE = re.compile(r"^(?:\*|[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*)$")
_QUALITY = re.compile(r"^[qQ]\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$")


def parse_accept_language(header: str) -> list[str]:
    """The language ranges of an ``Accept-Language`` header, most wanted first.

    RFC 9110 12.5.4: each range may carry ``;q=`` from 0 to 1 (default 1);
    ``q=0`` means "not this one" and is left out; equal weights keep their
    order. Malformed parts are skipped rather than refused: a browser's odd
    header must never cost a visitor the page.
    """
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header[:MAX_HEADER].split(",")):
        tag, *params = (p.strip() for p in part.split(";"))
        if not _LANGUAGE_RANGE.match(tag):
            continue
        quality = 1.0
        for param in params:
            found = _QUALITY.match(param)
            if found is None:
                quality = -1.0 if param[:1] in "qQ" else quality
                continue
            quality = float(found.group(1))
        if quality > 0:
            weighted.append((-quality, index, tag.replace("_", "-")))
    return [tag for _q, _i, tag in sorted(weighted)]


def negotiate(header: str | None) -> str:
    """The language we have that the browser wants most; English if none fits."""
    wanted = [tag for tag in parse_accept_language(header or "") if tag != "*"]
    found = negotiate_locale(wanted, list(LANGUAGES), sep="-", aliases={})
    return known(found) or DEFAULT_LANGUAGE


def known(language: str | None) -> str | None:
    """``language`` if it is one we have (any case), else ``None``."""
    if not isinstance(language, str):
        return None
    code = language.strip().lower()
    return code if code in LANGUAGES else None


def choose_language(conn: HTTPConnection) -> str:
    """The request's language: ``?lang=``, then the cookie, then Accept-Language."""
    return (
        known(conn.query_params.get("lang"))
        or known(conn.cookies.get(COOKIE))
        or negotiate(conn.headers.get("accept-language"))
    )


class LanguageMiddleware:
    """Runs each request and each WebSocket in its visitor's language (``using_language``).

    The language is a context variable, so every task a connection starts
    inherits it, and concurrent visitors never see each other's choice.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        language = choose_language(HTTPConnection(scope))
        scope.setdefault("state", {})["language"] = language
        with using_language(language):
            await self.app(scope, receive, send)


def language_names() -> list[dict[str, str]]:
    """Each language named in itself (``galego``, ``hrvatski``), as Babel's CLDR data has it."""
    names = []
    for code in LANGUAGES:
        name = Locale.parse(code).get_display_name(code) or code
        names.append({"code": code, "name": name[:1].upper() + name[1:]})
    return names


def _plural_indices(language: str, count: int) -> list[int]:
    """For each plural form of ``language``, a number that takes it (to ask ``ngettext``)."""
    rule: Callable[[int], int] = getattr(translation(language), "plural", lambda n: int(n != 1))
    found: dict[int, int] = {}
    for n in range(1000):
        found.setdefault(rule(n), n)
        if len(found) == count:
            break
    return [found.get(i, i) for i in range(count)]


def nplurals(language: str) -> int:
    found = re.search(r"nplurals\s*=\s*(\d+)", plural_forms(language))
    return int(found.group(1)) if found else 2


@functools.cache
def page_catalog(language: str) -> dict[str, Any]:
    """Every text the page shows in ``language``, plural forms and their rule included."""
    with using_language(language):
        texts = {key: _(text) for key, text in PAGE_TEXTS.items()}
        samples = _plural_indices(language, nplurals(language))
        plurals = {key: [message(n) for n in samples] for key, message in PAGE_PLURALS.items()}
    return {
        "language": language,
        "texts": texts,
        "plurals": plurals,
        "plural_forms": plural_forms(language),
        "languages": language_names(),
    }


async def catalog(request: Request) -> JSONResponse:
    """``GET /api/i18n[?lang=xx]``: the page's texts in the request's language."""
    language = current_language()
    return JSONResponse(
        page_catalog(language),
        headers={"Content-Language": language, "Vary": "Accept-Language, Cookie"},
    )


@functools.cache
def page_html(language: str) -> str:
    """``static/index.html`` with its ``lang`` and its no-script notice in ``language``.

    Everything else on the page is built by the script from ``/api/i18n``.
    """
    html = (Path(__file__).parent.parent / "static" / "index.html").read_text(encoding="utf-8")
    with using_language(language):
        notice = escape(_("The Passing Game needs JavaScript."))
    html = html.replace('<html lang="en">', f'<html lang="{language}">', 1)
    return html.replace("The Passing Game needs JavaScript.", notice, 1)


# -- the rules panel -----------------------------------------------------------

#: Markdown elements the rules panel may hold; anything else becomes its text.
ALLOWED_TAGS = frozenset(
    {"h1", "h2", "h3", "h4", "p", "ul", "ol", "li", "strong", "em", "code", "pre", "blockquote"}
)

#: A node of the panel: a text, or ``{"tag": ..., "children": [...]}``.
RulesNode = str | dict[str, Any]


def rules_markdown(language: str) -> str:
    """The players' rules in ``language`` (``texts/rules.<lang>.md``), else in English."""
    folder = resources.files("passing_game").joinpath("texts")
    translated = folder.joinpath(f"rules.{language}.md")
    chosen = translated if translated.is_file() else folder.joinpath("rules.md")
    return chosen.read_text(encoding="utf-8")


def _convert(node: SyntaxTreeNode) -> list[RulesNode]:
    """One Markdown node as panel nodes: allowed elements kept, the rest flattened to text."""
    if node.type == "text":
        return [node.content]
    if node.type in ("softbreak", "hardbreak"):
        return [" "]
    if node.type == "code_inline":
        return [{"tag": "code", "children": [node.content]}]
    if node.type in ("fence", "code_block"):
        return [{"tag": "pre", "children": [{"tag": "code", "children": [node.content]}]}]
    if node.type in ("html_inline", "html_block"):
        return [node.content]  # shown as text (raw HTML is off in the parser anyway)
    children = [part for child in node.children for part in _convert(child)]
    tag = "" if node.is_root or node.type == "inline" else node.tag
    if tag in ALLOWED_TAGS:
        return [{"tag": tag, "children": children}]
    return children


def render_rules(markdown: str) -> list[RulesNode]:
    """Markdown as a tree of allowed elements and plain texts (markdown-it, raw HTML off)."""
    parser = MarkdownIt("commonmark", {"html": False})
    return _convert(SyntaxTreeNode(parser.parse(markdown)))


@functools.cache
def rules_panel(language: str) -> dict[str, Any]:
    return {"language": language, "nodes": render_rules(rules_markdown(language))}


async def rules(request: Request) -> JSONResponse:
    """``GET /api/rules[?lang=xx]``: the players' rules as the panel shows them."""
    language = current_language()
    return JSONResponse(
        rules_panel(language),
        headers={"Content-Language": language, "Vary": "Accept-Language, Cookie"},
    )
