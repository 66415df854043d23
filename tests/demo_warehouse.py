"""A warehouse built by the real pipeline, once per test session: `pmsw demo` on a short
stretch (the sandbox as a child process, syncs over HTTP, marts, reconciliation dry run and
apply). The report and notebook tests read it; none of them writes to it. It runs in a
process of its own, as the demo always does: the Dagster definitions it materializes take
their property partitions from the demo's properties file when first imported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

_BUILT: dict[str, Path] = {}

SHORT_DAYS, SHORT_DAILY_SYNCS = 40, 4


def demo_warehouse(factory: pytest.TempPathFactory) -> Path:
    """The warehouse file (built on first use in this session)."""
    if "path" not in _BUILT:
        warehouse = factory.mktemp("demo-warehouse") / "warehouse.duckdb"
        done = subprocess.run(
            [sys.executable, "-m", "pipelines.cli", "demo", "--warehouse", str(warehouse),
             "--days", str(SHORT_DAYS), "--daily-syncs", str(SHORT_DAILY_SYNCS)],
            capture_output=True, text=True, timeout=900, check=False)
        assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-3000:]
        _BUILT["path"] = warehouse
    return _BUILT["path"]
