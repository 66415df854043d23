# The two commands of the README: `make demo` and `make test`. Each sets itself up:
# uv is bootstrapped with pip when missing, then `uv sync --locked` installs the locked set.
PY ?= python3
UV := $(shell command -v uv 2>/dev/null)
ifeq ($(UV),)
UV := $(PY) -m uv
endif
RUN := $(UV) run --locked --no-sync

.PHONY: setup demo test lint typecheck unit dagster notebooks bench

setup:
	@$(UV) --version >/dev/null 2>&1 || $(PY) -m pip install --quiet uv || $(PY) -m pip install --quiet --user uv
	@$(UV) sync --locked --quiet

demo: setup
	@$(RUN) pmsw demo

lint: setup
	@$(RUN) ruff check .
	@$(RUN) vulture

typecheck: setup
	@$(RUN) mypy --strict models sandbox pipelines

test: setup lint typecheck
	@$(RUN) pytest -q

# The Dagster UI and daemon (`dg dev`, [tool.dg] in pyproject.toml) on the shipped instance
# settings: with DAGSTER_HOME unset, `dg dev` keeps its runs in a temporary .tmp_dagster_home_*
# of the repository root and reads ./dagster.yaml (pool `duckdb` of size 1).
dagster: setup
	@env -u DAGSTER_HOME $(RUN) dg dev

# JupyterLab (the `notebooks` group, installed by default) on notebooks/, kernel = .venv
# (as root, e.g. in a container, Jupyter wants --allow-root).
notebooks: setup
	@$(RUN) jupyter lab notebooks/ $(if $(filter 0,$(shell id -u)),--allow-root)

# The peer benchmark (~10-15 min): writes benchmarks/results.md. dlt is in the `bench` group
# only (not a default group): `uv run --group bench` installs it for this command.
bench: setup
	@$(UV) run --locked --group bench python -m benchmarks.run_all
