# Two commands a reader needs: `make serve` and `make test`. Both create .venv from requirements.lock first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup serve test lint format typecheck pytest build lock clean

setup: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed, found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --requirement requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation --editable .
	@touch $(STAMP)

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

lock: setup
	$(BIN)/python -m pip freeze --exclude-editable --disable-pip-version-check | grep -v '^pip==' > requirements.lock

clean:
	rm -rf $(VENV) site .pytest_cache .mypy_cache .ruff_cache
