"""Click's own words (help headings, usage errors) in Galician and Croatian (P19).

``locale/click.pot`` is held to the installed click (a click upgrade that
rewords a message fails here until ``make catalogs`` has run), every ``.po``
to the template, every ``.mo`` to its ``.po``; the command line is run in a
subprocess in each language, and English must stay click's own.
"""

from __future__ import annotations

import gettext
import io
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from i18n_helpers import HR_PLURAL, TRANSLATED, catalog_problems
from passing_game.cli import click_i18n
from passing_game.i18n import LOCALE_DIR, set_language, using_language
from terminal_helpers import ENV, TIMEOUT

#: The installed ``passing-game`` script, so usage lines name it as players see it.
SCRIPT = Path(sys.executable).with_name("passing-game")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "passing_game"]
PROG = "passing-game" if SCRIPT.exists() else "python -m passing_game"
ENGLISH_WORDS = ("Usage:", "Options:", "Show this message and exit.", "[default: ")


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    set_language("en")


def cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [*COMMAND, *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={**ENV, **env},
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done


def load(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "click.po"


@pytest.fixture(scope="module")
def template() -> Catalog:
    return load(click_i18n.TEMPLATE)


# -- the catalogs ------------------------------------------------------------


def test_template_matches_the_installed_click(template: Catalog) -> None:
    """Every kept message is still worded so in click (else: make catalogs)."""
    fresh = click_i18n.build_template()
    assert sorted(str(m.id) for m in fresh if m.id) == sorted(str(m.id) for m in template if m.id)
    singulars = {m.id[0] if isinstance(m.id, tuple) else m.id for m in fresh if m.id}
    assert singulars == click_i18n.MESSAGES | set(click_i18n.DYNAMIC_MESSAGES)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_click_message_is_translated(template: Catalog, lang: str) -> None:
    """None missing, empty or fuzzy; placeholders as in click's text."""
    catalog = load(po_path(lang), lang)
    assert not catalog.fuzzy
    assert catalog_problems(template, catalog) == []
    stale = [m.id for m in catalog if m.id and m.id not in template]
    assert stale == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_compiled_click_catalogs_match_their_sources(lang: str) -> None:
    fresh = io.BytesIO()
    write_mo(fresh, load(po_path(lang), lang))
    fresh.seek(0)
    with po_path(lang).with_suffix(".mo").open("rb") as f:
        shipped = gettext.GNUTranslations(f)
    compiled = gettext.GNUTranslations(fresh)
    assert shipped._catalog == compiled._catalog  # type: ignore[attr-defined]


def test_croatian_click_catalog_has_three_plural_forms() -> None:
    """hr: 1 argument, 2 argumenta, 5 argumenata (three forms, as in passing_game.po)."""
    assert load(po_path("hr"), "hr").plural_forms == HR_PLURAL
    words = {
        n: click_i18n.translation("hr").ngettext(
            "Option {name!r} requires an argument.",
            "Option {name!r} requires {nargs} arguments.",
            n,
        )
        for n in (1, 2, 5, 21, 22, 25)
    }
    assert [w.split()[-1] for w in words.values()] == [
        "argument.",
        "argumenta.",
        "argumenata.",
        "argument.",
        "argumenta.",
        "argumenata.",
    ]


# -- the routing --------------------------------------------------------------


def test_click_follows_our_language_not_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Our chosen language decides, even against LANGUAGE; gettext's own domain is untouched."""
    click_i18n.install()
    click_i18n.install()  # idempotent
    monkeypatch.setenv("LANGUAGE", "hr")
    error = click.BadParameter("x")
    with using_language("gl"):
        assert click.formatting._("Usage:") == "Uso:"  # type: ignore[attr-defined]
        assert error.format_message() == "Valor non válido: x"
    assert click.formatting._("Usage:") == "Usage:"  # type: ignore[attr-defined]
    set_language("hr")
    assert error.format_message() == "Neispravna vrijednost: x"
    assert gettext.gettext("Usage:") == "Usage:"


# -- through the entry point -----------------------------------------------------


def test_galician_help_has_no_click_english() -> None:
    done = cli("--lang", "gl", "play", "--help")
    assert done.returncode == 0
    assert done.stdout.startswith(f"Uso: {PROG} play")
    assert "Opcións:" in done.stdout and "Mostra esta axuda e sae." in done.stdout
    assert "[predeterminado: ends-turn]" in done.stdout
    for word in ENGLISH_WORDS:
        assert word not in done.stdout


def test_croatian_group_help_translates_help_and_version_options() -> None:
    """Both are worded by click before --lang is read; they must still follow it."""
    done = cli("--lang", "hr", "--help", LANGUAGE="gl")
    assert done.returncode == 0
    assert "Uporaba:" in done.stdout and "Opcije:" in done.stdout
    assert "Ispiši ovu pomoć i izađi." in done.stdout
    assert "Ispiši verziju i izađi." in done.stdout
    for word in (*ENGLISH_WORDS, "Show the version"):
        assert word not in done.stdout


def test_croatian_usage_error_for_players_out_of_range() -> None:
    done = cli("--lang", "hr", "play", "--players", "9")
    assert done.returncode == 2
    assert f"Za pomoć upiši '{PROG} play --help'." in done.stderr
    assert (
        "Pogreška: Neispravna vrijednost za '-n' / '--players': 9 nije u rasponu 2<=x<=4."
        in done.stderr
    )
    assert "Error" not in done.stderr and "Usage:" not in done.stderr


@pytest.mark.parametrize(
    ("lang", "args", "expected"),
    [
        ("gl", ["nope"], "Erro: Non hai ningunha orde 'nope'."),
        ("hr", ["--bogus"], "Pogreška: Nema opcije '--bogus'."),
        ("gl", ["play", "--draw", "x"], "non é ningunha destas opcións: 'ends-turn', 'continue'."),
        ("hr", ["replay"], "Pogreška: Nedostaje argument 'FILE'."),
        ("gl", ["replay", "."], "Ficheiro '.' é un cartafol."),
    ],
)
def test_other_usage_errors_speak_the_language(lang: str, args: list[str], expected: str) -> None:
    done = cli(f"--lang={lang}", *args)
    assert done.returncode == 2
    assert expected in done.stderr


def test_english_is_clicks_own() -> None:
    done = cli("--lang", "en", "play", "--players", "9", LANGUAGE="hr")
    assert done.returncode == 2
    assert f"Try '{PROG} play --help' for help." in done.stderr
    assert "Error: Invalid value for '-n' / '--players': 9 is not in the range 2<=x<=4." in (
        done.stderr
    )
    helped = cli("--lang", "en", "play", "--help", LANGUAGE="gl").stdout
    for word in ENGLISH_WORDS:
        assert word in helped
