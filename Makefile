# Two commands, on a fresh machine with Python 3.11+ and make:
#   make site   - build the site from the shipped content into build/site (open build/site/index.html)
#   make test   - run the whole test suite
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: site test serve clean

$(VENV)/.installed: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

site: $(VENV)/.installed
	$(BIN)/kodeks build
	$(BIN)/kodeks export
	@echo "Open build/site/index.html in a browser (or run: $(BIN)/kodeks serve, then http://127.0.0.1:8000/)."

test: $(VENV)/.installed
	$(BIN)/python -m pytest -q

serve: $(VENV)/.installed
	$(BIN)/kodeks serve

clean:
	rm -rf build
