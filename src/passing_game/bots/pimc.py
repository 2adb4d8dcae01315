"""``pimc``: Perfect Information Monte Carlo (determinized search).

As bridge's GIB and Skat's Kermit do: guess the hidden tiles many times
(``sampling.Sampler``: the deals the view allows, weighted by how likely
the others' passes, draws and plays were), search each guess as if every
tile were visible, and average what each move is worth over the guesses.

The search per guess is the kernel's (``alphabeta.Searcher``). With the
default ``depth=1`` each legal move is followed by the default playout for
every seat, so a guess costs one playout per move and hundreds of guesses
fit in the ``hard`` level's time (docs/STRENGTH.md). ``depth=2`` or more
adds alpha-beta (the mover's side against the rest) over the first moves;
on duplicate deals, at similar time per move, that scored *less* against
``greedy`` (docs/STRENGTH.md): an opponent that sees every tile of the
guess answers too well, which makes the search too pessimistic.

At depth 1 the search runs in the compiled kernel when it is built
(``bots.fast``, flat Monte Carlo over the guesses, far faster: see
docs/PERFORMANCE.md);
``engine="python"`` forces the pure-Python search, the fallback.

Budgets: ``worlds`` guesses (deterministic: same seed and view, same move)
and/or ``seconds`` (wall clock, stops at the first limit reached; not
reproducible). Levels use ``worlds``.
"""

from __future__ import annotations

import random
import time
from typing import ClassVar

from passing_game.bots import kernel
from passing_game.bots.alphabeta import Searcher
from passing_game.bots.explain import Advice, SearchBot
from passing_game.bots.fast import seed_from, use_kernel, view_worlds
from passing_game.bots.sampling import Sampler, check_trust
from passing_game.moves import code_to_move, move_to_code
from passing_game.views import View


class PimcBot(SearchBot):
    """Average search values over sampled deals; play the best move."""

    name: ClassVar[str] = "pimc"

    def __init__(
        self,
        seed: int | str = 0,
        worlds: int | None = None,
        seconds: float | None = None,
        depth: int = 1,
        trust: float = 0.3,
        heavy: float = 0.15,
        engine: str = "auto",
    ) -> None:
        super().__init__(seed)
        self.engine = engine
        self.use_kernel = use_kernel(engine)
        if worlds is None and seconds is None:
            worlds = 200
        if worlds is not None and worlds < 1:
            raise ValueError(f"worlds must be at least 1, got {worlds!r}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive, got {seconds!r}")
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth!r}")
        self.worlds = worlds
        self.seconds = seconds
        self.depth = depth
        self.trust = check_trust(trust)
        if heavy < 0:
            raise ValueError(f"heavy must be at least 0, got {heavy!r}")
        self.heavy = heavy

    def advise(self, view: View) -> Advice:
        moves = view.legal_moves()
        if not moves:
            raise ValueError(f"it is not seat {view.seat}'s turn (seat {view.to_move} is to move)")
        if len(moves) == 1:
            return Advice(moves[0])
        rng = self.rng(view)
        codes = [move_to_code(m) for m in moves]
        sampler = Sampler(view, trust=self.trust, heavy=self.heavy)
        side = view.rules.side_of(view.seat)
        if self.use_kernel and self.depth == 1:
            return self._kernel_advice(view, sampler, rng, codes)
        totals = dict.fromkeys(codes, 0.0)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while self.worlds is None or done < self.worlds:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            state = sampler.sample(rng)
            values = Searcher(side, self.depth).root_values(state, codes)
            for code, value in values.items():
                totals[code] += value
            done += 1
        best = max(codes, key=lambda c: totals[c])
        return Advice(code_to_move(best), {code_to_move(c): totals[c] / done for c in codes}, done)

    def _kernel_advice(
        self, view: View, sampler: Sampler, rng: random.Random, codes: list[int]
    ) -> Advice:
        """Depth 1 on the compiled kernel: one policy playout per move and world."""
        worlds = view_worlds(view, sampler, rng)
        seed = seed_from(rng)
        sums = [0.0] * len(codes)
        done = 0
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        while self.worlds is None or done < self.worlds:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            # a time budget checks the clock every 64 worlds; a count runs at once
            count = 64 if deadline is not None else self.worlds or 64
            if self.worlds is not None:
                count = min(count, self.worlds - done)
            part = kernel.search_flat(worlds, codes, count, 1, 0.0, True, seed + done)
            sums = [a + b for a, b in zip(sums, part, strict=True)]
            done += count
        best = max(range(len(codes)), key=lambda i: sums[i])
        values = {code_to_move(c): v / done for c, v in zip(codes, sums, strict=True)}
        return Advice(code_to_move(codes[best]), values, done)

    def __repr__(self) -> str:
        return (
            f"PimcBot(seed={self.seed!r}, worlds={self.worlds!r}, seconds={self.seconds!r}, "
            f"depth={self.depth!r})"
        )
