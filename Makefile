# Two commands, on a fresh machine with Python 3.11+ and make:
#   make site   - build the site from the shipped content into build/site (open build/site/index.html)
#   make test   - run the whole test suite
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The W3C Nu HTML checker, which the tests run on every built page (it needs java).
VNU := build/tools/node_modules/vnu-jar/build/dist/vnu.jar

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

$(VNU):
	npm install --no-audit --no-fund --silent --prefix build/tools vnu-jar@26.9.27

test: $(VENV)/.installed $(VNU)
	$(BIN)/python -m pytest -q

serve: $(VENV)/.installed
	$(BIN)/kodeks serve

clean:
	rm -rf build
