# Two commands on a fresh machine:  `make demo`  and  `make test`.
# Both create .venv, install the package with what it needs, and install the system
# libraries (libzbar0 for pyzbar, chromium for browser tests, poppler-utils for PDF checks,
# nats-server for the hall)
# with apt-get when they can.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
SYSTEM_PACKAGES := libzbar0 chromium poppler-utils nats-server

.PHONY: demo test lint system-deps clean

demo: $(VENV)/.installed
	$(BIN)/companion demo

test: $(VENV)/.installed-test system-deps
	$(BIN)/ruff check companion tests
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 -q

lint: $(VENV)/.installed-test
	$(BIN)/ruff check companion tests
	$(BIN)/mypy

$(VENV)/.installed: pyproject.toml
	@$(MAKE) --no-print-directory system-deps
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/pip install -q -e '.[test]'
	touch $@

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
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist
