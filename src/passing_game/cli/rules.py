"""``passing-game rules``: the project's own rules document, from the package.

The text ships inside the package (``passing_game/texts/rules.md``), so the
command works from an installed wheel as well as from a checkout. A
translation ``rules.<lang>.md`` is preferred when one exists.
"""

from __future__ import annotations

import os
import sys
from importlib import resources
from importlib.resources.abc import Traversable

import click
from rich.console import Console
from rich.markdown import Markdown

from passing_game.cli.options import TranslatedCommand, option
from passing_game.i18n import N_, _, current_language

#: Where the rules live inside the package.
RULES_FOLDER = "texts"
RULES_FILE = "rules.md"


def rules_resource(language: str | None = None) -> Traversable:
    """The rules document for ``language``, falling back to the English one."""
    folder = resources.files("passing_game").joinpath(RULES_FOLDER)
    language = language or current_language()
    stem, dot, suffix = RULES_FILE.rpartition(".")
    translated = folder.joinpath(f"{stem}.{language}{dot}{suffix}")
    if translated.is_file():
        return translated
    return folder.joinpath(RULES_FILE)


def read_rules(language: str | None = None) -> str:
    """The rules text; ``OSError`` if the installation lacks it."""
    return rules_resource(language).read_text(encoding="utf-8")


@click.command(
    "rules",
    cls=TranslatedCommand,
    help=N_("Print the rules of The Passing Game, variants included."),
)
@option("--plain", is_flag=True, help=N_("Print the Markdown source even in a terminal."))
def rules_command(plain: bool) -> None:
    """Print the rules of The Passing Game, variants included."""
    try:
        text = read_rules()
    except OSError:
        raise click.ClickException(
            _("the rules document ({path}) is missing from this installation").format(
                path=f"passing_game/{RULES_FOLDER}/{RULES_FILE}"
            )
        ) from None
    console = Console(highlight=False, markup=False, emoji=False)
    try:
        if console.is_terminal and not plain:
            console.print(Markdown(text))
        else:
            click.echo(text, nl=not text.endswith("\n"))
            sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)
