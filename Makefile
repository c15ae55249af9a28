# Everything needs only python3 and make; `make setup` builds .venv once.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_DB := data/demo.duckdb
JIT := $(BIN)/python -c 'import sys; from manillen_replay.solver._jit import main; sys.exit(main(sys.argv[1:]))'

PORT ?= 8501

.PHONY: setup warm check test demo demo-db bench lint format schema clean mutate

setup: $(STAMP)
	@$(JIT) check || $(MAKE) --no-print-directory warm

# The solver is compiled by numba on its first use (about a minute) and cached in
# ~/.cache/manillen-replay/numba: one review of a sample (and one of a variant's costs) compiles
# everything, so that the first review a person asks for is as fast as the second; validating
# the demo archive compiles the bulk replay's plays (validate, import and analyze use them on
# files of 500 deals and more).
warm: $(STAMP)
	@echo "compiling the solver once (about a minute; cached in ~/.cache/manillen-replay/numba)"
	@$(BIN)/manillen findings data/samples/seed-trick.json --samples 2 --quiet > /dev/null 2>&1
	@$(BIN)/manillen costs data/samples/variant-three.json > /dev/null
	@$(BIN)/manillen validate data/demo.jsonl --quiet > /dev/null 2>&1
	@$(JIT) mark

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,cluster]'
	touch $(STAMP)

# The developer's loop, under 90 s: the rules, the records, the store and the analysis (their test
# files below and the package's doctests), without the browser and without the solver (tests
# marked `browser` or `solver`), so it needs no compiled solver. `make test` runs everything.
CHECK_TESTS := \
	tests/test_rules.py tests/test_engine.py tests/test_notation.py tests/test_properties.py \
	tests/test_perft.py tests/test_variants.py tests/test_generate.py \
	tests/test_players.py tests/test_slips.py tests/test_record.py tests/test_readers.py \
	tests/test_bad_input.py tests/test_archive_invariants.py tests/test_store.py tests/test_mutants_store.py \
	tests/test_analysis.py tests/test_detectors.py tests/test_ranking.py tests/test_call_model.py \
	tests/test_what_if.py \
	tests/test_words.py tests/test_accuracy.py tests/test_layers.py tests/test_evening.py \
	tests/test_mutants_cards.py tests/test_mutants_rules.py tests/test_mutants_core.py \
	tests/test_mutants_engine.py tests/test_mutants_record.py tests/test_mutants_analysis.py \
	tests/test_mutants_detectors.py manillen_replay
WORKERS ?= 2

# The tests start the `manillen` command and Streamlit servers hundreds of times. Where
# PYTHONDONTWRITEBYTECODE is set (containers, CI images) Python would compile the package's modules
# anew in each of those processes, a sixth of a second each time; it still reads bytecode that is
# already there, so the tests first compile the package once (only files changed since).
BYTECODE := $(BIN)/python -m compileall -q manillen_replay dashboards bench > /dev/null

# pytest rewrites each test file's asserts before importing it, and keeps the result in
# tests/__pycache__ only where bytecode may be written: with PYTHONDONTWRITEBYTECODE set, each of
# the two processes rewrote every test file again on every run (8 of its 12 processor seconds of
# collecting). The tests run with it unset, so a second run reads what the first wrote.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest

check: $(STAMP)
	@$(BYTECODE)
	$(PYTEST) -q -n $(WORKERS) --dist loadfile -m 'not browser and not solver' $(CHECK_TESTS)

# Two processes (pytest-xdist), each running whole files: `make setup` compiled the solver first,
# so they load it from the cache rather than each compiling it.
test: setup
	@$(BYTECODE)
	$(PYTEST) -q -n $(WORKERS) --dist loadfile

# The demo archive is also where the dashboard's Record page saves: never delete it. Importing
# again adds or updates the demo matches and leaves every other match (recorded ones) as it is.
demo-db: setup
	$(BIN)/manillen import data/demo.jsonl --db $(DEMO_DB)
	$(BIN)/manillen analyze --db $(DEMO_DB)

demo: demo-db
	$(BIN)/manillen dashboard --db $(DEMO_DB) --port $(PORT)

bench: setup
	$(BIN)/python -m bench
	$(BIN)/python -m bench.memory_bench
	$(BIN)/python -m bench.bulk_bench

# Mutation testing of one module with the tests that cover it (docs/testing.md), for example
# `make mutate MODULE=manillen_replay/rules.py`; results stay in .mutation/ (outside git).
MODULE ?= manillen_replay/rules.py
mutate: setup
	$(BIN)/python -m tests.mutate $(MODULE)

lint: setup
	$(BIN)/ruff check manillen_replay dashboards tests bench
	$(BIN)/ruff format --check manillen_replay dashboards tests bench
	$(BIN)/mypy

format: setup
	$(BIN)/ruff format manillen_replay dashboards tests bench
	$(BIN)/ruff check --fix manillen_replay dashboards tests bench

schema: setup
	$(BIN)/manillen schema > schemas/manillen-1.schema.json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
