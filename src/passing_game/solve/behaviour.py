"""What a policy does where it could play: how often it passes or draws
instead, and when (issue 28's question of the equilibrium).

Each decision is weighed by how often play reaches it (the reach of its
information set when the policy plays both seats). The moments are read
from the information set's key (``game.infoset_key``), so no round is
rebuilt: with ``draw="ends-turn"`` every move ends the turn (D1), so the
k-th move is the leader's when k is even.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from passing_game.moves import DRAW_CODE, PASS_CODE
from passing_game.solve.game import Policy, SolvedGame

#: The moments a decision with a playable tile is sorted into.
MOMENTS = (
    "lead",  # the empty train (D12)
    "after a pass",  # the other seat just passed: a pass now ends the round (D3)
    "one tile left",
    "otherwise",
)


@dataclass(frozen=True)
class Share:
    """Of the decisions with a playable tile at one moment: their weight, and
    the share of it that passes and that draws."""

    moment: str
    weight: float
    passes: float
    draws: float


def moment(key: bytes, hand_size: int) -> str:
    """Which of ``MOMENTS`` a decision is, from its information set's key."""
    seat, leader, codes = key[0], key[5], key[6:]
    history: list[tuple[int, int]] = []  # (seat, code)
    k = 0
    i = 0
    while i < len(codes):
        mover = (leader + k) % 2
        history.append((mover, codes[i]))
        i += 2 if codes[i] == DRAW_CODE and mover == seat else 1
        k += 1
    if not any(code < DRAW_CODE for _, code in history):
        return "lead"
    if history and history[-1][1] == PASS_CODE:
        return "after a pass"
    mine = [code for mover, code in history if mover == seat]
    held = hand_size - sum(code < DRAW_CODE for code in mine) + mine.count(DRAW_CODE)
    return "one tile left" if held == 1 else "otherwise"


def shares(game: SolvedGame, policy: Policy) -> list[Share]:
    """Per moment (and ``"all"``), what ``policy`` does with a playable tile in self-play."""
    if game.rules.draw != "ends-turn":
        raise ValueError("the moments are read for draw='ends-turn' (D1) only")
    reach = game.reach(policy, policy)
    totals: dict[str, list[float]] = {m: [0.0, 0.0, 0.0] for m in (*MOMENTS, "all")}
    for index, weight, probs in _decisions(game, policy, reach):
        info = game.infoset(index)
        if not any(code < DRAW_CODE for code in info.codes):
            continue
        passes = sum(p for c, p in zip(info.codes, probs, strict=True) if c == PASS_CODE)
        draws = sum(p for c, p in zip(info.codes, probs, strict=True) if c == DRAW_CODE)
        for name in (moment(info.key, game.rules.hand_size), "all"):
            row = totals[name]
            row[0] += weight
            row[1] += weight * passes
            row[2] += weight * draws
    return [
        Share(name, w, p / w if w else 0.0, d / w if w else 0.0)
        for name, (w, p, d) in totals.items()
    ]


def _decisions(
    game: SolvedGame, policy: Policy, reach: Policy
) -> Iterator[tuple[int, float, list[float]]]:
    """Every set ``reach`` reaches: its index, its reach, ``policy``'s probabilities."""
    for index, weight in enumerate(reach):
        if weight > 0:
            yield index, weight, list(game.probabilities(policy, index))


def _kind(code: int) -> str:
    return "play" if code < DRAW_CODE else "draw" if code == DRAW_CODE else "pass"


#: How a bot's move and the equilibrium's can differ, in the order reported.
DIFFERENCES = (
    "leads another tile",
    "plays another tile",
    "passes where the equilibrium plays",
    "plays where the equilibrium passes",
    "draws where the equilibrium plays",
    "plays where the equilibrium draws",
    "passes or draws where the equilibrium does the other",
)


def differences(game: SolvedGame, equilibrium: Policy, policy: Policy) -> dict[str, float]:
    """Where a pure ``policy`` (a bot's) and the equilibrium part, as shares of
    the bot's decisions when it plays the equilibrium (each decision weighed
    by its reach, each difference by the equilibrium's probability of doing
    the other thing). ``"decisions"`` holds the total weight."""
    as_first = game.reach(policy, equilibrium)
    as_second = game.reach(equilibrium, policy)
    out = dict.fromkeys(DIFFERENCES, 0.0)
    total = 0.0
    for index in range(game.size):
        info = game.infoset(index)
        weight = (as_first if info.seat == 0 else as_second)[index]
        mine = list(game.probabilities(policy, index))
        if weight <= 0 or sum(mine) == 0:
            continue
        total += weight
        chosen = info.codes[mine.index(max(mine))]
        theirs = dict(zip(info.codes, game.probabilities(equilibrium, index), strict=True))
        other = {
            k: sum(p for c, p in theirs.items() if _kind(c) == k) for k in ("play", "draw", "pass")
        }
        kind = _kind(chosen)
        if kind == "play":
            lead = moment(info.key, game.rules.hand_size) == "lead"
            elsewhere = other["play"] - theirs[chosen]
            out["leads another tile" if lead else "plays another tile"] += weight * elsewhere
            out["plays where the equilibrium passes"] += weight * other["pass"]
            out["plays where the equilibrium draws"] += weight * other["draw"]
        elif kind == "pass":
            out["passes where the equilibrium plays"] += weight * other["play"]
            out["passes or draws where the equilibrium does the other"] += weight * other["draw"]
        else:
            out["draws where the equilibrium plays"] += weight * other["play"]
            out["passes or draws where the equilibrium does the other"] += weight * other["pass"]
    shares_of = {name: value / total if total else 0.0 for name, value in out.items()}
    return {**shares_of, "decisions": total}
