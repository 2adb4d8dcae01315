"""Click's own words ("Usage:", "Options:", usage errors) in the player's language.

Click marks its messages with the standard library's ``gettext`` (imported
as ``_`` and ``ngettext`` into each of its modules), which reads the default
text domain and the language of the process environment. We want them in
the language ``--lang`` chose, from catalogs we ship, without touching the
default domain other libraries (argparse, ...) translate through. So
``install`` points those two names in click's modules, and nowhere else, at
the ``click`` domain under ``passing_game/locale`` in
``i18n.current_language()``; in English that is the text unchanged.

Only the messages a player can meet in the help and usage errors of
``passing-game``, ``play``, ``replay``, ``rules`` and ``serve`` are kept in
``locale/click.pot`` (``MESSAGES``); ``make catalogs`` rebuilds it from the
installed click with ``write_template``.

Click words its ``--help`` and ``--version`` options once, when they are made
(often at import, before ``--lang`` is read); ``help_option`` and
``ClickWordsOption`` translate those when they are shown instead.
"""

from __future__ import annotations

import functools
import gettext as _gettext
import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from passing_game.i18n import LOCALE_DIR, check_language, current_language

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

DOMAIN = "click"
TEMPLATE = LOCALE_DIR / "click.pot"

#: Click's modules that import ``gettext``/``ngettext`` and can speak to a player.
MODULES = (
    "click.core",
    "click.decorators",
    "click.exceptions",
    "click.formatting",
    "click.parser",
    "click.termui",
    "click.types",
    "click.utils",
)

HELP_TEXT = "Show this message and exit."
VERSION_HELP_TEXT = "Show the version and exit."

#: The click messages a player can meet (the singular, for plural messages).
MESSAGES = frozenset(
    {
        # help pages
        "Usage:",
        "Options",
        HELP_TEXT,
        VERSION_HELP_TEXT,
        "default: {default}",
        # usage errors
        "Error: {message}",
        "Try '{command} {option}' for help.",
        "Invalid value for {param_hint}: {message}",
        "Invalid value: {message}",
        "Missing argument",
        "Missing option",
        "Missing parameter",
        "Missing parameter: {param_name}",
        "Missing command.",
        "No such command {name!r}.",
        "No such option {name!r}.",
        "Did you mean {possibility}?",
        "Option {name!r} does not take a value.",
        "Option {name!r} requires an argument.",
        "Got unexpected extra argument ({args})",
        "{value!r} is not {choice}.",
        "{value} is not in the range {range}.",
        "{value!r} is not a valid {number_type}.",
        # the record file of ``replay`` and ``play --save``
        "file",
        "{name} {filename!r} does not exist.",
        "{name} {filename!r} is a directory.",
        "{name} {filename!r} is not readable.",
        # Ctrl-C at a prompt
        "Aborted!",
    }
)
#: Passed to click's ``_`` as a variable, so extraction cannot find them.
DYNAMIC_MESSAGES = ("required",)


@functools.cache
def translation(language: str) -> _gettext.NullTranslations:
    """Click's catalog for ``language`` (English: click's own texts)."""
    language = check_language(language)
    return _gettext.translation(DOMAIN, LOCALE_DIR, [language], fallback=True)


def gettext(message: str) -> str:
    """Click's ``_``: its message in the current language."""
    return translation(current_language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Click's ``ngettext``: with the current language's plural forms."""
    return translation(current_language()).ngettext(singular, plural, n)


def install() -> None:
    """Route click's message lookups to our ``click`` catalogs; idempotent.

    A name is replaced only while it is still the standard library's
    function, so a click that stops using gettext is left alone.
    """
    for name in MODULES:
        module = sys.modules.get(name) or importlib.import_module(name)
        if getattr(module, "_", None) is _gettext.gettext:
            module._ = gettext  # type: ignore[attr-defined]
        if getattr(module, "ngettext", None) is _gettext.ngettext:
            module.ngettext = ngettext  # type: ignore[attr-defined]


def help_option(option: click.Option | None) -> click.Option | None:
    """Reword click's cached ``--help`` option in the language of this moment."""
    if option is not None:
        option.help = gettext(HELP_TEXT)
    return option


class ClickWordsOption(click.Option):
    """An option whose help is one of click's messages, translated when shown."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        if record is None or not self.help:
            return record
        return record[0], record[1].replace(self.help, gettext(self.help), 1)


def build_template() -> Catalog:
    """The ``click`` template: ``MESSAGES`` as the installed click words them."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    catalog = Catalog(
        project="passing-game (click's messages)",
        copyright_holder="passing-game developers",
        fuzzy=False,
    )
    source = Path(click.__file__).parent
    # Line numbers are dropped when written, so a click release that only
    # moves code leaves the template unchanged.
    for filename, lineno, message, _comments, context in extract_from_dir(source):
        key = message[0] if isinstance(message, tuple) else message
        if key in MESSAGES:
            catalog.add(message, locations=[(f"click/{filename}", lineno)], context=context)
    for message in DYNAMIC_MESSAGES:
        catalog.add(message, locations=[("click/core.py", 0)])
    return catalog


def write_template(path: Path = TEMPLATE) -> None:
    """Write ``build_template()`` to ``path`` as ``make catalogs`` wants it."""
    from babel.messages.pofile import write_po

    with path.open("wb") as f:
        write_po(f, build_template(), width=0, sort_output=True, include_lineno=False)
