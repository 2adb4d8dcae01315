# Two commands matter (see README): `make play` and `make test`.
# Each sets up a virtual environment in .venv on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
ARGS   ?=

.PHONY: setup play test lint typecheck unit clean bench

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "passing-game needs Python 3.11 or newer"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all]'
	@touch $(STAMP)

setup: $(STAMP)

play: setup
	$(BIN)/passing-game play $(ARGS)

lint: setup
	$(BIN)/ruff check src tests examples
	$(BIN)/ruff format --check src tests examples

typecheck: setup
	$(BIN)/mypy

unit: setup
	$(BIN)/pytest -q

test: lint typecheck unit

# Speed, against the peer engines (installed into .bench-venv/ on first use);
# writes the tables into docs/PERFORMANCE.md. BENCH_ARGS adds options.
BENCH_ARGS ?=
bench: setup
	$(BIN)/passing-game bench --compare --arena --markdown docs/PERFORMANCE.md $(BENCH_ARGS)

# The web app on http://127.0.0.1:8000, games kept in ./data (SQLite).
# ARGS adds options, e.g. make serve ARGS="--db postgresql://user:pw@127.0.0.1/db".
.PHONY: serve
serve: setup
	$(BIN)/passing-game serve $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
