# translator: setup and test targets.  `make test` works on a fresh Debian machine.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
APT_PACKAGES = gfortran gcc make cmake ninja-build pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers clinfo \
               openmpi-bin libopenmpi-dev

.PHONY: setup system-deps venv test docs demo clean

setup: system-deps venv

# System packages: compilers, a CPU OpenCL device (PoCL) and Open MPI (the MPI samples and
# tests/e2e/test_mpi.py).  Skipped when all are present.
system-deps:
	@if ! dpkg -s $(APT_PACKAGES) >/dev/null 2>&1; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(APT_PACKAGES) >/dev/null; \
	fi

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

# Workers take two tests at a time (--maxschedchunk 2), the longest first
# (tests/slow_first.txt): the long tests are shared out and the run ends on short ones.
test: setup
	$(PY) -m pytest -q -n auto --maxschedchunk 2 tests

# The documentation (docs/, MyST markdown), built into docs/_build/html; any warning fails.
# The doctests of docs/*.md run in `make test` (tests/unit/test_docs.py).
docs: venv $(VENV)/.docs-installed
	$(VENV)/bin/sphinx-build -W --keep-going -q -b html docs docs/_build/html
	@echo "documentation: docs/_build/html/index.html"

$(VENV)/.docs-installed: pyproject.toml
	$(PY) -m pip install -q -e '.[docs]'
	touch $@

demo: setup
	VENV=$(abspath $(VENV)) samples/run.sh $(SAMPLE)

clean:
	rm -rf $(VENV) build *.egg-info docs/_build
