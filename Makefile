# Two commands matter (see README): `make play` and `make test`.
# Each sets up a virtual environment in .venv on first use. While working,
# `make check` is the quick loop (lint, types, the core tests).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# What is installed: only what serving needs for `make play` (the web
# extra), everything for `make test` and the tools (all extras).
STAMP_WEB := $(VENV)/.installed-web
STAMP     := $(VENV)/.installed-all
ARGS   ?=

.PHONY: setup setup-web play serve terminal test check lint typecheck unit clean bench

$(VENV)/bin/python:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "passing-game needs Python 3.11 or newer"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_WEB): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e '.[web]'
	@touch $(STAMP_WEB)

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e '.[all]'
	@touch $(STAMP) $(STAMP_WEB)

setup-web: $(STAMP_WEB)
setup: $(STAMP)

# The web app on http://127.0.0.1:8000 (games kept in ./data, SQLite); Ctrl-C
# stops it. Only warnings and errors are logged; ARGS adds options, e.g.
# make play ARGS="--port 8080", make play ARGS="--log-level info" (every
# request) or make play ARGS="--db postgresql://user:pw@127.0.0.1/db".
play: setup-web
	$(BIN)/passing-game serve --log-level warning $(ARGS)

serve: play

# The terminal game against the computer, e.g. make terminal ARGS="--players 4".
terminal: setup-web
	$(BIN)/passing-game play $(ARGS)

lint: setup
	$(BIN)/ruff check src tests examples conftest.py
	$(BIN)/ruff format --check src tests examples conftest.py

typecheck: setup
	$(BIN)/mypy

unit: setup
	$(BIN)/pytest -q

test: lint typecheck unit

# The quick loop, under a minute on two cores: lint, types and the tests that
# need no browser, server or PostgreSQL and are not long (the `web` and `slow`
# markers, pyproject.toml), on every core (pytest-xdist) and with a smaller
# parametrization: every test function, on fewer of its cases (--quick,
# conftest.py). `make test` runs everything, every case.
check: lint typecheck
	$(BIN)/pytest -q -m "not slow and not web" --quick -n auto

# Speed, against the peer engines (installed into .bench-venv/ on first use);
# writes the tables into docs/PERFORMANCE.md. BENCH_ARGS adds options.
BENCH_ARGS ?=
bench: setup
	$(BIN)/passing-game bench --compare --arena --markdown docs/PERFORMANCE.md $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

# The gettext catalogs (docs/DECISIONS.md P19): extract every _(), ngettext()
# and N_() string into the template, merge it into the gl and hr .po files
# (new strings arrive empty, changed ones fuzzy: translate them, then run this
# again), and compile the .mo files the package ships. Then the same for
# the `click` domain: click's own words a player meets ("Usage:", usage
# errors), kept in cli/click_i18n.py's MESSAGES and taken from the installed
# click into click.pot.
LOCALES := src/passing_game/locale
POT     := $(LOCALES)/passing_game.pot
CLICK_POT := $(LOCALES)/click.pot
.PHONY: catalogs
catalogs: setup
	$(BIN)/pybabel extract -F babel.cfg --add-location=file --sort-output \
	    -c TRANSLATORS: --project=passing-game \
	    --copyright-holder="passing-game developers" -o $(POT) src/passing_game
	$(BIN)/pybabel update -i $(POT) -d $(LOCALES) -D passing_game \
	    --ignore-obsolete --no-wrap
	$(BIN)/pybabel compile -d $(LOCALES) -D passing_game --statistics
	$(BIN)/python -c 'from passing_game.cli.click_i18n import write_template; write_template()'
	$(BIN)/pybabel update -i $(CLICK_POT) -d $(LOCALES) -D click \
	    --ignore-obsolete --no-wrap
	$(BIN)/pybabel compile -d $(LOCALES) -D click --statistics
