"""The one translation function every player-facing string goes through.

Catalogs are gettext ``.mo`` files under ``passing_game/locale`` (domain
``passing_game``). Until a catalog exists for a language the English source
text is shown, so code can call ``_`` from its first line.

>>> set_language("en")
'en'
>>> _("pass"), ngettext("{n} tile", "{n} tiles", 2).format(n=2)
('pass', '2 tiles')
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "passing_game"
LOCALE_DIR = Path(__file__).parent / "locale"
#: Languages players read: English (source), Galician, Croatian.
LANGUAGES = ("en", "gl", "hr")
DEFAULT_LANGUAGE = "en"

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = DEFAULT_LANGUAGE


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """LANGUAGE, then LC_ALL, then LANG; the first known language wins, else English."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LANG"):
        for part in env.get(var, "").split(":"):
            code = part.split(".")[0].split("_")[0].split("-")[0].lower()
            if code in LANGUAGES:
                return code
    return DEFAULT_LANGUAGE


def set_language(language: str | None = None) -> str:
    """Switch every later ``_`` call to ``language`` (or the environment's)."""
    global _translation, _language
    chosen = language_from_env() if language is None else language.lower()
    if chosen not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {language!r}")
    _translation = gettext.translation(DOMAIN, LOCALE_DIR, [chosen], fallback=True)
    _language = chosen
    return chosen


def current_language() -> str:
    return _language


def _(message: str) -> str:
    """Translate ``message`` into the current language."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message with a count, using the language's plural forms."""
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it yet."""
    return message
