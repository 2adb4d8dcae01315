"""Numbers and lists written the way the current language writes them.

Babel's CLDR data does the work (``1,234`` in English, ``1.234`` in
Croatian, ``1 234`` in Galician; "A, B and C", "A, B e C", "A, B i C").
The rules core and the words players read (``passing_game.words``) may not
import Babel, so they format through ``passing_game.i18n``'s hooks, which
``install`` fills. Only the apps import this module (the terminal and the
web call ``install`` as they load), never the core or the bots.
"""

from __future__ import annotations

from collections.abc import Sequence

from babel.lists import format_list
from babel.numbers import format_decimal

from passing_game.i18n import current_language, set_list_formatter, set_number_formatter


def number(value: int) -> str:
    """A whole number with the language's digit grouping."""
    return format_decimal(value, locale=current_language())


def decimal(value: float, decimals: int = 0, sign: bool = False) -> str:
    """``value`` rounded to ``decimals`` places, with the language's separators."""
    body = "#,##0" + ("." + "0" * decimals if decimals > 0 else "")
    pattern = f"+{body};-{body}" if sign else body
    return format_decimal(value, format=pattern, locale=current_language())


def and_list(items: Sequence[str]) -> str:
    """``A, B and C`` in the current language."""
    return format_list(list(items), locale=current_language()) if items else ""


def install() -> None:
    """Have ``i18n.format_number`` and ``i18n.format_list`` write as Babel does."""
    set_number_formatter(decimal)
    set_list_formatter(and_list)
