# Developer entry points. Needs only Python >= 3.11 and pip access to PyPI.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: venv demo test bench lint docs clean

# The project's own modules, byte-compiled by `make venv` as pip byte-compiles a package it
# installs (an editable install does not). Without their bytecode every fresh process compiles
# them from source again (PYTHONDONTWRITEBYTECODE set, a read-only tree): 0.6-0.8 s of CPU of a
# fresh process's first `mlc.compile` of examples/mlp.mlir. Import checks each .pyc against its
# source's mtime and size, so a module edited since is compiled from source (correct, only
# slower) until the next `make venv`, which rewrites just the stale ones.
PY_PACKAGES := mlc dialects passes lowering tools

venv: $(STAMP)
	@$(BIN)/python -m compileall -q -j 0 $(PY_PACKAGES) || \
		echo "make venv: some modules were not byte-compiled (above); they compile on import"

# Reinstall whenever pyproject.toml changes (the editable install picks up source edits by itself).
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -e '.[test]'
	@touch $@

demo: venv
	@echo "== mlc-run examples/mlp.mlir: lower-to-cpu, JIT, check against the interpreter, time =="
	@$(BIN)/mlc-run examples/mlp.mlir --random-inputs --seed 0 --dynamic-size 64 --check --bench 20 -o build/demo-mlp.npy
	@echo
	@echo "== mlc-opt -p lower-to-cpu examples/mlp.mlir (first lines of the llvm dialect) =="
	@$(BIN)/mlc-opt examples/mlp.mlir -p lower-to-cpu | head -n 12

# Both suites always run; the target fails if either fails. A suite with no tests yet is reported,
# not failed (lit exits 2 and pytest 5 on an empty suite).
test: venv
	@status=0; \
	if [ -n "$$(find test/lit -name '*.mlir' -not -path '*/Inputs/*' | head -n 1)" ]; then \
		$(BIN)/lit -sv test/lit || status=1; \
	else \
		echo "lit: no tests under test/lit"; \
	fi; \
	$(BIN)/python -m pytest -q test/python; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest: no tests collected"; \
	elif [ $$rc -ne 0 ]; then status=1; fi; \
	exit $$status

bench: venv
	$(BIN)/python bench/ir_throughput.py

# Regenerate the dialect reference pages (docs/dialects/) from the op definitions.
docs: venv
	$(BIN)/python -m mlc.docgen docs/dialects

lint:
	@RUFF=$$(command -v $(BIN)/ruff || command -v ruff || true); \
	if [ -z "$$RUFF" ]; then echo "ruff not installed; skipping lint"; exit 0; fi; \
	$$RUFF check . && $$RUFF format --check .

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
