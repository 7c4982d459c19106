# Wuzi — the two commands are `make demo` and `make test`; both set everything up first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
WUZI   := $(VENV)/bin/wuzi
STAMP  := $(VENV)/.setup-done
PYTEST_ARGS ?=

.PHONY: setup test test-slow demo bench lint clean

## setup: create .venv and install Wuzi with its dev tools (idempotent)
setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

## test: the whole suite except the slow marker (under 15 minutes)
test: setup
	$(PY) -m pytest -q -m "not slow" $(PYTEST_ARGS)

## test-slow: only the long runs (differential tests over many positions)
test-slow: setup
	$(PY) -m pytest -q -m slow $(PYTEST_ARGS)

## demo: the showcase (until the venue demo lands: judge a sample game, print its record)
demo: setup
	$(WUZI) demo

## bench: every area's figures, one `BENCH name value unit` line each
bench: setup
	$(WUZI) bench

## lint: ruff and mypy --strict on host/
lint: setup
	$(VENV)/bin/ruff check host tests
	$(VENV)/bin/ruff format --check host tests
	$(VENV)/bin/mypy host

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
