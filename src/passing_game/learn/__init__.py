"""The tutorial's lessons (issue 25): set-up positions, one move asked in each.

Core-side: the standard library and the core only, no I/O. The web
(``web/learn``) and the terminal (``cli/learn.py``) both read ``LESSONS``.
"""

from __future__ import annotations

from passing_game.learn.basics import BASICS
from passing_game.learn.lesson import PARTS, Lesson, after, answers, check, position, rest
from passing_game.learn.play import PLAY

#: Every lesson, basics first: the order the page and the terminal take them in.
LESSONS: tuple[Lesson, ...] = (*BASICS, *PLAY)
BY_ID: dict[str, Lesson] = {lesson.id: lesson for lesson in LESSONS}
#: A newcomer's path to the first real round: the basics (P47).
FIRST_ROUND: tuple[Lesson, ...] = tuple(lesson for lesson in LESSONS if lesson.part == "basics")

__all__ = [
    "BASICS",
    "BY_ID",
    "FIRST_ROUND",
    "LESSONS",
    "PARTS",
    "PLAY",
    "Lesson",
    "after",
    "answers",
    "check",
    "position",
    "rest",
]
