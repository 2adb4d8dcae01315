"""What the solution teaches a bot (issue 28, item 7): where its moves in a
solved variant part from the equilibrium's, what each parting costs, and in
which positions.

The cost is exact. ``SolvedGame.action_values`` gives, at every information
set, each move's value when both seats play the equilibrium afterwards,
given what the mover knows there (its counterfactual value). By the
performance-difference identity, a bot playing the equilibrium loses, a
round, the sum over its decisions (weighed by how often its play reaches
them) of the equilibrium's value there less its own move's: so every
decision's ``loss`` is its share of the bot's points a round against the
equilibrium, and those losses add up to that figure exactly. A loss splits
further over the equilibrium's moves: ``Σ_b eq(b) · (Q(b) − Q(chosen))``,
each term belonging to one kind of difference (a pass where the equilibrium
plays, another tile...).

Two ways to collect the decisions: ``exact`` for a bot's whole policy
(``solve.bot_policy``: every set its play reaches, each weighed by its
reach), and ``sampled`` for a large variant where asking the bot everywhere
would take days: rounds of the bot against the equilibrium, each decision
weighed 1 / rounds, which estimates the same sums without bias.

``python -m passing_game.solve.lessons --set 3 --hand-size 4 --bot expert``
prints the tables of docs/STRENGTH.md, "What the solution teaches the
expert (issue 28)".
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from passing_game.bots import Bot, make, parse_spec
from passing_game.moves import DRAW_CODE, PASS_CODE, Draw, Pass, Play, code_to_move, move_to_code
from passing_game.round import Round
from passing_game.rules import Rules
from passing_game.solve.behaviour import DIFFERENCES, moment
from passing_game.solve.game import Policy, SolvedGame
from passing_game.solve.policies import bot_policy
from passing_game.views import View

#: The other seat's last move before a decision.
AFTER = ("nothing yet", "a play", "a draw", "a pass")


@dataclass(frozen=True)
class ActionValues:
    """``SolvedGame.action_values`` normalised: each move's value for the mover
    (points of the round), and each set's expected count margin (the other
    seat's pips less the mover's) and chance of holding the lower count."""

    game: SolvedGame
    q: Policy  # per action, for the mover
    margin: Policy  # per set
    lowest: Policy  # per set

    def of(self, index: int) -> list[float]:
        return list(self.q[self.game.offsets[index] : self.game.offsets[index + 1]])


def action_values(game: SolvedGame, policy: Policy) -> ActionValues:
    """Every move's value at every set when both seats play ``policy`` (the equilibrium)."""
    raw_q, raw_w, raw_m, raw_low = game.action_values(policy, policy)
    q, w, m, low = (array("d", x) for x in (raw_q, raw_w, raw_m, raw_low))
    margin, lowest = array("d", bytes(8 * game.size)), array("d", bytes(8 * game.size))
    for i in range(game.size):
        weight = w[i]
        if weight <= 0:
            continue
        sign = 1.0 if game.infoset(i).seat == 0 else -1.0
        start, end = game.offsets[i], game.offsets[i + 1]
        for a in range(start, end):
            q[a] = sign * q[a] / weight
        margin[i] = m[i] / weight
        lowest[i] = low[i] / weight
    return ActionValues(game, q, margin, lowest)


def kind_of(code: int) -> str:
    return "play" if code < DRAW_CODE else "draw" if code == DRAW_CODE else "pass"


def difference(chosen: int, other: int, lead: bool) -> str | None:
    """Which of ``behaviour.DIFFERENCES`` choosing ``chosen`` where the
    equilibrium chose ``other`` is (None: the same move)."""
    if chosen == other:
        return None
    mine, theirs = kind_of(chosen), kind_of(other)
    if mine == theirs == "play":
        return "leads another tile" if lead else "plays another tile"
    if mine == "play":
        return f"plays where the equilibrium {'passes' if theirs == 'pass' else 'draws'}"
    if theirs == "play":
        return f"{'passes' if mine == 'pass' else 'draws'} where the equilibrium plays"
    return "passes or draws where the equilibrium does the other"


