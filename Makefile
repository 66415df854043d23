# The two commands of the README: `make demo` and `make test`. Each sets itself up:
# uv is bootstrapped with pip when missing, then `uv sync --locked` installs the locked set.
PY ?= python3
UV := $(shell command -v uv 2>/dev/null)
ifeq ($(UV),)
UV := $(PY) -m uv
endif
RUN := $(UV) run --locked --no-sync
# Python keeps compiled modules (__pycache__, ignored by git) even where the environment says
# not to: a test run starts about a hundred Python processes (pmsw, sandboxes, kernels), and
# without the cache each compiled dagster and the rest of its imports again, 2 s or more each.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: setup demo test lint typecheck unit dagster notebooks app bench verify soak

setup:
	@$(UV) --version >/dev/null 2>&1 || $(PY) -m pip install --quiet uv || $(PY) -m pip install --quiet --user uv
	@$(UV) sync --locked --quiet

demo: setup
	@$(RUN) pmsw demo

lint: setup
	@$(RUN) ruff check .
	@$(RUN) vulture

typecheck: setup
	@$(RUN) mypy --strict models sandbox pipelines benchmarks

# Two pytest-xdist workers (this machine's two cores; the suite is mostly one process waiting
# on its children): each test file runs whole on one worker, so its module fixtures are built
# once. The files with a `slow` test go first (tests/conftest.py; --no-loadscope-reorder keeps
# that order), the short ones even out the end. TEST_WORKERS=0 runs everything in one process.
TEST_WORKERS ?= 2

test: setup lint typecheck
	@$(RUN) pytest -q -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# The long runs, out of `make test` (pyproject addopts deselects the markers `verify` and
# `soak`); docs/operations.md, "Long runs". -s prints their figures.
# verify (~15-30 min): the SQL cross-check over a full simulated year of both demo hotels,
# the revenue tie-out, the simulator's realism year, the demo twice, a month of closes, no
# leaked lines from three fresh interpreters, a quarantined record refetched until released,
# an event gap told by `pmsw sync`, a group's `pmsw sync` and the hourly schedule's run of it,
# an apply killed between its posts, the app's pages served while a day is synced and closed,
# the demo's shortcuts leaving its figures as they were, a group in the group layout (one
# file per property) synced as parallel runs with a reader holding it open, the same group
# under a real `dagster-daemon`: one run per property at once, never two of one property,
# publishes killed at five points of their patch step.
verify: setup
	@$(RUN) pytest -q -s -p no:logging -m verify tests/verify/test_year_crosscheck.py tests/simulator/test_realism.py \
		tests/test_demo.py tests/verify/test_month_close.py tests/test_no_noise.py \
		tests/reliability/test_bad_input.py tests/pipeline/test_group_sync.py \
		tests/reliability/test_recon_crash.py tests/app/test_app.py \
		tests/verify/test_demo_same_figures.py tests/pipeline/test_group_layout.py \
		tests/pipeline/test_group_daemon.py tests/warehouse/test_publish_generations.py

# soak (~20-40 min): 30 simulated days of the 80-room hotel, every fault at 10%, several
# syncs a day, the daily reconciliation, a reader process and `pmsw report` beside them.
soak: setup
	@$(RUN) pytest -q -s -p no:logging -m soak tests/verify/test_soak.py tests/reliability/test_fault_soak.py

# The Dagster UI and daemon (`dg dev`, [tool.dg] in pyproject.toml) on the shipped instance
# settings: with DAGSTER_HOME unset, `dg dev` keeps its runs in a temporary .tmp_dagster_home_*
# of the repository root and reads ./dagster.yaml (pool `duckdb` of size 1).
dagster: setup
	@env -u DAGSTER_HOME $(RUN) dg dev

# JupyterLab (the `notebooks` group, installed by default) on notebooks/, kernel = .venv
# (as root, e.g. in a container, Jupyter wants --allow-root).
notebooks: setup
	@$(RUN) jupyter lab notebooks/ $(if $(filter 0,$(shell id -u)),--allow-root)

# The web app on the read copy (docs/app.md): http://127.0.0.1:8765/, loopback only.
app: setup
	@$(RUN) pmsw app

# Every benchmark (~3 h): writes benchmarks/results.md whole, one section per benchmark.
# dlt is in the `bench` group
# only (not a default group): `uv run --group bench` installs it for this command.
bench: setup
	@$(UV) run --locked --group bench python -m benchmarks.run_all
