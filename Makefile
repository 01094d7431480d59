# rulelab — every target does its own setup: `make test` and `make analysis`
# work on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
CORPUS ?=
JOBS ?= 2

.PHONY: install katago test analysis bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); apt-get update && apt-get install -y python3-venv && $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dask,bench]'
	touch $(STAMP)

# KataGo for `--life katago` (CPU, OpenCL through PoCL) into cache/katago; `make test`
# tries it and carries on without it (its tests then skip, saying why).
katago: $(STAMP)
	$(PY) rulelab/life/katago_setup.py

test: $(STAMP)
	$(PY) rulelab/life/katago_setup.py --optional
	$(PY) -m pytest -q

# The default corpus is Debian's goban-original-games, fetched into cache/: Japanese
# title games whose records name no rules.
analysis: $(STAMP)
	corpus="$(CORPUS)"; assume=""; \
	if [ -z "$$corpus" ]; then corpus=$$(bash analyses/fetch_default_corpus.sh); assume="--assume-rules japanese"; fi; \
	$(VENV)/bin/rulelab score "$$corpus" --out cache/run --force --jobs $(JOBS) $$assume && \
	$(PY) -m analyses.build cache/run reports

bench: $(STAMP)
	$(PY) -m bench.run

clean:
	rm -rf $(VENV) build cache reports out *.egg-info .pytest_cache .hypothesis bench/results.json
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
