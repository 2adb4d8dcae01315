"""One number for a decision everywhere (issue 24, item 8): the analysis as the page
gets it (``worded``) has values and losses that agree as a person reads them."""

from __future__ import annotations

from web_helpers import require_module

require_module("starlette")

from passing_game.bots import analysis  # noqa: E402
from passing_game.web.review.analyses import worded  # noqa: E402


def state(*evaluations: analysis.Evaluation) -> dict[str, object]:
    result = analysis.Analysis(seat=0, seed="1", evaluations=evaluations)
    return {"status": "done", "analysis": result.to_dict(), "explanations": {"en": ["why"] * 3}}


def evaluation(index: int, played: float, best: float, mark: str | None) -> analysis.Evaluation:
    return analysis.Evaluation(
        round=1,
        index=index,
        step=index - 1,
        played="L3-5",
        best="R6-6",
        values={"L3-5": played, "R6-6": best},
        loss=round(best - played, 3),
        mark=mark,
    )


def test_the_two_values_shown_differ_by_the_loss_shown() -> None:
    # Rounded apart, -5.17 and 3.26 read -5.2 and 3.3: 8.5 lost, where the loss is 8.43.
    got = worded(state(evaluation(4, -5.17, 3.26, "mistake")), "k" * 64, 0)["analysis"]
    row = got["evaluations"][0]
    assert row["loss"] == 8.4
    assert round(row["best_value"] - row["played_value"], 1) == row["loss"]
    assert row["values"] == {"L3-5": row["played_value"], "R6-6": row["best_value"]}
    assert got["costliest"][0]["loss"] == row["loss"]
    assert got["costliest"][0]["best_value"] == row["best_value"]


def test_a_loss_never_reads_as_a_threshold_it_did_not_reach() -> None:
    rows = [
        evaluation(2, -11.95, 0.0, "mistake"),  # 11.95: a mistake, not a blunder
        evaluation(4, -4.96, 0.0, None),  # 4.96: nothing
        evaluation(6, -12.0, 0.0, "blunder"),
    ]
    got = worded(state(*rows), "k" * 64, 0)["analysis"]
    shown = {r["index"]: (r["loss"], r["mark"]) for r in got["evaluations"]}
    assert shown == {2: (11.9, "mistake"), 4: (4.9, None), 6: (12.0, "blunder")}
    # The total is the exact losses' sum, rounded once (as the terminal's analysis says).
    assert got["total_loss"] == round(11.95 + 4.96 + 12.0, 1)
