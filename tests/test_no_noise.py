"""No noise on the console (issue 13, item 7): `pmsw sync`, `pmsw reconcile` and a short
`pmsw demo`, each in a fresh interpreter, print no nanobind "leaked ... instances / types /
functions" lines on stderr. DuckDB 2.0 prints them at exit after `pl.DataFrame(relation)`;
the warehouse is read into polars through Arrow (`relation.pl()`) instead."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import MakeSandbox
from tests.pipeline.helpers import ALL_SCOPES_KEY, advance, clock, pmsw


def _quiet(done: subprocess.CompletedProcess[str], what: str) -> None:
    assert done.returncode == 0, f"{what}: {done.stderr[-3000:]}"
    assert "leaked" not in done.stderr, f"{what}: {done.stderr[-3000:]}"


@pytest.mark.verify  # make verify: 3 fresh interpreters, 54 s; make test tests the commands
def test_sync_reconcile_and_demo_print_no_leaked_lines(make_sandbox: MakeSandbox,
                                                       tmp_path: Path) -> None:
    sandbox = make_sandbox(clock(), admin=True)
    advance(sandbox.root_url)
    env = {"PMS_API_BASE_URL": sandbox.base_url, "PMS_API_KEY": ALL_SCOPES_KEY}
    db = tmp_path / "warehouse.duckdb"
    synced = pmsw(["sync", "--no-progress", "--warehouse", str(db)], env)
    _quiet(synced, "pmsw sync")
    assert "mart.occupancy_daily" in synced.stdout  # the marts read the warehouse into polars
    _quiet(pmsw(["reconcile", "--warehouse", str(db)], env), "pmsw reconcile")

    demo = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "demo", "--days", "20", "--daily-syncs", "2",
         "--warehouse", str(tmp_path / "demo.duckdb")], capture_output=True, text=True,
        timeout=240, check=False)
    _quiet(demo, "pmsw demo")
