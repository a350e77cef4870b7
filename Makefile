# Two commands a reader needs: `make serve` and `make test`. Both create .venv from requirements.lock first,
# checking every downloaded file against the sha256 the lock records: pip installs the pinned uv alone (its entry of
# the lock, scripts/lock_entry.py), then uv installs the lock, several times faster than pip, byte code compiled.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# KaTeX for the site's math and Pyodide for its live what-ifs, fetched from the npm registry and checked against
# their pinned sha512 (scripts/fetch_vendor.py; git-ignored).
KATEX := docs/assets/vendor/katex/VERSION
PYODIDE := docs/assets/vendor/pyodide/VERSION
export NO_MKDOCS_2_WARNING := 1

# requirements.lock is resolved from pyproject.toml: the runtime dependencies and these PEP 735 groups, for every
# platform, from Python 3.11.5 (the oldest Python the pinned pymdown-extensions accepts). uv itself is pinned by
# the lock it writes and runs from .venv; existing pins are kept unless pyproject.toml rules them out.
LOCK_GROUPS := --group docs --group test --group lint --group dist --group lock --group mutation
LOCK_FLAGS := --universal --python-version 3.11.5 --generate-hashes --custom-compile-command 'make lock'

.PHONY: setup serve test lint format typecheck pytest build pdf benchmark mutation lock dist clean

setup: $(STAMP) $(KATEX) $(PYODIDE)

$(STAMP): requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed, found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)
	$(PYTHON) scripts/lock_entry.py uv requirements.lock > $(VENV)/uv-requirement.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps --requirement $(VENV)/uv-requirement.txt
	$(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode --require-hashes --requirement requirements.lock
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps --no-build-isolation --editable .
	@touch $(STAMP)

$(KATEX): scripts/fetch_vendor.py
	$(PYTHON) scripts/fetch_vendor.py katex
	@touch $(KATEX)

$(PYODIDE): scripts/fetch_vendor.py
	$(PYTHON) scripts/fetch_vendor.py pyodide
	@touch $(PYODIDE)

serve: setup
	$(BIN)/python -m mkdocs serve

test: setup lint typecheck pytest

lint: setup
	$(BIN)/python -m ruff check .
	$(BIN)/python -m ruff format --check .

format: setup
	$(BIN)/python -m ruff format .
	$(BIN)/python -m ruff check --fix .

typecheck: setup
	$(BIN)/python -m mypy

pytest: setup
	$(BIN)/python -m pytest -n 2 --dist worksteal --durations=10

build: setup
	$(BIN)/python -m mkdocs build --strict

# Each edition as a PDF in site/pdf/, printed by the Chromium the browser tests drive (scripts/print_pdf.py); then
# every page of the site links to its edition's PDF.
pdf: build
	$(BIN)/python scripts/print_pdf.py site

benchmark: setup
	$(BIN)/python benchmarks/site_build.py

# Mutation score of every module of facts, models, report and cli, each mutant against its module's fast tests, at
# the lowest priority (hours on two cores; not in CI). A stratified sample: benchmarks/mutation.py --sample 600 --seed 20.
# Prints the score and the survivors, and keeps the summary in benchmarks/mutation-summary.md and .json.
mutation: setup
	$(BIN)/python benchmarks/mutation.py

lock: setup
	$(BIN)/uv pip compile pyproject.toml $(LOCK_GROUPS) $(LOCK_FLAGS) --quiet --output-file requirements.lock

# A wheel and an sdist in dist/, built by the pinned build and hatchling in .venv (no download of a backend).
dist: setup
	rm -rf dist
	$(BIN)/python -m build --no-isolation --outdir dist .

clean:
	rm -rf $(VENV) site dist .pytest_cache .mypy_cache .ruff_cache docs/assets/vendor
