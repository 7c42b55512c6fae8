# Belote coinchée: build, serve, test.  `make serve` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000
PYTEST_ARGS ?=

.PHONY: venv build serve test test-engine test-full test-e2e bench chromium clean

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

# The static site in dist/: web/ + vendored Pyodide + the engine wheel.
build: venv
	$(PY) tools/build_site.py

serve: build
	$(PY) tools/serve.py --port $(PORT) dist

test-engine: venv
	$(PY) -m pytest tests $(PYTEST_ARGS)

test-e2e: build chromium
	$(PY) -m pytest e2e $(PYTEST_ARGS)

# Everything: engine tests, Pyodide parity, browser tests.
test: build chromium
	$(PY) -m pytest tests e2e $(PYTEST_ARGS)

# The long differential runs as well (CI runs this).
test-full: build chromium
	$(PY) -m pytest tests e2e --full $(PYTEST_ARGS)

bench: venv
	$(PY) bench/engine_bench.py

clean:
	rm -rf $(VENV) dist build .cache
