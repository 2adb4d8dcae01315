"""``passing-game analyse RECORD --seat N``: what each decision of one seat cost.

The analysis itself is ``passing_game.bots.analysis`` (the expert, from the
seat's view only); this command reads the record, checks that its game is
over, runs it (in worker processes with ``--workers``) and prints the
decisions, the mistakes and blunders, and the three costliest in words.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import click

from passing_game.cli.options import TranslatedCommand, check_seat, option
from passing_game.cli.sources import read_record
from passing_game.i18n import N_, _, ngettext
from passing_game.moves import parse_move
from passing_game.records import record_marks, record_names
from passing_game.views import View
from passing_game.words import Seats, advice_words, auto_mark

#: The most worker processes ``--workers`` may ask for.
MAX_WORKERS = 16


def mark_word(mark: str | None, auto: str | None = None) -> str:
    if made_for := auto_mark(auto):
        return made_for
    if mark == "blunder":
        return _("blunder")
    if mark == "mistake":
        return _("mistake")
    return ""


@contextmanager
def _pool(workers: int) -> Iterator[ProcessPoolExecutor | None]:
    if workers <= 1:
        yield None
        return
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"))
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@click.command(
    "analyse",
    cls=TranslatedCommand,
    help=N_(
        "Analyse a finished game's record: the expert judges each decision of one seat"
        " from that seat's view, and marks the mistakes and blunders."
    ),
)
@click.argument("record", type=click.Path(dir_okay=False, path_type=Path))
@option(
    "--seat",
    type=int,
    metavar="N",
    required=True,
    help=N_("The seat whose decisions are analysed, numbered from 1."),
)
@option(
    "--all",
    "show_all",
    is_flag=True,
    help=N_("List every decision, not only the mistakes and blunders."),
)
@option(
    "--workers",
    type=click.IntRange(1, MAX_WORKERS),
    default=1,
    show_default=True,
    help=N_("Worker processes that search at once."),
)
def analyse_command(record: Path, seat: int, show_all: bool, workers: int) -> None:
    """Analyse a finished game's record for one seat."""
    from passing_game import l10n
    from passing_game.bots import analysis
    from passing_game.terminal.game import HUMAN_NAME
    from passing_game.terminal.render import (  # installs l10n (the hints' numbers)
        glyphs_for,
        make_console,
        with_minus,
    )

    match, data = read_record(record)
    rules = match.rules
    check_seat(seat, rules)
    if not match.is_over:
        raise click.ClickException(
            _("the game in {path} is not over: only a finished game is analysed").format(
                path=record
            )
        )
    names = record_names(data)
    usable = tuple(names) if names and len(names) == rules.players else None
    # A terminal game's record names its player "human": that is the reader, "you".
    you = seat - 1 if usable is not None and usable[seat - 1] == HUMAN_NAME else None
    seats = Seats(rules, usable, human=you)
    console = make_console()
    glyphs = glyphs_for(console.encoding)

    def signed(value: float | None) -> str:
        """Expected points with a sign, the minus as the round summaries write it."""
        return with_minus(l10n.decimal(value or 0.0, 1, sign=True), glyphs)

    marks = record_marks(data)
    turns = analysis.decisions(match, seat - 1, marks)
    with _pool(min(workers, os.cpu_count() or 1)) as pool, _progress(console) as progress:
        result = analysis.analyse_decisions(
            turns,
            seat - 1,
            seed=analysis.record_seed(data),
            executor=pool,
            progress=progress,
        )
    views = {(d.round, d.index): d.view for d in turns}
    show = _printer(console)
    if you is not None:
        title = _("The expert's analysis of your decisions (seat {seat})").format(seat=seat)
    else:
        title = _("The expert's analysis of the decisions of {player}").format(
            player=seats.label(seat - 1, in_sentence=True)
        )
    show(title, "bold")
    choices = result.choices
    listed = (
        [e for e in result.evaluations if not e.forced]
        if show_all
        else [e for e in choices if e.mark is not None]
    )
    if listed:
        _table(console, listed, views, l10n.decimal)
    show("")
    show(
        _("{decisions}: {same}, {mistakes}, {blunders}; points lost in all: {points}.").format(
            decisions=ngettext("{n} decision", "{n} decisions", len(choices)).format(
                n=l10n.number(len(choices))
            ),
            same=ngettext(
                "{n} as the expert would play", "{n} as the expert would play", result.agreed
            ).format(n=l10n.number(result.agreed)),
            mistakes=ngettext("{n} mistake", "{n} mistakes", result.count("mistake")).format(
                n=l10n.number(result.count("mistake"))
            ),
            blunders=ngettext("{n} blunder", "{n} blunders", result.count("blunder")).format(
                n=l10n.number(result.count("blunder"))
            ),
            points=l10n.decimal(result.total_loss, 1),
        ),
        "bold",
    )
    show(
        _(
            "A loss of {mistake} points or more is a mistake, {blunder} or more a blunder"
            " (expected points at the end of the round)."
        ).format(mistake=l10n.decimal(analysis.MISTAKE), blunder=l10n.decimal(analysis.BLUNDER)),
        "dim",
    )
    costly = analysis.explain(result, match)
    if costly:
        show("")
        show(_("The costliest decisions:"), "bold")
    for number, (evaluation, words) in enumerate(costly, start=1):
        view = views[(evaluation.round, evaluation.index)]
        show(
            _(
                "{n}. Round {round}, move {move}: {played} ({mine} points);"
                " the expert's choice: {best} ({theirs} points)."
            ).format(
                n=number,
                round=evaluation.round,
                move=evaluation.index,
                played=advice_words(parse_move(evaluation.played), view.ends, decided=True),
                mine=signed(evaluation.played_value),
                best=advice_words(parse_move(evaluation.best), view.ends, decided=True),
                theirs=signed(evaluation.best_value),
            )
        )
        show("   " + with_minus(words, glyphs), "dim")


def _printer(console: Any) -> Callable[..., None]:
    def show(text: str, style: str = "") -> None:
        console.print(text, style=style or None)

    return show


@contextmanager
def _progress(console: Any) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on a terminal; nothing when the output is piped."""
    if not console.is_terminal:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(
        TextColumn(_("Analysing")),
        BarColumn(),
        MofNCompleteColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def _table(
    console: Any,
    rows: list[Any],
    views: dict[tuple[int, int], View],
    decimal: Callable[..., str],
) -> None:
    from rich.table import Table

    table = Table(show_edge=False, pad_edge=False)
    table.add_column(_("Round"), justify="right")
    table.add_column(_("Move"), justify="right")
    table.add_column(_("Played"))
    table.add_column(_("The expert's choice"))
    table.add_column(_("Points lost"), justify="right")
    table.add_column(_("Mark"))
    for e in rows:
        view = views[(e.round, e.index)]
        style = "bold red" if e.mark == "blunder" else "yellow" if e.mark == "mistake" else None
        table.add_row(
            str(e.round),
            str(e.index),
            advice_words(parse_move(e.played), view.ends, decided=True),
            "" if e.best == e.played else advice_words(parse_move(e.best), view.ends, decided=True),
            decimal(e.loss, 1),
            mark_word(e.mark, e.auto),
            style=style,
        )
    console.print(table)
