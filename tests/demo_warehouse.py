"""A warehouse built by the real pipeline, once per test session: `pmsw demo` on a short
stretch, in its own process (the sandbox as a child process, syncs over HTTP through the Dagster
definitions, marts, reconciliation dry run and apply, the read copy published). The report and
notebook tests read it; none of them writes to it.

A process of its own: the demo sets its own environment (its properties file, the keys of its
hotels), which must not leak into this test session.

Once per session even under pytest-xdist (`make test` runs two workers): the workers share
the folder above their own temporary roots, and the first to need the warehouse builds it
under a file lock while the other waits for it.

`PMSW_TEST_DEMO_WAREHOUSE=FILE` runs these tests on a warehouse built before by `pmsw demo`
(another seed, another length, another business date) instead: the checks of one figure on
every surface, of every report column's definition, and the reports' own, on data the suite
was not written on (docs/kpi.md, "One figure everywhere")."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

_BUILT: dict[str, Path] = {}
GIVEN_ENV = "PMSW_TEST_DEMO_WAREHOUSE"

SHORT_DAYS, SHORT_DAILY_SYNCS = 40, 1
REPO = Path(__file__).resolve().parents[1]


def _shared_folder(factory: pytest.TempPathFactory) -> Path:
    """The session's folder every worker sees (the base temp itself without xdist)."""
    root = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    folder = root / "demo-warehouse"
    folder.mkdir(exist_ok=True)
    return folder


def demo_warehouse(factory: pytest.TempPathFactory) -> Path:
    """The warehouse file (built on first use in this session, unless GIVEN_ENV names one)."""
    if given := os.environ.get(GIVEN_ENV):
        return Path(given)
    if "path" not in _BUILT:
        folder = _shared_folder(factory)
        warehouse, built = folder / "warehouse.duckdb", folder / "built"
        with (folder / "lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not built.exists():
                done = subprocess.run(
                    [sys.executable, "-m", "pipelines.cli", "demo", "--warehouse",
                     str(warehouse), "--days", str(SHORT_DAYS), "--daily-syncs",
                     str(SHORT_DAILY_SYNCS)],
                    cwd=REPO, capture_output=True, text=True, timeout=600, check=False)
                assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
                built.touch()
        _BUILT["path"] = warehouse
    return _BUILT["path"]
