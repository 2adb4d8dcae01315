"""The one translation function every player-facing string goes through.

Catalogs are gettext ``.mo`` files under ``passing_game/locale`` (domain
``passing_game``), compiled from the ``.po`` sources next to them by
``make catalogs`` and shipped in the package, so an installed game needs
nothing beyond the standard library to speak Galician or Croatian. English
is the source language and has no catalog.

The language is process-wide (``set_language``, chosen once by the command
line), and can be overridden for one block of code (``using_language``),
which is how a server answers each visitor in their own language.

>>> set_language("en")
'en'
>>> _("pass"), ngettext("{n} tile", "{n} tiles", 2).format(n=2)
('pass', '2 tiles')
"""

from __future__ import annotations

import contextvars
import functools
import gettext
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

DOMAIN = "passing_game"
LOCALE_DIR = Path(__file__).parent / "locale"
#: Languages players read: English (source), Galician, Croatian.
LANGUAGES = ("en", "gl", "hr")
DEFAULT_LANGUAGE = "en"
#: The environment variables gettext reads, in gettext's order.
ENV_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

#: Formats a number for the current language: (value, decimals, sign) -> text.
NumberFormatter = Callable[[float, int, bool], str]
#: Joins items into "A, B and C" for the current language.
ListFormatter = Callable[[Sequence[str]], str]

_language = DEFAULT_LANGUAGE
_override: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "passing_game_language", default=None
)


def _plain_number(value: float, decimals: int, sign: bool) -> str:
    return f"{value:{'+' if sign else ''}.{decimals}f}"


_number_formatter: NumberFormatter = _plain_number


def _plain_list(items: Sequence[str]) -> str:
    return ", ".join(items)


_list_formatter: ListFormatter = _plain_list


def language_code(tag: str) -> str | None:
    """``gl``, ``hr`` or ``en`` for a locale name or language tag (``hr_HR.UTF-8``, ``gl-ES``)."""
    code = tag.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language gettext would pick from the environment, else English.

    As in Python's ``gettext``: the first of LANGUAGE, LC_ALL, LC_MESSAGES and
    LANG that is set decides; its colon-separated list is read in order and
    the first language we have wins. ``C`` and ``POSIX`` mean English.
    """
    env = os.environ if environ is None else environ
    for var in ENV_VARS:
        value = env.get(var, "")
        if not value:
            continue
        for part in value.split(":"):
            if part.split(".")[0] in ("C", "POSIX"):
                return DEFAULT_LANGUAGE
            code = language_code(part)
            if code is not None:
                return code
        return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def check_language(language: str) -> str:
    """``language`` in lower case if it is one we have; ``ValueError`` naming them if not."""
    chosen = language.lower() if isinstance(language, str) else language
    if chosen not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {language!r}")
    return str(chosen)


@functools.cache
def translation(language: str) -> gettext.NullTranslations:
    """The catalog for ``language`` (English: the source texts unchanged)."""
    language = check_language(language)
    if language == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, [language], fallback=True)


def set_language(language: str | None = None) -> str:
    """Switch every later ``_`` call to ``language`` (or the environment's)."""
    global _language
    chosen = language_from_env() if language is None else check_language(language)
    translation(chosen)
    _language = chosen
    return chosen


def current_language() -> str:
    """The language ``_`` translates into here and now."""
    return _override.get() or _language


@contextmanager
def using_language(language: str) -> Iterator[str]:
    """Translate into ``language`` inside the block only (this thread or task)."""
    token = _override.set(check_language(language))
    try:
        yield current_language()
    finally:
        _override.reset(token)


def _(message: str) -> str:
    """Translate ``message`` into the current language."""
    return translation(current_language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message with a count, using the language's plural forms."""
    return translation(current_language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` as used in ``context`` (gettext's ``msgctxt``).

    For one English text that other languages say differently by use: a
    move as advice or as a decision made, a label alone or inside a sentence.
    """
    return translation(current_language()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """``ngettext`` for a message used in ``context`` (see ``pgettext``)."""
    return translation(current_language()).npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it yet."""
    return message


def plural_forms(language: str) -> str:
    """The catalog's ``Plural-Forms`` rule, e.g. ``nplurals=2; plural=(n != 1);``."""
    info = translation(language).info()
    return info.get("plural-forms", "nplurals=2; plural=(n != 1);")


def set_number_formatter(formatter: NumberFormatter | None) -> None:
    """Let a front end format numbers per locale (it may use Babel; the core may not)."""
    global _number_formatter
    _number_formatter = formatter or _plain_number


def format_number(value: float, decimals: int = 0, *, sign: bool = False) -> str:
    """``value`` written for the current language: ``1,234.5`` in English, ``1.234,5`` in Croatian.

    Plain Python formatting until a front end installs a formatter.
    """
    return _number_formatter(value, decimals, sign)


def set_list_formatter(formatter: ListFormatter | None) -> None:
    """Let a front end join lists per locale, as ``set_number_formatter`` numbers."""
    global _list_formatter
    _list_formatter = formatter or _plain_list


def format_list(items: Sequence[str]) -> str:
    """``A, B and C`` in the current language (plain commas until a front end says how)."""
    return _list_formatter(items) if items else ""
