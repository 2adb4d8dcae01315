"""What the catalog tests share: the translated languages and how a catalog falls short."""

from __future__ import annotations

import re

from babel.messages.catalog import Catalog

from passing_game.i18n import LANGUAGES

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
HR_PLURAL = (
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : "
    "n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
)


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w*)", text))


def catalog_problems(template: Catalog, catalog: Catalog) -> list[str]:
    """What keeps ``catalog`` from translating everything in ``template``."""
    problems = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        if found is None:
            where = f" (msgctxt {message.context!r})" if message.context else ""
            problems.append(f"missing: {message.id!r}{where}")
            continue
        if found.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        forms = found.string if isinstance(found.string, tuple) else (found.string,)
        wanted = catalog.num_plurals if isinstance(message.id, tuple) else 1
        if len(forms) != wanted or not all(forms):
            problems.append(f"untranslated: {message.id!r}")
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        allowed = set().union(*(placeholders(i) for i in ids))
        for form in forms:
            if not placeholders(form) <= allowed or (
                len(ids) == 1 and placeholders(form) != allowed
            ):
                problems.append(f"placeholders differ: {message.id!r} -> {form!r}")
    return problems
