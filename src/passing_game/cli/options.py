"""Option plumbing shared by the subcommands: translated help, and the rules.

Every command that sets up a game (``play``, ``arena``) takes the same
``--players`` and variant options, declared once here, so a new variant is
added in one place and means the same thing everywhere.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import click

from passing_game.i18n import N_, _, ngettext
from passing_game.rules import (
    DRAW_RULES,
    LEADER_RULES,
    PASSING_RULES,
    SCORING_RULES,
    TARGET_PRESETS,
    Rules,
    RulesError,
)


class TranslatedOption(click.Option):
    """An option whose help text is translated when shown, not when imported.

    Subcommand modules are imported before ``--lang`` takes effect, so help
    strings are stored untranslated (marked with ``N_``) and translated here.
    """

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        if record is None or not self.help:
            return record
        text = _(self.help)
        if "{bots}" in text:
            from passing_game.terminal.game import fair_bot_names

            text = text.format(bots=", ".join(fair_bot_names()))
        return record[0], record[1].replace(self.help, text, 1)


class TranslatedHelp(click.Command):
    """A command whose description and ``--help`` are translated when shown."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        original = self.help
        if original:
            self.help = _(original)
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = original

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        from passing_game.cli.click_i18n import help_option

        return help_option(super().get_help_option(ctx))


class TranslatedCommand(TranslatedHelp):
    """A subcommand (``play``, ``serve``, ...) with its help translated."""


class TranslatedGroup(TranslatedHelp, click.Group):
    """A group of subcommands (``admin``): its commands' summaries translated too."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and command.help:
                rows.append((name, _(command.help).split("\n")[0]))
        if rows:
            with formatter.section(_("Commands")):
                formatter.write_dl(rows)


_F = TypeVar("_F", bound=Callable[..., Any])


def option(*names: str, **settings: Any) -> Callable[[_F], _F]:
    """``click.option`` with help translated at display time."""
    return click.option(*names, cls=TranslatedOption, **settings)


def cores() -> int:
    """The cores this process may use (its affinity where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


#: ``-j/--jobs`` of the developer tools that fan out over processes (``arena``, ``puzzles``).
jobs_option = click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: every core this process may use).",
)


def build_rules(
    players: int | None,
    partnerships: bool,
    draw: str,
    passing: str,
    scoring: str,
    leader: str,
    target: int | None,
    target_preset: str | None,
    max_pip: int = 6,
    hand_size: int | None = None,
) -> Rules:
    """Rules from the options; a bad combination becomes a usage error."""
    if target is not None and target_preset is not None:
        raise click.UsageError(_("give --target or --target-preset, not both"))
    fields: dict[str, Any] = {
        "players": players if players is not None else (4 if partnerships else 2),
        "partnerships": partnerships,
        "draw": draw,
        "passing": passing,
        "scoring": scoring,
        "leader": leader,
        "max_pip": max_pip,
        "hand_size": hand_size,
    }
    try:
        if target_preset is not None:
            return Rules.with_target_preset(target_preset, **fields)
        return Rules(target=target, **fields)  # type: ignore[arg-type]
    except RulesError as exc:
        raise click.UsageError(str(exc)) from None


def check_seat(seat: int, rules: Rules) -> None:
    """``--seat`` (numbered from 1, as people count) names a seat of these rules, or a
    usage error that says which numbers are seats (0 is not one)."""
    if not 1 <= seat <= rules.players:
        raise click.BadParameter(
            ngettext(
                "seat must be 1 with {n} player",
                "seat must be 1 to {n} with {n} players",
                rules.players,
            ).format(n=rules.players),
            param_hint="'--seat'",
        )


#: The options that choose the rules, in the order ``--help`` lists them.
_RULES_OPTIONS: tuple[Callable[[Any], Any], ...] = (
    option(
        "-n",
        "--players",
        type=click.IntRange(2, 4),
        default=None,
        help=N_("Number of players, 2 to 4 (default 2, or 4 with --partnerships)."),
    ),
    option(
        "--partnerships",
        is_flag=True,
        help=N_("Four players in two teams: seats 1+3 against 2+4."),
    ),
    option(
        "--draw",
        type=click.Choice(DRAW_RULES),
        default="ends-turn",
        show_default=True,
        help=N_(
            "ends-turn: a draw ends your turn (the standard game);"
            " continue: after a draw you act again (play, draw or pass)."
        ),
    ),
    option(
        "--passing",
        type=click.Choice(PASSING_RULES),
        default="free",
        show_default=True,
        help=N_(
            "free: you may always pass (the standard game);"
            " forced: you may pass only when you can neither play nor draw."
        ),
    ),
    option(
        "--scoring",
        type=click.Choice(SCORING_RULES),
        default="literal",
        show_default=True,
        help=N_(
            "How the round's winner scores. literal: the others' sum minus their own count"
            " (the standard game); pairwise: the difference to each other count, added up."
        ),
    ),
    option(
        "--leader",
        type=click.Choice(LEADER_RULES),
        default="random",
        show_default=True,
        help=N_(
            "Who leads each round after the first. random: chosen at random (the standard"
            " game); rotate: the next seat clockwise; winner: the last round's winner."
        ),
    ),
    option(
        "--target",
        type=click.IntRange(min=1),
        default=None,
        help=N_("Points needed to win the match (default 101, or 61 with 4 players)."),
    ),
    option(
        "--target-preset",
        type=click.Choice(list(TARGET_PRESETS)),
        default=None,
        help=N_(
            "A target by name, used without --target. seeds: 101 points with 2 or 3"
            " players, 61 with 4 (the standard game); alternate: 101 with 2 players or"
            " partnerships, 61 otherwise."
        ),
    ),
    option(
        "--set",
        "max_pip",
        type=click.IntRange(2, 6),
        default=6,
        show_default=True,
        help=N_(
            "The set of tiles by its highest double: 6, the double-six (the standard"
            " game); 2 to 5, a smaller set for research."
        ),
    ),
    option(
        "--hand-size",
        type=click.IntRange(min=1),
        default=None,
        help=N_(
            "Tiles dealt to each hand (default 7, or 6 with 4 players; a smaller set"
            " keeps the same share of its tiles)."
        ),
    ),
)


def rules_options(command: _F) -> _F:
    """Add the rules options; the command receives them as ``rules`` (a ``Rules``)."""
    import functools

    @functools.wraps(command)
    def with_rules(*args: Any, **kwargs: Any) -> Any:
        kwargs["rules"] = build_rules(
            kwargs.pop("players"),
            kwargs.pop("partnerships"),
            kwargs.pop("draw"),
            kwargs.pop("passing"),
            kwargs.pop("scoring"),
            kwargs.pop("leader"),
            kwargs.pop("target"),
            kwargs.pop("target_preset"),
            kwargs.pop("max_pip"),
            kwargs.pop("hand_size"),
        )
        return command(*args, **kwargs)

    decorated: Any = with_rules
    for add in reversed(_RULES_OPTIONS):
        decorated = add(decorated)
    return decorated  # type: ignore[no-any-return]