@dataclass(frozen=True)
class Decision:
    """One decision of the bot against the equilibrium, and where it stood."""

    index: int  # the information set
    seat: int
    weight: float  # how often a round reaches it (the mean of both seats)
    chosen: int  # the bot's move code
    loss: float  # points the bot's move loses there against the equilibrium's mix
    parts: dict[str, float]  # the loss by kind of difference (sums to ``loss``)
    shares: dict[str, float]  # the equilibrium's probability of each kind of difference
    eq_play: float  # the equilibrium's probability of playing a tile there
    eq_pass: float
    moment: str  # behaviour.MOMENTS
    hand: int  # tiles in the mover's hand
    playable: int  # tiles of it that fit
    pips: int  # its pips
    margin: float  # the other seat's pips less the mover's, expected given the set
    lowest: float  # the chance the mover holds the lower count
    after: str  # AFTER: the other seat's last move
    round: int = -1  # the sampled round it was met in (-1: from the whole policy)

    @property
    def kind(self) -> str:
        return kind_of(self.chosen)


def after(view: View) -> str:
    """What the other seat did last (``AFTER``)."""
    for turn in reversed(view.history):
        if turn.seat != view.seat:
            move = turn.move
            return (
                "a pass"
                if isinstance(move, Pass)
                else "a draw"
                if isinstance(move, Draw)
                else "a play"
            )
    return "nothing yet"


def decision(
    game: SolvedGame,
    eq: Policy,
    values: ActionValues,
    index: int,
    chosen: int,
    weight: float,
    view: View,
    round_index: int = -1,
) -> Decision:
    """The bot's move ``chosen`` at set ``index`` (whose example view is ``view``)."""
    info = game.infoset(index)
    q = values.of(index)
    probs = list(game.probabilities(eq, index))
    mine = q[info.codes.index(chosen)]
    lead = moment(info.key, game.rules.hand_size) == "lead"
    parts = dict.fromkeys(DIFFERENCES, 0.0)
    shares = dict.fromkeys(DIFFERENCES, 0.0)
    for code, p, value in zip(info.codes, probs, q, strict=True):
        name = difference(chosen, code, lead)
        if name is not None and p > 0:
            parts[name] += p * (value - mine)
            shares[name] += p
    fits = [m for m in view.legal_moves() if isinstance(m, Play)]
    return Decision(
        index=index,
        seat=info.seat,
        weight=weight,
        chosen=chosen,
        loss=sum(parts.values()),
        parts=parts,
        shares=shares,
        eq_play=sum(p for c, p in zip(info.codes, probs, strict=True) if c < DRAW_CODE),
        eq_pass=sum(p for c, p in zip(info.codes, probs, strict=True) if c == PASS_CODE),
        moment=moment(info.key, game.rules.hand_size),
        hand=len(view.hand),
        playable=len({m.tile for m in fits}),
        pips=sum(t.pips for t in view.hand),
        margin=values.margin[index],
        lowest=values.lowest[index],
        after=after(view),
        round=round_index,
    )


def exact(game: SolvedGame, eq: Policy, values: ActionValues, policy: Policy) -> list[Decision]:
    """Every decision a pure ``policy`` (``solve.bot_policy``) makes against the
    equilibrium, from both seats, weighed by its reach (half a round's each)."""
    out = []
    for seat in (0, 1):
        reach = game.reach(policy, eq) if seat == 0 else game.reach(eq, policy)
        for index in range(game.size):
            info = game.infoset(index)
            if info.seat != seat or reach[index] <= 0:
                continue
            probs = list(game.probabilities(policy, index))
            chosen = info.codes[probs.index(max(probs))]
            out.append(
                decision(game, eq, values, index, chosen, reach[index] / 2, game.view_at(index))
            )
    return out


