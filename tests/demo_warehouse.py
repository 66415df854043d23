"""A warehouse built by the real pipeline, once per test session: `pmsw demo` on a short
stretch, in its own process (the sandbox as a child process, syncs over HTTP through the Dagster
definitions, marts, reconciliation dry run and apply, the read copy published). The report and
notebook tests read it; none of them writes to it.

A process of its own: the Dagster partitions are the properties file's, read when
`pipelines.definitions` is imported, and this test session imported it long before."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

_BUILT: dict[str, Path] = {}

SHORT_DAYS, SHORT_DAILY_SYNCS = 40, 2
REPO = Path(__file__).resolve().parents[1]


def demo_warehouse(factory: pytest.TempPathFactory) -> Path:
    """The warehouse file (built on first use in this session)."""
    if "path" not in _BUILT:
        warehouse = factory.mktemp("demo-warehouse") / "warehouse.duckdb"
        done = subprocess.run(
            [sys.executable, "-m", "pipelines.cli", "demo", "--warehouse", str(warehouse),
             "--days", str(SHORT_DAYS), "--daily-syncs", str(SHORT_DAILY_SYNCS)],
            cwd=REPO, capture_output=True, text=True, timeout=600, check=False)
        assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
        _BUILT["path"] = warehouse
    return _BUILT["path"]
