# The two commands of the README: `make demo` and `make test`. Each sets itself up:
# uv is bootstrapped with pip when missing, then `uv sync --locked` installs the locked set.
PY ?= python3
UV := $(shell command -v uv 2>/dev/null)
ifeq ($(UV),)
UV := $(PY) -m uv
endif
RUN := $(UV) run --locked --no-sync

.PHONY: setup demo test lint typecheck unit dagster bench

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

# The Dagster UI on the shipped instance settings (dagster.yaml: pool `duckdb` of size 1).
# DAGSTER_HOME need not exist beforehand: .dagster_home/ is made here, dagster.yaml copied in.
dagster: setup
	@mkdir -p .dagster_home && cp dagster.yaml .dagster_home/dagster.yaml
	@DAGSTER_HOME=$(CURDIR)/.dagster_home $(RUN) dagster dev -w workspace.yaml

# The peer benchmark (~10-15 min): writes benchmarks/results.md. dlt is in the `bench` group
# only (not a default group): `uv run --group bench` installs it for this command.
bench: setup
	@$(UV) run --locked --group bench python -m benchmarks.run_all
