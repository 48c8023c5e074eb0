# kout_sim developer entry points. Needs only python3 (3.11+) and make.
SHELL := /bin/bash

# Prefer python3.11 when it is present and actually runs (pyenv shims may exist without it).
PYTHON ?= $(shell python3.11 -c 'import sys' >/dev/null 2>&1 && echo python3.11 || echo python3)

VENV      := .venv
VPY       := $(VENV)/bin/python
STAMP     := $(VENV)/.installed
PYTEST_N  ?= 2

.PHONY: help venv simulate test test-slow golden coverage lint pre-commit bench clean-venv

help:
	@echo "targets: venv simulate test test-slow golden coverage lint pre-commit bench clean-venv"

# Create .venv and install the project (+dev extra) against the pinned lock.
# Re-runs only when pyproject.toml or requirements.lock change.
venv: $(STAMP)

$(STAMP): pyproject.toml requirements.lock
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -c requirements.lock -e '.[dev]'
	@touch $@

simulate: venv
	$(VENV)/bin/kout-sim simulate

# Compile the kernels once (one process per game family), then every test process loads them.
test: venv
	$(VPY) -m kout_sim.warmup
	$(VPY) -m pytest -n $(PYTEST_N)

test-slow: venv
	$(VPY) -m kout_sim.warmup
	$(VPY) -m pytest -n $(PYTEST_N) -m slow

# Rewrite the golden playthroughs of tests/golden/ (after an intended change of behaviour; review
# the diff): docs/reference.md.
golden: venv
	$(VPY) -m tests.golden.regen

# The engine's fast tests with the JIT off (every kernel runs as Python), under coverage.py: kernel
# lines show up in the report. numpy warns on the wrapping uint64 arithmetic of the random streams.
COVERAGE_TESTS := tests/scenarios tests/invariants tests/unit/test_cards.py tests/unit/test_rules.py
coverage: venv
	NUMBA_DISABLE_JIT=1 $(VPY) -m coverage run --source=kout_sim -m pytest -q -p no:xdist \
		-W "ignore:overflow encountered:RuntimeWarning" $(COVERAGE_TESTS)
	$(VPY) -m coverage report --include='kout_sim/engine/*,kout_sim/players/*' --sort=cover

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# Install the git hooks of .pre-commit-config.yaml (ruff check --fix, ruff format, mypy: the tools
# of .venv, so no network): every commit is checked as `make lint` checks it.
pre-commit: venv
	$(VENV)/bin/pre-commit install

# Runs every benchmarks/bench_*.py script (none yet is not an error).
bench: venv
	@shopt -s nullglob; files=(benchmarks/bench_*.py); \
	if [ $${#files[@]} -eq 0 ]; then echo "no benchmarks/bench_*.py found"; exit 0; fi; \
	for f in "$${files[@]}"; do echo "== $$f"; $(VPY) "$$f" || exit $$?; done

clean-venv:
	rm -rf $(VENV)
