"""The ``passing-game`` command: one click group, subcommands loaded lazily.

Each subcommand lives in its own module and is imported only when it runs,
so ``passing-game --help`` starts fast.
"""

from __future__ import annotations

import importlib

import click

from passing_game import __version__
from passing_game.cli import click_i18n
from passing_game.i18n import LANGUAGES, N_, _, set_language

click_i18n.install()

#: Subcommand name -> "module:attribute" of its click command.
COMMANDS: dict[str, tuple[str, str]] = {
    "admin": (
        "passing_game.cli.admin",
        N_("Moderate the web site: accounts, names, suspensions and ratings."),
    ),
    "analyse": (
        "passing_game.cli.analyse",
        N_("Analyse a finished game: the expert marks one seat's mistakes and blunders."),
    ),
    "arena": ("passing_game.cli.arena", N_("Play bots against each other on duplicate deals.")),
    "bot": (
        "passing_game.cli.bot",
        N_("Play on the web site as a bot account: a program plays."),
    ),
    "bench": (
        "passing_game.cli.bench",
        N_("Measure the engine's speed, optionally against peer engines."),
    ),
    "learn": ("passing_game.cli.learn", N_("Learn the game: short lessons, one move each.")),
    "play": (
        "passing_game.cli.play",
        N_("Play a game in the terminal against computer opponents."),
    ),
    "puzzles": (
        "passing_game.cli.puzzles",
        N_("Generate and re-prove the puzzles with proven answers."),
    ),
    "replay": ("passing_game.cli.play", N_("Step through a saved game record.")),
    "rules": ("passing_game.cli.rules", N_("Print the rules of The Passing Game.")),
    "serve": ("passing_game.cli.serve", N_("Serve the game in the browser.")),
    "solve": (
        "passing_game.cli.solve",
        N_("Solve a small two-player variant exactly and measure the bots against it."),
    ),
    "verify": (
        "passing_game.cli.verify",
        N_("Check a game record: its commitment, its seed, every deal and every move."),
    ),
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        if cmd_name not in COMMANDS:
            return None
        module = importlib.import_module(COMMANDS[cmd_name][0])
        command = getattr(module, f"{cmd_name}_command")
        assert isinstance(command, click.Command)
        return command

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # The environment's language first, so even ``--help`` before
        # ``--lang`` (or without it) speaks it; ``--lang`` then overrides.
        # A valid ``--lang`` is applied before parsing too, so click's usage
        # errors about the group's own options speak it as well.
        set_language(None)
        chosen = _lang_in(args)
        if chosen is not None:
            set_language(chosen)
        return super().parse_args(ctx, args)

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        return click_i18n.help_option(super().get_help_option(ctx))

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        original = self.help
        self.help = _(GROUP_HELP)
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = original

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, _(COMMANDS[name][1])) for name in sorted(COMMANDS)]
        if rows:
            with formatter.section(_("Commands")):
                formatter.write_dl(rows)


def _lang_in(args: list[str]) -> str | None:
    """The language a well-formed ``--lang X`` / ``--lang=X`` names, if any."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        value = arg.partition("=")[2] if arg.startswith("--lang=") else None
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        if value is not None and value.lower() in LANGUAGES:
            return value.lower()
    return None


def _choose_language(ctx: click.Context, param: click.Parameter, value: str | None) -> str:
    """Set the language as soon as ``--lang`` is read, before any help is printed."""
    return set_language(value)


class LangOption(click.Option):
    """``--lang``, whose help is translated when shown."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        if record is None or not self.help:
            return record
        return record[0], record[1].replace(self.help, _(self.help), 1)


#: The group's description (its docstring is for readers of the code).
GROUP_HELP = N_("The Passing Game, a domino game for 2-4 players.")


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--lang",
    cls=LangOption,
    type=click.Choice(LANGUAGES, case_sensitive=False),
    default=None,
    is_eager=True,
    expose_value=False,
    callback=_choose_language,
    help=N_(
        "Language for everything shown: en, gl or hr "
        "(default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else English)."
    ),
)
@click.version_option(__version__, prog_name="passing-game", cls=click_i18n.ClickWordsOption)
def main() -> None:
    """The Passing Game, a domino game for 2-4 players."""
