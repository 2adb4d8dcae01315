"""The tutorial's endpoints (issue 25): the lessons, a position as the learner
sees it (never another hand), a try answered with its sentence, bad input
refused with a reason."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")

from starlette.testclient import TestClient

from passing_game.learn import BY_ID, LESSONS, Lesson, position
from passing_game.web.http.app import create_app
from passing_game.web.http.i18n import PAGE_PLURALS
from passing_game.web.http.texts import PAGE_TEXTS
from passing_game.web.learn.words import LEARN_PLURALS, LEARN_TEXTS
from passing_game.web.store import SqliteStore
from web_helpers import time_limit


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = SqliteStore(tmp_path / "tables.sqlite3")
    app = create_app(store, bot_delay=0, rate_limit=(1e6, 1e6))
    with time_limit(60), TestClient(app) as made:
        yield made
    store.close()


def test_the_list_has_every_lesson_in_order_in_the_asked_language(client: TestClient) -> None:
    got = client.get("/api/learn").json()["lessons"]
    assert [lesson["id"] for lesson in got] == [lesson.id for lesson in LESSONS]
    assert got[0]["title"] == "Match an end" and got[0]["basic"] is True
    galician = client.get("/api/learn?lang=gl").json()["lessons"]
    assert len(galician) == len(got)


def test_the_page_is_served_at_learn(client: TestClient) -> None:
    got = client.get("/learn")
    assert got.status_code == 200 and "app.js" in got.text


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_a_position_shows_only_the_learners_hand(client: TestClient, lesson: Lesson) -> None:
    lesson_id = lesson.id
    got = client.get(f"/api/learn/{lesson_id}")
    assert got.status_code == 200
    view = got.json()
    rnd = position(BY_ID[lesson_id])
    seat = view["seat"]
    assert view["hand"] == [str(t) for t in rnd.hands[seat]]
    assert view["hand_sizes"] == [len(h) for h in rnd.hands]
    assert view["boneyard"] == len(rnd.boneyard)
    assert set(view) >= {"legal", "train", "ends", "text", "title", "next"}
    # R9.2: no other hand's tile and no boneyard tile appears anywhere in the view.
    text = got.text
    for other, hand in enumerate(rnd.hands):
        if other != seat:
            assert not any(f'"{t}"' in text for t in hand), (lesson_id, other)
    assert not any(f'"{t}"' in text for t in rnd.boneyard), lesson_id


def test_the_right_move_and_a_wrong_one(client: TestClient) -> None:
    right = client.post("/api/learn/match/try", json={"move": "L3-5"}).json()
    assert right["ok"] is True and "[3|5]" in right["sentence"]
    wrong = client.post("/api/learn/match/try", json={"move": "pass"}).json()
    assert wrong["ok"] is False and wrong["sentence"]
    illegal = client.post("/api/learn/match/try", json={"move": "L0-0"}).json()
    assert illegal["ok"] is False and "0" in illegal["sentence"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"not json", 400, "bad-try"),
        (b"[]", 400, "bad-try"),
        (b'{"move": 3}', 400, "bad-try"),
        (b'{"move": "hello"}', 400, "bad-move"),
        (b'{"move": "' + b"x" * 400 + b'"}', 413, "too-large"),
    ],
)
def test_bad_tries_are_refused_with_a_reason(
    client: TestClient, body: bytes, status: int, code: str
) -> None:
    got = client.post("/api/learn/match/try", content=body)
    assert got.status_code == status
    assert got.json()["code"] == code and got.json()["error"]


def test_an_unknown_lesson_is_404(client: TestClient) -> None:
    assert client.get("/api/learn/nope").status_code == 404
    assert client.post("/api/learn/nope/try", json={"move": "pass"}).status_code == 404


def test_the_pages_words_are_in_the_catalog(client: TestClient) -> None:
    assert LEARN_TEXTS.items() <= PAGE_TEXTS.items()
    assert set(LEARN_PLURALS) <= set(PAGE_PLURALS)
    catalog = client.get("/api/i18n?lang=en").json()
    assert "Start the tutorial" in str(catalog)


def test_the_right_move_shows_the_table_after_it_and_still_no_hidden_tile(
    client: TestClient,
) -> None:
    got = client.post("/api/learn/double/try", json={"move": "R5-5"})
    after = got.json()["after"]
    assert after["train"][-1] == [5, 5] and after["ends"] == [3, 5]  # R5: no branch
    assert "5-5" not in after["hand"]
    rnd = position(BY_ID["double"])
    assert not any(f'"{t}"' in got.text for t in (*rnd.hands[1], *rnd.boneyard))
    assert "after" not in client.post("/api/learn/double/try", json={"move": "pass"}).json()


def test_the_parts_count_their_own_lessons_and_the_basics_end_in_a_real_round(
    client: TestClient,
) -> None:
    """P47: the basics are numbered "1 of 8" to "8 of 8" and the last says its part
    ends (the page then offers a real game); the config lists every lesson's part, for
    the lobby's offer of the rest."""
    views = {lesson.id: client.get(f"/api/learn/{lesson.id}").json() for lesson in LESSONS}
    basics = [lesson for lesson in LESSONS if lesson.part == "basics"]
    assert [views[lesson.id]["number"] for lesson in basics] == list(range(1, len(basics) + 1))
    assert {views[lesson.id]["total"] for lesson in basics} == {len(basics)}
    assert [lesson.id for lesson in LESSONS if views[lesson.id]["part_end"]] == [
        basics[-1].id,
        "partners",
        LESSONS[-1].id,
    ]
    assert views["target"]["part"] == "game" and views["target"]["number"] == 1
    assert views["heavy"]["part"] == "play" and views["heavy"]["basic"] is False
    config = client.get("/api/config").json()
    assert config["lessons"] == [{"id": lesson.id, "part": lesson.part} for lesson in LESSONS]
