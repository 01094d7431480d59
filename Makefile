# rulelab — every target does its own setup: `make test` and `make analysis`
# work on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
CORPUS ?=
RUN ?= cache/run
REPORT ?= reports
JOBS ?= 2
PLAYOUT ?= captured
SEEDS ?= 1 2

.PHONY: install cjk-font katago gnugo chromium test check analysis bench probes clean

install: $(STAMP)

$(STAMP): pyproject.toml
	@echo "==> creating the virtualenv $(VENV)"
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); apt-get update && apt-get install -y python3-venv && $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install --quiet --upgrade pip
	@echo "==> installing rulelab and its dependencies (2-3 minutes)"
	@# pip is silent while it unpacks the wheels (half a minute): a line every 5 s says it works
	@( while sleep 5; do echo "==> still installing"; done ) & ticker=$$!; \
	$(PY) -m pip install -e '.[test,dask,bench]'; status=$$?; kill $$ticker; exit $$status
	$(PY) -c 'from rulelab.pipeline.progress import compile_kernels; compile_kernels()'
	@$(MAKE) --no-print-directory cjk-font
	touch $(STAMP)
	@echo "==> installed: run .venv/bin/rulelab --help, or 'source .venv/bin/activate' first"

# A font with CJK glyphs (Debian's fonts-wqy-zenhei), so that names in Chinese, Japanese
# or Korean characters are drawn in the figures; without one they are transliterated.
cjk-font:
	@fc-list 2>/dev/null | grep -qiE "wqy|noto (sans|serif) cjk" || \
		{ apt-get update -qq && apt-get install -y -qq fonts-wqy-zenhei; } || \
		echo "==> no CJK font could be installed (apt-get install fonts-wqy-zenhei); figures transliterate CJK names"

# KataGo for `--life katago` (CPU, OpenCL through PoCL) into cache/katago; `make test`
# tries it and carries on without it (its tests then skip, saying why).
katago: $(STAMP)
	$(PY) -m tools.katago_setup

# GNU Go for `--life gnugo` and `--second-opinion gnugo` (Debian's package); `make test`
# and `make bench` try it and carry on without it.
gnugo:
	@command -v gnugo >/dev/null || [ -x /usr/games/gnugo ] || \
		{ apt-get update -qq && apt-get install -y -qq gnugo; } || \
		echo "==> GNU Go could not be installed (apt-get install gnugo); its tests and figure skip"

# Headless Chromium and its driver (Debian's packages) for the explorer's browser test;
# `make test` tries them and carries on without them (the test then skips, saying why).
chromium:
	@command -v chromedriver >/dev/null || \
		{ apt-get update -qq && apt-get install -y -qq chromium chromium-driver; } || \
		echo "==> Chromium could not be installed (apt-get install chromium chromium-driver); the browser test skips"

test: $(STAMP) gnugo chromium
	@echo "==> running the test suite (about 5 minutes)"
	$(PY) -m tools.katago_setup --optional
	$(PY) -m pytest -q

# The fast tier, for while you work: everything but the slow, corpus and fuzz tests and
# those that start worker processes (pytest markers); under a minute on a quiet machine.
check: $(STAMP)
	$(PY) -m pytest -q -m "not slow and not corpus and not fuzz and not pool"

# The default corpus is Debian's goban-original-games, fetched into cache/: Japanese
# title games whose records name no rules. PLAYOUT=as-is scores Tromp-Taylor and stone
# scoring on the board as it stands. reports/ is replaced whole, only once the new
# report is complete; a CORPUS that is missing, unreadable or holds no game stops the
# scoring before it writes, so cache/run and reports/ stay as they were. Every game is
# counted on its finished board (--finish play: the last dame, protective moves and ko
# played out), the basis of the report's rates. The collection is scored again with each
# life seed of SEEDS (cache/run-seed1, ...; SEEDS= for none), which the report's findings
# compare seed by seed (dead-stone uncertainty). A collection whose servers count the board
# as it stands (open dame for nobody: KGS, ...) is scored once more that way
# (cache/run-as-stands), the basis that reproduces its records and the rates' sensitivity row.
analysis: $(STAMP)
	@corpus="$(CORPUS)"; assume=""; \
	if [ -z "$$corpus" ]; then echo "==> fetching the default corpus"; \
		corpus=$$(bash analyses/fetch_default_corpus.sh); assume="--assume-rules japanese"; fi; \
	echo "==> scoring $$corpus into $(RUN)"; \
	$(VENV)/bin/rulelab score "$$corpus" --out $(RUN) --force --jobs $(JOBS) --playout $(PLAYOUT) \
		--finish play $$assume || exit 1; \
	seeded=""; for seed in $(SEEDS); do \
		echo "==> scoring $$corpus with life seed $$seed into $(RUN)-seed$$seed (dead-stone uncertainty)"; \
		$(VENV)/bin/rulelab score "$$corpus" --out $(RUN)-seed$$seed --force --jobs $(JOBS) --playout $(PLAYOUT) \
			--finish play --seed $$seed $$assume || exit 1; \
		seeded="$$seeded $(RUN)-seed$$seed"; done; \
	standing=""; if [ "$$($(PY) -m analyses.counted_on $(RUN))" != play ]; then \
		echo "==> scoring $$corpus as its boards stand into $(RUN)-as-stands (its servers' count, a sensitivity row)"; \
		$(VENV)/bin/rulelab score "$$corpus" --out $(RUN)-as-stands --force --jobs $(JOBS) --playout $(PLAYOUT) \
			--finish none $$assume || exit 1; \
		standing="--as-stands $(RUN)-as-stands"; fi; \
	echo "==> building the report in $(REPORT)/" && \
	$(VENV)/bin/rulelab report $(RUN) $(REPORT) $${seeded:+--seed-runs$$seeded} $$standing

bench: $(STAMP) gnugo
	$(PY) -m bench.run

# The hostile-input probe set (bench/probes): every probe made from its smallest input in a
# temporary folder and run as a user would; a table per category, each failure with its
# reason; exit status 1 on any failure. PROBE_JOBS probes run at once.
PROBE_JOBS ?= 1
probes: $(STAMP)
	$(PY) -m bench.probes --jobs $(PROBE_JOBS)

clean:
	rm -rf $(VENV) build cache reports out *.egg-info .pytest_cache .hypothesis bench/results.json
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
