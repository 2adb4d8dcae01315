"""The page as an installable app (issue 27, item 5; P56), in process.

The manifest names the game in the visitor's language and points to icons
that are what it says (PNG, of their sizes); the service worker keeps every
file of the page and nothing else, under a version that changes with any
of them; the offline page says, in the visitor's language, that the game
needs its server, under the page's security headers.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from html import escape
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from passing_game.i18n import _, using_language
from passing_game.web.http.app import create_app
from passing_game.web.install import api as install
from passing_game.web.store import SqliteStore

STATIC = install.STATIC


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = SqliteStore(tmp_path / "install.sqlite3")
    with TestClient(create_app(store, bot_delay=0)) as made:
        yield made


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_names_the_game_in_the_visitors_language(client: TestClient) -> None:
    got = client.get("/manifest.webmanifest", headers={"Accept-Language": "gl"})
    assert got.status_code == 200
    assert got.headers["content-type"].startswith("application/manifest+json")
    data = got.json()
    with using_language("gl"):
        assert data["description"] == _(install.DESCRIPTION) != install.DESCRIPTION
    assert data["lang"] == "gl" and data["start_url"] == "/" and data["display"] == "standalone"
    sized = [icon for icon in data["icons"] if icon["type"] == "image/png"]
    assert {icon["sizes"] for icon in sized} == {"192x192", "512x512"}
    for icon in sized:
        image = client.get(icon["src"])
        assert image.status_code == 200 and image.headers["content-type"] == "image/png"
        assert "x".join(map(str, png_size(image.content))) == icon["sizes"]
    page = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


def test_the_worker_keeps_every_file_of_the_page_under_one_version(client: TestClient) -> None:
    got = client.get("/sw.js")
    assert got.status_code == 200 and got.headers["content-type"].startswith("text/javascript")
    assert got.headers["cache-control"] == "no-cache"  # a new deployment is found at once
    text = got.text
    version, files = install._files()
    assert f'const VERSION = "{version}";' in text and 'const OFFLINE = "/offline";' in text
    on_disk = {f"/static/{p.name}" for p in STATIC.iterdir() if p.is_file()}
    assert set(files) == on_disk and "/static/app.js" in on_disk
    assert install.WORKER.read_text(encoding="utf-8") in text
    # Nothing of the game is kept: the API and the socket always go to the server.
    assert not any(name.startswith(("/api", "/ws")) for name in files)


def test_the_version_changes_with_any_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "static"
    copy.mkdir()
    for path in STATIC.iterdir():
        if path.is_file():
            (copy / path.name).write_bytes(path.read_bytes())
    monkeypatch.setattr(install, "STATIC", copy)
    install._files.cache_clear()
    try:
        before, _files = install._files()
        (copy / "app.css").write_text((copy / "app.css").read_text() + "\n/* changed */\n")
        install._files.cache_clear()
        assert install._files()[0] != before
    finally:
        install._files.cache_clear()


def test_the_offline_page_says_the_game_needs_its_server(client: TestClient) -> None:
    got = client.get("/offline", headers={"Accept-Language": "hr"})
    assert got.status_code == 200
    with using_language("hr"):
        said = _(install.OFFLINE_TEXT)
    assert said != install.OFFLINE_TEXT and escape(said) in got.text
    assert '<html lang="hr">' in got.text
    assert "script-src 'self'" in got.headers["content-security-policy"]
    assert "<script" not in got.text
