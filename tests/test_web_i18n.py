"""The page in English, Galician and Croatian, in process (issue 7, part C).

Choosing the language (``?lang=``, the ``pg_lang`` cookie, Accept-Language
with q-values, English otherwise), the page's catalog at ``/api/i18n``
(every text translated, plural forms and their rule), the rules panel at
``/api/rules``, and server-built texts reaching each client in its own
language, also two clients of different languages at one table.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")
pytest.importorskip("markdown_it")

from babel.messages.pofile import read_po
from starlette.testclient import TestClient

from passing_game import i18n
from passing_game.i18n import LANGUAGES, _, using_language
from passing_game.web.http.app import create_app
from passing_game.web.http.i18n import (
    COOKIE,
    PAGE_PLURALS,
    negotiate,
    parse_accept_language,
    render_rules,
)
from passing_game.web.http.texts import PAGE_TEXTS
from passing_game.web.store import SqliteStore
from passing_game.web.table import frames
from web_helpers import Player, create, time_limit

STATIC = Path(__file__).parent.parent / "src" / "passing_game" / "web" / "static"
LOCALE = Path(i18n.LOCALE_DIR)
#: The label the rules document gives the lobby's variants panel, per language.
PANEL_LABEL = {"en": "Rules and variants", "gl": "Regras e variantes", "hr": "Pravila i varijante"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = SqliteStore(tmp_path / "web.sqlite3")
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(60), TestClient(app) as made:
        yield made
    store.close()


def lang_of(client: TestClient, url: str = "/api/i18n", **kwargs: Any) -> str:
    response = client.get(url, **kwargs)
    assert response.status_code == 200
    language: str = response.json()["language"]
    assert response.headers["content-language"] == language
    return language


# -- choosing the language ----------------------------------------------------------


def test_accept_language_is_read_by_its_q_values() -> None:
    assert parse_accept_language("en;q=0.5, hr;q=0.9, gl;q=0.1") == ["hr", "en", "gl"]
    # Equal weights keep the browser's order; q=0 means "not this one".
    assert parse_accept_language("gl-ES, gl;q=0.9, hr;q=0, en;q=0.9") == ["gl-ES", "gl", "en"]
    assert negotiate("en;q=0.5, hr;q=0.9, gl;q=0.1") == "hr"
    assert negotiate("de-DE, gl;q=0.3, en;q=0.2") == "gl"  # German we do not have
    assert negotiate("hr;q=0, en;q=0.1") == "en"
    assert negotiate("gl-ES") == "gl" and negotiate("HR-hr") == "hr"


@pytest.mark.parametrize(
    "header",
    ["", "*", "fr-FR, de;q=0.8", "hr;q=2", "hr;q=abc", ";;;,,,", "x" * 5000, "hr;q=0"],
)
def test_an_unusable_accept_language_falls_back_to_english(header: str) -> None:
    """Malformed or unmatched headers never fail: English (a bad q drops its range)."""
    assert negotiate(header) == "en"


def test_the_request_picks_param_then_cookie_then_accept_language(client: TestClient) -> None:
    assert lang_of(client) == "en"
    assert lang_of(client, headers={"Accept-Language": "hr-HR,hr;q=0.9,en;q=0.5"}) == "hr"
    assert lang_of(client, headers={"Accept-Language": "en;q=0.4, gl;q=0.8"}) == "gl"
    client.cookies.set(COOKIE, "gl")
    assert lang_of(client, headers={"Accept-Language": "hr"}) == "gl"  # the switch wins
    assert lang_of(client, params={"lang": "hr"}, headers={"Accept-Language": "en"}) == "hr"
    # A language we lack, in the address or the cookie, is ignored, not an error.
    assert lang_of(client, params={"lang": "<script>"}) == "gl"
    client.cookies.set(COOKIE, "xx")
    assert lang_of(client, headers={"Accept-Language": "hr"}) == "hr"
    assert lang_of(client, params={"lang": "GL"}) == "gl"


def test_a_request_language_never_leaks_into_the_process(client: TestClient) -> None:
    """Each visitor's language is per request (a context variable), not ``set_language``."""
    before = i18n.current_language()
    assert lang_of(client, params={"lang": "hr"}) == "hr"
    assert i18n.current_language() == before
    assert lang_of(client) == "en"


