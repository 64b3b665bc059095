# Two commands on a fresh machine:  `make demo`  and  `make test`.
# Both create .venv and install the package with what it needs. The demo installs only what
# it runs on (libzbar0 for pyzbar); the tests add chromium (browser tests), poppler-utils
# (PDF checks) and nats-server (the hall). System packages come from apt-get when it can be
# used.
#
#   make demo                      the demo on http://127.0.0.1:8765/
#   make demo PORT=9000            on another port (0 picks a free one)
#   make demo SCRIPT=creature-crush/rules-attack   any bundled table script
#   make demo HOST=0.0.0.0         a tablet on the same network may join (PIN for actions)

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PORT   ?= 8765
HOST   ?= 127.0.0.1
SCRIPT ?=
DEMO_PACKAGES := libzbar0
TEST_PACKAGES := chromium poppler-utils nats-server
SYSTEM_PACKAGES := $(DEMO_PACKAGES) $(TEST_PACKAGES)

.PHONY: demo test lint mutation mutation-sample system-deps demo-deps clean

demo: $(VENV)/.installed
	$(BIN)/companion demo --port $(PORT) --host $(HOST) $(if $(SCRIPT),--script $(SCRIPT),)

test: $(VENV)/.installed-test system-deps
	$(BIN)/ruff check companion tests
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 -q --durations=25

lint: $(VENV)/.installed-test
	$(BIN)/ruff check companion tests
	$(BIN)/mypy

# Mutation testing of companion/engine and companion/games (mutmut; see README). The full run
# takes hours; the sample (400 seeded mutants) about an hour. Both write tests/mutation/result.json.
mutation: $(VENV)/.installed-test
	$(BIN)/python -m tests.mutation.run full

mutation-sample: $(VENV)/.installed-test
	$(BIN)/python -m tests.mutation.run sample --size 400

$(VENV)/.installed: pyproject.toml
	@$(MAKE) --no-print-directory demo-deps
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/pip install -q -e '.[test]'
	touch $@

demo-deps:
	@$(MAKE) --no-print-directory system-deps SYSTEM_PACKAGES="$(DEMO_PACKAGES)"

system-deps:
	@missing=""; for p in $(SYSTEM_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  echo "installing system packages:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1; then \
	  echo "installing system packages with sudo:$$missing"; \
	  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	else \
	  echo "NOTE: please install these system packages yourself:$$missing"; \
	  echo "      (libzbar0: pyzbar decoder; chromium: browser tests; poppler-utils: PDF checks;"; \
	  echo "       nats-server: companion hall and its tests)"; \
	fi

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist mutants
