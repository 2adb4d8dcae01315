"""The ``passing-game`` command: one click group, subcommands loaded lazily.

Each subcommand lives in its own module and is imported only when it runs,
so ``passing-game --help`` starts fast.
"""

from __future__ import annotations

import importlib

import click

from passing_game import __version__
from passing_game.i18n import LANGUAGES, _, set_language

#: Subcommand name -> "module:attribute" of its click command.
COMMANDS: dict[str, tuple[str, str]] = {
    "arena": ("passing_game.cli.arena", "Play bots against each other on duplicate deals."),
    "bench": (
        "passing_game.cli.bench",
        "Measure the engine's speed, optionally against peer engines.",
    ),
    "play": ("passing_game.cli.play", "Play a game in the terminal against computer opponents."),
    "replay": ("passing_game.cli.play", "Step through a saved game record."),
    "rules": ("passing_game.cli.rules", "Print the rules of The Passing Game."),
    "serve": ("passing_game.cli.serve", "Serve the game in the browser."),
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

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, _(COMMANDS[name][1])) for name in sorted(COMMANDS)]
        if rows:
            with formatter.section(_("Commands")):
                formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    default=None,
    help="Language for everything shown (default: from LANGUAGE/LC_ALL/LANG, else English).",
)
@click.version_option(__version__, prog_name="passing-game")
def main(lang: str | None) -> None:
    """The Passing Game, a domino game for 2-4 players."""
    set_language(lang)