def test_the_lobby_config_comes_in_the_request_language(client: TestClient) -> None:
    """Even endpoints Starlette runs in a worker thread see the visitor's language."""
    for lang in LANGUAGES:
        levels = client.get("/api/config", params={"lang": lang}).json()["levels"]
        with using_language(lang):
            assert [lv["label"] for lv in levels] == [
                frames.level_word(lv["name"]) for lv in levels
            ]


# -- the page's catalog ----------------------------------------------------------------


def po_entries(lang: str) -> dict[Any, Any]:
    with (LOCALE / lang / "LC_MESSAGES" / "passing_game.po").open("rb") as f:
        catalog = read_po(f)
    # The page's texts have no msgctxt: entries with one are the server's own uses.
    return {
        m.id if isinstance(m.id, str) else m.id[0]: m for m in catalog if m.id and not m.context
    }


@pytest.mark.parametrize("lang", ["gl", "hr"])
def test_every_page_text_is_translated(client: TestClient, lang: str) -> None:
    """Each page text and counted text has a real (non-empty, non-fuzzy) entry in the .po."""
    got = client.get("/api/i18n", params={"lang": lang}).json()
    entries = po_entries(lang)
    assert set(got["texts"]) == set(PAGE_TEXTS)
    for key, english in PAGE_TEXTS.items():
        entry = entries.get(english)
        assert entry is not None and entry.string and not entry.fuzzy, english
        assert got["texts"][key] == entry.string
    nplurals = int(re.search(r"nplurals=(\d+)", got["plural_forms"]).group(1))  # type: ignore[union-attr]
    assert nplurals == (3 if lang == "hr" else 2)
    assert set(got["plurals"]) == set(PAGE_PLURALS)
    for key, forms in got["plurals"].items():
        entry = entries[key]
        assert entry.pluralizable and not entry.fuzzy, key
        assert forms == list(entry.string), key
        assert len(forms) == nplurals and all(forms), key


def test_english_has_the_source_texts(client: TestClient) -> None:
    got = client.get("/api/i18n", params={"lang": "en"}).json()
    assert got["texts"] == PAGE_TEXTS
    assert got["plurals"]["{n} tile"] == ["{n} tile", "{n} tiles"]
    assert [lang["code"] for lang in got["languages"]] == list(LANGUAGES)
    assert [lang["name"] for lang in got["languages"]] == ["English", "Galego", "Hrvatski"]


@pytest.mark.parametrize(
    ("n", "word"),
    [
        *[(0, "pločica"), (1, "pločica"), (2, "pločice"), (5, "pločica"), (11, "pločica")],
        *[(21, "pločica"), (22, "pločice"), (25, "pločica"), (112, "pločica"), (104, "pločice")],
    ],
)
def test_croatian_plural_rule_sent_to_the_page(client: TestClient, n: int, word: str) -> None:
    """The rule the page evaluates picks pločica / pločice / pločica as Croatian does."""
    got = client.get("/api/i18n", params={"lang": "hr"}).json()
    rule = gettext.c2py(re.search(r"plural=([^;]+)", got["plural_forms"]).group(1))  # type: ignore[union-attr]
    form = got["plurals"]["{n} tile"][rule(n)].format(n=n)
    assert form == f"{n} {word}"
    with using_language("hr"):
        assert form == PAGE_PLURALS["{n} tile"](n).format(n=n)


def test_every_text_the_scripts_use_is_in_the_catalog(client: TestClient) -> None:
    got = client.get("/api/i18n").json()
    script = "\n".join(p.read_text() for p in STATIC.glob("*.js"))
    plain = set(re.findall(r'(?<![\w.])t\("((?:[^"\\]|\\.)*)"', script))
    counted = set(re.findall(r'(?<![\w.])nt\("((?:[^"\\]|\\.)*)"', script))
    assert plain and counted
    assert plain <= set(got["texts"]), plain - set(got["texts"])
    assert counted <= set(got["plurals"]), counted - set(got["plurals"])
    # No second dictionary: the page's scripts hold no Galician or Croatian words.
    for lang in ("gl", "hr"):
        translated = client.get("/api/i18n", params={"lang": lang}).json()["texts"]
        for key, text in translated.items():
            if text != PAGE_TEXTS[key] and len(text) > 6:
                assert text not in script, text


# -- the rules panel -------------------------------------------------------------------


def texts_of(nodes: list[Any]) -> str:
    return "".join(n if isinstance(n, str) else texts_of(n["children"]) for n in nodes)


