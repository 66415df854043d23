# The two commands of the README: `make demo` and `make test`. Each sets itself up:
# uv is bootstrapped with pip when missing, then `uv sync --locked` installs the locked set.
PY ?= python3
UV := $(shell command -v uv 2>/dev/null)
ifeq ($(UV),)
UV := $(PY) -m uv
endif
RUN := $(UV) run --locked --no-sync

.PHONY: setup demo test lint typecheck unit

setup:
	@$(UV) --version >/dev/null 2>&1 || $(PY) -m pip install --quiet uv || $(PY) -m pip install --quiet --user uv
	@$(UV) sync --locked --quiet

demo: setup
	@$(RUN) pmsw demo

lint: setup
	@$(RUN) ruff check .

typecheck: setup
	@$(RUN) mypy --strict models sandbox pipelines

test: setup lint typecheck
	@$(RUN) pytest -q
