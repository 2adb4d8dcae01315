"""What the page says of practice rounds (issue 25, item 3): the replay's
"Play on from here" and its choices (``static/practice.js``), and the table's
marks of a practice round. Listed in the page's catalog through
``web.http.texts.PAGE_TEXTS``.
"""

from __future__ import annotations

from passing_game.i18n import N_

#: Page text key -> English text (the keys are the texts themselves).
PRACTICE_TEXTS: dict[str, str] = {
    # TRANSLATORS: the replay's button: continue the position shown, against the computer.
    "Play on from here": N_("Play on from here"),
    # TRANSLATORS: an analysed decision's button: play its position on against the
    # computer, from before the move that was made there.
    "Play on from before this move": N_("Play on from before this move"),
    # TRANSLATORS: the practice dialog, opened from an analysed decision: where it starts.
    "Round {n}, before move {i}: {name} to move.": N_(
        "Round {n}, before move {i}: {name} to move."
    ),
    "Play this position on against the computer, from the seat whose view is shown.": N_(
        "Play this position on against the computer, from the seat whose view is shown."
    ),
    "The round is over at this move: step back to a move where it goes on.": N_(
        "The round is over at this move: step back to a move where it goes on."
    ),
    "Your seat": N_("Your seat"),
    # TRANSLATORS: the computer level that plays every other seat of a practice round.
    "The computer plays": N_("The computer plays"),
    # TRANSLATORS: a heading: how the tiles you cannot see are dealt in the practice round.
    "The hidden tiles": N_("The hidden tiles"),
    "As they were": N_("As they were"),
    "The other hands and the boneyard hold what they held in the game.": N_(
        "The other hands and the boneyard hold what they held in the game."
    ),
    "Dealt again": N_("Dealt again"),
    "The tiles you cannot see are shuffled again among the other hands and the boneyard, in keeping with everything you saw.": N_(  # noqa: E501
        "The tiles you cannot see are shuffled again among the other hands and the"
        " boneyard, in keeping with everything you saw."
    ),
    "Start playing": N_("Start playing"),
    "Setting up the table…": N_("Setting up the table…"),
    # TRANSLATORS: marks a table that plays one round on from a replay; nothing counts.
    "Practice round": N_("Practice round"),
    "One round, not rated, not kept in your games.": N_(
        "One round, not rated, not kept in your games."
    ),
    "Back to the replay": N_("Back to the replay"),
    # TRANSLATORS: the practice round's summary: the same position again, a new round.
    "Play it again": N_("Play it again"),
}

__all__ = ["PRACTICE_TEXTS"]