def strong_texts(nodes: list[Any]) -> list[str]:
    found: list[str] = []
    for node in nodes:
        if isinstance(node, dict):
            if node["tag"] == "strong":
                found.append(texts_of(node["children"]))
            found += strong_texts(node["children"])
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_panel_names_the_variants_panel_as_the_page_does(
    client: TestClient, lang: str
) -> None:
    """The rules say "open **Rules and variants**": the lobby's panel has exactly that label."""
    got = client.get("/api/rules", params={"lang": lang}).json()
    assert got["language"] == lang
    nodes = got["nodes"]
    assert nodes[0] == {"tag": "h1", "children": ["The Passing Game"]}
    assert PANEL_LABEL[lang] in strong_texts(nodes)
    page = client.get("/api/i18n", params={"lang": lang}).json()["texts"]
    assert page["Rules and variants"] == PANEL_LABEL[lang]
    headings = [n for n in nodes if isinstance(n, dict) and n["tag"] == "h2"]
    assert len(headings) >= 5


def test_the_rules_follow_the_cookie(client: TestClient) -> None:
    client.cookies.set(COOKIE, "hr")
    assert client.get("/api/rules").json()["language"] == "hr"


def test_markdown_with_html_or_script_links_stays_text() -> None:
    """Raw HTML is text, links are their words (the panel holds no element it did not allow)."""
    bad = "[go](javascript:alert(1))"
    nodes = render_rules(
        f"<script>alert(1)</script>\n\nHi <b>x</b> {bad} [site](https://a.b) **ok**"
    )
    flat = repr(nodes)
    assert "'tag': 'script'" not in flat and "'tag': 'a'" not in flat and "'tag': 'b'" not in flat
    assert texts_of(nodes) == f"<script>alert(1)</script>Hi <b>x</b> {bad} site ok"


# -- what the server words for a client ------------------------------------------------


def socket(client: TestClient, lang: str | None = None, accept: str | None = None) -> Any:
    url = "/ws" + (f"?lang={lang}" if lang else "")
    headers = {"Accept-Language": accept} if accept else {}
    return client.websocket_connect(url, headers=headers)


def test_errors_come_in_the_clients_language(client: TestClient) -> None:
    for lang, accept in (("hr", None), (None, "gl-ES,gl;q=0.9"), (None, None)):
        with socket(client, lang, accept) as ws:
            player = Player(ws)
            player.send(type="play", move="L3-5")
            message = player.error()["message"]
            with using_language(lang or ("gl" if accept else "en")):
                assert message == _("Join a table first.")


def test_state_frames_come_in_each_clients_language(client: TestClient) -> None:
    """A Galician player and a Croatian spectator at one table: each reads their own language."""
    with socket(client, "gl") as ws, socket(client, accept="hr") as ws2:
        ana = Player(ws)
        code = create(ana, ["you", "random"])["table"]
        frame = ana.my_turn()
        with using_language("gl"):
            assert frame["status"] == _("Your turn.")
            assert frame["seats"][1]["name"] == _("Random bot")
        ana.act(frame["round"]["legal"][0])
        watcher = Player(ws2)
        watcher.send(type="watch", code=code)
        seen = watcher.until(lambda f: f["type"] == "state" and f["round"]["log"])
        with using_language("hr"):
            assert seen["seats"][1]["name"] == _("Random bot") != "Random bot"
            to_move = seen["round"]["to_move"]
            if not seen["over"] and to_move is not None:
                before, after = _("{player} is to move.").split("{player}")
                assert seen["status"].startswith(before) and seen["status"].endswith(after)
                assert seen["seats"][to_move]["name"] in seen["status"]
        # The move log is worded per language too, never shared between them.
        mine = ana.until(lambda f: f["type"] == "state" and f["round"]["log"])
        assert mine["round"]["log"][0] != seen["round"]["log"][0]
        assert mine["round"]["history"][0]["move"] == seen["round"]["history"][0]["move"]


def test_the_page_itself_carries_the_language(client: TestClient) -> None:
    """The HTML's ``lang`` and no-script notice follow the visitor; the security policy stays."""
    for path in ("/", "/t/ABCDEF"):
        response = client.get(path, headers={"Accept-Language": "hr, en;q=0.5"})
        assert '<html lang="hr">' in response.text
        with using_language("hr"):
            assert _("The Passing Game needs JavaScript.") in response.text
        assert "needs JavaScript" not in response.text
        assert "script-src 'self'" in response.headers["content-security-policy"]
        assert "unsafe-eval" not in response.headers["content-security-policy"]
    assert '<html lang="en">' in client.get("/").text
