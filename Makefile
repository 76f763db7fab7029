# Two commands matter: `make run` and `make test` (see README.md). Both create .venv from the lock
# files when it is missing, so they work on a fresh machine with only Python 3.11 and pip:
# requirements-dev.lock, which includes the runtime set requirements.lock (the image installs only that).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test test-fast lint worker migrate openapi import bench bench-http bench-soak messages clean

$(BIN)/.installed: requirements.lock requirements-dev.lock pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "$(PYTHON) not found; set PYTHON=python3" >&2; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

# `make run PORT=8080 SERVE_HOST=0.0.0.0` serves elsewhere than 127.0.0.1:8000.
SERVE_HOST ?= 127.0.0.1
PORT ?= 8000
run: $(BIN)/.installed
	$(BIN)/python -m app.cli serve --host $(SERVE_HOST) --port $(PORT)

test: $(BIN)/.installed
	$(BIN)/python -m pytest

# The quick run: every test not marked slow (live servers, schemathesis, the browser, the real data
# files through the CLI; each declared where it is written, see tests/slow.py), on every core
# (pytest-xdist: each worker on a database of its own). `make test` runs them all, in one process.
test-fast: $(BIN)/.installed
	$(BIN)/python -m pytest -m "not slow" -n auto

lint: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

worker: $(BIN)/.installed
	$(BIN)/python -m app.cli worker

migrate: $(BIN)/.installed
	$(BIN)/python -m app.cli migrate

openapi: $(BIN)/.installed
	$(BIN)/python -m app.cli export-openapi

import: $(BIN)/.installed
	$(BIN)/python -m app.cli import tests/data/renju-cn-2009-2019/source.tsv

bench: $(BIN)/.installed
	$(BIN)/python bench/bench_whr.py --size rif

bench-http: $(BIN)/.installed
	$(BIN)/python bench/bench_http.py --database sqlite

# An hour of mixed load on SQLite (issue 48); MINUTES=10 for a short run, bench/README.md for PostgreSQL.
bench-soak: $(BIN)/.installed
	$(BIN)/python bench/bench_soak.py --minutes $(or $(MINUTES),60)

# The website's catalogues (app/web/locale/*/LC_MESSAGES/messages.po, read as they are when the
# service starts): extract every message (babel.cfg) and add the new ones to each catalogue, then
# translate what it added; tests/web/test_website_languages.py fails until every message is translated.
messages: $(BIN)/.installed
	mkdir -p var
	$(BIN)/python -m babel.messages.frontend extract -F babel.cfg -k N_ --no-location --sort-output -o var/messages.pot .
	$(BIN)/python -m babel.messages.frontend update -i var/messages.pot -d app/web/locale -D messages --ignore-obsolete --no-wrap --no-fuzzy-matching

clean:
	rm -rf $(VENV) var .pytest_cache
