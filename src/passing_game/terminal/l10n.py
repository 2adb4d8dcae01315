"""Numbers and lists written the way the current language writes them.

Babel's CLDR data does the work (``1,234`` in English, ``1.234`` in
Croatian, ``1 234`` in Galician; "A, B and C", "A, B e C", "A, B i C").
The rules core may not import Babel, so importing this module also hands
its number formatter to ``passing_game.i18n.format_number``, which the
bots' hint sentences use.
"""

from __future__ import annotations

from collections.abc import Sequence

from babel.lists import format_list
from babel.numbers import format_decimal

from passing_game.i18n import current_language, set_number_formatter


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


set_number_formatter(decimal)
