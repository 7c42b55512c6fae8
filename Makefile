# Belote coinchée: build, serve, test.  `make serve` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000
PYTEST_ARGS ?=
# pytest-xdist workers of `make test` / `make test-full`, each with its own Chromium and site server; the
# browser tests spend much of their time waiting (bot delays, timers), so more workers than cores pay.
# JOBS=0: one process.
JOBS ?= 3

.PHONY: venv build serve test test-engine test-full test-e2e test-js bench chromium redis-server axe clean referee lint

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

venv: $(VENV)/.installed

# Debian's Chromium for the browser tests (never `playwright install`).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	  || (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null); }

# Debian's redis-server for the referee's cluster tests (tests/test_referee_cluster.py start their own).
redis-server:
	@command -v redis-server >/dev/null 2>&1 || { \
	  echo "installing Debian's redis-server"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null) \
	  || (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null); }

# axe-core for the accessibility checks of the browser tests (e2e/layout_helpers.py): pinned, from npm,
# kept in .cache/axe, never copied into dist/.
AXE_VERSION := 4.14.1
AXE := .cache/axe/installed-$(AXE_VERSION)

$(AXE):
	npm install --prefix .cache/axe --no-save --no-audit --no-fund --loglevel=error axe-core@$(AXE_VERSION)
	grep -q '"version": "$(AXE_VERSION)"' .cache/axe/node_modules/axe-core/package.json
	touch $@

axe: $(AXE)

# The static site in dist/: web/ + vendored Pyodide + the engine wheel.
build: venv
	$(PY) tools/build_site.py

serve: build
	$(PY) tools/serve.py --port $(PORT) dist

# The 1v1 referee on ws://127.0.0.1:8765 (e.g. REFEREE_ARGS="--host 0.0.0.0 --grace 90"); see referee/README.md.
REFEREE_ARGS ?=
referee: venv
	$(PY) -m coinche_referee $(REFEREE_ARGS)

# Python's lint (ruff, configured in pyproject.toml): no warning allowed.
lint: venv
	$(PY) -m ruff check .

test-engine: venv redis-server
	$(PY) -m pytest tests -n $(JOBS) $(PYTEST_ARGS)

test-e2e: build chromium axe
	$(PY) -m pytest e2e -n $(JOBS) $(PYTEST_ARGS)

# The page's pure functions (notation, the hand's order...) under Node's own test runner, no browser.
test-js:
	node --test tests/js/

# The tiers (conftest.py). Everything at its default size: lint, the page's pure functions, engine tests,
# Pyodide parity, browser tests (the layout ones at a subset of the screens).
test: lint test-js build chromium redis-server axe
	$(PY) -m pytest tests e2e -n $(JOBS) $(PYTEST_ARGS)

# What CI runs: the long differential runs and every layout screen as well.
test-full: lint test-js build chromium redis-server axe
	$(PY) -m pytest tests e2e --full -n $(JOBS) $(PYTEST_ARGS)

# Engine and bots figures (the browser's: bench/web_boot_bench.py, web_table_bench.py, judge_bench.py).
bench: venv
	$(PY) bench/engine_bench.py
	$(PY) bench/bots_bench.py

clean:
	rm -rf $(VENV) dist build .cache
