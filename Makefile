# Two commands a reader needs: `make serve` and `make test`. Both create .venv from requirements.lock first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# KaTeX for the site's math, fetched from the npm registry and checked against its pinned sha512 (git-ignored).
KATEX := docs/assets/vendor/katex/VERSION
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup serve test lint format typecheck pytest build benchmark lock clean

setup: $(STAMP) $(KATEX)

$(STAMP): requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed, found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --requirement requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation --editable .
	@touch $(STAMP)

$(KATEX): scripts/fetch_katex.py
	$(PYTHON) scripts/fetch_katex.py
	@touch $(KATEX)

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
	$(BIN)/python -m pytest

build: setup
	$(BIN)/python -m mkdocs build --strict

benchmark: setup
	$(BIN)/python benchmarks/site_build.py

lock: setup
	$(BIN)/python -m pip freeze --exclude-editable --disable-pip-version-check | grep -v '^pip==' > requirements.lock

clean:
	rm -rf $(VENV) site .pytest_cache .mypy_cache .ruff_cache .screenshots docs/assets/vendor