def sampled(
    game: SolvedGame,
    eq: Policy,
    values: ActionValues,
    bot: Bot,
    rounds: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> list[Decision]:
    """The decisions of ``rounds`` rounds of ``bot`` against the equilibrium:
    uniformly dealt (as the tree deals, R3.1), the bot in seat 0 of even
    rounds and seat 1 of odd ones, the equilibrium's moves drawn from its
    mix; each decision weighs 1 / rounds."""
    out = []
    for r in range(rounds):
        rng = random.Random(f"lessons|{seed}|{r}")  # the same deals for every bot
        rnd = Round.new(game.rules, seed=rng.randrange(2**63))
        mine = r % 2
        while not rnd.is_over:
            seat = rnd.to_move
            assert seat is not None
            view = rnd.view(seat)
            index = game.find(view)
            info = game.infoset(index)
            if seat == mine:
                move = bot.choose(view)
                chosen = move_to_code(move)
                if chosen not in info.codes:
                    chosen &= ~1  # the same play listed on the left (P2)
                out.append(decision(game, eq, values, index, chosen, 1 / rounds, view, r))
            else:
                probs = list(game.probabilities(eq, index))
                code = rng.choices(info.codes, weights=probs)[0]
                move = code_to_move(code)
            rnd.play(move)
        if progress is not None:
            progress(r + 1)
    return out


# -- tables --------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """A group of decisions: their weight a round, the bot's passes among those
    with a playable tile, and the points a round lost."""

    label: str
    decisions: float  # a round
    playable: float  # of them with a playable tile
    passes: float  # the bot's passes with a playable tile, a round
    eq_passes: float  # the equilibrium's there
    lost: float  # points a round
    lost_passing: float  # of it, by passing where the equilibrium plays


def row(label: str, group: Iterable[Decision]) -> Row:
    items = list(group)
    fit = [d for d in items if d.playable]
    return Row(
        label,
        sum(d.weight for d in items),
        sum(d.weight for d in fit),
        sum(d.weight for d in fit if d.kind == "pass"),
        sum(d.weight * d.eq_pass for d in fit),
        sum(d.weight * d.loss for d in items),
        sum(d.weight * d.parts["passes where the equilibrium plays"] for d in items),
    )


def by_difference(decisions: Sequence[Decision]) -> list[tuple[str, float, float]]:
    """Each kind of difference: its share of the decisions, and points a round lost by it."""
    total = sum(d.weight for d in decisions) or 1.0
    return [
        (
            name,
            sum(d.weight * d.shares[name] for d in decisions) / total,
            sum(d.weight * d.parts[name] for d in decisions),
        )
        for name in DIFFERENCES
    ]


def per_round(decisions: Sequence[Decision], rounds: int, part: str | None = None) -> list[float]:
    """Points lost in each sampled round (all, or by one kind of difference ``part``)."""
    totals = [0.0] * rounds
    for d in decisions:
        if d.round >= 0:
            totals[d.round] += d.loss if part is None else d.parts[part]
    return totals


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """A mean and the half-width of its 95% interval (normal; ample rounds)."""
    if len(values) < 2:
        return (values[0] if values else 0.0), 0.0
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def interval(
    decisions: Sequence[Decision], rounds: int, part: str | None = None
) -> tuple[float, float]:
    """Points a round lost (all, or by one kind of difference ``part``) and the
    half-width of its 95% interval over sampled rounds (0 for a whole policy)."""
    if rounds < 2 or all(d.round < 0 for d in decisions):
        lost = sum(d.weight * (d.loss if part is None else d.parts[part]) for d in decisions)
        return lost, 0.0
    return mean_interval(per_round(decisions, rounds, part))


def lowest_bucket(d: Decision) -> str:
    return (
        "likely lower (> 2/3)"
        if d.lowest > 2 / 3
        else "likely higher (< 1/3)"
        if d.lowest < 1 / 3
        else "unsure"
    )


#: The groupings of the tables, each a name and a key of a decision.
GROUPS: tuple[tuple[str, Callable[[Decision], object]], ...] = (
    ("moment", lambda d: d.moment),
    ("the other seat's last move", lambda d: d.after),
    ("tiles in hand", lambda d: d.hand),
    ("tiles that fit", lambda d: d.playable),
    ("holds the lower count", lowest_bucket),
)


def grouped(decisions: Sequence[Decision], key: Callable[[Decision], object]) -> list[Row]:
    groups: dict[object, list[Decision]] = {}
    for d in decisions:
        groups.setdefault(key(d), []).append(d)
    return [row(str(k), groups[k]) for k in sorted(groups, key=str)]


def markdown(decisions: Sequence[Decision], title: str, rounds: int = 0) -> str:
    """The tables of one bot in one variant (``rounds``: how many were sampled,
    for the intervals; 0 for a whole policy)."""
    total = row("all", decisions)

    def lost(part: str | None = None) -> str:
        value, half = interval(decisions, rounds, part)
        return f"{value:+.4f}" + (f" ± {half:.4f}" if half else "")

    lines = [
        f"#### {title}",
        "",
        f"{total.decisions:.2f} decisions a round; points a round lost against the "
        f"equilibrium: **{lost()}**, of which {lost(DIFFERENCES[2])} by passing "
        "where it plays.",
        "",
        "| difference | share of decisions | points a round lost |",
        "|---|---:|---:|",
        *(f"| {n} | {s:.1%} | {lost(n)} |" for n, s, _lost in by_difference(decisions)),
    ]
    for name, key in GROUPS:
        lines += [
            "",
            f"| {name} | decisions a round | with a tile that fits | bot passes "
            "| equilibrium passes | lost | lost by passing |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for r in [*grouped(decisions, key), total]:
            fit = r.playable or 1.0
            lines.append(
                f"| {r.label} | {r.decisions:.3f} | {r.playable:.3f} | {r.passes / fit:.1%} "
                f"| {r.eq_passes / fit:.1%} | {r.lost:+.4f} | {r.lost_passing:+.4f} |"
            )
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m passing_game.solve.lessons",
        description="Where a bot's moves in a solved variant part from the equilibrium's"
        " and what each parting costs.",
    )
    parser.add_argument("--set", type=int, default=2, dest="max_pip")
    parser.add_argument("--hand-size", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=1000, help="CFR+ iterations")
    parser.add_argument(
        "--bot",
        action="append",
        help="a bot, level or frozen name, with options as the arena takes them"
        " (NAME:KEY=VALUE,...); repeatable",
    )
    parser.add_argument(
        "--rounds", type=int, default=0, help="sample this many rounds (0: the whole policy, exact)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--equilibrium",
        type=Path,
        help="keep the equilibrium in this file: read it if it is there, else write it",
    )
    args = parser.parse_args(argv)
    try:
        rules = Rules(max_pip=args.max_pip, hand_size=args.hand_size)
        bots = [parse_spec(text) for text in args.bot or ["expert"]]
        for name, options in bots:
            make(name, **dict(options))
    except ValueError as error:
        parser.error(str(error))
    if args.rounds < 0 or args.iterations < 1:
        parser.error("--rounds is 0 or more and --iterations 1 or more")
    started = time.perf_counter()
    game = SolvedGame(rules)
    eq = array("d")
    if args.equilibrium is not None and args.equilibrium.exists():
        eq.frombytes(args.equilibrium.read_bytes())
        if len(eq) != game.offsets[-1]:
            parser.error(f"{args.equilibrium} is not a policy of this variant")
        exploitability = game.exploitability(eq)
    else:
        game.run(args.iterations)
        eq = game.average()
        exploitability = game.exploitability(eq)
        if args.equilibrium is not None:
            args.equilibrium.write_bytes(eq.tobytes())
    values = action_values(game, eq)
    took = time.perf_counter() - started
    print(
        f"double-{args.max_pip}, {args.hand_size} a hand: {game.size:,} sets, "
        f"CFR+ {args.iterations}, exploitability {exploitability:.6f} ({took:.0f} s)",
        file=sys.stderr,
    )
    compared: list[tuple[str, list[float]]] = []
    for text, (name, options) in zip(args.bot or ["expert"], bots, strict=True):
        started = time.perf_counter()
        if args.rounds:
            bot = make(name, seed=args.seed, **dict(options))
            found = sampled(game, eq, values, bot, args.rounds, args.seed)
            how = f"{args.rounds:,} rounds against the equilibrium (seed {args.seed})"
        else:
            policy, _ = bot_policy(game, name, options=dict(options))
            found = exact(game, eq, values, policy)
            how = f"its whole policy (exploitability {game.exploitability(policy):.4f})"
        print(markdown(found, f"`{text}`, {how}", args.rounds))
        print(f"{text}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
        if args.rounds:
            compared.append((text, per_round(found, args.rounds)))
    if len(compared) > 1:
        print(comparison(compared))
    return 0


def comparison(compared: Sequence[tuple[str, list[float]]]) -> str:
    """Bots sampled on the same rounds: each one's points a round lost, and its
    difference from the first's, paired round by round (95% intervals)."""
    first = compared[0][1]
    lines = [
        f"| bot | points a round lost | less the first's (`{compared[0][0]}`) |",
        "|---|---:|---:|",
    ]
    for text, totals in compared:
        lost, half = mean_interval(totals)
        diff, dhalf = mean_interval([a - b for a, b in zip(totals, first, strict=True)])
        lines.append(f"| `{text}` | {lost:.3f} ± {half:.3f} | {diff:+.3f} ± {dhalf:.3f} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
