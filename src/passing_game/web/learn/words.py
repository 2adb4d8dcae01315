"""What the tutorial's page says (``static/learn.js``), beside the feature.

Listed in the page's catalog through ``web.http.texts.PAGE_TEXTS`` (plain)
and ``web.http.i18n.PAGE_PLURALS`` (counted). The lessons' own titles, texts
and sentences are the lessons' (``passing_game.learn``), translated by the
endpoints.
"""

from __future__ import annotations

from collections.abc import Callable

from passing_game.i18n import N_, ngettext

#: Page text key -> English text (the keys are the texts themselves).
LEARN_TEXTS: dict[str, str] = {
    "Learn to play": N_("Learn to play"),
    "Lessons": N_("Lessons"),
    # TRANSLATORS: the mark beside a lesson already done.
    "done": N_("done"),
    "Lesson {n} of {total}": N_("Lesson {n} of {total}"),
    "Next lesson": N_("Next lesson"),
    "Try again": N_("Try again"),
    "Play the computer now": N_("Play the computer now"),
    "New to The Passing Game? Learn it in 3 minutes.": N_(
        "New to The Passing Game? Learn it in 3 minutes."
    ),
    "Start the tutorial": N_("Start the tutorial"),
    "No thanks": N_("No thanks"),
    "Learn to play: the tutorial": N_("Learn to play: the tutorial"),
    "You finished the tutorial. Now play a real game against the computer.": N_(
        "You finished the tutorial. Now play a real game against the computer."
    ),
    "The basics": N_("The basics"),
    # TRANSLATORS: the tutorial's second part: the target score and partnerships.
    "Target and teams": N_("Target and teams"),
    "Playing well": N_("Playing well"),
    "You know the basics. Now play a real game against the computer.": N_(
        "You know the basics. Now play a real game against the computer."
    ),
    "More lessons": N_("More lessons"),
    "You know the basics. Go on with the target, partnerships and playing well.": N_(
        "You know the basics. Go on with the target, partnerships and playing well."
    ),
    "Scores: you {you}, your opponent {them}. Target {target}.": N_(
        "Scores: you {you}, your opponent {them}. Target {target}."
    ),
    "Which end? Tap one.": N_("Which end? Tap one."),
    "Put [{a}|{b}] on the left end: it will show {n}": N_(
        "Put [{a}|{b}] on the left end: it will show {n}"
    ),
    "Put [{a}|{b}] on the right end: it will show {n}": N_(
        "Put [{a}|{b}] on the right end: it will show {n}"
    ),
    "The lesson could not be loaded.": N_("The lesson could not be loaded."),
}

#: Counted page texts: key -> the form for ``n``.
LEARN_PLURALS: dict[str, Callable[[int], str]] = {
    # The terminal's sentence (words.boneyard_line's), already translated.
    "Boneyard: {n} tile.": lambda n: ngettext("Boneyard: {n} tile.", "Boneyard: {n} tiles.", n),
    "{n} lesson done": lambda n: ngettext("{n} lesson done", "{n} lessons done", n),
}

__all__ = ["LEARN_PLURALS", "LEARN_TEXTS"]
