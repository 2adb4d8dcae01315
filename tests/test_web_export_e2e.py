"""Your data in Chromium (issue 27, item 4): a person signs up, plays a game
against a bot to its end, and downloads their games from the account's
dialog, at 1280x800 and 390x844; the file holds that game, one record a
line, which ``load_record`` reads with the scores the table showed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from web_helpers import Server, require_module

require_module("starlette")
require_module("playwright")

from playwright.sync_api import Browser  # noqa: E402

from browser_helpers import (  # noqa: E402
    create_table,
    frame,
    open_account,
    play_to_the_end,
    sign_up,
    watch_errors,
)
from passing_game.records import load_record  # noqa: E402

SIZES = [(1280, 800), (390, 844)]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_person_downloads_their_games_and_they_load(
    browser: Browser, server: Server, tmp_path: Path, width: int, height: int
) -> None:
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = watch_errors(page)
    page.goto(server.url("/"))
    page.locator("#create-button").wait_for()
    name = f"Exa{width}"
    sign_up(page, name)
    create_table(page, server.url("/"), ["easy"], target=8, name=name)
    play_to_the_end(page)
    scores = frame(page)["scores"]
    page.goto(server.url("/"))  # the account's dialog from the lobby
    page.locator("#create-button").wait_for()
    open_account(page)
    with page.expect_download() as waiting:
        page.locator("#acc-export").click()
    download = waiting.value
    assert download.suggested_filename == "passing-game-games.jsonl"
    path = tmp_path / "games.jsonl"
    download.save_as(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    assert list(load_record(lines[0]).scores) == scores
    assert errors == [], errors
    page.close()
